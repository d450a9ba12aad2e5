"""Scenarios of `ptc mcp` driven by the official MCP Python SDK client
(tests/deps/.venv, installed by `bash tests/setup.sh`). Run by
tests/mcp_server.rs: `python clients.py SCENARIO PTC SESSION.json [URL] [PID]`;
exit 0 when every assertion held, else a traceback naming what failed."""

import asyncio
import json
import sys
import time

import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters

SCENARIO, PTC, SESSION = sys.argv[1], sys.argv[2], sys.argv[3]
URL = sys.argv[4] if len(sys.argv) > 4 else None
PID = int(sys.argv[5]) if len(sys.argv) > 5 else None
SECRET = "s3cr3t-api-token-9f8e7d"


def stdio(*extra):
    return Client(StdioServerParameters(command=PTC, args=["mcp", SESSION, *extra]))


async def run(c, program):
    r = await c.call_tool("run_ptc_lisp", {"program": program})
    return r.content[0].text, r.structured_content, bool(r.is_error)


async def definitions_and_rollback():
    async with stdio() as c:
        tools = await c.list_tools()
        names = sorted(t.name for t in tools.tools)
        assert names == ["ptc_reset", "ptc_state", "run_ptc_lisp"], names
        for t in tools.tools:
            assert len(t.description.encode()) <= 2048, (t.name, len(t.description))
        text, s, err = await run(c, "(def x 41)\n(defn twice [n] (* 2 n))")
        assert not err and s["defined"] == ["x", "twice"], (text, s)
        text, s, err = await run(c, "(twice (inc x))")
        assert not err and s["value"] == 84 and text == "Result: 84", (text, s)
        # A failed call changes nothing.
        text, s, err = await run(c, '(def x 100)\n(def y 1)\n(+ x "a")')
        assert err, text
        assert s["error"]["kind"] == "type-error" and s["error"]["line"] == 3, s
        assert "Error: + expects numbers" in text and "At: line 3, column 1" in text, text
        assert s["defined"] == [], s
        text, s, err = await run(c, "x")
        assert not err and s["value"] == 41, (text, s)
        text, s, err = await run(c, "y")
        assert err and s["error"]["kind"] == "undefined-error", (text, s)
        # return does not end the session; prints and tool calls are listed.
        text, s, err = await run(c, '(println "hello" x)\n(tool/lookup 7)\n(return (+ x 1))')
        assert not err and s["value"] == 42 and s["prints"] == ["hello 41"], (text, s)
        assert ";; Tool calls made:\n;   lookup(7)" in text and ";; Output:\nhello 41" in text, text
        text, s, err = await run(c, "(fail \"no\")")
        assert err and s["error"]["kind"] == "fail", s
        text, s, err = await run(c, "(inc x)")
        assert not err and s["value"] == 42, (text, s)
        state = (await c.call_tool("ptc_state", {})).content[0].text
        assert "(tool/lookup id)" in state and "data/orders" in state, state
        assert "x                                ; = integer, sample: 41" in state, state
        reset = (await c.call_tool("ptc_reset", {})).content[0].text
        assert reset.startswith("Session reset"), reset
        text, s, err = await run(c, "x")
        assert err and s["error"]["kind"] == "undefined-error", (text, s)
        state = (await c.call_tool("ptc_state", {})).content[0].text
        assert "user/" not in state and "data/orders" in state, state
        prompt = await c.get_prompt("ptc-lisp")
        assert "PTC-Lisp" in prompt.messages[0].content.text and len(prompt.messages[0].content.text) > 4000
        res = await c.read_resource("ptc://system-prompt")
        assert res.contents[0].text == prompt.messages[0].content.text
        # A bad program argument is a JSON-RPC error (invalid params), and the
        # session keeps serving.
        try:
            await c.call_tool("run_ptc_lisp", {"program": 5})
            raise AssertionError("a numeric program was accepted")
        except Exception as e:  # MCPError
            assert "must be a string" in str(e), e
        text, s, err = await run(c, "(+ 1 2)")
        assert s["value"] == 3


