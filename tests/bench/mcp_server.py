"""Benchmark of `ptc mcp` (issue 25; not a test): calls per second and
median latency of `run_ptc_lisp` with a trivial program over stdio and
Streamable HTTP (one client, sequential calls, through the official MCP
Python SDK client), and the resident memory of N idle HTTP sessions
(raw initialize handshakes, so the client's own memory is not counted).

    tests/deps/.venv/bin/python tests/bench/mcp_server.py [PTC] [--calls N] [--sessions N]

PTC defaults to target/release/ptc (the numbers of a debug build are mostly
the interpreter's and rmcp's unoptimized code). Prints a Markdown table.
"""

import argparse
import asyncio
import atexit
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def timed_calls(client, n):
    await client.call_tool("run_ptc_lisp", {"program": "(def x 0)"})
    lat = []
    start = time.perf_counter()
    for _ in range(n):
        t = time.perf_counter()
        r = await client.call_tool("run_ptc_lisp", {"program": "(+ 1 2)"})
        lat.append(time.perf_counter() - t)
        assert r.structured_content["value"] == 3
    total = time.perf_counter() - start
    return n / total, statistics.median(lat) * 1000


def raw_stdio(ptc, session, n):
    """Newline-delimited JSON-RPC over the pipes, no SDK: the server's own
    cost (the SDK's stdio client adds several ms per call)."""
    p = subprocess.Popen([ptc, "mcp", session], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def call(m):
        p.stdin.write(json.dumps(m) + "\n")
        p.stdin.flush()
        return p.stdout.readline() if "id" in m else None

    call({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}})
    call({"jsonrpc": "2.0", "method": "notifications/initialized"})
    lat = []
    start = time.perf_counter()
    for i in range(1, n + 1):
        t = time.perf_counter()
        line = call({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "run_ptc_lisp", "arguments": {"program": "(+ 1 2)"}}})
        lat.append(time.perf_counter() - t)
        assert json.loads(line)["result"]["structuredContent"]["value"] == 3
    total = time.perf_counter() - start
    p.kill()
    return n / total, statistics.median(lat) * 1000


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptc", nargs="?", default="target/release/ptc")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--sessions", type=int, default=1000)
    a = ap.parse_args()
    session = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    atexit.register(os.unlink, session.name)  # however the run ends
    session.write('{"mission": "bench", "data": {"xs": [1, 2, 3]}}')
    session.close()
    rows = []

    async with Client(StdioServerParameters(command=a.ptc, args=["mcp", session.name])) as c:
        rows.append(("stdio (Python SDK client)", *await timed_calls(c, a.calls)))
    rows.append(("stdio (raw JSON lines)", *raw_stdio(a.ptc, session.name, a.calls)))

    server = subprocess.Popen([a.ptc, "mcp", session.name, "--http", "0"],
                              stderr=subprocess.PIPE, text=True)
    try:
        url = next(w for w in server.stderr.readline().split() if w.startswith("http://"))
        async with Client(url) as c:
            rows.append(("Streamable HTTP (Python SDK client)", *await timed_calls(c, a.calls)))
        await asyncio.sleep(0.5)
        before = rss_kib(server.pid)
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}}
        async with httpx2.AsyncClient() as h:
            for _ in range(a.sessions):
                r = await h.post(url, json=init, headers=headers)
                sid = r.headers["mcp-session-id"]
                r = await h.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                                 headers={**headers, "mcp-session-id": sid,
                                          "mcp-protocol-version": "2025-06-18"})
        await asyncio.sleep(1.0)
        after = rss_kib(server.pid)
    finally:
        server.kill()
    print(f"| transport | calls/s | median latency (ms) |")
    print(f"|---|---|---|")
    for name, rate, med in rows:
        print(f"| {name} | {rate:.0f} | {med:.2f} |")
    print()
    print(f"{a.sessions} idle HTTP sessions: RSS {before / 1024:.1f} MB -> {after / 1024:.1f} MB "
          f"({(after - before) / a.sessions:.1f} KiB per session)")


asyncio.run(main())
