//! [`Vector`]: the sequential collection behind `Value::Vector` (vectors,
//! lists, seqs).
//!
//! Up to [`SMALL`] items are one [`SharedVec`]: a reference count, the
//! length and the capacity, then the items, in one allocation of exactly
//! their number (`Value::vector` drops any spare capacity); every empty
//! vector shares one header and allocates nothing. A `Vector` is one word,
//! a pointer tagged with its representation (`handle.rs`), and
//! `Value::Vector` holds it directly: a small vector of seven items is one
//! 128-byte block, where an `Arc` around a `Vec` took two. A longer vector
//! is one of two kinds:
//! - **flat**: still one contiguous `Vec`, grown in place while one value
//!   owns it — what `mapv`, `filter`, `range`, `into`, `conj` in a `reduce`
//!   … build, at a `Vec` push per item (an imbl push is ~100
//!   instructions);
//! - **a tree**: an imbl `Vector` (an RRB tree), which keeps `conj`,
//!   `assoc`, `subvec`, `rest` and `concat` O(log n) on shared large
//!   vectors;
//! - **a slice** of a flat vector's items (`slice.rs`), read only: what
//!   `skip` and `take` of a flat vector give, so walking one with `rest`
//!   copies nothing; a write makes it a tree.
//!
//! A flat vector's items sit in an `Arc` of their own, so copying the
//! vector (an iterator's or a builtin's copy) shares them. It becomes a
//! tree when persistence is needed: the first write to items another copy
//! holds too (copy on write) builds the tree once, keeps it beside the
//! items (so writing to the same shared vector again, `(map #(conj big %)
//! xs)`, costs what it costs on a tree) and gives the writer its own copy
//! of the tree; cutting a large one (`skip`, `take`, `split_off`, …) or
//! inserting or removing anywhere but the end also works on the tree.
//! imbl alone gives every vector of more than a few items a 64-slot chunk
//! (1.5 KB), which made a program holding many short vectors (paths, rows,
//! pairs) ten times bigger than it needs to be.
//!
//! Every representation is shared by copies of the value and copied on
//! write ([`Vector::unshare_items`], charged there to the running turn's
//! heap): changing a shared small one copies at most [`SMALL`] items,
//! which is what imbl does within its chunks too; a shared tree is
//! copied as imbl copies (its handle and the path written).
//! Operations that cut a large vector down (`skip`, `take`, `slice`, …)
//! return a small one when the result fits; removing items one at a time
//! goes back to small only at half of [`SMALL`], so a vector that grows
//! and shrinks around the threshold does not convert back and forth.
//!
//! The API mirrors the subset of `imbl::Vector` ptc uses. Equality,
//! ordering and hashing of vectors live with `Value` (`order.rs`,
//! `hash.rs`); this type's own `PartialEq` compares items in order.

use std::ops::Range;
use std::sync::Arc;

use super::packed::Packed;
use super::shared_vec::SharedVec;
use super::Value;
use crate::value::unique::make_mut;

mod flat;
mod handle;
mod iter;
mod slice;
mod traits;
pub(crate) use flat::Flat;
pub use handle::Vector;
use handle::{View, ViewMut};
pub use iter::{Chunked, IntoIter, Iter, IterMut};
pub(crate) use slice::Slice;

type Large = imbl::Vector<Value>;

/// The most items a vector holds contiguously. imbl copies a chunk of up
/// to 64 items when it changes a shared one, so copying a small vector of
/// that many costs no more; a 64-item small vector is 1.5 KB, what one
/// imbl chunk is. Measured against 32: the same on the benchmark programs;
/// 5,000 rows of 48 items plus `conj`/`assoc` onto a shared 50-item vector
/// took 7% less memory and 2% fewer instructions at 64.
pub const SMALL: usize = 64;

/// The length at or below which a large vector losing items one at a time
/// becomes small again.
const DEMOTE: usize = SMALL / 2;

/// A vector unpacked from its one-word handle (`handle.rs`).
pub(crate) enum Repr {
    Small(SharedVec<Value>),
    Flat(Arc<Flat>),
    Large(Arc<Large>),
    Slice(Arc<Slice>),
}

impl Default for Vector {
    fn default() -> Vector {
        Vector::new()
    }
}

