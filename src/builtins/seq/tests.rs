//! Unit tests of the seq builtins (values built by hand; function
//! arguments are native closures).

#![allow(clippy::cloned_ref_to_slice_refs)] // `&[v.clone()]` reads better in tests

use crate::builtins::{lookup_in, Ns};
use crate::error::{ErrorKind, Result};
use crate::eval::Interp;
use crate::value::order::compare_values;
use crate::value::{Func, Value};

/// A small printer for assertions (independent of `format`).
fn show(v: &Value) -> String {
    let join = |items: Vec<String>| items.join(" ");
    match v {
        Value::Nil => "nil".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Str(s) => format!("{s:?}"),
        Value::Keyword(k) => format!(":{k}"),
        Value::Symbol(s) => s.to_string(),
        Value::Vector(x) => format!("[{}]", join(x.iter().map(show).collect())),
        Value::Map(m) => format!(
            "{{{}}}",
            join(
                m.iter()
                    .map(|(k, v)| format!("{} {}", show(k), show(v)))
                    .collect()
            )
        ),
        Value::Set(s) => format!("#{{{}}}", join(s.iter().map(show).collect())),
        Value::Reduced(x) => format!("#reduced[{}]", show(x)),
        Value::Lazy(_) => "<lazy>".into(),
        Value::Fn(_) => "<fn>".into(),
        Value::Regex(_) => "<regex>".into(),
        Value::Var(n) => format!("#'{n}"),
    }
}

fn call(interp: &mut Interp, name: &str, args: &[Value]) -> Result<Value> {
    let b = lookup_in(Ns::Core, name).unwrap_or_else(|| panic!("no builtin {name}"));
    interp.call_builtin(b, args)
}

/// Runs a builtin and shows its result (or `ERR kind: message`).
fn run(name: &str, args: &[Value]) -> String {
    let mut interp = Interp::standalone();
    match call(&mut interp, name, args) {
        Ok(v) => show(&v),
        Err(e) => format!("ERR {}: {}", e.kind().name(), e.message()),
    }
}

fn err(name: &str, args: &[Value]) -> ErrorKind {
    let mut interp = Interp::standalone();
    match call(&mut interp, name, args) {
        Ok(v) => panic!("{name} returned {} instead of failing", show(&v)),
        Err(e) => e.kind(),
    }
}

fn i(n: i64) -> Value {
    Value::Int(n)
}
fn fl(x: f64) -> Value {
    Value::Float(x)
}
fn s(x: &str) -> Value {
    Value::string(x)
}
fn kw(x: &str) -> Value {
    Value::keyword(x)
}
fn vecv(items: Vec<Value>) -> Value {
    Value::vector_from(items)
}
fn ints(xs: &[i64]) -> Value {
    Value::vector_from(xs.iter().map(|x| Value::Int(*x)))
}
fn map(entries: Vec<(Value, Value)>) -> Value {
    Value::map_from(entries)
}
fn set(items: Vec<Value>) -> Value {
    Value::set_from(items)
}

fn num(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        other => panic!("not an int: {}", show(other)),
    }
}
fn native(name: &'static str, f: fn(&[Value]) -> Value) -> Value {
    Func::native(name, move |_, a| Ok(f(a)))
}
fn inc() -> Value {
    native("inc", |a| i(num(&a[0]) + 1))
}
fn plus() -> Value {
    native("+", |a| i(a.iter().map(num).sum()))
}
fn even() -> Value {
    native("even?", |a| Value::Bool(num(&a[0]) % 2 == 0))
}
fn odd() -> Value {
    native("odd?", |a| Value::Bool(num(&a[0]) % 2 != 0))
}
fn pos() -> Value {
    native("pos?", |a| Value::Bool(num(&a[0]) > 0))
}
fn gt() -> Value {
    native(">", |a| Value::Bool(num(&a[0]) > num(&a[1])))
}
fn ge() -> Value {
    native(">=", |a| Value::Bool(num(&a[0]) >= num(&a[1])))
}
fn lt(limit: i64) -> Value {
    Func::native("lt", move |_, a| Ok(Value::Bool(num(&a[0]) < limit)))
}
fn compare() -> Value {
    native("compare", |a| match compare_values(&a[0], &a[1]) {
        Some(o) => i(o as i64),
        None => Value::Nil,
    })
}
fn vector_fn() -> Value {
    native("vector", |a| Value::vector_from(a.iter().cloned()))
}
fn identity() -> Value {
    native("identity", |a| a[0].clone())
}
/// `(fn [a b] :nope)`-like two-argument closure, arity-checked.
fn two_args() -> Value {
    Func::native("f", |_, a| {
        if a.len() != 2 {
            return Err(crate::error::Error::arity(format!(
                "f expects 2 arguments, got {}",
                a.len()
            )));
        }
        Ok(kw("nope"))
    })
}
fn builtin(name: &str) -> Value {
    Value::Fn(Func::builtin(lookup_in(Ns::Core, name).expect("builtin")))
}

#[test]
fn first_second_last_on_every_seqable() {
    assert_eq!(run("first", &[ints(&[1, 2, 3])]), "1");
    assert_eq!(run("first", &[ints(&[])]), "nil");
    assert_eq!(run("first", &[Value::Nil]), "nil");
    assert_eq!(run("first", &[s("hello")]), "\"h\"");
    assert_eq!(run("first", &[s("")]), "nil");
    assert_eq!(run("first", &[map(vec![(kw("a"), i(1))])]), "[:a 1]");
    assert_eq!(run("first", &[set(vec![i(2), i(1)])]), "1");
    assert_eq!(run("second", &[ints(&[1])]), "nil");
    assert_eq!(run("second", &[ints(&[1, 2])]), "2");
    assert_eq!(run("fnext", &[ints(&[1, 2, 3])]), "2");
    assert_eq!(run("last", &[ints(&[1, 2, 3])]), "3");
    assert_eq!(run("last", &[s("hello")]), "\"o\"");
    assert_eq!(run("last", &[ints(&[])]), "nil");
    assert_eq!(err("first", &[i(5)]), ErrorKind::Type);
    assert!(run("first", &[i(5)]).contains("first expects a collection"));
}

#[test]
fn rest_next_and_friends() {
    assert_eq!(run("rest", &[ints(&[1, 2, 3])]), "[2 3]");
    assert_eq!(run("rest", &[ints(&[])]), "[]");
    assert_eq!(run("rest", &[Value::Nil]), "[]");
    assert_eq!(run("rest", &[s("abc")]), "[\"b\" \"c\"]");
    assert_eq!(run("next", &[ints(&[])]), "nil");
    assert_eq!(run("next", &[ints(&[1])]), "nil");
    assert_eq!(run("next", &[s("a")]), "nil");
    assert_eq!(run("next", &[ints(&[1, 2])]), "[2]");
    assert_eq!(run("nnext", &[ints(&[1, 2, 3])]), "[3]");
    assert_eq!(run("nnext", &[ints(&[1, 2])]), "nil");
    let nested = vecv(vec![ints(&[1, 2]), ints(&[3])]);
    assert_eq!(run("ffirst", &[nested.clone()]), "1");
    assert_eq!(run("nfirst", &[nested]), "[2]");
    assert_eq!(run("butlast", &[ints(&[1, 2, 3])]), "[1 2]");
    assert_eq!(run("butlast", &[ints(&[1])]), "nil");
    assert_eq!(run("butlast", &[ints(&[])]), "nil");
}

