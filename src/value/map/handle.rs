//! The handle of a [`Map`]: one word, so that a `Value` is two (`value/mod.rs`).
//!
//! The word is null for the empty map, and otherwise a tagged pointer:
//! the low two bits name the representation ([`Repr`]: small entries, a
//! record, an ordered hash map, a sorted map) and the third bit is the
//! flag a small map or record keeps for "shallow" and a large map for
//! "flat" (`Map::is_shallow_record`, `Map::is_flat`). The flag lives in
//! the handle, not the storage: copies share what it describes, and each
//! write through a handle updates it. The rest of the word points at the
//! storage: a [`SharedVec`]'s header (small maps, records) or the value
//! in an `Arc`'s allocation (`Arc::into_raw`: large and sorted maps), all
//! 8-aligned (checked below).
//!
//! Everything unsafe about the handle is here (and in `value/packed.rs`,
//! the guard and borrowed copy shared with vectors' handles, [`Packed`]);
//! `get_mut` and `update_value` in `mod.rs` hand out a slot of storage
//! only this handle holds through a raw pointer, said why there.
//! The rest of the module sees [`Repr`], the handle unpacked: by value
//! ([`Map::pack`],
//! [`Map::into_repr`]), borrowed for reading ([`Map::repr`]: a [`Borrowed`]
//! copy never dropped; [`Map::view`]: the parts as references that live
//! as long as the map's borrow), or to change ([`Map::repr_mut`]: a guard
//! that packs what it holds back into the handle when dropped, unwinding
//! included).

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::Arc;

use super::{Entries, Fields, Ordered, Repr, Shape, Sorted};
use crate::value::packed::{arc_raw, Borrowed, Packed, ReprMut};
use crate::value::shared_vec::HEADER_ALIGN;
use crate::value::Value;

const KIND: usize = 0b011;
const SMALL: usize = 0;
const RECORD: usize = 1;
const LARGE: usize = 2;
const SORTED: usize = 3;
/// `Small`'s and `Record`'s "shallow", `Large`'s "flat".
const FLAG: usize = 0b100;
const TAG: usize = KIND | FLAG;

// The tag needs three free low bits in every pointer a map keeps.
const _: () = {
    assert!(HEADER_ALIGN > TAG);
    assert!(std::mem::align_of::<Ordered>() > TAG);
    assert!(std::mem::align_of::<Sorted>() > TAG);
};

/// A persistent map (O(1) clone, structural sharing): iterates in the
/// order its keys were first added, or in canonical key order for a
/// `sorted-map`.
pub struct Map {
    /// Null (empty), or the tagged pointer of the module docs, which owns
    /// one count of the storage it points at.
    ptr: *mut u8,
    _owns: PhantomData<Repr>,
}

// SAFETY: a `Map` owns what its `Repr` would (one count of a `SharedVec`
// or an `Arc`), and `Repr` is `Send` and `Sync` (checked here).
unsafe impl Send for Map {}
// SAFETY: as for `Send`.
unsafe impl Sync for Map {}
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Repr>();
};

/// The bits of `flag`.
#[inline(always)]
fn flag(flag: bool) -> usize {
    if flag {
        FLAG
    } else {
        0
    }
}

/// `x` for as long as `'a`.
///
/// # Safety
/// `x` must be in storage that lives, unchanged, for `'a`.
#[inline(always)]
unsafe fn extend<'a, T: ?Sized>(x: &T) -> &'a T {
    unsafe { &*(x as *const T) }
}

/// `x` for as long as `'a`.
///
/// # Safety
/// `x` must be in storage that lives for `'a` and that nothing else
/// reads or writes meanwhile.
#[inline(always)]
unsafe fn extend_mut<'a, T: ?Sized>(x: &mut T) -> &'a mut T {
    unsafe { &mut *(x as *mut T) }
}

impl Map {
    /// The empty map.
    pub(super) const EMPTY: Map = Map {
        ptr: std::ptr::null_mut(),
        _owns: PhantomData,
    };

    /// The `Repr` of this handle, moved out of it.
    #[inline(always)]
    pub(super) fn into_repr(self) -> Repr {
        let me = ManuallyDrop::new(self);
        // SAFETY: the handle is not dropped.
        unsafe { me.read() }
    }

