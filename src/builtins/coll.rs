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

use super::args;
use super::{Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::iter::SeqIter;
use crate::eval::{lookup, lookup_ref, Interp};
use crate::value::order::{compare_values, lisp_equal};
use crate::value::{Map, Set, Value, Vector};

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
        .example("(into {} [[:a 1] [:b 2]]) ;=> {:a 1 :b 2}"),
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
        .example("(merge {:a 1} {:b 2} {:a 3}) ;=> {:a 3 :b 2}"),
    Builtin::new("merge-with", Arity::at_least(1), "Merges maps; values of keys in several maps are combined with (f old new).", merge_with)
        .example("(merge-with + {:a 1} {:a 2 :b 3}) ;=> {:a 3 :b 3}"),
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
        .example("(disj #{1 2 3} 2) ;=> #{1 3}"),
];

// ---------------------------------------------------------------- helpers

/// Approximate bytes charged per built item.
const VEC_ITEM: u64 = 16;
const MAP_ENTRY: u64 = 48;
const SET_ITEM: u64 = 32;

fn n64(n: usize) -> u64 {
    n as u64
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
        Value::Vector(items) => {
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
            let mut items = (*items).clone();
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
        Value::Vector(v) => Ok((**v).clone()),
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
        let old = std::mem::replace(slot, Value::Nil);
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
    for (c, k) in containers.into_iter().zip(keys.iter()).rev() {
        new = assoc1(fname, c, k.clone(), new)?;
    }
    interp.alloc(MAP_ENTRY * n64(keys.len()))?;
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
            Value::Vector(items) => Ok(Acc::Vec((**items).clone())),
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
            Value::Vector(items) => Ok(Acc::Vec(
                std::sync::Arc::try_unwrap(items).unwrap_or_else(|shared| (*shared).clone()),
            )),
            Value::Map(m) => Ok(Acc::Map(m)),
            Value::Set(s) => Ok(Acc::Set(s)),
            other => Acc::new(fname, &other),
        }
    }

    /// Adds one item; returns the approximate bytes added.
    fn add(&mut self, fname: &str, x: Value) -> Result<u64> {
        match self {
            Acc::Vec(v) => {
                v.push_back(x);
                Ok(VEC_ITEM)
            }
            Acc::Set(s) => {
                s.insert(x);
                Ok(SET_ITEM)
            }
            Acc::Map(m) => match x {
                Value::Vector(e) if e.len() == 2 => {
                    m.insert(e[0].clone(), e[1].clone());
                    Ok(MAP_ENTRY)
                }
                Value::Map(other) => {
                    let n = other.len();
                    for (k, v) in other {
                        m.insert(k, v);
                    }
                    Ok(MAP_ENTRY * n64(n))
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
    interp.alloc(MAP_ENTRY * n64(kvs.len() / 2) + 32)?;
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

// ---------------------------------------------------------------- builtins

fn count(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Int(args::count("count", &a[0])? as i64))
}

fn get(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let default = a.get(2).cloned().unwrap_or(Value::Nil);
    Ok(lookup(&a[0], &a[1]).unwrap_or(default))
}

fn get_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let default = || a.get(2).cloned().unwrap_or(Value::Nil);
    let keys = match &a[1] {
        Value::Vector(keys) => {
            interp.tick(n64(keys.len()))?;
            if let Some(found) = get_in_by_ref(&a[0], keys) {
                return Ok(found.cloned().unwrap_or_else(default));
            }
            (**keys).clone()
        }
        other => {
            let keys = path("get-in", other)?;
            interp.tick(n64(keys.len()))?;
            keys
        }
    };
    let mut cur = a[0].clone();
    for k in keys.iter() {
        match lookup(&cur, k) {
            Some(v) => cur = v,
            None => return Ok(default()),
        }
    }
    Ok(cur)
}

/// `get-in` by reference (no copy of the path, no clone of the levels
/// passed): `Some(found)`, or `None` when a string is on the way (the
/// general lookup handles it).
fn get_in_by_ref<'a>(m: &'a Value, keys: &Vector) -> Option<Option<&'a Value>> {
    let mut cur = m;
    for k in keys.iter() {
        if let Value::Str(_) = cur {
            return None;
        }
        match lookup_ref(cur, k) {
            Some(v) => cur = v,
            None => return Some(None),
        }
    }
    Some(Some(cur))
}

