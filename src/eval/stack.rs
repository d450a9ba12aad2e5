//! The native stack evaluation runs on.
//!
//! Evaluation, analysis, printing, comparing, hashing and dropping values
//! recurse, and the limits ([`super::budget::HARD_MAX_DEPTH`], the reader's
//! nesting limit, the heap budget) are sized for a stack of [`STACK_BYTES`].
//! [`run_on_big_stack`] runs a whole program on such a stack; nothing in
//! the evaluator checks the stack pointer, so every recursive path is safe
//! as long as it runs there.
//!
//! The stack is a [`STACK_BYTES`] memory reservation (committed only as it
//! is touched, with a guard region below it) that the calling thread
//! switches onto (`psm::on_stack`) and back from: no thread is started, and
//! each thread keeps its reservation for the next program, so a turn pays
//! for neither a thread nor the page faults of a fresh stack. A program
//! that went deep leaves its stack pages to the OS when it ends
//! ([`RETAINED_BYTES`] stay committed), as a finished thread would.
//!
//! Host code a program calls (tools) runs back on the calling thread's own
//! stack ([`on_caller_stack`]), below the frame that switched: code such as
//! CPython's stack-depth checks expects to run on the thread's real stack.
//!
//! Where the switch is unavailable (no `psm` support for the target, or
//! the reservation cannot be made), the program runs on a newly started
//! thread with a [`STACK_BYTES`] stack instead, as before.

use crate::error::{Error, Result};

/// The size of the stack a program runs on.
pub const STACK_BYTES: usize = 1 << 30;

/// Stack pages a finished program may leave committed for the next one.
pub const RETAINED_BYTES: usize = 1 << 20;

/// Runs `f` on a [`STACK_BYTES`] stack. A panic in `f` (a bug of ptc)
/// comes back as an `internal-error` instead of taking the process down.
pub fn run_on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T> {
    #[cfg(unix)]
    let f = match switched::run(f) {
        Ok(result) => return result.map_err(crash),
        Err(f) => f,
    };
    on_new_thread(f)
}

/// Runs host code called from a program: on the calling thread's own
/// stack when the program runs on a switched stack, else right here. A
/// panic in `f` continues as a panic in the caller.
pub fn on_caller_stack<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(unix)]
    return switched::on_caller_stack(f);
    #[cfg(not(unix))]
    f()
}

/// [`run_on_big_stack`] on a thread started for it.
fn on_new_thread<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("ptc-eval".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .map_err(|e| Error::internal(format!("cannot start the evaluation thread: {e}")))?;
        handle.join().map_err(crash)
    })
}

/// The `internal-error` of a panic with `payload`.
fn crash(payload: Box<dyn std::any::Any + Send>) -> Error {
    let msg = super::guard::panic_message(&*payload).unwrap_or_else(|| "unknown panic".into());
    Error::internal(format!("ptc crashed while evaluating: {msg}"))
}

#[cfg(unix)]
mod switched {
    //! The switch onto a reserved stack and back (unix, where `psm` has
    //! stack switching).

    use std::cell::Cell;
    use std::panic::{self, AssertUnwindSafe};
    use std::thread;
    use std::time::{Duration, Instant};

    use super::{RETAINED_BYTES, STACK_BYTES};

    /// A program that ran this long may have gone deep: its stack is
    /// checked for pages to give back ([`BigStack::trim_after`]).
    const TRIM_CHECK_AFTER: Duration = Duration::from_micros(20);

    /// Every this many programs, the stack is checked whatever they took.
    const TRIM_CHECK_EVERY: u32 = 32;

    /// Inaccessible bytes below the stack: running past its end faults
    /// (the process dies) instead of writing over other memory.
    const GUARD_BYTES: usize = 64 << 10;

    /// What host code running back on the caller's stack leaves free for
    /// the frames of the switch itself (beside the closure and the result
    /// they hold, added per call).
    const SWITCH_FRAMES_BYTES: usize = 16 << 10;

    thread_local! {
        /// This thread's reserved stack, while no program runs on it.
        static SPARE: Cell<Option<BigStack>> = const { Cell::new(None) };
        /// While a program runs on a switched stack: the lowest address of
        /// the caller's stack still in use (0 otherwise).
        static CALLER_STACK_END: Cell<usize> = const { Cell::new(0) };
    }

