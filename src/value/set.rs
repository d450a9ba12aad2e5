//! [`Set`]: the persistent set behind `Value::Set`, iterating in canonical
//! order.
//!
//! One word: `None` when empty, else an `Arc` of the storage, either
//! representation (an enum: a small set is read through one pointer, as
//! an `Arc<Vec>` was; a large set's table is boxed, one hop more, so a
//! small set's storage stays 40 bytes). Up to [`super::map::SMALL`]
//! elements are a sorted array (copy on write, binary search). A larger
//! set is a hash table of its elements with their hashes (`hashbrown`,
//! open addressing):
//! `conj`, `disj` and `contains?` hash the element once and compare only
//! elements with the same hash; an unshared set is changed in place, a
//! shared one copied first (copy on write; the copy is charged to the
//! turn's heap). Nothing sorts on `conj` or `contains?`.
//!
//! **Canonical order where it shows (rule V-SET-1).** A large set is sorted
//! (`format.md` F-2) the first time it is iterated or printed, and the
//! sorted elements are kept beside the table until the set changes; so
//! printing, `seq`, `first`, equality and ordering see canonical order, and
//! iterating twice sorts once. Hashing a set (`hash.rs`) and the set
//! operations that need no order (`is_subset`, `union`) read the table in
//! its own order and never sort.

use std::sync::{Arc, OnceLock};

use hashbrown::HashTable;

use super::hash::value_hash;
use super::map::{same_key, SMALL};
use super::order::cmp_key;
use super::Value;
use crate::value::unique::make_mut;

/// A persistent set (O(1) clone) iterating in canonical order: one word,
/// `None` when empty.
#[derive(Clone, Default)]
pub struct Set(Option<Arc<Repr>>);

const _: () = assert!(std::mem::size_of::<Set>() == 8);

/// A non-empty set's storage, shared by `Arc`.
#[derive(Clone)]
enum Repr {
    /// Up to [`SMALL`] elements, sorted.
    Small(Vec<Value>),
    /// More: the hash table, boxed so that a small set's storage is only
    /// as large as its `Vec` (an inline `Hashed` made every small set's
    /// allocation 80 bytes instead of 40).
    Large(Box<Hashed>),
}

/// Bytes of a set's storage inside its `Arc`, small or large: the enum of
/// both (`value/cost.rs`).
pub(crate) const STORAGE_BYTES: u64 = std::mem::size_of::<Repr>() as u64;
/// Bytes of a large set's boxed [`Hashed`] (`value/cost.rs`).
pub(crate) const HASHED_BYTES: u64 = std::mem::size_of::<Hashed>() as u64;
/// Bytes of one bucket of a large set's table: an element beside its hash
/// (each bucket also has a control byte).
pub(crate) const BUCKET_BYTES: u64 = std::mem::size_of::<(u64, Value)>() as u64;
/// The control bytes a hash table keeps past its buckets: one group
/// (hashbrown's SSE2 group width; 8 on targets without it).
pub(crate) const GROUP_BYTES: u64 = 16;

/// A large set: each element beside its hash, and the elements in
/// canonical order once someone asked for them.
struct Hashed {
    table: HashTable<(u64, Value)>,
    sorted: OnceLock<Vec<Value>>,
}

impl Clone for Hashed {
    /// A copy about to change: without the sorted elements.
    fn clone(&self) -> Hashed {
        Hashed {
            table: self.table.clone(),
            sorted: OnceLock::new(),
        }
    }
}

impl Hashed {
    fn with_capacity(n: usize) -> Hashed {
        Hashed {
            table: HashTable::with_capacity(n),
            sorted: OnceLock::new(),
        }
    }

    fn find(&self, h: u64, x: &Value) -> Option<&Value> {
        self.table
            .find(h, |(eh, y)| *eh == h && same_key(y, x))
            .map(|(_, y)| y)
    }

    /// Adds `x` (hash `h`); returns the element it replaced.
    fn insert(&mut self, h: u64, x: Value) -> Option<Value> {
        self.sorted.take();
        match self
            .table
            .find_mut(h, |(eh, y)| *eh == h && same_key(y, &x))
        {
            Some((_, y)) => Some(std::mem::replace(y, x)),
            None => {
                self.table.insert_unique(h, (h, x), |(eh, _)| *eh);
                None
            }
        }
    }