fn assoc(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let kvs = &a[1..];
    if !kvs.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "assoc expects a collection followed by key value pairs, got {} arguments after the collection",
            kvs.len()
        )));
    }
    interp.tick(n64(kvs.len() / 2))?;
    interp.alloc(MAP_ENTRY * n64(kvs.len() / 2))?;
    let mut coll = a[0].clone();
    for kv in kvs.chunks(2) {
        coll = assoc1("assoc", coll, kv[0].clone(), kv[1].clone())?;
    }
    Ok(coll)
}

/// `assoc` taking its collection: updated in place when nothing else holds it.
fn assoc_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let kvs = a.len() - 1;
    if !kvs.is_multiple_of(2) {
        return assoc(interp, a);
    }
    interp.tick(n64(kvs / 2))?;
    interp.alloc(MAP_ENTRY * n64(kvs / 2))?;
    let (head, rest) = a.split_at_mut(1);
    let mut coll = take(&mut head[0]);
    for kv in rest.chunks_mut(2) {
        coll = assoc1("assoc", coll, take(&mut kv[0]), take(&mut kv[1]))?;
    }
    Ok(coll)
}

fn take(v: &mut Value) -> Value {
    std::mem::replace(v, Value::Nil)
}

fn assoc_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let v = a[2].clone();
    update_path(interp, "assoc-in", a[0].clone(), &a[1], |_, _| Ok(v))
}

/// `assoc-in` taking its map (updated in place when unshared).
fn assoc_in_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let (m, v) = (take(&mut a[0]), take(&mut a[2]));
    update_path(interp, "assoc-in", m, &a[1], |_, _| Ok(v))
}

fn dissoc(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Ok(Value::Nil),
        Value::Map(m) => {
            interp.tick(n64(a.len() - 1))?;
            let mut m = m.clone();
            for k in &a[1..] {
                m.remove(k);
            }
            Ok(Value::Map(m))
        }
        other => Err(args::type_error("dissoc", "a map", other)),
    }
}

/// `dissoc` taking its map.
fn dissoc_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    match take(&mut a[0]) {
        Value::Map(mut m) => {
            interp.tick(n64(a.len() - 1))?;
            for k in &a[1..] {
                m.remove(k);
            }
            Ok(Value::Map(m))
        }
        other => {
            a[0] = other;
            dissoc(interp, a)
        }
    }
}

/// `(f old & extra)`.
fn call_with_extra(interp: &mut Interp, f: &Value, old: Value, extra: &[Value]) -> Result<Value> {
    let mut call_args = Vec::with_capacity(1 + extra.len());
    call_args.push(old);
    call_args.extend_from_slice(extra);
    interp.call(f, &call_args)
}

fn update(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("update", &a[2])?;
    let old = get_exact(&a[0], &a[1]);
    let new = call_with_extra(interp, &a[2], old, &a[3..])?;
    interp.alloc(MAP_ENTRY)?;
    assoc1("update", a[0].clone(), a[1].clone(), new)
}

/// `update` taking its collection (the old value is handed to `f`).
fn update_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("update", &a[2])?;
    let mut coll = take(&mut a[0]);
    if let Value::Map(m) = &mut coll {
        // An existing key is updated where it is: one search, not two.
        if let Some(slot) = m.get_mut(&a[1]) {
            let old = std::mem::replace(slot, Value::Nil);
            *slot = call_with_extra(interp, &a[2], old, &a[3..])?;
            return Ok(coll);
        }
    }
    let old = take_exact(&mut coll, &a[1]);
    let new = call_with_extra(interp, &a[2], old, &a[3..])?;
    interp.alloc(MAP_ENTRY)?;
    assoc1("update", coll, take(&mut a[1]), new)
}

fn update_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("update-in", &a[2])?;
    let f = a[2].clone();
    let extra = &a[3..];
    update_path(interp, "update-in", a[0].clone(), &a[1], |interp, old| {
        call_with_extra(interp, &f, old, extra)
    })
}

/// `update-in` taking its map (updated in place when unshared).
fn update_in_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("update-in", &a[2])?;
    let m = take(&mut a[0]);
    let (f, extra) = (&a[2], &a[3..]);
    update_path(interp, "update-in", m, &a[1], |interp, old| {
        call_with_extra(interp, f, old, extra)
    })
}