    /// One reservation: `len` bytes at `base`, the lowest [`GUARD_BYTES`]
    /// inaccessible.
    struct BigStack {
        base: *mut u8,
        len: usize,
        /// Programs run on it (for [`BigStack::trim_after`]).
        runs: u32,
    }

    impl BigStack {
        fn reserve() -> Option<BigStack> {
            let len = STACK_BYTES + GUARD_BYTES;
            #[cfg(target_os = "linux")]
            let flags =
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK;
            #[cfg(not(target_os = "linux"))]
            let flags = libc::MAP_PRIVATE | libc::MAP_ANON;
            // SAFETY: a fresh anonymous mapping; nothing else refers to it.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    flags,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            let stack = BigStack {
                base: base.cast(),
                len,
                runs: 0,
            };
            // SAFETY: the guard is the start of the mapping just made.
            if unsafe { libc::mprotect(base, GUARD_BYTES, libc::PROT_NONE) } != 0 {
                return None; // dropping `stack` unmaps it
            }
            Some(stack)
        }

        /// The lowest usable address (above the guard).
        fn low(&self) -> *mut u8 {
            // SAFETY: within the mapping.
            unsafe { self.base.add(GUARD_BYTES) }
        }

        /// Gives back the pages a deep program committed, keeping the
        /// [`RETAINED_BYTES`] nearest the top (where every program runs).
        /// One `mincore` call tells whether the program went below them.
        ///
        /// It is made after a program that ran [`TRIM_CHECK_AFTER`] or
        /// longer, and after every [`TRIM_CHECK_EVERY`]th program: a
        /// shorter one cannot have touched many new pages (each costs a
        /// page fault), so at most that many programs in a row, each
        /// deeper than all before it, can add to what stays committed
        /// before it is given back.
        fn trim_after(&mut self, ran: Duration) {
            self.runs = self.runs.wrapping_add(1);
            if ran >= TRIM_CHECK_AFTER || self.runs.is_multiple_of(TRIM_CHECK_EVERY) {
                self.trim();
            }
        }

