//! The flat representation of a large vector (module docs of `vector`):
//! its items in one `Vec` behind an `Arc`, the imbl tree a copy on write
//! builds kept beside them, and the moves between flat, small and tree.

use std::sync::{Arc, OnceLock};

use super::{Large, Repr, Vector, SMALL};
use crate::value::shared_vec::SharedVec;
use crate::value::unique::make_mut;
use crate::value::Value;

/// A large vector's items in one `Vec` (module docs), with the tree a
/// copy on write of it builds, kept for the next one.
pub(crate) struct Flat {
    pub(super) items: Vec<Value>,
    pub(super) tree: OnceLock<Large>,
}

impl Clone for Flat {
    /// Only when a vector's items were shared after all at a write
    /// (`Arc::make_mut`; writes turn shared flat vectors into trees first).
    fn clone(&self) -> Flat {
        Flat {
            items: self.items.clone(),
            tree: OnceLock::new(),
        }
    }
}

impl Drop for Flat {
    /// The items one by one with a tag test each: scalars (a `range`, a
    /// `map` of numbers) own nothing and are not dropped through a call.
    fn drop(&mut self) {
        for v in self.items.drain(..) {
            Value::release(v);
        }
    }
}

impl Flat {
    /// The items, moved out (the drop then has none left to visit).
    pub(super) fn take_items(mut self) -> Vec<Value> {
        std::mem::take(&mut self.items)
    }

    pub(super) fn new(items: Vec<Value>) -> Arc<Flat> {
        Arc::new(Flat {
            items,
            tree: OnceLock::new(),
        })
    }

    /// The items as a tree: built (and charged, `value/cost.rs`) the first
    /// time, then shared by every copy.
    pub(super) fn tree(&self) -> &Large {
        self.tree.get_or_init(|| {
            crate::eval::budget::charge_heap(crate::value::cost::vector_tree_bytes(
                self.items.len(),
            ));
            self.items.iter().cloned().collect()
        })
    }

    /// The items, to change in place: a tree kept from an earlier copy no
    /// longer matches them and is dropped.
    #[inline]
    pub(super) fn items_mut(&mut self) -> &mut Vec<Value> {
        if self.tree.get().is_some() {
            self.drop_tree();
        }
        &mut self.items
    }

    /// Out of line: writers in place (`push_back` …) stay small.
    #[cold]
    #[inline(never)]
    fn drop_tree(&mut self) {
        self.tree = OnceLock::new();
    }

    /// The items as a tree, taking them when nothing else holds them (the
    /// kept tree when there is one).
    pub(super) fn into_tree(this: Arc<Flat>) -> Large {
        match Arc::try_unwrap(this) {
            Ok(mut flat) => match flat.tree.take() {
                Some(tree) => tree,
                None => Large::from(flat.take_items()),
            },
            Err(shared) => shared.tree().clone(),
        }
    }
}

impl Vector {
    /// A flat vector at or below [`SMALL`] items becomes small.
    pub(super) fn demote(&mut self) {
        if !matches!(self.flat(), Some(f) if f.items.len() <= SMALL) {
            return;
        }
        let mut repr = self.repr_mut();
        if let Repr::Flat(f) = std::mem::take(&mut *repr) {
            *repr = Repr::Small(Arc::try_unwrap(f).map_or_else(
                |f| SharedVec::from_slice(&f.items),
                |f| SharedVec::from_vec(f.take_items()),
            ));
        }
    }

    /// A flat vector becomes a tree (before a change only a tree makes in
    /// O(log n)).
    pub(super) fn make_tree(&mut self) {
        if self.flat().is_none() {
            return;
        }
        let mut repr = self.repr_mut();
        if let Repr::Flat(f) = std::mem::take(&mut *repr) {
            *repr = Repr::Large(Arc::new(Flat::into_tree(f)));
        }
    }

    /// Before a write: items another value holds too are copied (copy on
    /// write), the copy charged to the running turn's heap
    /// (`value/cost.rs`: a small vector's items, a large one's handle and
    /// the chunk written). A shared flat vector becomes (a copy of) its
    /// items' tree, so a flat one is then its items' only holder. No
    /// `Weak` is ever made of the storage: its strong count says whether
    /// it is shared (and cannot grow while `self` is borrowed).
    #[inline]
    pub(super) fn unshare_items(&mut self) {
        if self.is_shared() {
            self.copy_items();
        }
    }

    /// [`Vector::unshare_items`] for shared items: copied and charged.
    #[cold]
    #[inline(never)]
    fn copy_items(&mut self) {
        let charge = crate::value::cost::vector_copy_bytes(self.len());
        if self.is_slice() {
            crate::eval::budget::charge_heap(charge);
            return self.own_slice();
        }
        match &mut *self.repr_mut() {
            Repr::Small(v) => {
                super::charge_small_copy(v.len());
                v.make_mut();
                return;
            }
            Repr::Large(v) => {
                crate::eval::budget::charge_heap(charge);
                make_mut(v);
                return;
            }
            Repr::Flat(_) => crate::eval::budget::charge_heap(charge),
            Repr::Slice(_) => unreachable!("a slice was made a tree above"),
        }
        self.make_tree();
    }

    /// The items of a small or flat vector whose items this vector alone
    /// holds, to change in place; `None` for a tree or shared items (no
    /// copy is made).
    pub fn unique_items_mut(&mut self) -> Option<&mut [Value]> {
        if self.is_small() {
            let v = self.small_mut()?;
            return v.is_unique().then(|| v.make_mut());
        }
        self.unique_flat_mut().map(|f| f.items_mut().as_mut_slice())
    }

    /// The items of a flat vector, to change in place ([`Vector::unshare_items`]
    /// first, so this is `None` for a shared one as for small vectors and
    /// trees).
    #[inline]
    pub(super) fn flat_mut(&mut self) -> Option<&mut Vec<Value>> {
        self.unshare_items();
        self.unique_flat_mut().map(Flat::items_mut)
    }
}