fn update_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = map_arg("update-keys", &a[0], &a[1])?;
    args::callable("update-keys", &a[1])?;
    interp.alloc(MAP_ENTRY * n64(m.len()) + 32)?;
    let mut out = Map::new();
    for (k, v) in m {
        interp.tick(1)?;
        let nk = interp.call(&a[1], std::slice::from_ref(&k))?;
        out.insert(nk, v);
    }
    Ok(Value::Map(out))
}

fn update_vals(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = map_arg("update-vals", &a[0], &a[1])?;
    args::callable("update-vals", &a[1])?;
    interp.alloc(MAP_ENTRY * n64(m.len()) + 32)?;
    let mut out = Map::new();
    for (k, v) in m {
        interp.tick(1)?;
        let nv = interp.call(&a[1], std::slice::from_ref(&v))?;
        out.insert(k, nv);
    }
    Ok(Value::Map(out))
}

fn conj(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let Some((coll, items)) = a.split_first() else {
        return Ok(Value::empty_vector());
    };
    if items.is_empty() {
        return Ok(coll.clone());
    }
    if coll.may_end() {
        // Realised, then added to as a vector (eval/realise.rs).
        return Err(args::whole("conj", coll));
    }
    let mut acc = Acc::new("conj", coll)?;
    let mut bytes = 0;
    for x in items {
        interp.tick(1)?;
        bytes += acc.add("conj", x.clone())?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

/// `conj` taking its collection.
fn conj_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    if a.len() < 2 {
        return conj(interp, a);
    }
    let (head, items) = a.split_at_mut(1);
    let mut acc = Acc::owned("conj", take(&mut head[0]))?;
    let mut bytes = 0;
    for x in items.iter_mut() {
        interp.tick(1)?;
        bytes += acc.add("conj", take(x))?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

fn into(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [] => Ok(Value::empty_vector()),
        [to] => Ok(to.clone()),
        [to, xform, from] => {
            let conj = super::lookup_in(super::Ns::Core, "conj")
                .map(|b| Value::Fn(crate::value::Func::Builtin(b)))
                .ok_or_else(|| {
                    crate::error::Error::internal("conj is missing from the registry")
                })?;
            super::seq::transduce_with(interp, "into", xform, &conj, to.clone(), from)
        }
        [to, from, ..] => {
            let mut acc = Acc::new("into", to)?;
            let items = args::items("into", from)?;
            let mut bytes = 0;
            for x in items {
                interp.tick(1)?;
                bytes += acc.add("into", x)?;
            }
            interp.alloc(bytes)?;
            Ok(acc.value())
        }
    }
}

fn empty(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(match &a[0] {
        Value::Vector(_) | Value::Lazy(_) => Value::empty_vector(),
        Value::Map(m) => Value::Map(m.empty_like()),
        Value::Set(_) => Value::Set(Set::new()),
        _ => Value::Nil,
    })
}

fn keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let r = entry_parts("keys", &a[0], 0)?;
    charge_vector(interp, &r)?;
    Ok(r)
}

fn vals(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let r = entry_parts("vals", &a[0], 1)?;
    charge_vector(interp, &r)?;
    Ok(r)
}

fn charge_vector(interp: &mut Interp, v: &Value) -> Result<()> {
    if let Value::Vector(items) = v {
        interp.tick(n64(items.len()))?;
        interp.alloc(VEC_ITEM * n64(items.len()) + 32)?;
    }
    Ok(())
}

fn entry_part(fname: &str, v: &Value, index: usize) -> Result<Value> {
    match v {
        Value::Vector(e) if e.len() == 2 => Ok(e[index].clone()),
        other => Err(args::type_error(fname, "a map entry [key value]", other)),
    }
}

fn key(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    entry_part("key", &a[0], 0)
}

fn val(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    entry_part("val", &a[0], 1)
}

fn merge(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let Some((first, rest)) = a.split_first() else {
        return Ok(Value::Nil);
    };
    if a.iter().all(Value::is_nil) {
        return Ok(Value::Nil);
    }
    if rest.is_empty() {
        return Ok(first.clone());
    }
    let mut acc = match first {
        Value::Nil => Acc::Map(Map::new()),
        Value::Map(_) | Value::Vector(_) | Value::Set(_) => Acc::new("merge", first)?,
        other => return Err(args::type_error("merge", "maps", other)),
    };
    let mut bytes = 0;
    for m in rest {
        match m {
            Value::Map(_) | Value::Nil | Value::Vector(_) => {}
            other => return Err(args::type_error("merge", "maps", other)),
        }
        if let Value::Map(mm) = m {
            interp.tick(n64(mm.len()))?;
        }
        bytes += acc.add("merge", m.clone())?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

fn merge_with(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("merge-with", &a[0])?;
    let f = &a[0];
    let maps = &a[1..];
    if maps.iter().all(Value::is_nil) {
        return Ok(Value::Nil);
    }
    let mut acc: Option<Map> = None;
    for m in maps {
        let m = match m {
            Value::Nil => {
                acc.get_or_insert_with(Map::new);
                continue;
            }
            Value::Map(m) => m,
            other => return Err(args::type_error("merge-with", "maps", other)),
        };
        let out = acc.get_or_insert_with(Map::new);
        for (k, v) in m.iter() {
            interp.tick(1)?;
            let nv = match out.get(k) {
                Some(old) => interp.call(f, &[old.clone(), v.clone()])?,
                None => {
                    interp.alloc(MAP_ENTRY)?;
                    v.clone()
                }
            };
            out.insert(k.clone(), nv);
        }
    }
    Ok(acc.map_or(Value::Nil, Value::Map))
}

fn select_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let ks = args::items("select-keys", &a[1])?;
    let mut out = Map::new();
    for k in ks {
        interp.tick(1)?;
        match &a[0] {
            Value::Map(m) => {
                if let Some(v) = m.get(&k) {
                    out.insert(k, v.clone());
                }
            }
            Value::Vector(items) => {
                if let Value::Int(i) = k {
                    if i >= 0 && (i as u64) < n64(items.len()) {
                        out.insert(k, items[i as usize].clone());
                    }
                }
            }
            Value::Nil => {}
            other => return Err(args::type_error("select-keys", "a map", other)),
        }
    }
    interp.alloc(MAP_ENTRY * n64(out.len()) + 32)?;
    Ok(Value::Map(out))
}

fn zip(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut xs = SeqIter::new("zip", &a[0])?;
    let mut ys = SeqIter::new("zip", &a[1])?;
    if xs.is_infinite() && ys.is_infinite() {
        return Err(args::whole(
            "zip",
            a.iter().find(|x| x.may_end()).unwrap_or(&a[0]),
        ));
    }
    let mut out = Vector::new();
    while let (Some(x), Some(y)) = (xs.next(interp)?, ys.next(interp)?) {
        interp.tick(1)?;
        interp.alloc(48)?;
        out.push_back(Value::entry(x, y));
    }
    Ok(Value::vector(out))
}

fn entries(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = args::map_or_nil("entries", &a[0])?;
    interp.tick(m.len() as u64)?;
    interp.alloc(48 * m.len() as u64)?;
    // In key order, as upstream's `entries` (unlike `seq`, which follows
    // the map's insertion order).
    let mut pairs: Vec<(&Value, &Value)> = m.iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    Ok(Value::vector_from(
        pairs
            .into_iter()
            .map(|(k, v)| Value::entry(k.clone(), v.clone())),
    ))
}

fn zipmap(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut ks = SeqIter::new("zipmap", &a[0])?;
    let mut vs = SeqIter::new("zipmap", &a[1])?;
    if ks.is_infinite() && vs.is_infinite() {
        return Err(args::whole(
            "zipmap",
            a.iter().find(|x| x.may_end()).unwrap_or(&a[0]),
        ));
    }
    let mut out = Map::new();
    loop {
        interp.tick(1)?;
        let Some(k) = ks.next(interp)? else { break };
        let Some(v) = vs.next(interp)? else { break };
        interp.alloc(MAP_ENTRY)?;
        out.insert(k, v);
    }
    Ok(Value::Map(out))
}

fn find(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match (&a[0], &a[1]) {
        (Value::Map(m), k) => Ok(match m.get(k) {
            Some(v) => Value::entry(k.clone(), v.clone()),
            None => Value::Nil,
        }),
        (Value::Nil, _) => Ok(Value::Nil),
        (Value::Vector(items), Value::Int(i)) => Ok(if *i >= 0 && (*i as u64) < n64(items.len()) {
            Value::entry(Value::Int(*i), items[*i as usize].clone())
        } else {
            Value::Nil
        }),
        (pred, coll) => {
            args::callable("find", pred).map_err(|e| {
                e.with_hint("use (find map key) for a map entry, or (find pred coll) for the first matching item")
            })?;
            let mut it = SeqIter::new("find", coll)?;
            while let Some(x) = it.next(interp)? {
                interp.tick(1)?;
                if interp.call(pred, std::slice::from_ref(&x))?.truthy() {
                    return Ok(x);
                }
            }
            Ok(Value::Nil)
        }
    }
}

fn contains(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let k = &a[1];
    let found = match &a[0] {
        Value::Map(m) => m.contains_key(k),
        Value::Set(s) => s.contains(k),
        Value::Nil => false,
        Value::Vector(items) => {
            let mut found = false;
            for x in items.iter() {
                interp.tick(1)?;
                if lisp_equal(x, k) {
                    found = true;
                    break;
                }
            }
            found
        }
        Value::Str(s) => match k {
            Value::Int(i) => *i >= 0 && (*i as u64) < n64(s.chars().count()),
            _ => false,
        },
        v @ Value::Lazy(_) => return Err(args::whole("contains?", v)),
        other => {
            return Err(args::type_error("contains?", "a map, set or vector", other)
                .with_hint("the collection comes first: (contains? coll x)"))
        }
    };
    Ok(Value::Bool(found))
}

fn peek(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Vector(items) => Ok(items.back().cloned().unwrap_or(Value::Nil)),
        Value::Nil => Ok(Value::Nil),
        other => Err(args::type_error("peek", "a vector", other)),
    }
}

fn pop(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Vector(items) => {
            if items.is_empty() {
                return Err(
                    Error::execution("pop cannot remove an item from an empty vector")
                        .with_hint("check (empty? v) first"),
                );
            }
            let mut items = (**items).clone();
            items.pop_back();
            Ok(Value::vector(items))
        }
        Value::Nil => Ok(Value::Nil),
        other => Err(args::type_error("pop", "a vector", other)),
    }
}

