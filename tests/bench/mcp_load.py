"""Load benchmark of `ptc mcp --http` (issue 59; not a test): N concurrent
clients (default 64) for S seconds (default 60), each its own MCP session
over raw Streamable HTTP on 127.0.0.1. Half run CPU-bound programs into
their limits (an endless loop stopped by the step or time limit, a vector
too big for the heap limit), half trivial ones (`(+ 1 2)`), each client
sending its next call once the last is answered.

Reports calls served (by kind, and refused ones), the p50/p99 latency of
the trivial calls, the server's peak RSS (VmHWM) and that it ends healthy
(alive, a new session answered at once, `ptc_state` answered).

    tests/deps/.venv/bin/python tests/bench/mcp_load.py [PTC] [--clients N] [--secs S] [--workers N]

PTC defaults to target/release/ptc. Every loop is bounded (the clients stop
at the deadline; each call has a 120 s timeout); exit 1 when the server
ends unhealthy. Prints a Markdown table.
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx2

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}}}
HEAVY = ["(loop [i 0] (recur (inc i)))", "(count (vec (range 100000000)))"]
TRIVIAL = "(+ 1 2)"


def status_kib(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def message(text):
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            return json.loads(line[5:])
    return json.loads(text) if text.strip().startswith("{") else None


async def session(h, url):
    r = await h.post(url, json=INIT, headers=HEADERS)
    if r.status_code != 200:
        return None, r.status_code
    headers = dict(HEADERS)
    headers["mcp-session-id"] = r.headers["mcp-session-id"]
    headers["mcp-protocol-version"] = "2025-06-18"
    await h.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers, 200


async def call(h, url, headers, i, program, name="run_ptc_lisp"):
    args = {"program": program} if program is not None else {}
    body = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}
    r = await h.post(url, json=body, headers=headers)
    return r.status_code, message(r.text) if r.status_code == 200 else None


async def client(url, k, deadline, stats):
    heavy = k % 2 == 0
    async with httpx2.AsyncClient(timeout=120) as h:
        headers, status = await session(h, url)
        if headers is None:
            stats["sessions_refused"] += 1
            return
        i = 2
        while time.monotonic() < deadline:
            program = HEAVY[i % 2] if heavy else TRIVIAL
            t = time.perf_counter()
            try:
                code, msg = await call(h, url, headers, i, program)
            except httpx2.HTTPError as e:
                stats["transport_errors"] += 1
                stats["last_error"] = repr(e)
                await asyncio.sleep(0.1)
                continue
            dt = time.perf_counter() - t
            i += 1
            if msg is None or "error" in msg:
                stats["refused"] += 1
                continue
            if heavy:
                stats["heavy"] += 1
                if msg["result"].get("isError"):
                    stats["heavy_limited"] += 1
            else:
                stats["trivial"] += 1
                stats["latency"].append(dt)
                assert msg["result"]["structuredContent"]["value"] == 3, msg
        await h.delete(url, headers=headers)


async def rss_sampler(pid, stop, peak):
    while not stop.is_set():
        peak[0] = max(peak[0], status_kib(pid, "VmRSS"))
        await asyncio.sleep(0.2)


async def healthy(url):
    async with httpx2.AsyncClient(timeout=30) as h:
        t = time.perf_counter()
        headers, status = await session(h, url)
        if headers is None:
            return False, f"a new session was refused ({status})"
        code, msg = await call(h, url, headers, 2, "(* 6 7)")
        ok = msg is not None and msg["result"]["structuredContent"]["value"] == 42
        code, state = await call(h, url, headers, 3, None, "ptc_state")
        ok = ok and state is not None and "result" in state
        await h.delete(url, headers=headers)
        return ok, f"a new session answered in {(time.perf_counter() - t) * 1000:.0f} ms"


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptc", nargs="?", default="target/release/ptc")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--secs", type=float, default=60)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    session_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump({"mission": "load", "data": {"xs": list(range(100))}}, session_file)
    session_file.close()
    cmd = [args.ptc, "mcp", session_file.name, "--http", "127.0.0.1:0",
           "--max-sessions", str(args.clients + 8)]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    server = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        url = next(w for w in line.split() if w.startswith("http://"))
        stats = {"heavy": 0, "heavy_limited": 0, "trivial": 0, "refused": 0, "sessions_refused": 0,
                 "transport_errors": 0, "latency": [], "last_error": None}
        stop = asyncio.Event()
        peak = [0]
        sampler = asyncio.create_task(rss_sampler(server.pid, stop, peak))
        deadline = time.monotonic() + args.secs
        start = time.monotonic()
        await asyncio.gather(*(client(url, k, deadline, stats) for k in range(args.clients)))
        took = time.monotonic() - start
        ok, note = await healthy(url)
        alive = server.poll() is None
        stop.set()
        await sampler
        hwm = status_kib(server.pid, "VmHWM")
        lat = sorted(stats["latency"]) or [0]
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        print(f"| {args.clients} clients, {took:.0f} s | value |")
        print("|---|---|")
        print(f"| calls served | {stats['heavy'] + stats['trivial']} ({stats['trivial']} trivial, {stats['heavy']} heavy, {stats['heavy_limited']} of them stopped by a limit) |")
        print(f"| calls refused (JSON-RPC error) | {stats['refused']} |")
        print(f"| sessions refused | {stats['sessions_refused']} |")
        print(f"| transport errors | {stats['transport_errors']} {stats['last_error'] or ''} |")
        print(f"| trivial calls p50 / p99 | {p50:.1f} ms / {p99:.1f} ms |")
        print(f"| peak RSS (VmHWM) | {max(hwm, peak[0]) / 1024:.0f} MiB |")
        print(f"| server after the load | {'alive' if alive else 'DEAD'}, {'healthy' if ok else 'UNHEALTHY'}: {note} |")
        return 0 if alive and ok else 1
    finally:
        server.kill()
        server.wait()
        os.unlink(session_file.name)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
