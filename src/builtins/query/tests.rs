//! Unit tests of the query builtins.

use super::*;
use crate::builtins::testing::{i, kw, s};
use crate::error::ErrorKind;

fn builtin(name: &str) -> &'static Builtin {
    BUILTINS
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no builtin {name}"))
}

fn call(interp: &mut Interp, name: &str, args: &[Value]) -> Result<Value> {
    let b = builtin(name);
    assert!(b.arity.accepts(args.len()), "{name} arity");
    (b.f)(interp, args)
}

fn run(name: &str, args: &[Value]) -> Result<Value> {
    call(&mut Interp::standalone(), name, args)
}

fn ok(name: &str, args: &[Value]) -> Value {
    run(name, args).unwrap_or_else(|e| panic!("({name} {args:?}) failed: {e}"))
}

fn vecv(items: &[Value]) -> Value {
    Value::vector_from(items.iter().cloned())
}
/// A map from (key, value) pairs; keys given as `:k` become keywords,
/// others strings.
fn m(pairs: &[(&str, Value)]) -> Value {
    Value::map_from(pairs.iter().map(|(k, v)| {
        let key = match k.strip_prefix(':') {
            Some(name) => kw(name),
            None => s(k),
        };
        (key, v.clone())
    }))
}

/// `(where ...)` applied to each item: which items match.
fn matches(where_args: &[Value], items: &[Value]) -> Vec<bool> {
    let mut interp = Interp::standalone();
    let pred = call(&mut interp, "where", where_args)
        .unwrap_or_else(|e| panic!("(where {where_args:?}) failed: {e}"));
    items
        .iter()
        .map(
            |item| match interp.call(&pred, std::slice::from_ref(item)) {
                Ok(Value::Bool(b)) => b,
                other => panic!("predicate gave {other:?}"),
            },
        )
        .collect()
}

fn op(name: &str) -> Value {
    kw(name)
}

#[test]
fn where_basic_operators() {
    let xs = [m(&[(":x", i(1))]), m(&[(":x", i(2))]), m(&[(":x", i(3))])];
    assert_eq!(
        matches(&[kw("x"), op("="), i(1)], &xs),
        [true, false, false]
    );
    assert_eq!(matches(&[kw("x"), op(">"), i(1)], &xs), [false, true, true]);
    assert_eq!(
        matches(&[kw("x"), op("not="), i(2)], &xs),
        [true, false, true]
    );
    assert_eq!(
        matches(&[kw("x"), op("<="), i(2)], &xs),
        [true, true, false]
    );
    assert_eq!(
        matches(&[kw("x"), op(">="), i(2)], &xs),
        [false, true, true]
    );
    assert_eq!(
        matches(&[kw("x"), op("<"), i(2)], &xs),
        [true, false, false]
    );
    // Builtin function values as operators.
    let gt = Value::Fn(Func::builtin(
        crate::builtins::numbers::BUILTINS
            .iter()
            .find(|b| b.name == ">")
            .expect("> is a builtin"),
    ));
    assert_eq!(matches(&[kw("x"), gt, i(1)], &xs), [false, true, true]);
    // Numbers compare numerically.
    assert_eq!(
        matches(&[kw("x"), op("="), Value::Float(2.0)], &xs),
        [false, true, false]
    );
}

#[test]
fn where_nil_safety() {
    let xs = [
        m(&[(":a", i(1))]),
        m(&[(":missing", i(2))]),
        m(&[(":missing", Value::Nil)]),
    ];
    assert_eq!(
        matches(&[kw("missing"), op("="), Value::Nil], &xs),
        [true, false, true]
    );
    assert_eq!(
        matches(&[kw("missing"), op(">"), i(0)], &xs),
        [false, true, false]
    );
    assert_eq!(
        matches(&[kw("missing"), op("not="), Value::Nil], &xs),
        [false, true, false]
    );
    assert_eq!(
        matches(&[kw("missing"), op("<"), i(30)], &xs),
        [false, true, false]
    );
    // Strings never compare with numbers.
    assert_eq!(
        matches(
            &[kw("x"), op(">"), i(1)],
            &[m(&[(":x", s("5"))]), m(&[(":x", i(2))])]
        ),
        [false, true]
    );
    // Not-a-map items just don't match.
    assert_eq!(
        matches(&[kw("x"), op("="), i(1)], &[i(1), Value::Nil]),
        [false, false]
    );
}

