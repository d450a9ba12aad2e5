//! Unit tests of the number builtins.

use super::*;
use crate::builtins::testing::{call_in, i, s};
use crate::error::ErrorKind;

fn call(name: &str, args: &[Value]) -> Result<Value> {
    call_in(BUILTINS, name, args)
}

fn ok(name: &str, args: &[Value]) -> Value {
    call(name, args).unwrap_or_else(|e| panic!("({name} {args:?}) failed: {e}"))
}

fn err(name: &str, args: &[Value]) -> ErrorKind {
    match call(name, args) {
        Ok(v) => panic!("({name} {args:?}) gave {v:?}, expected an error"),
        Err(e) => e.kind(),
    }
}

fn f(x: f64) -> Value {
    Value::Float(x)
}
fn b(x: bool) -> Value {
    Value::Bool(x)
}
fn is_nan(v: &Value) -> bool {
    matches!(v, Value::Float(x) if x.is_nan())
}
const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;

/// Exact value check that tells 1 from 1.0.
fn same(a: &Value, b: &Value) -> bool {
    a == b && a.type_name() == b.type_name()
}

#[track_caller]
fn check(name: &str, args: &[Value], want: Value) {
    let got = ok(name, args);
    assert!(
        same(&got, &want),
        "({name} {args:?}) = {got:?}, want {want:?}"
    );
}

#[test]
fn arithmetic() {
    check("*", &[i(2), i(3), i(4)], i(24));
    check("+", &[], i(0));
    check("*", &[], i(1));
    check("+", &[i(1), f(2.5)], f(3.5));
    check("*", &[f(1.5), i(2)], f(3.0));
    check("-", &[i(10), i(3), i(2), i(1)], i(4));
    check("-", &[i(5)], i(-5));
    check("-", &[f(-INF)], f(INF));
    check("-", &[f(INF), i(1)], f(INF));
    check("*", &[f(INF), i(-2)], f(-INF));
    assert!(is_nan(&ok("+", &[f(INF), f(-INF)])));
    assert!(is_nan(&ok("*", &[f(NAN), i(10)])));
    assert!(is_nan(&ok("-", &[f(INF), f(INF)])));
    check("inc", &[i(5)], i(6));
    check("dec", &[i(5)], i(4));
    check("inc", &[f(1.5)], f(2.5));
    check("abs", &[i(-5)], i(5));
    check("abs", &[i(0)], i(0));
    check("abs", &[f(-2.5)], f(2.5));
}

#[test]
fn overflow_is_an_arithmetic_error() {
    let big = i(1_000_000_000_000);
    assert_eq!(err("*", &[big.clone(), big]), ErrorKind::Arithmetic);
    assert_eq!(err("+", &[i(i64::MAX), i(1)]), ErrorKind::Arithmetic);
    assert_eq!(err("+'", &[i(i64::MAX), i(1)]), ErrorKind::Arithmetic);
    assert_eq!(err("-", &[i(i64::MIN)]), ErrorKind::Arithmetic);
    assert_eq!(err("inc", &[i(i64::MAX)]), ErrorKind::Arithmetic);
    assert_eq!(err("dec'", &[i(i64::MIN)]), ErrorKind::Arithmetic);
    assert_eq!(err("abs", &[i(i64::MIN)]), ErrorKind::Arithmetic);
    assert_eq!(err("quot", &[i(i64::MIN), i(-1)]), ErrorKind::Arithmetic);
}

#[test]
fn nil_and_strings_are_type_errors_naming_them() {
    let e = call("+", &[i(1), Value::Nil]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("nil"), "{e}");
    assert!(e.message().contains('+'), "{e}");
    let e = call("/", &[i(10), Value::Nil]).unwrap_err();
    assert!(e.message().contains("nil"), "{e}");
    let e = call("*", &[i(5), Value::Nil]).unwrap_err();
    assert!(e.message().contains("nil"), "{e}");
    assert_eq!(err("+", &[s("string"), i(42)]), ErrorKind::Type);
}

