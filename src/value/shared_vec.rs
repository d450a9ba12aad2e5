//! [`SharedVec`]: a reference-counted, copy-on-write array in one
//! allocation — a count, a length and a capacity, then the items — behind
//! a thin pointer.
//!
//! Small maps keep their entries in one (`map/mod.rs`): a record is one
//! allocation instead of an `Arc` holding a `Vec` (two), is read through
//! one pointer instead of two, and costs a 16-byte header instead of the
//! `Arc`'s and the `Vec`'s 40 bytes. An unshared one grows in place (as
//! a `Vec` does: doubling, at least 4); a shared one is copied on write,
//! with room for what the write adds.
//!
//! The counting is `Arc`'s: a clone adds one (relaxed), a drop takes one
//! (release) and the last one (after an acquire fence) drops the items
//! and frees the allocation; "unique" is a count of one read with acquire
//! ordering, so values can be shared between threads.

use std::alloc::{self, Layout};
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::{self, NonNull};
use std::sync::atomic::{self, AtomicUsize, Ordering};

/// What comes before the items: the count, the length, the capacity,
/// and what the array's owner keeps beside them (`extra`: nothing, or a
/// record's shared keys, `map/mod.rs`).
#[repr(C)]
struct Header<H> {
    count: AtomicUsize,
    len: u32,
    cap: u32,
    extra: H,
}

/// The alignment of every header (the count's): `map/handle.rs` tags
/// pointers to them.
pub(crate) const HEADER_ALIGN: usize = std::mem::align_of::<Header<()>>();

/// Bytes of the header without `extra`, as `value/cost.rs` charges it.
pub(crate) const HEADER_BYTES: u64 = std::mem::size_of::<Header<()>>() as u64;

/// A capacity past `u32` or the address space: never asked for (small
/// maps hold at most `map::SMALL` entries), a panic as `Vec`'s would be.
#[cold]
fn overflow() -> ! {
    panic!("shared vector capacity overflow")
}

/// A reference-counted array in one allocation (module docs), with
/// `extra` in its header. Never empty of allocation: a `SharedVec` always
/// points at a header. Transparent: the handle is its header pointer, so
/// a small vector's handle, that pointer tagged 0, can be lent as one
/// (`vector/handle.rs`).
#[repr(transparent)]
pub(crate) struct SharedVec<T, H = ()> {
    ptr: NonNull<Header<H>>,
    _items: PhantomData<T>,
}

// Like `Arc<[T]>`: shared between threads when the items can be.
unsafe impl<T: Send + Sync, H: Send + Sync> Send for SharedVec<T, H> {}
unsafe impl<T: Send + Sync, H: Send + Sync> Sync for SharedVec<T, H> {}

/// The header every empty array without room shares ([`SharedVec::new`]):
/// its count is never one, so it is never unique (a write copies it
/// first) and never freed. [`SharedVec::new`] does not add to the count
/// and drops take from it, so it starts at 2^62: a process would have to
/// drop four billion billion empty arrays for it to fall to one, and
/// copies cannot raise it past `isize::MAX` (each is dropped again).
/// Checking for this header in every copy and drop instead cost 1–1.5%
/// of the instructions of the record programs (03, 05).
static EMPTY: Header<()> = Header {
    count: AtomicUsize::new(1 << 62),
    len: 0,
    cap: 0,
    extra: (),
};

impl<T> SharedVec<T> {
    /// An empty array, no allocation (the shared [`EMPTY`] header).
    #[inline]
    pub(crate) fn new() -> SharedVec<T> {
        SharedVec {
            ptr: NonNull::from(&EMPTY),
            _items: PhantomData,
        }
    }

    /// An empty array with room for `cap` items (none allocated for none).
    #[inline]
    pub(crate) fn with_capacity(cap: usize) -> SharedVec<T> {
        if cap == 0 {
            return Self::new();
        }
        Self::with_capacity_and(cap, ())
    }

    /// The items of `v`, moved (not cloned) into one allocation.
    pub(crate) fn from_vec(v: Vec<T>) -> SharedVec<T> {
        if v.is_empty() {
            return Self::new();
        }
        Self::from_vec_and(v, ())
    }
}

impl<T: Clone> SharedVec<T> {
    /// Clones of `items`, in one allocation of exactly their number.
    pub(crate) fn from_slice(items: &[T]) -> SharedVec<T> {
        let mut out = Self::with_capacity(items.len());
        for x in items {
            out.push_unique(x.clone());
        }
        out
    }
}

