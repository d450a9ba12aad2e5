//! Equality and the canonical order of values (`format.md` F-2); hashing
//! is in [`super::hash`].
//!
//! They agree: `a == b` exactly when `a.cmp(b) == Equal` (and equal values
//! hash alike). Maps compare entry by entry in key order, whatever order
//! they iterate in. This is *structural* equality, the one map keys and sets use:
//! `1` and `1.0` are different values (ordered `1` first), `##NaN` equals
//! itself, and `0.0` equals `-0.0`. Clojure's `=` differs only for NaN, which
//! the `=` builtin handles ([`lisp_equal`]).
//!
//! Kind order: numbers < strings < keywords < symbols < booleans < nil <
//! vectors < maps < sets < everything else (functions, regexes, vars,
//! infinite sequences, reduced). Infinite sequences compare by identity.
//!
//! Comparison of nested collections recurses; values nested deeper than the
//! reader and evaluator allow cannot be built, and evaluation runs on a
//! big stack (`eval/stack.rs`).

use std::cmp::Ordering;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::{Func, Value};

fn kind_rank(v: &Value) -> u8 {
    match v {
        Value::Int(_) | Value::Float(_) => 0,
        Value::Str(_) => 1,
        Value::Keyword(_) => 2,
        Value::Symbol(_) => 3,
        Value::Bool(_) => 4,
        Value::Nil => 5,
        Value::Vector(_) => 6,
        Value::Map(_) => 7,
        Value::Set(_) => 8,
        Value::Fn(_) => 9,
        Value::Regex(_) => 10,
        Value::Var(_) => 11,
        Value::Lazy(_) => 12,
        Value::Reduced(_) => 13,
    }
}

/// Total order on floats: numeric, `-0.0 == 0.0`, NaN above everything and
/// equal to itself.
pub fn cmp_f64(a: f64, b: f64) -> Ordering {
    match a.partial_cmp(&b) {
        Some(o) => o,
        None => a.is_nan().cmp(&b.is_nan()),
    }
}

/// Numeric comparison of an integer with a float.
pub fn cmp_int_float(i: i64, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Less;
    }
    if f >= 9_223_372_036_854_775_808.0 {
        return Ordering::Less;
    }
    if f < -9_223_372_036_854_775_808.0 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    match i.cmp(&(t as i64)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - t)).unwrap_or(Ordering::Equal),
        o => o,
    }
}

/// `x.cmp(k)` with the common key comparisons inline (integers, the same
/// interned keyword): the binary searches of small maps and sets call it
/// for every probe.
#[inline]
pub fn cmp_key(x: &Value, k: &Value) -> Ordering {
    match (x, k) {
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Keyword(a), Value::Keyword(b)) if a.same_interned(b) => Ordering::Equal,
        _ => x.cmp(k),
    }
}

/// `a.cmp(b)` for the short texts of keys (`"k123"`, `:price`): eight
/// bytes at a time as big-endian integers, which orders like the bytes,
/// without a call to `memcmp` for every key of a map lookup.
#[inline]
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        let (x, y) = (word(x), word(y));
        if x != y {
            return x.cmp(&y);
        }
    }
    let n = a.len().min(b.len()) / 8 * 8;
    let (a, b) = (&a[n..], &b[n..]);
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[inline]
fn word(chunk: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(chunk);
    u64::from_be_bytes(w)
}

fn func_key(f: &Func) -> (String, usize) {
    (f.name().to_string(), f.addr())
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        match (self, other) {
            (Vector(_), Vector(_))
            | (Map(_), Map(_))
            | (Set(_), Set(_))
            | (Reduced(_), Reduced(_)) => cmp_in(self, other, &mut Seen::default()),
            // Map keys: the hot case, without the bookkeeping of collections.
            _ => cmp_flat(self, other),
        }
    }
}

/// Pairs of shared parts (by address) already found equal during one
/// comparison. Values share parts (`[a a]`): comparing two such values
/// built separately would otherwise revisit every path, exponentially
/// often. Only parts that are shared on both sides are remembered, so
/// ordinary comparisons never allocate.
#[derive(Default)]
pub(crate) struct Seen(Option<HashSet<(usize, usize)>>);

impl Seen {
    pub(crate) fn has(&self, pair: Option<(usize, usize)>) -> bool {
        match (pair, &self.0) {
            (Some(p), Some(set)) => set.contains(&p),
            _ => false,
        }
    }

    pub(crate) fn note(&mut self, pair: Option<(usize, usize)>, equal: bool) {
        if let (Some(p), true) = (pair, equal) {
            self.0.get_or_insert_with(HashSet::new).insert(p);
        }
    }
}

/// The pair to remember for two collections, when both are shared.
pub(crate) fn shared_pair(a: &Value, b: &Value) -> Option<(usize, usize)> {
    a.shared_addr().zip(b.shared_addr())
}