#[test]
fn division_is_always_float() {
    check("/", &[i(10), i(2)], f(5.0));
    check("/", &[i(10), i(4)], f(2.5));
    check("/", &[i(5), i(0)], f(INF));
    check("/", &[i(1), i(0)], f(INF));
    check("/", &[i(-1), i(0)], f(-INF));
    assert!(is_nan(&ok("/", &[i(0), i(0)])));
    assert!(is_nan(&ok("/", &[f(0.0), f(0.0)])));
    check("/", &[f(INF), i(2)], f(INF));
    check("/", &[i(2), f(INF)], f(0.0));
    check("/", &[i(4)], f(0.25));
    check("/", &[i(100), i(2), i(5)], f(10.0));
}

#[test]
fn quot_rem_mod() {
    check("quot", &[i(7), i(2)], i(3));
    check("quot", &[i(-7), i(2)], i(-3));
    check("quot", &[f(7.5), i(2)], f(3.0));
    check("rem", &[i(-7), i(2)], i(-1));
    check("rem", &[i(7), i(-2)], i(1));
    check("mod", &[i(10), i(3)], i(1));
    check("mod", &[i(-7), i(2)], i(1));
    check("mod", &[i(7), i(-2)], i(-1));
    check("mod", &[i(-6), i(3)], i(0));
    check("mod", &[f(-7.5), i(2)], f(0.5));
    check("rem", &[i(i64::MIN), i(-1)], i(0));
    check("mod", &[i(i64::MIN), i(-1)], i(0));
    for name in ["quot", "rem", "mod"] {
        assert_eq!(err(name, &[i(1), i(0)]), ErrorKind::Arithmetic);
        assert_eq!(err(name, &[f(1.5), f(0.0)]), ErrorKind::Arithmetic);
    }
}

#[test]
fn max_min_keep_the_argument() {
    check("max", &[i(1), i(5), i(3)], i(5));
    check("min", &[i(4), i(2), i(8)], i(2));
    check("max", &[i(1), f(2.0)], f(2.0));
    check("max", &[i(2), f(1.0)], i(2));
    check("max", &[i(7)], i(7));
    assert!(is_nan(&ok("max", &[i(1), f(NAN), i(2)])));
    let e = call("max", &[Value::vector_from([i(1), i(2)])]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.hint().unwrap_or("").contains("apply max"));
}

#[test]
fn max_key_and_min_key() {
    let second = Func::native("second", |_, a| {
        Ok(crate::eval::lookup(&a[0], &Value::Int(1)).unwrap_or(Value::Nil))
    });
    let pair = |k: &str, n: i64| Value::vector_from([s(k), i(n)]);
    check(
        "max-key",
        &[second.clone(), pair("a", 1), pair("b", 5), pair("c", 3)],
        pair("b", 5),
    );
    check(
        "min-key",
        &[second.clone(), pair("a", 5), pair("b", 1), pair("c", 3)],
        pair("b", 1),
    );
    // Last one wins on ties, as in Clojure.
    check(
        "max-key",
        &[second.clone(), pair("a", 5), pair("b", 5)],
        pair("b", 5),
    );
    check(
        "min-key",
        &[second.clone(), pair("a", 1), pair("b", 1), pair("c", 1)],
        pair("c", 1),
    );
    // A single argument is returned without calling k.
    check("max-key", &[second, s("hello")], s("hello"));
}

use crate::value::Func;

