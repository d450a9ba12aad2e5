#!/usr/bin/env bash
# The Python package's tests: a fresh virtual environment, `pip install .`
# (maturin builds the extension with the `python` cargo profile), then
# pytest. Part of the README's test command, after `cargo test` (whose
# target/debug/ptc the replay tests compare with; built if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="target/python-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check . pytest
"$venv/bin/python" -m pytest -q tests/python "$@"
