//! The `ptc_lisp` Python extension module (the `python` cargo feature;
//! built by maturin from the top-level `pyproject.toml`).
//!
//! A thin binding over the library: [`crate::session::Session`] for the
//! multi-turn flow, [`crate::Interp`] for one program, the renderer for
//! prompts; it adds only what Python needs.
//!
//! | file | owns |
//! |---|---|
//! | `mod.rs` | the module: `run`, `system_prompt`, registration |
//! | [`convert`] | PTC-Lisp values → Python, bounded (PY-1); `Keyword` |
//! | [`from_python`] | Python values → PTC-Lisp; short error paths (PY-2); tool results bounded by the heap limit (PY-3) |
//! | [`errors`] | the exception hierarchy (`PtcError` and one class per kind) |
//! | [`tools`] | Python callables as [`crate::session::Tool`]s; `Tool`; interrupts raised in tools |
//! | [`ctrl_c`] | Ctrl-C stops a running program (PY-4) |
//! | [`native`] | the native stack: nesting of programs on a thread, room left for tools and conversions (PY-5) |
//! | [`config`] | `data=`, `limits=`, `render=` |
//! | [`session`] | `Session` |
//! | [`turn`] | `Turn`, `RunResult` |
//! | `ptc_lisp/` | the Python package around the native module: re-exports, the `@tool` decorator, type stubs, `py.typed` |
//!
//! Threads: evaluation runs with the GIL released, on the calling thread
//! switched onto the library's big evaluation stack; tool callbacks run back
//! on the thread's own stack and take the GIL for the call only.
//!
//! Allocator: built for the wheel (feature `wheel`), the module is the
//! program, and makes mimalloc ([`crate::alloc::Mimalloc`]) its global
//! allocator, as the `ptc` binary does: `tests/bench/turns.py`'s ten-feed
//! run took 25.4 µs instead of 29.0 and a live session 14,670 bytes
//! instead of 15,438 (medians of two runs each, 2026-11-29). Python's own
//! objects stay on Python's allocator.
//!
//! Rules of the binding the specs leave open, by id: PY-1 (the bound on
//! conversions to Python, `convert.rs`), PY-2 (short paths in conversion
//! errors) and PY-3 (tool results bounded by the heap limit, both
//! `from_python.rs`), PY-4 (Ctrl-C, `ctrl_c.rs`), PY-5 (native stack,
//! `native.rs`).

pub mod config;
pub mod convert;
pub mod ctrl_c;
pub mod errors;
pub mod from_python;
pub mod native;
pub mod session;
pub mod tools;
pub mod turn;

use pyo3::prelude::*;

/// The extension module's allocator (module docs).
#[cfg(feature = "wheel")]
#[global_allocator]
static ALLOC: crate::alloc::Mimalloc = crate::alloc::Mimalloc;

use crate::eval::Interp;
use crate::session::{SessionHost, Tool};
use config::{data_from, limits_from};
use convert::ToPython;
use tools::{tools_from, Interrupt};
use turn::RunResult;

/// Runs one program (one turn, no session) and returns what it did. A
/// failing program is a result with `error` set, not an exception.
#[pyfunction]
#[pyo3(signature = (program, *, data=None, tools=None, limits=None, keep_keywords=false))]
fn run(
    py: Python<'_>,
    program: String,
    data: Option<&Bound<'_, PyAny>>,
    tools: Option<&Bound<'_, PyAny>>,
    limits: Option<&Bound<'_, PyAny>>,
    keep_keywords: bool,
) -> PyResult<RunResult> {
    let _entered = native::enter("ptc_lisp.run")?;
    let limits = limits_from(py, limits)?;
    let tp = ToPython::new(keep_keywords, &limits);
    let interrupt = Interrupt::default();
    let tools: Vec<Box<dyn Tool>> = tools_from(tools, tp, &limits, &interrupt)?
        .into_iter()
        .map(|t| Box::new(t) as Box<dyn Tool>)
        .collect();
    let host = SessionHost::new(data_from(data)?, tools);
    let mut interp = Interp::new(Box::new(host), limits);
    let watch = ctrl_c::Watch::new();
    interp.budget.set_interrupt(Some(watch.flag()));
    interp.budget.set_long_turn(Some(watch.starter()));
    let outcome = py.allow_threads(|| interp.run_program(&program));
    drop(watch);
    if let Some(e) = interrupt.take() {
        return Err(e);
    }
    py.check_signals()?;
    Ok(RunResult {
        result: outcome.result,
        returned: outcome.returned,
        prints: std::mem::take(&mut interp.prints),
        tool_calls: std::mem::take(&mut interp.tool_calls),
        tp,
    })
}

/// The static SYSTEM prompt (the language reference the LLM gets).
#[pyfunction]
fn system_prompt() -> String {
    crate::render::system_prompt()
}

/// The native module, `ptc_lisp._ptc_lisp` (re-exported by `ptc_lisp`).
#[pymodule]
#[pyo3(name = "_ptc_lisp")]
fn ptc_lisp_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(system_prompt, m)?)?;
    m.add_class::<session::PySession>()?;
    m.add_class::<turn::PyTurn>()?;
    m.add_class::<turn::RunResult>()?;
    m.add_class::<turn::PyPreview>()?;
    m.add_class::<tools::ToolSpec>()?;
    m.add_class::<convert::Keyword>()?;
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
