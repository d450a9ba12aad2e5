"""Conversions are bounded (issue 23: H4, H5, H6, tool results, error paths).

PTC-Lisp values share parts, so a value a few vectors big in memory can be
millions of Python objects; each conversion to Python is bounded by
4 x max_heap_bytes of (estimated) Python objects and stops with a
ConversionError (kind limit-exceeded) instead of stalling the interpreter.
Tool results are bounded by the heap limit as they are converted.

The hostile cases run in a fresh interpreter (`isolated`): before the
bounds they hung or took gigabytes, and must fail one test, not the suite.
"""

import pytest

import ptc_lisp
from ptc_lisp import ConversionError

# 2^40 paths to 40 vectors in memory.
SHARING_40 = "(reduce (fn [a _] [a a]) [1] (range 40))"
# 2^22 leaves: prints to ~12 MB (within the 40 MiB a result may print to),
# hundreds of MB as Python lists.
SHARING_22 = "(reduce (fn [a _] [a a]) [1] (range 22))"

# The child's own peak RSS in MB (Linux reports KiB).
PEAK_MB = "import resource; peak_mb = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024"


def test_memory_with_a_self_sharing_definition_is_an_error_not_a_hang(isolated):
    # H5: definitions are exempt from the printed-size bound of leaving
    # values; reading them from Python used to never return.
    isolated(
        f"""
        import ptc_lisp
        s = ptc_lisp.Session("m", max_turns=3)
        s.run_turn("(def small [1 2])")
        t = s.run_turn("(def x {SHARING_40})")
        assert t.success, t.error
        for read in (lambda: s.memory, lambda: t.memory):
            try:
                read()
                raise SystemExit("converted a 2^40-item value")
            except ptc_lisp.ConversionError as e:
                assert e.kind == "limit-exceeded", e.kind
                assert "user/x" in e.message and "41943040 bytes" in e.message, e.message
                assert len(e.message) < 500, len(e.message)
        # The session goes on; the value is usable inside it.
        assert s.run_turn("(count (first x))").value == 2
        assert "Turn(number=2, success=True" in repr(t)
        """
    )


def test_a_self_sharing_result_is_an_error_not_a_stall(isolated):
    # H6: Turn.value / RunResult.value took 18-57 s and 657 MB holding the GIL.
    out = isolated(
        f"""
        import ptc_lisp
        {PEAK_MB}
        r = ptc_lisp.run("{SHARING_22}")
        assert r.ok, r.error
        for read in (lambda: r.value, r.unwrap):
            try:
                read()
                raise SystemExit("converted 2^22 lists")
            except ptc_lisp.ConversionError as e:
                assert e.kind == "limit-exceeded", e.kind
                assert "RunResult.value" in e.message and "repr()" in e.message, e.message
        assert repr(r).startswith("RunResult(value=[[[[")
        s = ptc_lisp.Session("m")
        t = s.run_turn("{SHARING_22}")
        try:
            t.value
            raise SystemExit("converted 2^22 lists")
        except ptc_lisp.ConversionError as e:
            assert "Turn.value" in e.message, e.message
        t = s.run_turn("(return {SHARING_22})")
        try:
            s.result
            raise SystemExit("converted 2^22 lists")
        except ptc_lisp.ConversionError as e:
            assert "Session.result" in e.message, e.message
        print(peak_mb())
        """
    )
    assert int(out.split()[-1]) < 250, out


def test_the_bound_follows_the_heap_limit():
    # 2^12 leaves: about 0.5 MB of Python objects estimated.
    program = "(reduce (fn [a _] [a a]) [1] (range 12))"
    small = ptc_lisp.run(program, limits={"max_heap_bytes": 100_000})
    with pytest.raises(ConversionError, match=r"400000 bytes"):
        small.value
    big = ptc_lisp.run(program, limits={"max_heap_bytes": 1_000_000})
    value = big.value
    for _ in range(12):
        assert len(value) == 2 and value[0] == value[1]
        value = value[0]
    assert value == [1]
    # The lists do not alias: each place has its own.
    v = big.value
    assert v[0] is not v[1]


def test_ordinary_values_convert_whole():
    records = ptc_lisp.run("(mapv (fn [i] {:id i :name (str \"n\" i) :tags [:a :b]}) (range 20000))").value
    assert len(records) == 20000 and records[-1] == {"id": 19999, "name": "n19999", "tags": ["a", "b"]}
    s = ptc_lisp.Session("m")
    s.run_turn("(def a (vec (range 1000))) (def b {:k #{1 2}})")
    assert s.memory == {"a": list(range(1000)), "b": {"k": {1, 2}}}


