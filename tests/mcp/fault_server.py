"""An MCP stdio server (the `mcp` SDK's low-level Server) that misbehaves on
purpose, for tests/mcp_client.rs.

Mode (argv[1]):
  normal      tools below, listed 2 per page (pagination)
  no-init     reads stdin and never answers `initialize`
  garbage     answers every line with malformed JSON-RPC, never a valid reply
  fail-start  prints to stderr (including $FAULT_SECRET) and exits 3

Tools (normal mode): echo(text), crash() exits the process mid-call,
hang(seconds) sleeps, huge(mb) returns mb MiB of text, add(a, b) -> structured
{sum}, boom() -> isError, change() registers tool `late` and sends
notifications/tools/list_changed, pid() -> the server's process id, peek()
(readOnlyHint, idempotentHint) -> "peeked", meta() -> the request's _meta as JSON,
together(n) waits until n calls are in (10 s at most) and answers how many were.
"""

import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "normal"

if MODE == "fail-start":
    sys.stderr.write("fault server: starting\n")
    sys.stderr.write(f"fault server: cannot open the database with key {os.environ.get('FAULT_SECRET', '')}\n")
    sys.stderr.flush()
    sys.exit(3)

if MODE == "no-init":
    for _line in sys.stdin:
        pass
    time.sleep(3600)
    sys.exit(0)

if MODE == "garbage":
    for line in sys.stdin:
        sys.stdout.write('{"jsonrpc": "2.0", "id": \n')
        sys.stdout.write("this is not JSON-RPC\n")
        sys.stdout.flush()
    sys.exit(0)

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp.server import Server  # noqa: E402
from mcp.server.stdio import stdio_server  # noqa: E402


def obj(props, required=()):
    return {"type": "object", "properties": props, "required": list(required)}


TOOLS = [
    types.Tool(name="echo", description="Echoes its text.", input_schema=obj({"text": {"type": "string"}}, ["text"])),
    types.Tool(name="crash", description="Exits the process mid-call.", input_schema=obj({})),
    types.Tool(name="hang", description="Sleeps.", input_schema=obj({"seconds": {"type": "number"}}, ["seconds"])),
    types.Tool(name="huge", description="A big text.", input_schema=obj({"mb": {"type": "integer"}}, ["mb"])),
    types.Tool(
        name="add",
        description="Adds two integers.",
        input_schema=obj({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"]),
        output_schema=obj({"sum": {"type": "integer"}}, ["sum"]),
    ),
    types.Tool(name="boom", description="Always fails.", input_schema=obj({})),
    types.Tool(name="change", description="Adds the tool `late`.", input_schema=obj({})),
    types.Tool(name="pid", description="The server's process id.", input_schema=obj({})),
    types.Tool(
        name="peek",
        description="Reads nothing, says so.",
        input_schema=obj({}),
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True),
    ),
    types.Tool(name="meta", description="Answers the request's _meta.", input_schema=obj({})),
    types.Tool(
        name="together",
        description="Waits (10 s at most) until n calls are in; answers how many were.",
        input_schema=obj({"n": {"type": "integer"}}, ["n"]),
    ),
]
TOGETHER = {"in": 0, "all": None}
LATE = types.Tool(name="late", description="Appears after `change`.", input_schema=obj({}))
PAGE = 2


async def list_tools(ctx, params):
    start = int(params.cursor) if params is not None and params.cursor else 0
    page = TOOLS[start : start + PAGE]
    nxt = str(start + PAGE) if start + PAGE < len(TOOLS) else None
    return types.ListToolsResult(tools=page, next_cursor=nxt)


def text(t):
    return types.CallToolResult(content=[types.TextContent(type="text", text=t)])


async def call_tool(ctx, params):
    args = params.arguments or {}
    name = params.name
    if name == "echo":
        return text(args["text"])
    if name == "crash":
        sys.stderr.write("fault server: crashing now\n")
        sys.stderr.flush()
        os._exit(7)
    if name == "hang":
        await anyio.sleep(float(args["seconds"]))
        return text("woke up")
    if name == "huge":
        return text("x" * (int(args["mb"]) * 1024 * 1024))
    if name == "add":
        s = int(args["a"]) + int(args["b"])
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=str(s))], structured_content={"sum": s}
        )
    if name == "boom":
        return types.CallToolResult(content=[types.TextContent(type="text", text="boom: it failed")], is_error=True)
    if name == "change":
        if LATE not in TOOLS:
            TOOLS.append(LATE)
        await ctx.session.send_tool_list_changed()
        return text("changed")
    if name == "pid":
        return text(str(os.getpid()))
    if name == "together":
        if TOGETHER["all"] is None:
            TOGETHER["all"] = anyio.Event()
        TOGETHER["in"] += 1
        if TOGETHER["in"] >= int(args["n"]):
            TOGETHER["all"].set()
        with anyio.move_on_after(10):
            await TOGETHER["all"].wait()
        return text(str(TOGETHER["in"]))
    if name == "peek":
        return text("peeked")
    if name == "meta":
        import json
        return text(json.dumps({"meta": params.model_dump(by_alias=True).get("_meta")}))
    if name == "late":
        return text("late tool")
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"no tool {name}")], is_error=True)


server = Server("fault", on_list_tools=list_tools, on_call_tool=call_tool)


async def main():
    async with stdio_server() as (r, w):
        from mcp.server import NotificationOptions
        opts = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(r, w, opts)


anyio.run(main)