#[test]
fn nth_is_lenient() {
    assert_eq!(run("nth", &[ints(&[1, 2, 3]), i(1)]), "2");
    assert_eq!(run("nth", &[ints(&[1, 2, 3]), i(5)]), "nil");
    assert_eq!(run("nth", &[ints(&[1, 2, 3]), i(-1)]), "nil");
    assert_eq!(run("nth", &[ints(&[1, 2, 3]), i(5), kw("d")]), ":d");
    assert_eq!(run("nth", &[s("abc"), i(1)]), "\"b\"");
    assert_eq!(run("nth", &[Value::Nil, i(0)]), "nil");
    assert_eq!(run("nth", &[ints(&[1, 2]), fl(1.0)]), "2");
    assert_eq!(err("nth", &[ints(&[1]), s("0")]), ErrorKind::Type);
    assert_eq!(err("nth", &[i(3), i(0)]), ErrorKind::Type);
    assert_eq!(err("nth", &[i(3), i(-1)]), ErrorKind::Type);
    let mut interp = Interp::standalone();
    let r = call(&mut interp, "range", &[]).unwrap();
    assert_eq!(
        show(&call(&mut interp, "nth", &[r, i(1000)]).unwrap()),
        "1000"
    );
}

#[test]
fn nthnext_nthrest() {
    assert_eq!(run("nthnext", &[ints(&[1, 2, 3]), i(2)]), "[3]");
    assert_eq!(run("nthnext", &[ints(&[1, 2, 3]), i(3)]), "nil");
    assert_eq!(run("nthnext", &[ints(&[]), i(0)]), "nil");
    assert_eq!(run("nthrest", &[ints(&[1, 2, 3]), i(2)]), "[3]");
    assert_eq!(run("nthrest", &[ints(&[1, 2, 3]), i(5)]), "[]");
    assert_eq!(run("nthrest", &[ints(&[1, 2]), i(0)]), "[1 2]");
}

#[test]
fn take_and_drop() {
    assert_eq!(run("take", &[i(2), ints(&[1, 2, 3, 4])]), "[1 2]");
    assert_eq!(run("take", &[i(10), ints(&[1, 2])]), "[1 2]");
    assert_eq!(run("take", &[i(-1), ints(&[1, 2])]), "[]");
    assert_eq!(run("take", &[i(2), s("hello")]), "[\"h\" \"e\"]");
    assert_eq!(run("take", &[i(2), Value::Nil]), "[]");
    assert_eq!(run("drop", &[i(2), ints(&[1, 2, 3, 4])]), "[3 4]");
    assert_eq!(run("drop", &[i(10), ints(&[1, 2])]), "[]");
    assert_eq!(run("drop", &[i(0), ints(&[1, 2])]), "[1 2]");
    assert_eq!(run("drop", &[i(3), s("hello")]), "[\"l\" \"o\"]");
    assert_eq!(run("take-last", &[i(2), ints(&[1, 2, 3])]), "[2 3]");
    assert_eq!(run("take-last", &[i(5), ints(&[1, 2, 3])]), "[1 2 3]");
    assert_eq!(run("take-last", &[i(2), ints(&[])]), "nil");
    assert_eq!(run("drop-last", &[ints(&[1, 2, 3])]), "[1 2]");
    assert_eq!(run("drop-last", &[i(2), ints(&[1, 2, 3])]), "[1]");
    assert_eq!(run("drop-last", &[i(5), ints(&[1, 2, 3])]), "[]");
    assert_eq!(run("take-while", &[pos(), ints(&[2, 1, 0, 3])]), "[2 1]");
    assert_eq!(run("drop-while", &[pos(), ints(&[1, 2, -1, 3])]), "[-1 3]");
    assert_eq!(run("drop-while", &[pos(), ints(&[1, 2])]), "[]");
    let items = vecv(vec![
        map(vec![(kw("pending"), Value::Bool(true))]),
        map(vec![(kw("pending"), Value::Bool(false))]),
    ]);
    assert_eq!(
        run("drop-while", &[kw("pending"), items]),
        "[{:pending false}]"
    );
    assert_eq!(err("take", &[s("2"), ints(&[1])]), ErrorKind::Type);
    assert_eq!(err("take", &[i(2), i(5)]), ErrorKind::Type);
    assert_eq!(
        err("take-while", &[ints(&[1]), ints(&[1])]),
        ErrorKind::Type
    );
}

#[test]
fn infinite_sequences_feed_bounded_consumers() {
    let mut interp = Interp::standalone();
    let mut c = |name: &str, args: &[Value]| call(&mut interp, name, args);
    let nat = c("range", &[]).unwrap();
    assert_eq!(show(&c("take", &[i(3), nat.clone()]).unwrap()), "[0 1 2]");
    let dropped = c("drop", &[i(2), nat.clone()]).unwrap();
    assert_eq!(show(&c("take", &[i(5), dropped]).unwrap()), "[2 3 4 5 6]");
    let r = c("rest", &[nat.clone()]).unwrap();
    assert_eq!(show(&c("first", &[r]).unwrap()), "1");
    assert_eq!(show(&c("second", &[nat.clone()]).unwrap()), "1");
    let it = c("iterate", &[inc(), i(10)]).unwrap();
    assert_eq!(show(&c("take", &[i(3), it.clone()]).unwrap()), "[10 11 12]");
    let it3 = c("drop", &[i(3), it.clone()]).unwrap();
    assert_eq!(show(&c("first", &[it3]).unwrap()), "13");
    assert_eq!(
        show(&c("take-while", &[lt(13), it.clone()]).unwrap()),
        "[10 11 12]"
    );
    let dw = c("drop-while", &[lt(13), it.clone()]).unwrap();
    assert_eq!(show(&c("take", &[i(2), dw]).unwrap()), "[13 14]");
    let cyc = c("cycle", &[ints(&[1, 2, 3])]).unwrap();
    assert_eq!(
        show(&c("take", &[i(5), cyc.clone()]).unwrap()),
        "[1 2 3 1 2]"
    );
    let cyc2 = c("drop", &[i(4), cyc.clone()]).unwrap();
    assert_eq!(show(&c("take", &[i(4), cyc2]).unwrap()), "[2 3 1 2]");
    let dw = c("drop-while", &[lt(3), cyc.clone()]).unwrap();
    assert_eq!(show(&c("take", &[i(4), dw]).unwrap()), "[3 1 2 3]");
    let rep = c("repeat", &[kw("x")]).unwrap();
    assert_eq!(show(&c("take", &[i(2), rep.clone()]).unwrap()), "[:x :x]");
    // several collections: the finite one bounds the result
    assert_eq!(
        show(&c("map", &[vector_fn(), ints(&[7, 8]), nat.clone()]).unwrap()),
        "[[7 0] [8 1]]"
    );
    assert_eq!(
        show(&c("interleave", &[ints(&[7, 8]), rep.clone()]).unwrap()),
        "[7 :x 8 :x]"
    );
    assert_eq!(
        show(&c("some", &[lt(-1).clone(), ints(&[])]).unwrap()),
        "nil"
    );
    let gt5 = native("gt5", |a| Value::Bool(num(&a[0]) > 5));
    assert_eq!(show(&c("some", &[gt5, nat.clone()]).unwrap()), "true");
    assert_eq!(show(&c("every?", &[lt(5), nat.clone()]).unwrap()), "false");
    let split = c("split-at", &[i(2), nat.clone()]).unwrap();
    let tail = c("second", &[split.clone()]).unwrap();
    assert_eq!(show(&c("first", &[split]).unwrap()), "[0 1]");
    assert_eq!(show(&c("first", &[tail]).unwrap()), "2");
    // reduce stops at reduced
    let stop = Func::native("stop", |_, a| {
        let acc = num(&a[0]) + num(&a[1]);
        Ok(if acc > 10 {
            Value::Reduced(std::sync::Arc::new(i(acc)))
        } else {
            i(acc)
        })
    });
    assert_eq!(
        show(&c("reduce", &[stop, i(0), nat.clone()]).unwrap()),
        "15"
    );
    // nthnext of an infinite sequence is never nil
    assert!(matches!(
        c("nthnext", &[nat.clone(), i(5)]).unwrap(),
        Value::Lazy(_)
    ));
    assert_eq!(show(&c("cycle", &[ints(&[])]).unwrap()), "[]");
}

