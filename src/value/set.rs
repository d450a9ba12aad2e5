//! [`Set`]: the persistent set behind `Value::Set`, ordered canonically.
//!
//! Like [`super::map::Map`]: up to [`super::map::SMALL`] elements are a
//! sorted array shared by `Arc` (copy on write); larger sets are imbl
//! `OrdSet`s. The API mirrors the subset of `OrdSet` ptc uses.

use std::sync::Arc;

use super::hash::ValueTable;
use super::map::SMALL;
use super::order::cmp_key;
use super::Value;

type Large = imbl::OrdSet<Value>;

/// Above this many elements, [`Set::from_iter`] drops duplicates by hash
/// before it sorts.
const DEDUPE_BY_HASH: usize = 64;

/// A persistent set (O(1) clone, structural sharing) iterating in
/// canonical order.
#[derive(Clone, Default)]
pub struct Set(Repr);

#[derive(Clone, Default)]
enum Repr {
    #[default]
    Empty,
    Small(Arc<Vec<Value>>),
    Large(Arc<Large>),
}

impl Set {
    /// An empty set.
    pub fn new() -> Set {
        Set(Repr::Empty)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Empty => 0,
            Repr::Small(v) => v.len(),
            Repr::Large(s) => s.len(),
        }
    }

    /// Whether the set has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address of this set's storage when another value holds it too
    /// (`None` when unshared or empty): how walks over values that share
    /// parts with themselves visit each shared part once.
    pub fn shared_addr(&self) -> Option<usize> {
        match &self.0 {
            Repr::Empty => None,
            Repr::Small(v) => super::shared_addr(v),
            Repr::Large(m) => super::shared_addr(m),
        }
    }

    /// Whether both share the same storage (equal without comparing).
    pub fn ptr_eq(&self, other: &Set) -> bool {
        match (&self.0, &other.0) {
            (Repr::Empty, Repr::Empty) => true,
            (Repr::Small(a), Repr::Small(b)) => Arc::ptr_eq(a, b),
            (Repr::Large(a), Repr::Large(b)) => Arc::ptr_eq(a, b) || a.ptr_eq(b),
            _ => false,
        }
    }

    /// Whether an element equal to `x` is present.
    pub fn contains(&self, x: &Value) -> bool {
        match &self.0 {
            Repr::Empty => false,
            Repr::Small(v) => v.binary_search_by(|y| cmp_key(y, x)).is_ok(),
            Repr::Large(s) => s.contains(x),
        }
    }

    /// The stored element equal to `x`.
    pub fn get(&self, x: &Value) -> Option<&Value> {
        match &self.0 {
            Repr::Empty => None,
            Repr::Small(v) => v.binary_search_by(|y| cmp_key(y, x)).ok().map(|i| &v[i]),
            Repr::Large(s) => s.get(x),
        }
    }

    /// Adds `x`; returns the element it replaced, if any.
    pub fn insert(&mut self, x: Value) -> Option<Value> {
        match &mut self.0 {
            Repr::Empty => {
                self.0 = Repr::Small(Arc::new(vec![x]));
                None
            }
            Repr::Small(vec) => match vec.binary_search_by(|y| cmp_key(y, &x)) {
                Ok(i) => Some(std::mem::replace(&mut Arc::make_mut(vec)[i], x)),
                Err(i) if vec.len() < SMALL => {
                    Arc::make_mut(vec).insert(i, x);
                    None
                }
                Err(_) => {
                    let mut large: Large = vec.iter().cloned().collect();
                    large.insert(x);
                    self.0 = Repr::Large(Arc::new(large));
                    None
                }
            },
            Repr::Large(s) => Arc::make_mut(s).insert(x),
        }
    }

    /// Removes the element equal to `x`, returning it if it was present.
    pub fn remove(&mut self, x: &Value) -> Option<Value> {
        match &mut self.0 {
            Repr::Empty => None,
            Repr::Small(vec) => {
                let i = vec.binary_search_by(|y| cmp_key(y, x)).ok()?;
                let old = Arc::make_mut(vec).remove(i);
                if vec.is_empty() {
                    self.0 = Repr::Empty;
                }
                Some(old)
            }
            Repr::Large(s) => {
                let old = Arc::make_mut(s).remove(x);
                if s.len() <= SMALL / 2 {
                    self.0 = Repr::Small(Arc::new(s.iter().cloned().collect()));
                }
                old
            }
        }
    }

    /// The elements, in canonical order.
    pub fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Empty => Iter::Small([].iter()),
            Repr::Small(v) => Iter::Small(v.iter()),
            Repr::Large(s) => Iter::Large(s.iter()),
        }
    }

    /// Every element of either set.
    pub fn union(mut self, other: Set) -> Set {
        if self.len() < other.len() {
            return other.union(self);
        }
        for x in other {
            if !self.contains(&x) {
                self.insert(x);
            }
        }
        self
    }

    /// Whether every element of `self` is in `other`.
    pub fn is_subset(&self, other: &Set) -> bool {
        self.len() <= other.len() && self.iter().all(|x| other.contains(x))
    }
}