impl<T: Clone> FromIterator<T> for SharedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> SharedVec<T> {
        let iter = iter.into_iter();
        let mut out = Self::with_capacity(iter.size_hint().0);
        // `push` makes room when the hint was none (the empty header).
        iter.for_each(|x| out.push(x));
        out
    }
}

impl<T, H> SharedVec<T, H> {
    /// Bytes before the first item (the items' alignment is at most the
    /// header's, checked at compile time in [`SharedVec::layout`]).
    const ITEMS: usize = std::mem::size_of::<Header<H>>();

    /// The allocation for `cap` items.
    fn layout(cap: usize) -> Layout {
        const {
            assert!(std::mem::align_of::<T>() <= std::mem::align_of::<Header<H>>());
            assert!(std::mem::size_of::<Header<H>>().is_multiple_of(std::mem::align_of::<T>()));
            assert!(std::mem::size_of::<T>() > 0);
        }
        let bytes = std::mem::size_of::<T>()
            .checked_mul(cap)
            .and_then(|b| b.checked_add(Self::ITEMS));
        match bytes.map(|b| Layout::from_size_align(b, std::mem::align_of::<Header<H>>())) {
            Some(Ok(layout)) => layout,
            _ => overflow(),
        }
    }

    /// An empty array with room for `cap` items, `extra` in its header.
    #[inline]
    pub(crate) fn with_capacity_and(cap: usize, extra: H) -> SharedVec<T, H> {
        let Ok(cap32) = u32::try_from(cap) else {
            overflow()
        };
        let layout = Self::layout(cap);
        // SAFETY: the layout is never zero-sized (it holds the header).
        let raw = unsafe { alloc::alloc(layout) }.cast::<Header<H>>();
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout)
        };
        // SAFETY: `ptr` is a fresh allocation with room for the header.
        unsafe {
            ptr.as_ptr().write(Header {
                count: AtomicUsize::new(1),
                len: 0,
                cap: cap32,
                extra,
            });
        }
        SharedVec {
            ptr,
            _items: PhantomData,
        }
    }

    /// What the header keeps beside the counts.
    #[inline(always)]
    pub(crate) fn extra(&self) -> &H {
        &self.header().extra
    }

    /// The items of `v`, moved (not cloned) into one allocation, `extra`
    /// in its header.
    pub(crate) fn from_vec_and(mut v: Vec<T>, extra: H) -> SharedVec<T, H> {
        let mut out = Self::with_capacity_and(v.len(), extra);
        // SAFETY: `out` has room for `v.len()` items; they are moved, and
        // `v` forgets them before it frees its buffer.
        unsafe {
            ptr::copy_nonoverlapping(v.as_ptr(), out.items_ptr(), v.len());
            out.header_mut().len = v.len() as u32;
            v.set_len(0);
        }
        out
    }
}

impl<T, H> SharedVec<T, H> {
    #[inline(always)]
    fn header(&self) -> &Header<H> {
        // SAFETY: `ptr` points at a live header while any handle exists.
        unsafe { self.ptr.as_ref() }
    }

    /// The header to change: only through a unique handle (callers check).
    ///
    /// # Safety
    /// No other handle may exist.
    #[inline(always)]
    unsafe fn header_mut(&mut self) -> &mut Header<H> {
        unsafe { self.ptr.as_mut() }
    }

    #[inline(always)]
    fn items_ptr(&self) -> *mut T {
        // SAFETY: the items start `ITEMS` bytes into the allocation.
        unsafe { self.ptr.as_ptr().cast::<u8>().add(Self::ITEMS).cast::<T>() }
    }

