//! [`Entries`]: the entry slots of a large map ([`super::Ordered`]), in
//! insertion order, holes (`None`) where keys were removed.
//!
//! Like a large vector's items (`value/vector/flat.rs`), they are one of
//! two kinds:
//! - **flat**: one contiguous `Vec` behind an `Arc`, read by index and
//!   written in place while one map owns it — what a map built by
//!   `assoc`/`update` in a `reduce`, `frequencies`, `group-by` or `into`
//!   is (an imbl write is a walk from the root with a reference-count test
//!   per level, ~250 instructions an `update` on a 50k-entry map);
//! - **a tree**: an imbl `Vector`, structurally shared, for persistence.
//!
//! The first write to flat slots another map holds too copies them (the
//! writer gets flat slots of its own, written in place from then on: a
//! `reduce` that starts from a map a `def` holds copies it once). A second
//! such write to the same slots — the sign of a base map written many
//! times over, `(map #(assoc base % 1) ks)` — builds their tree instead,
//! keeps it beside them for every later one and gives the writer its own
//! copy of the tree, written in O(log n). Each costs at most one O(n) copy
//! per shared map, charged to the heap ([`cost::map_entries_tree_bytes`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::value::cost;
use crate::value::unique::make_mut;
use crate::value::vector::Chunked;
use crate::value::Value;

/// One entry slot: a key and its value, or a hole.
pub(super) type Slot = Option<(Value, Value)>;

type Tree = imbl::Vector<Slot>;

/// The slots of a large map (module docs).
#[derive(Clone)]
pub(super) enum Entries {
    Flat(Arc<Flat>),
    Tree(Tree),
}

/// Flat slots, whether a write while they were shared copied them, and
/// the tree a later one built.
pub(super) struct Flat {
    slots: Vec<Slot>,
    copied: AtomicBool,
    tree: OnceLock<Tree>,
}

impl Clone for Flat {
    /// Never in fact: a write unshares flat slots first ([`Entries::writable`]).
    fn clone(&self) -> Flat {
        Flat {
            slots: self.slots.clone(),
            copied: AtomicBool::new(false),
            tree: OnceLock::new(),
        }
    }
}

impl Flat {
    fn new(slots: Vec<Slot>) -> Arc<Flat> {
        Arc::new(Flat {
            slots,
            copied: AtomicBool::new(false),
            tree: OnceLock::new(),
        })
    }

    /// What a write to these slots while shared gets (module docs): the
    /// first, a flat copy (with room for `room` more); any later one, a
    /// copy of their tree.
    #[cold]
    fn unshared(&self, room: usize) -> Entries {
        if self.copied.swap(true, Ordering::Relaxed) {
            return Entries::Tree(self.tree().clone());
        }
        crate::eval::budget::charge_heap(cost::map_entries_tree_bytes(self.slots.len()));
        let mut slots = Vec::with_capacity(self.slots.len() + room);
        slots.extend_from_slice(&self.slots);
        Entries::Flat(Flat::new(slots))
    }

    /// The slots as a tree: built (and charged) the first time, then
    /// shared by every copy.
    fn tree(&self) -> &Tree {
        self.tree.get_or_init(|| {
            crate::eval::budget::charge_heap(cost::map_entries_tree_bytes(self.slots.len()));
            self.slots.iter().cloned().collect()
        })
    }
}

impl Default for Entries {
    fn default() -> Entries {
        Entries::Flat(Flat::new(Vec::new()))
    }
}

impl Entries {
    /// Flat slots with room for `n`.
    pub(super) fn with_capacity(n: usize) -> Entries {
        Entries::Flat(Flat::new(Vec::with_capacity(n)))
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Entries::Flat(f) => f.slots.len(),
            Entries::Tree(t) => t.len(),
        }
    }

    /// Whether both share all their slots.
    pub(super) fn ptr_eq(&self, other: &Entries) -> bool {
        match (self, other) {
            (Entries::Flat(a), Entries::Flat(b)) => Arc::ptr_eq(a, b),
            (Entries::Tree(a), Entries::Tree(b)) => a.ptr_eq(b),
            _ => false,
        }
    }

    #[inline]
    pub(super) fn get(&self, i: usize) -> Option<&Slot> {
        match self {
            Entries::Flat(f) => f.slots.get(i),
            Entries::Tree(t) => t.get(i),
        }
    }

    /// The slots to write: flat ones in place when this is their only
    /// holder; shared flat ones are copied first ([`Flat::unshared`]).
    #[inline]
    fn writable(&mut self) -> Writable<'_> {
        if let Entries::Flat(f) = self {
            // No `Weak` is ever made of it: the strong count says whether
            // it is shared (and cannot grow while `self` is borrowed).
            if Arc::strong_count(f) > 1 {
                *self = f.unshared(0);
            }
        }
        match self {
            Entries::Flat(f) => {
                // Unshared just above: `make_mut` copies nothing.
                let f = make_mut(f);
                // A tree kept from an earlier copy no longer matches.
                if f.tree.get().is_some() {
                    f.tree = OnceLock::new();
                }
                Writable::Flat(&mut f.slots)
            }
            Entries::Tree(t) => Writable::Tree(t),
        }
    }

    /// Room for `additional` more slots, made before they are written
    /// ([`super::Ordered::reserve`]): flat slots this map alone holds grow
    /// once; shared ones are unshared now, as the coming write would
    /// unshare them ([`Flat::unshared`]), a flat copy made at its final
    /// size; a tree grows as it is written.
    pub(super) fn reserve(&mut self, additional: usize) {
        let Entries::Flat(f) = self else { return };
        if additional == 0 {
            return;
        }
        if Arc::strong_count(f) == 1 {
            make_mut(f).slots.reserve(additional);
        } else {
            *self = f.unshared(additional);
        }
    }

    #[inline]
    pub(super) fn get_mut(&mut self, i: usize) -> Option<&mut Slot> {
        match self.writable() {
            Writable::Flat(v) => v.get_mut(i),
            Writable::Tree(t) => t.get_mut(i),
        }
    }

    pub(super) fn push_back(&mut self, slot: Slot) {
        match self.writable() {
            Writable::Flat(v) => v.push(slot),
            Writable::Tree(t) => t.push_back(slot),
        }
    }

    /// Replaces slot `i`, returning what it held (`None` past the end).
    pub(super) fn set(&mut self, i: usize, slot: Slot) -> Option<Slot> {
        let old = self.get_mut(i)?;
        Some(std::mem::replace(old, slot))
    }

    /// The slots, in order, owned (taken when nothing else holds them).
    pub(super) fn into_slots(self) -> Box<dyn Iterator<Item = Slot>> {
        match self {
            Entries::Flat(f) => match Arc::try_unwrap(f) {
                Ok(f) => Box::new(f.slots.into_iter()),
                Err(shared) => Box::new(shared.slots.clone().into_iter()),
            },
            Entries::Tree(t) => Box::new(t.into_iter()),
        }
    }

    pub(super) fn iter(&self) -> SlotIter<'_> {
        match self {
            Entries::Flat(f) => SlotIter::Flat(f.slots.iter()),
            Entries::Tree(t) => SlotIter::Tree(Box::new(Chunked::new(t))),
        }
    }
}

