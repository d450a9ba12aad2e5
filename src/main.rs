//! The `ptc` binary: all logic lives in the library (`ptc_lisp::cli`).

/// The allocator: mimalloc ([`ptc_lisp::alloc::Mimalloc`]).
///
/// mimalloc's default of committing its arena up front is kept: the kernel
/// then backs it with 2 MiB pages. Committing as used (option
/// `arena_eager_commit` = 0) starts a run at 6 MB instead of 11 MB but
/// takes 4 KiB page faults instead: 03-records-pipeline 252 → 10,016 faults
/// and 102 → 184 ms of CPU, 07-assoc-map 244 → 305 ms, 10-nested
/// 50 → 81 ms (`perf stat -r 5`, 2026-11-23). The first arena
/// ([`arena`]) keeps its first 4 MiB in 4 KiB pages instead, where a short
/// program's heap fits: a run of `(println 1)` takes 8.0 MB instead of
/// 11.5 and starts 12 % sooner (no 4 MB of huge pages to clear); a large
/// heap takes ~730 more page faults, +2–5 % wall time on 03-records and
/// 07-assoc (`farm-bench -n 40`, medians, 2026-11-28). Keeping only the
/// first 2 MiB in small pages cost +1.7 % there but started at 10.6 MB.
///
/// With the feature `wheel` the library declares the same allocator
/// (`src/python/mod.rs`) and this one is left out.
#[cfg(not(feature = "wheel"))]
#[global_allocator]
static GLOBAL: ptc_lisp::alloc::Mimalloc = ptc_lisp::alloc::Mimalloc;

/// mimalloc's first arena, given to it before the first allocation: 1 GiB
/// of address space whose first [`arena::SMALL`] bytes keep the kernel's
/// 4 KiB pages and the rest asks for transparent huge pages. mimalloc's
/// own arena asks for huge pages throughout, so the few hundred KiB a
/// short program allocates cost two whole 2 MiB pages (4 MB of the 11 MB a
/// run of `(println 1)` took); a large heap still grows in huge pages
/// (what the comment on [`GLOBAL`] measured). Run from `.init_array`,
/// after mimalloc's own initialisation (a priority-101 constructor) and
/// before `main` or any allocation, so it is arena 0, the one mimalloc
/// tries first. If anything fails, mimalloc reserves its own as before.
#[cfg(target_os = "linux")]
mod arena {
    use std::ffi::c_void;

    /// The arena's size (mimalloc reserves more when it is used up).
    const SIZE: usize = 1 << 30;
    /// How much of it, from its start, stays in 4 KiB pages.
    pub(super) const SMALL: usize = 4 << 20;
    /// mimalloc's segment alignment, which an arena's start must have.
    const ALIGN: usize = 32 << 20;

    unsafe extern "C" {
        fn mi_manage_os_memory_ex(
            start: *mut c_void,
            size: usize,
            is_committed: bool,
            is_large: bool,
            is_zero: bool,
            numa_node: i32,
            exclusive: bool,
            arena_id: *mut i32,
        ) -> bool;
    }

    #[used]
    #[unsafe(link_section = ".init_array")]
    static FIRST_ARENA: extern "C" fn() = first_arena;

    extern "C" fn first_arena() {
        // SAFETY: a fresh private anonymous mapping, owned by no one else,
        // handed whole (from an aligned start inside it) to mimalloc, which
        // from then on owns it for the life of the process; `madvise` only
        // advises on part of it.
        unsafe {
            let len = SIZE + ALIGN;
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return;
            }
            // The aligned start; the unused head and tail given back.
            let head = (p as usize).next_multiple_of(ALIGN) - p as usize;
            let start = p.cast::<u8>().add(head);
            if head > 0 {
                libc::munmap(p, head);
            }
            libc::munmap(start.add(SIZE).cast(), ALIGN - head);
            libc::madvise(start.add(SMALL).cast(), SIZE - SMALL, libc::MADV_HUGEPAGE);
            let (committed, large, zero, any_numa, exclusive) = (true, false, true, -1, false);
            let start = start.cast::<c_void>();
            let id = std::ptr::null_mut();
            if !mi_manage_os_memory_ex(start, SIZE, committed, large, zero, any_numa, exclusive, id)
            {
                libc::munmap(start, SIZE);
            }
        }
    }
}

fn main() {
    std::process::exit(ptc_lisp::cli::main());
}
