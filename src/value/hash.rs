//! Hashing of values: the whole value, in time linear in its size in memory.
//!
//! [`value_hash`] agrees with structural equality (`order.rs`): equal values
//! hash alike. It reads every item of every collection, so values that
//! differ anywhere (two vectors differing only at index 100) hash apart and
//! hash tables keyed by values (`frequencies`, `distinct`, the index of
//! large maps) cannot be flooded with collisions by building look-alike
//! values. Three guards keep it bounded:
//!
//! * a part shared by several places of the value (`[a a]` nested 64 times)
//!   is hashed once per call and remembered by address, so the cost is the
//!   value's size in memory, not its printed size;
//! * nesting past [`MAX_DEPTH`] levels contributes only its kind and size
//!   (still consistent with equality), so a chain of a million wrappers
//!   cannot overflow the native stack;
//! * the hash function (foldhash) is seeded at random once per process, so
//!   collisions cannot be precomputed; nothing ever iterates in hash order,
//!   so output stays deterministic.
//!
//! Maps hash their entries order-independently (a sum of per-entry hashes):
//! `{:a 1 :b 2}` and `{:b 2 :a 1}` are equal and hash alike.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::depth::AddrHasher;
use super::{Func, Value};

/// Levels below which nested values contribute only their kind and size.
pub const MAX_DEPTH: usize = 256;

fn state() -> &'static foldhash::fast::RandomState {
    static STATE: OnceLock<foldhash::fast::RandomState> = OnceLock::new();
    STATE.get_or_init(foldhash::fast::RandomState::default)
}

/// The hash of `v` (see the module docs). Hashing a collection charges the
/// running turn one step per item visited ([`crate::eval::budget::charge_work`]).
#[inline]
pub fn value_hash(v: &Value) -> u64 {
    // The keys of maps, sets and `frequencies`: hashed inline (the same
    // hashes `hash_in` gives).
    match v {
        Value::Int(i) => scalar_hash(2, *i as u64),
        Value::Keyword(k) => k.hash_code(),
        Value::Str(s) => text_hash(4, s),
        _ => hash_whole(v),
    }
}

/// [`value_hash`] of anything: collections visited with the guards of the
/// module docs, the visit charged.
#[inline(never)]
fn hash_whole(v: &Value) -> u64 {
    let mut memo = Memo::default();
    let mut visited = 0u64;
    let h = hash_in(v, &mut memo, &mut visited, 0);
    if visited > 0 {
        crate::eval::budget::charge_work(visited);
    }
    h
}

/// Hashes of shared parts already computed during one [`value_hash`].
type Memo = Option<HashMap<usize, u64, BuildHasherDefault<AddrHasher>>>;

fn text_hash(kind: u8, s: &str) -> u64 {
    let mut h = state().build_hasher();
    h.write_u8(kind);
    h.write(s.as_bytes());
    h.finish()
}

/// The hash of the string `text` (what [`value_hash`] gives its value).
pub fn str_hash(text: &str) -> u64 {
    text_hash(4, text)
}

/// The hash of the keyword named `name` (stored in interned names).
pub fn keyword_hash(name: &str) -> u64 {
    text_hash(5, name)
}

#[inline]
fn scalar_hash(kind: u8, bits: u64) -> u64 {
    let mut h = state().build_hasher();
    h.write_u8(kind);
    h.write_u64(bits);
    h.finish()
}

fn hash_in(v: &Value, memo: &mut Memo, visited: &mut u64, depth: usize) -> u64 {
    match v {
        Value::Nil => scalar_hash(0, 0),
        Value::Bool(b) => scalar_hash(1, *b as u64),
        Value::Int(i) => scalar_hash(2, *i as u64),
        Value::Float(f) => {
            // -0.0 equals 0.0 and NaN equals NaN structurally.
            let bits = if f.is_nan() {
                f64::NAN.to_bits()
            } else if *f == 0.0 {
                0
            } else {
                f.to_bits()
            };
            scalar_hash(3, bits)
        }
        Value::Str(s) => text_hash(4, s),
        Value::Keyword(k) => k.hash_code(),
        Value::Symbol(s) => text_hash(6, s),
        Value::Var(s) => text_hash(7, s),
        Value::Regex(r) => text_hash(8, r.as_str()),
        Value::Fn(f) => func_hash(f),
        Value::Lazy(l) => scalar_hash(9, std::sync::Arc::as_ptr(l) as usize as u64),
        Value::Vector(_) | Value::Map(_) | Value::Set(_) | Value::Reduced(_) => {
            let addr = v.shared_addr();
            if let (Some(a), Some(m)) = (addr, memo.as_ref()) {
                if let Some(h) = m.get(&a) {
                    return *h;
                }
            }
            let h = collection_hash(v, memo, visited, depth);
            if let Some(a) = addr {
                memo.get_or_insert_with(HashMap::default).insert(a, h);
            }
            h
        }
    }
}

