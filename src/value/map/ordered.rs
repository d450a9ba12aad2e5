//! [`Ordered`]: the persistent map behind large maps — entries in the order
//! their keys were first added, found through an index of key hashes.
//!
//! Two structurally shared imbl collections: the entries in insertion order
//! (`Vector`, holes where keys were removed) and an index from the hash of
//! each key (`value/hash.rs`: the whole key) to its position (`OrdMap` over
//! `u64`: dense B-tree leaves, integer comparisons, no key comparisons but
//! the final one). Every operation is O(log n) on a shared map and updates
//! an unshared one in place; the index is never iterated, so the order of
//! a map never depends on hashing. Holes are squeezed out when they
//! outnumber the entries.

use crate::value::hash::value_hash;
use crate::value::Value;

use super::same_key;

type Slot = Option<(Value, Value)>;

/// Bytes of one entry slot of a large map (`value/cost.rs`).
pub(crate) const SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;
/// Bytes of one key of the hash index: the hash and its positions.
pub(crate) const INDEX_KEY_BYTES: u64 = std::mem::size_of::<(u64, Positions)>() as u64;
/// Bytes of the [`Ordered`] struct inside its `Arc`.
pub(crate) const ORDERED_BYTES: u64 = std::mem::size_of::<Ordered>() as u64;

/// The positions of the keys that share one hash: almost always one.
#[derive(Clone)]
enum Positions {
    One(usize),
    Many(Vec<usize>),
}

impl Positions {
    fn as_slice(&self) -> &[usize] {
        match self {
            Positions::One(i) => std::slice::from_ref(i),
            Positions::Many(v) => v,
        }
    }
}

/// An insertion-ordered persistent map (see the module docs).
#[derive(Clone, Default)]
pub struct Ordered {
    entries: imbl::Vector<Slot>,
    index: imbl::OrdMap<u64, Positions>,
    len: usize,
    holes: usize,
}

/// Holes tolerated before [`Ordered::remove`] squeezes them out.
const MIN_HOLES: usize = 32;

impl Ordered {
    /// A map of `entries`, in their order (a later duplicate key replaces
    /// the value and keeps the first one's place).
    pub fn from_distinct(entries: impl IntoIterator<Item = (Value, Value)>) -> Ordered {
        let mut m = Ordered::default();
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
        self.entries.ptr_eq(&other.entries) && self.index.ptr_eq(&other.index)
    }

    /// The position of `k` (whose hash is `h`) among the entries.
    fn position(&self, k: &Value, h: u64) -> Option<usize> {
        let candidates = self.index.get(&h)?;
        candidates
            .as_slice()
            .iter()
            .copied()
            .find(|&i| matches!(self.entries.get(i), Some(Some((x, _))) if same_key(x, k)))
    }

    /// The value of the key whose hash is `h` and that `is_key` accepts.
    pub fn get_by(&self, h: u64, is_key: impl Fn(&Value) -> bool) -> Option<&Value> {
        let candidates = self.index.get(&h)?;
        candidates
            .as_slice()
            .iter()
            .find_map(|&i| match self.entries.get(i) {
                Some(Some((x, v))) if is_key(x) => Some(v),
                _ => None,
            })
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
        if let Some(i) = self.position(&k, h) {
            let slot = self.entries.get_mut(i).and_then(Option::as_mut);
            return slot.map(|(_, old)| std::mem::replace(old, v));
        }
        let i = self.entries.len();
        match self.index.get_mut(&h) {
            None => {
                self.index.insert(h, Positions::One(i));
            }
            Some(Positions::One(j)) => {
                let j = *j;
                self.index.insert(h, Positions::Many(vec![j, i]));
            }
            Some(Positions::Many(v)) => v.push(i),
        }
        self.entries.push_back(Some((k, v)));
        self.len += 1;
        None
    }

    /// Removes a key; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        let h = value_hash(k);
        let i = self.position(k, h)?;
        match self.index.get_mut(&h) {
            Some(Positions::Many(v)) if v.len() > 1 => v.retain(|&j| j != i),
            _ => {
                self.index.remove(&h);
            }
        }
        let (_, v) = self.entries.set(i, None)?;
        self.len -= 1;
        self.holes += 1;
        if self.holes > MIN_HOLES && self.holes > self.len {
            *self = Ordered::from_distinct(std::mem::take(&mut self.entries).into_iter().flatten());
        }
        Some(v)
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(Box::new(crate::value::vector::Chunked::new(&self.entries)))
    }

    /// The entries, in order, owned.
    pub fn into_entries(self) -> impl Iterator<Item = (Value, Value)> {
        self.entries.into_iter().flatten()
    }
}

/// The entries of an [`Ordered`] map, in order.
pub struct Iter<'a>(Box<crate::value::vector::Chunked<'a, Slot>>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.by_ref().flatten().next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.0.size_hint().1)
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            match self.0.next_back()? {
                Some((k, v)) => return Some((k, v)),
                None => continue,
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

    #[test]
    fn keys_sharing_a_hash_are_told_apart_by_equality() {
        let m = Ordered {
            entries: [Some((int(1), int(10))), None, Some((int(2), int(20)))]
                .into_iter()
                .collect(),
            index: [(7u64, Positions::Many(vec![0, 2]))].into_iter().collect(),
            len: 2,
            holes: 1,
        };
        assert_eq!(m.position(&int(1), 7), Some(0));
        assert_eq!(m.position(&int(2), 7), Some(2));
        assert_eq!(m.position(&int(3), 7), None);
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