#[test]
fn where_truthy() {
    let xs = [
        m(&[(":active", Value::Bool(true))]),
        m(&[(":active", Value::Bool(false))]),
        m(&[(":active", i(0))]),
        m(&[]),
        m(&[(":active", Value::Nil)]),
    ];
    assert_eq!(
        matches(&[kw("active")], &xs),
        [true, false, true, false, false]
    );
    let acc = |p: Value| m(&[(":user", m(&[(":premium", p)]))]);
    assert_eq!(
        matches(
            &[vecv(&[kw("user"), kw("premium")])],
            &[
                acc(Value::Bool(true)),
                acc(Value::Bool(false)),
                m(&[(":user", m(&[]))])
            ]
        ),
        [true, false, false]
    );
}

#[test]
fn where_paths_and_flexible_keys() {
    let path = vecv(&[kw("user"), kw("email")]);
    let xs = [
        m(&[(":user", m(&[("email", s("alice@example.com"))]))]),
        m(&[("user", m(&[(":email", s("alice@example.com"))]))]),
        m(&[(":user", m(&[(":email", s("bob@example.com"))]))]),
        m(&[("user", m(&[("email", s("alice@example.com"))]))]),
    ];
    assert_eq!(
        matches(&[path, op("="), s("alice@example.com")], &xs),
        [true, true, false, true]
    );
    // The keyword key wins when both exist, even when falsy.
    assert_eq!(
        matches(
            &[kw("enabled"), op("="), Value::Bool(false)],
            &[
                m(&[
                    (":enabled", Value::Bool(false)),
                    ("enabled", Value::Bool(true))
                ]),
                m(&[
                    (":enabled", Value::Bool(true)),
                    ("enabled", Value::Bool(false))
                ]),
            ]
        ),
        [true, false]
    );
    assert_eq!(
        matches(
            &[kw("category"), op("="), s("priority")],
            &[m(&[
                (":category", s("priority")),
                ("category", s("ignored"))
            ])]
        ),
        [true]
    );
    let ages = [
        m(&[(":user", m(&[(":age", i(30))]))]),
        m(&[(":user", m(&[(":age", i(12))]))]),
        m(&[(":user", m(&[]))]),
        m(&[]),
    ];
    assert_eq!(
        matches(&[vecv(&[kw("user"), kw("age")]), op(">"), i(18)], &ages),
        [true, false, false, false]
    );
}

#[test]
fn where_coercion() {
    let xs = [m(&[(":s", s("a"))]), m(&[(":s", s("b"))])];
    assert_eq!(matches(&[kw("s"), op("="), kw("a")], &xs), [true, false]);
    assert_eq!(matches(&[kw("s"), op("not="), kw("a")], &xs), [false, true]);
    assert_eq!(
        matches(&[kw("s"), op("="), s("a")], &[m(&[(":s", kw("a"))])]),
        [true]
    );
    // Booleans are not coerced.
    let flags = [
        m(&[(":flag", s("true"))]),
        m(&[(":flag", Value::Bool(true))]),
    ];
    assert_eq!(
        matches(&[kw("flag"), op("="), Value::Bool(true)], &flags),
        [false, true]
    );
    let role = |r: &str| m(&[(":user", m(&[(":role", s(r))]))]);
    assert_eq!(
        matches(
            &[vecv(&[kw("user"), kw("role")]), op("="), kw("admin")],
            &[role("admin"), role("dev")]
        ),
        [true, false]
    );
}

