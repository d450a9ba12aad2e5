//! Walking a [`Map`]: [`Iter`] over its entries in its order, the
//! owned iteration, [`Entry`], and building one from entries.

use std::sync::Arc;

use super::{ordered, Map, Repr};
use crate::value::Value;

/// A slot of a [`Map`], from [`Map::entry`].
pub struct Entry<'a> {
    pub(super) map: &'a mut Map,
    pub(super) key: Value,
}

impl<'a> Entry<'a> {
    /// The value of the slot, inserting `v` if the key is absent.
    pub fn or_insert(self, v: Value) -> &'a mut Value {
        self.map.get_or_insert_with(self.key, || v)
    }
    /// The value of the slot, inserting `f()` if the key is absent.
    pub fn or_insert_with(self, f: impl FnOnce() -> Value) -> &'a mut Value {
        self.map.get_or_insert_with(self.key, f)
    }
}

/// Entries in the map's order.
pub enum Iter<'a> {
    /// Over a map of at most [`SMALL`](super::SMALL) entries.
    Small(std::slice::Iter<'a, (Value, Value)>),
    /// Over a record's keys and values (the rest of each).
    Record(&'a [Value], &'a [Value]),
    /// Over a larger insertion-ordered map.
    Large(ordered::Iter<'a>),
    /// Over a `sorted-map`.
    Sorted(imbl::ordmap::Iter<'a, Value, Value>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next().map(|(k, v)| (k, v)),
            Iter::Record(keys, vals) => {
                let ((k, ks), (v, vs)) = (keys.split_first()?, vals.split_first()?);
                (*keys, *vals) = (ks, vs);
                Some((k, v))
            }
            Iter::Large(it) => it.next(),
            Iter::Sorted(it) => it.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Small(it) => it.size_hint(),
            Iter::Record(keys, _) => (keys.len(), Some(keys.len())),
            Iter::Large(it) => it.size_hint(),
            Iter::Sorted(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next_back().map(|(k, v)| (k, v)),
            Iter::Record(keys, vals) => {
                let ((k, ks), (v, vs)) = (keys.split_last()?, vals.split_last()?);
                (*keys, *vals) = (ks, vs);
                Some((k, v))
            }
            Iter::Large(it) => it.next_back(),
            Iter::Sorted(it) => it.next_back(),
        }
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Value, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Map {
    type Item = (Value, Value);
    type IntoIter = std::vec::IntoIter<(Value, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        let entries: Vec<(Value, Value)> = match self.into_repr() {
            Repr::Empty => Vec::new(),
            Repr::Small(v, _) => v.into_vec(),
            Repr::Record(v, _) => {
                let keys = v.extra().clone();
                keys.iter().cloned().zip(v.into_vec()).collect()
            }
            Repr::Large(m, _) => match Arc::try_unwrap(m) {
                Ok(m) => m.into_entries().collect(),
                Err(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            },
            Repr::Sorted(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        entries.into_iter()
    }
}

impl FromIterator<(Value, Value)> for Map {
    /// Inserts in order: a later duplicate key replaces the value and keeps
    /// the first one's place.
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(iter: I) -> Map {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl Extend<(Value, Value)> for Map {
    fn extend<I: IntoIterator<Item = (Value, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}