impl Vector {
    /// An empty vector.
    #[inline]
    pub fn new() -> Vector {
        Vector::pack(Repr::Small(SharedVec::new()))
    }

    /// An empty vector with room for `n` items without growing (a flat
    /// one past [`SMALL`]).
    pub fn with_capacity(n: usize) -> Vector {
        if n <= SMALL {
            Vector::pack(Repr::Small(SharedVec::with_capacity(n)))
        } else {
            Vector::pack(Repr::Flat(Flat::new(Vec::with_capacity(n))))
        }
    }

    /// A one-item vector.
    pub fn unit(x: Value) -> Vector {
        let mut items = SharedVec::with_capacity(1);
        items.push(x);
        Vector::pack(Repr::Small(items))
    }

    /// A vector of `items`, small or flat by their number.
    pub fn from_vec(items: Vec<Value>) -> Vector {
        if items.len() <= SMALL {
            Vector::pack(Repr::Small(SharedVec::from_vec(items)))
        } else {
            Vector::pack(Repr::Flat(Flat::new(items)))
        }
    }

    fn from_large(items: Large) -> Vector {
        if items.len() <= SMALL {
            Vector::pack(Repr::Small(items.into_iter().collect()))
        } else {
            Vector::pack(Repr::Large(Arc::new(items)))
        }
    }

    /// Whether another value holds these items too (a write copies them
    /// first): always for a slice, whose items are its base's.
    #[inline]
    pub fn is_shared(&self) -> bool {
        match &*self.repr() {
            Repr::Small(v) => !v.is_unique() && !v.is_empty(),
            Repr::Flat(f) => Arc::strong_count(f) > 1,
            Repr::Large(v) => Arc::strong_count(v) > 1,
            Repr::Slice(_) => true,
        }
    }

    /// [`Vector::addr`] when another value holds the items too.
    pub(crate) fn shared_addr(&self) -> Option<usize> {
        self.is_shared().then(|| self.addr())
    }

    /// Drops spare capacity of a small vector, so it takes exactly its
    /// items' room once it is stored in a value (a flat one that ended up
    /// small becomes small). A flat vector keeps its room to grow in
    /// place: what a `Vec` doubling leaves (at most what it holds again),
    /// or the room `filter` reserved for every item of its input when it
    /// kept half of them or more (`builtins/seq/hof.rs`, `select`).
    pub fn shrink_to_fit(&mut self) {
        if let Some(f) = self.flat() {
            if f.items.len() <= SMALL {
                self.demote();
            }
        }
        if let Some(v) = self.small_mut() {
            v.shrink_to_fit();
        }
    }

    /// Bytes the items take outside the `Vector` itself: the small
    /// vector's allocation (none for an empty one: they share one), or
    /// imbl's chunks (approximately: 64 slots per started chunk); a
    /// slice, its own few words and its base's items, which it keeps
    /// alive.
    pub fn heap_bytes(&self) -> usize {
        let slot = std::mem::size_of::<Value>();
        let chunks = |n: usize| n.div_ceil(64) * 64 * slot;
        match &*self.repr() {
            Repr::Small(v) if v.capacity() == 0 => 0,
            Repr::Small(v) => super::shared_vec::HEADER_BYTES as usize + v.capacity() * slot,
            Repr::Flat(f) => {
                std::mem::size_of::<Flat>()
                    + f.items.capacity() * slot
                    + f.tree.get().map_or(0, |t| chunks(t.len()))
            }
            Repr::Large(v) => std::mem::size_of::<Large>() + chunks(v.len()),
            Repr::Slice(s) => std::mem::size_of::<Slice>() + s.base().items.capacity() * slot,
        }
    }

    /// The number of items.
    #[inline]
    pub fn len(&self) -> usize {
        match self.view() {
            View::Items(v) => v.len(),
            View::Large(v) => v.len(),
        }
    }