fn cmp_in(a: &Value, b: &Value, seen: &mut Seen) -> Ordering {
    use Value::*;
    let same_storage = match (a, b) {
        (Vector(x), Vector(y)) => x.ptr_eq(y),
        (Map(x), Map(y)) => x.ptr_eq(y),
        (Set(x), Set(y)) => x.ptr_eq(y),
        (Reduced(x), Reduced(y)) => return cmp_in(x, y, seen),
        _ => return cmp_flat(a, b),
    };
    let pair = shared_pair(a, b);
    if same_storage || seen.has(pair) {
        return Ordering::Equal;
    }
    let o = match (a, b) {
        // Element-wise, then the shorter first.
        (Vector(x), Vector(y)) => cmp_items(x.iter(), y.iter(), seen).then(x.len().cmp(&y.len())),
        // The smaller first, then entry by entry in key order (key, then
        // value): maps that differ only in insertion order are equal.
        (Map(x), Map(y)) => x.len().cmp(&y.len()).then_with(|| {
            let (xs, ys) = (by_key(x), by_key(y));
            cmp_items(
                xs.iter().flat_map(|(k, v)| [*k, *v]),
                ys.iter().flat_map(|(k, v)| [*k, *v]),
                seen,
            )
        }),
        (Set(x), Set(y)) => x
            .len()
            .cmp(&y.len())
            .then_with(|| cmp_items(x.iter(), y.iter(), seen)),
        _ => cmp_flat(a, b),
    };
    seen.note(pair, o == Ordering::Equal);
    o
}

/// A map's entries in the canonical order of their keys.
fn by_key(m: &super::Map) -> Vec<(&Value, &Value)> {
    let mut entries: Vec<(&Value, &Value)> = m.iter().collect();
    if !m.is_sorted() {
        entries.sort_unstable_by(|a, b| cmp_key(a.0, b.0));
    }
    entries
}

/// The first difference between two sequences of values, item by item.
fn cmp_items<'a>(
    xs: impl Iterator<Item = &'a Value>,
    ys: impl Iterator<Item = &'a Value>,
    seen: &mut Seen,
) -> Ordering {
    for (p, q) in xs.zip(ys) {
        crate::eval::budget::charge_work(1);
        match cmp_in(p, q, seen) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

/// The order of two values that are not both collections.
#[inline]
fn cmp_flat(a: &Value, b: &Value) -> Ordering {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => x.cmp(y),
        (Float(x), Float(y)) => cmp_f64(*x, *y),
        // Numerically equal int and float are still different values:
        // the integer comes first.
        (Int(x), Float(y)) => cmp_int_float(*x, *y).then(Ordering::Less),
        (Float(x), Int(y)) => cmp_int_float(*y, *x).reverse().then(Ordering::Greater),
        (Str(x), Str(y)) => cmp_text(x, y),
        (Keyword(x), Keyword(y)) => x.cmp(y),
        (Symbol(x), Symbol(y)) => x.cmp(y),
        (Bool(x), Bool(y)) => x.cmp(y),
        (Nil, Nil) => Ordering::Equal,
        (Fn(x), Fn(y)) => func_key(x).cmp(&func_key(y)),
        (Regex(x), Regex(y)) => x.as_str().cmp(y.as_str()),
        (Var(x), Var(y)) => x.cmp(y),
        (Lazy(x), Lazy(y)) => (Arc::as_ptr(x) as usize).cmp(&(Arc::as_ptr(y) as usize)),
        _ => kind_rank(a).cmp(&kind_rank(b)),
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Str(a), Str(b)) => a == b,
            (Keyword(a), Keyword(b)) => a == b,
            (Vector(a), Vector(b)) => {
                a.ptr_eq(b) || (a.len() == b.len() && self.cmp(other) == Ordering::Equal)
            }
            (Map(a), Map(b)) => {
                a.ptr_eq(b) || (a.len() == b.len() && self.cmp(other) == Ordering::Equal)
            }
            _ => self.cmp(other) == Ordering::Equal,
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    /// The whole value, see `value/hash.rs`: equal values hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(super::hash::value_hash(self));
    }
}

/// Clojure's `=`: structural equality, except that NaN is not equal to
/// anything, itself included.
pub fn lisp_equal(a: &Value, b: &Value) -> bool {
    if contains_nan(a) || contains_nan(b) {
        return nan_aware_equal(a, b);
    }
    a == b
}

fn contains_nan(v: &Value) -> bool {
    matches!(v, Value::Float(f) if f.is_nan())
}

fn nan_aware_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x == y,
        _ => false,
    }
}

