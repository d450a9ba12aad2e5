//! Builtins: collections and maps (clojure.core).
//!
//! `count get get-in assoc assoc-in dissoc update update-in update-keys
//! update-vals conj into empty keys vals key val merge merge-with select-keys
//! zipmap find contains? peek pop subvec vec vector list hash-map hash-set
//! array-map sorted-map sorted-map-by sorted-set sorted-set-by subseq rseq set
//! disj`.
//!
//! Decisions (`language.md`):
//! * `get`, `get-in` use the keyword ⇄ string key fallback
//!   ([`crate::eval::lookup`]); the writing functions (`assoc-in`, `update`,
//!   `update-in`, `select-keys`, `contains?`, `find`, `dissoc`) use exact keys,
//!   as Clojure does, so they never write under a key other than the one given.
//! * `contains?` on a vector tests membership; `find` with a first argument
//!   that is not a map is `(find pred coll)`: the first matching item.
//! * Maps keep the order their keys were first added (`format.md` F-2);
//!   `sorted-map`/`sorted-map-by` build a map that keeps its keys in the
//!   canonical order instead. Sets are always in canonical order, so
//!   `sorted-set` is a plain set.
//! * **sorted-map-by** (issue 23): the comparator is the program's 2-argument
//!   function answering a boolean "comes first" (`<`, `>`) or a number
//!   (`compare`), as `sort` reads it. `sorted-map-by` calls it to order the
//!   entries (a stable merge sort, one step per comparison; an error or an
//!   answer of another type is the call's error) and gives a map in
//!   insertion order holding the entries in that order; keys it finds equal
//!   are one key (the first given, the last value). The comparator is not
//!   kept in the map: a key added later (`assoc`, `conj`, `merge`) goes at
//!   the end, as in any insertion-ordered map, so build the map whole:
//!   `(apply sorted-map-by cmp kvs)`. `sorted-set-by` calls
//!   the comparator the same way to keep one of the elements it finds
//!   equal, but the set stays in the canonical order of every set (sets
//!   have no other order); use `(sort cmp coll)` for a sequence in its
//!   order.
//! * `keys`/`vals` of `nil` or an empty map are `nil` (Clojure); they also
//!   accept a sequence of `[k v]` entries (what `filter` over a map gives).

use std::cmp::Ordering;

mod adding;
mod build;
mod entry_count;
mod maps;
#[cfg(test)]
mod steps_tests;
#[cfg(test)]
mod tests;

use adding::*;
use build::*;
use maps::*;

pub(crate) use entry_count::of_entries;
pub(crate) use maps::update_parts;

