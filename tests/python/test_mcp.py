"""Session(mcp=...): MCP servers as tool sources from Python (issue 24),
against the pinned filesystem server of tests/deps (bash tests/setup.sh)."""

import json
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


def test_from_file_attaches_mcp_servers_for_new_turns(tmp_path):
    (tmp_path / "a.txt").write_text("hello from a")
    (tmp_path / "b.txt").write_text("and from b")
    path_a, path_b = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    s = ptc_lisp.Session("read files", mcp={"fs": fs_server(tmp_path)}, limits={"timeout_ms": 20000})
    turn = s.run_turn('```clojure\n(tool/fs.read_text_file {:path "%s"})\n```' % path_a)
    assert turn.value == {"content": "hello from a"}
    saved = tmp_path / "s.json"
    s.save(str(saved))
    del s
    # The file without its "mcp" key: its fs tools are known only by their
    # signatures (recorded-only), as a file from another machine would be.
    text = json.loads(saved.read_text())
    assert "fs" in text.pop("mcp")
    saved.write_text(json.dumps(text))
    bare = ptc_lisp.Session.from_file(str(saved))
    assert bare.turns[0].value == {"content": "hello from a"}
    turn = bare.run_turn('```clojure\n(tool/fs.read_text_file {:path "%s"})\n```' % path_b)
    assert turn.value is None and "no live implementation" in str(turn.error), turn.error
    # mcp= attaches the server: the recorded turn still answers from the
    # recording (the file is changed under it), new turns call the server.
    (tmp_path / "a.txt").write_text("changed")
    s = ptc_lisp.Session.from_file(str(saved), mcp={"fs": fs_server(tmp_path)})
    assert s.turns[0].value == {"content": "hello from a"}
    turn = s.run_turn('```clojure\n(tool/fs.read_text_file {:path "%s"})\n```' % path_b)
    assert turn.value == {"content": "and from b"}, turn.error
    # saved again, the file names the server
    s.save(str(saved))
    assert "fs" in json.loads(saved.read_text())["mcp"]
    with pytest.raises(ValueError, match=r"Session.from_file\(mcp=...\)"):
        ptc_lisp.Session.from_file(str(saved), mcp={"fs": {"bogus": 1}})