#[test]
fn realizing_an_infinite_sequence_is_a_limit_error() {
    let mut interp = Interp::standalone();
    let nat = call(&mut interp, "range", &[]).unwrap();
    let rep = call(&mut interp, "repeat", &[i(1)]).unwrap();
    for name in [
        "last",
        "reverse",
        "sort",
        "distinct",
        "frequencies",
        "flatten",
        "butlast",
    ] {
        let e = call(&mut interp, name, &[nat.clone()]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{name}");
        assert!(e.message().contains(name), "{name}: {}", e.message());
    }
    // map, filter, remove, keep and map-indexed of an infinite sequence are
    // infinite sequences (consumed lazily, issue 18.4); the rest must
    // realize it.
    for name in ["map", "filter", "remove", "keep", "map-indexed"] {
        let v = call(&mut interp, name, &[inc(), nat.clone()]).unwrap();
        assert!(matches!(v, Value::Lazy(_)), "{name}");
    }
    for name in ["mapv", "group-by", "sort-by"] {
        let e = call(&mut interp, name, &[inc(), nat.clone()]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{name}");
    }
    // So are concat with an infinite part and map over only infinite ones.
    let v = call(&mut interp, "concat", &[ints(&[1]), nat.clone()]).unwrap();
    assert!(matches!(v, Value::Lazy(_)));
    let v = call(&mut interp, "map", &[plus(), nat.clone(), rep.clone()]).unwrap();
    assert!(matches!(v, Value::Lazy(_)));
    let e = call(&mut interp, "mapv", &[plus(), nat.clone(), rep.clone()]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    let e = call(&mut interp, "take-while", &[pos(), rep.clone()]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    let e = call(&mut interp, "drop-while", &[pos(), rep]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    // take-while that never stops on a range runs into a limit, not forever
    let up = call(&mut interp, "range", &[i(1), fl(f64::INFINITY)]).unwrap();
    let e = call(&mut interp, "take-while", &[pos(), up]).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::LimitExceeded | ErrorKind::MemoryExceeded | ErrorKind::Timeout
    ));
}

#[test]
fn seq_cons_concat_reverse() {
    assert_eq!(run("seq", &[ints(&[])]), "nil");
    assert_eq!(run("seq", &[s("")]), "nil");
    assert_eq!(run("seq", &[map(vec![])]), "nil");
    assert_eq!(run("seq", &[Value::Nil]), "nil");
    assert_eq!(run("seq", &[s("ab")]), "[\"a\" \"b\"]");
    assert_eq!(run("seq", &[set(vec![i(3), i(1), i(2)])]), "[1 2 3]");
    assert_eq!(run("seq", &[map(vec![(kw("a"), i(1))])]), "[[:a 1]]");
    assert_eq!(err("seq", &[i(1)]), ErrorKind::Type);
    assert_eq!(run("cons", &[i(0), ints(&[1, 2])]), "[0 1 2]");
    assert_eq!(run("cons", &[i(0), Value::Nil]), "[0]");
    assert_eq!(run("concat", &[ints(&[1, 2]), ints(&[3, 4])]), "[1 2 3 4]");
    assert_eq!(
        run("concat", &[ints(&[1]), ints(&[]), ints(&[2, 3])]),
        "[1 2 3]"
    );
    assert_eq!(run("concat", &[]), "[]");
    assert_eq!(
        run("concat", &[s("ab"), Value::Nil, ints(&[1])]),
        "[\"a\" \"b\" 1]"
    );
    assert_eq!(run("reverse", &[ints(&[1, 2, 3])]), "[3 2 1]");
    assert_eq!(run("reverse", &[ints(&[])]), "[]");
    assert_eq!(run("reverse", &[s("abc")]), "[\"c\" \"b\" \"a\"]");
    assert_eq!(run("reverse", &[Value::Nil]), "[]");
}

#[test]
fn split_interleave_interpose() {
    assert_eq!(run("split-at", &[i(2), ints(&[1, 2, 3])]), "[[1 2] [3]]");
    assert_eq!(
        run("split-with", &[odd(), ints(&[1, 3, 4, 5])]),
        "[[1 3] [4 5]]"
    );
    assert_eq!(
        run(
            "interleave",
            &[ints(&[1, 2, 3]), vecv(vec![kw("a"), kw("b")])]
        ),
        "[1 :a 2 :b]"
    );
    assert_eq!(run("interleave", &[]), "[]");
    assert_eq!(run("interleave", &[run_value("range", &[])]), "<lazy>");
    assert!(run("fnext", &[i(1)]).contains("fnext expects a collection"));
    assert_eq!(run("interpose", &[s(","), s("ab")]), "[\"a\" \",\" \"b\"]");
    assert_eq!(run("interpose", &[i(0), ints(&[])]), "[]");
}

#[test]
fn map_family() {
    assert_eq!(run("map", &[inc(), ints(&[1, 2, 3])]), "[2 3 4]");
    assert_eq!(
        run("map", &[plus(), ints(&[1, 2, 3, 4]), ints(&[10, 20])]),
        "[11 22]"
    );
    assert_eq!(run("map", &[plus(), Value::Nil, ints(&[1, 2, 3])]), "[]");
    assert_eq!(
        run(
            "map",
            &[plus(), ints(&[1, 2]), ints(&[10, 20]), ints(&[100, 200])]
        ),
        "[111 222]"
    );
    assert_eq!(
        run("map", &[kw("key"), map(vec![(kw("key"), i(1))])]),
        "[nil]"
    );
    let users = vecv(vec![
        map(vec![(kw("name"), s("Alice"))]),
        map(vec![(kw("name"), s("Bob"))]),
    ]);
    assert_eq!(
        run("map", &[kw("name"), users.clone()]),
        "[\"Alice\" \"Bob\"]"
    );
    assert_eq!(run("mapv", &[kw("name"), users]), "[\"Alice\" \"Bob\"]");
    assert_eq!(run("map", &[identity(), s("ab")]), "[\"a\" \"b\"]");
    assert_eq!(
        run("map-indexed", &[vector_fn(), s("ab")]),
        "[[0 \"a\"] [1 \"b\"]]"
    );
    assert_eq!(run("map-indexed", &[vector_fn(), ints(&[])]), "[]");
    let twice = native("twice", |a| {
        Value::vector_from([a[0].clone(), a[0].clone()])
    });
    assert_eq!(run("mapcat", &[twice, ints(&[1, 2])]), "[1 1 2 2]");
    assert_eq!(
        run(
            "mapcat",
            &[identity(), vecv(vec![ints(&[1]), s("ab"), Value::Nil])]
        ),
        "[1 \"a\" \"b\"]"
    );
    assert_eq!(err("mapcat", &[inc(), ints(&[1])]), ErrorKind::Type);
    assert_eq!(run("pmap", &[inc(), ints(&[1, 2])]), "[2 3]");
    // a vector is not a function
    for name in [
        "map", "mapv", "filter", "remove", "every?", "not-any?", "some",
    ] {
        let e = {
            let mut interp = Interp::standalone();
            call(&mut interp, name, &[vecv(vec![kw("status")]), ints(&[1])]).unwrap_err()
        };
        assert_eq!(e.kind(), ErrorKind::Type, "{name}");
        assert!(e.hint().is_some_and(|h| h.contains("get-in")), "{name}");
    }
}

#[test]
fn filter_family() {
    assert_eq!(run("filter", &[even(), ints(&[1, 2, 3, 4])]), "[2 4]");
    assert_eq!(run("filterv", &[even(), ints(&[1, 2, 3, 4])]), "[2 4]");
    assert_eq!(run("remove", &[even(), ints(&[1, 2, 3, 4])]), "[1 3]");
    let abset = set(vec![kw("a"), kw("b")]);
    assert_eq!(
        run("filter", &[abset, vecv(vec![kw("a"), kw("c"), kw("b")])]),
        "[:a :b]"
    );
    assert_eq!(run("remove", &[set(vec![s("r")]), s("rar")]), "[\"a\"]");
    let big = native("big", |a| {
        let Value::Vector(e) = &a[0] else {
            return Value::Bool(false);
        };
        Value::Bool(num(&e[1]) > 100)
    });
    let m = map(vec![
        (kw("food"), i(50)),
        (kw("office"), i(150)),
        (kw("travel"), i(200)),
    ]);
    assert_eq!(run("filter", &[big, m]), "[[:office 150] [:travel 200]]");
    let e = {
        let mut interp = Interp::standalone();
        call(&mut interp, "filter", &[even(), i(42)]).unwrap_err()
    };
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("filter"));
    let maybe = native("maybe", |a| {
        if num(&a[0]) > 1 {
            i(num(&a[0]) * 10)
        } else {
            Value::Nil
        }
    });
    assert_eq!(run("keep", &[maybe, ints(&[1, 2, 3])]), "[20 30]");
    let f = native("f", |a| {
        if num(&a[0]) % 2 == 0 {
            a[1].clone()
        } else {
            Value::Nil
        }
    });
    assert_eq!(
        run("keep-indexed", &[f, vecv(vec![kw("a"), kw("b"), kw("c")])]),
        "[:a :c]"
    );
}

#[test]
fn reduce_family() {
    assert_eq!(run("reduce", &[plus(), ints(&[1, 2, 3])]), "6");
    assert_eq!(run("reduce", &[plus(), i(10), ints(&[1, 2, 3])]), "16");
    assert_eq!(run("reduce", &[plus(), ints(&[])]), "0");
    assert_eq!(err("reduce", &[two_args(), map(vec![])]), ErrorKind::Arity);
    assert_eq!(err("reduce", &[two_args(), s("")]), ErrorKind::Arity);
    assert_eq!(run("reduce", &[two_args(), i(99), s("")]), "99");
    assert_eq!(run("reduce", &[two_args(), ints(&[42])]), "42");
    assert_eq!(
        run("reduce", &[two_args(), map(vec![(kw("a"), i(1))])]),
        "[:a 1]"
    );
    assert_eq!(run("reduce", &[two_args(), s("x")]), "\"x\"");
    let count = native("count", |a| i(num(&a[0]) + 1));
    assert_eq!(run("reduce", &[count, i(0), s("café")]), "4");
    let kv = native("kv", |a| i(num(&a[0]) + num(&a[2])));
    assert_eq!(
        run(
            "reduce-kv",
            &[
                kv.clone(),
                i(0),
                map(vec![(kw("a"), i(1)), (kw("b"), i(2))])
            ]
        ),
        "3"
    );
    let idx = native("idx", |a| i(num(&a[0]) + num(&a[1])));
    assert_eq!(run("reduce-kv", &[idx, i(0), ints(&[5, 5, 5])]), "3");
    assert_eq!(run("reduce-kv", &[kv.clone(), i(7), Value::Nil]), "7");
    assert_eq!(err("reduce-kv", &[kv, i(0), i(1)]), ErrorKind::Type);
    assert_eq!(run("reduced?", &[i(1)]), "false");
    let mut interp = Interp::standalone();
    let r = call(&mut interp, "reduced", &[i(1)]).unwrap();
    assert_eq!(
        show(&call(&mut interp, "reduced?", &[r.clone()]).unwrap()),
        "true"
    );
    assert_eq!(
        show(&call(&mut interp, "unreduced", &[r.clone()]).unwrap()),
        "1"
    );
    assert_eq!(show(&call(&mut interp, "unreduced", &[i(2)]).unwrap()), "2");
    assert_eq!(
        show(&call(&mut interp, "ensure-reduced", &[r]).unwrap()),
        "#reduced[1]"
    );
    assert_eq!(
        show(&call(&mut interp, "ensure-reduced", &[i(3)]).unwrap()),
        "#reduced[3]"
    );
    let early = Func::native("early", |_, a| {
        Ok(Value::Reduced(std::sync::Arc::new(a[1].clone())))
    });
    assert_eq!(
        show(&call(&mut interp, "reduce", &[early, i(0), ints(&[5, 6])]).unwrap()),
        "5"
    );
}

/// A transducer's reducing function hands its accumulator on, so `into`,
/// `transduce` and `sequence` with a transducer add to one collection in
/// place: charged what it grows by, not a copy of the vector's last chunk
/// at every step (which passed the default 10 MB heap limit at ~9,000
/// items).
#[test]
fn a_transducer_adds_to_its_accumulator_in_place() {
    use crate::value::cost;
    let n = 100_000;
    let items = cost::vector_bytes(n);
    for (src, count) in [
        ("(count (into [] (map inc) (range 100000)))", n),
        (
            "(count (into [] (comp (filter even?) (map inc)) (range 100000)))",
            n / 2,
        ),
        ("(count (transduce (map inc) conj [] (range 100000)))", n),
        (
            "(count (transduce (map inc) (completing conj) [] (range 100000)))",
            n,
        ),
        ("(count (reduce ((map inc) conj) [] (range 100000)))", n),
        ("(count (sequence (map inc) (range 100000)))", n),
        (
            "(count (into #{} (map (fn [x] (mod x 1000))) (range 100000)))",
            1000,
        ),
        (
            "(count (into [] (partition-all 10) (range 100000)))",
            n / 10,
        ),
    ] {
        let (shown, heap) = Interp::standalone().run_for_heap(src);
        assert_eq!(shown, count.to_string(), "{src}");
        // The range, the result, and the result's growth.
        assert!(
            heap < 4 * items,
            "{src}: charged {heap} bytes, the range is {items}"
        );
    }
    // What the caller still holds is never written.
    let src = "(let [rf ((map inc) conj) v [1 2] w (rf v 5)] [v w (rf (rf w 0)) (rf)])";
    let (shown, _) = Interp::standalone().run_for_heap(src);
    assert_eq!(shown, "[[1 2] [1 2 6] [1 2 6 1] []]");
}

#[test]
fn transducers() {
    let mut interp = Interp::standalone();
    let mut c = |name: &str, args: &[Value]| call(&mut interp, name, args);
    let conj = native("conj", |a| match a {
        [] => Value::empty_vector(),
        [acc] => acc.clone(),
        [Value::Vector(v), x] => {
            let mut v = v.clone();
            v.push_back(x.clone());
            Value::vector(v)
        }
        _ => Value::Nil,
    });
    let xmap = c("map", &[inc()]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xmap.clone(), plus(), ints(&[1, 2, 3])]).unwrap()),
        "9"
    );
    assert_eq!(
        show(
            &c(
                "transduce",
                &[xmap.clone(), plus(), i(100), ints(&[1, 2, 3])]
            )
            .unwrap()
        ),
        "109"
    );
    let xfilter = c("filter", &[odd()]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xfilter, conj.clone(), ints(&[1, 2, 3])]).unwrap()),
        "[1 3]"
    );
    let xtake = c("take", &[i(3)]).unwrap();
    let nat = c("range", &[]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xtake, conj.clone(), nat]).unwrap()),
        "[0 1 2]"
    );
    let xpart = c("partition-all", &[i(2)]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xpart, conj.clone(), ints(&[1, 2, 3])]).unwrap()),
        "[[1 2] [3]]"
    );
    let xpb = c("partition-by", &[odd()]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xpb, conj.clone(), ints(&[1, 3, 2, 4, 5])]).unwrap()),
        "[[1 3] [2 4] [5]]"
    );
    let xd = c("distinct", &[]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xd, conj.clone(), ints(&[1, 2, 1, 3, 2])]).unwrap()),
        "[1 2 3]"
    );
    let xdd = c("dedupe", &[]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xdd, conj.clone(), ints(&[1, 1, 2, 1])]).unwrap()),
        "[1 2 1]"
    );
    let xdrop = c("drop", &[i(2)]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xdrop, conj.clone(), ints(&[1, 2, 3, 4])]).unwrap()),
        "[3 4]"
    );
    let xtw = c("take-while", &[lt(3)]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xtw, conj.clone(), ints(&[1, 2, 3, 1])]).unwrap()),
        "[1 2]"
    );
    let xdw = c("drop-while", &[lt(3)]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xdw, conj.clone(), ints(&[1, 2, 3, 1])]).unwrap()),
        "[3 1]"
    );
    let xi = c("interpose", &[i(0)]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xi, conj.clone(), ints(&[1, 2, 3])]).unwrap()),
        "[1 0 2 0 3]"
    );
    let xmi = c("map-indexed", &[vector_fn()]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xmi, conj.clone(), s("ab")]).unwrap()),
        "[[0 \"a\"] [1 \"b\"]]"
    );
    let twice = native("twice", |a| {
        Value::vector_from([a[0].clone(), a[0].clone()])
    });
    let xmc = c("mapcat", &[twice]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xmc, conj.clone(), ints(&[1, 2])]).unwrap()),
        "[1 1 2 2]"
    );
    let xr = c("replace", &[map(vec![(i(1), kw("one"))])]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xr, conj.clone(), ints(&[1, 2])]).unwrap()),
        "[:one 2]"
    );
    // completing adds the one-argument arity
    let two = two_args();
    let done = c("completing", &[two.clone()]).unwrap();
    let xm = c("map", &[inc()]).unwrap();
    assert_eq!(
        show(&c("transduce", &[xm.clone(), done, i(0), ints(&[1])]).unwrap()),
        ":nope"
    );
    assert_eq!(
        c("transduce", &[xm, two, i(0), ints(&[1])])
            .unwrap_err()
            .kind(),
        ErrorKind::Arity
    );
    // a transducer called with the wrong number of arguments
    let xm = c("map", &[inc()]).unwrap();
    assert_eq!(
        c("reduce", &[xm, i(0), ints(&[1])]).unwrap_err().kind(),
        ErrorKind::Arity
    );
}