    fn remove(&mut self, h: u64, x: &Value) -> Option<Value> {
        let entry = self
            .table
            .find_entry(h, |(eh, y)| *eh == h && same_key(y, x))
            .ok()?;
        self.sorted.take();
        Some(entry.remove().0 .1)
    }

    /// The elements in canonical order, sorted on the first call and kept
    /// (charged to the heap when made: `value/cost.rs`).
    fn sorted(&self) -> &[Value] {
        self.sorted.get_or_init(|| {
            crate::eval::budget::charge_heap(super::cost::set_order_bytes(self.table.len()));
            let mut items: Vec<Value> = self.table.iter().map(|(_, x)| x.clone()).collect();
            items.sort_unstable();
            items
        })
    }
}

impl Repr {
    fn len(&self) -> usize {
        match self {
            Repr::Small(v) => v.len(),
            Repr::Large(s) => s.table.len(),
        }
    }
}

/// A set's storage to change: copied first when another set holds it too
/// (a small set's array, a large set's whole table), the copy charged to
/// the heap (`value/cost.rs`), so adding to or removing from a shared set
/// costs what it allocates (`(mapv #(conj big %) xs)` builds one table
/// per item).
fn storage_mut(s: &mut Arc<Repr>) -> &mut Repr {
    super::cost::charge_copy_if_shared(s, || super::cost::set_copy_bytes(s.len()));
    make_mut(s)
}

/// A small set's elements to change ([`storage_mut`]).
fn small_mut(s: &mut Arc<Repr>) -> &mut Vec<Value> {
    match storage_mut(s) {
        Repr::Small(v) => v,
        Repr::Large(_) => unreachable!("a copy keeps its representation"),
    }
}

/// A large set's table to change ([`storage_mut`]).
fn large_mut(s: &mut Arc<Repr>) -> &mut Hashed {
    match storage_mut(s) {
        Repr::Large(h) => h,
        Repr::Small(_) => unreachable!("a copy keeps its representation"),
    }
}

impl Set {
    /// An empty set.
    pub fn new() -> Set {
        Set(None)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match &self.0 {
            None => 0,
            Some(s) => s.len(),
        }
    }

    /// Whether the set has no elements.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The address of this set's storage when another value holds it too
    /// (`None` when unshared or empty): how walks over values that share
    /// parts with themselves visit each shared part once.
    pub fn shared_addr(&self) -> Option<usize> {
        self.0.as_ref().and_then(super::shared_addr)
    }

    /// Whether both share the same storage (equal without comparing).
    pub fn ptr_eq(&self, other: &Set) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether an element equal to `x` is present.
    pub fn contains(&self, x: &Value) -> bool {
        self.get(x).is_some()
    }

    /// The stored element equal to `x`.
    pub fn get(&self, x: &Value) -> Option<&Value> {
        match self.0.as_deref()? {
            Repr::Small(v) => v.binary_search_by(|y| cmp_key(y, x)).ok().map(|i| &v[i]),
            Repr::Large(s) => s.find(value_hash(x), x),
        }
    }

    /// Adds `x`; returns the element it replaced, if any.
    pub fn insert(&mut self, x: Value) -> Option<Value> {
        let Some(s) = &mut self.0 else {
            self.0 = Some(Arc::new(Repr::Small(vec![x])));
            return None;
        };
        match &**s {
            Repr::Small(vec) => match vec.binary_search_by(|y| cmp_key(y, &x)) {
                Ok(i) => Some(std::mem::replace(&mut small_mut(s)[i], x)),
                Err(i) if vec.len() < SMALL => {
                    small_mut(s).insert(i, x);
                    None
                }
                Err(_) => {
                    let mut large = Hashed::with_capacity(2 * SMALL);
                    for y in vec.iter() {
                        large.insert(value_hash(y), y.clone());
                    }
                    large.insert(value_hash(&x), x);
                    *s = Arc::new(Repr::Large(Box::new(large)));
                    None
                }
            },
            Repr::Large(_) => {
                let h = value_hash(&x);
                large_mut(s).insert(h, x)
            }
        }
    }

