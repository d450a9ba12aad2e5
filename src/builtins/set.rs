//! Builtins: clojure.set (`set/union`, `clojure.set/union` …).
//!
//! `union intersection difference subset? superset? select project rename
//! rename-keys map-invert index join`.
//!
//! The set operations take sets; `nil` is the empty set, and a vector is read
//! as the set of its items (lenient: Clojure's result for vectors is an
//! accident of `conj`). Relations (`project`, `rename`, `index`, `join`) are
//! any collection of maps; their results are sets, as in Clojure.

use super::args;
use super::{Arity, Builtin, Ns};
use crate::error::Result;
use crate::eval::Interp;
use crate::value::{cost, Map, Set, Value};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("union", Arity::at_least(0), "Set of the elements of all the sets.", union)
        .ns(Ns::Set)
        .example("(set/union #{1 2} #{2 3}) ;=> #{1 2 3}"),
    Builtin::new("intersection", Arity::at_least(1), "Set of the elements in every set.", intersection)
        .ns(Ns::Set)
        .example("(set/intersection #{1 2} #{2 3}) ;=> #{2}"),
    Builtin::new("difference", Arity::at_least(1), "Elements of the first set that are in none of the others.", difference)
        .ns(Ns::Set)
        .example("(set/difference #{1 2 3} #{2}) ;=> #{1 3}"),
    Builtin::new("subset?", Arity::exact(2), "Whether every element of the first set is in the second.", subset)
        .ns(Ns::Set)
        .example("(set/subset? #{1} #{1 2}) ;=> true"),
    Builtin::new("superset?", Arity::exact(2), "Whether the first set contains every element of the second.", superset)
        .ns(Ns::Set)
        .example("(set/superset? #{1 2} #{1}) ;=> true"),
    Builtin::new("select", Arity::exact(2), "Set of the elements for which pred is truthy: (select pred set).", select)
        .ns(Ns::Set)
        .example("(set/select even? #{1 2 4}) ;=> #{2 4}"),
    Builtin::new("project", Arity::exact(2), "Set of the maps of a relation cut to the given keys: (project rel ks).", project)
        .ns(Ns::Set)
        .example("(set/project [{:a 1 :b 2}] [:a]) ;=> #{{:a 1}}"),
    Builtin::new("rename-keys", Arity::exact(2), "Map with keys renamed by a {old new} map.", rename_keys)
        .ns(Ns::Set)
        .example("(set/rename-keys {:a 1 :b 2} {:a :x}) ;=> {:b 2 :x 1}"),
    Builtin::new("rename", Arity::exact(2), "Set of the maps of a relation with keys renamed by a {old new} map.", rename)
        .ns(Ns::Set)
        .example("(set/rename #{{:a 1}} {:a :x}) ;=> #{{:x 1}}"),
    Builtin::new("map-invert", Arity::exact(1), "Map with keys and values swapped.", map_invert)
        .ns(Ns::Set)
        .example("(set/map-invert {:a 1}) ;=> {1 :a}"),
    Builtin::new("index", Arity::exact(2), "Map from the values at the given keys ({k v} maps) to the set of maps of the relation having them.", index)
        .ns(Ns::Set)
        .example("(set/index [{:t 1 :n \"a\"}] [:t]) ;=> {{:t 1} #{{:t 1 :n \"a\"}}}"),
    Builtin::new("join", Arity::range(2, 3), "Natural join of two relations on their shared keys, or on a {left-key right-key} map.", join)
        .ns(Ns::Set)
        .example("(set/join [{:id 1 :a 1}] [{:id 1 :b 2}]) ;=> #{{:id 1 :a 1 :b 2}}"),
];

/// A set argument: sets, nil (empty) and vectors (their items).
fn set_arg(fname: &str, v: &Value) -> Result<Set> {
    match v {
        Value::Set(s) => Ok(s.clone()),
        Value::Nil => Ok(Set::new()),
        Value::Vector(items) => Ok(items.iter().cloned().collect()),
        other => Err(args::type_error(fname, "a set", other)),
    }
}

fn map_arg(fname: &str, v: &Value) -> Result<Map> {
    args::map_or_nil(fname, v)
}

/// The maps of a relation (any collection of maps).
fn relation(fname: &str, v: &Value) -> Result<Vec<Map>> {
    args::items(fname, v)?
        .iter()
        .map(|x| match x {
            Value::Map(m) => Ok(m.clone()),
            Value::Nil => Ok(Map::new()),
            other => Err(args::type_error(fname, "a collection of maps", other)),
        })
        .collect()
}

