"""Issue 26 in Python: empty and cut-off replies, the tool protocol with the
real openai and anthropic SDKs against a strict local server, pickling and
ProcessPoolExecutor."""

import json
import pickle
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import openai
import pytest

import ptc_lisp
from pool_example import missions, run_all


def session(**kw):
    return ptc_lisp.Session("Add up the numbers", data={"nums": [1, 2, 3, 4]}, max_turns=6, **kw)


def test_run_turn_none_is_an_empty_failed_turn():
    s = session()
    t = s.run_turn(None)
    assert not t.success
    assert "the reply was empty" in str(t.error)
    assert s.status == "running"


def test_cut_off_and_tool_calls_from_dicts():
    s = session()
    t = s.run_turn("(def x (reduce + data/nums))", finish_reason="length")
    assert not t.success and "cut off" in str(t.error)
    assert s.memory == {}
    # OpenAI's shape, Anthropic's shape.
    t = s.run_turn(None, calls=[{"id": "c1", "type": "function",
                                 "function": {"name": "run_ptc_lisp", "arguments": '{"program": "(def x 10)"}'}}])
    assert t.success and s.memory == {"x": 10}
    t = s.run_turn("", calls=[{"type": "tool_use", "id": "t1", "name": "run_ptc_lisp", "input": {"program": "(+ x 1)"}}])
    assert t.value == 11
    t = s.run_turn("prose only", calls=[])
    assert not t.success and "no run_ptc_lisp call" in str(t.error)