/// Elements in canonical order.
pub enum Iter<'a> {
    /// Over a set kept as a sorted array.
    Small(std::slice::Iter<'a, Value>),
    /// Over a larger set.
    Large(imbl::ordset::Iter<'a, Value>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Value;
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Iter::Small(it) => it.next(),
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

impl<'a> DoubleEndedIterator for Iter<'a> {
    fn next_back(&mut self) -> Option<&'a Value> {
        match self {
            Iter::Small(it) => it.next_back(),
            Iter::Large(it) => it.next_back(),
        }
    }
}

impl<'a> IntoIterator for &'a Set {
    type Item = &'a Value;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Set {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        let items: Vec<Value> = match self.0 {
            Repr::Empty => Vec::new(),
            Repr::Small(v) => Arc::try_unwrap(v).unwrap_or_else(|shared| (*shared).clone()),
            Repr::Large(s) => s.iter().cloned().collect(),
        };
        items.into_iter()
    }
}

impl FromIterator<Value> for Set {
    /// Sorts the elements once and drops duplicates (equal elements are
    /// indistinguishable, so which one stays does not matter) instead of
    /// inserting them one by one. Many elements are first told apart by
    /// hash, so `(set xs)` of 100,000 items with 500 distinct ones sorts
    /// 500, not 100,000.
    // Keys are hashed and compared by value; a regex's cache is not part of it.
    #[allow(clippy::mutable_key_type)]
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Set {
        let mut items: Vec<Value> = iter.into_iter().collect();
        if items.len() > DEDUPE_BY_HASH {
            let mut seen: ValueTable<()> = ValueTable::default();
            items.retain(|x| seen.insert(x.clone(), ()).is_none());
        }
        items.sort();
        items.dedup();
        match items.len() {
            0 => Set::new(),
            n if n <= SMALL => Set(Repr::Small(Arc::new(items))),
            _ => Set(Repr::Large(Arc::new(items.into_iter().collect()))),
        }
    }
}

impl Extend<Value> for Set {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        for x in iter {
            self.insert(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_canonical_order_across_representations() {
        let mut s = Set::new();
        for i in (0..40).rev() {
            s.insert(Value::Int(i % 30));
        }
        assert_eq!(s.len(), 30);
        assert!(s.iter().cloned().eq((0..30).map(Value::Int)));
        for i in 0..25 {
            assert!(s.remove(&Value::Int(i)).is_some());
        }
        assert!(matches!(s.0, Repr::Small(_)));
        let other: Set = (20..40).map(Value::Int).collect();
        assert!(s.is_subset(&other));
        assert_eq!(s.clone().union(other).len(), 20);
    }

    #[test]
    fn many_elements_with_duplicates_build_the_same_set_as_few() {
        let many: Set = (0..10_000).map(|i| Value::Int((i * 7919) % 300)).collect();
        assert_eq!(many.len(), 300);
        assert!(many.iter().cloned().eq((0..300).map(Value::Int)));
        let mixed: Set = (0..200)
            .flat_map(|i| [Value::Int(i % 5), Value::string(format!("s{}", i % 3))])
            .collect();
        let few: Set = (0..5)
            .map(Value::Int)
            .chain((0..3).map(|i| Value::string(format!("s{i}"))))
            .collect();
        assert_eq!(mixed.len(), 8);
        assert!(mixed.iter().eq(few.iter()));
    }
}