fn union(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut out = Set::new();
    for x in a {
        let s = set_arg("union", x)?;
        interp.tick(s.len() as u64)?;
        if out.is_empty() {
            out = s;
        } else {
            let before = out.len().max(s.len());
            out = out.union(s);
            interp.alloc(cost::set_growth(before, out.len()))?;
        }
    }
    Ok(Value::Set(out))
}

fn intersection(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut out = set_arg("intersection", &a[0])?;
    for x in &a[1..] {
        let s = set_arg("intersection", x)?;
        interp.tick(out.len() as u64)?;
        out = out
            .iter_unordered()
            .filter(|e| s.contains(e))
            .cloned()
            .collect();
    }
    Ok(Value::Set(out))
}

fn difference(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut out = set_arg("difference", &a[0])?;
    for x in &a[1..] {
        let s = set_arg("difference", x)?;
        interp.tick(s.len() as u64)?;
        for e in s.iter_unordered() {
            out.remove(e);
        }
    }
    Ok(Value::Set(out))
}

fn is_subset(interp: &mut Interp, fname: &str, small: &Value, big: &Value) -> Result<Value> {
    let small = set_arg(fname, small)?;
    let big = set_arg(fname, big)?;
    interp.tick(small.len() as u64)?;
    Ok(Value::Bool(small.is_subset(&big)))
}

fn subset(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    is_subset(interp, "subset?", &a[0], &a[1])
}

fn superset(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    is_subset(interp, "superset?", &a[1], &a[0])
}

fn select(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("select", &a[0])?;
    let s = set_arg("select", &a[1])?;
    let mut out = Set::new();
    for e in s {
        interp.tick(1)?;
        if interp.call(&a[0], std::slice::from_ref(&e))?.truthy() {
            out.insert(e);
        }
    }
    Ok(Value::Set(out))
}

/// `select-keys` with exact keys.
fn select_keys(m: &Map, ks: &[Value]) -> Map {
    ks.iter()
        .filter_map(|k| m.get(k).map(|v| (k.clone(), v.clone())))
        .collect()
}

fn project(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let rel = relation("project", &a[0])?;
    let ks: Vec<Value> = args::items("project", &a[1])?.into_iter().collect();
    let mut out = Set::new();
    for m in &rel {
        interp.tick(1)?;
        let selected = select_keys(m, &ks);
        interp.alloc(cost::map_bytes(selected.len()) + cost::set_insert(out.len()))?;
        out.insert(Value::Map(selected));
    }
    Ok(Value::Set(out))
}

fn rename_map(interp: &mut Interp, m: &Map, kmap: &Map) -> Result<Map> {
    interp.tick(kmap.len() as u64)?;
    let mut out = m.clone();
    for old in kmap.keys() {
        out.remove(old);
    }
    for (old, new) in kmap.iter() {
        if let Some(v) = m.get(old) {
            out.insert(new.clone(), v.clone());
        }
    }
    // A copy of `m` (charged as it is made: copy on write), the keys
    // renamed (a renamed key goes last).
    interp.alloc(cost::map_growth_like(m, m.len(), out.len()))?;
    Ok(out)
}

fn rename_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if a[0].is_nil() {
        return Ok(Value::Nil);
    }
    let m = map_arg("rename-keys", &a[0])?;
    let kmap = map_arg("rename-keys", &a[1])?;
    Ok(Value::Map(rename_map(interp, &m, &kmap)?))
}

fn rename(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let rel = relation("rename", &a[0])?;
    let kmap = map_arg("rename", &a[1])?;
    let mut out = Set::new();
    for m in &rel {
        out.insert(Value::Map(rename_map(interp, m, &kmap)?));
    }
    Ok(Value::Set(out))
}

fn invert(m: &Map) -> Map {
    m.iter().map(|(k, v)| (v.clone(), k.clone())).collect()
}

fn map_invert(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = map_arg("map-invert", &a[0])?;
    interp.tick(m.len() as u64)?;
    interp.alloc(cost::map_bytes(m.len()))?;
    Ok(Value::Map(invert(&m)))
}