#[test]
fn quantifiers() {
    assert_eq!(run("some", &[even(), ints(&[1, 3, 4])]), "true");
    assert_eq!(run("some", &[even(), ints(&[1, 3])]), "nil");
    assert_eq!(
        run("some", &[set(vec![s("x")]), vecv(vec![s("a"), s("x")])]),
        "\"x\""
    );
    assert_eq!(run("every?", &[even(), ints(&[])]), "true");
    assert_eq!(run("every?", &[even(), ints(&[2, 4])]), "true");
    assert_eq!(run("every?", &[even(), ints(&[2, 3])]), "false");
    assert_eq!(run("not-any?", &[even(), ints(&[1, 3])]), "true");
    assert_eq!(run("not-any?", &[kw("error"), ints(&[])]), "true");
    assert_eq!(run("not-every?", &[even(), ints(&[2, 3])]), "true");
    assert_eq!(run("not-every?", &[even(), ints(&[2])]), "false");
}

#[test]
fn partitions() {
    assert_eq!(
        run("partition", &[i(2), ints(&[1, 2, 3, 4, 5, 6])]),
        "[[1 2] [3 4] [5 6]]"
    );
    assert_eq!(
        run("partition", &[i(3), ints(&[1, 2, 3, 4, 5])]),
        "[[1 2 3]]"
    );
    assert_eq!(
        run("partition", &[i(2), i(1), ints(&[1, 2, 3, 4])]),
        "[[1 2] [2 3] [3 4]]"
    );
    assert_eq!(
        run("partition", &[i(2), i(3), ints(&[1, 2, 3, 4, 5, 6, 7])]),
        "[[1 2] [4 5]]"
    );
    assert_eq!(run("partition", &[i(2), Value::Nil]), "[]");
    assert_eq!(run("partition", &[i(10), ints(&[1, 2, 3])]), "[]");
    assert_eq!(
        run(
            "partition",
            &[i(3), i(3), vecv(vec![kw("a")]), ints(&[1, 2, 3, 4])]
        ),
        "[[1 2 3] [4 :a]]"
    );
    assert_eq!(
        run("partition", &[i(3), i(3), ints(&[]), ints(&[1, 2, 3, 4])]),
        "[[1 2 3] [4]]"
    );
    assert_eq!(
        err("partition", &[i(0), ints(&[1])]),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        err("partition", &[i(1), i(0), ints(&[1])]),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        run("partition-all", &[i(2), ints(&[1, 2, 3])]),
        "[[1 2] [3]]"
    );
    assert_eq!(
        run("partition-all", &[i(2), i(1), ints(&[1, 2, 3])]),
        "[[1 2] [2 3] [3]]"
    );
    assert_eq!(run("partition-all", &[i(2), ints(&[])]), "[]");
    assert_eq!(
        err("partition-all", &[i(0), ints(&[1])]),
        ErrorKind::LimitExceeded
    );
    assert_eq!(
        run("partition-by", &[odd(), ints(&[1, 3, 2, 4, 5])]),
        "[[1 3] [2 4] [5]]"
    );
    assert_eq!(run("partition-by", &[odd(), ints(&[])]), "[]");
}

