//! The handle of a [`Vector`]: one word, so that a `Value` is a tag and
//! one word (`value/mod.rs`), as a `Map` is (`map/handle.rs`).
//!
//! The word is a tagged pointer: the low two bits name the representation
//! ([`Repr`]: small, flat, tree, slice) and the rest points at the
//! storage: a [`SharedVec`]'s header (small) or the value in an `Arc`'s
//! allocation (`Arc::into_raw`: flat, tree and slice), all 8-aligned
//! (checked below). It is never null: an empty vector is a small one over
//! `SharedVec`'s shared empty header (`SharedVec::new`), and a small
//! vector's tag is 0, so its word is its header's address as is: the word
//! *is* the `SharedVec` (transparent over that pointer), lent as one to
//! write a small vector in place ([`Vector::small_mut`]) without
//! unpacking anything.
//!
//! Everything unsafe about the handle is here (and in `value/packed.rs`,
//! the guard and borrowed copy shared with maps' handles, [`Packed`]).
//! The rest of the module sees [`Repr`], the handle unpacked: by value ([`Vector::pack`],
//! [`Vector::into_repr`]), borrowed for reading ([`Vector::repr`]: a
//! [`Borrowed`] copy never dropped; [`Vector::view`]: the parts as
//! references that live as long as the vector's borrow), or to change
//! ([`Vector::repr_mut`]: a guard that packs what it holds back into the
//! handle when dropped, unwinding included; [`Vector::view_mut`]: the
//! parts made unique, as mutable references that live as long as the
//! vector's borrow; [`Vector::small_mut`]: a small vector's `SharedVec`,
//! the handle itself; [`Vector::unique_flat_mut`]: an unshared flat
//! vector's storage).

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::Arc;

use super::{Flat, Large, Repr, Slice};
use crate::value::packed::{arc_raw, Borrowed, Packed, ReprMut};
use crate::value::shared_vec::{SharedVec, HEADER_ALIGN};
use crate::value::unique::{get_mut, make_mut};
use crate::value::Value;

const KIND: usize = 0b11;
const SMALL: usize = 0;
const FLAT: usize = 1;
const LARGE: usize = 2;
const SLICE: usize = 3;

// The tag needs two free low bits in every pointer a vector keeps.
const _: () = {
    assert!(HEADER_ALIGN > KIND);
    assert!(std::mem::align_of::<Flat>() > KIND);
    assert!(std::mem::align_of::<Large>() > KIND);
    assert!(std::mem::align_of::<Slice>() > KIND);
};

/// A persistent vector of values: small ones contiguous, large ones flat,
/// an imbl RRB tree or a slice of a flat one's items (module docs of
/// `vector`).
pub struct Vector {
    /// The tagged pointer of the module docs, which owns one count of the
    /// storage it points at.
    ptr: NonNull<u8>,
    _owns: PhantomData<Repr>,
}

// SAFETY: a `Vector` owns what its `Repr` would (one count of a
// `SharedVec` or an `Arc`), and `Repr` is `Send` and `Sync` (checked here).
unsafe impl Send for Vector {}
// SAFETY: as for `Send`.
unsafe impl Sync for Vector {}
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Repr>();
};

/// The word of `SharedVec::new()`: the shared empty header, tagged small
/// (tag 0). Like `SharedVec::new`, it owns a count it did not add (that
/// header's count starts high and is never freed).
#[inline(always)]
fn empty_word() -> NonNull<u8> {
    SharedVec::<Value>::new().into_raw()
}

impl Vector {
    /// Whether this is a small vector (its word a `SharedVec`'s).
    #[inline(always)]
    pub(super) fn is_small(&self) -> bool {
        self.ptr.as_ptr().addr() & KIND == SMALL
    }

    /// Whether this is a slice of a flat vector's items (`slice.rs`).
    #[inline(always)]
    pub(super) fn is_slice(&self) -> bool {
        self.ptr.as_ptr().addr() & KIND == SLICE
    }

    /// A flat vector's storage, to read; `None` for the other kinds.
    #[inline(always)]
    pub(super) fn flat(&self) -> Option<&Flat> {
        let (raw, tag) = self.parts();
        // SAFETY: flat: `raw` is an `Arc<Flat>`'s value, kept alive by the
        // count this vector owns and unchanged (changes need `&mut self`)
        // while it is borrowed.
        (tag == FLAT).then(|| unsafe { &*raw.as_ptr().cast::<Flat>() })
    }

    /// A small vector's items as the `SharedVec` its word is, to change in
    /// place; `None` for flat and tree vectors.
    #[inline(always)]
    pub(super) fn small_mut(&mut self) -> Option<&mut SharedVec<Value>> {
        if !self.is_small() {
            return None;
        }
        // SAFETY: small.
        Some(unsafe { self.as_small_mut() })
    }