/// `(index rel ks)` as a Rust map from projected key maps to sets of maps.
fn index_of(interp: &mut Interp, rel: &[Map], ks: &[Value]) -> Result<Map> {
    let mut out = Map::new();
    for m in rel {
        interp.tick(1)?;
        let selected = select_keys(m, ks);
        let key_bytes = cost::map_bytes(selected.len());
        let before = out.len();
        let entry = out
            .entry(Value::Map(selected))
            .or_insert_with(|| Value::Set(Set::new()));
        let mut bytes = 0;
        if let Value::Set(s) = entry {
            let members = s.len();
            s.insert(Value::Map(m.clone()));
            bytes += cost::set_growth(members, s.len());
        }
        if out.len() > before {
            // A new key: its map and its entry.
            bytes += key_bytes + cost::map_growth(before, out.len());
        }
        interp.alloc(bytes)?;
    }
    Ok(out)
}

fn index(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let rel = relation("index", &a[0])?;
    let ks: Vec<Value> = args::items("index", &a[1])?.into_iter().collect();
    Ok(Value::Map(index_of(interp, &rel, &ks)?))
}

/// Merges the matches `found` (a set of maps) with `x` into `out`.
fn add_joined(interp: &mut Interp, out: &mut Set, found: Option<&Value>, x: &Map) -> Result<()> {
    if let Some(Value::Set(found)) = found {
        for y in found.iter() {
            if let Value::Map(y) = y {
                interp.tick(1)?;
                // Clojure's (merge y x): y's keys first, x's values win.
                let mut joined = y.clone();
                for (k, v) in x.iter() {
                    joined.insert(k.clone(), v.clone());
                }
                // The copy of `y` is charged as it is made (copy on write).
                interp.alloc(
                    cost::map_growth_like(y, y.len(), joined.len()) + cost::set_insert(out.len()),
                )?;
                out.insert(Value::Map(joined));
            }
        }
    }
    Ok(())
}

