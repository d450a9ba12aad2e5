//! The native stack under the binding's recursive paths (PY-5).
//!
//! Python code a program calls (tools) runs back on the thread's own
//! stack (`eval/stack.rs`), below the frames of the `run` / `run_turn`
//! that started the program, and so does every conversion between the two
//! sides. That stack may be small (`threading.stack_size(256 * 1024)`), and
//! a tool that calls `ptc_lisp.run` again nests another program on it each
//! time. Running off its end kills the process, so:
//!
//! * an interpreter entry (`run`, `Session.run_turn`) made while
//!   [`MAX_NESTED`] programs already run on this thread, or with less than
//!   [`ENTRY_ROOM`] bytes of stack left, raises `RecursionError`;
//! * a Python tool is not called with less than [`TOOL_ROOM`] bytes of
//!   stack left: the call fails (a `tool-error` saying why);
//! * the conversions (`convert.rs`) stop with an error when less than
//!   [`CONVERT_ROOM`] bytes are left.
//!
//! The room left is the stack pointer's distance from the lowest address
//! of the thread's stack (`pthread_getattr_np` on Linux,
//! `pthread_get_stackaddr_np` on macOS, read once per thread). Where it is
//! unknown, or the stack pointer is elsewhere (a stack switched onto), only
//! the nesting count applies.

use std::cell::Cell;

use pyo3::exceptions::PyRecursionError;
use pyo3::PyErr;

/// Programs that may run nested on one thread (a tool running a program
/// that calls a tool running a program …): far beyond any real use, and
/// each costs a 1 GiB reservation of address space for its stack.
pub const MAX_NESTED: usize = 64;

/// Stack an interpreter entry needs left to start a program: the program
/// runs on its own stack, but the frames down to the switch, and the
/// 16 KiB the switch keeps for itself, are on this one (about 25 KiB in
/// all, measured: 195 fewer levels of `json.loads` in a tool than in
/// plain Python on the same thread, at 128 bytes a level).
pub const ENTRY_ROOM: usize = 48 << 10;

/// Stack a Python tool is given at the least: room for 500 levels of
/// CPython's C recursion (`json.loads`, `repr`: about 128 bytes a level).
/// Less than that is left only on small thread stacks or deep in nested
/// programs.
pub const TOOL_ROOM: usize = 64 << 10;

/// Stack a conversion needs left to go one level deeper.
pub const CONVERT_ROOM: usize = 32 << 10;

thread_local! {
    /// This thread's stack: (lowest usable address, highest), once read.
    static BOUNDS: Cell<Option<Option<(usize, usize)>>> = const { Cell::new(None) };
    /// Programs running on this thread (started through the binding).
    static NESTED: Cell<usize> = const { Cell::new(0) };
}

/// Bytes of this thread's stack below the current frame, or `None` when
/// unknown (no way to read the bounds here, or running on a switched stack).
pub fn room() -> Option<usize> {
    let sp = psm::stack_pointer() as usize;
    let (low, high) = bounds()?;
    (low..=high).contains(&sp).then(|| sp - low)
}

/// Whether at least `need` bytes of stack are left (true when unknown).
pub fn has_room(need: usize) -> bool {
    room().is_none_or(|r| r >= need)
}

fn bounds() -> Option<(usize, usize)> {
    BOUNDS.with(|b| match b.get() {
        Some(known) => known,
        None => {
            let read = read_bounds();
            b.set(Some(read));
            read
        }
    })
}

#[cfg(target_os = "linux")]
fn read_bounds() -> Option<(usize, usize)> {
    // SAFETY: `attr` is initialised by pthread_getattr_np before it is read
    // and destroyed once; the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        (ok && !addr.is_null()).then(|| (addr as usize, addr as usize + size))
    }
}

#[cfg(target_os = "macos")]
fn read_bounds() -> Option<(usize, usize)> {
    // SAFETY: both calls only read the calling thread's attributes.
    unsafe {
        let me = libc::pthread_self();
        let high = libc::pthread_get_stackaddr_np(me) as usize;
        let size = libc::pthread_get_stacksize_np(me);
        (high != 0).then(|| (high - size, high))
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn read_bounds() -> Option<(usize, usize)> {
    None
}

/// One program running through the binding on this thread; dropping it
/// ends the count.
pub struct Entered(());

impl Drop for Entered {
    fn drop(&mut self) {
        NESTED.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// Counts a program starting on this thread, or the `RecursionError` that
/// stops it: [`MAX_NESTED`] already running, or less than [`ENTRY_ROOM`]
/// of stack left. `what` names the entry (`ptc_lisp.run`).
pub fn enter(what: &str) -> Result<Entered, PyErr> {
    let nested = NESTED.with(Cell::get);
    if nested >= MAX_NESTED {
        return Err(PyRecursionError::new_err(format!(
            "{what}: {nested} programs already run nested on this thread (a tool that runs a \
             program whose tool runs a program …); at most {MAX_NESTED} may"
        )));
    }
    if let Some(left) = room().filter(|&r| r < ENTRY_ROOM) {
        return Err(PyRecursionError::new_err(format!(
            "{what}: only {} KiB of this thread's native stack are left ({} programs run \
             nested on it); a program needs {} KiB (give the thread a bigger stack, or nest less)",
            left >> 10,
            nested,
            ENTRY_ROOM >> 10
        )));
    }
    NESTED.with(|n| n.set(nested + 1));
    Ok(Entered(()))
}

/// Why a Python tool is not called: less than [`TOOL_ROOM`] of stack left.
pub fn tool_room_problem() -> Option<String> {
    let left = room().filter(|&r| r < TOOL_ROOM)?;
    Some(format!(
        "not run: only {} KiB of the thread's native stack are left and a Python tool is \
         given at least {} KiB (the program runs nested in other tools, or the thread's stack \
         is small: threading.stack_size)",
        left >> 10,
        TOOL_ROOM >> 10
    ))
}