    /// The number of items.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.header().len as usize
    }

    /// Room for items without growing.
    #[inline(always)]
    pub(crate) fn capacity(&self) -> usize {
        self.header().cap as usize
    }

    /// Whether this is the only handle: its items can change in place.
    #[inline(always)]
    pub(crate) fn is_unique(&self) -> bool {
        self.header().count.load(Ordering::Acquire) == 1
    }

    /// The number of handles to this array.
    pub(crate) fn strong_count(&self) -> usize {
        self.header().count.load(Ordering::Acquire)
    }

    /// Whether both handles share one array.
    #[inline]
    pub(crate) fn ptr_eq(&self, other: &SharedVec<T, H>) -> bool {
        self.ptr == other.ptr
    }

    /// The array's address (identity for walks over shared parts).
    pub(crate) fn addr(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// Appends `x` to a unique array, growing it when full.
    #[inline(always)]
    fn push_unique(&mut self, x: T) {
        debug_assert!(self.is_unique());
        let len = self.len();
        if len == self.capacity() {
            self.grow(len + 1);
        }
        // SAFETY: unique, with room for one more item past `len`.
        unsafe {
            self.items_ptr().add(len).write(x);
            self.header_mut().len += 1;
        }
    }

    /// Reallocates a unique array with room for at least `min` items.
    #[cold]
    fn grow(&mut self, min: usize) {
        let old = Self::layout(self.capacity());
        let cap = min.max(self.capacity() * 2).max(4);
        let Ok(cap32) = u32::try_from(cap) else {
            overflow()
        };
        let new = Self::layout(cap);
        // SAFETY: unique; `old` is the layout the allocation was made
        // with, and the items move with the bytes.
        let raw = unsafe { alloc::realloc(self.ptr.as_ptr().cast(), old, new.size()) };
        let Some(ptr) = NonNull::new(raw.cast::<Header<H>>()) else {
            alloc::handle_alloc_error(new)
        };
        self.ptr = ptr;
        // SAFETY: still unique.
        unsafe { self.header_mut().cap = cap32 };
    }
}

impl<T: Clone, H: Clone> SharedVec<T, H> {
    /// A copy of the items (and of `extra`) with room for `more` items.
    fn copy_with(&self, more: usize) -> SharedVec<T, H> {
        let mut out = Self::with_capacity_and(self.len() + more, self.extra().clone());
        for x in self.iter() {
            out.push_unique(x.clone());
        }
        out
    }

    /// The items to change: copied first when another handle shares them.
    #[inline]
    pub(crate) fn make_mut(&mut self) -> &mut [T] {
        if !self.is_unique() {
            self.unshare(0);
        }
        // SAFETY: unique now; `len` items are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.items_ptr(), self.len()) }
    }

    /// Appends `x`: in place when unique, else to a copy with room for it.
    #[inline]
    pub(crate) fn push(&mut self, x: T) {
        if !self.is_unique() {
            self.unshare(1);
        }
        self.push_unique(x);
    }

    /// Appends `x` and puts `extra` in the header (for the old one): in
    /// place when unique, else to a copy with room for `x`.
    pub(crate) fn push_with_extra(&mut self, x: T, extra: H) {
        if !self.is_unique() {
            self.unshare(1);
        }
        // SAFETY: unique now.
        unsafe { self.header_mut().extra = extra };
        self.push_unique(x);
    }

    /// Replaces a shared handle by a copy with room for `extra` more.
    #[cold]
    #[inline(never)]
    fn unshare(&mut self, more: usize) {
        // An empty one (the shared header) grows as an unshared one would.
        let more = if self.is_empty() { more.max(4) } else { more };
        *self = self.copy_with(more);
    }

    /// Removes and returns the item at `i` (a shared array copied first).
    ///
    /// # Panics
    /// When `i` is out of bounds.
    pub(crate) fn remove(&mut self, i: usize) -> T {
        let len = self.len();
        assert!(i < len, "shared vector index {i} out of bounds ({len})");
        self.make_mut();
        // SAFETY: unique; item `i` is read out and the rest moved down over
        // it before the length forgets the last place.
        unsafe {
            let p = self.items_ptr().add(i);
            let x = p.read();
            ptr::copy(p.add(1), p, len - i - 1);
            self.header_mut().len -= 1;
            x
        }
    }

    /// Hands each item to `f` in order: moved out when unique, cloned
    /// when shared (no `Vec` on the way, as [`SharedVec::into_vec`] has).
    pub(crate) fn for_each_owned(mut self, mut f: impl FnMut(T)) {
        if !self.is_unique() {
            self.iter().cloned().for_each(f);
            return;
        }
        let len = self.len();
        // SAFETY: unique; the length forgets the items first, so a panic
        // in `f` leaks the rest instead of dropping one twice, and
        // dropping `self` frees the allocation alone.
        unsafe {
            self.header_mut().len = 0;
            for i in 0..len {
                f(self.items_ptr().add(i).read());
            }
        }
    }

