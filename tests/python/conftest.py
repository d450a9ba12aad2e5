"""Shared fixtures: the repository root and the `ptc` binary (for replay comparisons)."""

import json
import os
import subprocess
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