fn join(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let xrel = relation("join", &a[0])?;
    let yrel = relation("join", &a[1])?;
    let mut out = Set::new();
    match a.get(2) {
        None => {
            let (Some(x0), Some(y0)) = (xrel.first(), yrel.first()) else {
                return Ok(Value::Set(out));
            };
            let ks: Vec<Value> = x0.keys().filter(|k| y0.contains_key(k)).cloned().collect();
            let (r, s) = if xrel.len() <= yrel.len() {
                (&xrel, &yrel)
            } else {
                (&yrel, &xrel)
            };
            let idx = index_of(interp, r, &ks)?;
            for x in s {
                interp.tick(1)?;
                let found = idx.get(&Value::Map(select_keys(x, &ks)));
                add_joined(interp, &mut out, found, x)?;
            }
        }
        Some(km) => {
            let km = map_arg("join", km)?;
            let (r, s, k) = if xrel.len() <= yrel.len() {
                (&xrel, &yrel, invert(&km))
            } else {
                (&yrel, &xrel, km)
            };
            let idx_keys: Vec<Value> = k.values().cloned().collect();
            let sel_keys: Vec<Value> = k.keys().cloned().collect();
            let idx = index_of(interp, r, &idx_keys)?;
            for x in s {
                interp.tick(1)?;
                let key = rename_map(interp, &select_keys(x, &sel_keys), &k)?;
                let found = idx.get(&Value::Map(key));
                add_joined(interp, &mut out, found, x)?;
            }
        }
    }
    Ok(Value::Set(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{i, kw, m, v};
    use crate::error::ErrorKind;
    use crate::value::Func;

    fn st(items: &[Value]) -> Value {
        Value::set_from(items.iter().cloned())
    }
    fn ok(f: fn(&mut Interp, &[Value]) -> Result<Value>, a: &[Value]) -> Value {
        f(&mut Interp::standalone(), a).unwrap()
    }

    #[test]
    fn set_algebra() {
        assert_eq!(ok(union, &[]), st(&[]));
        assert_eq!(
            ok(union, &[st(&[i(1), i(2)]), st(&[i(2), i(3)])]),
            st(&[i(1), i(2), i(3)])
        );
        assert_eq!(
            ok(
                intersection,
                &[st(&[i(1), i(2)]), st(&[i(2), i(3)]), st(&[i(2), i(4)])]
            ),
            st(&[i(2)])
        );
        assert_eq!(ok(difference, &[st(&[i(1), i(2)])]), st(&[i(1), i(2)]));
        assert_eq!(
            ok(
                difference,
                &[st(&[i(1), i(2), i(3)]), st(&[i(2)]), st(&[i(3)])]
            ),
            st(&[i(1)])
        );
        assert_eq!(ok(union, &[Value::Nil, v(&[i(1)])]), st(&[i(1)]));
        assert_eq!(
            union(&mut Interp::standalone(), &[i(1)])
                .unwrap_err()
                .kind(),
            ErrorKind::Type
        );
        assert_eq!(
            ok(subset, &[st(&[i(1)]), st(&[i(1), i(2)])]),
            Value::Bool(true)
        );
        assert_eq!(
            ok(subset, &[st(&[i(3)]), st(&[i(1), i(2)])]),
            Value::Bool(false)
        );
        assert_eq!(
            ok(superset, &[st(&[i(1), i(2)]), st(&[i(1)])]),
            Value::Bool(true)
        );
        let even = Func::native("even?", |_, a| {
            Ok(Value::Bool(args::int("even?", &a[0])? % 2 == 0))
        });
        assert_eq!(
            ok(select, &[even, st(&[i(1), i(2), i(4)])]),
            st(&[i(2), i(4)])
        );
    }

    #[test]
    fn arities_match_clojure() {
        let b = crate::builtins::lookup_in(Ns::Set, "intersection").unwrap();
        assert!(!b.arity.accepts(0));
        let b = crate::builtins::lookup_in(Ns::Set, "difference").unwrap();
        assert!(!b.arity.accepts(0));
        let b = crate::builtins::lookup_in(Ns::Set, "union").unwrap();
        assert!(b.arity.accepts(0));
    }

    #[test]
    fn relations() {
        let rel = v(&[
            m(&[(kw("a"), i(1)), (kw("b"), i(2))]),
            m(&[(kw("a"), i(1)), (kw("b"), i(3))]),
        ]);
        assert_eq!(
            ok(project, &[rel.clone(), v(&[kw("a")])]),
            st(&[m(&[(kw("a"), i(1))])])
        );
        assert_eq!(
            ok(
                rename_keys,
                &[
                    m(&[(kw("a"), i(1)), (kw("b"), i(2))]),
                    m(&[(kw("a"), kw("b")), (kw("b"), kw("a"))])
                ]
            ),
            m(&[(kw("a"), i(2)), (kw("b"), i(1))])
        );
        assert_eq!(
            ok(
                rename,
                &[v(&[m(&[(kw("a"), i(1))])]), m(&[(kw("a"), kw("x"))])]
            ),
            st(&[m(&[(kw("x"), i(1))])])
        );
        assert_eq!(
            ok(map_invert, &[m(&[(kw("a"), i(1))])]),
            m(&[(i(1), kw("a"))])
        );
        assert_eq!(
            ok(index, &[rel.clone(), v(&[kw("a")])]),
            m(&[(
                m(&[(kw("a"), i(1))]),
                st(&[
                    m(&[(kw("a"), i(1)), (kw("b"), i(2))]),
                    m(&[(kw("a"), i(1)), (kw("b"), i(3))]),
                ])
            )])
        );
    }

    #[test]
    fn joins() {
        let people = v(&[
            m(&[(kw("id"), i(1)), (kw("name"), kw("ann"))]),
            m(&[(kw("id"), i(2)), (kw("name"), kw("bo"))]),
        ]);
        let orders = v(&[
            m(&[(kw("id"), i(1)), (kw("total"), i(10))]),
            m(&[(kw("id"), i(1)), (kw("total"), i(20))]),
            m(&[(kw("id"), i(3)), (kw("total"), i(30))]),
        ]);
        assert_eq!(
            ok(join, &[people.clone(), orders.clone()]),
            st(&[
                m(&[
                    (kw("id"), i(1)),
                    (kw("name"), kw("ann")),
                    (kw("total"), i(10))
                ]),
                m(&[
                    (kw("id"), i(1)),
                    (kw("name"), kw("ann")),
                    (kw("total"), i(20))
                ]),
            ])
        );
        assert_eq!(ok(join, &[people.clone(), v(&[])]), st(&[]));
        let buyers = v(&[m(&[(kw("buyer"), i(2)), (kw("item"), kw("pen"))])]);
        assert_eq!(
            ok(join, &[people, buyers, m(&[(kw("id"), kw("buyer"))])]),
            st(&[m(&[
                (kw("id"), i(2)),
                (kw("name"), kw("bo")),
                (kw("buyer"), i(2)),
                (kw("item"), kw("pen"))
            ])])
        );
    }
}
