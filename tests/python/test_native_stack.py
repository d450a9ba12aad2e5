"""The native stack: nested programs, small thread stacks, deep signatures (issue 23).

Tools run back on the calling thread's own stack, so a tool that runs a
program whose tool runs a program ... nests on it, and a thread may have a
small stack. Each case ends in RecursionError, a tool-error or a
SessionError, never a crash; they run in a fresh interpreter (`isolated`)
because before the fix they killed it with SIGSEGV.
"""

import json


def test_a_tool_running_programs_recursively_stops_with_recursion_error(isolated):
    # Segfaulted at ~400 levels.
    out = isolated(
        """
        import ptc_lisp
        depth = [0]
        def again():
            depth[0] += 1
            try:
                r = ptc_lisp.run("(tool/again)", tools={"again": again})
            except RecursionError as e:
                return "bottom: " + str(e)
            return r.unwrap()
        r = ptc_lisp.run("(tool/again)", tools={"again": again})
        assert r.ok, r.error
        assert r.value.startswith("bottom: ptc_lisp.run:") and "nested" in r.value, r.value
        print(depth[0])
        """
    )
    # MAX_NESTED (src/python/native.rs) programs nest, then the next is refused.
    assert int(out.split()[-1]) == 64, out


def test_sessions_nested_in_tools_stop_too(isolated):
    isolated(
        """
        import ptc_lisp
        def again():
            s = ptc_lisp.Session("m", tools={"again": again})
            try:
                t = s.run_turn("(tool/again)")
            except RecursionError as e:
                return "bottom: " + str(e)
            assert t.success, t.error
            return t.value
        bottom = again()
        assert bottom.startswith("bottom: Session.run_turn:"), bottom
        # Nothing is left counted once they unwind.
        assert ptc_lisp.run("(+ 1 2)").value == 3
        """
    )


def test_nesting_on_a_small_thread_stack_ends_cleanly(isolated):
    # A 512 KiB thread holds fewer levels than MAX_NESTED: the room left
    # on the stack stops it first, as a RecursionError or a tool that is
    # not run.
    out = isolated(
        """
        import threading
        import ptc_lisp
        threading.stack_size(512 * 1024)
        depth = [0]
        seen = {}
        def again():
            depth[0] += 1
            try:
                r = ptc_lisp.run("(tool/again)", tools={"again": again})
            except RecursionError as e:
                return "bottom: " + str(e)
            if r.error is not None:
                raise RuntimeError(r.error.message[-300:])
            return r.value
        def main():
            seen["r"] = ptc_lisp.run("(tool/again)", tools={"again": again})
        t = threading.Thread(target=main)
        t.start()
        t.join()
        r = seen["r"]
        text = r.value if r.ok else r.error.message
        assert "native stack" in text, text
        print(depth[0])
        """
    )
    assert 1 < int(out.split()[-1]) < 64, out


def test_json_in_a_tool_on_a_small_thread_stack_does_not_crash(isolated):
    # json.loads of 500 nested lists in a tool on a 256 KiB thread segfaulted.
    out = isolated(
        """
        import json, threading
        import ptc_lisp
        threading.stack_size(256 * 1024)
        seen = {}
        def parse(n):
            return len(json.loads("[" * n + "]" * n))
        def main():
            seen["r"] = [ptc_lisp.run(f"(tool/parse {n})", tools={"parse": parse}) for n in (10, 500, 5000)]
        t = threading.Thread(target=main)
        t.start()
        t.join()
        small, mid, deep = seen["r"]
        assert small.value == 1, small.error
        for r in (mid, deep):
            assert r.ok or r.error.kind == "tool-error", r.error
        assert deep.error is not None and "RecursionError" in deep.error.message, deep.error
        print(mid.value if mid.ok else mid.error.message)
        """
    )
    print(out)


def test_a_deep_value_converts_on_a_small_thread_stack_or_says_why(isolated):
    isolated(
        """
        import threading
        import ptc_lisp
        threading.stack_size(256 * 1024)
        seen = {}
        def main():
            deep = [1]
            for _ in range(990):
                deep = [deep]
            try:
                seen["in"] = ptc_lisp.run("(count data/d)", data={"d": deep}).value
            except ptc_lisp.ConversionError as e:
                seen["in"] = e.message
            r = ptc_lisp.run("(reduce (fn [a _] [a]) 1 (range 990))")
            try:
                seen["out"] = r.value
            except ptc_lisp.ConversionError as e:
                seen["out"] = e.message
        t = threading.Thread(target=main)
        t.start()
        t.join()
        for way in ("in", "out"):
            got = seen[way]
            assert got == 1 or isinstance(got, list) or "native stack" in got, (way, got)
        print(seen)
        """
    )


DEEP_SIGNATURE = "(x " + "[" * 30_000 + ":int" + "]" * 30_000 + ") -> :any"


def test_a_deep_tool_signature_is_a_session_error(isolated):
    # Segfaulted in the signature parser (bounded at 64 levels by the
    # session layer, src/session/signature.rs).
    isolated(
        f"""
        import ptc_lisp
        sig = {DEEP_SIGNATURE!r}
        for make in (
            lambda: ptc_lisp.Session("m", tools=[ptc_lisp.Tool(lambda x: x, name="deep", signature=sig)]),
            lambda: ptc_lisp.run("1", tools=[ptc_lisp.Tool(lambda x: x, name="deep", signature=sig)]),
        ):
            try:
                make()
                raise SystemExit("accepted")
            except ptc_lisp.SessionError as e:
                assert "tool/deep" in e.message and "bad signature" in e.message, e.message[:300]
                assert "nest" in e.message, e.message[:300]
                assert len(e.message) < 4096, len(e.message)
        """
    )


def test_a_deep_signature_in_a_session_file_is_a_session_error(isolated, tmp_path):
    path = tmp_path / "deep.json"
    session = {
        "mission": "m",
        "tools": {"deep": {"signature": DEEP_SIGNATURE, "returns": 1}},
        "turns": [],
    }
    path.write_text(json.dumps(session))
    isolated(
        f"""
        import ptc_lisp
        try:
            ptc_lisp.Session.from_file({str(path)!r})
            raise SystemExit("accepted")
        except ptc_lisp.SessionError as e:
            assert "deep.json" in e.message and "deep" in e.message.replace("deep.json", ""), e.message[:300]
            assert "nest" in e.message, e.message[:300]
            assert len(e.message) < 4096, len(e.message)
        """
    )