    /// A flat vector's storage when this vector is its only holder
    /// (`unique::get_mut`), to change in place; `None` for a shared one
    /// (nothing is copied), a small one or a tree.
    #[inline(always)]
    pub(super) fn unique_flat_mut(&mut self) -> Option<&mut Flat> {
        let (raw, tag) = self.parts();
        if tag != FLAT {
            return None;
        }
        // SAFETY: flat: `raw` came from `Arc::into_raw` of an `Arc<Flat>`
        // whose count this vector owns; the copy made of it is never
        // dropped.
        let mut arc = ManuallyDrop::new(unsafe { Arc::from_raw(raw.as_ptr().cast::<Flat>()) });
        let flat: *mut Flat = get_mut(&mut arc)?;
        // SAFETY: the `Flat` is in the `Arc`'s allocation, not in the copy
        // of its handle, and this vector is its only holder: nothing else
        // reads or writes it while the vector is borrowed mutably, as the
        // result is.
        Some(unsafe { &mut *flat })
    }

    /// A small vector's word as its `SharedVec`.
    ///
    /// # Safety
    /// The vector is small.
    #[inline(always)]
    unsafe fn as_small_mut(&mut self) -> &mut SharedVec<Value> {
        debug_assert!(self.is_small());
        // SAFETY: `SharedVec` is transparent over its header pointer, a
        // `NonNull` as `ptr` is, and a small vector's word is that pointer
        // with tag 0, owning the count the `SharedVec` would. Whatever the
        // `SharedVec` becomes through this borrow (grown, copied on write,
        // replaced) is again a header pointer owning a count, 8-aligned:
        // tag 0, a small vector's word.
        unsafe { &mut *(&raw mut self.ptr).cast::<SharedVec<Value>>() }
    }

    /// The untagged pointer and the tag.
    #[inline(always)]
    fn parts(&self) -> (NonNull<u8>, usize) {
        let tag = self.ptr.as_ptr().addr() & KIND;
        // SAFETY: the untagged pointer is the storage's (`pack`), not null.
        let raw = unsafe { NonNull::new_unchecked(self.ptr.as_ptr().map_addr(|a| a & !KIND)) };
        (raw, tag)
    }

    /// The `Repr` of this handle, moved out of it.
    #[inline(always)]
    pub(super) fn into_repr(self) -> Repr {
        let me = ManuallyDrop::new(self);
        // SAFETY: the handle is not dropped.
        unsafe { me.read() }
    }

    /// This handle's `Repr`, to read.
    #[inline(always)]
    pub(super) fn repr(&self) -> Borrowed<'_, Vector> {
        Borrowed::of(self)
    }

    /// The parts of this vector, borrowed as long as it is.
    #[inline(always)]
    pub(super) fn view(&self) -> View<'_> {
        if self.is_small() {
            // SAFETY: small: the word is the `SharedVec` (`as_small_mut`),
            // borrowed here as long as the vector is.
            let v = unsafe { &*(&raw const self.ptr).cast::<SharedVec<Value>>() };
            return View::Items(v);
        }
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, kept alive by the count this vector owns and
        // unchanged (changes need `&mut self`) for as long as it is
        // borrowed.
        unsafe {
            match tag {
                FLAT => View::Items(&(*raw.as_ptr().cast::<Flat>()).items),
                SLICE => View::Items((*raw.as_ptr().cast::<Slice>()).items()),
                _ => View::Large(&*raw.as_ptr().cast::<Large>()),
            }
        }
    }

    /// This handle's `Repr`, to change: packed back into it when the
    /// guard is dropped (the vector is the empty one meanwhile:
    /// `packed.rs`).
    #[inline(always)]
    pub(super) fn repr_mut(&mut self) -> ReprMut<'_, Vector> {
        ReprMut::of(self)
    }

    /// The parts of this vector, each made its storage's only holder
    /// first (copied when shared, as `SharedVec::make_mut` and
    /// `unique::make_mut` do; charging for that is the caller's,
    /// `Vector::unshare_items`), to change for as long as the vector is
    /// borrowed.
    #[inline(always)]
    pub(super) fn view_mut(&mut self) -> ViewMut<'_> {
        if self.is_small() {
            // SAFETY: small.
            return ViewMut::Small(unsafe { self.as_small_mut() }.make_mut());
        }
        // A slice shares its items: they become its own first (callers
        // have, `unshare_items`; this keeps the view sound without it).
        self.own_slice();
        let part = match &mut *self.repr_mut() {
            Repr::Small(v) => RawPart::Small(v.make_mut()),
            Repr::Flat(f) => RawPart::Flat(make_mut(f)),
            Repr::Large(t) => RawPart::Large(make_mut(t)),
            Repr::Slice(_) => unreachable!("own_slice leaves no slice"),
        };
        // SAFETY: each part is in the storage (the `SharedVec`'s or the
        // `Arc`'s allocation), which the guard's drop packed back into the
        // handle without moving it; this vector is now its only holder,
        // so nothing else reads or writes it while the vector is borrowed
        // mutably, as the result is.
        unsafe {
            match part {
                RawPart::Small(p) => ViewMut::Small(&mut *p),
                RawPart::Flat(p) => ViewMut::Flat(&mut *p),
                RawPart::Large(p) => ViewMut::Large(&mut *p),
            }
        }
    }

    /// The address of the storage (the empty vectors share one).
    #[inline]
    pub fn addr(&self) -> usize {
        self.parts().0.as_ptr().addr()
    }
}