fn subvec(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = match &a[0] {
        Value::Vector(items) => items,
        other => return Err(args::type_error("subvec", "a vector", other)),
    };
    let len = items.len() as i64;
    let start = args::index("subvec", &a[1])?;
    let end = match a.get(2) {
        Some(e) => args::index("subvec", e)?,
        None => len,
    };
    if start < 0 || end < start || end > len {
        return Err(Error::execution(format!(
            "subvec indexes {start} to {end} are out of bounds for a vector of {len} items"
        ))
        .with_hint("0 <= start <= end <= (count v); (take n (drop start v)) never fails"));
    }
    let (start, end) = (start as usize, end as usize);
    interp.alloc(VEC_ITEM * n64(end - start) + 32)?;
    let mut all: Vector = (**items).clone();
    Ok(Value::vector(all.slice(start..end)))
}

fn vec(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Vector(_) = &a[0] {
        return Ok(a[0].clone());
    }
    let items = args::items("vec", &a[0])?;
    interp.tick(n64(items.len()))?;
    interp.alloc(VEC_ITEM * n64(items.len()) + 32)?;
    Ok(Value::vector(items))
}

fn vector(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.alloc(VEC_ITEM * n64(a.len()) + 32)?;
    Ok(Value::vector_from(a.iter().cloned()))
}

