//! [`Map`]: the persistent map behind `Value::Map`, ordered by the canonical
//! order of its keys.
//!
//! Most maps a program meets are small records (`{:id 1 :name "x"}`), and
//! imbl's `OrdMap` gives every map a 64-slot B-tree leaf (about 3 KB). So a
//! map of up to [`SMALL`] entries is a sorted array shared by `Arc` (copied on
//! write: at most `SMALL` entries), and a larger one an `OrdMap` (structural
//! sharing). The API mirrors the subset of `OrdMap` ptc uses, so callers do
//! not see the difference.

use std::sync::Arc;

use super::order::cmp_key;
use super::Value;

/// Largest number of entries kept as a sorted array.
pub const SMALL: usize = 16;

type Large = imbl::OrdMap<Value, Value>;

#[derive(Clone, Default)]
pub struct Map(Repr);

#[derive(Clone, Default)]
enum Repr {
    #[default]
    Empty,
    Small(Arc<Vec<(Value, Value)>>),
    Large(Arc<Large>),
}

impl Map {
    pub fn new() -> Map {
        Map(Repr::Empty)
    }

    /// A map of one entry.
    pub fn unit(k: Value, v: Value) -> Map {
        Map(Repr::Small(Arc::new(vec![(k, v)])))
    }

    /// A map of `entries` already in key order, without duplicate keys
    /// (what a record literal builds); at most [`SMALL`] of them.
    pub fn from_sorted(entries: Vec<(Value, Value)>) -> Map {
        debug_assert!(entries.len() <= SMALL);
        debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
        if entries.is_empty() {
            Map::new()
        } else {
            Map(Repr::Small(Arc::new(entries)))
        }
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Empty => 0,
            Repr::Small(v) => v.len(),
            Repr::Large(m) => m.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address of this map's storage when another value holds it too
    /// (`None` when unshared or empty): how walks over values that share
    /// parts with themselves visit each shared part once.
    pub fn shared_addr(&self) -> Option<usize> {
        match &self.0 {
            Repr::Empty => None,
            Repr::Small(v) => super::shared_addr(v),
            Repr::Large(m) => super::shared_addr(m),
        }
    }

    /// Whether both maps share the same storage (then they are equal).
    pub fn ptr_eq(&self, other: &Map) -> bool {
        match (&self.0, &other.0) {
            (Repr::Empty, Repr::Empty) => true,
            (Repr::Small(a), Repr::Small(b)) => Arc::ptr_eq(a, b),
            (Repr::Large(a), Repr::Large(b)) => Arc::ptr_eq(a, b) || a.ptr_eq(b),
            _ => false,
        }
    }

    pub fn get(&self, k: &Value) -> Option<&Value> {
        match &self.0 {
            Repr::Empty => None,
            Repr::Small(v) => {
                // Records are looked up with the same interned keyword
                // they were built with: a pointer scan finds most keys.
                if let Value::Keyword(name) = k {
                    let hit = v
                        .iter()
                        .find(|(x, _)| matches!(x, Value::Keyword(xn) if Arc::ptr_eq(xn, name)));
                    if let Some((_, found)) = hit {
                        return Some(found);
                    }
                }
                v.binary_search_by(|(x, _)| cmp_key(x, k))
                    .ok()
                    .map(|i| &v[i].1)
            }
            Repr::Large(m) => m.get(k),
        }
    }

    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &Value)> {
        match &self.0 {
            Repr::Empty => None,
            Repr::Small(v) => v
                .binary_search_by(|(x, _)| cmp_key(x, k))
                .ok()
                .map(|i| (&v[i].0, &v[i].1)),
            Repr::Large(m) => m.get_key_value(k),
        }
    }

    pub fn contains_key(&self, k: &Value) -> bool {
        self.get(k).is_some()
    }