#[test]
fn rounding_gives_integers() {
    check("floor", &[f(3.7)], i(3));
    check("ceil", &[f(3.2)], i(4));
    check("round", &[f(3.4)], i(3));
    check("floor", &[f(-3.7)], i(-4));
    check("ceil", &[f(-3.2)], i(-3));
    check("floor", &[f(3.0)], i(3));
    check("ceil", &[i(5)], i(5));
    check("ceil", &[f(3.0)], i(3));
    check("round", &[f(-3.5)], i(-4));
    check("round", &[f(2.5)], i(3));
    check("round", &[i(5)], i(5));
    check("trunc", &[f(-3.7)], i(-3));
    check("round", &[f(INF)], f(INF));
    assert!(is_nan(&ok("floor", &[f(NAN)])));
    assert_eq!(err("round", &[Value::Nil]), ErrorKind::Type);
}

#[test]
fn sqrt_and_pow() {
    assert!(is_nan(&ok("sqrt", &[i(-1)])));
    check("sqrt", &[i(16)], f(4.0));
    check("sqrt", &[i(25)], f(5.0));
    check("pow", &[i(3), i(2)], f(9.0));
    check("pow", &[i(2), i(10)], f(1024.0));
    check("pow", &[f(-INF), i(3)], f(-INF));
    check("pow", &[f(-INF), i(2)], f(INF));
    let z = ok("pow", &[f(-INF), i(-1)]);
    assert!(matches!(z, Value::Float(x) if x == 0.0 && x.is_sign_positive()));
    // Java's Math.pow, not C's: a NaN exponent is NaN even for a base of 1,
    // and ±1 to an infinite power is NaN; a zero exponent is still 1.0.
    assert!(is_nan(&ok("pow", &[i(1), f(NAN)])));
    assert!(is_nan(&ok("pow", &[f(2.5), f(NAN)])));
    assert!(is_nan(&ok("pow", &[i(1), f(INF)])));
    assert!(is_nan(&ok("pow", &[i(-1), f(-INF)])));
    assert!(is_nan(&ok("pow", &[f(NAN), i(2)])));
    check("pow", &[f(NAN), i(0)], f(1.0));
    check("pow", &[i(1), i(5)], f(1.0));
    check("pow", &[i(2), f(INF)], f(INF));
    check("pow", &[f(0.5), f(INF)], f(0.0));
    assert!(is_nan(&ok("pow", &[i(-8), f(1.0 / 3.0)])));
}

#[test]
fn equality() {
    check("=", &[i(1), i(1)], b(true));
    check("=", &[i(1), i(2)], b(false));
    check("=", &[i(1), f(1.0)], b(false));
    check("=", &[i(1)], b(true));
    check("=", &[s("a"), s("a")], b(true));
    check(
        "=",
        &[
            Value::map_from([(Value::keyword("a"), i(1)), (Value::keyword("b"), i(2))]),
            Value::map_from([(Value::keyword("b"), i(2)), (Value::keyword("a"), i(1))]),
        ],
        b(true),
    );
    check("=", &[Value::Nil, Value::Nil], b(true));
    check("=", &[i(5), Value::Nil], b(false));
    check("=", &[f(NAN), f(NAN)], b(false));
    check("=", &[f(INF), f(INF)], b(true));
    check("=", &[i(1), i(1), i(2)], b(false));
    check("not=", &[Value::keyword("a"), Value::keyword("b")], b(true));
    check("not=", &[i(1), i(1)], b(false));
    check("==", &[i(1), f(1.0)], b(true));
    check("==", &[i(1), f(1.0), i(2)], b(false));
    assert_eq!(err("==", &[s("a"), s("a")]), ErrorKind::Type);
    assert!(!BUILTINS
        .iter()
        .find(|b| b.name == "=")
        .is_some_and(|b| b.arity.accepts(0)));
}