#[test]
fn where_in_and_includes() {
    let xs = [m(&[(":s", s("a"))]), m(&[(":s", s("c"))]), m(&[])];
    assert_eq!(
        matches(&[kw("s"), op("in"), vecv(&[kw("a"), kw("b")])], &xs),
        [true, false, false]
    );
    assert_eq!(
        matches(
            &[kw("n"), op("in"), vecv(&[i(1), i(2)])],
            &[m(&[(":n", i(1))]), m(&[(":n", i(3))])]
        ),
        [true, false]
    );
    let set = Value::set_from([s("a"), s("b"), s("c")]);
    assert_eq!(
        matches(
            &[kw("val"), op("in"), set.clone()],
            &[
                m(&[(":val", s("a"))]),
                m(&[(":val", s("d"))]),
                m(&[(":val", kw("a"))])
            ]
        ),
        [true, false, true]
    );
    let tickets = [
        m(&[(":tags", vecv(&[s("urgent"), s("bug")]))]),
        m(&[(":tags", vecv(&[s("bug")]))]),
        m(&[(":tags", vecv(&[]))]),
        m(&[]),
    ];
    assert_eq!(
        matches(&[kw("tags"), op("includes"), s("urgent")], &tickets),
        [true, false, false, false]
    );
    assert_eq!(
        matches(&[kw("tags"), op("includes"), kw("urgent")], &tickets),
        [true, false, false, false]
    );
    assert_eq!(
        matches(
            &[kw("val"), op("includes"), s("a")],
            &[
                m(&[(":val", set)]),
                m(&[(":val", Value::set_from([s("b")]))])
            ]
        ),
        [true, false]
    );
    assert_eq!(
        matches(
            &[kw("name"), op("includes"), s("li")],
            &[m(&[(":name", s("alice"))]), m(&[(":name", s("bob"))])]
        ),
        [true, false]
    );
    // nil collection: nothing is in it.
    assert_eq!(
        matches(&[kw("s"), op("in"), Value::Nil], &xs),
        [false, false, false]
    );
    assert_eq!(
        run("where", &[kw("s"), op("in"), i(5)]).unwrap_err().kind(),
        ErrorKind::Type
    );
}

#[test]
fn where_validation() {
    let kind = |args: &[Value]| run("where", args).unwrap_err().kind();
    assert_eq!(kind(&[i(42)]), ErrorKind::Validation);
    assert_eq!(kind(&[]), ErrorKind::Validation);
    assert_eq!(
        kind(&[vecv(&[i(123)]), op("="), i(1)]),
        ErrorKind::Validation
    );
    assert_eq!(kind(&[vecv(&[])]), ErrorKind::Validation);
    let e = run("where", &[kw("status"), s("active")]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Validation);
    assert!(e.hint().unwrap_or("").contains("="), "{e:?}");
    assert_eq!(kind(&[kw("x"), op("like"), i(1)]), ErrorKind::Validation);
    assert_eq!(kind(&[kw("x"), op("="), i(1), i(2)]), ErrorKind::Validation);
    // The predicate takes exactly one item.
    let mut interp = Interp::standalone();
    let p = call(&mut interp, "where", &[kw("x")]).expect("where");
    assert_eq!(interp.call(&p, &[]).unwrap_err().kind(), ErrorKind::Arity);
}

