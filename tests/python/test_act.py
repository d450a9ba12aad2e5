"""Tools that act from Python (issue 61; session.md §Tools that act, ACT-1..ACT-5):
@tool(effect=..., approval=..., idempotent=..., preview=...), idempotency keys,
approval pauses (turn.status == "paused", turn.pending, Session.resume),
Session.preview, async tools and concurrent pmap calls."""

import asyncio
import threading
import pytest

import ptc_lisp
from ptc_lisp import tool


def sent_tools(log):
    @tool(effect="write", approval=True, signature="(to :string) -> :string")
    def send(to, idempotency_key=None):
        log.append((to, idempotency_key))
        return f"sent to {to}"

    @tool(signature="(id :int) -> :string")
    def lookup(id):
        return f"user{id}@example.com"

    return [send, lookup]


def test_an_approval_tool_pauses_the_turn_with_its_pending_call():
    log = []
    s = ptc_lisp.Session("Mail", tools=sent_tools(log))
    t = s.run_turn("```clojure\n(def who (tool/lookup 1))\n(tool/send who)\n```")
    assert t.status == "paused"
    assert log == []
    [p] = t.pending
    assert p["tool"] == "send" and p["args"] == ["user1@example.com"]
    assert p["key"] and p["key"].endswith(":" + p["id"])
    assert s.pending == t.pending
    assert s.memory == {}


def test_resume_approve_runs_the_call_once_with_its_key():
    log = []
    s = ptc_lisp.Session("Mail", tools=sent_tools(log))
    t = s.run_turn("```clojure\n(def who (tool/lookup 1))\n(tool/send who)\n```")
    key = t.pending[0]["key"]
    r = s.resume(approve="all")
    assert r.status == "ok" and r.value == "sent to user1@example.com"
    assert log == [("user1@example.com", key)]
    assert s.memory == {"who": "user1@example.com"}
    assert s.pending == []


def test_resume_deny_fails_the_call_with_the_reason_and_runs_nothing():
    log = []
    s = ptc_lisp.Session("Mail", tools=sent_tools(log))
    t = s.run_turn("```clojure\n(tool/send \"a@b.c\")\n```")
    r = s.resume(deny={t.pending[0]["id"]: "not today"})
    assert r.status == "error" and r.error.kind == "tool-error"
    assert "denied: not today" in r.error.message
    assert log == []


def test_resume_with_ids_and_unknown_ids():
    log = []
    s = ptc_lisp.Session("Mail", tools=sent_tools(log))
    t = s.run_turn("```clojure\n(tool/send \"a@b.c\")\n```")
    with pytest.raises(ValueError, match="not a pending call"):
        s.resume(approve=["nope"])
    r = s.resume(approve=[t.pending[0]["id"]])
    assert r.status == "ok" and len(log) == 1
    with pytest.raises(ptc_lisp.SessionError, match="no turn is paused"):
        s.resume(approve="all")


def test_session_approval_writes_pauses_every_write_but_not_reads():
    log = []

    @tool(effect="write")
    def save(x):
        log.append(x)
        return x

    def read(x):
        return x + 1

    s = ptc_lisp.Session("m", tools=[save, read], approval="writes")
    t = s.run_turn("```clojure\n(tool/save (tool/read 1))\n```")
    assert t.status == "paused" and [p["tool"] for p in t.pending] == ["save"]
    assert s.resume(approve="all").value == 2 and log == [2]
    with pytest.raises(ValueError, match="writes"):
        ptc_lisp.Session("m", approval="everything")


def test_a_write_gets_its_key_as_a_keyword_when_it_takes_one():
    seen = []

    @tool(effect="write")
    def put(x, **kwargs):
        seen.append(kwargs.get("idempotency_key"))
        return x

    @tool(effect="write")
    def plain(x):
        return x

    @tool
    def reader(x, **kwargs):
        seen.append(("read", kwargs))
        return x

    s = ptc_lisp.Session("m", tools=[put, plain, reader])
    t = s.run_turn("```clojure\n[(tool/put 1) (tool/plain 2) (tool/reader 3)]\n```")
    assert t.value == [1, 2, 3]
    assert seen[0] and seen[0].count(":") >= 2, seen
    assert seen[1] == ("read", {})


def test_preview_lists_the_writes_and_changes_nothing():
    log = []

    @tool(effect="write", preview="(would send)")
    def send(to):
        log.append(to)
        return "sent"

    def lookup(i):
        return f"u{i}"

    s = ptc_lisp.Session("m", tools={"send": send, "lookup": lookup})
    p = s.preview("(def r (mapv #(tool/send (tool/lookup %)) [1 2]))\nr")
    assert p.turn.value == ["(would send)", "(would send)"]
    assert [(w["tool"], w["args"]) for w in p.writes] == [("send", ["u1"]), ("send", ["u2"])]
    assert all(w["at"] for w in p.writes)
    assert log == [] and s.memory == {} and s.turns == []


def test_tool_options_are_checked_and_kept():
    t = tool(lambda x: x, name="t", effect="write", approval=True, idempotent=True, preview={"ok": True})
    assert (t.effect, t.approval, t.idempotent, t.preview) == ("write", True, True, {"ok": True})
    with pytest.raises(ValueError, match="read"):
        tool(lambda x: x, effect="delete")


def test_an_async_tool_is_awaited():
    async def fetch(x):
        await asyncio.sleep(0)
        return x * 2

    r = ptc_lisp.run("(tool/fetch 21)", tools={"fetch": fetch})
    assert r.ok and r.value == 42


class Overlap:
    """Counts the calls running at once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def enter(self):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)

    def leave(self):
        with self.lock:
            self.now -= 1


def test_pmap_runs_python_tool_calls_concurrently():
    o = Overlap()
    started = threading.Barrier(4, timeout=20)

    def slow(i):
        o.enter()
        try:
            started.wait()  # all four must be running at once to pass
        finally:
            o.leave()
        return i

    r = ptc_lisp.run("(pmap #(tool/slow %) (range 4))", tools={"slow": slow},
                     limits={"max_parallel_tool_calls": 4})
    assert r.ok, r.error
    assert r.value == [0, 1, 2, 3] and o.most == 4


def test_pmap_awaits_async_tools_concurrently():
    o = Overlap()
    started = threading.Barrier(4, timeout=20)

    async def slow(i):
        o.enter()
        await asyncio.sleep(0)
        started.wait()  # all four must be running at once to pass
        o.leave()
        return i

    r = ptc_lisp.run("(pmap #(tool/slow %) (range 4))", tools={"slow": slow},
                     limits={"max_parallel_tool_calls": 4})
    assert r.ok and r.value == [0, 1, 2, 3]
    assert o.most == 4
