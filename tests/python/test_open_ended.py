"""Python sessions as a framework's code tool (issue 60): the open-ended
mode of `ptc mcp` sessions and the same answer text (`Turn.feedback`)."""

import pytest

import ptc_lisp


def fenced(program):
    return f"```clojure\n{program}\n```"


def test_open_ended_session_goes_on_after_return():
    s = ptc_lisp.Session("a code tool", open_ended=True, max_turns=1)
    t = s.run_turn(fenced("(def x 41)\n(return (inc x))"))
    assert t.returned and t.value == 42 and s.status == "running"
    assert t.feedback == "Result: 42"
    t = s.run_turn(fenced("(fliter odd? [x])"))
    assert not t.success and s.status == "running"
    assert t.feedback == "Error: undefined symbol 'fliter'\nHint: did you mean filter?\nAt: line 1, column 2"
    t = s.run_turn(fenced('(println "x is" x)\n{:status :ok :s (set [2 1])}'))
    assert t.feedback == ';; Output:\nx is 41\n\nResult: {:status :ok :s #{1 2}}', t.feedback
    t = s.run_turn(fenced('(fail "no")'))
    assert not t.success and s.status == "running"
    assert s.run_turn(fenced("(inc x)")).value == 42
    assert s.turns[-1].feedback is None


def test_a_closed_session_says_how_to_keep_it_open():
    s = ptc_lisp.Session("one answer")
    assert s.run_turn(fenced("(return 1)")).returned
    with pytest.raises(ptc_lisp.SessionError, match=r"open_ended=True"):
        s.run_turn(fenced("(+ 1 2)"))