#[test]
fn combinators() {
    let mut interp = Interp::standalone();
    let w = |interp: &mut Interp, k: &str, v: i64| {
        call(interp, "where", &[kw(k), op("="), i(v)]).expect("where")
    };
    let a1 = w(&mut interp, "a", 1);
    let b2 = w(&mut interp, "b", 2);
    let all = call(&mut interp, "all-of", &[a1.clone(), b2.clone()]).expect("all-of");
    let any = call(&mut interp, "any-of", &[a1.clone(), b2]).expect("any-of");
    let none = call(&mut interp, "none-of", &[a1]).expect("none-of");
    let empty_all = call(&mut interp, "all-of", &[]).expect("all-of");
    let empty_any = call(&mut interp, "any-of", &[]).expect("any-of");
    let empty_none = call(&mut interp, "none-of", &[]).expect("none-of");
    let items = [
        m(&[(":a", i(1)), (":b", i(2))]),
        m(&[(":a", i(1)), (":b", i(3))]),
        m(&[(":a", i(2))]),
    ];
    let mut apply = |p: &Value| -> Vec<bool> {
        items
            .iter()
            .map(|x| {
                interp
                    .call(p, std::slice::from_ref(x))
                    .expect("call")
                    .truthy()
            })
            .collect()
    };
    assert_eq!(apply(&all), [true, false, false]);
    assert_eq!(apply(&any), [true, true, false]);
    assert_eq!(apply(&none), [false, false, true]);
    assert_eq!(apply(&empty_all), [true, true, true]);
    assert_eq!(apply(&empty_any), [false, false, false]);
    assert_eq!(apply(&empty_none), [true, true, true]);
    assert_eq!(run("all-of", &[i(1)]).unwrap_err().kind(), ErrorKind::Type);
}