use super::args;
use super::{Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::iter::SeqIter;
use crate::eval::{lookup, lookup_ref, Interp};
use crate::value::order::{compare_values, lisp_equal};
use crate::value::{cost, Map, Set, Value, Vector};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("count", Arity::exact(1), "Number of items in a collection or characters in a string (nil is 0).", count)
        .example("(count [1 2 3]) ;=> 3"),
    Builtin::new("get", Arity::range(2, 3), "Value at a key (maps; a missing keyword key falls back to the same-named string key and back), index (vectors, strings) or member (sets); nil or the default when absent.", get)
        .example("(get {:a 1} :b 0) ;=> 0"),
    Builtin::new("get-in", Arity::range(2, 3), "Value at a path of keys in nested maps/vectors (with keyword/string key fallback); nil or the default when absent.", get_in)
        .example("(get-in {:user {:name \"A\"}} [:user :name]) ;=> \"A\""),
    Builtin::new("assoc", Arity::at_least(3), "Map with keys set to values, or vector with indexes replaced (index = count appends).", assoc)
        .example("(assoc {:a 1} :b 2) ;=> {:a 1 :b 2}")
        .owned(assoc_owned),
    Builtin::new("assoc-in", Arity::exact(3), "Sets the value at a path of keys, creating maps as needed.", assoc_in)
        .example("(assoc-in {} [:user :name] \"Bob\") ;=> {:user {:name \"Bob\"}}")
        .owned(assoc_in_owned),
    Builtin::new("dissoc", Arity::at_least(1), "Map without the given keys.", dissoc)
        .example("(dissoc {:a 1 :b 2} :b) ;=> {:a 1}")
        .owned(dissoc_owned),
    Builtin::new("update", Arity::at_least(3), "Replaces the value at a key with (f old-value & args).", update)
        .example("(update {:n 1} :n inc) ;=> {:n 2}")
        .owned(update_owned),
    Builtin::new("update-in", Arity::at_least(3), "Replaces the value at a path of keys with (f old-value & args), creating maps as needed.", update_in)
        .example("(update-in {:a {:b 1}} [:a :b] + 10) ;=> {:a {:b 11}}")
        .owned(update_in_owned),
    Builtin::new("update-keys", Arity::exact(2), "Map with f applied to every key: (update-keys m f).", update_keys)
        .example("(update-keys {:a 1} name) ;=> {\"a\" 1}"),
    Builtin::new("update-vals", Arity::exact(2), "Map with f applied to every value: (update-vals m f).", update_vals)
        .example("(update-vals {:a 1 :b 2} inc) ;=> {:a 2 :b 3}"),
    Builtin::new("conj", Arity::at_least(0), "Adds items: at the end of a vector (nil gives a vector), to a set, or [k v] entries/maps to a map.", conj)
        .example("(conj [1 2] 3) ;=> [1 2 3]")
        .owned(conj_owned),
    Builtin::new("into", Arity::range(0, 3), "Adds every item of the last collection to the first (maps take [k v] pairs); (into to xform from) transforms them first.", into)
        .example("(into {} [[:a 1] [:b 2]]) ;=> {:a 1 :b 2}")
        .owned(into_owned),
    Builtin::new("empty", Arity::exact(1), "An empty collection of the same type (nil for non-collections).", empty)
        .example("(empty {:a 1}) ;=> {}"),
    Builtin::new("keys", Arity::exact(1), "The keys of a map in the order they were added (nil when empty).", keys)
        .example("(keys {:a 1 :b 2}) ;=> [:a :b]"),
    Builtin::new("vals", Arity::exact(1), "The values of a map in the order their keys were added (nil when empty).", vals)
        .example("(vals {:a 1 :b 2}) ;=> [1 2]"),
    Builtin::new("key", Arity::exact(1), "The key of a map entry [k v].", key)
        .example("(key (first {:a 1})) ;=> :a"),
    Builtin::new("val", Arity::exact(1), "The value of a map entry [k v].", val)
        .example("(val (first {:a 1})) ;=> 1"),
    Builtin::new("merge", Arity::at_least(0), "Merges maps left to right; later keys win (nil when all are nil).", merge)
        .example("(merge {:a 1} {:b 2} {:a 3}) ;=> {:a 3 :b 2}")
        .owned(merge_owned),
    Builtin::new("merge-with", Arity::at_least(1), "Merges maps; values of keys in several maps are combined with (f old new).", merge_with)
        .example("(merge-with + {:a 1} {:a 2 :b 3}) ;=> {:a 3 :b 3}")
        .owned(merge_with_owned),
    Builtin::new("select-keys", Arity::exact(2), "Map of only the given keys that are present (exact keys).", select_keys)
        .example("(select-keys {:a 1 :b 2 :c 3} [:a :c]) ;=> {:a 1 :c 3}"),
    Builtin::new("zip", Arity::exact(2), "PTC-Lisp: pairs [a b] of two sequences, item by item (shortest wins).", zip)
        .example("(zip [1 2] [:a :b]) ;=> [[1 :a] [2 :b]]"),
    Builtin::new("entries", Arity::exact(1), "PTC-Lisp: the [k v] entries of a map, in key order.", entries)
        .example("(entries {:b 2 :a 1}) ;=> [[:a 1] [:b 2]]"),
    Builtin::new("zipmap", Arity::exact(2), "Map from a sequence of keys and a sequence of values (shortest wins).", zipmap)
        .example("(zipmap [:a :b] [1 2]) ;=> {:a 1 :b 2}"),
    Builtin::new("find", Arity::exact(2), "(find map key) gives the entry [key value] or nil; (find pred coll) gives the first item for which pred is truthy.", find)
        .example("(find even? [1 4 5]) ;=> 4"),
    Builtin::new("contains?", Arity::exact(2), "Whether a map has the key (exact), a set has the element, or a vector contains the value (membership).", contains)
        .example("(contains? {:a nil} :a) ;=> true"),
    Builtin::new("peek", Arity::exact(1), "Last item of a vector (nil when empty).", peek)
        .example("(peek [1 2 3]) ;=> 3"),
    Builtin::new("pop", Arity::exact(1), "Vector without its last item.", pop)
        .example("(pop [1 2 3]) ;=> [1 2]"),
    Builtin::new("subvec", Arity::range(2, 3), "Items of a vector from start (inclusive) to end (exclusive, default the end).", subvec)
        .example("(subvec [1 2 3 4] 1 3) ;=> [2 3]"),
    Builtin::new("vec", Arity::exact(1), "A vector of the items of a collection (maps give [k v] entries).", vec)
        .example("(vec #{1 2}) ;=> [1 2]"),
    Builtin::new("vector", Arity::at_least(0), "A vector of the arguments.", vector)
        .example("(vector 1 2) ;=> [1 2]"),
    Builtin::new("list", Arity::at_least(0), "A sequence of the arguments (lists are vectors in PTC-Lisp).", list)
        .example("(list 1 2) ;=> [1 2]"),
    Builtin::new("hash-map", Arity::at_least(0), "A map of key value pairs.", hash_map)
        .example("(hash-map :a 1 :b 2) ;=> {:a 1 :b 2}"),
    Builtin::new("array-map", Arity::at_least(0), "A map of key value pairs (same as hash-map).", hash_map)
        .example("(array-map :a 1) ;=> {:a 1}"),
    Builtin::new("hash-set", Arity::at_least(0), "A set of the arguments.", hash_set)
        .example("(hash-set 1 2 2) ;=> #{1 2}"),
    Builtin::new("sorted-map", Arity::at_least(0), "A map of key value pairs that keeps its keys in ascending order (through assoc, dissoc, into).", sorted_map)
        .example("(sorted-map :b 2 :a 1) ;=> {:a 1 :b 2}"),
    Builtin::new("sorted-map-by", Arity::at_least(1), "A map of key value pairs in the comparator's order (a 2-argument fn giving a boolean like > or a number like compare); keys added later go at the end.", sorted_map_by)
        .example("(sorted-map-by > 1 :a 2 :b) ;=> {2 :b 1 :a}"),
    Builtin::new("sorted-set", Arity::at_least(0), "A set of the arguments (every set iterates in ascending order).", hash_set)
        .example("(sorted-set 3 1 2) ;=> #{1 2 3}"),
    Builtin::new("sorted-set-by", Arity::at_least(1), "A set of the arguments, one of those the comparator finds equal; sets always iterate in ascending order (use (sort cmp coll) for another order).", sorted_set_by)
        .example("(sorted-set-by compare 3 1) ;=> #{1 3}"),
    Builtin::new("subseq", Arity::range(3, 5), "Items of a map (entries, by key) or set whose key satisfies (test (compare key k) 0): (subseq coll test k) or (subseq coll start-test start-k end-test end-k).", subseq)
        .example("(subseq (sorted-set 1 2 3 4) > 2) ;=> [3 4]"),
    Builtin::new("rseq", Arity::exact(1), "Items of a vector, map (entries) or set in reverse order (nil when empty).", rseq)
        .example("(rseq [1 2 3]) ;=> [3 2 1]"),
    Builtin::new("set", Arity::exact(1), "A set of the items of a collection.", set)
        .example("(set [1 1 2]) ;=> #{1 2}"),
    Builtin::new("disj", Arity::at_least(1), "Set without the given elements.", disj)
        .example("(disj #{1 2 3} 2) ;=> #{1 3}")
        .owned(disj_owned),
];