def test_tool_arguments_are_bounded_before_the_tool_runs(isolated):
    # H4: a 22-level self-sharing map reached 787 MB on its way to a Python tool.
    out = isolated(
        f"""
        import ptc_lisp
        {PEAK_MB}
        called = []
        r = ptc_lisp.run(
            "(tool/t (reduce (fn [a _] {{:l a :r a}}) 1 (range 21)))",
            tools={{"t": lambda m: called.append(1)}},
        )
        assert not called, "the tool ran"
        # A tool-error from the binding's own bound, or memory-exceeded
        # where the evaluator checks the heap room for converted arguments
        # first (eval/outside.rs).
        assert r.error is not None and r.error.kind in ("tool-error", "memory-exceeded"), r
        assert "the arguments of tool/t" in r.error.message, r.error.message
        # A call with ordinary arguments works, and the log converts.
        r = ptc_lisp.run("(tool/t {{:a [1 2]}})", tools={{"t": lambda m: m["a"]}})
        assert r.value == [1, 2] and r.tool_calls[0]["args"] == [{{"a": [1, 2]}}]
        print(peak_mb())
        """
    )
    assert int(out.split()[-1]) < 250, out


def test_the_tool_call_log_is_bounded():
    # Each call's arguments fit the heap room the evaluator leaves them
    # (a vector of 1000 numbers, about 40 KB as Python objects); the log of
    # 31 calls, converted at once, passes the bound (4 x max_heap_bytes =
    # 0.8 MB), and the error names the call where it did.
    program = "(let [x (vec (range 1000))] (dotimes [_ 30] (tool/t x)) (tool/t x))"
    r = ptc_lisp.run(program, tools={"t": lambda v: 1}, limits={"max_heap_bytes": 200_000})
    assert r.value == 1
    with pytest.raises(ConversionError, match=r"arguments of tool_calls\[\d+\] \(tool/t\)"):
        r.tool_calls


def test_a_big_tool_result_stops_at_the_heap_limit_as_it_converts(isolated):
    # Tool results were converted whole, then charged: 1.72 GB of RSS for
    # list(range(20_000_000)).
    out = isolated(
        f"""
        import ptc_lisp
        {PEAK_MB}
        big = [0] * 20_000_000
        r = ptc_lisp.run("(count (tool/t))", tools={{"t": lambda: big}})
        assert r.error is not None and r.error.kind == "tool-error", r
        m = r.error.message
        assert "tool/t" in m and "a list of 20000000 items" in m and "10485760 bytes" in m, m
        # Nested: stops at the part that passes the limit, and says where.
        rows = [[i] * 1000 for i in range(1000)]
        r = ptc_lisp.run("(count (tool/t))", tools={{"t": lambda: rows}})
        assert r.error.kind == "tool-error" and "its result[" in r.error.message, r.error.message
        # Within the limit, results convert and are charged as before.
        r = ptc_lisp.run("(count (tool/t))", tools={{"t": lambda: list(range(1000))}})
        assert r.value == 1000
        print(peak_mb())
        """
    )
    # Python's own list is 160 MB; the conversion adds little to it.
    assert int(out.split()[-1]) < 400, out


def test_conversion_errors_name_a_short_path():
    # Each level's key repr was repeated: messages reached 1 GB.
    long_key = "k" * 10_000
    deep = inner = {}
    for _ in range(1100):
        inner[long_key] = {}
        inner = inner[long_key]
    with pytest.raises(ConversionError) as e:
        ptc_lisp.run("1", data={"v": deep})
    message = e.value.message
    assert len(message) < 800, len(message)
    assert message.startswith("data/v['kkkk") and "more)" in message, message
    assert "nests more than 1000 levels" in message

    # Set members and keys are named by position and type, not repr'd.
    frozen = frozenset([object()])
    for _ in range(50):
        frozen = frozenset([frozen, "x" * 1000])
    with pytest.raises(ConversionError) as e:
        ptc_lisp.run("1", data={"v": frozen})
    assert len(e.value.message) < 800, e.value.message
    assert "[member #" in e.value.message and "object has no PTC-Lisp counterpart" in e.value.message

    with pytest.raises(ConversionError) as e:
        ptc_lisp.run("1", data={"v": {(1, 2): [1, 2**70]}})
    assert "data/v[a tuple key][1]: an int of 71 bits" in e.value.message, e.value.message
