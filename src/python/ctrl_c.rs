//! Ctrl-C while a program runs (PY-4).
//!
//! A program evaluates with the GIL released, so Python's own SIGINT
//! handler (`KeyboardInterrupt`) cannot run until it ends. While `run` or
//! `Session.run_turn` evaluates on the main thread (the only one Python
//! delivers signals to), a [`Watch`] points Python's signal wakeup fd
//! (`signal.set_wakeup_fd`, which CPython's C-level handler writes each
//! signal's number to) at a pipe read by a helper thread; a SIGINT there
//! sets the evaluation's interrupt flag (`Budget::set_interrupt`, what the
//! REPL's Ctrl-C sets), which stops the program within 4,096 steps. The
//! binding then lets Python run its handler (`PyErr_CheckSignals`): the
//! `KeyboardInterrupt` it raises propagates, and the turn is dropped
//! (memory, status and prompts as before it). A SIGINT handler that does
//! not raise leaves a failed turn (`timeout`, "evaluation interrupted").
//!
//! The watch starts when the program reaches its first clock check, at
//! its 4,096th step (`Budget::set_long_turn`: the evaluation takes the GIL
//! back for it, as a tool call does): setting and restoring the wakeup fd
//! costs about a microsecond, as much as a short turn's whole evaluation,
//! and a program that ends before that step is not one Ctrl-C could have
//! stopped sooner. A SIGINT that arrived before the watch started is taken
//! then (`PyOS_InterruptOccurred`) and handed back to Python for after the
//! program (`PyErr_SetInterrupt`), so it stops the program all the same.
//!
//! The previous wakeup fd (asyncio's, say) is restored afterwards, and the
//! signal numbers that arrive meanwhile are passed on to it. Off the main
//! thread, or where the fd cannot be set (not unix), nothing is watched:
//! the signal waits for the program's end, as before.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use crate::eval::budget::LongTurn;

/// Watches for SIGINT from the program's first clock check until it is
/// dropped (with the GIL).
pub struct Watch {
    flag: Arc<AtomicBool>,
    /// Once started: the wakeup fd to restore, when this watch set one.
    started: Arc<OnceLock<Option<i32>>>,
}

impl Watch {
    /// A watch that starts when the program asks ([`Watch::starter`]).
    pub fn new() -> Watch {
        Watch {
            flag: Arc::new(AtomicBool::new(false)),
            started: Arc::new(OnceLock::new()),
        }
    }