// ---------------------------------------------------------------- helpers

fn n64(n: usize) -> u64 {
    n as u64
}

/// The set of `items`, charged as its table grows (HEAP-COST-1): equal
/// items cost nothing, and a set that outgrows the heap stops at the
/// table that passes it.
fn charged_set(interp: &mut Interp, items: impl IntoIterator<Item = Value>) -> Result<Set> {
    let mut out = Set::new();
    // A duplicate adds nothing: no charge to compute.
    out.insert_all(items, |before, after| {
        interp.alloc(cost::set_growth(before, after))
    })?;
    Ok(out)
}

/// `(get coll k)` with exact keys: what the writing functions read.
fn get_exact(coll: &Value, k: &Value) -> Value {
    match coll {
        Value::Map(m) => m.get(k).cloned().unwrap_or(Value::Nil),
        Value::Vector(v) => match k {
            Value::Int(i) if *i >= 0 => v.get(*i as usize).cloned().unwrap_or(Value::Nil),
            _ => Value::Nil,
        },
        _ => Value::Nil,
    }
}

/// [`get_exact`] on a collection the caller owns: a map's value is taken
/// out (see [`Map::take_value`]), so updating it does not copy it.
fn take_exact(coll: &mut Value, k: &Value) -> Value {
    match coll {
        Value::Map(m) => m.take_value(k).unwrap_or(Value::Nil),
        other => get_exact(other, k),
    }
}

