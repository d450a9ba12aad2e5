"""Concurrent tool calls (issue 61): wall time of
`(pmap #(tool/slow {:i %}) (range 8))` whose tool sleeps 0.4 s, at
max_parallel_tool_calls 1, 4 and 8 ("pmap s": less the same run without
the pmap, i.e. process and MCP server start); a command tool, an MCP stdio tool
(tests/mcp/fault_server.py `hang`) and an MCP Streamable HTTP tool (the
reference "everything" server's trigger-long-running-operation, one 0.4 s
step). A benchmark, not a test:

    python3 tests/bench/act_parallel.py [PTC]   # default target/debug/ptc

Needs tests/deps/.venv (bash tests/setup.sh) for the MCP server."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PTC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/debug/ptc")
PY = os.path.join(ROOT, "tests/deps/.venv/bin/python")
FAULT = os.path.join(ROOT, "tests/mcp/fault_server.py")
EVERYTHING = os.path.join(ROOT, "tests/deps/node_modules/.bin/mcp-server-everything")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HTTP_PORT = free_port()

CASES = {
    "command": (
        {"slow": {"signature": "(m :map) -> :any", "command": ["sh", "-c", "read r; sleep 0.4; echo 1"]}},
        {},
        "(pmap #(tool/slow {:i %}) (range 8))",
    ),
    "mcp-stdio": (
        {},
        {"f": {"command": [PY, FAULT, "normal"], "tools": ["hang"]}},
        "(tool/f.hang {:seconds 0})\n(pmap (fn [i] (tool/f.hang {:seconds 0.4})) (range 8))",
    ),
    "mcp-http": (
        {},
        {"web": {"url": f"http://127.0.0.1:{HTTP_PORT}/mcp"}},
        "(tool/web.trigger-long-running-operation {:duration 0 :steps 1})\n"
        "(pmap (fn [i] (tool/web.trigger-long-running-operation {:duration 0.4 :steps 1})) (range 8))",
    ),
}


def wall(case, n, d, base=False):
    tools, mcp, program = CASES[case]
    if base:  # the server's start and one call: subtracted
        program = program.split("\n")[0] if "\n" in program else "nil"
    session = os.path.join(d, f"{case}.json")
    with open(session, "w") as f:
        json.dump({"mission": "bench", "tools": tools, "mcp": mcp, "limits": {"timeout_ms": 60000}}, f)
    prog = os.path.join(d, "p.clj")
    with open(prog, "w") as f:
        f.write(program)
    t = time.monotonic()
    out = subprocess.run(
        [PTC, "run", prog, "--session", session, "--max-parallel-tool-calls", str(n), "--timeout-ms", "60000"],
        capture_output=True, text=True,
    )
    took = time.monotonic() - t
    if out.returncode != 0:
        raise SystemExit(f"{case} at {n}: {out.stdout}{out.stderr}")
    return took


server = subprocess.Popen(
    [EVERYTHING, "streamableHttp"],
    env={**os.environ, "PORT": str(HTTP_PORT)},
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
deadline = time.monotonic() + 20
while True:
    try:
        socket.create_connection(("127.0.0.1", HTTP_PORT), timeout=1).close()
        break
    except OSError:
        if time.monotonic() > deadline:
            raise SystemExit("the HTTP MCP server did not start")
        time.sleep(0.1)

with tempfile.TemporaryDirectory() as d:
    print(f"{'tool':<10} {'max_parallel':>12} {'wall s':>8} {'pmap s':>8}")
    for case in CASES:
        base = wall(case, 1, d, base=True)
        for n in (1, 4, 8):
            w = wall(case, n, d)
            print(f"{case:<10} {n:>12} {w:>8.2f} {w - base:>8.2f}", flush=True)
server.kill()