    /// This handle's `Repr`, to read.
    #[inline(always)]
    pub(super) fn repr(&self) -> Borrowed<'_, Map> {
        Borrowed::of(self)
    }

    /// The untagged pointer and the tag, of a map not empty.
    #[inline(always)]
    fn parts(&self) -> (NonNull<u8>, usize) {
        debug_assert!(!self.ptr.is_null());
        // SAFETY: not empty, so not null untagged: the tag bits were free
        // in a pointer to an allocation.
        let raw = unsafe { NonNull::new_unchecked(self.ptr.map_addr(|a| a & !TAG)) };
        (raw, self.ptr.addr() & TAG)
    }

    /// The parts of this map, borrowed as long as it is.
    #[inline(always)]
    pub(super) fn view(&self) -> View<'_> {
        if self.ptr.is_null() {
            return View::Empty;
        }
        let (raw, tag) = self.parts();
        let f = tag & FLAG != 0;
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, kept alive by the count this map owns and unchanged
        // (changes need `&mut self`) for as long as it is borrowed; the
        // handles made from it are never dropped.
        unsafe {
            match tag & KIND {
                SMALL => {
                    let v = ManuallyDrop::new(Entries::from_raw(raw));
                    View::Small(extend(&**v), f)
                }
                RECORD => {
                    let v = ManuallyDrop::new(Fields::from_raw(raw));
                    View::Record(extend(&**v), extend(v.extra()), f)
                }
                LARGE => View::Large(&*raw.as_ptr().cast::<Ordered>(), f),
                _ => View::Sorted(&*raw.as_ptr().cast::<Sorted>()),
            }
        }
    }

    /// This handle's `Repr`, to change: packed back into it when the
    /// guard is dropped (the map is empty meanwhile: `packed.rs`).
    #[inline(always)]
    pub(super) fn repr_mut(&mut self) -> ReprMut<'_, Map> {
        ReprMut::of(self)
    }

    /// The entries of a small map, the values of a record or the ordered
    /// map of a large one that only this handle holds, to change in place
    /// (no copy to make, so the storage stays where it is); `None` for
    /// anything else. The handle's flag
    /// is the caller's to keep right ([`Map::clear_flag`]).
    #[inline(always)]
    pub(super) fn unique_mut(&mut self) -> Option<UniqueMut<'_>> {
        if self.ptr.is_null() {
            return None;
        }
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, alive while the map is; the handles made from it are
        // never dropped; it is written only when unique (no other handle
        // reads it), and `&mut self` keeps this handle from reading it
        // while the slice lives. A record's keys are in its header, apart
        // from its values.
        unsafe {
            match tag & KIND {
                SMALL => {
                    let mut v = ManuallyDrop::new(Entries::from_raw(raw));
                    if !v.is_unique() {
                        return None;
                    }
                    Some(UniqueMut::Small(extend_mut(v.make_mut())))
                }
                RECORD => {
                    let mut v = ManuallyDrop::new(Fields::from_raw(raw));
                    if !v.is_unique() {
                        return None;
                    }
                    let keys = extend(v.extra());
                    Some(UniqueMut::Record(extend_mut(v.make_mut()), keys))
                }
                LARGE => {
                    let mut m = ManuallyDrop::new(Arc::from_raw(raw.as_ptr().cast::<Ordered>()));
                    Some(UniqueMut::Large(extend_mut(Arc::get_mut(&mut m)?)))
                }
                _ => None,
            }
        }
    }

    /// Turns the flag off ("measure it": a slot was handed out).
    #[inline(always)]
    pub(super) fn clear_flag(&mut self) {
        self.ptr = self.ptr.map_addr(|a| a & !FLAG);
    }

    /// Whether both handles point at the same storage.
    #[inline]
    pub(super) fn same_storage(&self, other: &Map) -> bool {
        self.ptr.addr() & !FLAG == other.ptr.addr() & !FLAG
    }
}

// SAFETY: `read` and `pack` are each other's inverse, moving the count
// the word owns; the vacant word is null (the empty map), which owns
// nothing; `refill` writes a word over it without dropping.
unsafe impl Packed for Map {
    type Repr = Repr;