async def answers_stand_alone():
    # Hosts that show their model only structuredContent (Claude Code,
    # Codex, pydantic-ai) must find the whole answer there: the printed
    # result exactly as the text has it, for every kind of value, the JSON
    # value only where exact; the error with its hint and position.
    import jsonschema

    async with stdio() as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        run_schema = tools["run_ptc_lisp"].output_schema
        state_schema = tools["ptc_state"].output_schema
        assert run_schema and state_schema, tools
        ann = {n: t.annotations for n, t in tools.items()}
        assert ann["run_ptc_lisp"].read_only_hint is False, ann
        # The session's only tool answers from the file: nothing written.
        assert ann["run_ptc_lisp"].destructive_hint is False, ann
        assert ann["ptc_state"].read_only_hint is True, ann
        assert ann["ptc_reset"].read_only_hint is False and ann["ptc_reset"].destructive_hint is True, ann
        seen = []
        for program, printed, value in [
            ("(+ 40 2)", "42", 42),
            ("{:status :ok :n 2}", "{:status :ok :n 2}", None),
            ("(set [3 1 2])", "#{1 2 3}", None),
            ('{"a" 1 "b" 2}', '{"a" 1 "b" 2}', None),
            ("(vec (range 5000))", "[0 1 2 3 4 5 6 7 8 9 ...] (5000 items, showing first 10)", None),
            ('[1 "two" nil]', '[1 "two" nil]', [1, "two", None]),
        ]:
            text, s, err = await run(c, program)
            jsonschema.validate(s, run_schema)
            assert not err and s["result"] == printed, (program, text, s)
            assert text.startswith(f"Result: {printed}"), (program, text)
            if value is None:
                assert "value" not in s, (program, s)
            else:
                assert s["value"] == value, (program, s)
            seen.append((text, s))
        # The first answer of the MCP session, and only it, says that
        # definitions live within one MCP session.
        note = "definitions persist only within this MCP session"
        assert note in seen[0][0] and note in seen[0][1]["note"], seen[0]
        assert all(note not in t and "note" not in s for t, s in seen[1:]), seen[1:]
        text, s, err = await run(c, '(println "hi")\n(tool/lookup 7)\n(fliter odd? [1 2])')
        jsonschema.validate(s, run_schema)
        assert err and s["result"] is None, (text, s)
        assert s["error"] == {"kind": "undefined-error", "message": "undefined symbol 'fliter'",
                              "hint": "did you mean filter?", "line": 3, "column": 2}, s
        assert s["prints"] == ["hi"] and s["tool_calls"] == ["lookup(7) (turn 7 failed)"], s
        assert "Hint: did you mean filter?" in text and "At: line 3, column 2" in text, text
        r = await c.call_tool("ptc_state", {})
        jsonschema.validate(r.structured_content, state_schema)
        assert r.structured_content["listing"] == r.content[0].text, r
        assert "data/orders" in r.structured_content["listing"], r
        # The resource and the prompt say the same in their listing and
        # when read.
        listed = (await c.list_resources()).resources[0]
        read = (await c.read_resource("ptc://system-prompt")).contents[0]
        assert listed.mime_type == read.mime_type == "text/markdown", (listed, read)
        prompt = (await c.list_prompts()).prompts[0]
        got = await c.get_prompt("ptc-lisp")
        assert prompt.description == got.description, (prompt.description, got.description)


async def capped_answer():
    # --max-output-tokens 20: the text is cut, and so is the structured
    # result, at the same place, with the same note.
    async with stdio("--max-output-tokens", "20") as c:
        await run(c, "1")
        text, s, err = await run(c, '(println "a short line")\n(vec (range 40))')
        assert not err and "output cut at 20 tokens" in text, text
        note = text[text.index("... (output cut"):]
        assert s["truncated"] == note and s["result"].endswith("\n" + note), s
        shown = text[text.index("Result: ") + len("Result: "):]
        assert s["result"] == shown, (s["result"], shown)
        assert "value" not in s, s


async def timeout():
    # The step limit far away: on a fast machine 10 M steps take less
    # than 300 ms, and this is about the time limit.
    async with stdio("--timeout-ms", "300", "--max-steps", "100000000000") as c:
        await run(c, "(def keep 1)")
        t = time.time()
        text, s, err = await run(c, "(def keep 2)\n(loop [i 0] (recur (inc i)))")
        assert err and s["error"]["kind"] == "timeout", (text, s)
        assert "time limit of 300 ms" in text, text
        assert time.time() - t < 20
        text, s, err = await run(c, "keep")
        assert s["value"] == 1, s