// SAFETY: `read` and `pack` are each other's inverse, moving the count
// the word owns; the vacant word is the empty vector's (`empty_word`),
// which owns nothing; `refill` writes a word over it without dropping.
unsafe impl Packed for Vector {
    type Repr = Repr;

    #[inline(always)]
    unsafe fn read(&self) -> Repr {
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, the pointer came from `pack` of the
        // kind the tag names, and owns one count.
        unsafe {
            match tag {
                SMALL => Repr::Small(SharedVec::from_raw(raw)),
                FLAT => Repr::Flat(Arc::from_raw(raw.as_ptr().cast::<Flat>())),
                SLICE => Repr::Slice(Arc::from_raw(raw.as_ptr().cast::<Slice>())),
                _ => Repr::Large(Arc::from_raw(raw.as_ptr().cast::<Large>())),
            }
        }
    }

    #[inline(always)]
    fn pack(repr: Repr) -> Vector {
        let (raw, tag) = match repr {
            Repr::Small(v) => (v.into_raw(), SMALL),
            Repr::Flat(f) => (arc_raw(f), FLAT),
            Repr::Large(t) => (arc_raw(t), LARGE),
            Repr::Slice(s) => (arc_raw(s), SLICE),
        };
        // SAFETY: the tag bits were free (8-aligned, checked above), so
        // the tagged pointer is not null either.
        let ptr = unsafe { NonNull::new_unchecked(raw.as_ptr().map_addr(|a| a | tag)) };
        Vector {
            ptr,
            _owns: PhantomData,
        }
    }

    #[inline(always)]
    unsafe fn vacate(&mut self) {
        self.ptr = empty_word();
    }

    #[inline(always)]
    unsafe fn refill(&mut self, packed: Vector) {
        self.ptr = ManuallyDrop::new(packed).ptr;
    }
}

impl Clone for Vector {
    /// Adds a count to the storage; the copy is the same word. Always
    /// inlined, as is the drop: every copy of a value runs it.
    #[inline(always)]
    fn clone(&self) -> Vector {
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, alive; the count added is the copy's.
        unsafe {
            match tag {
                SMALL => {
                    let v = ManuallyDrop::new(SharedVec::<Value>::from_raw(raw));
                    _ = SharedVec::clone(&v).into_raw();
                }
                FLAT => Arc::increment_strong_count(raw.as_ptr().cast::<Flat>()),
                SLICE => Arc::increment_strong_count(raw.as_ptr().cast::<Slice>()),
                _ => Arc::increment_strong_count(raw.as_ptr().cast::<Large>()),
            }
        }
        Vector {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl Drop for Vector {
    #[inline(always)]
    fn drop(&mut self) {
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, of which this vector owns one count, given back here
        // once.
        unsafe {
            match tag {
                SMALL => drop(SharedVec::<Value>::from_raw(raw)),
                FLAT => Arc::decrement_strong_count(raw.as_ptr().cast::<Flat>()),
                SLICE => drop_slice(raw),
                _ => Arc::decrement_strong_count(raw.as_ptr().cast::<Large>()),
            }
        }
    }
}

/// Gives back a slice's count of its `Arc`: out of line, so that the drop
/// of every vector, inlined wherever a value is dropped, is no bigger for
/// it than for the other kinds (each of which is a decrement and a call).
///
/// # Safety
/// `raw` is an `Arc<Slice>`'s value (`Arc::into_raw`), whose count the
/// caller owns and gives back.
#[inline(never)]
unsafe fn drop_slice(raw: NonNull<u8>) {
    // SAFETY: the caller's.
    unsafe { Arc::decrement_strong_count(raw.as_ptr().cast::<Slice>()) }
}

/// A vector's parts, borrowed from it ([`Vector::view`]): the items of a
/// small or flat vector or a slice, in one array, or a tree. (What is
/// particular to a flat vector: [`Vector::flat`].)
pub(super) enum View<'a> {
    Items(&'a [Value]),
    Large(&'a Large),
}

/// A vector's parts, unique, to change ([`Vector::view_mut`]).
pub(super) enum ViewMut<'a> {
    Small(&'a mut [Value]),
    Flat(&'a mut Flat),
    Large(&'a mut Large),
}

/// [`ViewMut`]'s parts before the guard that made them is dropped.
enum RawPart {
    Small(*mut [Value]),
    Flat(*mut Flat),
    Large(*mut Large),
}
