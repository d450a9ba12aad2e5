//! [`make_mut`]: `Arc::make_mut` with its usual case — the value's only
//! handle — made cheap.
//!
//! Collections are written in place through `Arc::make_mut` while one
//! value holds them (every `assoc`/`update`/`conj` in a `reduce`). Its
//! uniqueness test is an atomic compare-and-exchange of the strong count,
//! a read of the weak count and a store back (19 instructions a call, 3.2
//! M in 07-assoc-map). Here the only-handle case is two plain reads of the
//! counts and an acquire fence (free on x86), the rest `Arc::make_mut`.

use std::sync::atomic::{fence, Ordering};
use std::sync::Arc;

/// `Arc::make_mut`: a mutable reference to `a`'s value, cloned first when
/// another handle (or a `Weak`) shares it.
#[inline(always)]
pub(crate) fn make_mut<T: Clone>(a: &mut Arc<T>) -> &mut T {
    if Arc::strong_count(a) == 1 && Arc::weak_count(a) == 0 {
        // Pairs with the release decrement of a handle another thread
        // dropped, so its reads and writes happen before ours.
        fence(Ordering::Acquire);
        // SAFETY: `a` is the only handle (a strong count of one, and no
        // `Weak` that could be upgraded), and `&mut a` keeps anyone from
        // cloning or downgrading it while the reference lives: the access
        // is exclusive, as `Arc::get_mut` would grant. The pointer comes
        // from the `Arc`'s own allocation pointer (`as_ptr` does not go
        // through a shared reference), so writing through it is allowed.
        return unsafe { &mut *Arc::as_ptr(a).cast_mut() };
    }
    Arc::make_mut(a)
}

/// `Arc::get_mut`'s answer for the only handle, found as [`make_mut`]
/// finds it: the value to write in place, or `None` when another handle
/// (or a `Weak`) shares it.
#[inline(always)]
pub(crate) fn get_mut<T>(a: &mut Arc<T>) -> Option<&mut T> {
    if Arc::strong_count(a) == 1 && Arc::weak_count(a) == 0 {
        fence(Ordering::Acquire);
        // SAFETY: as in `make_mut`.
        return Some(unsafe { &mut *Arc::as_ptr(a).cast_mut() });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_only_handle_is_lent_for_writing() {
        let mut a = Arc::new(5);
        *get_mut(&mut a).expect("the only handle") += 1;
        assert_eq!(*a, 6);
        let b = a.clone();
        assert!(get_mut(&mut a).is_none(), "shared");
        drop(b);
        let w = Arc::downgrade(&a);
        assert!(get_mut(&mut a).is_none(), "a Weak could upgrade");
        drop(w);
        assert!(get_mut(&mut a).is_some());
    }

    #[test]
    fn the_only_handle_is_written_in_place_and_a_shared_one_copied() {
        let mut a = Arc::new(vec![1, 2, 3]);
        let at = Arc::as_ptr(&a);
        make_mut(&mut a).push(4);
        assert_eq!(Arc::as_ptr(&a), at, "the only handle: in place");
        assert_eq!(*a, [1, 2, 3, 4]);

        let b = a.clone();
        make_mut(&mut a).push(5);
        assert_ne!(Arc::as_ptr(&a), Arc::as_ptr(&b), "shared: copied");
        assert_eq!(
            (a.as_slice(), b.as_slice()),
            (&[1, 2, 3, 4, 5][..], &[1, 2, 3, 4][..])
        );

        // A `Weak` alone keeps it from being written in place, as
        // `Arc::make_mut` does (which then moves the value out).
        let w = Arc::downgrade(&b);
        let mut b = b;
        make_mut(&mut b).push(6);
        assert_eq!(*b, [1, 2, 3, 4, 6]);
        assert!(w.upgrade().is_none());
    }

    #[test]
    fn handles_dropped_on_other_threads_leave_the_last_one_writable() {
        let mut a = Arc::new(vec![0u64; 4]);
        let clones: Vec<_> = (0..4).map(|_| a.clone()).collect();
        std::thread::scope(|s| {
            for c in clones {
                s.spawn(move || assert_eq!(c.iter().sum::<u64>(), 0));
            }
        });
        let at = Arc::as_ptr(&a);
        make_mut(&mut a)[0] = 7;
        assert_eq!((Arc::as_ptr(&a), a[0]), (at, 7));
    }
}
