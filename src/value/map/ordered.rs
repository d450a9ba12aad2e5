//! [`Ordered`]: the persistent map behind large maps — entries in the order
//! their keys were first added, found through a hash index.
//!
//! The entries sit in insertion order in [`Entries`] (`entries.rs`: one
//! `Vec` written in place while one map owns it, an imbl vector once
//! shared; holes where keys were removed); the index is a flat hashbrown
//! table of `(hash of the key, position)` pairs (`value/hash.rs`: the whole
//! key) behind an `Arc`. Reading a key is one probe of the table and one
//! read of the vector; replacing the value of a key writes the entries
//! only, so maps that share an index keep sharing it. Adding or removing
//! a key changes the index in place when this map is its only holder, and
//! copies it whole first when another map holds it too (copy on write,
//! charged to the heap: `value/cost.rs`). The index is never iterated, so
//! the order of a map never depends on hashing. Holes are squeezed out
//! when they outnumber the entries.
//!
//! A bucket is 8 bytes: 32 bits of the key's hash and the key's position
//! as a `u32`. The table places buckets by a hash made from those 32 bits
//! ([`spread`]), so it grows without reading a key; a lookup compares the
//! 32 bits before it compares keys. (A map of 2^32 entries would need
//! 200 GiB of entry slots alone, far past any heap limit or machine.)

use std::sync::Arc;

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

use crate::value::cost;
use crate::value::hash::value_hash;
use crate::value::Value;

use super::same_key;

use super::entries::{Entries, Slot, SlotIter};
use crate::value::unique::{self, make_mut};

/// One bucket of the index: [`short`] of the key's hash and the key's
/// position among the entries.
type Bucket = (u32, u32);

/// The 32 bits of a key's hash a bucket keeps (both halves folded in).
#[inline(always)]
fn short(h: u64) -> u32 {
    (h ^ (h >> 32)) as u32
}

