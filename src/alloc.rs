//! [`Mimalloc`]: the allocator the `ptc` binary runs on (feature
//! `mimalloc`, part of `cli`), for embedders to use as theirs.
//!
//! A PTC-Lisp program allocates many small values; mimalloc allocates them
//! markedly faster than the system allocator (tests/bench/run.py: −10–30%
//! on the record benchmarks) and, with its heaps per thread, lets sessions
//! on different threads run side by side: the 50k-record `group-by` of
//! `cargo bench --bench threads` runs 1.87–1.94× as fast on two threads as
//! on one with it, 1.71–1.91× with glibc's malloc (whose arenas' locks and
//! page faults the two threads share), and each run is ~20% faster with
//! it (four runs of each on a 2-core machine, 2026-11-29). A server that
//! runs sessions on several threads should make it the global allocator:
//!
//! ```
//! #[global_allocator]
//! static ALLOC: ptc_lisp::alloc::Mimalloc = ptc_lisp::alloc::Mimalloc;
//!
//! fn main() {
//!     let mut interp = ptc_lisp::Interp::new(
//!         Box::new(ptc_lisp::StaticHost::default()),
//!         ptc_lisp::Limits::default(),
//!     );
//!     assert!(interp.run_program("(return (count (range 1000)))").result.is_ok());
//! }
//! ```
//!
//! The `mimalloc` crate sends every request through `mi_malloc_aligned`,
//! whose generic path costs a few percent more; this calls `mi_malloc`
//! when its guaranteed 8-byte alignment is enough (almost every Rust
//! allocation).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// mimalloc 2 as a [`GlobalAlloc`] (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Mimalloc;

/// The alignment every mimalloc block has.
const MIN_ALIGN: usize = 8;

// SAFETY: every method forwards to the mimalloc function of the same
// contract; blocks from `mi_malloc`/`mi_zalloc`/`mi_realloc` are aligned to
// at least MIN_ALIGN, and larger alignments use the `_aligned` variants.
// `mi_free` releases blocks from either family.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= MIN_ALIGN {
                mi_malloc(layout.size()) as *mut u8
            } else {
                mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= MIN_ALIGN {
                mi_zalloc(layout.size()) as *mut u8
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= MIN_ALIGN {
                mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}