    /// Inserts or replaces; returns the previous value.
    pub fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        match &mut self.0 {
            Repr::Empty => {
                self.0 = Repr::Small(Arc::new(vec![(k, v)]));
                None
            }
            Repr::Small(vec) => match vec.binary_search_by(|(x, _)| cmp_key(x, &k)) {
                Ok(i) => Some(std::mem::replace(&mut Arc::make_mut(vec)[i].1, v)),
                Err(i) if vec.len() < SMALL => {
                    Arc::make_mut(vec).insert(i, (k, v));
                    None
                }
                Err(_) => {
                    let mut large: Large = vec.iter().cloned().collect();
                    large.insert(k, v);
                    self.0 = Repr::Large(Arc::new(large));
                    None
                }
            },
            Repr::Large(m) => Arc::make_mut(m).insert(k, v),
        }
    }

    /// The value at `k`, to change in place (a shared map is copied first,
    /// as `insert` would).
    pub fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        match &mut self.0 {
            Repr::Empty => None,
            Repr::Small(v) => {
                let i = v.binary_search_by(|(x, _)| cmp_key(x, k)).ok()?;
                Some(&mut Arc::make_mut(v)[i].1)
            }
            Repr::Large(m) => Arc::make_mut(m).get_mut(k),
        }
    }

    /// Takes the value at `k` out, leaving `nil` under the key: a value
    /// held only by this (unshared) map is then held by the caller alone,
    /// who can update it in place and put it back with
    /// [`Map::insert`]. A shared map is copied first, as `insert` would.
    pub fn take_value(&mut self, k: &Value) -> Option<Value> {
        self.get_mut(k)
            .map(|slot| std::mem::replace(slot, Value::Nil))
    }

    /// Removes a key; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        match &mut self.0 {
            Repr::Empty => None,
            Repr::Small(vec) => {
                let i = vec.binary_search_by(|(x, _)| cmp_key(x, k)).ok()?;
                let (_, v) = Arc::make_mut(vec).remove(i);
                if vec.is_empty() {
                    self.0 = Repr::Empty;
                }
                Some(v)
            }
            Repr::Large(m) => {
                let old = Arc::make_mut(m).remove(k);
                if m.len() <= SMALL / 2 {
                    self.0 = Repr::Small(Arc::new(
                        m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                    ));
                }
                old
            }
        }
    }

    /// The value at `k`, inserting `f()` first if there is none.
    pub fn get_or_insert_with(&mut self, k: Value, f: impl FnOnce() -> Value) -> &mut Value {
        if !self.contains_key(&k) {
            self.insert(k.clone(), f());
        }
        match &mut self.0 {
            Repr::Empty => unreachable!("a key was just inserted"),
            Repr::Small(vec) => {
                let i = vec
                    .binary_search_by(|(x, _)| cmp_key(x, &k))
                    .unwrap_or_else(|i| i);
                &mut Arc::make_mut(vec)[i].1
            }
            Repr::Large(m) => Arc::make_mut(m).entry(k).or_insert(Value::Nil),
        }
    }

    /// `entry(k).or_insert(v)` / `.or_insert_with(f)`, as on std maps.
    pub fn entry(&mut self, k: Value) -> Entry<'_> {
        Entry { map: self, key: k }
    }

    /// The entries of a small map as a slice (`None` for a large one), for
    /// scans that want no iterator.
    pub fn small_entries(&self) -> Option<&[(Value, Value)]> {
        match &self.0 {
            Repr::Empty => Some(&[]),
            Repr::Small(v) => Some(v),
            Repr::Large(_) => None,
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Empty => Iter::Small([].iter()),
            Repr::Small(v) => Iter::Small(v.iter()),
            Repr::Large(m) => Iter::Large(m.iter()),
        }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Value> {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> {
        self.iter().map(|(_, v)| v)
    }

    /// Both maps' entries; on equal keys `self`'s value wins.
    pub fn union(mut self, other: Map) -> Map {
        for (k, v) in other {
            if !self.contains_key(&k) {
                self.insert(k, v);
            }
        }
        self
    }
}

/// A slot of a [`Map`], from [`Map::entry`].
pub struct Entry<'a> {
    map: &'a mut Map,
    key: Value,
}

impl<'a> Entry<'a> {
    pub fn or_insert(self, v: Value) -> &'a mut Value {
        self.map.get_or_insert_with(self.key, || v)
    }
    pub fn or_insert_with(self, f: impl FnOnce() -> Value) -> &'a mut Value {
        self.map.get_or_insert_with(self.key, f)
    }
}

/// Entries in key order.
pub enum Iter<'a> {
    Small(std::slice::Iter<'a, (Value, Value)>),
    Large(imbl::ordmap::Iter<'a, Value, Value>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next().map(|(k, v)| (k, v)),
            Iter::Large(it) => it.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Small(it) => it.size_hint(),
            Iter::Large(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next_back().map(|(k, v)| (k, v)),
            Iter::Large(it) => it.next_back(),
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
        let entries: Vec<(Value, Value)> = match self.0 {
            Repr::Empty => Vec::new(),
            Repr::Small(v) => Arc::try_unwrap(v).unwrap_or_else(|shared| (*shared).clone()),
            Repr::Large(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        entries.into_iter()
    }
}

impl FromIterator<(Value, Value)> for Map {
    /// Sorts the entries once (a later duplicate key wins, as with
    /// repeated inserts) instead of inserting them one by one.
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(iter: I) -> Map {
        let mut entries: Vec<(Value, Value)> = iter.into_iter().collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut unique: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match unique.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => unique.push((k, v)),
            }
        }
        if unique.len() <= SMALL {
            Map::from_sorted(unique)
        } else {
            Map(Repr::Large(Arc::new(unique.into_iter().collect())))
        }
    }
}

impl Extend<(Value, Value)> for Map {
    fn extend<I: IntoIterator<Item = (Value, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
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
    fn grows_into_a_tree_and_shrinks_back_keeping_order() {
        let mut m = Map::new();
        for i in (0..100).rev() {
            assert_eq!(m.insert(int(i), int(i * 2)), None);
        }
        assert_eq!(m.len(), 100);
        assert!(m.keys().cloned().eq((0..100).map(int)));
        assert_eq!(m.get(&int(42)), Some(&int(84)));
        for i in 0..95 {
            assert_eq!(m.remove(&int(i)), Some(int(i * 2)));
        }
        assert!(matches!(m.0, Repr::Small(_)));
        assert!(m.keys().cloned().eq((95..100).map(int)));
    }

    #[test]
    fn copies_on_write_and_leaves_the_original_alone() {
        let a: Map = [(int(1), int(1)), (int(2), int(2))].into_iter().collect();
        let mut b = a.clone();
        assert!(a.ptr_eq(&b));
        b.insert(int(3), int(3));
        *b.entry(int(1)).or_insert(int(0)) = int(10);
        assert_eq!(a.len(), 2);
        assert_eq!(a.get(&int(1)), Some(&int(1)));
        assert_eq!(b.get(&int(1)), Some(&int(10)));
        assert!(!a.ptr_eq(&b));
    }

    #[test]
    fn union_prefers_the_left_side() {
        let a: Map = [(int(1), int(1))].into_iter().collect();
        let b: Map = [(int(1), int(9)), (int(2), int(2))].into_iter().collect();
        let u = a.union(b);
        assert_eq!(u.get(&int(1)), Some(&int(1)));
        assert_eq!(u.len(), 2);
    }
}
