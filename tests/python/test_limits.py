"""Limits: a runaway program is a failed turn, and the interpreter keeps working."""

import time

import pytest

import ptc_lisp


def test_a_timeout_is_a_failed_turn_and_the_session_goes_on():
    s = ptc_lisp.Session("m", limits={"timeout_ms": 100, "max_steps": None}, max_turns=3)
    s.run_turn("(def x 1)")
    started = time.monotonic()
    t = s.run_turn("(def x 2) (loop [i 0] (recur (inc i)))")
    assert time.monotonic() - started < 5
    assert not t.success
    assert t.error.kind == "timeout" and isinstance(t.error, ptc_lisp.PtcTimeoutError)
    assert "100 ms" in t.error.message and t.error.hint
    assert s.memory == {"x": 1}
    assert s.status == "running"
    assert s.run_turn("(inc x)").value == 2


def test_step_heap_and_print_limits_fail_the_program():
    r = ptc_lisp.run("(loop [i 0] (recur (inc i)))", limits={"max_steps": 10_000, "timeout_ms": None})
    assert r.error.kind == "limit-exceeded"
    r = ptc_lisp.run("(count (range 10000000))", limits={"max_heap_bytes": 1000})
    assert r.error.kind in ("memory-exceeded", "limit-exceeded")
    r = ptc_lisp.run('(dotimes [i 100] (println "xxxxxxxxxx"))', limits={"max_print_bytes": 50})
    assert r.error.kind == "limit-exceeded"
    assert ptc_lisp.run("(reduce + (range 10))").value == 45


def test_tool_call_limit():
    r = ptc_lisp.run("(dotimes [i 5] (tool/t))", tools={"t": lambda: 1}, limits={"max_tool_calls": 2})
    assert r.error.kind == "limit-exceeded" and len(r.tool_calls) == 2


def test_no_limits():
    r = ptc_lisp.run("(loop [i 0] (if (< i 20000000) (recur (inc i)) i))", limits="none")
    assert r.value == 20_000_000


def test_unknown_limit_names_are_errors():
    with pytest.raises(ptc_lisp.SessionError, match="timout_ms"):
        ptc_lisp.run("1", limits={"timout_ms": 5})
