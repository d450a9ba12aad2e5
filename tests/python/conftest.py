"""Shared fixtures: the repository root and the `ptc` binary (for replay comparisons)."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def ptc_bin() -> Path:
    """$PTC_BIN, else target/debug/ptc (built by `cargo test`; built here if missing)."""
    given = os.environ.get("PTC_BIN")
    if given:
        return Path(given)
    path = REPO / "target" / "debug" / "ptc"
    if not path.exists():
        subprocess.run(["cargo", "build", "-q", "--bin", "ptc"], cwd=REPO, check=True)
    return path