fn func_hash(f: &Func) -> u64 {
    let mut h = state().build_hasher();
    h.write_u8(10);
    h.write(f.name().as_bytes());
    h.write_usize(f.addr());
    h.finish()
}

fn collection_hash(v: &Value, memo: &mut Memo, visited: &mut u64, depth: usize) -> u64 {
    let mut h = state().build_hasher();
    let deeper = depth < MAX_DEPTH;
    let items = match v {
        Value::Vector(items) => items.len(),
        Value::Set(items) => items.len(),
        Value::Map(m) => 2 * m.len(),
        _ => 1,
    };
    *visited += 1 + if deeper { items as u64 } else { 0 };
    match v {
        Value::Vector(items) => {
            h.write_u8(11);
            h.write_usize(items.len());
            if deeper {
                for x in items.iter() {
                    h.write_u64(hash_in(x, memo, visited, depth + 1));
                }
            }
        }
        Value::Set(items) => {
            // Order-independent (a sum), so a large set need not sort:
            // equal sets alike.
            h.write_u8(12);
            h.write_usize(items.len());
            if deeper {
                let mut sum = 0u64;
                for x in items.iter_unordered() {
                    let mut e = state().build_hasher();
                    e.write_u64(hash_in(x, memo, visited, depth + 1));
                    sum = sum.wrapping_add(e.finish());
                }
                h.write_u64(sum);
            }
        }
        Value::Map(m) => {
            h.write_u8(13);
            h.write_usize(m.len());
            if deeper {
                // Order-independent: equal maps may iterate differently.
                let mut sum = 0u64;
                for (k, x) in m.iter() {
                    let mut e = state().build_hasher();
                    e.write_u64(hash_in(k, memo, visited, depth + 1));
                    e.write_u64(hash_in(x, memo, visited, depth + 1));
                    sum = sum.wrapping_add(e.finish());
                }
                h.write_u64(sum);
            }
        }
        Value::Reduced(x) => {
            h.write_u8(14);
            if deeper {
                h.write_u64(hash_in(x, memo, visited, depth + 1));
            }
        }
        _ => unreachable!("collection_hash of a scalar"),
    }
    h.finish()
}

/// A std hash table keyed by values: [`Value`]'s `Hash` writes one
/// finished [`value_hash`], which [`PassThrough`] keeps as it is (no second
/// hashing of the hash).
pub type ValueTable<V> = HashMap<Value, V, BuildHasherDefault<PassThrough>>;

/// The hasher of [`ValueTable`]: passes one written `u64` through.
#[derive(Default)]
pub struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Not reached for values (they write one u64); correct for others.
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(src: &str) -> Value {
        crate::reader::read_value(src).unwrap()
    }

    #[test]
    fn equal_values_hash_alike() {
        for (a, b) in [
            ("{:a 1 :b 2}", "{:b 2 :a 1}"),
            ("#{1 2 3}", "#{3 2 1}"),
            ("[0.0 ##NaN]", "[-0.0 ##NaN]"),
            ("{[1 {:x 2 :y 3}] 1}", "{[1 {:y 3 :x 2}] 1}"),
        ] {
            let (a, b) = (v(a), v(b));
            assert_eq!(a, b);
            assert_eq!(value_hash(&a), value_hash(&b), "{a} vs {b}");
        }
    }

    #[test]
    fn every_item_counts() {
        let mut a: Vec<Value> = (0..200).map(Value::Int).collect();
        let h1 = value_hash(&Value::vector_from(a.clone()));
        a[150] = Value::Int(-1);
        assert_ne!(h1, value_hash(&Value::vector_from(a)));
        assert_ne!(value_hash(&Value::Int(1)), value_hash(&Value::Float(1.0)));
        assert_ne!(value_hash(&v("\"a\"")), value_hash(&v(":a")));
    }

    #[test]
    fn shared_parts_are_hashed_once() {
        let mut x = Value::Int(1);
        for _ in 0..64 {
            x = Value::vector_from([x.clone(), x]);
        }
        // 2^64 paths: finishes only because shared parts are remembered.
        let h = value_hash(&x);
        assert_eq!(h, value_hash(&x));
    }

    #[test]
    fn deep_chains_do_not_recurse_without_bound() {
        let mut x = Value::Int(1);
        for _ in 0..5_000 {
            x = Value::Reduced(std::sync::Arc::new(x));
        }
        // Past MAX_DEPTH only kind and size count: bounded, consistent.
        let h = value_hash(&x);
        assert_eq!(h, value_hash(&x));
    }
}
