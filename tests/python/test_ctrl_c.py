"""Ctrl-C (SIGINT) stops a running program (issue 23).

The program evaluates with the GIL released, so Python's handler cannot
run until it ends; before the fix a program without a time limit could not
be interrupted at all. These run in a fresh interpreter (`isolated`): the
signal is sent to the whole process, and a program that cannot be
interrupted would hang it.
"""

import sys

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to self is POSIX")

# Sends SIGINT to this process after half a second, from another thread.
CTRL_C_SOON = """
import os, signal, threading
def ctrl_c_soon():
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
"""

ENDLESS = "(loop [i 0] (recur (inc i)))"


def test_ctrl_c_interrupts_a_turn_and_memory_is_unchanged(isolated):
    isolated(
        CTRL_C_SOON
        + f"""
import ptc_lisp
s = ptc_lisp.Session("m", limits="none", max_turns=5)
s.run_turn("(def x 1)")
ctrl_c_soon()
try:
    s.run_turn("(def x 2) {ENDLESS}")
    raise SystemExit("the turn ended without an interrupt")
except KeyboardInterrupt:
    pass
assert s.memory == {{"x": 1}}, s.memory
assert len(s.turns) == 1 and s.status == "running"
# The session goes on, and a later turn is not interrupted by the old signal.
assert s.run_turn("(inc x)").value == 2
"""
    )


def test_ctrl_c_interrupts_run(isolated):
    isolated(
        CTRL_C_SOON
        + f"""
import ptc_lisp
ctrl_c_soon()
try:
    ptc_lisp.run("{ENDLESS}", limits="none")
    raise SystemExit("the program ended without an interrupt")
except KeyboardInterrupt:
    pass
assert ptc_lisp.run("(+ 1 2)", limits="none").value == 3
"""
    )


def test_ctrl_c_inside_a_program_a_tool_runs(isolated):
    isolated(
        CTRL_C_SOON
        + f"""
import ptc_lisp
def inner():
    ctrl_c_soon()
    return ptc_lisp.run("{ENDLESS}", limits="none").value
try:
    ptc_lisp.run("(tool/inner)", tools={{"inner": inner}}, limits="none")
    raise SystemExit("no interrupt")
except KeyboardInterrupt:
    pass
"""
    )


def test_a_custom_sigint_handler_still_runs(isolated):
    # The handler Python has is the one that runs; one that does not raise
    # leaves a failed program, interrupted.
    isolated(
        CTRL_C_SOON
        + f"""
import signal
import ptc_lisp
calls = []
signal.signal(signal.SIGINT, lambda *a: calls.append(a[0]))
ctrl_c_soon()
r = ptc_lisp.run("{ENDLESS}", limits="none")
assert calls == [signal.SIGINT], calls
assert r.error is not None and "interrupted" in r.error.message, r
"""
    )


def test_the_previous_wakeup_fd_is_restored_and_told(isolated):
    isolated(
        CTRL_C_SOON
        + f"""
import os, signal, socket
import ptc_lisp
a, b = socket.socketpair()
a.setblocking(False)
signal.set_wakeup_fd(a.fileno())
signal.signal(signal.SIGINT, lambda *x: None)
ctrl_c_soon()
ptc_lisp.run("{ENDLESS}", limits="none")
assert signal.set_wakeup_fd(-1) == a.fileno()
assert b.recv(16) == bytes([signal.SIGINT])
"""
    )


# A session file whose tool/wait takes a second (a command tool: the
# program waits in Rust, the GIL released, so the SIGINT is only noted),
# written into the folder given (the test's tmp_path: pytest keeps the
# folders of its last three runs only).
WAITING_SESSION = """
import json, os
def waiting_session(folder):
    path = os.path.join(folder, "s.json")
    with open(path, "w") as f:
        json.dump({
            "mission": "m",
            "tools": {"wait": {"signature": "-> :any",
                               "command": ["sh", "-c", "sleep 1; echo null"]}},
            "limits": {"timeout_ms": None, "max_steps": None},
        }, f)
    return ptc_lisp.Session.from_file(path)
"""


def test_a_sigint_before_the_watch_starts_still_stops_the_program(isolated, tmp_path):
    # The watch starts at the program's 4,096th step; a SIGINT that came
    # earlier (here while a tool ran) stops it there, and Python's handler
    # runs once, after it.
    isolated(
        CTRL_C_SOON
        + "import ptc_lisp\n"
        + WAITING_SESSION
        + f"""
import signal
calls = []
signal.signal(signal.SIGINT, lambda *a: calls.append(a[0]))
s = waiting_session({str(tmp_path)!r})
ctrl_c_soon()
t = s.run_turn("(tool/wait) {ENDLESS}")
assert calls == [signal.SIGINT], calls
assert not t.success and "interrupted" in t.error.message, t
signal.signal(signal.SIGINT, signal.default_int_handler)
ctrl_c_soon()
try:
    s.run_turn("(tool/wait) {ENDLESS}")
    raise SystemExit("the turn ended without an interrupt")
except KeyboardInterrupt:
    pass
assert len(s.turns) == 1, s.turns
"""
    )


def test_a_sigint_before_the_watch_starts_reaches_the_previous_wakeup_fd_once(isolated, tmp_path):
    isolated(
        CTRL_C_SOON
        + "import ptc_lisp\n"
        + WAITING_SESSION
        + f"""
import signal, socket
a, b = socket.socketpair()
a.setblocking(False)
b.setblocking(False)
signal.set_wakeup_fd(a.fileno())
signal.signal(signal.SIGINT, lambda *x: None)
s = waiting_session({str(tmp_path)!r})
ctrl_c_soon()
t = s.run_turn("(tool/wait) {ENDLESS}")
assert not t.success and "interrupted" in t.error.message, t
assert signal.set_wakeup_fd(-1) == a.fileno()
assert b.recv(16) == bytes([signal.SIGINT])
"""
    )