#[test]
fn ordering_comparisons() {
    check("<", &[i(1), i(2), i(3)], b(true));
    check("<", &[i(1), i(3), i(2)], b(false));
    check("<=", &[i(1), i(1)], b(true));
    check(">", &[i(2), i(3)], b(false));
    check(">", &[i(5), i(3)], b(true));
    check("<", &[f(1.5), f(2.0)], b(true));
    check("<", &[i(1), f(2.5)], b(true));
    check("<", &[f(1.0), f(INF)], b(true));
    check(">", &[f(-1.0), f(-INF)], b(true));
    check(">=", &[f(NAN), f(0.0)], b(false));
    check("<", &[f(NAN), i(1)], b(false));
    check(">", &[i(1000), f(-INF)], b(true));
    check("<=", &[i(1000), f(INF)], b(true));
    check("<", &[i(7)], b(true));
    let e = call(">", &[s("bob"), s("alice")]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.hint().unwrap_or("").contains("compare"), "{e:?}");
    assert_eq!(err("<=", &[s("a"), s("b")]), ErrorKind::Type);
    assert_eq!(err("<", &[Value::Nil, i(10)]), ErrorKind::Type);
    let m = Value::map_from([(Value::keyword("a"), i(1))]);
    assert_eq!(err("<", &[m.clone(), m]), ErrorKind::Type);
}

#[test]
fn compare_like_clojure() {
    check("compare", &[i(2), i(2)], i(0));
    check("compare", &[i(3), i(1)], i(1));
    check("compare", &[f(1.5), i(1)], i(1));
    check("compare", &[i(1), f(1.0)], i(0));
    check("compare", &[f(NAN), i(1)], i(0));
    check("compare", &[s("a"), s("c")], i(-2));
    check("compare", &[s("abc"), s("ab")], i(1));
    check("compare", &[s("b"), s("b")], i(0));
    check(
        "compare",
        &[Value::keyword("a"), Value::keyword("b")],
        i(-1),
    );
    check("compare", &[Value::Nil, i(1)], i(-1));
    check("compare", &[b(true), b(false)], i(1));
    check(
        "compare",
        &[
            Value::vector_from([i(1), i(2)]),
            Value::vector_from([i(1), i(3)]),
        ],
        i(-1),
    );
    check(
        "compare",
        &[Value::vector_from([i(9)]), Value::vector_from([i(1), i(1)])],
        i(-1),
    );
    assert_eq!(err("compare", &[i(1), s("a")]), ErrorKind::Type);
    let m = Value::map_from([]);
    assert_eq!(err("compare", &[m.clone(), m]), ErrorKind::Type);
}

#[test]
fn numeric_predicates() {
    check("zero?", &[f(0.0)], b(true));
    check("zero?", &[i(5)], b(false));
    check("neg?", &[i(-1)], b(true));
    check("neg?", &[i(0)], b(false));
    check("even?", &[i(4)], b(true));
    check("even?", &[i(0)], b(true));
    check("odd?", &[i(-3)], b(true));
    check("odd?", &[i(3)], b(true));
    assert_eq!(err("odd?", &[f(3.0)]), ErrorKind::Type);
    check("pos?", &[f(INF)], b(true));
    check("pos?", &[f(-INF)], b(false));
    check("pos?", &[f(NAN)], b(false));
    check("neg?", &[f(-INF)], b(true));
    check("zero?", &[f(NAN)], b(false));
    check("neg?", &[f(NAN)], b(false));
    check("NaN?", &[f(NAN)], b(true));
    check("NaN?", &[i(1)], b(false));
    check("infinite?", &[f(-INF)], b(true));
    check("infinite?", &[i(1)], b(false));
    assert_eq!(err("zero?", &[Value::Nil]), ErrorKind::Type);
}

#[test]
fn bits() {
    check("bit-and", &[i(12), i(10)], i(8));
    check("bit-or", &[i(12), i(10)], i(14));
    check("bit-xor", &[i(12), i(10)], i(6));
    check("bit-and-not", &[i(12), i(10)], i(4));
    check("bit-not", &[i(0)], i(-1));
    check("bit-set", &[i(0), i(3)], i(8));
    check("bit-clear", &[i(15), i(0)], i(14));
    check("bit-flip", &[i(8), i(3)], i(0));
    check("bit-test", &[i(8), i(3)], b(true));
    check("bit-test", &[i(8), i(2)], b(false));
    check("bit-shift-left", &[i(1), i(4)], i(16));
    check("bit-shift-right", &[i(16), i(2)], i(4));
    check("bit-shift-right", &[i(-16), i(2)], i(-4));
    assert_eq!(err("bit-and", &[f(1.0), i(1)]), ErrorKind::Type);
}