async def hidden():
    async with stdio() as c:
        programs = [
            "data/_key",
            "(println data/_key)",
            "(println (subs data/_key 0 12))",
            "(tool/lookup data/_key)",
            "(def k (str data/_key \"!\"))",
            "(+ 1 data/_key)",
            "(throw (ex-info data/_key {}))",
            "{:k data/_key :n (count data/_key)}",
        ]
        seen = []
        for p in programs:
            r = await c.call_tool("run_ptc_lisp", {"program": p})
            seen.append(r.model_dump_json())
        seen.append((await c.call_tool("ptc_state", {})).model_dump_json())
        seen.append((await c.list_tools()).model_dump_json())
        seen.append((await c.get_prompt("ptc-lisp")).model_dump_json())
        for s in seen:
            assert SECRET not in s and SECRET[:12] not in s, s
        assert any("data/_key" in s for s in seen)


async def http_concurrent():
    async def one(i):
        async with Client(URL) as c:
            text, s, err = await run(c, f"(def mine {i})\n(def heavy (reduce + (range 20000)))")
            assert not err, text
            await asyncio.sleep(0.2)
            text, s, err = await run(c, "[mine heavy]")
            assert s["value"] == [i, 199990000], (i, s)
            return i

    done = await asyncio.gather(*(one(i) for i in range(8)))
    assert sorted(done) == list(range(8))


async def http_disconnect():
    async def spin():
        async with Client(URL) as c:
            await run(c, "(loop [] (recur))")

    task = asyncio.create_task(spin())
    await asyncio.sleep(3.0)
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Exception):
        pass
    # Another client is served meanwhile (tests/mcp_server.rs then waits
    # for the server to report the abandoned turn interrupted).
    async with Client(URL) as c:
        text, s, err = await run(c, "(+ 1 2)")
        assert s["value"] == 3


async def http_malformed():
    async with httpx2.AsyncClient() as h:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        r = await h.post(URL, content=b"{not json", headers=headers)
        assert r.status_code == 400, (r.status_code, r.text)
        assert r.json()["error"]["code"] == -32700, r.text
        r = await h.post(URL, content=b'{"jsonrpc": "2.0", "id": 9, "method": 7}', headers=headers)
        assert r.status_code == 400, (r.status_code, r.text)
        body = r.json()
        assert body["id"] == 9 and body["error"]["code"] == -32600, body
        assert "method" in body["error"]["message"], body
    async with Client(URL) as c:
        text, s, err = await run(c, "(* 6 7)")
        assert s["value"] == 42


async def http_token():
    async with httpx2.AsyncClient() as h:
        r = await h.post(URL, content=b"{}", headers={"Content-Type": "application/json"})
        assert r.status_code == 401, r.status_code
        assert "Authorization: Bearer" in r.text
    try:
        async with Client(URL) as c:
            await run(c, "1")
        raise AssertionError("a client without the token was served")
    except AssertionError:
        raise
    except BaseException:
        pass
    from mcp.client.streamable_http import streamable_http_client
    http = httpx2.AsyncClient(headers={"Authorization": "Bearer tok-123"})
    async with Client(streamable_http_client(URL, http_client=http)) as c:
        text, s, err = await run(c, "(+ 40 2)")
        assert s["value"] == 42, s