/// The hash the table places a bucket by: made from the bits the bucket
/// keeps, spread over 64 (hashbrown takes its control byte from the top
/// seven bits, the bucket from the low ones).
#[inline(always)]
fn spread(s: u32) -> u64 {
    u64::from(s).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The hasher the table rehashes a bucket with.
#[inline(always)]
fn rehash(&(s, _): &Bucket) -> u64 {
    spread(s)
}

/// A position among the entries as a bucket keeps it (module docs: a map
/// never holds 2^32 of them).
#[inline(always)]
fn slot_no(i: usize) -> u32 {
    debug_assert!(u32::try_from(i).is_ok());
    i as u32
}

/// Bytes of one entry slot of a large map (`value/cost.rs`).
pub(crate) const SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;
/// Bytes of one bucket of the hash index.
pub(crate) const BUCKET_BYTES: u64 = std::mem::size_of::<Bucket>() as u64;
/// Bytes of the index table's own struct inside its `Arc`.
pub(crate) const INDEX_BYTES: u64 = std::mem::size_of::<HashTable<Bucket>>() as u64;
/// Bytes of the [`Ordered`] struct inside its `Arc`.
pub(crate) const ORDERED_BYTES: u64 = std::mem::size_of::<Ordered>() as u64;

/// An insertion-ordered persistent map (see the module docs).
#[derive(Clone, Default)]
pub struct Ordered {
    entries: Entries,
    index: Arc<HashTable<Bucket>>,
    len: usize,
    holes: usize,
}

/// Holes tolerated before [`Ordered::remove`] squeezes them out.
const MIN_HOLES: usize = 32;

impl Ordered {
    /// A map of `entries`, in their order (a later duplicate key replaces
    /// the value and keeps the first one's place).
    pub fn from_distinct(entries: impl IntoIterator<Item = (Value, Value)>) -> Ordered {
        let entries = entries.into_iter();
        // Room for twice a small map at least, as `cost::map_index_bytes`
        // counts (a map promoted past SMALL grows into it).
        let room = entries.size_hint().0.max(2 * super::SMALL);
        let mut m = Ordered {
            index: Arc::new(HashTable::with_capacity(room)),
            entries: Entries::with_capacity(room),
            ..Ordered::default()
        };
        for (k, v) in entries {
            m.insert(k, v);
        }
        m
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether both maps share all their storage.
    pub fn ptr_eq(&self, other: &Ordered) -> bool {
        self.entries.ptr_eq(&other.entries) && Arc::ptr_eq(&self.index, &other.index)
    }

    /// The index, to add or remove a key: copied first when another map
    /// holds it too, the copy charged.
    fn index_mut(&mut self) -> &mut HashTable<Bucket> {
        let len = self.len;
        cost::charge_copy_if_shared(&self.index, || cost::map_index_bytes(len));
        make_mut(&mut self.index)
    }

    /// Room for up to `additional` more keys, made before they are added
    /// one by one (`merge`, `into` of a map): entries another map holds
    /// too are copied once, at their final size, rather than copied at the
    /// first write and then regrown (the copy charged as that write would
    /// charge it); unshared ones grow once. The index is left as it is: a
    /// key already there (most of a `merge` may be) adds nothing to it.
    pub fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
    }

    /// The position of `k` (whose hash is `h`) among the entries.
    #[inline]
    fn position(&self, k: &Value, h: u64) -> Option<usize> {
        let s = short(h);
        self.index
            .find(spread(s), |&(es, i)| {
                es == s
                    && matches!(self.entries.get(i as usize), Some(Some((x, _))) if same_key(x, k))
            })
            .map(|&(_, i)| i as usize)
    }

    /// The value of the key whose hash is `h` and that `is_key` accepts.
    pub fn get_by(&self, h: u64, is_key: impl Fn(&Value) -> bool) -> Option<&Value> {
        let mut found = None;
        let s = short(h);
        self.index.find(spread(s), |&(es, i)| {
            if es != s {
                return false;
            }
            match self.entries.get(i as usize) {
                Some(Some((x, v))) if is_key(x) => {
                    found = Some(v);
                    true
                }
                _ => false,
            }
        });
        found
    }

    fn slot(&self, k: &Value) -> Option<&(Value, Value)> {
        let i = self.position(k, value_hash(k))?;
        self.entries.get(i)?.as_ref()
    }

    pub fn get(&self, k: &Value) -> Option<&Value> {
        self.slot(k).map(|(_, v)| v)
    }

    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &Value)> {
        self.slot(k).map(|(k, v)| (k, v))
    }

    pub fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        let i = self.position(k, value_hash(k))?;
        self.entries.get_mut(i)?.as_mut().map(|(_, v)| v)
    }

    /// Inserts or replaces (an existing key keeps its place); returns the
    /// previous value.
    pub fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        let h = value_hash(&k);
        let s = short(h);
        let at = slot_no(self.entries.len());
        let found = match unique::get_mut(&mut self.index) {
            // An index this map alone holds (an accumulating map's): one
            // probe finds the key or takes the bucket for a new one.
            Some(index) => {
                let entries = &self.entries;
                let is_k = |&(es, i): &Bucket| {
                    es == s
                        && matches!(entries.get(i as usize), Some(Some((x, _))) if same_key(x, &k))
                };
                match index.entry(spread(s), is_k, rehash) {
                    Entry::Occupied(found) => Some(found.get().1 as usize),
                    Entry::Vacant(free) => {
                        free.insert((s, at));
                        None
                    }
                }
            }
            // A shared index: searched first, copied only for a new key.
            None => {
                let found = self.position(&k, h);
                if found.is_none() {
                    self.index_mut().insert_unique(spread(s), (s, at), rehash);
                }
                found
            }
        };
        if let Some(i) = found {
            let slot = self.entries.get_mut(i).and_then(Option::as_mut);
            return slot.map(|(_, old)| std::mem::replace(old, v));
        }
        self.entries.push_back(Some((k, v)));
        self.len += 1;
        None
    }

    /// Removes a key; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        let h = value_hash(k);
        let i = self.position(k, h)?;
        let j = slot_no(i);
        if let Ok(bucket) = self
            .index_mut()
            .find_entry(spread(short(h)), |&(_, at)| at == j)
        {
            bucket.remove();
        }
        let (_, v) = self.entries.set(i, None).flatten()?;
        self.len -= 1;
        self.holes += 1;
        if self.holes > MIN_HOLES && self.holes > self.len {
            *self =
                Ordered::from_distinct(std::mem::take(&mut self.entries).into_slots().flatten());
        }
        Some(v)
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            slots: self.entries.iter(),
            left: self.len,
        }
    }

    /// The entries, in order, owned.
    pub fn into_entries(self) -> impl Iterator<Item = (Value, Value)> {
        self.entries.into_slots().flatten()
    }
}