    /// The items as a `Vec`: moved out when unique, cloned when shared.
    pub(crate) fn into_vec(mut self) -> Vec<T> {
        if !self.is_unique() {
            return self.to_vec();
        }
        let len = self.len();
        let mut v = Vec::with_capacity(len);
        // SAFETY: unique; the items move to `v` and the length forgets
        // them, so dropping `self` frees the allocation alone.
        unsafe {
            ptr::copy_nonoverlapping(self.items_ptr(), v.as_mut_ptr(), len);
            v.set_len(len);
            self.header_mut().len = 0;
        }
        v
    }
}

/// Writes of a whole array's items (vectors, `vector/mod.rs`).
impl<T: Clone> SharedVec<T> {
    /// Puts `x` before index `i` (a shared array copied first).
    ///
    /// # Panics
    /// When `i` is past the end.
    pub(crate) fn insert(&mut self, i: usize, x: T) {
        let len = self.len();
        assert!(i <= len, "shared vector insert at {i} past the end ({len})");
        self.push(x);
        self.make_mut()[i..].rotate_right(1);
    }

    /// Removes and returns the last item (a shared array copied first).
    pub(crate) fn pop(&mut self) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        self.make_mut();
        // SAFETY: unique; the last item is read out and the length forgets
        // it.
        unsafe {
            self.header_mut().len -= 1;
            Some(self.items_ptr().add(self.len()).read())
        }
    }

    /// Keeps the first `n` items (a shared array copied first when that
    /// drops any).
    pub(crate) fn truncate(&mut self, n: usize) {
        while self.len() > n {
            drop(self.pop());
        }
    }

    /// Keeps the items `keep` says yes to, in order.
    /// `keep` sees each item once.
    pub(crate) fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.edit_as_vec(|items| items.retain(keep));
    }

    /// The items, moved out (cloned when shared), leaving none.
    pub(crate) fn take_vec(&mut self) -> Vec<T> {
        std::mem::replace(self, SharedVec::new()).into_vec()
    }

    /// `edit` of the items as a `Vec` (for the rarer writes: `retain`, a
    /// vector's `split_off` and `slice`), put back in one allocation
    /// after.
    pub(crate) fn edit_as_vec<R>(&mut self, edit: impl FnOnce(&mut Vec<T>) -> R) -> R {
        let mut items = self.take_vec();
        let out = edit(&mut items);
        *self = SharedVec::from_vec(items);
        out
    }

    /// Gives back room past the items (a unique array's).
    pub(crate) fn shrink_to_fit(&mut self) {
        let len = self.len();
        if len == self.capacity() || !self.is_unique() {
            return;
        }
        if len == 0 {
            *self = SharedVec::new();
            return;
        }
        let old = Self::layout(self.capacity());
        let new = Self::layout(len);
        // SAFETY: unique; `old` is the layout the allocation was made with,
        // and the `len` items it keeps move with the bytes.
        let raw = unsafe { alloc::realloc(self.ptr.as_ptr().cast(), old, new.size()) };
        let Some(ptr) = NonNull::new(raw.cast::<Header<()>>()) else {
            alloc::handle_alloc_error(new)
        };
        self.ptr = ptr;
        // SAFETY: still unique.
        unsafe { self.header_mut().cap = len as u32 };
    }
}

impl<T, H> SharedVec<T, H> {
    /// The handle as a bare pointer to its header (8-aligned: the header
    /// starts with the count), its count kept: [`SharedVec::from_raw`]
    /// gives it back. `map/handle.rs` keeps a map's kind in the low bits.
    #[inline(always)]
    pub(crate) fn into_raw(self) -> NonNull<u8> {
        let ptr = self.ptr.cast();
        std::mem::forget(self);
        ptr
    }

    /// The handle [`SharedVec::into_raw`] gave up, with its count.
    ///
    /// # Safety
    /// `ptr` came from `into_raw` of a `SharedVec<T, H>` whose count was
    /// not given back since (each `into_raw` is matched by one
    /// `from_raw` that drops, or by copies kept from dropping).
    #[inline(always)]
    pub(crate) unsafe fn from_raw(ptr: NonNull<u8>) -> SharedVec<T, H> {
        SharedVec {
            ptr: ptr.cast(),
            _items: PhantomData,
        }
    }
}

impl<T, H> Deref for SharedVec<T, H> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `len` items are initialised and nothing changes them
        // while this borrow lives (changes need `&mut self` and uniqueness).
        unsafe { std::slice::from_raw_parts(self.items_ptr(), self.len()) }
    }
}