/// Clojure's `compare` / `sort` order: numbers compare numerically across
/// int and float (`(compare 1 1.0)` is 0), everything else by the canonical
/// order. Returns `None` for pairs Clojure cannot compare (e.g. a map with a
/// map), so callers can raise a `type-error`.
pub fn compare_values(a: &Value, b: &Value) -> Option<Ordering> {
    compare_in(a, b, &mut Seen::default())
}

/// [`compare_values`], remembering shared parts found equal (see [`Seen`]).
fn compare_in(a: &Value, b: &Value, seen: &mut Seen) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Float(x), Float(y)) => Some(cmp_f64(*x, *y)),
        (Int(x), Float(y)) => Some(cmp_int_float(*x, *y)),
        (Float(x), Int(y)) => Some(cmp_int_float(*y, *x).reverse()),
        (Str(x), Str(y)) => Some(x.cmp(y)),
        (Keyword(x), Keyword(y)) => Some(cmp_qualified(x, y)),
        (Symbol(x), Symbol(y)) => Some(cmp_qualified(x, y)),
        (Bool(x), Bool(y)) => Some(x.cmp(y)),
        (Nil, Nil) => Some(Ordering::Equal),
        (Nil, _) => Some(Ordering::Less),
        (_, Nil) => Some(Ordering::Greater),
        (Vector(x), Vector(y)) => {
            if x.ptr_eq(y) {
                return Some(Ordering::Equal);
            }
            let pair = shared_pair(a, b);
            if seen.has(pair) {
                return Some(Ordering::Equal);
            }
            // Clojure compares vectors by length first, then element-wise.
            match x.len().cmp(&y.len()) {
                Ordering::Equal => {
                    for (p, q) in x.iter().zip(y.iter()) {
                        crate::eval::budget::charge_work(1);
                        match compare_in(p, q, seen)? {
                            Ordering::Equal => {}
                            o => return Some(o),
                        }
                    }
                    seen.note(pair, true);
                    Some(Ordering::Equal)
                }
                o => Some(o),
            }
        }
        _ => None,
    }
}

/// Clojure's order of keywords and symbols: unqualified names first, then
/// by namespace, then by name (`:b` < `:a/x` < `:c/a`).
fn cmp_qualified(x: &str, y: &str) -> Ordering {
    fn split(s: &str) -> (Option<&str>, &str) {
        match s.find('/') {
            Some(i) if i > 0 && i + 1 < s.len() => (Some(&s[..i]), &s[i + 1..]),
            _ => (None, s),
        }
    }
    let ((xn, xs), (yn, ys)) = (split(x), split(y));
    xn.cmp(&yn).then_with(|| xs.cmp(ys))
}

#[cfg(test)]
mod tests {
    #[test]
    fn cmp_text_orders_like_str() {
        let words = [
            "",
            "a",
            "b",
            "ab",
            "abc",
            "k1",
            "k10",
            "k2",
            "k123456789",
            "k12345678",
            "k1234567",
            "k123456780",
            "kz",
            "é",
            "e\u{301}",
            "abcdefghij",
            "abcdefghik",
            "abcdefgh",
            "abcdefgh\0",
        ];
        for x in words {
            for y in words {
                assert_eq!(super::cmp_text(x, y), x.cmp(y), "{x:?} vs {y:?}");
            }
        }
    }

    use super::*;

    #[test]
    fn ints_and_floats_are_distinct_but_ordered_numerically() {
        assert_ne!(Value::Int(1), Value::Float(1.0));
        assert_eq!(Value::Int(1).cmp(&Value::Float(1.0)), Ordering::Less);
        assert_eq!(Value::Float(0.5).cmp(&Value::Int(1)), Ordering::Less);
        assert_eq!(Value::Int(2).cmp(&Value::Float(1.5)), Ordering::Greater);
        assert_eq!(Value::Float(-0.0), Value::Float(0.0));
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
    }

    #[test]
    fn kinds_follow_f2() {
        let mut vals = vec![
            Value::set_from([]),
            Value::map_from([]),
            Value::empty_vector(),
            Value::Nil,
            Value::Bool(true),
            Value::symbol("s"),
            Value::keyword("k"),
            Value::string("s"),
            Value::Int(3),
        ];
        vals.sort();
        let names: Vec<_> = vals.iter().map(|v| v.type_name()).collect();
        assert_eq!(
            names,
            ["integer", "string", "keyword", "symbol", "boolean", "nil", "vector", "map", "set"]
        );
    }

    #[test]
    fn clojure_equality_rejects_nan() {
        let nan = Value::Float(f64::NAN);
        assert!(!lisp_equal(&nan, &nan));
        assert!(lisp_equal(&Value::Int(1), &Value::Int(1)));
    }

    #[test]
    fn compare_mixes_numbers() {
        assert_eq!(
            compare_values(&Value::Int(1), &Value::Float(1.0)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare_values(&Value::Nil, &Value::Int(1)),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare_values(&Value::map_from([]), &Value::map_from([])),
            None
        );
    }
}
