"""`ptc mcp` driven by real agent hosts, offline, each with docs/mcp.md's own
configuration: Claude Code and Codex (npm, tests/deps/node_modules),
pydantic-ai and openai-agents (tests/deps/.venv), LangChain's MCP adapters
(tests/deps/.venv-langchain). Run by tests/mcp_hosts.rs:

    python hosts.py HOST PTC GUIDE WORKDIR   (GUIDE: docs/mcp.md)

HOST is claude-code, codex, pydantic-ai, openai-agents or langchain. A mock
model (mock_model.py, on 127.0.0.1) asks for the programs of PROGRAMS one by
one and keeps the tool result each host sent back, which is what the host
showed its model; this script asserts on those and prints them, with the
median latency of a trivial call, as one JSON line. Exit 0 when every
assertion held. Every host runs with its proxies pointed at a closed local
port (localhost excepted) and its telemetry and update checks off: nothing
can reach the internet."""

import asyncio
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mock_model import MockModel  # noqa: E402

HOST, PTC, README, WORK = sys.argv[1:5]
DEPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "deps")
SESSION = os.path.join(WORK, "session.json")
TRIVIAL = 5

# (what, program, what the model must be shown)
CASES = [
    ("first call", "(def x 41)", ["definitions persist only within this MCP session"]),
    ("keyword map", "{:status :ok :n (inc x)}", ["{:status :ok :n 42}"]),
    ("set", "(set [3 1 2])", ["#{1 2 3}"]),
    ("string-keyed map", '{"a" 1 "b" 2}', ['{"a" 1 "b" 2}']),
    ("big value", "(vec (range 5000))", ["[0 1 2 3 4 5 6 7 8 9 ...] (5000 items, showing first 10)"]),
    ("error", "(fliter odd? [1 2])", ["undefined symbol 'fliter'", "did you mean filter?"]),
] + [(f"trivial {i}", "(+ 1 2)", ["3"]) for i in range(TRIVIAL)]
PROGRAMS = [c[1] for c in CASES]


def shows(text, wanted):
    """`wanted` is in `text`, as it is or escaped inside a JSON string."""
    return wanted in text or json.dumps(wanted)[1:-1] in text


def readme_block(name):
    """The fenced block after `<!-- host: NAME -->` in docs/mcp.md."""
    text = open(README).read()
    m = re.search(r"<!-- host: " + re.escape(name) + r" -->\s*```[a-z]*\n(.*?)```", text, re.S)
    assert m, f"docs/mcp.md has no block marked <!-- host: {name} -->"
    return m.group(1)


def localize(text):
    """A guide's block made to run here: `ptc` is the built binary and
    /path/to/session.json the test's session file."""
    text = text.replace("/path/to/session.json", SESSION)
    text = re.sub(r'"ptc"(?=\s*[,}\]])', json.dumps(PTC), text)
    return re.sub(r"(command\s*=\s*)\"ptc\"", lambda m: m.group(1) + json.dumps(PTC), text)


def offline_env(home):
    """The environment of a host: no credentials of this machine, proxies
    pointed at a closed local port, telemetry and updates off."""
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "SYSTEMROOT", "TMPDIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    dead = "http://127.0.0.1:9"
    env.update(HOME=home, HTTP_PROXY=dead, HTTPS_PROXY=dead, ALL_PROXY=dead,
               http_proxy=dead, https_proxy=dead, all_proxy=dead,
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
               DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", DISABLE_ERROR_REPORTING="1",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DO_NOT_TRACK="1",
               OPENAI_AGENTS_DISABLE_TRACING="1", LANGSMITH_TRACING="false", LANGCHAIN_TRACING_V2="false",
               LOGFIRE_SEND_TO_LOGFIRE="false", NO_UPDATE_NOTIFIER="1", NPM_CONFIG_UPDATE_NOTIFIER="false")
    os.makedirs(home, exist_ok=True)
    return env


def npm_host(name, package):
    path = os.path.join(DEPS, "node_modules", ".bin", name)
    assert os.path.exists(path), (
        f"{package} is not installed ({path}): run: bash tests/setup.sh")
    return path


def run_host(cmd, env, cwd):
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"{cmd[0]} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p, time.monotonic() - t


def claude_code(mock):
    claude = npm_host("claude", "@anthropic-ai/claude-code")
    cli = shlex.split(readme_block("claude-code-cli").strip())
    assert cli[0] == "claude" and cli[1] == "-p", cli
    config = cli[cli.index("--mcp-config") + 1]
    with open(os.path.join(WORK, config), "w") as f:
        f.write(localize(readme_block("claude-code")))
    env = offline_env(os.path.join(WORK, "home"))
    env.update(ANTHROPIC_BASE_URL=mock.base, ANTHROPIC_API_KEY="sk-ant-mock-not-a-key")
    run_host([claude, "-p", "Use ptc.", *cli[3:]], env, WORK)


def codex(mock):
    binary = npm_host("codex", "@openai/codex")
    home = os.path.join(WORK, "codex-home")
    os.makedirs(home, exist_ok=True)
    # The model provider is the mock; the MCP server is the guide's block.
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write(f'''model = "mock-model"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "{mock.base}/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"

''' + localize(readme_block("codex")))
    env = offline_env(os.path.join(WORK, "home"))
    env.update(CODEX_HOME=home, MOCK_API_KEY="mock-not-a-key")
    run_host([binary, "exec", "--skip-git-repo-check", "Use ptc."], env, WORK)


