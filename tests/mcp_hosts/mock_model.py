"""A mock model for driving real agent hosts against `ptc mcp` offline.

A stdlib HTTP server on 127.0.0.1 (a free port) that speaks Anthropic
Messages (`POST .../v1/messages`, streamed or not), OpenAI Responses
(`POST .../responses`, streamed or not) and OpenAI Chat Completions
(`POST .../chat/completions`, streamed or not). It is stateless: each request
is answered from the tool results it already carries. With N results so far
and N < len(programs), it calls the tool whose name ends in `run_ptc_lisp`
with `programs[N]`; after the last one it answers the text "done". A request
that offers no such tool (a host's own side requests: titles, quota checks)
gets the text "ok".

Every tool result the host sent back (what it showed its model) is kept, in
order, in `results` (call index → text); `latencies` holds, per call, the
seconds from the answer that asked for it to the request carrying its
result. `requests` lists every (method, path) seen.
"""

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RUN_TOOL = "run_ptc_lisp"


def _text_of(content):
    """The text of a tool result's content, whatever its shape."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for c in content:
            if isinstance(c, dict):
                parts.append(c.get("text") or c.get("output") or json.dumps(c))
            else:
                parts.append(str(c))
        return "\n".join(parts)
    if isinstance(content, dict):
        return content.get("text") or json.dumps(content)
    return str(content)


def _strings(x):
    """Every string inside a JSON value."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)


