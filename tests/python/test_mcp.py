"""Session(mcp=...): MCP servers as tool sources from Python (issue 24),
against the pinned filesystem server of tests/deps (bash tests/setup.sh)."""

import os
import pathlib
import shutil

import pytest

import ptc_lisp

ROOT = pathlib.Path(__file__).resolve().parents[2]
FS = ROOT / "tests/deps/node_modules/.bin/mcp-server-filesystem"


def fs_server(folder):
    assert shutil.which("node"), "node is not on PATH; install Node.js, then run: bash tests/setup.sh"
    assert FS.exists(), f"{FS} is missing; run: bash tests/setup.sh"
    return {"command": [str(FS), str(folder)], "tools": ["read_text_file", "list_directory"]}


def test_mcp_tools_are_called_and_servers_stop(tmp_path):
    (tmp_path / "a.txt").write_text("hello from a")
    s = ptc_lisp.Session(
        "read a", mcp={"fs": fs_server(tmp_path)}, limits={"timeout_ms": 20000}
    )
    path = str(tmp_path / "a.txt")
    turn = s.run_turn('```clojure\n(tool/fs.read_text_file {:path "%s"})\n```' % path)
    assert turn.success, turn.error
    assert turn.value == {"content": "hello from a"}
    assert "tool/fs.read_text_file" in str(s.next_prompt())


def test_bad_mcp_config_is_a_value_error():
    with pytest.raises(ValueError, match="mcp"):
        ptc_lisp.Session("x", mcp={"fs": {"command": "x", "bogus": 1}})


def test_a_server_that_cannot_start_is_named(tmp_path):
    with pytest.raises(ptc_lisp.SessionError, match="MCP server gone"):
        ptc_lisp.Session("x", mcp={"gone": {"command": [str(tmp_path / "no-such-server")]}})