/// `(assoc coll k v)` for one pair: maps (nil is an empty map) and vectors.
fn assoc1(fname: &str, coll: Value, k: Value, v: Value) -> Result<Value> {
    match coll {
        Value::Map(mut m) => {
            m.insert(k, v);
            Ok(Value::Map(m))
        }
        Value::Nil => Ok(Value::Map(Map::unit(k, v))),
        Value::Vector(mut items) => {
            let i = match k {
                Value::Int(i) => i,
                other => {
                    return Err(Error::type_error(format!(
                        "{fname} on a vector expects an integer index, got {}",
                        other.describe()
                    ))
                    .with_hint(
                        "vectors are indexed by position; to use keys, start from a map {}",
                    ))
                }
            };
            let len = items.len();
            if i < 0 || i as u64 > n64(len) {
                return Err(Error::execution(format!(
                    "{fname} index {i} is out of bounds for a vector of {len} items"
                ))
                .with_hint("an index can replace an item (0 to count-1) or append (count); use conj to add at the end"));
            }
            let i = i as usize;
            if i == len {
                items.push_back(v);
            } else {
                items.set(i, v);
            }
            Ok(Value::vector(items))
        }
        other => Err(args::type_error(fname, "a map or a vector", &other)),
    }
}

/// A path of keys (`get-in`, `assoc-in`, `update-in`): a vector, or nil.
fn path(fname: &str, ks: &Value) -> Result<Vector> {
    match ks {
        Value::Vector(v) => Ok(v.clone()),
        Value::Nil => Ok(Vector::new()),
        Value::Set(_) | Value::Str(_) | Value::Map(_) => args::items(fname, ks),
        other => Err(
            args::type_error(fname, "a vector of keys (a path)", other).with_hint(format!(
                "write the path as a vector, e.g. ({fname} m [:a :b] ...)"
            )),
        ),
    }
}

/// Replaces the value at path `ks` (exact keys) with `leaf(old)`, creating
/// maps on the way. An empty path is the path `[nil]` (Clojure).
///
/// `m` is owned: every level of the path is taken out of its parent on the
/// way down ([`take_exact`]), so with an unshared `m` (a moved `reduce`
/// accumulator) the whole path is updated in place.
fn update_path(
    interp: &mut Interp,
    fname: &str,
    m: Value,
    ks: &Value,
    leaf: impl FnOnce(&mut Interp, Value) -> Result<Value>,
) -> Result<Value> {
    let mut keys = path(fname, ks)?;
    if keys.is_empty() {
        keys.push_back(Value::Nil);
    }
    interp.tick(n64(keys.len()))?;
    let mut m = m;
    if let Some(slot) = existing_path(&mut m, &keys) {
        // Every key exists in a map: change the value where it is.
        let old = Value::take(slot);
        *slot = leaf(interp, old)?;
        return Ok(m);
    }
    let mut containers = Vec::with_capacity(keys.len());
    let mut cur = m;
    for k in keys.iter() {
        let next = take_exact(&mut cur, k);
        containers.push(cur);
        cur = next;
    }
    let mut new = leaf(interp, cur)?;
    let mut bytes = 0;
    for (c, k) in containers.into_iter().zip(keys.iter()).rev() {
        let before = cost::collection_len(&c);
        new = assoc1(fname, c, k.clone(), new)?;
        bytes += cost::growth_of(&new, before);
    }
    interp.alloc(bytes)?;
    Ok(new)
}

/// The value at `keys` when every level is a map holding the next key
/// (copying shared levels on the way, as an update would anyway).
fn existing_path<'a>(m: &'a mut Value, keys: &Vector) -> Option<&'a mut Value> {
    let mut cur = m;
    for k in keys.iter() {
        match cur {
            Value::Map(map) => cur = map.get_mut(k)?,
            _ => return None,
        }
    }
    Some(cur)
}

/// A collection being added to by `conj`, `into`, `merge`.
enum Acc {
    Vec(Vector),
    Map(Map),
    Set(Set),
}

impl Acc {
    fn new(fname: &str, v: &Value) -> Result<Acc> {
        match v {
            Value::Nil => Ok(Acc::Vec(Vector::new())),
            Value::Vector(items) => Ok(Acc::Vec(items.clone())),
            Value::Map(m) => Ok(Acc::Map(m.clone())),
            Value::Set(s) => Ok(Acc::Set(s.clone())),
            other => Err(args::type_error(
                fname,
                "a collection to add to (vector, map, set or nil)",
                other,
            )),
        }
    }