fn product(name: &str, price: i64) -> Value {
    map(vec![(kw("name"), s(name)), (kw("price"), i(price))])
}

#[test]
fn sorting() {
    assert_eq!(run("sort", &[ints(&[3, 1, 2])]), "[1 2 3]");
    assert_eq!(run("sort", &[vecv(vec![i(3), fl(1.5), i(2)])]), "[1.5 2 3]");
    assert_eq!(run("sort", &[vecv(vec![i(1), Value::Nil])]), "[nil 1]");
    assert_eq!(run("sort", &[vecv(vec![s("b"), s("a")])]), "[\"a\" \"b\"]");
    assert_eq!(run("sort", &[set(vec![i(3), i(1), i(2)])]), "[1 2 3]");
    assert_eq!(run("sort", &[kw("desc"), ints(&[1, 3, 2])]), "[3 2 1]");
    assert_eq!(run("sort", &[kw("asc"), ints(&[1, 3, 2])]), "[1 2 3]");
    assert_eq!(run("sort", &[gt(), ints(&[1, 3, 2])]), "[3 2 1]");
    assert_eq!(run("sort", &[compare(), ints(&[1, 3, 2])]), "[1 2 3]");
    assert_eq!(run("sort", &[ints(&[])]), "[]");
    let maps = vecv(vec![map(vec![(kw("a"), i(2))]), map(vec![(kw("a"), i(1))])]);
    assert_eq!(err("sort", &[maps]), ErrorKind::Type);
    assert_eq!(err("sort", &[vecv(vec![s("a"), i(1)])]), ErrorKind::Type);
    assert_eq!(err("sort", &[kw("down"), ints(&[1])]), ErrorKind::Type);
    assert_eq!(err("sort", &[ints(&[1]), kw("desc")]), ErrorKind::Type);

    let products = vecv(vec![
        product("Laptop", 1200),
        product("Mouse", 25),
        product("Desk", 300),
    ]);
    let names = |v: &str| v.matches(":name ").count();
    let by_price = run("sort-by", &[kw("price"), products.clone()]);
    assert!(by_price.starts_with("[{:name \"Mouse\""), "{by_price}");
    assert_eq!(names(&by_price), 3);
    assert!(
        run("sort-by", &[kw("price"), gt(), products.clone()]).starts_with("[{:name \"Laptop\"")
    );
    assert!(run("sort-by", &[kw("price"), kw("desc"), products.clone()])
        .starts_with("[{:name \"Laptop\""));
    let rev = native("rev", |a| match compare_values(&a[1], &a[0]) {
        Some(o) => i(o as i64),
        None => Value::Nil,
    });
    assert!(run("sort-by", &[kw("price"), rev, products.clone()]).starts_with("[{:name \"Laptop\""));
    // string key and vector path (PTC-Lisp flexible keys)
    assert!(run("sort-by", &[s("price"), products.clone()]).starts_with("[{:name \"Mouse\""));
    let ages = vecv(vec![
        map(vec![(kw("age"), i(30))]),
        map(vec![(kw("age"), i(20))]),
        map(vec![(kw("age"), i(25))]),
    ]);
    assert_eq!(
        run("sort-by", &[vecv(vec![kw("age")]), ge(), ages]),
        "[{:age 30} {:age 25} {:age 20}]"
    );
    // stable; all keys nil keeps the order
    let none = native("none", |_| Value::Nil);
    assert_eq!(run("sort-by", &[none, ints(&[3, 1, 2])]), "[3 1 2]");
    let first = builtin("first");
    let pairs = vecv(vec![
        vecv(vec![s("b"), i(1)]),
        vecv(vec![s("a"), i(2)]),
        vecv(vec![s("b"), i(0)]),
    ]);
    assert_eq!(
        run("sort-by", &[first, pairs]),
        "[[\"a\" 2] [\"b\" 1] [\"b\" 0]]"
    );
    let second = builtin("second");
    let m = map(vec![
        (kw("food"), i(100)),
        (kw("travel"), i(500)),
        (kw("office"), i(200)),
    ]);
    assert_eq!(
        run("sort-by", &[second.clone(), gt(), m]),
        "[[:travel 500] [:office 200] [:food 100]]"
    );
    // >= on equal keys is an inconsistent comparator: no panic, stable
    assert_eq!(
        run(
            "sort-by",
            &[
                second,
                ge(),
                map(vec![(kw("a"), i(1)), (kw("b"), i(3)), (kw("c"), i(1))])
            ]
        ),
        "[[:b 3] [:a 1] [:c 1]]"
    );
    assert_eq!(
        run("sort-by", &[identity(), s("cab")]),
        "[\"a\" \"b\" \"c\"]"
    );
    let bad = native("bad", |_| s("x"));
    assert_eq!(err("sort", &[bad, ints(&[1, 2])]), ErrorKind::Type);
}