class MockModel:
    def __init__(self, programs):
        self.programs = list(programs)
        self.results = {}
        self.sent = {}
        self.latencies = {}
        self.requests = []
        self.bodies = []
        self.lock = threading.Lock()
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with mock.lock:
                    mock.requests.append(("GET", self.path))
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "mock", "object": "model"}], "models": []})
                else:
                    self._json(404, {"error": {"message": "not here", "type": "not_found"}})

            def do_HEAD(self):
                with mock.lock:
                    mock.requests.append(("HEAD", self.path))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                with mock.lock:
                    mock.requests.append(("POST", self.path))
                    mock.bodies.append(body)
                if path.endswith("/messages/count_tokens"):
                    return self._json(200, {"input_tokens": 10})
                if path.endswith("/messages"):
                    return mock.anthropic(self, body)
                if path.endswith("/responses"):
                    return mock.responses(self, body)
                if path.endswith("/chat/completions"):
                    return mock.chat(self, body)
                self._json(404, {"error": {"message": f"mock model: no route {path}", "type": "not_found"}})

            def _json(self, code, obj):
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def sse(self, events):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for name, data in events:
                    chunk = ""
                    if name:
                        chunk += f"event: {name}\n"
                    chunk += f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
                    self.wfile.write(chunk.encode())
                    self.wfile.flush()
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    # What to do next, from the results a request carries.
    def _next(self, results, tool_name):
        now = time.monotonic()
        with self.lock:
            for i, r in enumerate(results):
                self.results.setdefault(i, r)
                if i in self.sent and i not in self.latencies:
                    self.latencies[i] = now - self.sent[i]
            n = len(results)
            if tool_name is None:
                return None, None
            if n < len(self.programs):
                return n, self.programs[n]
            return None, None

    def _mark_sent(self, index):
        if index is not None:
            with self.lock:
                self.sent.setdefault(index, time.monotonic())

    # Anthropic Messages.
    def anthropic(self, h, body):
        results, searched = [], False
        for m in body.get("messages", []):
            if isinstance(m.get("content"), list):
                for c in m["content"]:
                    if isinstance(c, dict) and c.get("type") == "tool_result":
                        if str(c.get("tool_use_id", "")).startswith("toolu_run_"):
                            results.append(_text_of(c.get("content")))
                        elif c.get("tool_use_id") == "toolu_search":
                            searched = True
        tools = body.get("tools", []) or []
        name = next((t.get("name") for t in tools if str(t.get("name", "")).endswith(RUN_TOOL)), None)
        # Claude Code defers MCP tools behind ToolSearch: load it first, as
        # a model does.
        deferred = re.search(r"[\w-]*" + RUN_TOOL, "\n".join(_strings(body.get("messages", []))))
        if name is None and deferred and not searched and any(t.get("name") == "ToolSearch" for t in tools):
            block = {"type": "tool_use", "id": "toolu_search", "name": "ToolSearch", "input": {"query": f"select:{deferred.group(0)}"}}
            return self._anthropic_send(h, body, block, "tool_use", None, len(results))
        if name is None and deferred and searched:
            name = deferred.group(0)
        index, program = self._next(results, name)
        if index is not None:
            block = {"type": "tool_use", "id": f"toolu_run_{index:04d}", "name": name, "input": {"program": program}}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": "done" if name else "ok"}
            stop = "end_turn"
        self._anthropic_send(h, body, block, stop, index, len(results))

    def _anthropic_send(self, h, body, block, stop, index, n):
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
        msg = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model", "mock"), "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            h._json(200, msg)
            self._mark_sent(index)
            return
        start = dict(msg, content=[], stop_reason=None)
        events = [("message_start", {"type": "message_start", "message": start})]
        if block["type"] == "tool_use":
            events.append(("content_block_start", {"type": "content_block_start", "index": 0, "content_block": dict(block, input={})}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
        events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}}))
        events.append(("message_stop", {"type": "message_stop"}))
        h.sse(events)
        self._mark_sent(index)

    # OpenAI Responses.
    def responses(self, h, body):
        results = []
        items = body.get("input")
        for it in items if isinstance(items, list) else []:
            if isinstance(it, dict) and it.get("type") in ("function_call_output", "custom_tool_call_output", "mcp_tool_call_output"):
                results.append(_text_of(it.get("output")))
        name, namespace = None, None
        for t in body.get("tools", []) or []:
            # Codex groups an MCP server's tools in a namespace.
            for inner in t.get("tools", []) if t.get("type") == "namespace" else [t]:
                n = inner.get("name") or (inner.get("function") or {}).get("name") or ""
                if n.endswith(RUN_TOOL):
                    name = n
                    namespace = t.get("name") if t.get("type") == "namespace" else None
        index, program = self._next(results, name)
        rid = f"resp_{len(results)}"
        if index is not None:
            item = {"type": "function_call", "id": f"fc_{index:04d}", "call_id": f"call_{index:04d}", "name": name, "arguments": json.dumps({"program": program}), "status": "completed"}
            if namespace:
                item["namespace"] = namespace
        else:
            item = {"type": "message", "id": f"msg_{len(results)}", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "done" if name else "ok", "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        resp = {"id": rid, "object": "response", "created_at": int(time.time()), "status": "completed", "model": body.get("model", "mock"), "output": [item], "usage": usage, "parallel_tool_calls": False, "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None}
        if not body.get("stream"):
            h._json(200, resp)
            self._mark_sent(index)
            return
        created = dict(resp, status="in_progress", output=[], usage=None)
        events = [
            ("response.created", {"type": "response.created", "sequence_number": 0, "response": created}),
            ("response.output_item.added", {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "sequence_number": 3, "response": resp}),
        ]
        h.sse(events)
        self._mark_sent(index)

    # OpenAI Chat Completions.
    def chat(self, h, body):
        results = [_text_of(m.get("content")) for m in body.get("messages", []) if m.get("role") == "tool"]
        name = next((t["function"]["name"] for t in body.get("tools", []) or [] if t.get("function", {}).get("name", "").endswith(RUN_TOOL)), None)
        index, program = self._next(results, name)
        if index is not None:
            msg = {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{index:04d}", "type": "function", "function": {"name": name, "arguments": json.dumps({"program": program})}}]}
            finish = "tool_calls"
        else:
            msg = {"role": "assistant", "content": "done" if name else "ok"}
            finish = "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        resp = {"id": f"chatcmpl-{len(results)}", "object": "chat.completion", "created": int(time.time()), "model": body.get("model", "mock"), "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage}
        if not body.get("stream"):
            h._json(200, resp)
            self._mark_sent(index)
            return
        delta = dict(msg)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(delta["tool_calls"][0], index=0)]
        chunk = {"id": resp["id"], "object": "chat.completion.chunk", "created": resp["created"], "model": resp["model"], "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
        end = dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)
        h.sse([(None, chunk), (None, end), (None, "[DONE]")])
        self._mark_sent(index)
