#!/usr/bin/env bash
# Installs the real third-party components the tests run against, pinned:
# the npm packages of tests/deps/package-lock.json (MCP servers, the MCP
# Inspector CLI) into tests/deps/node_modules, and tests/deps/requirements.txt
# (the `mcp` Python SDK, openai, anthropic) into tests/deps/.venv. Part of
# the README's test command; idempotent (skips what is already installed at
# the pinned versions). Needs node/npm and python3 on PATH.
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
stamp=.venv/.requirements
if ! cmp -s requirements.txt "$stamp" 2>/dev/null; then
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  cp requirements.txt "$stamp"
fi
