"""Values between Python and PTC-Lisp, both ways (src/python/convert.rs)."""

import pytest

import ptc_lisp
from ptc_lisp import ConversionError, Keyword


def echo(value, **kw):
    """Sends `value` into PTC-Lisp as data and brings it back unchanged."""
    return ptc_lisp.run("data/v", data={"v": value}, **kw).unwrap()


def test_scalars_reach_lisp_with_their_types():
    data = {"i": 42, "f": 2.5, "s": "héllo", "t": True, "n": None, "big": -(2**63)}
    r = ptc_lisp.run(
        "[(int? data/i) (float? data/f) (string? data/s) (true? data/t) (nil? data/n) (int? data/big)]",
        data=data,
    )
    assert r.value == [True, True, True, True, True, True]


def test_scalars_come_back_as_python_values():
    assert ptc_lisp.run('[1 2.5 "s" true nil]').value == [1, 2.5, "s", True, None]
    assert type(ptc_lisp.run("(+ 1 2)").value) is int
    assert type(ptc_lisp.run("(/ 1 2)").value) is float
    assert ptc_lisp.run("9223372036854775807").value == 2**63 - 1


def test_lists_and_tuples_become_vectors():
    r = ptc_lisp.run("[(vector? data/l) (vector? data/t) (count data/t) (first data/t)]",
                     data={"l": [1, 2], "t": (3, 4, 5)})
    assert r.value == [True, True, 3, 3]
    assert echo((1, (2, 3))) == [1, [2, 3]]


def test_dict_str_keys_become_keywords():
    r = ptc_lisp.run("[(:name data/p) (contains? data/p :price) (keys data/p)]",
                     data={"p": {"name": "Laptop", "price": 1200}})
    assert r.value == ["Laptop", True, ["name", "price"]]
    assert ptc_lisp.run("(keyword? (first (keys data/p)))", data={"p": {"a": 1}}).value is True


def test_dict_non_str_keys_convert_as_values():
    assert ptc_lisp.run("(get data/m 1)", data={"m": {1: "one", 2: "two"}}).value == "one"


def test_sets_become_sets():
    assert ptc_lisp.run("[(set? data/s) (contains? data/s 2)]", data={"s": {1, 2}}).value == [True, True]
    assert echo(frozenset({"a"})) == {"a"}
    assert ptc_lisp.run("#{1 2 3}").value == {1, 2, 3}


def test_keywords_are_str_by_default_and_keyword_objects_on_request():
    assert ptc_lisp.run(":status").value == "status"
    assert ptc_lisp.run("{:a :b}").value == {"a": "b"}
    kept = ptc_lisp.run("{:a :b}", keep_keywords=True).value
    assert kept == {Keyword("a"): Keyword("b")}
    assert str(Keyword("a")) == ":a" and Keyword(":a") == Keyword("a")
    assert ptc_lisp.run("(keyword? data/k)", data={"k": Keyword("x")}).value is True


def test_maps_keep_insertion_order():
    assert list(ptc_lisp.run("{:z 1 :a 2 :m 3}").value) == ["z", "a", "m"]
    assert list(echo({"z": 1, "a": 2, "m": 3})) == ["z", "a", "m"]


def test_collection_keys_and_set_members_become_hashable():
    assert ptc_lisp.run("{[1 2] :a}").value == {(1, 2): "a"}
    assert ptc_lisp.run("#{[1 2] #{3}}").value == {(1, 2), frozenset({3})}
    assert ptc_lisp.run("{{:a 1} 2}").value == {(("a", 1),): 2}


def test_non_data_values_become_their_printed_form():
    assert isinstance(ptc_lisp.run("(fn [x] x)").value, str)
    assert ptc_lisp.run("'sym").value == "sym"


def test_round_trip_of_nested_data():
    value = {"users": [{"name": "a", "tags": ["x", "y"], "score": 1.5, "ok": None}], "n": 3}
    assert echo(value) == value


def test_an_int_beyond_64_bits_is_a_clear_error():
    with pytest.raises(ConversionError) as e:
        ptc_lisp.run("1", data={"v": {"big": [2**64]}})
    assert "data/v['big'][0]" in str(e.value)
    assert "64 bits" in e.value.message
    assert e.value.kind == "type-error"


def test_an_unsupported_type_is_a_clear_error():
    class Thing:
        pass

    with pytest.raises(ConversionError, match=r"data/v\[1\].*Thing has no PTC-Lisp counterpart"):
        ptc_lisp.run("1", data={"v": [1, Thing()]})


def test_a_list_that_contains_itself_is_an_error_not_a_crash():
    loop = []
    loop.append(loop)
    with pytest.raises(ConversionError, match="nests more than"):
        ptc_lisp.run("1", data={"v": loop})


def test_bad_argument_shapes_are_type_errors():
    with pytest.raises(TypeError, match="data: expected a dict"):
        ptc_lisp.run("1", data=[1])
    with pytest.raises(TypeError, match="tools: expected a dict"):
        ptc_lisp.run("1", tools=42)