#[test]
fn coercions() {
    check("double", &[i(5)], f(5.0));
    check("int", &[f(3.7)], i(3));
    check("int", &[f(-3.7)], i(-3));
    check("int", &[i(7)], i(7));
    check("long", &[f(9.99)], i(9));
    check("int", &[s("a")], i(97));
    assert_eq!(err("int", &[f(INF)]), ErrorKind::Arithmetic);
    assert_eq!(err("int", &[f(NAN)]), ErrorKind::Arithmetic);
    assert_eq!(err("int", &[f(1e300)]), ErrorKind::Arithmetic);
    assert_eq!(err("int", &[s("42")]), ErrorKind::Type);
    assert!(is_nan(&ok("float", &[f(NAN)])));
    check("float", &[f(INF)], f(INF));
    check("float", &[f(-INF)], f(-INF));
    check("float", &[i(2)], f(2.0));
    check("num", &[i(2)], i(2));
    assert_eq!(err("num", &[s("2")]), ErrorKind::Type);
    check("boolean", &[i(0)], b(true));
    check("boolean", &[Value::Nil], b(false));
    check("boolean", &[b(false)], b(false));
}

#[test]
fn parsing() {
    check("parse-long", &[s("42")], i(42));
    check("parse-long", &[s("-17")], i(-17));
    check("parse-long", &[s("+5")], i(5));
    check("parse-long", &[s("0")], i(0));
    for bad in [
        "abc",
        "3.14",
        " 42",
        "42abc",
        "",
        "3.5",
        "-",
        "99999999999999999999",
    ] {
        check("parse-long", &[s(bad)], Value::Nil);
    }
    check("parse-long", &[i(42)], Value::Nil);
    check("parse-long", &[Value::Nil], Value::Nil);
    // PTC-Lisp's parse-int is parse-long (issue 58).
    check("parse-int", &[s("42")], i(42));
    check("parse-int", &[s("-7")], i(-7));
    check("parse-int", &[s("4.2")], Value::Nil);
    check("parse-int", &[Value::Nil], Value::Nil);
    check("parse-double", &[s("2.71")], f(2.71));
    check("parse-double", &[s("-0.5")], f(-0.5));
    check("parse-double", &[s("42")], f(42.0));
    check("parse-double", &[s("1e10")], f(1e10));
    check("parse-double", &[s("1.23e-4")], f(1.23e-4));
    check("parse-double", &[s(".5")], f(0.5));
    check("parse-double", &[s("5.")], f(5.0));
    check("parse-double", &[s("Infinity")], f(INF));
    check("parse-double", &[s("+Infinity")], f(INF));
    check("parse-double", &[s("-Infinity")], f(-INF));
    assert!(is_nan(&ok("parse-double", &[s("NaN")])));
    for bad in [
        "abc", " 3.14", "3.14abc", "invalid", "", ".", "1e", "inf", "nan", "1.5d",
    ] {
        check("parse-double", &[s(bad)], Value::Nil);
    }
    check("parse-double", &[Value::Nil], Value::Nil);
    check("parse-double", &[f(2.71)], Value::Nil);
    check("parse-boolean", &[s("true")], b(true));
    check("parse-boolean", &[s("false")], b(false));
    check("parse-boolean", &[s("yes")], Value::Nil);
    check("parse-boolean", &[i(1)], Value::Nil);
}

#[test]
fn every_builtin_is_documented() {
    for b in BUILTINS {
        assert!(!b.doc.is_empty(), "{} has no doc", b.name);
    }
}