fn list(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    vector(interp, a)
}

fn hash_map(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    pairs_to_map(interp, "hash-map", Map::new(), a)
}

fn sorted_map(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    pairs_to_map(interp, "sorted-map", Map::sorted(), a)
}

fn hash_set(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.tick(n64(a.len()))?;
    interp.alloc(SET_ITEM * n64(a.len()) + 32)?;
    Ok(Value::set_from(a.iter().cloned()))
}

/// `(sorted-map-by cmp k v …)`: the entries in `cmp`'s order, as an
/// insertion-ordered map (module doc: "sorted-map-by").
fn sorted_map_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("sorted-map-by", &a[0])?;
    let kvs = &a[1..];
    if !kvs.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "sorted-map-by expects a comparator then an even number of arguments (key value pairs), got {}",
            kvs.len()
        )));
    }
    let keys: Vec<Value> = kvs.iter().step_by(2).cloned().collect();
    let order = super::seq::comparator_order(interp, "sorted-map-by", &a[0], &keys)?;
    let mut ordered = Vec::with_capacity(kvs.len());
    let mut first = 0;
    for (i, same) in order {
        // Keys the comparator finds equal are one key: the first one
        // given, with the last value given (Clojure).
        if !same {
            first = i;
        }
        ordered.push(keys[first].clone());
        ordered.push(kvs[2 * i + 1].clone());
    }
    pairs_to_map(interp, "sorted-map-by", Map::new(), &ordered)
}