impl<T, H> Clone for SharedVec<T, H> {
    #[inline]
    fn clone(&self) -> SharedVec<T, H> {
        count_up(&self.header().count);
        SharedVec {
            ptr: self.ptr,
            _items: PhantomData,
        }
    }
}

impl<T, H> Drop for SharedVec<T, H> {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.header().count) {
            self.drop_last();
        }
    }
}

/// Adds a handle to a reference count, as `Arc` does (relaxed; a count
/// past `isize::MAX` means handles are being leaked: abort). Shared by
/// every thin counted pointer here ([`SharedVec`], `value/text.rs`).
#[inline]
pub(crate) fn count_up(count: &AtomicUsize) {
    if count.fetch_add(1, Ordering::Relaxed) > isize::MAX as usize {
        std::process::abort();
    }
}

/// Takes a handle from a reference count, as `Arc` does: whether it was
/// the last one (then, after an acquire fence, the caller frees what the
/// count guards).
#[inline]
pub(crate) fn count_down(count: &AtomicUsize) -> bool {
    if count.fetch_sub(1, Ordering::Release) != 1 {
        return false;
    }
    atomic::fence(Ordering::Acquire);
    true
}

impl<T, H> SharedVec<T, H> {
    /// The last handle's drop: the items and `extra`, then the allocation.
    #[inline(never)]
    fn drop_last(&mut self) {
        let layout = Self::layout(self.capacity());
        // SAFETY: the last handle: nothing else reads the items or the
        // allocation; `len` items are initialised.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.items_ptr(), self.len()));
            ptr::drop_in_place(&raw mut (*self.ptr.as_ptr()).extra);
            alloc::dealloc(self.ptr.as_ptr().cast(), layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SharedVec;
    use std::sync::Arc;

    #[test]
    fn one_allocation_of_the_header_and_the_items() {
        type Pair = (u64, u64, u64, u64, u64, u64);
        assert_eq!(super::HEADER_BYTES, 16);
        assert_eq!(SharedVec::<Pair>::layout(3).size(), 16 + 3 * 48);
        assert_eq!(std::mem::size_of::<SharedVec<Pair>>(), 8);
        // With a pointer beside the counts (a record's shape).
        assert_eq!(SharedVec::<u64, Box<u8>>::layout(3).size(), 24 + 3 * 8);
        assert_eq!(std::mem::size_of::<SharedVec<u64, Box<u8>>>(), 8);
    }

    #[test]
    fn extra_is_copied_with_the_items_and_dropped_with_the_last_handle() {
        let shape = Arc::new("keys");
        let mut a: SharedVec<Arc<i32>, Arc<&str>> = SharedVec::with_capacity_and(1, shape.clone());
        a.push(Arc::new(1));
        let b = a.clone();
        // Copied on write: the copy holds the extra too.
        a.push(Arc::new(2));
        assert!(!a.ptr_eq(&b));
        assert!(Arc::ptr_eq(a.extra(), &shape) && Arc::ptr_eq(b.extra(), &shape));
        assert_eq!(Arc::strong_count(&shape), 3);
        drop(b);
        assert_eq!(Arc::strong_count(&shape), 2);
        drop(a);
        assert_eq!(Arc::strong_count(&shape), 1);
    }

    #[test]
    fn for_each_owned_moves_when_unique_and_clones_when_shared() {
        let item = Arc::new(7);
        let a = SharedVec::from_vec(vec![item.clone(), item.clone()]);
        let shared = a.clone();
        let mut seen = Vec::new();
        a.for_each_owned(|x| seen.push(x));
        // Cloned: `shared` still holds its two.
        assert_eq!(Arc::strong_count(&item), 1 + 2 + 2);
        seen.clear();
        shared.for_each_owned(|x| seen.push(x));
        // Moved: the array's two are now `seen`'s, none dropped or added.
        assert_eq!((seen.len(), Arc::strong_count(&item)), (2, 3));
        drop(seen);
        assert_eq!(Arc::strong_count(&item), 1);
    }

    #[test]
    fn push_grows_and_keeps_items() {
        let mut v = SharedVec::with_capacity(1);
        for i in 0..20 {
            v.push(Arc::new(i));
        }
        assert_eq!(v.len(), 20);
        assert!(v.iter().enumerate().all(|(i, x)| **x == i));
    }

    #[test]
    fn writes_to_a_shared_copy_leave_the_other_alone() {
        let item = Arc::new("x".to_string());
        let mut a = SharedVec::from_vec(vec![item.clone(), item.clone()]);
        let b = a.clone();
        assert!(a.ptr_eq(&b) && !a.is_unique());
        a.push(item.clone());
        a.make_mut()[0] = Arc::new("y".to_string());
        assert!(!a.ptr_eq(&b) && a.is_unique() && b.is_unique());
        assert_eq!(b.len(), 2);
        assert_eq!(*b[0], "x");
        assert_eq!((a.len(), a[0].as_str()), (3, "y"));
        // a: two of `item`; b: two; the local: one.
        assert_eq!(Arc::strong_count(&item), 5);
        drop((a, b));
        assert_eq!(Arc::strong_count(&item), 1);
    }

    #[test]
    fn remove_and_into_vec_move_items_once() {
        let item = Arc::new(7);
        let mut a = SharedVec::from_vec((0..5).map(|_| item.clone()).collect());
        let shared = a.clone();
        let out = a.remove(1);
        assert_eq!((a.len(), shared.len()), (4, 5));
        drop(out);
        let moved = a.into_vec();
        assert_eq!(moved.len(), 4);
        let cloned = shared.clone().into_vec();
        assert_eq!(cloned.len(), 5);
        assert_eq!(Arc::strong_count(&item), 1 + 4 + 5 + 5);
        drop((moved, cloned, shared));
        assert_eq!(Arc::strong_count(&item), 1);
    }

    #[test]
    fn empty_arrays_share_one_header_and_a_write_makes_their_own() {
        let mut a: SharedVec<Arc<i32>> = SharedVec::new();
        let b: SharedVec<Arc<i32>> = SharedVec::from_vec(Vec::new());
        assert!(a.ptr_eq(&b) && !a.is_unique() && a.is_empty());
        let c: SharedVec<Arc<i32>> = std::iter::empty().collect();
        assert!(c.ptr_eq(&a));
        a.push(Arc::new(1));
        assert!(!a.ptr_eq(&b) && a.is_unique() && a.capacity() >= 4);
        assert!(b.is_empty() && c.is_empty());
        // Dropping handles of the shared one never frees it.
        drop((b, c));
        let d: SharedVec<Arc<i32>> = SharedVec::new();
        assert!(d.is_empty() && !d.is_unique());
    }

    #[test]
    fn insert_pop_truncate_and_retain_copy_a_shared_array_first() {
        let item = Arc::new(0);
        let mut a = SharedVec::from_vec((0..6).map(Arc::new).collect::<Vec<_>>());
        let keep = a.clone();
        a.insert(2, item.clone());
        assert_eq!(
            a.iter().map(|x| **x).collect::<Vec<_>>(),
            [0, 1, 0, 2, 3, 4, 5]
        );
        assert_eq!(keep.len(), 6);
        assert_eq!(a.pop().map(|x| *x), Some(5));
        a.truncate(4);
        assert_eq!(a.iter().map(|x| **x).collect::<Vec<_>>(), [0, 1, 0, 2]);
        let mut seen = 0;
        a.retain(|x| {
            seen += 1;
            **x != 0
        });
        assert_eq!((seen, a.len()), (4, 2), "each item seen once");
        assert_eq!(a.iter().map(|x| **x).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(
            keep.iter().map(|x| **x).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5]
        );
        assert_eq!(
            Arc::strong_count(&item),
            1,
            "the inserted item dropped with its slot"
        );
        let mut e: SharedVec<Arc<i32>> = SharedVec::new();
        assert!(e.pop().is_none());
    }

    #[test]
    fn shrink_to_fit_gives_back_room_of_a_unique_array() {
        let mut a = SharedVec::with_capacity(10);
        for i in 0..3 {
            a.push(Arc::new(i));
        }
        let shared = a.clone();
        a.shrink_to_fit();
        assert_eq!(a.capacity(), 10, "shared: left alone");
        drop(shared);
        a.shrink_to_fit();
        assert_eq!((a.capacity(), a.len()), (3, 3));
        assert!(a.iter().enumerate().all(|(i, x)| **x == i as i32));
        a.truncate(0);
        a.shrink_to_fit();
        assert!(a.ptr_eq(&SharedVec::new()));
    }

    #[test]
    fn shared_between_threads() {
        let v = SharedVec::from_vec((0..100).map(Arc::new).collect::<Vec<_>>());
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let v = v.clone();
                std::thread::spawn(move || v.iter().map(|x| **x).sum::<i32>())
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), 4950);
        }
        assert!(v.is_unique());
    }
}
