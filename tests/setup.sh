#!/usr/bin/env bash
# Installs the real third-party components the tests run against, pinned:
# the npm packages of tests/deps/package-lock.json (MCP servers, the MCP
# Inspector CLI, and the hosts Claude Code and Codex) into
# tests/deps/node_modules, tests/deps/requirements.txt (the `mcp` Python
# SDK, openai, anthropic, pydantic-ai, openai-agents) into tests/deps/.venv,
# and tests/deps/requirements-langchain.txt (LangChain's MCP adapters, which
# need the `mcp` SDK 1.x) into tests/deps/.venv-langchain. Part of the
# README's test command; idempotent (skips what is already installed at the
# pinned versions). Needs node/npm and python3 on PATH.
set -euo pipefail
cd "$(dirname "$0")/deps"
need() { command -v "$1" >/dev/null || { echo "tests/setup.sh: '$1' not found; install it (Debian: apt-get install -y $2)" >&2; exit 1; }; }
need node nodejs
need npm npm
need python3 python3
if ! cmp -s package-lock.json node_modules/.ptc-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.ptc-lock
fi
venv() { # venv DIR REQUIREMENTS
  if ! cmp -s "$2" "$1/.requirements" 2>/dev/null; then
    rm -rf "$1"
    python3 -m venv "$1"
    "$1/bin/python" -m pip install --quiet --disable-pip-version-check -r "$2"
    cp "$2" "$1/.requirements"
  fi
}
venv .venv requirements.txt
venv .venv-langchain requirements-langchain.txt