    /// The flag a SIGINT sets, for the evaluation's budget.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// What the evaluation calls at the program's first clock check
    /// (`Budget::set_long_turn`): starts watching, on the main thread
    /// (elsewhere the flag is never set).
    pub fn starter(&self) -> LongTurn {
        let flag = self.flag.clone();
        let started = self.started.clone();
        Arc::new(move || {
            started.get_or_init(|| {
                #[cfg(unix)]
                return imp::start_now(&flag);
                #[cfg(not(unix))]
                {
                    let _ = &flag;
                    None
                }
            });
        })
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(&restore) = self.started.get() {
            imp::stop(&self.flag, restore);
        }
    }
}

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::{Arc, Mutex, OnceLock};

    use pyo3::prelude::*;
    use pyo3::sync::GILOnceCell;
    use pyo3::types::PyDict;

    /// The write end of the pipe the helper thread reads (`None`: no
    /// pipe or thread could be made).
    static PIPE: OnceLock<Option<i32>> = OnceLock::new();
    /// The flags of the programs being watched.
    static ACTIVE: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());
    /// The wakeup fd that was set before the outermost watch (-1: none):
    /// signal numbers are passed on to it.
    static FORWARD: AtomicI32 = AtomicI32::new(-1);

    fn pipe() -> Option<i32> {
        *PIPE.get_or_init(|| {
            let mut fds = [0i32; 2];
            // SAFETY: `fds` has room for the two descriptors.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                return None;
            }
            let [read, write] = fds;
            // SAFETY: fcntl on descriptors just made. Python requires a
            // non-blocking wakeup fd; both close on exec.
            unsafe {
                let flags = libc::fcntl(write, libc::F_GETFL);
                libc::fcntl(write, libc::F_SETFL, flags | libc::O_NONBLOCK);
                libc::fcntl(read, libc::F_SETFD, libc::FD_CLOEXEC);
                libc::fcntl(write, libc::F_SETFD, libc::FD_CLOEXEC);
            }
            let started = std::thread::Builder::new()
                .name("ptc-ctrl-c".into())
                .spawn(move || read_signals(read));
            started.is_ok().then_some(write)
        })
    }

    /// The helper thread: reads signal numbers for the process's lifetime.
    fn read_signals(read: i32) {
        let mut buf = [0u8; 64];
        loop {
            // SAFETY: reads into `buf`, at most its length.
            let n = unsafe { libc::read(read, buf.as_mut_ptr().cast(), buf.len()) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if n == 0 {
                return;
            }
            let got = &buf[..n as usize];
            if got.iter().any(|&s| i32::from(s) == libc::SIGINT) {
                if let Ok(active) = ACTIVE.lock() {
                    active.iter().for_each(|f| f.store(true, Ordering::SeqCst));
                }
            }
            let forward = FORWARD.load(Ordering::SeqCst);
            if forward >= 0 {
                // SAFETY: writes `got` to the descriptor Python had; a
                // failure (full, closed) is ignored, as CPython does.
                unsafe { libc::write(forward, got.as_ptr().cast(), got.len()) };
            }
        }
    }

    /// [`start`] from the evaluation (the GIL released): takes the GIL,
    /// and a SIGINT Python received before (not yet handled) sets `flag`
    /// too.
    pub(super) fn start_now(flag: &Arc<AtomicBool>) -> Option<i32> {
        Python::with_gil(|py| {
            let restore = start(py, flag);
            // SAFETY: with the GIL, on this thread (0 off the main thread).
            if unsafe { pyo3::ffi::PyOS_InterruptOccurred() } != 0 {
                // Taken from Python (it clears the signal's mark): set it
                // again for Python's handler to run after the program,
                // with no wakeup fd (the signal's byte went to the one in
                // place when it arrived: nobody gets it twice).
                flag.store(true, Ordering::SeqCst);
                let installed = set_wakeup_fd(py, -1);
                // SAFETY: with the GIL.
                unsafe { pyo3::ffi::PyErr_SetInterrupt() };
                if let Some(fd) = installed {
                    let _ = set_wakeup_fd(py, fd);
                }
            }
            restore
        })
    }

    /// Registers `flag` and points the wakeup fd at the pipe; the fd to
    /// restore, or `None` when it could not be set (not the main thread).
    fn start(py: Python<'_>, flag: &Arc<AtomicBool>) -> Option<i32> {
        let write = pipe()?;
        let previous = set_wakeup_fd(py, write)?;
        if previous != write {
            FORWARD.store(previous, Ordering::SeqCst);
        }
        if let Ok(mut active) = ACTIVE.lock() {
            active.push(flag.clone());
        }
        Some(previous)
    }

    /// Unregisters `flag` and puts back the wakeup fd it replaced.
    pub(super) fn stop(flag: &Arc<AtomicBool>, restore: Option<i32>) {
        let Some(previous) = restore else { return };
        if let Ok(mut active) = ACTIVE.lock() {
            active.retain(|f| !Arc::ptr_eq(f, flag));
        }
        Python::with_gil(|py| {
            let _ = set_wakeup_fd(py, previous);
        });
        if Some(previous) != PIPE.get().copied().flatten() {
            FORWARD.store(-1, Ordering::SeqCst);
        }
    }

    /// `signal.set_wakeup_fd(fd, warn_on_full_buffer=False)` (no wakeup
    /// fd, -1, takes no flag): the fd it replaced, or `None` when Python
    /// refuses (not the main thread). The function and its keyword
    /// arguments are looked up once: a turn calls this twice, and importing
    /// `signal` each time cost more than the rest of the binding's work on
    /// a short turn.
    fn set_wakeup_fd(py: Python<'_>, fd: i32) -> Option<i32> {
        static SET_WAKEUP_FD: GILOnceCell<(Py<PyAny>, Py<PyDict>)> = GILOnceCell::new();
        let (set, kwargs) = SET_WAKEUP_FD
            .get_or_try_init(py, || -> PyResult<_> {
                let kwargs = PyDict::new(py);
                kwargs.set_item("warn_on_full_buffer", false)?;
                let set = py.import("signal")?.getattr("set_wakeup_fd")?;
                Ok((set.unbind(), kwargs.unbind()))
            })
            .ok()?;
        let kwargs = (fd != -1).then(|| kwargs.bind(py));
        let result = set
            .bind(py)
            .call((fd,), kwargs)
            .and_then(|old| old.extract::<i32>());
        result.ok()
    }
}
