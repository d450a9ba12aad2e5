#!/usr/bin/env python3
"""A mock LLM for trying `ptc agent` and `ptc eval` without a model.

Serves a session file's recorded `turns` (or a JSON array of response
strings) as chat completions, in order and then again from the start, on
127.0.0.1 only, in the OpenAI format (`/v1/chat/completions`) and the
Anthropic one (`/v1/messages`), under both protocols: a request that
declares the `run_ptc_lisp` tool gets the response's program as that
tool's call, with the prose beside it as text.

    python3 examples/mock_llm.py lisp-examples/sales-by-region.json   # returns once it listens
    ptc agent lisp-examples/sales-by-region.json --model mock --base-url http://127.0.0.1:8089/v1
    python3 examples/mock_llm.py --stop

It returns as soon as the server listens (the server stays in the
background), so the next command can use it at once. Started again on the
same port, it replaces the mock already there. It stops by itself after
--idle-secs without a request (default 600). Python 3 standard library
only. --foreground keeps it in the terminal (Ctrl-C stops it).
"""

import argparse
import errno
import http.server
import json
import os
import re
import signal
import socket
import sys
import threading
import time
import urllib.request

BANNER = "ptc mock LLM"
TOOL = "run_ptc_lisp"
# The fence tags whose blocks are PTC-Lisp (src/session/extract.rs, CODE_TAGS).
FENCE = re.compile(r"^(`{3,})[ \t]*(clojure|clj|lisp|ptc|ptc-lisp)[ \t]*\n(.*?)^\1[ \t]*$", re.S | re.M)


def split(response):
    """(prose, program) of a response: its PTC-Lisp blocks joined, the rest as prose."""
    blocks = [m.group(3).rstrip("\n") for m in FENCE.finditer(response)]
    if not blocks:
        return "", response.strip()
    prose = FENCE.sub("", response).strip()
    return prose, "\n".join(blocks)


class Mock:
    def __init__(self, responses):
        self.responses = responses
        self.served = 0
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def next_response(self, messages):
        """The response for this request: the number of assistant messages it
        carries (the uncompressed view and the tool protocol send the history),
        else the next one in order."""
        with self.lock:
            self.last = time.monotonic()
            earlier = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
            index = earlier if earlier else self.served
            self.served = index + 1
            return self.responses[index % len(self.responses)]


def tool_declared(body):
    for t in body.get("tools") or []:
        name = t.get("name") or (t.get("function") or {}).get("name")
        if name == TOOL:
            return True
    return False


def openai(text, as_tool, prompt):
    message = {"role": "assistant", "content": text}
    finish = "stop"
    if as_tool:
        prose, program = split(text)
        args = json.dumps({"program": program})
        message = {
            "role": "assistant",
            "content": prose or None,
            "tool_calls": [{"id": "call_mock", "type": "function", "function": {"name": TOOL, "arguments": args}}],
        }
        finish = "tool_calls"
    out = (len(text) + 3) // 4
    return {
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "model": "mock",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out},
    }


def anthropic(text, as_tool, prompt):
    content = [{"type": "text", "text": text}]
    stop = "end_turn"
    if as_tool:
        prose, program = split(text)
        content = ([{"type": "text", "text": prose}] if prose else []) + [
            {"type": "tool_use", "id": "toolu_mock", "name": TOOL, "input": {"program": program}}
        ]
        stop = "tool_use"
    return {
        "id": "msg_mock",
        "type": "message",
        "role": "assistant",
        "model": "mock",
        "content": content,
        "stop_reason": stop,
        "usage": {"input_tokens": prompt, "output_tokens": (len(text) + 3) // 4},
    }


def handler(mock, server):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, code, body):
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.send(200, {"server": BANNER, "pid": os.getpid(), "responses": len(mock.responses)})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            path = self.path.rstrip("/")
            if path == "/stop":
                self.send(200, {"stopping": os.getpid()})
                threading.Thread(target=server.shutdown, daemon=True).start()
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self.send(400, {"error": {"message": "the body is not JSON"}})
            messages = body.get("messages") or []
            prompt = (len(raw) + 3) // 4  # a rough token count of the request
            if path.endswith("/chat/completions"):
                self.send(200, openai(mock.next_response(messages), tool_declared(body), prompt))
            elif path.endswith("/messages"):
                self.send(200, anthropic(mock.next_response(messages), tool_declared(body), prompt))
            else:
                self.send(404, {"error": {"message": f"no route for POST {self.path}: the base URL ends in /v1"}})

    return Handler


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"mock_llm: {path}: {e}")
    turns = doc.get("turns") if isinstance(doc, dict) else doc
    responses = [t for t in (turns or []) if isinstance(t, str)]
    if not responses:
        sys.exit(f"mock_llm: {path}: no responses (a session file with turns, or a JSON array of strings)")
    return responses


def stop_running(port):
    """Stops the mock on `port`; False when none answers there."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            if json.load(r).get("server") != BANNER:
                return False
        req = urllib.request.Request(f"http://127.0.0.1:{port}/stop", data=b"{}", method="POST")
        urllib.request.urlopen(req, timeout=2).read()
    except (OSError, ValueError):
        return False
    for _ in range(100):  # wait until the port is free
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                time.sleep(0.05)
        except OSError:
            return True
    return True


def listen(port, mock):
    class Server(http.server.ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True

    for attempt in (1, 2):
        try:
            server = Server(("127.0.0.1", port), None)
            server.RequestHandlerClass = handler(mock, server)
            return server
        except OSError as e:
            if e.errno != errno.EADDRINUSE or attempt == 2 or not stop_running(port):
                sys.exit(f"mock_llm: cannot listen on 127.0.0.1:{port}: {e.strerror} (another program has the port: --port N)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a session file with turns, or a JSON array of response strings")
    p.add_argument("--port", type=int, default=8089)
    p.add_argument("--idle-secs", type=float, default=600, help="stop after this long without a request")
    p.add_argument("--foreground", action="store_true", help="stay in the terminal (Ctrl-C stops)")
    p.add_argument("--stop", action="store_true", help="stop the mock on --port")
    a = p.parse_args()
    if a.stop:
        print(f"mock LLM on 127.0.0.1:{a.port} " + ("stopped" if stop_running(a.port) else "was not running"))
        return
    if not a.file:
        p.error("a session file (or JSON array of responses) is required")
    mock = Mock(load(a.file))
    server = listen(a.port, mock)  # listening from here on: requests queue until served
    base = f"http://127.0.0.1:{a.port}"
    where = f"{len(mock.responses)} responses, repeating; OpenAI base URL {base}/v1, Anthropic base URL {base}"
    if a.foreground:
        print(f"mock LLM: {where} (Ctrl-C stops)", flush=True)
    else:
        sys.stdout.flush()
        pid = os.fork()
        if pid:
            print(f"mock LLM (pid {pid}): {where}; stop it with: python3 {sys.argv[0]} --stop", flush=True)
            os._exit(0)
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def watch_idle():
        while True:
            time.sleep(1)
            if time.monotonic() - mock.last > a.idle_secs:
                server.shutdown()
                return

    threading.Thread(target=watch_idle, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
