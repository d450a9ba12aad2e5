"""`next_prompt` is exactly what `ptc replay` prints for the same session file."""

import json
import subprocess

import pytest

import ptc_lisp
from conftest import REPO

# Session files (lisp-examples/ also holds plain data files such as orders.json).
EXAMPLES = sorted(p for p in (REPO / "lisp-examples").glob("*.json")
                  if isinstance(json.loads(p.read_text()), dict) and "mission" in json.loads(p.read_text()))


def replay_messages(ptc_bin, path, *args):
    out = subprocess.run([str(ptc_bin), "replay", str(path), "--format", "json", *args],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_next_prompt_equals_ptc_replay(ptc_bin, path):
    assert EXAMPLES, "no session files in lisp-examples/"
    session = ptc_lisp.Session.from_file(path)
    replayed = replay_messages(ptc_bin, path)
    assert session.next_prompt() == replayed["messages"]
    assert session.status == replayed["status"]["state"]
    assert [t.success for t in session.turns] == [t["success"] for t in replayed["turns"]]


@pytest.mark.parametrize("view", ["compressed", "uncompressed"])
def test_a_python_session_saved_replays_to_the_same_prompt(ptc_bin, tmp_path, view):
    s = ptc_lisp.Session("Summarize the orders", data={"orders": [{"id": 1, "total": 30.5}, {"id": 2, "total": 12}]},
                         compression=(view == "compressed"), max_turns=4)
    s.run_turn("```clojure\n(def totals (map :total data/orders))\n(println \"sum\" (reduce + totals))\n```")
    s.run_turn("(def avg (/ (reduce + totals) 0))")
    s.run_turn("(def big (filter #(> (:total %) 20) data/orders))")
    path = tmp_path / "session.json"
    s.save(path)
    assert s.next_prompt() == replay_messages(ptc_bin, path)["messages"]
    assert s.render(view) == replay_messages(ptc_bin, path, "--view", view)["messages"]
