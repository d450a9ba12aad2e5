//! Builtins: clojure.walk (`walk/postwalk`, `clojure.walk/keywordize-keys` …).
//!
//! `walk postwalk prewalk postwalk-replace prewalk-replace keywordize-keys
//! stringify-keys`.
//!
//! As in Clojure, walking a map visits its entries as `[k v]` vectors (and
//! their keys and values); whatever the function returns for an entry must
//! again be a `[k v]` pair. Each level of nesting takes one unit of the call
//! depth budget, so absurdly deep data ends in `limit-exceeded`, never in a
//! native stack overflow.

use super::args;
use super::{Arity, Builtin, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::{cost, Map, Set, Value, Vector};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("walk", Arity::exact(3), "Applies inner to each element of a collection (map entries as [k v]) and outer to the rebuilt collection: (walk inner outer form).", walk)
        .ns(Ns::Walk)
        .example("(walk/walk inc #(apply + %) [1 2]) ;=> 5"),
    Builtin::new("postwalk", Arity::exact(2), "Applies f to every nested value bottom-up (children before parents): (postwalk f form).", postwalk)
        .ns(Ns::Walk)
        .example("(walk/postwalk #(if (number? %) (inc %) %) {:a [1 2]}) ;=> {:a [2 3]}"),
    Builtin::new("prewalk", Arity::exact(2), "Applies f to every nested value top-down (parents before children): (prewalk f form).", prewalk)
        .ns(Ns::Walk)
        .example("(walk/prewalk #(if (map? %) (dissoc % :x) %) {:x 1 :y {:x 2}}) ;=> {:y {}}"),
    Builtin::new("postwalk-replace", Arity::exact(2), "Replaces every nested value that is a key of smap by its value, bottom-up: (postwalk-replace smap form).", postwalk_replace)
        .ns(Ns::Walk)
        .example("(walk/postwalk-replace {:a :b} [:a {:a 1}]) ;=> [:b {:b 1}]"),
    Builtin::new("prewalk-replace", Arity::exact(2), "Replaces every nested value that is a key of smap by its value, top-down: (prewalk-replace smap form).", prewalk_replace)
        .ns(Ns::Walk)
        .example("(walk/prewalk-replace {1 :one} [1 [1 2]]) ;=> [:one [:one 2]]"),
    Builtin::new("keywordize-keys", Arity::exact(1), "Turns string keys into keywords in all nested maps.", keywordize_keys)
        .ns(Ns::Walk)
        .example("(walk/keywordize-keys {\"a\" {\"b\" 1}}) ;=> {:a {:b 1}}"),
    Builtin::new("stringify-keys", Arity::exact(1), "Turns keyword keys into strings (their name) in all nested maps.", stringify_keys)
        .ns(Ns::Walk)
        .example("(walk/stringify-keys {:a {:b 1}}) ;=> {\"a\" {\"b\" 1}}"),
];

/// A step of a walk: `f` of postwalk, `inner` of walk …
type Visit<'a> = &'a mut dyn FnMut(&mut Interp, Value) -> Result<Value>;

/// Rebuilds a collection with `inner` applied to each child (map entries as
/// `[k v]`); other values are returned as they are.
fn map_children(interp: &mut Interp, fname: &str, form: Value, inner: Visit) -> Result<Value> {
    match form {
        Value::Vector(items) => {
            let mut out = Vector::new();
            for x in items.iter() {
                interp.tick(1)?;
                out.push_back(inner(interp, x.clone())?);
            }
            interp.alloc(cost::vector_bytes(out.len()))?;
            Ok(Value::vector(out))
        }
        Value::Map(m) => {
            let mut out = Map::new();
            for (k, v) in m.iter() {
                interp.tick(1)?;
                match inner(interp, Value::entry(k.clone(), v.clone()))? {
                    Value::Vector(e) if e.len() == 2 => {
                        out.insert(e[0].clone(), e[1].clone());
                    }
                    Value::Nil => {}
                    other => {
                        return Err(Error::type_error(format!(
                            "{fname}: a map entry must stay a [key value] pair, got {}",
                            other.describe()
                        ))
                        .with_hint("the function is also called on map entries [k v]; return them unchanged unless you mean to rewrite them"))
                    }
                }
            }
            interp.alloc(cost::map_bytes_like(&out, out.len()))?;
            Ok(Value::Map(out))
        }
        Value::Set(s) => {
            let mut out = Set::new();
            for x in s.iter() {
                interp.tick(1)?;
                out.insert(inner(interp, x.clone())?);
            }
            interp.alloc(cost::set_bytes(out.len()))?;
            Ok(Value::Set(out))
        }
        other => Ok(other),
    }
}