    /// Whether the items are one contiguous array (small, flat or a
    /// slice): then
    /// [`Vector::get`] is an index, not a tree lookup.
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        !matches!(self.view(), View::Large(_))
    }

    /// Whether there are no items.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `self` and `other` are the same storage (`false` says
    /// nothing about equality).
    pub fn ptr_eq(&self, other: &Vector) -> bool {
        match (&*self.repr(), &*other.repr()) {
            (Repr::Small(a), Repr::Small(b)) => a.len() == b.len() && (a.is_empty() || a.ptr_eq(b)),
            (Repr::Flat(a), Repr::Flat(b)) => Arc::ptr_eq(a, b),
            (Repr::Large(a), Repr::Large(b)) => Arc::ptr_eq(a, b) || a.ptr_eq(b),
            (Repr::Slice(a), Repr::Slice(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The item at index `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Value> {
        match self.view() {
            View::Items(v) => v.get(i),
            View::Large(v) => v.get(i),
        }
    }

    /// The items from index `i` to the end of the contiguous run that holds
    /// it: `&items[i..]` of a small or flat vector or a slice, the rest of the leaf
    /// (up to 64 items) of a tree; empty past the end. Walking a tree run
    /// by run costs one tree lookup per leaf, not one per item.
    pub fn run_from(&self, i: usize) -> &[Value] {
        match self.view() {
            View::Items(v) => v.get(i..).unwrap_or(&[]),
            View::Large(v) => {
                if i >= v.len() {
                    return &[];
                }
                let mut focus = v.focus();
                let (range, leaf) = focus.chunk_at(i);
                let run: *const [Value] = &leaf[i - range.start..];
                // SAFETY: the leaf is a node of `v`'s tree, which `self`
                // owns and which cannot change while `self` is borrowed; the
                // focus only caches the path to it (imbl's own `Chunks`
                // iterator hands out leaves for the vector's lifetime the
                // same way).
                unsafe { &*run }
            }
        }
    }

    /// The item at index `i`, mutable (copies a shared large vector's path).
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Value> {
        self.unshare_items();
        match self.view_mut() {
            ViewMut::Small(v) => v.get_mut(i),
            ViewMut::Flat(f) => f.items_mut().get_mut(i),
            ViewMut::Large(v) => v.get_mut(i),
        }
    }

    /// The first item.
    #[inline]
    pub fn front(&self) -> Option<&Value> {
        self.get(0)
    }

    /// The last item.
    #[inline]
    pub fn back(&self) -> Option<&Value> {
        match self.view() {
            View::Items(v) => v.last(),
            View::Large(v) => v.back(),
        }
    }

    /// Moves a full small vector's items into a flat one before it grows.
    fn grow_one(&mut self) {
        if self.is_small() && self.len() >= SMALL {
            self.make_flat();
        }
    }

    /// Moves a small vector's items into a flat one.
    fn make_flat(&mut self) {
        let mut repr = self.repr_mut();
        if let Repr::Small(v) = &mut *repr {
            *repr = Repr::Flat(Flat::new(v.take_vec()));
        }
    }

    /// Moves a large vector that lost items back to a small one once it
    /// is down to [`DEMOTE`] items.
    fn shrunk(&mut self) {
        if !matches!(self.view(), View::Large(v) if v.len() <= DEMOTE) {
            return;
        }
        let mut repr = self.repr_mut();
        if let Repr::Large(v) = &mut *repr {
            let items = match Arc::get_mut(v) {
                Some(tree) => std::mem::take(tree).into_iter().collect(),
                None => v.iter().cloned().collect(),
            };
            *repr = Repr::Small(items);
        }
    }

    /// Appends `x`; a small vector past the threshold becomes flat.
    #[inline]
    pub fn push_back(&mut self, x: Value) {
        if let Some(v) = self.small_mut() {
            if v.len() < SMALL {
                if !v.is_unique() {
                    // Shared items (or the empty header): `push` copies
                    // them with room for `x`; the copy is charged as
                    // `unshare_items` charges it.
                    charge_small_copy(v.len());
                }
                return v.push(x);
            }
        } else if let Some(f) = self.unique_flat_mut() {
            return f.items_mut().push(x);
        }
        self.push_flat(x);
    }

    /// [`Vector::push_back`] onto a full small vector, a shared flat one
    /// or a tree. Never inlined: `push_back`'s small-vector path stays a
    /// leaf with few registers to save.
    #[cold]
    #[inline(never)]
    fn push_flat(&mut self, x: Value) {
        if let View::Large(_) = self.view() {
            self.unshare_items();
            if let Repr::Large(v) = &mut *self.repr_mut() {
                make_mut(v).push_back(x);
            }
            return;
        }
        self.grow_one();
        match self.flat_mut() {
            Some(items) => items.push(x),
            None => self.push_back(x),
        }
    }

    /// Puts `x` first.
    pub fn push_front(&mut self, x: Value) {
        self.insert(0, x);
    }

    /// Removes and returns the last item.
    pub fn pop_back(&mut self) -> Option<Value> {
        self.unshare_items();
        let x = match &mut *self.repr_mut() {
            Repr::Small(v) => return v.pop(),
            Repr::Flat(f) => make_mut(f).items_mut().pop(),
            Repr::Large(v) => make_mut(v).pop_back(),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        };
        self.shrunk();
        self.demote();
        x
    }

    /// Removes and returns the first item.
    pub fn pop_front(&mut self) -> Option<Value> {
        if self.is_empty() {
            return None;
        }
        Some(self.remove(0))
    }

    /// Puts `x` at `i`, returning what was there. Panics when `i` is out
    /// of bounds.
    #[inline]
    pub fn set(&mut self, i: usize, x: Value) -> Value {
        self.unshare_items();
        if let Some(v) = self.small_mut() {
            return std::mem::replace(&mut v.make_mut()[i], x);
        }
        match &mut *self.repr_mut() {
            Repr::Small(v) => std::mem::replace(&mut v.make_mut()[i], x),
            Repr::Flat(f) => std::mem::replace(&mut make_mut(f).items_mut()[i], x),
            Repr::Large(v) => make_mut(v).set(i, x),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        }
    }

    /// A copy with `x` at `i`. Panics when `i` is out of bounds.
    pub fn update(&self, i: usize, x: Value) -> Vector {
        let mut out = self.clone();
        out.set(i, x);
        out
    }

    /// Inserts `x` before index `i` (at the end when `i` is the length).
    pub fn insert(&mut self, i: usize, x: Value) {
        if i == self.len() {
            return self.push_back(x);
        }
        self.unshare_items();
        if let Repr::Small(v) = &mut *self.repr_mut() {
            if v.len() < SMALL {
                return v.insert(i, x);
            }
        }
        self.grow_one();
        self.make_tree();
        if let Repr::Large(v) = &mut *self.repr_mut() {
            make_mut(v).insert(i, x);
        }
    }

    /// Removes and returns the item at `i`. Panics when `i` is out of
    /// bounds.
    pub fn remove(&mut self, i: usize) -> Value {
        self.unshare_items();
        if i + 1 == self.len() && self.flat().is_some() {
            if let Some(x) = self.pop_back() {
                return x;
            }
        }
        self.make_tree();
        let x = match &mut *self.repr_mut() {
            Repr::Small(v) => return v.remove(i),
            Repr::Flat(f) => make_mut(f).items_mut().remove(i),
            Repr::Large(v) => make_mut(v).remove(i),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        };
        self.shrunk();
        self.demote();
        x
    }

    /// The items from `n` on (empty when `n` is past the end).
    pub fn skip(&self, n: usize) -> Vector {
        let len = self.len();
        self.cut(n.min(len)..len)
    }

    /// The first `n` items (all of them when `n` is past the end).
    pub fn take(&self, n: usize) -> Vector {
        self.cut(0..n.min(self.len()))
    }

    /// The items in `range` (`subvec`): a slice of a flat vector or a
    /// slice, a cut copy of the others. Panics when `range` is out of
    /// bounds.
    pub fn sub(&self, range: Range<usize>) -> Vector {
        assert!(
            range.start <= range.end && range.end <= self.len(),
            "sub {range:?} of {}",
            self.len()
        );
        if let View::Large(_) = self.view() {
            let mut all = self.clone();
            return all.slice(range);
        }
        self.cut(range)
    }

    /// Splits at `i`: the items before it and the items from it on.
    /// Panics when `i` is past the end.
    pub fn split_at(mut self, i: usize) -> (Vector, Vector) {
        let right = self.split_off(i);
        (self, right)
    }

    /// Removes the items from `i` on and returns them. Panics when `i` is
    /// past the end.
    pub fn split_off(&mut self, i: usize) -> Vector {
        self.unshare_items();
        self.make_tree();
        let right = match &mut *self.repr_mut() {
            Repr::Small(v) => return Vector::from_vec(v.edit_as_vec(|left| left.split_off(i))),
            Repr::Flat(f) => Vector::from_vec(make_mut(f).items_mut().split_off(i)),
            Repr::Large(v) => Vector::from_large(make_mut(v).split_off(i)),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        };
        self.shrunk();
        self.demote();
        right
    }

    /// Removes the items in `range` and returns them. Panics when the
    /// range is out of bounds.
    pub fn slice(&mut self, range: Range<usize>) -> Vector {
        self.unshare_items();
        self.make_tree();
        let removed = match &mut *self.repr_mut() {
            Repr::Small(v) => {
                return Vector::from_vec(v.edit_as_vec(|kept| kept.drain(range).collect()))
            }
            Repr::Flat(f) => Vector::from_vec(make_mut(f).items_mut().drain(range).collect()),
            Repr::Large(v) => Vector::from_large(make_mut(v).slice(range)),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        };
        self.shrunk();
        self.demote();
        removed
    }

    /// Moves `other`'s items to the end of `self`.
    pub fn append(&mut self, other: Vector) {
        self.unshare_items();
        if self.len() + other.len() <= SMALL {
            if let Repr::Small(v) = &mut *self.repr_mut() {
                for x in other {
                    v.push(x);
                }
                return;
            }
        }
        // Neither a tree: the items pushed in place, flat (a flat vector
        // grows as a `Vec` does; the branch above kept small ones small).
        if !matches!(self.view(), View::Large(_)) && !matches!(other.view(), View::Large(_)) {
            self.make_flat();
            match self.flat_mut() {
                Some(items) => items.extend(other),
                None => self.extend(other),
            }
            return;
        }
        let mut left = match std::mem::take(self).into_repr() {
            Repr::Small(v) => Large::from(v.into_vec()),
            Repr::Flat(f) => Flat::into_tree(f),
            Repr::Large(v) => Arc::unwrap_or_clone(v),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        };
        match other.into_repr() {
            Repr::Small(v) => left.extend(v.into_vec()),
            Repr::Flat(f) => left.extend(f.items.iter().cloned()),
            Repr::Large(v) => left.append(Arc::unwrap_or_clone(v)),
            Repr::Slice(s) => left.extend(s.items().iter().cloned()),
        }
        *self = Vector::from_large(left);
    }

    /// Keeps the first `n` items.
    pub fn truncate(&mut self, n: usize) {
        self.unshare_items();
        match &mut *self.repr_mut() {
            Repr::Small(v) => return v.truncate(n),
            Repr::Flat(f) => make_mut(f).items_mut().truncate(n),
            Repr::Large(v) => make_mut(v).truncate(n),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        }
        self.shrunk();
        self.demote();
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        *self = Vector::new();
    }

    /// Keeps the items `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Value) -> bool) {
        self.unshare_items();
        match &mut *self.repr_mut() {
            Repr::Small(v) => v.retain(|x| keep(x)),
            Repr::Flat(f) => make_mut(f).items_mut().retain(|x| keep(x)),
            Repr::Large(v) => make_mut(v).retain(|x| keep(x)),
            Repr::Slice(_) => unreachable!("unshare_items leaves no slice"),
        }
        self.shrunk();
        self.demote();
    }

    /// The items, in order.
    #[inline(always)]
    pub fn iter(&self) -> Iter<'_> {
        match self.view() {
            View::Items(v) => Iter::Small(v.iter()),
            View::Large(v) => Iter::Large(Box::new(iter::Chunked::new(v))),
        }
    }

    /// The items, in order, mutable.
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        self.unshare_items();
        match self.view_mut() {
            ViewMut::Small(v) => IterMut::Small(v.iter_mut()),
            ViewMut::Flat(f) => IterMut::Small(f.items_mut().iter_mut()),
            ViewMut::Large(v) => IterMut::Large(v.iter_mut()),
        }
    }
}

/// What copying the `len` items of a shared small vector at a write is
/// charged ([`Vector::unshare_items`]); nothing for an empty one.
#[cold]
#[inline(never)]
fn charge_small_copy(len: usize) {
    if len > 0 {
        crate::eval::budget::charge_heap(super::cost::vector_copy_bytes(len));
    }
}

#[cfg(test)]
mod tests;