    /// Like [`Acc::new`], taking the collection (no copy when unshared).
    fn owned(fname: &str, v: Value) -> Result<Acc> {
        match v {
            Value::Vector(items) => Ok(Acc::Vec(items)),
            Value::Map(m) => Ok(Acc::Map(m)),
            Value::Set(s) => Ok(Acc::Set(s)),
            other => Acc::new(fname, &other),
        }
    }

    /// Adds one item; returns the bytes the collection grew by
    /// (HEAP-COST-1).
    fn add(&mut self, fname: &str, x: Value) -> Result<u64> {
        match self {
            Acc::Vec(v) => {
                let before = v.len();
                v.push_back(x);
                Ok(cost::vector_push(before))
            }
            Acc::Set(s) => {
                let before = s.len();
                s.insert(x);
                if s.len() == before {
                    return Ok(0);
                }
                Ok(cost::set_growth(before, s.len()))
            }
            Acc::Map(m) => match x {
                Value::Vector(e) if e.len() == 2 => {
                    let before = m.len();
                    m.insert(e[0].clone(), e[1].clone());
                    Ok(cost::map_growth_like(m, before, m.len()))
                }
                Value::Map(other) => {
                    let before = m.len();
                    m.reserve(other.len());
                    for (k, v) in other {
                        m.insert(k, v);
                    }
                    Ok(cost::map_growth_like(m, before, m.len()))
                }
                Value::Nil => Ok(0),
                other => Err(Error::type_error(format!(
                    "{fname} expects [key value] pairs (or maps) when adding to a map, got {}",
                    other.describe()
                ))
                .with_hint(
                    "to build a map from items, make pairs first: (into {} (map (fn [x] [(:id x) x]) xs))",
                )),
            },
        }
    }

    fn value(self) -> Value {
        match self {
            Acc::Vec(v) => Value::vector(v),
            Acc::Map(m) => Value::Map(m),
            Acc::Set(s) => Value::Set(s),
        }
    }
}

/// Key value pairs of `hash-map` and friends.
/// `m` with the key value pairs `kvs` added in order.
fn pairs_to_map(interp: &mut Interp, fname: &str, mut m: Map, kvs: &[Value]) -> Result<Value> {
    if !kvs.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "{fname} expects an even number of arguments (key value pairs), got {}",
            kvs.len()
        )));
    }
    interp.tick(n64(kvs.len()))?;
    let before = m.len();
    interp.alloc(cost::map_growth_like(&m, before, before + kvs.len() / 2))?;
    for kv in kvs.chunks(2) {
        m.insert(kv[0].clone(), kv[1].clone());
    }
    Ok(Value::Map(m))
}

/// The map-first hint for `update-vals`/`update-keys` called the wrong way
/// round (typically through `->>`).
fn map_first_error(fname: &str, m: &Value, f: &Value) -> Error {
    let e = args::type_error(fname, "a map as its first argument", m);
    if m.is_fn() && matches!(f, Value::Map(_)) {
        e.with_hint(format!(
            "the map comes first: ({fname} m f); with ->> the map is passed last, use -> (thread-first) instead"
        ))
    } else {
        e
    }
}

/// The map of `update-vals`/`update-keys`: a map, or nil (an empty map).
fn map_arg(fname: &str, m: &Value, f: &Value) -> Result<Map> {
    match m {
        Value::Map(m) => Ok(m.clone()),
        Value::Nil => Ok(Map::new()),
        _ => Err(map_first_error(fname, m, f)),
    }
}

/// Keys or values of a map, or of a sequence of `[k v]` entries.
fn entry_parts(fname: &str, v: &Value, index: usize) -> Result<Value> {
    match v {
        Value::Nil => Ok(Value::Nil),
        Value::Map(m) if m.is_empty() => Ok(Value::Nil),
        Value::Map(m) => Ok(Value::vector_from(m.iter().map(|(k, v)| {
            if index == 0 {
                k.clone()
            } else {
                v.clone()
            }
        }))),
        Value::Vector(items) => {
            let mut out = Vector::new();
            for item in items.iter() {
                match item {
                    Value::Vector(e) if e.len() == 2 => out.push_back(e[index].clone()),
                    _ => return Err(args::type_error(fname, "a map", v)),
                }
            }
            Ok(if out.is_empty() {
                Value::Nil
            } else {
                Value::vector(out)
            })
        }
        other => Err(args::type_error(fname, "a map", other)),
    }
}