/// Runs `body` one level deeper in the call-depth budget.
fn nested<T>(interp: &mut Interp, body: impl FnOnce(&mut Interp) -> Result<T>) -> Result<T> {
    interp.budget.enter()?;
    let r = body(interp);
    interp.budget.leave();
    r
}

fn postwalk_with(interp: &mut Interp, fname: &str, form: Value, f: Visit) -> Result<Value> {
    nested(interp, |interp| {
        interp.tick(1)?;
        let walked = map_children(interp, fname, form, &mut |interp, x| {
            postwalk_with(interp, fname, x, &mut *f)
        })?;
        f(interp, walked)
    })
}

fn prewalk_with(interp: &mut Interp, fname: &str, form: Value, f: Visit) -> Result<Value> {
    nested(interp, |interp| {
        interp.tick(1)?;
        let x = f(interp, form)?;
        map_children(interp, fname, x, &mut |interp, c| {
            prewalk_with(interp, fname, c, &mut *f)
        })
    })
}

/// A PTC-Lisp function as a walk step.
fn calling(
    fname: &'static str,
    f: &Value,
) -> Result<impl FnMut(&mut Interp, Value) -> Result<Value>> {
    args::callable(fname, f)?;
    let f = f.clone();
    Ok(move |interp: &mut Interp, x: Value| interp.call(&f, &[x]))
}

fn walk(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut inner = calling("walk", &a[0])?;
    let mut outer = calling("walk", &a[1])?;
    let walked = map_children(interp, "walk", a[2].clone(), &mut inner)?;
    outer(interp, walked)
}

fn postwalk(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut f = calling("postwalk", &a[0])?;
    postwalk_with(interp, "postwalk", a[1].clone(), &mut f)
}

fn prewalk(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut f = calling("prewalk", &a[0])?;
    prewalk_with(interp, "prewalk", a[1].clone(), &mut f)
}

fn replacing(fname: &str, smap: &Value) -> Result<impl FnMut(&mut Interp, Value) -> Result<Value>> {
    let smap = args::map_or_nil(fname, smap)?;
    Ok(move |_: &mut Interp, x: Value| Ok(smap.get(&x).cloned().unwrap_or(x)))
}

fn postwalk_replace(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut f = replacing("postwalk-replace", &a[0])?;
    postwalk_with(interp, "postwalk-replace", a[1].clone(), &mut f)
}

fn prewalk_replace(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut f = replacing("prewalk-replace", &a[0])?;
    prewalk_with(interp, "prewalk-replace", a[1].clone(), &mut f)
}

/// Rewrites the keys of every map with `rekey` (keys it returns `None` for
/// stay as they are).
fn rekey_all(
    interp: &mut Interp,
    fname: &str,
    form: &Value,
    rekey: fn(&Value) -> Option<Value>,
) -> Result<Value> {
    let mut f = move |_: &mut Interp, x: Value| {
        Ok(match x {
            Value::Map(m) => Value::Map(
                m.into_iter()
                    .map(|(k, v)| (rekey(&k).unwrap_or(k), v))
                    .collect(),
            ),
            other => other,
        })
    };
    postwalk_with(interp, fname, form.clone(), &mut f)
}

fn keywordize_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    rekey_all(interp, "keywordize-keys", &a[0], |k| match k {
        Value::Str(s) => Some(Value::keyword(s.clone())),
        _ => None,
    })
}