/// `(sorted-set-by cmp x …)`: the elements, those `cmp` finds equal kept
/// once (the first given); a set, in the canonical order of every set
/// (module doc: "sorted-map-by").
fn sorted_set_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("sorted-set-by", &a[0])?;
    let items = &a[1..];
    let order = super::seq::comparator_order(interp, "sorted-set-by", &a[0], items)?;
    let kept: Vec<Value> = order
        .into_iter()
        .filter(|&(_, same)| !same)
        .map(|(i, _)| items[i].clone())
        .collect();
    hash_set(interp, &kept)
}

/// Whether `(test (compare k bound) 0)` holds.
fn bound_holds(interp: &mut Interp, test: &Value, k: &Value, bound: &Value) -> Result<bool> {
    let ord = compare_values(k, bound).ok_or_else(|| {
        Error::type_error(format!(
            "subseq cannot compare {} with {}",
            k.describe(),
            bound.describe()
        ))
    })?;
    let c = match ord {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    };
    Ok(interp.call(test, &[Value::Int(c), Value::Int(0)])?.truthy())
}

fn subseq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if a.len() == 4 {
        return Err(Error::arity(
            "subseq expects 3 or 5 arguments: (subseq coll test k) or (subseq coll start-test start-k end-test end-k), got 4",
        ));
    }
    let items: Vec<(Value, Value)> = match &a[0] {
        Value::Map(m) => m
            .iter()
            .map(|(k, v)| (k.clone(), Value::entry(k.clone(), v.clone())))
            .collect(),
        Value::Set(s) => s.iter().map(|x| (x.clone(), x.clone())).collect(),
        other => return Err(args::type_error("subseq", "a sorted map or set", other)),
    };
    let bounds: Vec<(&Value, &Value)> = a[1..].chunks(2).map(|c| (&c[0], &c[1])).collect();
    for (test, _) in &bounds {
        args::callable("subseq", test)?;
    }
    let mut out = Vector::new();
    'items: for (k, item) in items {
        interp.tick(1)?;
        for (test, bound) in &bounds {
            if !bound_holds(interp, test, &k, bound)? {
                continue 'items;
            }
        }
        out.push_back(item);
    }
    interp.alloc(VEC_ITEM * n64(out.len()) + 32)?;
    Ok(Value::vector(out))
}

fn rseq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = match &a[0] {
        Value::Vector(_) | Value::Map(_) | Value::Set(_) => args::items("rseq", &a[0])?,
        Value::Nil => Vector::new(),
        other => return Err(args::type_error("rseq", "a vector, map or set", other)),
    };
    if items.is_empty() {
        return Ok(Value::Nil);
    }
    interp.tick(n64(items.len()))?;
    interp.alloc(VEC_ITEM * n64(items.len()) + 32)?;
    Ok(Value::vector_from(items.into_iter().rev()))
}

fn set(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Set(_) = &a[0] {
        return Ok(a[0].clone());
    }
    let items = args::to_vec("set", &a[0])?;
    interp.tick(n64(items.len()))?;
    interp.alloc(SET_ITEM * n64(items.len()) + 32)?;
    Ok(Value::set_from(items))
}

fn disj(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Ok(Value::Nil),
        Value::Set(s) => {
            interp.tick(n64(a.len() - 1))?;
            let mut s = s.clone();
            for x in &a[1..] {
                s.remove(x);
            }
            Ok(Value::Set(s))
        }
        other => Err(args::type_error("disj", "a set", other)),
    }
}

#[cfg(test)]
mod tests {
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
        let Value::Map(by) = ok(sorted_map_by, &[desc.clone(), i(1), kw("a"), i(2), kw("b")])
        else {
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
}
