"""A hostile MCP stdio server for tests/mcp_client.rs (issue 59): plain
python3, no SDK, newline-delimited JSON-RPC written by hand so that it can
send what no SDK would.

Mode (argv[1]), with an optional number (argv[2]):
  big MB          tool `big`: a text result of MB MiB (a JSON array of small
                  objects), `bigs`: a structuredContent of MB MiB of them,
                  `bigline`: a line of MB MiB that never ends
                  in a newline until it is complete (sent in 64 KiB pieces)
  pages [N]       tools/list answers page after page, forever (each page
                  N tools, default 500), every page with a new nextCursor
  loop            tools/list pages whose nextCursor is always the same
  many N          one page of N tools
  wide N          one tool whose inputSchema has N properties, all required
  names           tools with names no symbol can have, and one good one
  secret          echoes $SECRET in a tool name, a description, a schema and
                  every result (text, structuredContent, isError)
  stderr N        writes $SECRET, N bytes of padding and a line to stderr
                  (so that the 2 KiB tail cuts the secret), then exits
  garbage         answers `tools/call` with a line that is not JSON-RPC
  wrongshape      answers `tools/call` with a result of the wrong shape
  typed           answers `initialize` with a notification
  unknown-id      answers `tools/call` under an id nobody asked
Every other request gets an empty result; `tools/call` of `echo` answers
its `text` argument.
"""

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "names"
N = float(sys.argv[2]) if len(sys.argv) > 2 else 0
SECRET = os.environ.get("SECRET", "")
out = sys.stdout.buffer


def send(obj):
    out.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
    out.flush()


def tool(name, desc="A tool.", props=None, required=()):
    return {
        "name": name,
        "description": desc,
        "inputSchema": {"type": "object", "properties": props or {}, "required": list(required)},
    }


ECHO = tool("echo", "Echoes its text.", {"text": {"type": "string"}}, ["text"])


def tools_page(cursor):
    if MODE == "pages":
        n = int(N) if len(sys.argv) > 2 else 500
        k = int(cursor or 0)
        tools = [tool(f"t{k}_{i}", "x" * 200) for i in range(n)]
        return {"tools": tools, "nextCursor": str(k + 1)}
    if MODE == "loop":
        return {"tools": [ECHO], "nextCursor": "again"}
    if MODE == "many":
        return {"tools": [ECHO] + [tool(f"t{i}") for i in range(int(N))]}
    if MODE == "wide":
        props = {f"p{i}": {"type": "string"} for i in range(int(N))}
        return {"tools": [ECHO, tool("wide", "Wide.", props, list(props))]}
    if MODE == "names":
        bad = ["two\nlines", "[bracket]", "n" * 100_000, "evil\u202etxt", "sp ace", "9digit", ""]
        return {"tools": [ECHO] + [tool(b) for b in bad]}
    if MODE == "secret":
        return {
            "tools": [
                ECHO,
                tool(
                    "leak",
                    f"Uses the key {SECRET} for you.",
                    {"k": {"type": "string", "description": SECRET}, "fail": {"type": "boolean"},
                     "structured": {"type": "boolean"}, "rpc": {"type": "boolean"}},
                ),
                tool(f"k{SECRET}", "A name with the key."),
            ]
        }
    return {"tools": [ECHO, tool("big"), tool("bigs"), tool("bigline"), tool("leak")]}


def call(mid, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if MODE == "garbage":
        out.write(b'{"jsonrpc": "2.0", "id": ' + str(mid).encode() + b", this is not JSON\n")
        out.flush()
        return
    if MODE == "wrongshape":
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": "not a list", "isError": "no"}})
        return
    if MODE == "unknown-id":
        send({"jsonrpc": "2.0", "id": 987654, "result": {"content": []}})
        return
    if name == "echo":
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": args.get("text", "")}]}})
        return
    if name == "big":
        mb = N or 6
        row = '{"id":1,"name":"x"},'
        text = "[" + row * int(mb * 1024 * 1024 / len(row)) + '{"id":2}]'
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": text}]}})
        return
    if name == "bigs":
        mb = N or 6
        rows = [{"id": 1, "name": "x"}] * int(mb * 1024 * 1024 / 20)
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [], "structuredContent": {"rows": rows}}})
        return
    if name == "bigline":
        head = b'{"jsonrpc":"2.0","id":' + str(mid).encode() + b',"result":{"content":[{"type":"text","text":"'
        out.write(head)
        piece = b"y" * 65536
        for _ in range(int((N or 16) * 16)):
            out.write(piece)
        out.write(b'"}]}}\n')
        out.flush()
        return
    if MODE == "secret" or name == "leak":
        if args.get("fail"):
            send({"jsonrpc": "2.0", "id": mid, "result": {"isError": True, "content": [{"type": "text", "text": f"bad key {SECRET}"}]}})
        elif args.get("structured"):
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [], "structuredContent": {SECRET: SECRET, "key": f"is {SECRET}"}}})
        elif args.get("rpc"):
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32000, "message": f"refused {SECRET}"}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": f"the key is {SECRET}"}]}})
        return
    send({"jsonrpc": "2.0", "id": mid, "result": {"content": []}})


def main():
    if MODE == "stderr":
        sys.stderr.write(SECRET + "p" * int(N) + "\nthe database refused the key\n")
        sys.stderr.flush()
        sys.exit(3)
    for raw in sys.stdin.buffer:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        method = msg.get("method")
        mid = msg.get("id")
        if mid is None:
            continue
        if method == "initialize":
            if MODE == "typed":
                send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})
                continue
            send(
                {
                    "jsonrpc": "2.0",
                    "id": mid,
                    "result": {
                        "protocolVersion": msg["params"]["protocolVersion"],
                        "capabilities": {"tools": {"listChanged": True}},
                        "serverInfo": {"name": "hostile", "version": "1"},
                    },
                }
            )
        elif method == "tools/list":
            cursor = (msg.get("params") or {}).get("cursor")
            send({"jsonrpc": "2.0", "id": mid, "result": tools_page(cursor)})
        elif method == "tools/call":
            call(mid, msg.get("params") or {})
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": {}})


main()
