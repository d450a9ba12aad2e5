"""Shared fixtures: the repository root, the `ptc` binary (for replay comparisons), isolated runs."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def target_dir() -> Path:
    """Cargo's target directory, found as cargo finds it: `cargo metadata`
    (which honours CARGO_TARGET_DIR, .cargo/config.toml and
    `build.target-dir`), else CARGO_TARGET_DIR, else ./target."""
    try:
        meta = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            cwd=REPO, check=True, capture_output=True, text=True,
        )
        return Path(json.loads(meta.stdout)["target_directory"])
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        # cargo resolves a relative CARGO_TARGET_DIR against the working directory
        return REPO / os.environ.get("CARGO_TARGET_DIR", "target")


@pytest.fixture(scope="session")
def ptc_bin() -> Path:
    """$PTC_BIN, else TARGET/debug/ptc (built by `cargo test`; built here if
    missing), TARGET being cargo's target directory (`target_dir`)."""
    given = os.environ.get("PTC_BIN")
    if given:
        return Path(given)
    path = target_dir() / "debug" / "ptc"
    if not path.exists():
        subprocess.run(["cargo", "build", "-q", "--bin", "ptc"], cwd=REPO, check=True)
    return path


@pytest.fixture(scope="session")
def isolated():
    """Runs Python code in a fresh interpreter; returns what it printed.

    For hostile inputs that used to crash (SIGSEGV) or hang the interpreter:
    a crash or a hang then fails one test, not the whole suite. The code
    makes its own assertions; any exit status but 0 (a failed assertion, a
    signal) and any run past `timeout` seconds fails the test with the
    process's output.
    """

    def run(code: str, timeout: float = 180) -> str:
        try:
            proc = subprocess.run(
                [sys.executable, "-c", textwrap.dedent(code)],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            pytest.fail(f"did not finish in {timeout} s (hung); output: {e.stdout!r} {e.stderr!r}")
        if proc.returncode != 0:
            pytest.fail(
                f"exit status {proc.returncode}\nstdout: {proc.stdout[-3000:]}\nstderr: {proc.stderr[-3000:]}"
            )
        return proc.stdout

    return run