fn amounts(vals: &[Value]) -> Value {
    vecv(
        &vals
            .iter()
            .map(|v| m(&[(":amount", v.clone())]))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn sum_and_avg() {
    assert_eq!(
        ok(
            "sum-by",
            &[
                kw("amount"),
                amounts(&[i(45), i(80), i(500), i(30), i(1200)])
            ]
        ),
        i(1855)
    );
    let with_nil = vecv(&[
        m(&[(":amount", i(10))]),
        m(&[(":amount", Value::Nil)]),
        m(&[(":other", i(5))]),
    ]);
    assert_eq!(ok("sum-by", &[kw("amount"), with_nil]), i(10));
    assert!(matches!(
        ok("sum-by", &[kw("amount"), amounts(&[i(1), Value::Float(0.5)])]),
        Value::Float(x) if x == 1.5
    ));
    assert_eq!(ok("sum-by", &[kw("x"), vecv(&[])]), i(0));
    assert_eq!(ok("sum-by", &[kw("x"), Value::Nil]), i(0));
    assert_eq!(
        run("sum-by", &[kw("amount"), amounts(&[s("10"), i(20)])])
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
    assert_eq!(
        run("sum-by", &[kw("amount"), s("not a list")])
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
    assert_eq!(
        run("sum-by", &[kw("amount"), amounts(&[i(i64::MAX), i(1)])])
            .unwrap_err()
            .kind(),
        ErrorKind::Arithmetic
    );
    // String key on keyword data, keyword key preferred.
    let pairs = vecv(&[
        m(&[(":value", i(10)), ("value", i(100))]),
        m(&[("value", i(20))]),
    ]);
    assert_eq!(ok("sum-by", &[s("value"), pairs.clone()]), i(120));
    assert_eq!(ok("sum-by", &[kw("value"), pairs]), i(30));

    let avg = ok(
        "avg-by",
        &[kw("amount"), amounts(&[i(10), Value::Nil, i(20)])],
    );
    assert!(matches!(avg, Value::Float(x) if x == 15.0), "{avg:?}");
    let avg = ok(
        "avg-by",
        &[kw("amount"), amounts(&[i(1200), i(25), i(300)])],
    );
    assert!(
        matches!(avg, Value::Float(x) if x == 508.333_333_333_333_3),
        "{avg:?}"
    );
    assert_eq!(ok("avg-by", &[kw("x"), vecv(&[])]), Value::Nil);
    assert_eq!(
        ok("avg-by", &[kw("amount"), amounts(&[Value::Nil])]),
        Value::Nil
    );
    assert_eq!(
        ok("avg-by", &[vecv(&[kw("salary")]), Value::Nil]),
        Value::Nil
    );
    assert_eq!(
        run("avg-by", &[kw("amount"), amounts(&[m(&[(":x", i(1))])])])
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
}

#[test]
fn sum_by_function_key() {
    let second = Func::native("second", |_, a| {
        Ok(lookup(&a[0], &Value::Int(1)).unwrap_or(Value::Nil))
    });
    let pairs = vecv(&[vecv(&[s("a"), i(2)]), vecv(&[s("b"), i(3)])]);
    assert_eq!(ok("sum-by", &[second.clone(), pairs.clone()]), i(5));
    assert!(matches!(ok("avg-by", &[second, pairs]), Value::Float(x) if x == 2.5));
}

#[test]
fn min_and_max() {
    let p = |n: Option<i64>| m(&[(":price", n.map_or(Value::Nil, Value::Int))]);
    let items = vecv(&[p(None), p(Some(10)), p(Some(5))]);
    assert_eq!(ok("max-by", &[kw("price"), items.clone()]), p(Some(10)));
    assert_eq!(ok("min-by", &[kw("price"), items]), p(Some(5)));
    assert_eq!(ok("max-by", &[kw("x"), vecv(&[])]), Value::Nil);
    assert_eq!(
        ok("min-by", &[kw("price"), vecv(&[p(None), p(None)])]),
        Value::Nil
    );
    // Ties: the first one.
    let t = vecv(&[
        m(&[(":v", i(1)), (":id", i(1))]),
        m(&[(":v", i(1)), (":id", i(2))]),
    ]);
    assert_eq!(
        ok("max-by", &[kw("v"), t.clone()]),
        m(&[(":v", i(1)), (":id", i(1))])
    );
    assert_eq!(
        ok("min-by", &[kw("v"), t]),
        m(&[(":v", i(1)), (":id", i(1))])
    );
    // Mixed key types and string keys.
    let scores = vecv(&[
        m(&[(":score", i(30))]),
        m(&[("score", i(10))]),
        m(&[("score", i(999)), (":score", i(20))]),
    ]);
    assert_eq!(
        ok("min-by", &[kw("score"), scores.clone()]),
        m(&[("score", i(10))])
    );
    assert_eq!(
        ok("max-by", &[kw("score"), scores]),
        m(&[(":score", i(30))])
    );
    // Function key on strings.
    let first = Func::native("first", |_, a| {
        Ok(lookup(&a[0], &Value::Int(0)).unwrap_or(Value::Nil))
    });
    let pairs = vecv(&[vecv(&[s("b"), i(2)]), vecv(&[s("a"), i(1)])]);
    assert_eq!(ok("min-by", &[first, pairs]), vecv(&[s("a"), i(1)]));
    // Path keys.
    let vals = vecv(&[
        m(&[(":val", i(30))]),
        m(&[(":val", i(10))]),
        m(&[(":val", i(20))]),
    ]);
    assert_eq!(
        ok("min-by", &[vecv(&[kw("val")]), vals.clone()]),
        m(&[(":val", i(10))])
    );
    assert_eq!(
        ok("max-by", &[vecv(&[kw("val")]), vals]),
        m(&[(":val", i(30))])
    );
    // Incomparable keys.
    let mixed = vecv(&[m(&[(":v", i(1))]), m(&[(":v", m(&[]))])]);
    assert_eq!(
        run("max-by", &[kw("v"), mixed]).unwrap_err().kind(),
        ErrorKind::Type
    );
}

#[test]
fn pluck_values() {
    assert_eq!(
        ok(
            "pluck",
            &[
                kw("missing"),
                vecv(&[m(&[(":a", i(1))]), m(&[(":missing", i(2))])])
            ]
        ),
        vecv(&[Value::Nil, i(2)])
    );
    assert_eq!(
        ok(
            "pluck",
            &[
                s("name"),
                vecv(&[m(&[(":name", s("A"))]), m(&[("name", s("B"))])])
            ]
        ),
        vecv(&[s("A"), s("B")])
    );
    let sal = vecv(&[m(&[(":salary", i(100))]), m(&[(":salary", i(200))])]);
    assert_eq!(
        ok("pluck", &[vecv(&[kw("salary")]), sal.clone()]),
        vecv(&[i(100), i(200)])
    );
    assert_eq!(ok("pluck", &[vecv(&[]), sal.clone()]), sal);
    let addr = |c: &str| m(&[("address", m(&[(":city", s(c))]))]);
    assert_eq!(
        ok(
            "pluck",
            &[
                vecv(&[s("address"), kw("city")]),
                vecv(&[addr("Oslo"), addr("Bergen")])
            ]
        ),
        vecv(&[s("Oslo"), s("Bergen")])
    );
    let e = run("pluck", &[vecv(&[m(&[])]), kw("name")]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.hint().unwrap_or("").contains("key comes first"), "{e:?}");
}

/// Issue 58: `sum` and `avg` are `sum-by` and `avg-by` of the items.
#[test]
fn sum_and_avg_of_items() {
    let f = Value::Float;
    assert_eq!(ok("sum", &[vecv(&[i(1), i(2), i(3)])]), i(6));
    assert_eq!(ok("sum", &[vecv(&[])]), i(0));
    assert_eq!(ok("sum", &[Value::Nil]), i(0));
    assert_eq!(ok("sum", &[vecv(&[i(1), Value::Nil, f(2.5)])]), f(3.5));
    assert_eq!(ok("sum", &[Value::set_from([i(1), i(2)])]), i(3));
    let e = run("sum", &[vecv(&[i(i64::MAX), i(1)])]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Arithmetic);
    assert!(e.message().contains("in sum "), "{e:?}");
    let e = run("sum", &[vecv(&[s("1")])]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("sum expects numbers"), "{e:?}");
    assert_eq!(run("sum", &[i(5)]).unwrap_err().kind(), ErrorKind::Type);

    assert_eq!(ok("avg", &[vecv(&[i(1), i(2), i(3), i(4)])]), f(2.5));
    assert_eq!(ok("avg", &[vecv(&[i(2), Value::Nil, i(4)])]), f(3.0));
    assert_eq!(ok("avg", &[vecv(&[])]), Value::Nil);
    assert_eq!(ok("avg", &[vecv(&[Value::Nil])]), Value::Nil);
    assert_eq!(ok("avg", &[Value::Nil]), Value::Nil);
    assert_eq!(
        run("avg", &[vecv(&[kw("a")])]).unwrap_err().kind(),
        ErrorKind::Type
    );
}

/// Issue 58: `distinct-by` keeps the first item of each key, in order.
#[test]
fn distinct_by_keeps_first_per_key() {
    let items = vecv(&[
        m(&[(":id", i(1)), (":v", s("a"))]),
        m(&[(":id", i(2)), (":v", s("b"))]),
        m(&[(":id", i(1)), (":v", s("c"))]),
        m(&[(":v", s("d"))]),
        m(&[(":v", s("e"))]),
    ]);
    let firsts = |v: Value| match v {
        Value::Vector(xs) => xs
            .iter()
            .map(|x| lookup(x, &kw("v")).unwrap_or(Value::Nil))
            .collect::<Vec<_>>(),
        other => panic!("not a vector: {other:?}"),
    };
    // A missing key is nil: one item for all of them.
    assert_eq!(
        firsts(ok("distinct-by", &[kw("id"), items.clone()])),
        [s("a"), s("b"), s("d")]
    );
    let parity = Func::native("parity", |_, a| {
        Ok(Value::Int(a[0].as_int().unwrap_or(0).rem_euclid(2)))
    });
    assert_eq!(
        ok(
            "distinct-by",
            &[parity, vecv(&[i(3), i(5), i(4), i(7), i(6)])]
        ),
        vecv(&[i(3), i(4)])
    );
    // A path key; keys compare with =.
    let pairs = vecv(&[
        vecv(&[i(1), s("x")]),
        vecv(&[i(1), s("y")]),
        vecv(&[i(2), s("z")]),
    ]);
    assert_eq!(
        ok("distinct-by", &[vecv(&[i(0)]), pairs]),
        vecv(&[vecv(&[i(1), s("x")]), vecv(&[i(2), s("z")])])
    );
    assert_eq!(ok("distinct-by", &[kw("id"), Value::Nil]), vecv(&[]));
    assert_eq!(
        run("distinct-by", &[kw("id"), s("abc")])
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
}
