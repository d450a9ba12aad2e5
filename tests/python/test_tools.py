"""Python callables as tools: values, errors, exceptions, interrupts (src/python/tools.rs)."""

import pytest

import ptc_lisp


def test_arguments_arrive_as_python_values_and_results_convert_back():
    seen = []

    def lookup(query, options):
        seen.append((query, options))
        return {"hits": [{"title": query.upper(), "score": 0.5}], "total": 1}

    r = ptc_lisp.run('(:title (first (:hits (tool/lookup "abc" {:limit 3 :tags #{:a}}))))',
                     tools={"lookup": lookup})
    assert r.value == "ABC"
    assert seen == [("abc", {"limit": 3, "tags": {"a"}})]
    assert r.tool_calls == [{
        "name": "lookup",
        "args": ["abc", {"limit": 3, "tags": {"a"}}],
        "result": {"hits": [{"title": "ABC", "score": 0.5}], "total": 1},
        "error": None,
    }]


def test_an_exception_is_a_tool_error_naming_the_tool_and_message():
    def weather(city):
        raise ValueError(f"no such city: {city}")

    r = ptc_lisp.run('(tool/weather "Atlantis")', tools={"weather": weather})
    assert not r.ok
    assert r.error.kind == "tool-error"
    assert isinstance(r.error, ptc_lisp.ToolError)
    assert "tool/weather" in r.error.message
    assert "ValueError: no such city: Atlantis" in r.error.message
    assert r.tool_calls[0]["error"] == "ValueError: no such city: Atlantis"


def test_a_tool_error_can_be_caught_by_the_program():
    def flaky():
        raise RuntimeError("down")

    r = ptc_lisp.run('(try (tool/flaky) (catch Exception e (str "caught: " (:message e))))',
                     tools={"flaky": flaky})
    assert r.value.startswith("caught: tool/flaky failed: RuntimeError: down")


def test_an_unconvertible_result_is_a_tool_error():
    r = ptc_lisp.run("(tool/bad)", tools={"bad": lambda: object()})
    assert r.error.kind == "tool-error"
    assert "its result" in r.error.message and "object has no PTC-Lisp counterpart" in r.error.message


def test_decorator_signature_and_description_reach_the_prompt():
    @ptc_lisp.tool(signature="(query :string) -> [:map]")
    def search_reviews(query):
        """Reviews matching the query.

        Not shown: later paragraphs."""
        return []

    @ptc_lisp.tool
    def get_stock(product_name, warehouse):
        return 3

    assert search_reviews("x") == []  # still callable
    s = ptc_lisp.Session("m", tools=[search_reviews, get_stock])
    prompt = "\n".join(m["content"] for m in s.next_prompt())
    assert "(tool/search-reviews query)" in prompt
    assert "query:string -> [map]" in prompt
    assert '"Reviews matching the query."' in prompt
    assert "Not shown" not in prompt
    assert "(tool/get-stock product-name warehouse)" in prompt
    assert s.run_turn('(tool/get-stock "Laptop" "A")').value == 3


def test_tool_class_with_explicit_name():
    t = ptc_lisp.Tool(lambda a, b: a + b, name="add", signature="(a :int, b :int) -> :int",
                      description="Adds.")
    assert ptc_lisp.run("(tool/add 2 3)", tools=[t]).value == 5
    assert ptc_lisp.run("(tool/plus 2 3)", tools={"plus": t}).value == 5


def test_bad_tool_definitions_are_errors():
    with pytest.raises(ptc_lisp.SessionError, match="tool/t: bad signature"):
        ptc_lisp.Session("m", tools=[ptc_lisp.Tool(len, name="t", signature="(q string) -> :x")])
    with pytest.raises(TypeError, match="not callable"):
        ptc_lisp.run("1", tools={"x": 5})
    with pytest.raises(ptc_lisp.SessionError, match="tool name"):
        ptc_lisp.Session("m", tools={"bad name": len})


def test_keyboard_interrupt_in_a_tool_stops_the_turn_and_propagates():
    calls = []

    def stop():
        calls.append("stop")
        raise KeyboardInterrupt

    def after():
        calls.append("after")
        return 1

    s = ptc_lisp.Session("m", tools={"stop": stop, "after": after}, max_turns=3)
    s.run_turn("(def kept 1)")
    with pytest.raises(KeyboardInterrupt):
        # The program catches the tool-error, but the turn still stops.
        s.run_turn("(def lost 2) (try (tool/stop) (catch Exception e nil)) (tool/after) (def lost2 3)")
    assert calls == ["stop"]  # later tool calls of the interrupted turn do not run
    assert len(s.turns) == 1  # the turn was dropped
    assert s.memory == {"kept": 1}
    assert s.status == "running" and s.turns_left == 2
    t = s.run_turn("(tool/after)")  # the session goes on
    assert t.success and t.number == 2 and calls == ["stop", "after"]


def test_keyboard_interrupt_in_run_propagates():
    def stop():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ptc_lisp.run("(tool/stop)", tools={"stop": stop})
    assert ptc_lisp.run("(+ 1 1)").value == 2
