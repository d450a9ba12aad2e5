//! [`Ordered`]: the persistent map behind large maps — entries in the order
//! their keys were first added, found through a hashed index.
//!
//! Two structurally shared imbl collections: the entries in insertion order
//! (`Vector`, holes where keys were removed) and an index from key to
//! position (`HashMap`, hashed with [`Prehashed`]: the whole key, see
//! `value/hash.rs`). Every operation is O(log n) on a shared map and updates
//! an unshared one in place; the index is never iterated, so the order of
//! a map never depends on hashing. Holes are squeezed out when they
//! outnumber the entries.

use imbl::hashmap::Entry as IndexEntry;

use crate::value::hash::Prehashed;
use crate::value::Value;

type Slot = Option<(Value, Value)>;

/// An insertion-ordered persistent map (see the module docs).
#[derive(Clone)]
pub struct Ordered {
    entries: imbl::Vector<Slot>,
    index: imbl::HashMap<Value, usize, Prehashed>,
    holes: usize,
}

/// Holes tolerated before [`Ordered::remove`] squeezes them out.
const MIN_HOLES: usize = 32;

impl Ordered {
    /// A map of `entries`, whose keys are distinct, in their order.
    pub fn from_distinct(entries: impl IntoIterator<Item = (Value, Value)>) -> Ordered {
        let mut m = Ordered {
            entries: imbl::Vector::new(),
            index: imbl::HashMap::with_hasher(Prehashed),
            holes: 0,
        };
        for (k, v) in entries {
            m.insert(k, v);
        }
        m
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Whether both maps share all their storage.
    pub fn ptr_eq(&self, other: &Ordered) -> bool {
        self.entries.ptr_eq(&other.entries) && self.index.ptr_eq(&other.index)
    }

    fn slot(&self, k: &Value) -> Option<&(Value, Value)> {
        let i = *self.index.get(k)?;
        self.entries.get(i)?.as_ref()
    }

    pub fn get(&self, k: &Value) -> Option<&Value> {
        self.slot(k).map(|(_, v)| v)
    }

    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &Value)> {
        self.slot(k).map(|(k, v)| (k, v))
    }

    pub fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        let i = *self.index.get(k)?;
        self.entries.get_mut(i)?.as_mut().map(|(_, v)| v)
    }

    /// Inserts or replaces (an existing key keeps its place); returns the
    /// previous value.
    pub fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        match self.index.entry(k) {
            IndexEntry::Occupied(found) => {
                let i = *found.get();
                let slot = self.entries.get_mut(i).and_then(Option::as_mut);
                slot.map(|(_, old)| std::mem::replace(old, v))
            }
            IndexEntry::Vacant(place) => {
                let k = place.key().clone();
                place.insert(self.entries.len());
                self.entries.push_back(Some((k, v)));
                None
            }
        }
    }

    /// Removes a key; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        let i = self.index.remove(k)?;
        let (_, v) = self.entries.set(i, None)?;
        self.holes += 1;
        if self.holes > MIN_HOLES && self.holes > self.len() {
            *self = Ordered::from_distinct(std::mem::take(&mut self.entries).into_iter().flatten());
        }
        Some(v)
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries, in order, owned.
    pub fn into_entries(self) -> impl Iterator<Item = (Value, Value)> {
        self.entries.into_iter().flatten()
    }
}

/// The entries of an [`Ordered`] map, in order.
pub struct Iter<'a>(imbl::vector::Iter<'a, Slot>);

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