async def http_idle():
    async with httpx2.AsyncClient() as h:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}
        r = await h.post(URL, json=init, headers=headers)
        assert r.status_code == 200, r.text
        sid = r.headers["mcp-session-id"]
        headers["mcp-session-id"] = sid
        headers["mcp-protocol-version"] = "2025-06-18"
        r = await h.post(URL, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        assert r.status_code == 202, r.status_code
        r = await h.post(URL, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers)
        assert r.status_code == 200, r.status_code
        await asyncio.sleep(3.0)
        r = await h.post(URL, json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, headers=headers)
        assert r.status_code == 404, (r.status_code, r.text)


async def upstream():
    # ptc fronts the filesystem MCP server of the session file: its tools
    # are tool/fs.* inside programs, the client sees ptc's three tools.
    async with stdio() as c:
        tools = (await c.list_tools()).tools
        names = sorted(t.name for t in tools)
        assert names == ["ptc_reset", "ptc_state", "run_ptc_lisp"], names
        # A program may write through the upstream server: run_ptc_lisp is
        # marked destructive.
        run_tool = next(t for t in tools if t.name == "run_ptc_lisp")
        assert run_tool.annotations.destructive_hint is True, run_tool.annotations
        assert run_tool.annotations.read_only_hint is False, run_tool.annotations
        state = (await c.call_tool("ptc_state", {})).content[0].text
        assert "tool/fs.read_text_file" in state and "tool/fs.list_directory" in state, state
        text, s, err = await run(
            c,
            '(def names (->> (:content (tool/fs.list_directory {:path "."}))\n'
            '                (re-seq #"\\[FILE\\] (\\S+)") (mapv second)))\n(println names)',
        )
        assert not err and s["defined"] == ["names"], (text, s)
        assert s["prints"] == ['["a.md" "b.md"]'], s
        text, s, err = await run(c, "(:content (tool/fs.read_text_file {:path (first names)}))")
        assert not err and s["value"] == "hello from upstream\n", (text, s)
        assert "fs.read_text_file" in text, text
        # An upstream error is a failed call; definitions stay.
        text, s, err = await run(c, '(def gone (tool/fs.read_text_file {:path "missing.md"}))')
        assert err and s["error"]["kind"] == "tool-error", (text, s)
        text, s, err = await run(c, "(count names)")
        assert not err and s["value"] == 2, (text, s)


HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


async def raw_session(h, extra=None):
    """A raw initialized session: its headers (with Mcp-Session-Id)."""
    headers = dict(HEADERS, **(extra or {}))
    r = await h.post(URL, json=INIT, headers=headers)
    assert r.status_code == 200, (r.status_code, r.text)
    headers["mcp-session-id"] = r.headers["mcp-session-id"]
    headers["mcp-protocol-version"] = "2025-06-18"
    r = await h.post(URL, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    assert r.status_code == 202, r.status_code
    return headers


def sse_result(text):
    """The JSON-RPC message in an SSE response body."""
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            return json.loads(line[5:])
    raise AssertionError(f"no message in {text!r}")


def children(pid):
    kids = []
    import glob
    for f in glob.glob(f"/proc/{pid}/task/*/children"):
        with open(f) as fh:
            kids += fh.read().split()
    return kids


async def http_shared_upstream():
    # Four sessions open at once, each calling the upstream server: one
    # upstream process serves them all.
    from contextlib import AsyncExitStack
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(URL)) for _ in range(4)]
        for c in clients:
            text, s, err = await run(c, '(:content (tool/fs.read_text_file {:path "a.md"}))')
            assert not err and s["value"] == "hello\n", (text, s)
        kids = children(PID)
        assert len(kids) == 1, f"{len(kids)} child processes for 4 sessions: {kids}"


async def http_session_limit():
    async with httpx2.AsyncClient() as h:
        sessions = [await raw_session(h) for _ in range(3)]
        r = await h.post(URL, json=INIT, headers=HEADERS)
        assert r.status_code == 503, (r.status_code, r.text)
        body = r.json()
        assert body["id"] == 1 and body["error"]["code"] == -32000, body
        assert "--max-sessions" in body["error"]["message"], body
        # The sessions served go on.
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "run_ptc_lisp", "arguments": {"program": "(+ 1 2)"}}}
        r = await h.post(URL, json=call, headers=sessions[0])
        assert sse_result(r.text)["result"]["structuredContent"]["value"] == 3, r.text
        # One ends: a new one is served.
        r = await h.delete(URL, headers=sessions[0])
        # 202 makes every Python SDK client (and LangChain) warn on close.
        assert r.status_code == 204 and r.content == b"", (r.status_code, r.text)
        for _ in range(100):
            r = await h.post(URL, json=INIT, headers=HEADERS)
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200, (r.status_code, r.text)