    /// Adds the elements of `items` in order, as [`Set::insert`] one at a
    /// time does (an equal element replaces the one there), calling
    /// `grown(before, after)` after each that made the set larger (where a
    /// builtin charges the growth); stops at `grown`'s first error. Once
    /// the set is a hash table, the elements go straight into it: one
    /// copy-on-write check for all of them, not one each.
    pub(crate) fn insert_all<E>(
        &mut self,
        items: impl IntoIterator<Item = Value>,
        mut grown: impl FnMut(usize, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut items = items.into_iter();
        let first = loop {
            let Some(x) = items.next() else {
                return Ok(());
            };
            if let Some(Repr::Large(_)) = self.0.as_deref() {
                break x;
            }
            let before = self.len();
            self.insert(x);
            if self.len() != before {
                grown(before, self.len())?;
            }
        };
        let Some(s) = &mut self.0 else {
            unreachable!("the loop ends on a large set")
        };
        let s = large_mut(s);
        s.sorted.take();
        for x in std::iter::once(first).chain(items) {
            let h = value_hash(&x);
            match s.table.find_mut(h, |(eh, y)| *eh == h && same_key(y, &x)) {
                Some((_, y)) => *y = x,
                None => {
                    let before = s.table.len();
                    s.table.insert_unique(h, (h, x), |(eh, _)| *eh);
                    grown(before, before + 1)?;
                }
            }
        }
        Ok(())
    }

    /// Removes the element equal to `x`, returning it if it was present.
    pub fn remove(&mut self, x: &Value) -> Option<Value> {
        let s = self.0.as_mut()?;
        match &**s {
            Repr::Small(vec) => {
                let i = vec.binary_search_by(|y| cmp_key(y, x)).ok()?;
                let vec = small_mut(s);
                let old = vec.remove(i);
                if vec.is_empty() {
                    self.0 = None;
                }
                Some(old)
            }
            Repr::Large(large) => {
                let h = value_hash(x);
                large.find(h, x)?;
                let large = large_mut(s);
                let old = large.remove(h, x);
                if large.table.len() <= SMALL / 2 {
                    let mut items: Vec<Value> =
                        large.table.iter().map(|(_, y)| y.clone()).collect();
                    items.sort_unstable();
                    *s = Arc::new(Repr::Small(items));
                }
                old
            }
        }
    }

    /// The elements, in canonical order (a large set sorts once, V-SET-1).
    pub fn iter(&self) -> Iter<'_> {
        Iter(match self.0.as_deref() {
            None => [].iter(),
            Some(Repr::Small(v)) => v.iter(),
            Some(Repr::Large(s)) => s.sorted().iter(),
        })
    }

    /// The elements in no particular order (storage order, which may
    /// depend on hashing): for hashing and tests that need no order.
    /// Never use it for anything a program can observe the order of.
    pub fn iter_unordered(&self) -> impl Iterator<Item = &Value> {
        let (small, large) = match self.0.as_deref() {
            None => (None, None),
            Some(Repr::Small(v)) => (Some(v.iter()), None),
            Some(Repr::Large(s)) => (None, Some(s.table.iter().map(|(_, x)| x))),
        };
        small
            .into_iter()
            .flatten()
            .chain(large.into_iter().flatten())
    }

    /// Every element of either set.
    pub fn union(mut self, other: Set) -> Set {
        if self.len() < other.len() {
            return other.union(self);
        }
        for x in other.iter_unordered() {
            if !self.contains(x) {
                self.insert(x.clone());
            }
        }
        self
    }

    /// Whether every element of `self` is in `other`.
    pub fn is_subset(&self, other: &Set) -> bool {
        self.len() <= other.len() && self.iter_unordered().all(|x| other.contains(x))
    }
}

