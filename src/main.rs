//! The `ptc` binary: all logic lives in the library (`ptc_lisp::cli`).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// mimalloc, which allocates the many small values of a PTC-Lisp program
/// markedly faster than the system allocator (tests/bench/run.py: −10–30%
/// on the record benchmarks). The `mimalloc` crate sends every request
/// through `mi_malloc_aligned`, whose generic path costs a few percent
/// more; this calls `mi_malloc` when its guaranteed 8-byte alignment is
/// enough (almost every Rust allocation).
///
/// mimalloc's default of committing its arena up front is kept: the kernel
/// then backs it with 2 MiB pages. Committing as used (option
/// `arena_eager_commit` = 0) starts a run at 6 MB instead of 11 MB but
/// takes 4 KiB page faults instead: 03-records-pipeline 252 → 10,016 faults
/// and 102 → 184 ms of CPU, 07-assoc-map 244 → 305 ms, 10-nested
/// 50 → 81 ms (`perf stat -r 5`, 2026-11-23).
struct Mimalloc;

/// The alignment every mimalloc block has.
const MIN_ALIGN: usize = 8;

// SAFETY: every method forwards to the mimalloc function of the same
// contract; blocks from `mi_malloc`/`mi_zalloc`/`mi_realloc` are aligned to
// at least MIN_ALIGN, and larger alignments use the `_aligned` variants.
// `mi_free` releases blocks from either family.
unsafe impl GlobalAlloc for Mimalloc {
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

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi_free(ptr as *mut c_void) }
    }

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

#[global_allocator]
static GLOBAL: Mimalloc = Mimalloc;

fn main() {
    std::process::exit(ptc_lisp::cli::main());
}