async def http_origin_and_bearer():
    async with httpx2.AsyncClient() as h:
        auth = {"Authorization": "Bearer tok-123"}
        r = await h.post(URL, json=INIT, headers=dict(HEADERS, Origin="https://evil.example", **auth))
        assert r.status_code == 403, (r.status_code, r.text)
        assert "--allow-origin https://evil.example" in r.text, r.text
        r = await h.post(URL, json=INIT, headers=dict(HEADERS, Origin="null", **auth))
        assert r.status_code == 403, (r.status_code, r.text)
        for origin, scheme in [("http://localhost:5173", "bearer"), ("http://127.0.0.1", "BEARER"),
                               ("https://app.example.com", "Bearer"), (None, "bearer")]:
            headers = dict(HEADERS, Authorization=f"{scheme} tok-123")
            if origin:
                headers["Origin"] = origin
            r = await h.post(URL, json=INIT, headers=headers)
            assert r.status_code == 200, (origin, scheme, r.status_code, r.text)
        r = await h.post(URL, json=INIT, headers=dict(HEADERS, Authorization="bearer wrong"))
        assert r.status_code == 401, r.status_code


async def http_drop_connection():
    async with httpx2.AsyncClient() as h:
        headers = await raw_session(h)
    spin = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "run_ptc_lisp", "arguments": {"program": "(def y 2) (loop [] (recur))"}}}
    # The call starts, then the client's connection closes under it.
    async with httpx2.AsyncClient() as h:
        async with h.stream("POST", URL, json=spin, headers=headers) as r:
            assert r.status_code == 200, r.status_code
            await asyncio.sleep(1.5)
    # The same session answers its next call at once (the abandoned turn,
    # limited to 60 s, was interrupted), its memory unchanged.
    t = time.time()
    async with httpx2.AsyncClient(timeout=120) as h:
        call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "run_ptc_lisp", "arguments": {"program": "(+ 1 2)"}}}
        r = await h.post(URL, json=call, headers=headers)
        assert sse_result(r.text)["result"]["structuredContent"]["value"] == 3, r.text
        assert time.time() - t < 20, f"the next call waited {time.time() - t:.1f} s"
        call["params"]["arguments"]["program"] = "y"
        r = await h.post(URL, json=call, headers=headers)
        assert sse_result(r.text)["result"]["structuredContent"]["error"]["kind"] == "undefined-error", r.text



def appended():
    import os
    log = os.path.join(os.path.dirname(SESSION), "appended.log")
    return open(log).read().splitlines() if os.path.exists(log) else []


async def approval_by_elicitation():
    from mcp import types

    answers, asked = ["accept", "decline"], []

    async def elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action=answers.pop(0), content={} if answers == ["decline"] else None)

    async with Client(StdioServerParameters(command=PTC, args=["mcp", SESSION]), elicitation_callback=elicit) as c:
        # The user approves: the write runs once, the model sees its result.
        text, s, err = await run(c, '(tool/append "first")')
        assert not err and s["value"] == "appended", (text, s)
        assert len(asked) == 1 and 'tool/append("first")' in asked[0] and "writes" in asked[0], asked
        assert len(appended()) == 1 and "first" in appended()[0], appended()
        # The user declines: the call fails with the reason, nothing written.
        text, s, err = await run(c, '(tool/append "second")')
        assert err and s["error"]["kind"] == "tool-error", (text, s)
        assert "declined by the user" in text, text
        assert len(asked) == 2 and len(appended()) == 1, (asked, appended())
        # A denied call can be caught by the program.
        answers.append("cancel")
        text, s, err = await run(c, '(try (tool/append "third") (catch Exception e "not written"))')
        assert not err and s["value"] == "not written", (text, s)
        assert len(appended()) == 1, appended()


async def approval_denied_without_elicitation():
    async with stdio() as c:
        text, s, err = await run(c, '(tool/append "first")')
        assert err and s["error"]["kind"] == "tool-error", (text, s)
        assert "cannot ask the user for approval (no elicitation support)" in text, text
        assert appended() == [], appended()
        # The session goes on: reads run, the next call is answered.
        text, s, err = await run(c, "(+ 1 2)")
        assert not err and s["value"] == 3, (text, s)

asyncio.run(globals()[SCENARIO]())
print("ok", SCENARIO)