/// Elements in canonical order.
pub struct Iter<'a>(std::slice::Iter<'a, Value>);

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Value;
    #[inline]
    fn next(&mut self) -> Option<&'a Value> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> DoubleEndedIterator for Iter<'a> {
    fn next_back(&mut self) -> Option<&'a Value> {
        self.0.next_back()
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
    /// The elements in canonical order.
    fn into_iter(self) -> Self::IntoIter {
        let items: Vec<Value> = match self.0.map(Arc::try_unwrap) {
            None => Vec::new(),
            Some(Ok(Repr::Small(v))) => v,
            Some(Ok(Repr::Large(mut s))) => match s.sorted.take() {
                Some(sorted) => sorted,
                None => {
                    let mut items: Vec<Value> = s.table.into_iter().map(|(_, x)| x).collect();
                    items.sort_unstable();
                    items
                }
            },
            Some(Err(shared)) => match &*shared {
                Repr::Small(v) => v.clone(),
                Repr::Large(s) => s.sorted().to_vec(),
            },
        };
        items.into_iter()
    }
}

impl FromIterator<Value> for Set {
    /// Up to [`SMALL`] distinct elements are sorted once; more go straight
    /// into the hash table (equal elements are indistinguishable, so which
    /// one stays does not matter) and are sorted only when iterated.
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Set {
        let iter = iter.into_iter();
        let mut large = Hashed::with_capacity(iter.size_hint().0.min(1 << 16));
        for x in iter {
            let h = value_hash(&x);
            if large.find(h, &x).is_none() {
                large.table.insert_unique(h, (h, x), |(eh, _)| *eh);
            }
        }
        match large.table.len() {
            0 => Set::new(),
            n if n <= SMALL => {
                let mut items: Vec<Value> = large.table.into_iter().map(|(_, x)| x).collect();
                items.sort_unstable();
                Set(Some(Arc::new(Repr::Small(items))))
            }
            _ => {
                large.table.shrink_to_fit(|(eh, _)| *eh);
                Set(Some(Arc::new(Repr::Large(Box::new(large)))))
            }
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

    /// `insert_all` is `insert` one element at a time: the same set, the
    /// same growth reported at the same elements, the same stop at an
    /// error; whether the set starts empty, small, large or shared.
    #[test]
    fn insert_all_is_insert_one_by_one() {
        let items = |n: i64| -> Vec<Value> {
            (0..n)
                .map(|i| match i % 3 {
                    0 => Value::Int(i % 97),
                    1 => Value::string(format!("s{}", i % 41)),
                    _ => Value::Float((i % 13) as f64),
                })
                .collect()
        };
        let starts = [
            Set::new(),
            items(20).into_iter().collect(),
            items(300).into_iter().collect(),
        ];
        for start in starts {
            let start_len = start.len();
            for n in [0, 1, 10, 70, 500] {
                let mut one = start.clone();
                let mut one_grew = Vec::new();
                for x in items(n) {
                    let before = one.len();
                    one.insert(x);
                    if one.len() != before {
                        one_grew.push((before, one.len()));
                    }
                }
                let mut all = start.clone();
                let mut all_grew = Vec::new();
                all.insert_all(items(n), |b, a| {
                    all_grew.push((b, a));
                    Ok::<(), ()>(())
                })
                .unwrap();
                assert_eq!(all_grew, one_grew, "growth of {n}");
                assert!(all.iter().eq(one.iter()), "elements of {n}");
                // Stopped at the third growth: that many elements in.
                let mut cut = start.clone();
                let mut seen = 0;
                let r = cut.insert_all(items(n), |_, _| {
                    seen += 1;
                    if seen == 3 {
                        Err(())
                    } else {
                        Ok(())
                    }
                });
                assert_eq!(r.is_err(), one_grew.len() >= 3, "stop in {n}");
                if r.is_err() {
                    assert_eq!(cut.len(), one_grew[2].1);
                }
                assert_eq!(start.len(), start_len, "the shared start is unchanged");
            }
        }
    }

    #[test]
    fn keeps_canonical_order_across_representations() {
        let mut s = Set::new();
        for i in (0..40).rev() {
            s.insert(Value::Int(i % 30));
        }
        assert_eq!(s.len(), 30);
        assert!(matches!(s.0.as_deref(), Some(Repr::Large(_))));
        assert!(s.iter().cloned().eq((0..30).map(Value::Int)));
        for i in 0..25 {
            assert!(s.remove(&Value::Int(i)).is_some());
        }
        assert!(matches!(s.0.as_deref(), Some(Repr::Small(_))));
        let other: Set = (20..40).map(Value::Int).collect();
        assert!(s.is_subset(&other));
        assert_eq!(s.clone().union(other).len(), 20);
    }

    /// Empty, small and large and back: each representation where its
    /// length says, a shared copy left as it was by every change, and the
    /// storage's address shared only while another set holds it.
    #[test]
    fn moves_between_empty_small_and_large() {
        let repr = |s: &Set| match s.0.as_deref() {
            None => "empty",
            Some(Repr::Small(_)) => "small",
            Some(Repr::Large(_)) => "large",
        };
        let mut s = Set::new();
        assert!(s.is_empty() && s.shared_addr().is_none());
        assert!(s.ptr_eq(&Set::default()));
        assert!(s.remove(&Value::Int(1)).is_none());
        s.insert(Value::Int(1));
        assert_eq!((repr(&s), s.len()), ("small", 1));
        assert!(s.shared_addr().is_none());
        let one = s.clone();
        assert!(s.ptr_eq(&one) && s.shared_addr().is_some());
        assert_eq!(s.remove(&Value::Int(1)), Some(Value::Int(1)));
        assert_eq!(repr(&s), "empty");
        assert!(s.is_empty() && !s.ptr_eq(&one));
        assert_eq!((repr(&one), one.len()), ("small", 1));
        assert!(one.shared_addr().is_none(), "its other holder changed away");
        for i in 0..SMALL as i64 {
            s.insert(Value::Int(i));
        }
        assert_eq!((repr(&s), s.len()), ("small", SMALL));
        let small = s.clone();
        s.insert(Value::Int(SMALL as i64));
        assert_eq!((repr(&s), s.len()), ("large", SMALL + 1));
        assert_eq!((repr(&small), small.len()), ("small", SMALL));
        let large = s.clone();
        assert_eq!(s.shared_addr(), large.shared_addr());
        for i in 0..(SMALL / 2) as i64 {
            assert!(s.contains(&Value::Int(i)));
            s.remove(&Value::Int(i));
            assert!(!s.contains(&Value::Int(i)));
        }
        assert_eq!(repr(&s), "large");
        s.remove(&Value::Int(SMALL as i64));
        assert_eq!((repr(&s), s.len()), ("small", SMALL / 2));
        assert!(s
            .iter()
            .cloned()
            .eq((SMALL as i64 / 2..SMALL as i64).map(Value::Int)));
        assert_eq!((repr(&large), large.len()), ("large", SMALL + 1));
        assert!(large.iter().cloned().eq((0..=SMALL as i64).map(Value::Int)));
        for i in SMALL as i64 / 2..SMALL as i64 {
            s.remove(&Value::Int(i));
        }
        assert_eq!(repr(&s), "empty");
        assert_eq!(small.into_iter().count(), SMALL);
        assert_eq!(large.into_iter().count(), SMALL + 1);
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

    #[test]
    fn a_changed_large_set_iterates_in_order_again_and_copies_leave_the_original() {
        let mut a: Set = (0..100).rev().map(Value::Int).collect();
        assert!(a.iter().cloned().eq((0..100).map(Value::Int)));
        let b = a.clone();
        a.insert(Value::Int(-5));
        a.remove(&Value::Int(50));
        assert!(a.iter().cloned().eq(std::iter::once(-5)
            .chain((0..100).filter(|i| *i != 50))
            .map(Value::Int)));
        assert!(b.iter().cloned().eq((0..100).map(Value::Int)));
        assert!(b.contains(&Value::Int(50)) && !b.contains(&Value::Int(-5)));
        let owned: Vec<Value> = a.into_iter().collect();
        assert_eq!(owned.first(), Some(&Value::Int(-5)));
        assert_eq!(owned.len(), 100);
    }

    #[test]
    fn equal_sets_built_in_different_orders_compare_and_hash_alike() {
        let a: Set = (0..200).map(|i| Value::string(format!("k{i}"))).collect();
        let mut b = Set::new();
        for i in (0..200).rev() {
            b.insert(Value::string(format!("k{i}")));
        }
        let (a, b) = (Value::Set(a), Value::Set(b));
        assert_eq!(a, b);
        assert_eq!(value_hash(&a), value_hash(&b));
        assert_eq!(a.cmp(&b), std::cmp::Ordering::Equal);
    }
}