#[test]
fn distinct_dedupe_flatten() {
    assert_eq!(
        run("distinct", &[vecv(vec![s("a"), s("b"), s("a")])]),
        "[\"a\" \"b\"]"
    );
    assert_eq!(run("distinct", &[s("hello")]), "[\"h\" \"e\" \"l\" \"o\"]");
    assert_eq!(
        run("distinct", &[vecv(vec![i(1), fl(1.0), i(1)])]),
        "[1 1.0]"
    );
    assert_eq!(run("dedupe", &[ints(&[1, 1, 2, 2, 1])]), "[1 2 1]");
    let nested = vecv(vec![ints(&[1, 2]), vecv(vec![i(3), ints(&[4])])]);
    assert_eq!(run("flatten", &[nested]), "[1 2 3 4]");
    assert_eq!(run("flatten", &[ints(&[])]), "[]");
    assert_eq!(
        run(
            "flatten",
            &[vecv(vec![vecv(vec![vecv(vec![ints(&[1])])]), i(2)])]
        ),
        "[1 2]"
    );
    assert_eq!(
        run("flatten", &[vecv(vec![map(vec![(kw("a"), i(1))])])]),
        "[{:a 1}]"
    );
    assert_eq!(run("flatten", &[Value::Nil]), "[]");
    assert_eq!(run("flatten", &[map(vec![(kw("a"), i(1))])]), "[]");
}

