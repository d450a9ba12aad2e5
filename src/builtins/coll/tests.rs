//! Unit tests of the collection builtins.

use super::*;
use crate::builtins::testing::{i, kw, m, s, v};
use crate::error::ErrorKind;
use crate::value::Func;

fn st(items: &[Value]) -> Value {
    Value::set_from(items.iter().cloned())
}
fn inc() -> Value {
    Func::native("inc", |_, a| match &a[0] {
        Value::Int(n) => Ok(Value::Int(n + 1)),
        other => Err(args::type_error("inc", "a number", other)),
    })
}
fn plus() -> Value {
    Func::native("+", |_, a| {
        let mut t = 0;
        for x in a {
            t += args::int("+", x)?;
        }
        Ok(Value::Int(t))
    })
}
fn even() -> Value {
    Func::native("even?", |_, a| {
        Ok(Value::Bool(args::int("even?", &a[0])? % 2 == 0))
    })
}
fn run(f: fn(&mut Interp, &[Value]) -> Result<Value>, a: &[Value]) -> Result<Value> {
    let mut interp = Interp::standalone();
    f(&mut interp, a)
}
fn ok(f: fn(&mut Interp, &[Value]) -> Result<Value>, a: &[Value]) -> Value {
    run(f, a).unwrap()
}
fn err(f: fn(&mut Interp, &[Value]) -> Result<Value>, a: &[Value]) -> ErrorKind {
    run(f, a).unwrap_err().kind()
}

#[test]
fn count_and_get() {
    assert_eq!(ok(count, &[v(&[i(1), i(2)])]), i(2));
    assert_eq!(ok(count, &[Value::Nil]), i(0));
    assert_eq!(ok(count, &[s("héllo")]), i(5));
    assert_eq!(err(count, &[i(42)]), ErrorKind::Type);
    let e = run(count, &[i(42)]).unwrap_err();
    assert!(e.message().contains("count"));
    assert_eq!(ok(get, &[m(&[(kw("a"), i(1))]), kw("a")]), i(1));
    assert_eq!(ok(get, &[m(&[(kw("a"), i(1))]), kw("b"), s("d")]), s("d"));
    assert_eq!(ok(get, &[m(&[(s("name"), s("A"))]), kw("name")]), s("A"));
    assert_eq!(ok(get, &[m(&[(kw("name"), s("A"))]), s("name")]), s("A"));
    assert_eq!(
        ok(
            get,
            &[m(&[(s("status"), Value::Nil)]), kw("status"), s("u")]
        ),
        Value::Nil
    );
    assert_eq!(ok(get, &[Value::Nil, kw("k"), kw("none")]), kw("none"));
    assert_eq!(ok(get, &[i(5), kw("k")]), Value::Nil);
    assert_eq!(ok(get, &[v(&[i(1), i(2)]), i(5)]), Value::Nil);
}

#[test]
fn get_in_paths() {
    let data = m(&[(s("user"), m(&[(kw("name"), s("Alice"))]))]);
    assert_eq!(
        ok(get_in, &[data.clone(), v(&[kw("user"), kw("name")])]),
        s("Alice")
    );
    assert_eq!(ok(get_in, &[data.clone(), v(&[])]), data);
    assert_eq!(
        ok(get_in, &[data.clone(), v(&[kw("user"), kw("x")]), s("d")]),
        s("d")
    );
    assert_eq!(
        ok(
            get_in,
            &[m(&[(kw("user"), s("Alice"))]), v(&[kw("user"), kw("name")])]
        ),
        Value::Nil
    );
    assert_eq!(err(get_in, &[data, kw("user")]), ErrorKind::Type);
}

