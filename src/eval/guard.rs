//! Host code run inside a turn without letting it take the turn down: a
//! tool that panics becomes an error message (the evaluator makes it a
//! `tool-error`), and the panic prints nothing on stderr.
//!
//! The process keeps one panic hook: it stays silent while the current
//! thread is inside [`catch_quietly`] and hands every other panic to the
//! hook that was installed before (the default backtrace message).

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static INSTALL: Once = Once::new();

/// Runs `f`; a panic in it is `Err` with the panic's message.
pub fn catch_quietly<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| panic_message(&*payload).unwrap_or_else(|| "(no message)".into()))
}

/// The message a panic was raised with (`panic!("…")`), if it has one.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_messages() {
        assert_eq!(catch_quietly(|| 5), Ok(5));
        assert_eq!(
            catch_quietly(|| -> i32 { panic!("boom {}", 7) }),
            Err("boom 7".to_string())
        );
        assert_eq!(
            catch_quietly(|| -> i32 { panic!("static") }),
            Err("static".to_string())
        );
    }
}