#[test]
fn frequencies_and_group_by() {
    assert_eq!(
        run("frequencies", &[ints(&[1, 2, 1, 3, 2, 1])]),
        "{1 3 2 2 3 1}"
    );
    assert_eq!(
        run("frequencies", &[vecv(vec![i(1), s("1"), i(1), kw("one")])]),
        "{1 2 \"1\" 1 :one 1}"
    );
    assert_eq!(run("frequencies", &[s("")]), "{}");
    let items = vecv(vec![
        map(vec![(kw("type"), s("x")), (kw("v"), i(1))]),
        map(vec![(kw("type"), s("y")), (kw("v"), i(2))]),
        map(vec![(kw("type"), s("x")), (kw("v"), i(3))]),
    ]);
    let expected = "{\"x\" [{:type \"x\" :v 1} {:type \"x\" :v 3}] \"y\" [{:type \"y\" :v 2}]}";
    assert_eq!(run("group-by", &[kw("type"), items.clone()]), expected);
    assert_eq!(run("group-by", &[s("type"), items.clone()]), expected);
    // keyword key falls back to the string key
    let stringy = vecv(vec![
        map(vec![(s("status"), s("active"))]),
        map(vec![(kw("status"), s("active"))]),
    ]);
    assert_eq!(
        run("group-by", &[kw("status"), stringy]),
        "{\"active\" [{\"status\" \"active\"} {:status \"active\"}]}"
    );
    assert_eq!(run("group-by", &[odd(), ints(&[])]), "{}");
    assert_eq!(err("group-by", &[i(1), ints(&[1])]), ErrorKind::Type);
}

#[test]
fn replace_and_tree_seq() {
    assert_eq!(
        run(
            "replace",
            &[map(vec![(kw("a"), i(1))]), vecv(vec![kw("a"), kw("b")])]
        ),
        "[1 :b]"
    );
    assert_eq!(
        run(
            "replace",
            &[vecv(vec![kw("zero"), kw("one")]), ints(&[0, 1, 5])]
        ),
        "[:zero :one 5]"
    );
    assert_eq!(err("replace", &[i(1), ints(&[1])]), ErrorKind::Type);
    // a string first argument means clojure.string/replace
    if lookup_in(Ns::String, "replace").is_some() {
        assert_eq!(run("replace", &[s("hello"), s("l"), s("L")]), "\"heLLo\"");
    } else {
        assert!(run("replace", &[s("hello"), s("l"), s("L")]).contains("clojure.string/replace"));
    }
    let is_vec = native("vector?", |a| Value::Bool(matches!(a[0], Value::Vector(_))));
    let tree = vecv(vec![i(1), vecv(vec![i(2), ints(&[3])])]);
    assert_eq!(
        run("tree-seq", &[is_vec, identity(), tree]),
        "[[1 [2 [3]]] 1 [2 [3]] 2 [3] 3]"
    );
}

#[test]
fn ranges() {
    assert_eq!(run("range", &[i(5)]), "[0 1 2 3 4]");
    assert_eq!(run("range", &[i(5), i(10)]), "[5 6 7 8 9]");
    assert_eq!(run("range", &[i(5), i(5)]), "[]");
    assert_eq!(run("range", &[i(0)]), "[]");
    assert_eq!(run("range", &[i(-3)]), "[]");
    assert_eq!(run("range", &[i(0), i(10), i(3)]), "[0 3 6 9]");
    assert_eq!(run("range", &[i(10), i(0), i(-3)]), "[10 7 4 1]");
    assert_eq!(run("range", &[i(10), i(0), i(-2)]), "[10 8 6 4 2]");
    assert_eq!(run("range", &[i(0), i(10), i(-1)]), "[]");
    assert_eq!(run("range", &[i(10), i(0), i(1)]), "[]");
    assert_eq!(run("range", &[i(0), fl(2.5), i(1)]), "[0 1 2]");
    assert_eq!(
        run("range", &[fl(0.5), fl(2.5), fl(0.5)]),
        "[0.5 1.0 1.5 2.0]"
    );
    assert_eq!(run("range", &[i(0), i(1), fl(0.5)]), "[0 0.5]");
    assert_eq!(run("range", &[i(3), i(3), i(0)]), "[]");
    // A zero step is empty (issue 27 item 9: Clojure's never ends).
    assert_eq!(run("range", &[i(0), i(10), i(0)]), "[]");
    assert_eq!(run("range", &[i(0), fl(f64::INFINITY)]), "<lazy>");
    assert_eq!(err("range", &[s("5")]), ErrorKind::Type);
    assert_eq!(err("range", &[i(200_000_000)]), ErrorKind::MemoryExceeded);
    assert_eq!(
        err("range", &[fl(0.0), fl(1e12), fl(0.5)]),
        ErrorKind::MemoryExceeded
    );
    assert_eq!(
        err("range", &[i(i64::MIN), i(i64::MAX)]),
        ErrorKind::MemoryExceeded
    );
    let mut interp = Interp::standalone();
    let big = call(&mut interp, "range", &[i(i64::MAX - 1), fl(f64::INFINITY)]).unwrap();
    assert_eq!(
        call(&mut interp, "drop", &[i(5), big]).unwrap_err().kind(),
        ErrorKind::Arithmetic
    );
}

#[test]
fn generators() {
    assert_eq!(run("repeat", &[i(3), i(1)]), "[1 1 1]");
    assert_eq!(run("repeat", &[i(-1), i(1)]), "[]");
    assert_eq!(
        err("repeat", &[i(1_000_000_000), i(1)]),
        ErrorKind::MemoryExceeded
    );
    assert_eq!(err("iterate", &[i(1), i(1)]), ErrorKind::Type);
    assert_eq!(
        err("take", &[i(1_000_000_000), run_value("range", &[])]),
        ErrorKind::MemoryExceeded
    );
}

fn run_value(name: &str, args: &[Value]) -> Value {
    call(&mut Interp::standalone(), name, args).unwrap()
}