        fn trim(&self) {
            let page = page_size();
            let keep_end = self.base as usize + self.len - RETAINED_BYTES;
            let probe = keep_end - page;
            let mut resident = 0u8;
            // SAFETY: `probe` is a page-aligned page of the mapping and
            // `resident` has room for its one entry.
            let deep = unsafe {
                libc::mincore(
                    probe as *mut libc::c_void,
                    page,
                    (&mut resident as *mut u8).cast(),
                )
            } == 0
                && resident & 1 == 1;
            if deep {
                let low = self.low() as usize;
                // SAFETY: the range lies within the mapping, above the
                // guard, and below every frame still in use (none are:
                // the program has returned).
                unsafe {
                    libc::madvise(
                        low as *mut libc::c_void,
                        keep_end - low,
                        libc::MADV_DONTNEED,
                    );
                }
            }
        }
    }

    impl Drop for BigStack {
        fn drop(&mut self) {
            // SAFETY: the mapping made by `reserve`, no longer in use.
            unsafe {
                libc::munmap(self.base.cast(), self.len);
            }
        }
    }

    fn page_size() -> usize {
        // SAFETY: sysconf has no preconditions.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(size).unwrap_or(4096)
    }

    /// Runs `f` on this thread's reserved stack: `f`'s result or its
    /// panic, or `f` back if no stack can be had here (the caller starts a
    /// thread instead).
    pub(super) fn run<T, F: FnOnce() -> T>(f: F) -> Result<thread::Result<T>, F> {
        if !PSM_SWITCHES {
            return Err(f);
        }
        // A program started by host code that a program called (a tool
        // running a program of its own) takes a second stack.
        let mut stack = match SPARE.take().or_else(BigStack::reserve) {
            Some(s) => s,
            None => return Err(f),
        };
        let caller_end = caller_stack_end::<T, _>(&f);
        let outer = CALLER_STACK_END.replace(caller_end);
        let started = Instant::now();
        // SAFETY: `stack` is a live mapping of its `len` bytes, its top
        // page-aligned, with a guard below the usable part; the closure
        // catches every panic, so no unwinding crosses the switch.
        let result = unsafe {
            switch_to(stack.low(), STACK_BYTES, move || {
                panic::catch_unwind(AssertUnwindSafe(f))
            })
        };
        CALLER_STACK_END.set(outer);
        stack.trim_after(started.elapsed());
        SPARE.set(Some(stack));
        Ok(result)
    }

    psm::psm_stack_manipulation! {
        yes {
            /// Whether `psm` can switch stacks on this target.
            const PSM_SWITCHES: bool = true;

            /// `psm::on_stack`: runs `f` with the stack pointer at
            /// `base + size`.
            ///
            /// # Safety
            /// As `psm::on_stack`.
            unsafe fn switch_to<R>(base: *mut u8, size: usize, f: impl FnOnce() -> R) -> R {
                // SAFETY: the caller's.
                unsafe { psm::on_stack(base, size, f) }
            }
        }
        no {
            /// Whether `psm` can switch stacks on this target.
            const PSM_SWITCHES: bool = false;

            /// Never called: `PSM_SWITCHES` is false.
            unsafe fn switch_to<R>(_: *mut u8, _: usize, f: impl FnOnce() -> R) -> R {
                f()
            }
        }
    }

    /// The lowest caller-stack address the switch made by `run` may use:
    /// its frames hold the closure and the result slot.
    #[inline(always)]
    fn caller_stack_end<T, F>(_f: &F) -> usize {
        let below = SWITCH_FRAMES_BYTES
            + 2 * (std::mem::size_of::<F>() + std::mem::size_of::<thread::Result<T>>());
        (psm::stack_pointer() as usize).saturating_sub(below)
    }

    /// How many pages of `[from, to)` on this thread's spare stack are
    /// resident (`None` without a spare stack, or outside it).
    #[cfg(test)]
    pub(super) fn resident_pages_between(from: usize, to: usize) -> Option<usize> {
        let stack = SPARE.take()?;
        let page = page_size();
        let inside = from >= stack.low() as usize && to <= stack.base as usize + stack.len;
        let (from, to) = (from & !(page - 1), to & !(page - 1));
        let mut map = vec![0u8; (to - from) / page];
        // SAFETY: a page-aligned range of the mapping; `map` has an entry
        // per page.
        let ok = inside
            && unsafe { libc::mincore(from as *mut libc::c_void, to - from, map.as_mut_ptr()) }
                == 0;
        SPARE.set(Some(stack));
        ok.then(|| map.iter().filter(|&&m| m & 1 == 1).count())
    }

    pub(super) fn on_caller_stack<R>(f: impl FnOnce() -> R) -> R {
        let end = CALLER_STACK_END.get();
        if end == 0 {
            return f();
        }
        let page = page_size();
        let top = end & !(page - 1);
        CALLER_STACK_END.set(0);
        // SAFETY: the caller's stack below `end` is unused while the
        // program runs (the caller waits in `run`); `f` runs from `top`
        // downwards, as deep as the caller's stack allows (its own guard
        // stops it). No unwinding crosses the switch: the panic is caught
        // and resumed after it.
        let result = unsafe {
            switch_to((top - page) as *mut u8, page, move || {
                panic::catch_unwind(AssertUnwindSafe(f))
            })
        };
        CALLER_STACK_END.set(end);
        result.unwrap_or_else(|payload| panic::resume_unwind(payload))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address of a local of the calling frame: where the stack is.
    #[inline(never)]
    fn here() -> usize {
        let marker = 0u8;
        std::hint::black_box(&marker) as *const u8 as usize
    }

    /// Recurses `n` levels with a 1 KiB frame each.
    #[inline(never)]
    fn deep(n: usize) -> usize {
        let frame = std::hint::black_box([n as u8; 1024]);
        if n == 0 {
            return frame[0] as usize;
        }
        deep(n - 1) + std::hint::black_box(frame)[7] as usize
    }

    #[test]
    fn a_program_runs_on_the_calling_thread() {
        let caller = std::thread::current().id();
        assert_eq!(
            run_on_big_stack(|| std::thread::current().id()).unwrap(),
            caller
        );
    }

    #[test]
    fn the_stack_holds_deep_recursion_and_is_reused() {
        // 50k frames of over 1 KiB: past 50 MiB, far past a thread's default.
        let first = run_on_big_stack(|| (here(), deep(50_000))).unwrap();
        let second = run_on_big_stack(|| (here(), deep(10))).unwrap();
        assert!(first.1 > 0 && second.1 > 0);
        // The same reservation, at the same place.
        assert_eq!(first.0, second.0);
        // Far from the caller's stack.
        assert!(here().abs_diff(first.0) > 8 << 20);
    }

    #[cfg(unix)]
    #[test]
    fn a_deep_program_gives_its_stack_pages_back() {
        // 40 MiB down, and back.
        let low = run_on_big_stack(|| {
            let top = here();
            deep(40_000);
            top - (40 << 20)
        })
        .unwrap();
        let resident = switched::resident_pages_between(low, low + (8 << 20));
        assert_eq!(resident, Some(0));
    }

    #[test]
    fn a_panic_is_an_internal_error_and_the_stack_stays_usable() {
        let quiet = crate::eval::guard::catch_quietly(|| {
            run_on_big_stack(|| -> u8 { panic!("boom") }).unwrap_err()
        })
        .unwrap();
        assert_eq!(quiet.kind(), crate::error::ErrorKind::Internal);
        assert!(quiet.message().contains("boom"), "{}", quiet.message());
        assert_eq!(run_on_big_stack(|| 7).unwrap(), 7);
    }

    #[test]
    fn host_code_runs_back_on_the_callers_stack() {
        let caller = here();
        let (program, host) = run_on_big_stack(|| (here(), on_caller_stack(here))).unwrap();
        assert!(program.abs_diff(caller) > 8 << 20);
        // Below the caller's frame, within its thread's stack.
        assert!(
            host < caller && caller - host < 1 << 20,
            "{caller:x} {host:x}"
        );
        // Outside a program, host code runs where it is called.
        assert!(on_caller_stack(here).abs_diff(caller) < 64 << 10);
    }

    /// A host whose one tool, `where`, reports where its stack is.
    struct StackReportingHost;

    impl crate::eval::Host for StackReportingHost {
        fn data(&self, _: &str) -> Option<crate::value::Value> {
            None
        }
        fn data_names(&self) -> Vec<String> {
            Vec::new()
        }
        fn has_tool(&self, name: &str) -> bool {
            name == "where"
        }
        fn tool_names(&self) -> Vec<String> {
            vec!["where".into()]
        }
        fn call_tool(
            &mut self,
            _: &str,
            _: &[crate::value::Value],
        ) -> std::result::Result<crate::value::Value, String> {
            Ok(crate::value::Value::Int(here() as i64))
        }
    }

    #[test]
    fn tools_a_program_calls_run_on_the_callers_stack() {
        let mut interp =
            crate::eval::Interp::new(Box::new(StackReportingHost), crate::eval::Limits::default());
        let caller = here();
        let out = interp.run_program("(tool/where)");
        let Ok(crate::value::Value::Int(tool)) = out.result else {
            panic!("{:?}", out.result)
        };
        let tool = tool as usize;
        assert!(
            tool < caller && caller - tool < 1 << 20,
            "{caller:x} {tool:x}"
        );
    }

    #[test]
    fn a_program_started_by_host_code_gets_its_own_stack() {
        let (outer, inner, after) = run_on_big_stack(|| {
            let outer = here();
            let inner = on_caller_stack(|| {
                run_on_big_stack(|| (here(), on_caller_stack(|| deep(100))))
                    .unwrap()
                    .0
            });
            (outer, inner, here())
        })
        .unwrap();
        assert!(outer.abs_diff(inner) > 8 << 20);
        assert_eq!(outer, after);
    }

    #[test]
    fn a_panic_in_host_code_unwinds_to_the_program() {
        let r = run_on_big_stack(|| {
            crate::eval::guard::catch_quietly(|| on_caller_stack(|| -> u8 { panic!("tool") }))
        })
        .unwrap();
        assert_eq!(r, Err("tool".to_string()));
    }
}
