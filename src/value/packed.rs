//! What the one-word handles of maps and vectors (`map/handle.rs`,
//! `vector/handle.rs`) share: the representation a handle stands for,
//! read out of its word and never dropped, to read ([`Borrowed`]), or
//! held by a guard to change and packed back into the word when the guard
//! is dropped, unwinding included ([`ReprMut`]). While a guard lives the
//! handle holds a word that owns nothing, so a guard leaked leaks the
//! storage but leaves no dangling handle.

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Arc;

/// An `Arc`'s value pointer, its count kept (what a handle tags; given
/// back with `Arc::from_raw`).
#[inline(always)]
pub(crate) fn arc_raw<T>(a: Arc<T>) -> NonNull<u8> {
    // SAFETY: `Arc::into_raw` is never null.
    unsafe { NonNull::new_unchecked(Arc::into_raw(a).cast_mut().cast()) }
}

/// A one-word handle standing for an unpacked representation.
///
/// # Safety
/// `read` gives exactly what the handle owns, `pack` makes a handle that
/// owns what the representation did, `vacate` puts a word owning nothing
/// in the handle without dropping what was there, and `refill` writes a
/// handle's word over such a word, without dropping either.
pub(crate) unsafe trait Packed: Sized {
    /// The representation, unpacked.
    type Repr;

    /// The representation this handle stands for, owning what the handle
    /// owns.
    ///
    /// # Safety
    /// The handle and the result must not both be dropped.
    unsafe fn read(&self) -> Self::Repr;

    /// The handle of `repr`, which moves into it.
    fn pack(repr: Self::Repr) -> Self;

    /// Puts a word that owns nothing in the handle, dropping nothing.
    ///
    /// # Safety
    /// What the handle owned must have moved out first (`read`).
    unsafe fn vacate(&mut self);

    /// Puts `packed`'s word in the handle, dropping neither.
    ///
    /// # Safety
    /// The handle must be vacant (`vacate`).
    unsafe fn refill(&mut self, packed: Self);
}

/// A handle's representation read out of it and never dropped.
pub(crate) struct Borrowed<'a, H: Packed>(ManuallyDrop<H::Repr>, PhantomData<&'a H>);

impl<'a, H: Packed> Borrowed<'a, H> {
    /// `handle`'s representation, to read.
    #[inline(always)]
    pub(crate) fn of(handle: &'a H) -> Borrowed<'a, H> {
        // SAFETY: the copy is never dropped.
        Borrowed(ManuallyDrop::new(unsafe { handle.read() }), PhantomData)
    }
}

impl<H: Packed> Deref for Borrowed<'_, H> {
    type Target = H::Repr;
    #[inline(always)]
    fn deref(&self) -> &H::Repr {
        &self.0
    }
}

/// A handle's representation to change, packed back into it on drop.
pub(crate) struct ReprMut<'a, H: Packed> {
    handle: &'a mut H,
    repr: ManuallyDrop<H::Repr>,
}

impl<'a, H: Packed> ReprMut<'a, H> {
    /// `handle`'s representation, moved out to change; the handle vacant
    /// until the guard is dropped.
    #[inline(always)]
    pub(crate) fn of(handle: &'a mut H) -> ReprMut<'a, H> {
        // SAFETY: ownership moves to the guard, then the handle is made
        // vacant, dropping nothing.
        let repr = ManuallyDrop::new(unsafe { handle.read() });
        unsafe { handle.vacate() };
        ReprMut { handle, repr }
    }
}

impl<H: Packed> Deref for ReprMut<'_, H> {
    type Target = H::Repr;
    #[inline(always)]
    fn deref(&self) -> &H::Repr {
        &self.repr
    }
}

impl<H: Packed> DerefMut for ReprMut<'_, H> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut H::Repr {
        &mut self.repr
    }
}

impl<H: Packed> Drop for ReprMut<'_, H> {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: taken once, here; the handle is vacant (`of`).
        let repr = unsafe { ManuallyDrop::take(&mut self.repr) };
        unsafe { self.handle.refill(H::pack(repr)) };
    }
}