impl FromIterator<Slot> for Entries {
    fn from_iter<I: IntoIterator<Item = Slot>>(slots: I) -> Entries {
        Entries::Flat(Flat::new(slots.into_iter().collect()))
    }
}

/// Slots to write ([`Entries::writable`]).
enum Writable<'a> {
    Flat(&'a mut Vec<Slot>),
    Tree(&'a mut Tree),
}

/// The slots in order, from both ends.
pub(super) enum SlotIter<'a> {
    Flat(std::slice::Iter<'a, Slot>),
    /// Boxed, as a vector's (`value/vector/iter.rs`): imbl's focus is big.
    Tree(Box<Chunked<'a, Slot>>),
}

impl<'a> Iterator for SlotIter<'a> {
    type Item = &'a Slot;

    #[inline]
    fn next(&mut self) -> Option<&'a Slot> {
        match self {
            SlotIter::Flat(it) => it.next(),
            SlotIter::Tree(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            SlotIter::Flat(it) => it.size_hint(),
            SlotIter::Tree(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for SlotIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            SlotIter::Flat(it) => it.next_back(),
            SlotIter::Tree(it) => it.next_back(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(i: i64) -> Slot {
        Some((Value::Int(i), Value::Int(i * 10)))
    }

    fn shown(e: &Entries) -> Vec<Option<i64>> {
        e.iter()
            .map(|s| s.as_ref().and_then(|(_, v)| v.as_int()))
            .collect()
    }

    fn is_flat(e: &Entries) -> bool {
        matches!(e, Entries::Flat(_))
    }

    #[test]
    fn written_in_place_while_unshared_and_copied_when_shared() {
        let mut a: Entries = (0..100).map(slot).collect();
        a.set(3, None);
        a.push_back(slot(100));
        *a.get_mut(0)
            .and_then(Option::as_mut)
            .map(|(_, v)| v)
            .unwrap() = Value::Int(-1);
        assert!(is_flat(&a), "its only holder writes in place");
        let b = a.clone();
        assert!(a.ptr_eq(&b));
        // A write to shared slots: the writer gets flat slots of its own,
        // the other keeps its own as they were.
        a.set(1, slot(7));
        assert!(is_flat(&a) && is_flat(&b) && !a.ptr_eq(&b));
        assert_eq!(shown(&b)[..4], [Some(-1), Some(10), Some(20), None]);
        assert_eq!(shown(&a)[..4], [Some(-1), Some(70), Some(20), None]);
        assert_eq!((a.len(), b.len()), (101, 101));
        // A second write to the same shared slots gets their tree, kept
        // for the next one.
        let mut c = b.clone();
        c.push_back(slot(5));
        assert!(!is_flat(&c));
        let Entries::Flat(f) = &b else { unreachable!() };
        assert!(f.tree.get().is_some());
        let mut e = b.clone();
        e.set(0, None);
        assert!(!is_flat(&e));
        assert_eq!((c.len(), b.len(), e.len()), (102, 101, 101));
        assert_eq!(shown(&c).last(), Some(&Some(50)));
        assert_eq!(shown(&e)[..2], [None, Some(10)]);
        assert_eq!(shown(&b)[..2], [Some(-1), Some(10)]);
        // Reading back from both ends, and owned.
        assert_eq!(b.iter().next_back().cloned(), Some(slot(100)));
        assert_eq!(c.into_slots().flatten().count(), 101);
        let mut d = b.clone();
        drop(b);
        // `d` is the flat slots' only holder again: in place, the kept
        // tree (now stale) dropped.
        d.set(2, None);
        let Entries::Flat(f) = &d else { unreachable!() };
        assert!(f.tree.get().is_none());
        assert_eq!(shown(&d)[..4], [Some(-1), Some(10), None, None]);
    }
}