/// The entries of an [`Ordered`] map, in order, with the exact number
/// left (so what collects them sizes its room once).
pub struct Iter<'a> {
    slots: SlotIter<'a>,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        // The slots in order, skipping the holes removals left.
        loop {
            if let Some((k, v)) = self.slots.next()? {
                self.left -= 1;
                return Some((k, v));
            }
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        loop {
            if let Some((k, v)) = self.slots.next_back()? {
                self.left -= 1;
                return Some((k, v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Value {
        Value::Int(i)
    }

    #[test]
    fn keeps_insertion_order_through_updates_and_removals() {
        let mut m = Ordered::from_distinct((0..100).rev().map(|i| (int(i), int(i))));
        m.insert(int(50), int(-1));
        assert_eq!(m.get(&int(50)), Some(&int(-1)));
        for i in 0..90 {
            assert_eq!(
                m.remove(&int(i)),
                Some(if i == 50 { int(-1) } else { int(i) })
            );
        }
        m.insert(int(5), int(5));
        let keys: Vec<i64> = m.iter().map(|(k, _)| k.as_int().unwrap()).collect();
        assert_eq!(keys, [99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 5]);
        let back: Vec<i64> = m.iter().rev().map(|(k, _)| k.as_int().unwrap()).collect();
        assert_eq!(back.first(), Some(&5));
        assert_eq!(m.len(), 11);
        assert!(m.holes <= MIN_HOLES.max(m.len()));
    }

    /// The iterator knows how many entries are left, holes or not, from
    /// either end (what collects a map's entries sizes its room by it).
    #[test]
    fn iteration_counts_the_entries_left_exactly() {
        let mut m = Ordered::from_distinct((0..100).map(|i| (int(i), int(i))));
        for i in (0..100).step_by(3) {
            m.remove(&int(i));
        }
        let mut it = m.iter();
        assert_eq!(it.size_hint(), (m.len(), Some(m.len())));
        it.next();
        it.next_back();
        assert_eq!(it.len(), m.len() - 2);
        assert_eq!(it.count(), m.len() - 2);
        let back: Vec<i64> = m.iter().rev().map(|(k, _)| k.as_int().unwrap()).collect();
        assert_eq!(back.len(), m.len());
        assert_eq!(back.first(), Some(&98));
    }

    /// The index grows (rehashing from the 32 bits each bucket keeps) and
    /// still finds every key, strings and integers, after removals too.
    #[test]
    fn a_growing_index_finds_every_key() {
        let key = |i: i64| {
            if i % 2 == 0 {
                int(i)
            } else {
                Value::Str(format!("k{i}").into())
            }
        };
        let mut m = Ordered::default();
        for i in 0..20_000 {
            assert_eq!(m.insert(key(i), int(i)), None);
        }
        for i in (0..20_000).step_by(3) {
            assert_eq!(m.remove(&key(i)), Some(int(i)));
        }
        for i in 0..20_000 {
            let want = (i % 3 != 0).then_some(int(i));
            assert_eq!(m.get(&key(i)).cloned(), want, "key {i}");
        }
        assert_eq!(m.get(&key(20_001)), None);
        assert_eq!(m.len(), 20_000 - 6_667);
    }

    #[test]
    fn keys_sharing_a_hash_are_told_apart_by_equality() {
        let mut index = HashTable::new();
        for i in [0, 2] {
            index.insert_unique(spread(short(7)), (short(7), i), rehash);
        }
        let m = Ordered {
            entries: [Some((int(1), int(10))), None, Some((int(2), int(20)))]
                .into_iter()
                .collect(),
            index: Arc::new(index),
            len: 2,
            holes: 1,
        };
        assert_eq!(m.position(&int(1), 7), Some(0));
        assert_eq!(m.position(&int(2), 7), Some(2));
        assert_eq!(m.position(&int(3), 7), None);
        assert_eq!(m.get_by(7, |k| k == &int(2)), Some(&int(20)));
    }

    #[test]
    fn a_value_replaced_keeps_the_index_shared_and_a_new_key_copies_it() {
        let a = Ordered::from_distinct((0..40).map(|i| (int(i), int(i))));
        let mut b = a.clone();
        b.insert(int(1), int(100));
        assert!(Arc::ptr_eq(&a.index, &b.index));
        b.insert(int(1000), int(1));
        assert!(!Arc::ptr_eq(&a.index, &b.index));
        assert_eq!(a.get(&int(1000)), None);
        assert_eq!(b.get(&int(1000)), Some(&int(1)));
    }

    #[test]
    fn copies_share_and_diverge() {
        let a = Ordered::from_distinct((0..40).map(|i| (int(i), int(i))));
        let mut b = a.clone();
        assert!(a.ptr_eq(&b));
        b.insert(int(1), int(100));
        b.remove(&int(2));
        assert_eq!(a.get(&int(1)), Some(&int(1)));
        assert_eq!(a.get(&int(2)), Some(&int(2)));
        assert_eq!(b.get(&int(1)), Some(&int(100)));
        assert_eq!(b.get(&int(2)), None);
    }
}