#[test]
fn pcalls_and_pmap() {
    let one = native("one", |_| i(1));
    let two = native("two", |_| i(2));
    assert_eq!(run("pcalls", &[one, two]), "[1 2]");
    assert_eq!(run("pcalls", &[]), "[]");
    assert_eq!(err("pcalls", &[i(42)]), ErrorKind::Type);
    assert_eq!(err("pcalls", &[two_args()]), ErrorKind::Arity);
    assert_eq!(
        run("pmap", &[plus(), ints(&[1, 2]), ints(&[10, 20])]),
        "[11 22]"
    );
}

#[test]
fn every_row_has_doc_and_example() {
    for b in super::BUILTINS {
        assert!(!b.doc.is_empty(), "{}", b.name);
        assert!(b.example.starts_with('('), "{} example", b.name);
    }
}

/// The direct sort (integer or string keys with a builtin comparator) gives
/// the merge sort's order, ties kept in input order, whatever the comparator.
#[test]
fn direct_sort_orders_like_the_merge_sort() {
    // Records [key position]; many ties. A native comparator takes the merge sort.
    let mut state = 7u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (state >> 33) % 9
    };
    let rows: Vec<Value> = (0..200)
        .map(|p| vecv(vec![i(next() as i64), i(p)]))
        .collect();
    let rows = vecv(rows);
    let first = builtin("first");
    for (direct, by_hand) in [
        (builtin(">"), gt()),
        (builtin(">="), ge()),
        (
            builtin("<"),
            native("<", |a| Value::Bool(num(&a[0]) < num(&a[1]))),
        ),
        (builtin("compare"), compare()),
    ] {
        assert_eq!(
            run("sort-by", &[first.clone(), direct, rows.clone()]),
            run("sort-by", &[first.clone(), by_hand, rows.clone()])
        );
    }
    let words = vecv(
        ["b", "a", "c", "a", "ab", ""]
            .iter()
            .map(|w| s(w))
            .collect(),
    );
    assert_eq!(
        run("sort", &[words.clone()]),
        r#"["" "a" "a" "ab" "b" "c"]"#
    );
    assert_eq!(
        run("sort", &[kw("desc"), words]),
        r#"["c" "b" "ab" "a" "a" ""]"#
    );
    // Mixed keys still go through the merge sort (and its errors).
    assert_eq!(
        err("sort", &[builtin(">"), vecv(vec![i(1), s("a")])]),
        ErrorKind::Type
    );
}

/// Integer ranges (counted at once) give what stepping a float start by
/// repeated addition gives, item for item, for every sign and size of step.
#[test]
fn integer_ranges_match_the_stepped_ones() {
    for a in -7..=7 {
        for b in -7..=7 {
            for c in [-4, -3, -1, 1, 2, 5] {
                let ints = run("range", &[i(a), i(b), i(c)]);
                let stepped = match call(
                    &mut Interp::standalone(),
                    "range",
                    &[fl(a as f64), i(b), i(c)],
                ) {
                    Ok(Value::Vector(v)) => format!(
                        "[{}]",
                        v.iter()
                            .map(|x| (num_f(x) as i64).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    other => panic!(
                        "range {a} {b} {c}: {}",
                        other.map(|v| show(&v)).unwrap_or_default()
                    ),
                };
                assert_eq!(ints, stepped, "(range {a} {b} {c})");
            }
        }
    }
    assert_eq!(run("range", &[i(4)]), "[0 1 2 3]");
    assert_eq!(run("range", &[i(-2)]), "[]");
    assert_eq!(run("range", &[i(3), i(3), i(0)]), "[]");
}

fn num_f(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f,
        Value::Int(n) => *n as f64,
        other => panic!("not a number: {}", show(other)),
    }
}

/// `map`/`mapv` of a vector nothing else holds (a `range`, a vector built
/// for the call) replace its items where they are — the result is the
/// same allocation — with the value, steps and heap charge of mapping a
/// vector another value still holds, which is left as it was; small and
/// flat vectors alike, and a function failing part way.
#[test]
fn map_of_a_vector_nothing_else_holds_maps_it_in_place() {
    use std::sync::Arc;
    for name in ["map", "mapv"] {
        let b = lookup_in(Ns::Core, name).unwrap();
        for n in [3, 64, 65, 1000] {
            let fresh = || vecv((0..n).map(i).collect());
            let unique = fresh();
            let Value::Vector(addr) = &unique else {
                unreachable!()
            };
            let addr = addr.addr();
            let mut a = Interp::standalone();
            let out = a.call_builtin_mut(b, &mut [inc(), unique]).unwrap();
            let Value::Vector(got) = &out else {
                panic!("{name} gave {}", show(&out))
            };
            assert_eq!(got.addr(), addr, "{name} of {n}: in place");

            let held = fresh();
            let keep = held.clone();
            let mut c = Interp::standalone();
            let copied = c.call_builtin_mut(b, &mut [inc(), held]).unwrap();
            assert_eq!(show(&out), show(&copied), "{name} of {n}");
            assert_eq!(show(&copied), show(&vecv((1..=n).map(i).collect())));
            assert_eq!(show(&keep), show(&fresh()), "the held vector is as it was");
            assert_eq!(a.budget.steps(), c.budget.steps(), "{name} of {n}");
            assert_eq!(
                a.budget.heap_bytes(),
                c.budget.heap_bytes(),
                "{name} of {n}"
            );
        }
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let calls = Arc::new(calls);
        let counted = calls.clone();
        let failing = Func::native("boom", move |_, a| {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            match num(&a[0]) {
                50 => Err(crate::error::Error::execution("boom at 50")),
                _ => Ok(a[0].clone()),
            }
        });
        let mut interp = Interp::standalone();
        let items = vecv((0..100).map(i).collect());
        let e = interp
            .call_builtin_mut(b, &mut [failing, items])
            .unwrap_err();
        assert_eq!(e.message(), "boom at 50");
        assert_eq!(
            calls.load(std::sync::atomic::Ordering::Relaxed),
            51,
            "{name}"
        );
    }
}

/// `concat` starts its result from a first vector instead of copying it:
/// `(reduce concat [] parts)` (a habit of real models) takes time and heap
/// linear in the items. It copied the whole vector per part: 50,000 parts
/// passed the 1 s timeout.
#[test]
fn concat_onto_an_accumulator_is_linear() {
    let heap = |n: usize| {
        let src = format!("(count (reduce concat [] (map (fn [i] [i]) (range {n}))))");
        let (shown, heap) = Interp::standalone().run_for_heap(&src);
        assert_eq!(shown, n.to_string(), "{src}");
        heap
    };
    let (small, large) = (heap(20_000), heap(40_000));
    assert!(large < 3 * small, "20k parts: {small} bytes, 40k: {large}");
    let src =
        "(let [v (vec (range 40)) w (concat v [3]) u (concat v nil)] [(count v) (last w) (= u v)])";
    assert_eq!(Interp::standalone().run_for_heap(src).0, "[40 3 true]");
}
