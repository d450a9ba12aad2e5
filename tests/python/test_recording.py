"""Recorded tool calls: a saved session replays exactly, without calling its tools.

Before, a session saved with Python tools reloaded with those tools answering
nil, so a failed turn became ok and the next prompt differed, silently.
"""

import json
import subprocess

import pytest

import ptc_lisp


def make_session(calls):
    def lookup(id):
        calls.append(id)
        if id == 7:
            raise KeyError("no such id")
        return {"id": id, "tags": ["a", "b"], "score": 1.5}

    s = ptc_lisp.Session("Look things up", tools={"lookup": lookup}, max_turns=6)
    s.run_turn("(def a (tool/lookup 1))\n(:score a)")
    s.run_turn("(tool/lookup 7)")  # fails: the tool raised
    s.run_turn("(:tags a)")
    return s


def test_from_file_replays_the_recording_without_calling_tools(ptc_bin, tmp_path):
    calls = []
    s = make_session(calls)
    assert calls == [1, 7]
    path = tmp_path / "s.json"
    s.save(path)
    saved = json.loads(path.read_text())
    assert saved["tool_calls"][0] == [{"tool": "lookup", "args": [1],
                                       "returns": {"id": 1, "tags": ["a", "b"], "score": 1.5}}]
    assert "no such id" in saved["tool_calls"][1][0]["error"]
    assert saved["tools"]["lookup"]["recorded_only"] is True

    loaded = ptc_lisp.Session.from_file(path)
    assert [t.success for t in loaded.turns] == [True, False, True]
    assert loaded.next_prompt() == s.next_prompt()
    assert loaded.memory == s.memory
    assert calls == [1, 7]
    out = subprocess.run([str(ptc_bin), "replay", str(path), "--format", "json"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["messages"] == s.next_prompt()

    # A new turn has no live implementation unless one is attached.
    turn = loaded.run_turn("(tool/lookup 2)")
    assert not turn.success
    assert "no live implementation" in turn.error.message and "tools=" in turn.error.message


def test_tools_attach_live_implementations_and_live_reruns_them(tmp_path):
    path = tmp_path / "s.json"
    make_session([]).save(path)
    calls = []
    loaded = ptc_lisp.Session.from_file(path, tools={"lookup": lambda id: calls.append(id) or id * 10})
    assert calls == []
    assert loaded.run_turn("(tool/lookup 4)").value == 40
    assert calls == [4]

    calls = []
    live = ptc_lisp.Session.from_file(path, tools={"lookup": lambda id: calls.append(id) or {"score": id}},
                                      live=True)
    assert calls == [1, 7]
    # answered live: 7 no longer fails
    assert [t.success for t in live.turns] == [True, True, True]


def test_a_changed_program_no_longer_matches(tmp_path):
    path = tmp_path / "s.json"
    make_session([]).save(path)
    data = json.loads(path.read_text())
    data["turns"][0] = data["turns"][0].replace("lookup 1", "lookup 2")
    path.write_text(json.dumps(data))
    with pytest.raises(ptc_lisp.SessionError, match=r"turn 1, call 1 \(tool/lookup\): the recording no longer matches"):
        ptc_lisp.Session.from_file(path)


def test_save_into_another_folder_keeps_command_tools_working(ptc_bin, tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "n.sh").write_text("#!/bin/sh\ncat >/dev/null\necho 41\n")
    original = tmp_path / "s.json"
    original.write_text(json.dumps({
        "mission": "m",
        "tools": {"n": {"signature": "-> :int", "command": ["sh", "tools/n.sh"]}},
    }))
    s = ptc_lisp.Session.from_file(original)
    assert s.run_turn("(inc (tool/n))").value == 42
    (tmp_path / "out").mkdir()
    saved = tmp_path / "out" / "run.json"
    s.save(saved)
    assert json.loads(saved.read_text())["tools"]["n"]["cwd"] == ".."
    out = subprocess.run([str(ptc_bin), "replay", str(saved), "--live"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert ptc_lisp.Session.from_file(saved, live=True).turns[0].value == 42
