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

/// `mi_option_arena_eager_commit` in mimalloc 2's `mi_option_t`.
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;

extern "C" {
    /// mimalloc's option setter (in the library libmimalloc-sys builds;
    /// the crate declares it only with its `extended` feature).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// mimalloc commits its whole first arena (1 GiB) up front on Linux, and
/// the kernel then backs the pages it touches with huge pages where it can:
/// even `(+ 1 2)` held 15 MB resident. Committing as used keeps a run's
/// peak memory close to what its values take (7 MB at start). The arena is
/// made before `main` runs, so this is a constructor that runs before
/// default-priority ones (mimalloc's own included).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array.00100"]
static COMMIT_ARENAS_AS_USED: extern "C" fn() = {
    extern "C" fn commit_arenas_as_used() {
        // SAFETY: sets an integer option, before any allocation.
        unsafe { mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
    }
    commit_arenas_as_used
};

fn main() {
    std::process::exit(ptc_lisp::cli::main());
}
