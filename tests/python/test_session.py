"""The multi-turn flow: transactional memory, statuses, prompts, files."""

import json

import pytest

import ptc_lisp

PRODUCTS = [
    {"name": "Laptop", "price": 1200, "category": "Electronics"},
    {"name": "Mouse", "price": 25, "category": "Electronics"},
    {"name": "Desk", "price": 400, "category": "Furniture"},
]


def session(**kw):
    kw.setdefault("max_turns", 4)
    return ptc_lisp.Session("Find the priciest electronics", data={"products": PRODUCTS}, **kw)


def test_memory_changes_only_on_successful_turns():
    s = session()
    t1 = s.run_turn("Let me look.\n```clojure\n(def electronics (filter #(= (:category %) \"Electronics\") data/products))\n(count electronics)\n```")
    assert t1.success and t1.value == 2 and t1.defined == ["electronics"]
    assert t1.program.startswith("(def electronics")
    t2 = s.run_turn("(def electronics [])\n(def top (first electronics))\n(count 5)")
    assert not t2.success and t2.value is None
    assert t2.error.kind == "type-error" and t2.error.line == 3
    assert t2.defined == []
    assert list(s.memory) == ["electronics"] and len(s.memory["electronics"]) == 2
    assert t2.memory == t1.memory
    t3 = s.run_turn("(def top (first (sort-by :price > electronics)))\n(println \"top:\" (:name top))\n(:price top)")
    assert t3.success and t3.prints == ["top: Laptop"] and t3.value == 1200
    assert s.memory["top"] == PRODUCTS[0]
    t4 = s.run_turn("(return (:name top))")
    assert t4.returned
    assert s.status == "returned" and s.result == "Laptop"
    assert [t.number for t in s.turns] == [1, 2, 3, 4]
    with pytest.raises(ptc_lisp.SessionError, match="ended"):
        s.run_turn("1")


def test_errors_carry_kind_message_hint_and_position():
    s = session()
    t = s.run_turn("(def a 1)\n  (undefined-thing a)")
    e = t.error
    assert isinstance(e, ptc_lisp.UndefinedError) and isinstance(e, ptc_lisp.PtcError)
    assert e.kind == "undefined-error" and "undefined-thing" in e.message
    assert (e.line, e.column) == (2, 4)
    t = s.run_turn("I have no code for you.")
    assert t.program is None and t.error.kind == "parse-error"


def test_fail_and_exhaustion():
    s = session()
    s.run_turn('(fail "no electronics")')
    assert s.status == "failed" and s.result == "no electronics"
    s = session(max_turns=2)
    s.run_turn("1")
    assert s.turns_left == 1
    s.run_turn("2")
    assert s.status == "exhausted" and s.result is None


def test_next_prompt_is_chat_messages_and_follows_the_turns():
    s = session()
    first = s.next_prompt()
    assert [m["role"] for m in first] == ["system", "user"]
    assert "Find the priciest electronics" in first[1]["content"]
    assert first[0]["content"] == ptc_lisp.system_prompt()
    s.run_turn("(def n (count data/products))")
    after = s.next_prompt()
    assert [m["role"] for m in after] == ["system", "user", "assistant", "user"]
    assert after[2]["content"] == "(def n (count data/products))"
    anthropic = s.next_prompt_anthropic()
    assert anthropic["system"] == after[0]["content"]
    assert anthropic["messages"] == after[1:]


def test_compression_and_render_views():
    s = session(compression=True)
    s.run_turn("(def n (count data/products))")
    assert [m["role"] for m in s.next_prompt()] == ["system", "user"]
    assert s.render() == s.next_prompt()
    assert s.render("compressed") == s.next_prompt()
    assert [m["role"] for m in s.render("uncompressed")] == ["system", "user", "assistant", "user"]
    text = s.render("turns")
    assert isinstance(text, str) and "(def n (count data/products))" in text
    with pytest.raises(ValueError, match="view must be"):
        s.render("fancy")


def test_render_options_and_bad_definitions():
    s = session(render={"show_last_result": True}, compression=True)
    s.run_turn("(+ 1 2)")
    assert ";; Last result: 3" in s.next_prompt()[-1]["content"]
    with pytest.raises(ptc_lisp.SessionError, match="max_turns"):
        ptc_lisp.Session("m", max_turns=0)
    with pytest.raises(ptc_lisp.SessionError, match="printn_limit"):
        ptc_lisp.Session("m", render={"printn_limit": 1})


def test_save_and_from_file_replay_the_same_turns(tmp_path):
    s = session()
    s.run_turn("(def e (filter #(= (:category %) \"Electronics\") data/products))")
    s.run_turn("(oops)")
    s.run_turn("(map :name e)")
    path = tmp_path / "s.json"
    s.save(path)
    saved = json.loads(path.read_text())
    assert saved["mission"] == "Find the priciest electronics" and len(saved["turns"]) == 3
    loaded = ptc_lisp.Session.from_file(str(path))
    assert [t.success for t in loaded.turns] == [True, False, True]
    assert loaded.memory == s.memory
    assert loaded.next_prompt() == s.next_prompt()
    with pytest.raises(ptc_lisp.SessionError, match="missing.json"):
        ptc_lisp.Session.from_file(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text('{"mission": "m", "max_turnz": 3}')
    with pytest.raises(ptc_lisp.SessionError, match="max_turnz") as e:
        ptc_lisp.Session.from_file(tmp_path / "bad.json")
    assert e.value.line == 1


def test_turn_tool_calls_and_star_vars():
    s = ptc_lisp.Session("m", tools={"double": lambda x: x * 2})
    s.run_turn("(tool/double 21)")
    t = s.run_turn("(inc *1)")
    assert t.value == 43
    assert s.turns[0].tool_calls == [{"name": "double", "args": [21], "result": 42, "error": None}]


@pytest.mark.parametrize(
    "reply",
    ["```clojure\n```", "This is prose, not code.\n```", "```clojure\n;; thinking\n```"],
)
def test_an_empty_program_is_a_failed_turn(reply):
    s = session()
    turn = s.run_turn(reply)
    assert not turn.success
    assert turn.error.kind == "parse-error"
    assert "your code block was empty" in turn.error.message
    assert s.status == "running"
