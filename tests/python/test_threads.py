"""Threads: evaluation releases the GIL; sessions run in parallel threads."""

import threading
import time

import pytest

import ptc_lisp

BUSY = "(loop [i 0] (if (< i 3000000) (recur (inc i)) i))"


def test_evaluation_runs_without_the_gil():
    done = threading.Event()
    result = {}

    def work():
        started = time.monotonic()
        result["value"] = ptc_lisp.run(BUSY, limits="none").value
        result["seconds"] = time.monotonic() - started
        done.set()

    worker = threading.Thread(target=work)
    ticks = 0
    worker.start()
    while not done.is_set():
        ticks += 1  # runs only while the worker does not hold the GIL
    worker.join()
    assert result["value"] == 3_000_000
    # Python kept running in this thread for (most of) the evaluation.
    assert ticks > 1000, (ticks, result["seconds"])


def test_sessions_in_parallel_threads():
    errors = []

    def agent(k):
        try:
            s = ptc_lisp.Session(f"agent {k}", data={"k": k}, tools={"square": lambda x: x * x}, max_turns=10)
            for i in range(5):
                t = s.run_turn(f"(def v{i} (+ (tool/square data/k) {i}))")
                assert t.success, t.error
            s.run_turn(f"(return (+ {' '.join(f'v{i}' for i in range(5))}))")
            assert s.status == "returned" and s.result == 5 * k * k + 10
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=agent, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_one_session_used_by_two_threads_at_once_is_an_error_not_a_deadlock():
    in_tool = threading.Event()
    release = threading.Event()

    def wait():
        in_tool.set()
        release.wait(10)
        return 1

    s = ptc_lisp.Session("m", tools={"wait": wait})
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.setdefault("turn", s.run_turn("(tool/wait)")))
    worker.start()
    assert in_tool.wait(10)
    with pytest.raises(ptc_lisp.SessionError, match="busy in another thread"):
        s.next_prompt()
    release.set()
    worker.join()
    assert outcome["turn"].value == 1
    assert len(s.turns) == 1
