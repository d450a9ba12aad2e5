//! A slice of a flat vector: items `start..end` of a [`Flat`]'s, shared
//! with it, what `skip` and `take` (so `rest`, `next`, `drop`, `subvec`,
//! `nthrest` …) of a flat vector or of a slice give when more than
//! [`SMALL`] items are left. Walking a long vector with `(recur (rest
//! v))` then costs an allocation of a few words a step, where cutting the
//! flat vector's tree copied a leaf and the path to it (about 4,500
//! instructions a step).
//!
//! A slice is read only: its items are its base's, which it holds one
//! count of, so no other holder writes them in place while it lives (a
//! flat vector is written in place only by its only holder,
//! [`Vector::unique_flat_mut`]). Any write to a slice copies its items
//! first ([`Vector::unshare_items`] counts a slice as shared, and
//! [`Vector::own_slice`] makes it a tree of its own), so the rest of the
//! module never writes one. A slice keeps its whole base alive, as
//! Clojure's `subvec` does; cutting a slice slices the base again (no
//! slice of a slice).

use std::ops::Range;
use std::sync::Arc;

use super::{Flat, Large, Packed, Repr, Vector, SMALL};
use crate::value::shared_vec::SharedVec;
use crate::value::Value;

/// Items `start..end` of `base` (module docs).
pub(crate) struct Slice {
    base: Arc<Flat>,
    start: usize,
    end: usize,
}

impl Slice {
    /// The items.
    #[inline(always)]
    pub(super) fn items(&self) -> &[Value] {
        debug_assert!(self.start <= self.end && self.end <= self.base.items.len());
        // SAFETY: `Slice::cut` makes a slice of a range within its base's
        // items, and they never change while it lives: the slice holds a
        // count of the base, which it never writes through (module docs),
        // and no other holder writes a flat vector's items in place while
        // the count is not its own alone. Unchecked, so that reading a
        // vector (`Vector::view`, inlined wherever one is read) carries no
        // panic path for slices.
        unsafe { self.base.items.get_unchecked(self.start..self.end) }
    }

    /// The base's items, which the slice keeps alive.
    pub(super) fn base(&self) -> &Flat {
        &self.base
    }

    /// Items `range` of `base`: a small copy when they fit in one, a slice
    /// otherwise.
    fn cut(base: &Arc<Flat>, range: Range<usize>) -> Vector {
        assert!(range.start <= range.end && range.end <= base.items.len());
        if range.len() <= SMALL {
            return Vector::pack(Repr::Small(SharedVec::from_slice(&base.items[range])));
        }
        Vector::pack(Repr::Slice(Arc::new(Slice {
            base: Arc::clone(base),
            start: range.start,
            end: range.end,
        })))
    }
}

/// Items `range` of a tree, as a tree (imbl copies the path at each end
/// it cuts).
fn tree_range(t: &Large, range: Range<usize>) -> Large {
    match (range.start, range.end == t.len()) {
        (_, true) => t.skip(range.start),
        (0, false) => t.take(range.end),
        (start, false) => t.take(range.end).skip(start),
    }
}

impl Vector {
    /// Items `range` of any vector (`skip`, `take`, `sub`): the whole
    /// vector when that is all of them, a small copy when they fit in
    /// one; past that, a slice of a flat vector's items (module docs) or
    /// a tree's cut. `range` is within the items.
    pub(super) fn cut(&self, range: Range<usize>) -> Vector {
        if range.start == 0 && range.end == self.len() {
            return self.clone();
        }
        match &*self.repr() {
            Repr::Flat(f) => Slice::cut(f, range),
            Repr::Slice(s) => Slice::cut(&s.base, s.start + range.start..s.start + range.end),
            Repr::Small(v) => Vector::pack(Repr::Small(SharedVec::from_slice(&v[range]))),
            Repr::Large(v) if range.len() <= SMALL => {
                let items = v.iter().skip(range.start).take(range.len());
                Vector::pack(Repr::Small(items.cloned().collect()))
            }
            Repr::Large(v) => Vector::from_large(tree_range(v, range)),
        }
    }

    /// A slice becomes a tree of its own, cut from its base's tree (built
    /// and charged once per base, `Flat::tree`): what `skip` and `take` of
    /// a flat vector gave before there were slices, so writing to a slice
    /// (`(conj (rest v) x)` in a loop) stays O(log n) a write. Charging
    /// for the handle and the path copied is the caller's
    /// ([`Vector::unshare_items`]). Anything else is left as it is.
    #[inline(always)]
    pub(super) fn own_slice(&mut self) {
        if self.is_slice() {
            self.copy_slice();
        }
    }

    #[cold]
    #[inline(never)]
    fn copy_slice(&mut self) {
        let tree = match &*self.repr() {
            Repr::Slice(s) => tree_range(s.base.tree(), s.start..s.end),
            _ => return,
        };
        *self = Vector::from_large(tree);
    }
}
