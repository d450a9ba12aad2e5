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
        names = sorted(t.name for t in (await c.list_tools()).tools)
        assert names == ["ptc_reset", "ptc_state", "run_ptc_lisp"], names
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


asyncio.run(globals()[SCENARIO]())
print("ok", SCENARIO)