def readme_python(name, scope):
    exec(compile(localize(readme_block(name)), f"docs/mcp.md <!-- host: {name} -->", "exec"), scope)
    return scope


def pydantic_ai(mock):
    from pydantic_ai import Agent  # noqa: F401
    from pydantic_ai.messages import ModelResponse, RetryPromptPart, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    def fn(messages, info):
        name = next(t.name for t in info.function_tools if t.name.endswith("run_ptc_lisp"))
        shown = []
        for m in messages:
            for p in getattr(m, "parts", []):
                if isinstance(p, ToolReturnPart) and p.tool_name == name:
                    shown.append(p.model_response_str())
                elif isinstance(p, RetryPromptPart) and p.tool_name == name:
                    shown.append(p.model_response())
        index, program = mock._next(shown, name)
        if index is None:
            return ModelResponse(parts=[TextPart("done")])
        mock._mark_sent(index)
        return ModelResponse(parts=[ToolCallPart(name, {"program": program}, tool_call_id=f"call_{index}")])

    scope = readme_python("pydantic-ai", {"model": FunctionModel(fn)})

    async def go():
        async with scope["agent"]:
            await scope["agent"].run("Use ptc.")

    asyncio.run(go())


def openai_agents(mock):
    from agents import OpenAIResponsesModel, Runner, set_tracing_disabled
    from openai import AsyncOpenAI

    set_tracing_disabled(True)
    model = OpenAIResponsesModel("mock-model", AsyncOpenAI(base_url=f"{mock.base}/v1", api_key="mock-not-a-key"))
    scope = readme_python("openai-agents", {"model": model})

    async def go():
        async with scope["ptc"]:
            await Runner.run(scope["agent"], "Use ptc.", max_turns=len(PROGRAMS) + 5)

    asyncio.run(go())


def langchain(mock):
    # No model: the tools are called as an agent would, and what the
    # model would get is the ToolMessage's content.
    def text(msg):
        c = msg.content
        return c if isinstance(c, str) else "\n".join(b.get("text", json.dumps(b)) if isinstance(b, dict) else str(b) for b in c)

    async def run(tools):
        tool = next(t for t in tools if t.name.endswith("run_ptc_lisp"))
        shown = []
        for i, program in enumerate(PROGRAMS):
            mock.sent[i] = time.monotonic()
            msg = await tool.ainvoke({"type": "tool_call", "id": f"call_{i}", "name": tool.name,
                                      "args": {"program": program}})
            mock.latencies[i] = time.monotonic() - mock.sent[i]
            shown.append(text(msg))
        return shown

    scope = readme_python("langchain", {})
    for i, s in enumerate(asyncio.run(scope["with_ptc_tools"](run))):
        mock.results[i] = s
    # The default get_tools() opens an MCP session per call: the second
    # call does not see the first one's definition, and every answer says
    # why.
    async def per_call():
        tools = await scope["client"].get_tools()
        tool = next(t for t in tools if t.name.endswith("run_ptc_lisp"))
        await tool.ainvoke({"type": "tool_call", "id": "a", "name": tool.name, "args": {"program": "(def y 1)"}})
        return text(await tool.ainvoke({"type": "tool_call", "id": "b", "name": tool.name, "args": {"program": "y"}}))
    lost = asyncio.run(per_call())
    assert "undefined symbol 'y'" in lost and "definitions persist only within this MCP session" in lost, lost


HOSTS = {"claude-code": claude_code, "codex": codex, "pydantic-ai": pydantic_ai,
         "openai-agents": openai_agents, "langchain": langchain}


def main():
    with open(SESSION, "w") as f:
        # A tool run by a command: run_ptc_lisp is marked destructive, as
        # for most real sessions (Codex then needs the guide's approval
        # line).
        json.dump({"mission": "Answer questions about the orders.",
                   "data": {"orders": [{"id": 1, "total": 10}, {"id": 2, "total": 25}]},
                   "tools": {"archive": {"signature": "(id :int) -> :any", "description": "Archives an order",
                                         "command": ["true"]}}}, f)
    mock = MockModel(PROGRAMS)
    try:
        HOSTS[HOST](mock)
    finally:
        mock.close()
    shown = [mock.results.get(i) for i in range(len(CASES))]
    report = {"host": HOST, "shown": {}, "requests": len(mock.requests)}
    failures = []
    for i, (what, program, wanted) in enumerate(CASES):
        s = shown[i]
        if i <= 5:
            report["shown"][what] = s
        if s is None:
            failures.append(f"{what}: the host never sent back the result of {program!r}")
            continue
        for w in wanted:
            if not shows(s, w):
                failures.append(f"{what}: the model was not shown {w!r} for {program!r}; it was shown:\n{s}")
    # Only the first answer carries the session note.
    for i in range(1, len(CASES)):
        if shown[i] and "definitions persist only within" in shown[i]:
            failures.append(f"{CASES[i][0]}: the first-answer note came again")
    trivial = [mock.latencies[i] for i in range(len(CASES) - TRIVIAL, len(CASES)) if i in mock.latencies]
    report["trivial_median_ms"] = round(statistics.median(trivial) * 1000, 1) if trivial else None
    print(json.dumps(report))
    assert not failures, "\n\n".join(failures)


main()
