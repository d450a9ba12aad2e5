#!/usr/bin/env bash
# The Python package's tests: a fresh virtual environment, `pip install .`
# (maturin builds the extension with the `python` cargo profile; ~3 min
# from scratch, seconds when target/ is warm), pytest and mypy (its
# stubtest checks the type stubs), then the suite. Part of the README's
# test command, after `cargo test`, whose target/debug/ptc the replay tests
# compare with (built here if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="target/python-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check . pytest "mypy==2.4.1" -r tests/deps/requirements.txt
"$venv/bin/python" -m pytest -q tests/python "$@"