fn stringify_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    rekey_all(interp, "stringify-keys", &a[0], |k| match k {
        Value::Keyword(s) => Some(Value::string(Value::keyword_name(s))),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{i, kw, m, s, v};
    use crate::error::ErrorKind;
    use crate::value::Func;

    fn ok(f: fn(&mut Interp, &[Value]) -> Result<Value>, a: &[Value]) -> Value {
        f(&mut Interp::standalone(), a).unwrap()
    }
    fn inc_numbers() -> Value {
        Func::native("f", |_, a| match &a[0] {
            Value::Int(n) => Ok(Value::Int(n + 1)),
            other => Ok(other.clone()),
        })
    }

    #[test]
    fn postwalk_and_prewalk() {
        let data = m(&[(kw("a"), v(&[i(1), i(2)])), (kw("b"), i(3))]);
        assert_eq!(
            ok(postwalk, &[inc_numbers(), data.clone()]),
            m(&[(kw("a"), v(&[i(2), i(3)])), (kw("b"), i(4))])
        );
        assert_eq!(
            ok(prewalk, &[inc_numbers(), data]),
            m(&[(kw("a"), v(&[i(2), i(3)])), (kw("b"), i(4))])
        );
        // postwalk sees every node bottom-up, map entries included.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        let rec = Func::native("rec", move |_, a| {
            if let Ok(mut l) = log.lock() {
                l.push(a[0].clone());
            }
            Ok(a[0].clone())
        });
        ok(postwalk, &[rec, m(&[(kw("a"), i(1))])]);
        let seen = seen.lock().unwrap().clone();
        assert_eq!(
            seen,
            vec![kw("a"), i(1), v(&[kw("a"), i(1)]), m(&[(kw("a"), i(1))])]
        );
    }

    #[test]
    fn entries_must_stay_pairs() {
        let bad = Func::native("bad", |_, a| match &a[0] {
            Value::Vector(_) => Ok(i(0)),
            other => Ok(other.clone()),
        });
        let e = postwalk(&mut Interp::standalone(), &[bad, m(&[(kw("a"), i(1))])]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.message().contains("postwalk"));
    }

    #[test]
    fn walk_once() {
        let sum = Func::native("sum", |_, a| {
            let mut t = 0;
            for x in a[0].as_vector().into_iter().flatten() {
                t += args::int("sum", x)?;
            }
            Ok(Value::Int(t))
        });
        assert_eq!(ok(walk, &[inc_numbers(), sum, v(&[i(1), i(2)])]), i(5));
        let ident = Func::native("identity", |_, a| Ok(a[0].clone()));
        assert_eq!(ok(walk, &[inc_numbers(), ident, i(7)]), i(7));
    }

    #[test]
    fn replace_and_rekey() {
        let smap = m(&[(kw("a"), kw("b"))]);
        assert_eq!(
            ok(
                postwalk_replace,
                &[smap.clone(), v(&[kw("a"), m(&[(kw("a"), i(1))])])]
            ),
            v(&[kw("b"), m(&[(kw("b"), i(1))])])
        );
        assert_eq!(
            ok(
                prewalk_replace,
                &[m(&[(i(1), kw("one"))]), v(&[i(1), v(&[i(1), i(2)])])]
            ),
            v(&[kw("one"), v(&[kw("one"), i(2)])])
        );
        let data = m(&[(s("a"), v(&[m(&[(s("b"), i(1)), (kw("c"), i(2))])]))]);
        assert_eq!(
            ok(keywordize_keys, &[data]),
            m(&[(kw("a"), v(&[m(&[(kw("b"), i(1)), (kw("c"), i(2))])]))])
        );
        assert_eq!(
            ok(stringify_keys, &[m(&[(kw("x/a"), m(&[(kw("b"), i(1))]))])]),
            m(&[(s("a"), m(&[(s("b"), i(1))]))])
        );
        assert_eq!(ok(keywordize_keys, &[Value::Nil]), Value::Nil);
    }

    #[test]
    fn deep_data_hits_the_depth_limit() {
        let mut deep = i(0);
        for _ in 0..5000 {
            deep = v(&[deep]);
        }
        let r = crate::eval::run_on_big_stack(move || {
            keywordize_keys(&mut Interp::standalone(), &[deep]).map_err(|e| e.kind())
        })
        .unwrap();
        assert_eq!(r.unwrap_err(), ErrorKind::LimitExceeded);
        let mut shallow = i(0);
        for _ in 0..100 {
            shallow = v(&[shallow]);
        }
        assert_eq!(
            ok(postwalk, &[inc_numbers(), shallow.clone()])
                .as_vector()
                .map(|x| x.len()),
            Some(1)
        );
    }
}