def test_next_prompt_and_request_in_the_tool_protocol():
    s = session()
    assert s.protocol == "text"
    req = s.request(protocol="tool")
    assert s.protocol == "tool"
    assert req["tool_choice"] == "required"
    assert req["tools"][0]["function"]["name"] == "run_ptc_lisp"
    assert "run_ptc_lisp tool" in req["messages"][0]["content"]
    s.run_turn("", calls=[{"name": "run_ptc_lisp", "arguments": '{"program": "(def x 1)"}'}])
    m = s.next_prompt()
    assert m[2]["tool_calls"][0]["id"] == "ptc_turn_1"
    assert m[3] == {"role": "tool", "tool_call_id": "ptc_turn_1", "content": m[3]["content"]}
    a = s.request("anthropic")
    assert a["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert a["tool_choice"] == {"type": "tool", "name": "run_ptc_lisp"}
    assert a["messages"][1]["content"][0]["type"] == "tool_use"
    assert a["messages"][2]["content"][0]["type"] == "tool_result"
    assert isinstance(s.request("anthropic", cache=False)["system"], str)
    with pytest.raises(ValueError):
        s.next_prompt(protocol="xml")


# --- a strict local provider for the real SDKs -------------------------------

def _check_openai(body):
    open_ids = []
    for i, m in enumerate(body["messages"]):
        if m["role"] == "tool":
            assert m["tool_call_id"] in open_ids, f"messages[{i}]: tool message without its call"
            open_ids.remove(m["tool_call_id"])
            continue
        assert not open_ids, f"messages[{i}]: call without its result {open_ids}"
        for c in m.get("tool_calls") or []:
            json.loads(c["function"]["arguments"])
            open_ids.append(c["id"])
    assert not open_ids


def _check_anthropic(body):
    pending, role = [], "user"
    for i, m in enumerate(body["messages"]):
        assert m["role"] == role, f"messages.{i}: roles must alternate"
        blocks = m["content"] if isinstance(m["content"], list) else [{"type": "text", "text": m["content"]}]
        results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
        if role == "user":
            assert sorted(results) == sorted(pending), f"messages.{i}: tool_use/tool_result mismatch"
            pending = []
        else:
            for b in blocks:
                if b["type"] == "text":
                    assert b["text"].strip(), f"messages.{i}: empty text block"
                if b["type"] == "tool_use":
                    assert isinstance(b["input"], dict)
                    pending.append(b["id"])
        role = "assistant" if role == "user" else "user"
    assert not pending


class _Provider:
    """Answers both formats from a script of programs (None: prose only)."""

    def __init__(self, script):
        self.script, self.requests = list(script), []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                provider.requests.append((self.path, body))
                try:
                    if self.path.endswith("/chat/completions"):
                        _check_openai(body)
                    else:
                        _check_anthropic(body)
                except AssertionError as e:
                    return self._send(400, {"error": {"type": "invalid_request_error", "message": str(e)}})
                program = provider.script.pop(0)
                self._send(200, provider.answer(self.path, program))

            def _send(self, code, obj):
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path, program):
        n = len(self.requests)
        if path.endswith("/chat/completions"):
            msg = {"role": "assistant", "content": "thinking" if program is None else None}
            if program is not None:
                msg["tool_calls"] = [{"id": f"call_{n}", "type": "function",
                                      "function": {"name": "run_ptc_lisp", "arguments": json.dumps({"program": program})}}]
            return {"id": f"c{n}", "object": "chat.completion", "created": 0, "model": "m",
                    "choices": [{"index": 0, "message": msg, "finish_reason": "stop" if program is None else "tool_calls"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
        content = [{"type": "text", "text": "thinking"}] if program is None else \
            [{"type": "tool_use", "id": f"toolu_{n}", "name": "run_ptc_lisp", "input": {"program": program}}]
        return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "m", "content": content,
                "stop_reason": "end_turn" if program is None else "tool_use", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5}}


SCRIPT = ["(def total (reduce + data/nums))", None, "(return total)"]


def test_openai_sdk_drives_the_tool_protocol():
    p = _Provider(SCRIPT)
    client = openai.OpenAI(base_url=p.base + "/v1", api_key="test", max_retries=0)
    s = session(compression=False)
    while s.status == "running":
        r = client.chat.completions.create(model="m", **s.request(protocol="tool"))
        choice = r.choices[0]
        s.run_turn(choice.message.content, calls=choice.message.tool_calls or [],
                   finish_reason=choice.finish_reason)
    assert s.status == "returned" and s.result == 10
    assert [t.success for t in s.turns] == [True, False, True]
    last = p.requests[-1][1]["messages"]
    assert any(m["role"] == "tool" for m in last)


def test_anthropic_sdk_drives_the_tool_protocol():
    p = _Provider(SCRIPT)
    client = anthropic.Anthropic(base_url=p.base, api_key="test", max_retries=0)
    s = session(compression=False)
    while s.status == "running":
        r = client.messages.create(model="m", max_tokens=1024, **s.request("anthropic", protocol="tool"))
        text = "".join(b.text for b in r.content if b.type == "text")
        calls = [b for b in r.content if b.type == "tool_use"]
        s.run_turn(text or None, calls=calls, finish_reason=r.stop_reason)
    assert s.status == "returned" and s.result == 10
    last = p.requests[-1][1]
    assert last["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert any(isinstance(m["content"], list) and m["content"][0]["type"] == "tool_result" for m in last["messages"])


# --- pickling ----------------------------------------------------------------

def test_a_session_pickles_with_its_turns_and_tools():
    s = missions()[3]
    s.run_turn("(def total (reduce + (map tool/price-of data/items)))")
    s.run_turn("", calls=[])
    back = pickle.loads(pickle.dumps(s))
    assert back.memory == s.memory == {"total": 15}
    assert [t.success for t in back.turns] == [True, False]
    assert back.next_prompt() == s.next_prompt()
    # The tool is live again: a new turn calls it.
    assert back.run_turn("(tool/price-of \"fig\")").value == 7


def test_process_pool_example_runs_missions_in_workers():
    done = run_all(workers=2)
    assert [s.status for s in done] == ["returned"] * 4
    assert [s.result for s in done] == [3, 8, 14, 15]