    #[inline(always)]
    fn pack(repr: Repr) -> Map {
        let (raw, tag) = match repr {
            Repr::Empty => return Map::EMPTY,
            Repr::Small(v, f) => (v.into_raw(), SMALL | flag(f)),
            Repr::Record(v, f) => (v.into_raw(), RECORD | flag(f)),
            Repr::Large(m, f) => (arc_raw(m), LARGE | flag(f)),
            Repr::Sorted(m) => (arc_raw(m), SORTED),
        };
        Map {
            ptr: raw.as_ptr().map_addr(|a| a | tag),
            _owns: PhantomData,
        }
    }

    #[inline(always)]
    unsafe fn read(&self) -> Repr {
        if self.ptr.is_null() {
            return Repr::Empty;
        }
        let (raw, tag) = self.parts();
        let f = tag & FLAG != 0;
        // SAFETY: by the invariant, the pointer came from `pack` of the
        // kind the tag names, and owns one count.
        unsafe {
            match tag & KIND {
                SMALL => Repr::Small(Entries::from_raw(raw), f),
                RECORD => Repr::Record(Fields::from_raw(raw), f),
                LARGE => Repr::Large(Arc::from_raw(raw.as_ptr().cast::<Ordered>()), f),
                _ => Repr::Sorted(Arc::from_raw(raw.as_ptr().cast::<Sorted>())),
            }
        }
    }

    #[inline(always)]
    unsafe fn vacate(&mut self) {
        self.ptr = std::ptr::null_mut();
    }

    #[inline(always)]
    unsafe fn refill(&mut self, packed: Map) {
        self.ptr = ManuallyDrop::new(packed).ptr;
    }
}

impl Default for Map {
    #[inline]
    fn default() -> Map {
        Map::EMPTY
    }
}

impl Clone for Map {
    /// Adds a count to the storage; the copy is the same word, flag
    /// included.
    #[inline]
    fn clone(&self) -> Map {
        if !self.ptr.is_null() {
            let (raw, tag) = self.parts();
            // SAFETY: by the invariant, `raw` is the storage of the kind
            // the tag names, alive; the count added is the copy's.
            unsafe {
                match tag & KIND {
                    SMALL => {
                        _ = Entries::clone(&ManuallyDrop::new(Entries::from_raw(raw))).into_raw()
                    }
                    RECORD => {
                        _ = Fields::clone(&ManuallyDrop::new(Fields::from_raw(raw))).into_raw()
                    }
                    LARGE => Arc::increment_strong_count(raw.as_ptr().cast::<Ordered>()),
                    _ => Arc::increment_strong_count(raw.as_ptr().cast::<Sorted>()),
                }
            }
        }
        Map {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl Drop for Map {
    #[inline]
    fn drop(&mut self) {
        if self.ptr.is_null() {
            return;
        }
        let (raw, tag) = self.parts();
        // SAFETY: by the invariant, `raw` is the storage of the kind the
        // tag names, of which this map owns one count, given back here
        // once.
        unsafe {
            match tag & KIND {
                SMALL => drop(Entries::from_raw(raw)),
                RECORD => drop(Fields::from_raw(raw)),
                LARGE => Arc::decrement_strong_count(raw.as_ptr().cast::<Ordered>()),
                _ => Arc::decrement_strong_count(raw.as_ptr().cast::<Sorted>()),
            }
        }
    }
}

/// A map's parts, borrowed from it ([`Map::view`]).
pub(super) enum View<'a> {
    Empty,
    /// Entries, shallow.
    Small(&'a [(Value, Value)], bool),
    /// Values, keys, shallow.
    Record(&'a [Value], &'a Shape, bool),
    /// The map, flat.
    Large(&'a Ordered, bool),
    Sorted(&'a Sorted),
}

/// The storage of a map only one handle holds ([`Map::unique_mut`]).
pub(super) enum UniqueMut<'a> {
    /// A small map's entries.
    Small(&'a mut [(Value, Value)]),
    /// A record's values and keys.
    Record(&'a mut [Value], &'a Shape),
    /// A large map.
    Large(&'a mut Ordered),
}