#[test]
fn assoc_maps_and_vectors() {
    assert_eq!(
        ok(assoc, &[m(&[(kw("a"), i(1))]), kw("b"), i(2)]),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(
        ok(assoc, &[Value::Nil, kw("a"), i(1)]),
        m(&[(kw("a"), i(1))])
    );
    assert_eq!(ok(assoc, &[v(&[i(1), i(2)]), i(0), i(9)]), v(&[i(9), i(2)]));
    assert_eq!(ok(assoc, &[v(&[i(1)]), i(1), i(9)]), v(&[i(1), i(9)]));
    assert_eq!(err(assoc, &[v(&[i(1)]), i(3), i(9)]), ErrorKind::Execution);
    assert_eq!(err(assoc, &[v(&[i(1)]), kw("a"), i(9)]), ErrorKind::Type);
    assert_eq!(err(assoc, &[m(&[]), kw("a")]), ErrorKind::Arity);
    assert_eq!(err(assoc, &[s("x"), kw("a"), i(1)]), ErrorKind::Type);
}

#[test]
fn assoc_in_and_update_in() {
    assert_eq!(
        ok(assoc_in, &[m(&[]), v(&[kw("user"), kw("name")]), s("Bob")]),
        m(&[(kw("user"), m(&[(kw("name"), s("Bob"))]))])
    );
    // Exact keys: a string path does not write into the keyword key.
    let d = m(&[(kw("user"), m(&[(kw("age"), i(30))]))]);
    assert_eq!(
        ok(assoc_in, &[d.clone(), v(&[s("user"), s("name")]), s("A")]),
        m(&[
            (kw("user"), m(&[(kw("age"), i(30))])),
            (s("user"), m(&[(s("name"), s("A"))]))
        ])
    );
    assert_eq!(
        ok(assoc_in, &[m(&[(kw("a"), i(1))]), v(&[]), i(99)]),
        m(&[(kw("a"), i(1)), (Value::Nil, i(99))])
    );
    assert_eq!(
        ok(
            assoc_in,
            &[
                m(&[(kw("user"), Value::Nil)]),
                v(&[kw("user"), kw("age")]),
                i(30)
            ]
        ),
        m(&[(kw("user"), m(&[(kw("age"), i(30))]))])
    );
    assert_eq!(
        ok(assoc_in, &[v(&[v(&[i(1), i(2)])]), v(&[i(0), i(1)]), i(9)]),
        v(&[v(&[i(1), i(9)])])
    );
    assert_eq!(
        ok(
            update_in,
            &[
                m(&[(kw("a"), m(&[(kw("b"), i(1))]))]),
                v(&[kw("a"), kw("b")]),
                plus(),
                i(10)
            ]
        ),
        m(&[(kw("a"), m(&[(kw("b"), i(11))]))])
    );
    let add_b = Func::native("f", |_, a| assoc1("assoc", a[0].clone(), kw("b"), i(2)));
    assert_eq!(
        ok(update_in, &[m(&[(kw("a"), i(1))]), v(&[]), add_b]),
        m(&[(kw("a"), i(1)), (Value::Nil, m(&[(kw("b"), i(2))]))])
    );
    assert_eq!(
        ok(
            update_in,
            &[
                Value::Nil,
                v(&[kw("a")]),
                Func::native("f", |_, _| Ok(i(1)))
            ]
        ),
        m(&[(kw("a"), i(1))])
    );
    assert_eq!(
        err(update_in, &[m(&[]), v(&[kw("a")]), i(1)]),
        ErrorKind::Type
    );
}

#[test]
fn update_dissoc_and_friends() {
    assert_eq!(
        ok(update, &[m(&[(kw("n"), i(1))]), kw("n"), inc()]),
        m(&[(kw("n"), i(2))])
    );
    assert_eq!(
        ok(update, &[m(&[(kw("n"), i(1))]), kw("n"), plus(), i(5)]),
        m(&[(kw("n"), i(6))])
    );
    assert_eq!(
        ok(
            dissoc,
            &[m(&[(kw("a"), i(1)), (kw("b"), i(2))]), kw("b"), kw("z")]
        ),
        m(&[(kw("a"), i(1))])
    );
    assert_eq!(ok(dissoc, &[Value::Nil, kw("a")]), Value::Nil);
    assert_eq!(
        ok(update_vals, &[m(&[(kw("a"), i(1))]), inc()]),
        m(&[(kw("a"), i(2))])
    );
    assert_eq!(ok(update_vals, &[Value::Nil, inc()]), m(&[]));
    let e = run(update_vals, &[inc(), m(&[(kw("a"), i(1))])]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("update-vals"));
    assert!(e.hint().unwrap_or("").contains("->"));
    let e = run(update_keys, &[v(&[]), inc()]).unwrap_err();
    assert!(e.message().contains("update-keys"));
    assert_eq!(
        ok(update_keys, &[m(&[(i(1), kw("a"))]), inc()]),
        m(&[(i(2), kw("a"))])
    );
}

#[test]
fn conj_and_into() {
    assert_eq!(ok(conj, &[]), v(&[]));
    assert_eq!(ok(conj, &[v(&[i(1)]), i(2), i(3)]), v(&[i(1), i(2), i(3)]));
    assert_eq!(ok(conj, &[Value::Nil, i(1)]), v(&[i(1)]));
    assert_eq!(ok(conj, &[v(&[i(1)]), Value::Nil]), v(&[i(1), Value::Nil]));
    assert_eq!(ok(conj, &[st(&[i(1)]), i(2)]), st(&[i(1), i(2)]));
    assert_eq!(
        ok(conj, &[m(&[(kw("a"), i(1))]), v(&[kw("b"), i(2)])]),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(
        ok(conj, &[m(&[]), m(&[(kw("b"), i(2))])]),
        m(&[(kw("b"), i(2))])
    );
    assert_eq!(err(conj, &[m(&[]), i(1)]), ErrorKind::Type);
    assert_eq!(err(conj, &[s("ab"), i(1)]), ErrorKind::Type);

    assert_eq!(
        ok(
            into,
            &[m(&[]), v(&[v(&[kw("a"), i(1)]), v(&[kw("b"), i(2)])])]
        ),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(
        ok(into, &[st(&[]), m(&[(kw("a"), i(1))])]),
        st(&[v(&[kw("a"), i(1)])])
    );
    assert_eq!(
        ok(into, &[v(&[i(99)]), m(&[(kw("a"), i(1))])]),
        v(&[i(99), v(&[kw("a"), i(1)])])
    );
    assert_eq!(
        ok(into, &[m(&[(kw("a"), i(1))]), Value::Nil]),
        m(&[(kw("a"), i(1))])
    );
    let e = run(into, &[m(&[]), v(&[i(1), i(2)])]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains("into"));
    assert_eq!(err(into, &[m(&[]), v(&[v(&[kw("a")])])]), ErrorKind::Type);
}

#[test]
fn keys_vals_entries() {
    let d = m(&[(kw("b"), i(2)), (kw("a"), i(1))]);
    // Insertion order (format.md F-2), not key order.
    assert_eq!(ok(keys, std::slice::from_ref(&d)), v(&[kw("b"), kw("a")]));
    assert_eq!(ok(vals, &[d]), v(&[i(2), i(1)]));
    assert_eq!(ok(keys, &[m(&[])]), Value::Nil);
    assert_eq!(ok(vals, &[Value::Nil]), Value::Nil);
    assert_eq!(ok(keys, &[v(&[v(&[kw("a"), i(1)])])]), v(&[kw("a")]));
    assert_eq!(err(keys, &[i(1)]), ErrorKind::Type);
    assert_eq!(ok(key, &[v(&[kw("a"), i(1)])]), kw("a"));
    assert_eq!(ok(val, &[v(&[kw("a"), i(1)])]), i(1));
    assert_eq!(err(key, &[i(1)]), ErrorKind::Type);
}

#[test]
fn merging() {
    assert_eq!(
        ok(
            merge,
            &[
                m(&[(kw("a"), i(1))]),
                m(&[(kw("b"), i(2))]),
                m(&[(kw("a"), i(3))])
            ]
        ),
        m(&[(kw("a"), i(3)), (kw("b"), i(2))])
    );
    assert_eq!(ok(merge, &[]), Value::Nil);
    assert_eq!(ok(merge, &[Value::Nil, Value::Nil]), Value::Nil);
    assert_eq!(
        ok(merge, &[Value::Nil, m(&[(kw("a"), i(1))])]),
        m(&[(kw("a"), i(1))])
    );
    // (apply merge {:a 1}) is (merge [:a 1])
    assert_eq!(ok(merge, &[v(&[kw("a"), i(1)])]), v(&[kw("a"), i(1)]));
    assert_eq!(err(merge, &[m(&[]), i(5)]), ErrorKind::Type);
    assert_eq!(
        ok(
            merge_with,
            &[
                plus(),
                m(&[(kw("a"), i(1))]),
                m(&[(kw("a"), i(2)), (kw("b"), i(3))])
            ]
        ),
        m(&[(kw("a"), i(3)), (kw("b"), i(3))])
    );
    assert_eq!(ok(merge_with, &[plus()]), Value::Nil);
}

#[test]
fn select_zip_find_contains() {
    let d = m(&[(kw("a"), i(1)), (kw("b"), i(2)), (kw("c"), i(3))]);
    assert_eq!(
        ok(select_keys, &[d.clone(), v(&[kw("a"), kw("c"), kw("z")])]),
        m(&[(kw("a"), i(1)), (kw("c"), i(3))])
    );
    let sd = m(&[(s("a"), Value::Nil), (s("b"), i(2))]);
    assert_eq!(ok(select_keys, &[sd, v(&[kw("a"), kw("b")])]), m(&[]));
    assert_eq!(
        ok(zipmap, &[v(&[kw("a"), kw("b"), kw("c")]), v(&[i(1), i(2)])]),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(ok(find, &[d.clone(), kw("b")]), v(&[kw("b"), i(2)]));
    assert_eq!(ok(find, &[d.clone(), kw("z")]), Value::Nil);
    assert_eq!(ok(find, &[even(), v(&[i(1), i(4), i(6)])]), i(4));
    assert_eq!(ok(find, &[even(), v(&[i(1)])]), Value::Nil);
    let items = v(&[
        m(&[(kw("id"), i(1))]),
        m(&[(kw("special"), Value::Bool(true))]),
    ]);
    assert_eq!(
        ok(find, &[kw("special"), items]),
        m(&[(kw("special"), Value::Bool(true))])
    );
    assert_eq!(
        ok(find, &[st(&[s("b"), s("c")]), v(&[s("a"), s("b")])]),
        s("b")
    );
    assert_eq!(err(find, &[i(3), v(&[i(1)])]), ErrorKind::Type);

    assert_eq!(
        ok(contains, &[m(&[(kw("a"), Value::Nil)]), kw("a")]),
        Value::Bool(true)
    );
    assert_eq!(
        ok(contains, &[m(&[(kw("name"), i(1))]), s("name")]),
        Value::Bool(false)
    );
    assert_eq!(
        ok(contains, &[v(&[s("a"), s("b")]), s("b")]),
        Value::Bool(true)
    );
    assert_eq!(
        ok(contains, &[v(&[s("a"), s("b")]), i(0)]),
        Value::Bool(false)
    );
    assert_eq!(ok(contains, &[st(&[i(1)]), i(1)]), Value::Bool(true));
    assert_eq!(ok(contains, &[Value::Nil, i(1)]), Value::Bool(false));
    assert_eq!(err(contains, &[i(1), i(1)]), ErrorKind::Type);
    // A string's indexes are its characters', ASCII or not.
    for (text, index, has) in [
        ("abc", 2, true),
        ("abc", 3, false),
        ("héllo", 4, true),
        ("héllo", 5, false),
        ("", 0, false),
    ] {
        assert_eq!(
            ok(contains, &[s(text), i(index)]),
            Value::Bool(has),
            "{text} {index}"
        );
    }
    assert_eq!(ok(contains, &[s("abc"), i(-1)]), Value::Bool(false));
}

#[test]
fn one_character_texts() {
    for (text, one) in [
        ("a", true),
        ("é", true),
        ("🙂", true),
        ("", false),
        ("ab", false),
        ("éé", false),
    ] {
        assert_eq!(args::is_one_char(text), one, "{text:?}");
    }
}

#[test]
fn vectors() {
    let x = v(&[i(1), i(2), i(3), i(4)]);
    assert_eq!(ok(peek, std::slice::from_ref(&x)), i(4));
    assert_eq!(ok(peek, &[v(&[])]), Value::Nil);
    assert_eq!(ok(pop, std::slice::from_ref(&x)), v(&[i(1), i(2), i(3)]));
    assert_eq!(err(pop, &[v(&[])]), ErrorKind::Execution);
    assert_eq!(ok(subvec, &[x.clone(), i(1), i(3)]), v(&[i(2), i(3)]));
    assert_eq!(ok(subvec, &[x.clone(), i(2)]), v(&[i(3), i(4)]));
    assert_eq!(ok(subvec, &[x.clone(), i(4)]), v(&[]));
    assert_eq!(err(subvec, &[x.clone(), i(3), i(2)]), ErrorKind::Execution);
    assert_eq!(err(subvec, &[x.clone(), i(0), i(5)]), ErrorKind::Execution);
    assert_eq!(err(subvec, &[x, i(-1)]), ErrorKind::Execution);
    assert_eq!(ok(vec, &[Value::Nil]), v(&[]));
    assert_eq!(ok(vec, &[s("")]), v(&[]));
    assert_eq!(ok(vec, &[st(&[i(2), i(1)])]), v(&[i(1), i(2)]));
    assert_eq!(ok(vector, &[]), v(&[]));
    assert_eq!(ok(list, &[i(1), i(2)]), v(&[i(1), i(2)]));
    assert_eq!(ok(rseq, &[v(&[i(1), i(2)])]), v(&[i(2), i(1)]));
    assert_eq!(ok(rseq, &[v(&[])]), Value::Nil);
}

#[test]
fn maps_and_sets_constructors() {
    assert_eq!(
        ok(hash_map, &[kw("a"), i(1), kw("b"), i(2)]),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(err(hash_map, &[kw("a")]), ErrorKind::Arity);
    assert_eq!(ok(hash_set, &[i(1), i(1), i(2)]), st(&[i(1), i(2)]));
    // The comparator orders the entries; its errors are the call's.
    let desc = Func::native(">", |_, a| {
        Ok(Value::Bool(args::int(">", &a[0])? > args::int(">", &a[1])?))
    });
    let Value::Map(by) = ok(sorted_map_by, &[desc.clone(), i(1), kw("a"), i(2), kw("b")]) else {
        panic!("sorted-map-by gives a map")
    };
    let keys: Vec<Value> = by.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, vec![i(2), i(1)]);
    assert_eq!(
        err(sorted_map_by, &[plus(), kw("b"), i(2), kw("a"), i(1)]),
        ErrorKind::Type
    );
    assert_eq!(err(sorted_map_by, &[i(1)]), ErrorKind::Type);
    assert_eq!(
        ok(sorted_set_by, &[desc, i(3), i(1), i(3)]),
        st(&[i(1), i(3)])
    );
    assert_eq!(
        err(sorted_set_by, &[plus(), kw("b"), kw("a")]),
        ErrorKind::Type
    );
    assert_eq!(ok(set, &[v(&[i(1), i(1), i(2)])]), st(&[i(1), i(2)]));
    assert_eq!(ok(disj, &[st(&[i(1), i(2)]), i(2)]), st(&[i(1)]));
    assert_eq!(ok(disj, &[Value::Nil, i(2)]), Value::Nil);
    assert_eq!(err(disj, &[v(&[]), i(2)]), ErrorKind::Type);
    assert_eq!(ok(empty, &[m(&[(kw("a"), i(1))])]), m(&[]));
    assert_eq!(ok(empty, &[i(1)]), Value::Nil);
}

#[test]
fn subseq_filters_by_compare() {
    let gt = Func::native(">", |_, a| {
        Ok(Value::Bool(args::int(">", &a[0])? > args::int(">", &a[1])?))
    });
    let le = Func::native("<=", |_, a| {
        Ok(Value::Bool(
            args::int("<=", &a[0])? <= args::int("<=", &a[1])?,
        ))
    });
    let x = st(&[i(1), i(2), i(3), i(4)]);
    assert_eq!(ok(subseq, &[x.clone(), gt.clone(), i(2)]), v(&[i(3), i(4)]));
    assert_eq!(
        ok(subseq, &[x.clone(), gt.clone(), i(1), le, i(3)]),
        v(&[i(2), i(3)])
    );
    let mm = m(&[(i(1), kw("a")), (i(5), kw("b"))]);
    assert_eq!(
        ok(subseq, &[mm, gt.clone(), i(2)]),
        v(&[v(&[i(5), kw("b")])])
    );
    assert_eq!(err(subseq, &[x, gt.clone(), i(1), gt]), ErrorKind::Arity);
}

#[test]
fn find_works_on_infinite_sequences() {
    use crate::value::LazySeq;
    let r = Value::lazy(LazySeq::Range {
        start: i(1),
        step: i(1),
    });
    let big = Func::native("big", |_, a| Ok(Value::Bool(args::int("big", &a[0])? > 10)));
    assert_eq!(ok(find, &[big, r.clone()]), i(11));
    assert_eq!(
        ok(zipmap, &[v(&[kw("a"), kw("b")]), r.clone()]),
        m(&[(kw("a"), i(1)), (kw("b"), i(2))])
    );
    assert_eq!(err(zipmap, &[r.clone(), r]), ErrorKind::LimitExceeded);
}

/// The reducing functions agents write add to their accumulator in place:
/// `into`, `merge`, `merge-with` and `disj` take their collection, and `fnil`, `partial`
/// and `comp` hand their arguments on. Each passed the default 10 MB heap
/// limit on 100,000 items (a copy of the vector's last chunk, or of the
/// set's table, charged per item), and a value the caller keeps is never
/// written.
#[test]
fn reducing_functions_add_to_their_accumulator_in_place() {
    for (src, want) in [
        ("(count (reduce (fnil conj []) [] (range 100000)))", "100000"),
        ("(count (reduce (partial conj) [] (range 100000)))", "100000"),
        ("(count (reduce (comp identity conj) [] (range 100000)))", "100000"),
        (
            "(count (get (reduce (fn [m x] (update m (mod x 10) (fnil conj []) x)) {} (range 100000)) 3))",
            "10000",
        ),
        ("(count (reduce (fn [acc x] (into acc [x x])) [] (range 100000)))", "200000"),
        ("(count (reduce into [] (partition 10 (range 100000))))", "100000"),
        ("(count (reduce merge {} (map (fn [i] {i i}) (range 50000))))", "50000"),
        ("(count (reduce disj (set (range 50000)) (range 50000)))", "0"),
        // Charged a step per entry of the accumulator, as the reference's
        // copy is (EVAL-STEPS-1): 4,000 items fit the default step limit,
        // and copying would take hundreds of MB.
        ("(count (reduce (fn [acc x] (merge-with + acc {x 1})) {} (range 4000)))", "4000"),
        // What the caller keeps.
        ("(let [v [1 2] f (fnil conj []) w (f v 3)] [v w (f nil 1)])", "[[1 2] [1 2 3] [1]]"),
        ("(let [v [1 2] f (partial conj v) w (f 3)] [v w (f 4)])", "[[1 2] [1 2 3] [1 2 4]]"),
        ("(let [v [1 2] f (comp count conj)] [(f v 3) v])", "[3 [1 2]]"),
        ("(let [a {:x 1} m (merge a {:y 2})] [a m (merge nil nil) (merge)])", "[{:x 1} {:x 1 :y 2} nil nil]"),
        ("(let [s #{1 2 3} t (disj s 2)] [s t (disj nil 1)])", "[#{1 2 3} #{1 3} nil]"),
        (
            "(let [a {:x 1} b (merge-with + a {:x 2 :y 3})] [a b (merge-with + nil) (merge-with + {:a 1} nil {:a 2})])",
            "[{:x 1} {:x 3 :y 3} nil {:a 3}]",
        ),
        ("(let [v [1] w (into v [2 3])] [v w (into) (into [1])])", "[[1] [1 2 3] [] [1]]"),
    ] {
        // No clock: the heap limit is the subject, not the machine's speed.
        let limits = crate::eval::Limits {
            timeout_ms: None,
            ..crate::eval::Limits::default()
        };
        let mut interp = Interp::new(Box::new(crate::eval::StaticHost::default()), limits);
        assert_eq!(interp.run_for_heap(src).0, want, "{src}");
    }
}
