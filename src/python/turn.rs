//! `ptc_lisp.Turn` and `ptc_lisp.RunResult`: what one program did, as
//! Python sees it. Both keep the Rust values and convert on access, so a
//! turn nobody inspects costs no conversion; each access is one conversion
//! under the bound of `convert.rs` (PY-1): a value past it raises
//! `ConversionError` (kind `limit-exceeded`), and `repr()` shows a preview.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::ToPython;
use super::errors::exception;
use crate::error::Error;
use crate::eval::ToolCall;
use crate::session::{PendingCall, Preview, PreviewedWrite, Turn};
use crate::value::Value;

/// The parts common to a turn and a run.
fn value_of(
    py: Python<'_>,
    tp: ToPython,
    result: &Result<Value, Error>,
    what: &str,
) -> PyResult<PyObject> {
    match result {
        Ok(v) => tp.convert(py, v, what),
        Err(_) => Ok(py.None()),
    }
}

fn error_of(py: Python<'_>, result: &Result<Value, Error>) -> PyResult<PyObject> {
    match result {
        Ok(_) => Ok(py.None()),
        Err(e) => exception(py, e),
    }
}

/// `[{"name", "args", "result", "error"}, …]`: `result` is `None` for a
/// failed call, `error` the tool's message (else `None`).
/// All of them are one conversion.
fn tool_calls_of(py: Python<'_>, tp: ToPython, calls: &[ToolCall]) -> PyResult<Vec<PyObject>> {
    let mut converter = tp.converter();
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let d = PyDict::new(py);
            d.set_item("name", &c.name)?;
            let what = format!("tool_calls[{i}] (tool/{})", c.name);
            let args = c
                .args
                .iter()
                .map(|a| converter.convert(py, a, &format!("the arguments of {what}")))
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("args", args)?;
            match &c.result {
                Ok(v) => {
                    let result = converter.convert(py, v, &format!("the result of {what}"))?;
                    d.set_item("result", result)?;
                    d.set_item("error", py.None())?;
                }
                Err(e) => {
                    d.set_item("result", py.None())?;
                    d.set_item("error", e)?;
                }
            }
            Ok(d.into_any().unbind())
        })
        .collect()
}

/// One turn of a session (immutable).
#[pyclass(module = "ptc_lisp", name = "Turn", frozen)]
pub struct PyTurn {
    turn: Turn,
    tp: ToPython,
    /// The answer text of `ptc mcp` for the turn, when it was just run.
    feedback: Option<String>,
}

impl PyTurn {
    pub fn new(turn: Turn, tp: ToPython) -> PyTurn {
        PyTurn {
            turn,
            tp,
            feedback: None,
        }
    }

    /// The turn with the answer text computed when it ran.
    pub fn with_feedback(mut self, feedback: Option<String>) -> PyTurn {
        self.feedback = feedback;
        self
    }
}

#[pymethods]
impl PyTurn {
    /// 1-based.
    #[getter]
    fn number(&self) -> usize {
        self.turn.number
    }
    /// The full LLM response, prose included.
    #[getter]
    fn raw_response(&self) -> &str {
        &self.turn.raw_response
    }
    /// The program extracted from the response; `None` when it held no code.
    #[getter]
    fn program(&self) -> Option<&str> {
        self.turn.program.as_deref()
    }
    /// False when extraction, parsing or evaluation failed.
    #[getter]
    fn success(&self) -> bool {
        self.turn.success
    }
    /// The turn ended with `(return v)`.
    #[getter]
    fn returned(&self) -> bool {
        self.turn.returned
    }
    /// The value of the last form (or of `return`); `None` when the turn failed.
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<PyObject> {
        value_of(py, self.tp, &self.turn.result, "Turn.value")
    }
    /// The error (a `PtcError` instance, not raised) when the turn failed.
    #[getter]
    fn error(&self, py: Python<'_>) -> PyResult<PyObject> {
        error_of(py, &self.turn.result)
    }
    /// One entry per output line: each `println` call ends one (newlines in
    /// its text stay in it), as does each newline `print` writes.
    #[getter]
    fn prints(&self) -> Vec<String> {
        self.turn.prints.clone()
    }
    /// The tool calls, in call order (failed ones too).
    #[getter]
    fn tool_calls(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        tool_calls_of(py, self.tp, &self.turn.tool_calls)
    }
    /// Names this turn defined or redefined.
    /// What `ptc mcp` answers for the turn: its tool calls, prints, then
    /// `Result: VALUE` or the error with its hint and position, hidden data
    /// redacted (a framework's code tool returns it as it is). Set on the
    /// turn `run_turn` returns; `None` on those of `Session.turns`.
    #[getter]
    fn feedback(&self) -> Option<&str> {
        self.feedback.as_deref()
    }

    #[getter]
    fn defined(&self) -> Vec<String> {
        self.turn.defined.clone()
    }
    /// user/ after the turn (unchanged by a failed turn): name → value.
    #[getter]
    fn memory(&self, py: Python<'_>) -> PyResult<PyObject> {
        memory_of(py, self.tp, &self.turn.memory)
    }

    /// `"paused"` (calls await approval: `pending`, `Session.resume`),
    /// `"ok"` or `"error"`.
    #[getter]
    fn status(&self) -> &'static str {
        if self.turn.is_paused() {
            "paused"
        } else if self.turn.success {
            "ok"
        } else {
            "error"
        }
    }

    /// The calls a paused turn waits on: `[{"id", "tool", "args", "key"}]`
    /// (`key`: the write's idempotency key, else `None`); one conversion.
    #[getter]
    fn pending(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        pending_of(py, self.tp, &self.turn.pending)
    }

    fn __repr__(&self) -> String {
        let outcome = match &self.turn.result {
            Ok(v) => format!(
                "value={}",
                crate::format::to_clojure(v, Some(5), Some(60)).0
            ),
            Err(e) => format!("error={}: {}", e.kind().name(), e.message()),
        };
        format!(
            "Turn(number={}, success={}, {outcome})",
            self.turn.number,
            if self.turn.success { "True" } else { "False" }
        )
    }
}

/// `{ID_KEY: id, "tool", "args"}`: a pending or previewed call, its
/// arguments converted by `converter`.
fn call_dict<'py>(
    py: Python<'py>,
    converter: &mut super::convert::Converter,
    (id_key, id): (&str, &str),
    tool: &str,
    args: &[Value],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(id_key, id)?;
    d.set_item("tool", tool)?;
    let what = format!("the arguments of {id_key} {id} (tool/{tool})");
    let args = args
        .iter()
        .map(|a| converter.convert(py, a, &what))
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("args", args)?;
    Ok(d)
}

/// `[{"id", "tool", "args", "key"}]` (one conversion).
pub fn pending_of(py: Python<'_>, tp: ToPython, calls: &[PendingCall]) -> PyResult<Vec<PyObject>> {
    let mut converter = tp.converter();
    calls
        .iter()
        .map(|c| {
            let d = call_dict(py, &mut converter, ("id", &c.id), &c.tool, &c.args)?;
            d.set_item("key", &c.key)?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

/// `ptc_lisp.Preview`: what `Session.preview(program)` found: the turn
/// (every write answered by its preview value, not run) and the writes it
/// would make, in order.
#[pyclass(module = "ptc_lisp", name = "Preview", frozen)]
pub struct PyPreview {
    #[pyo3(get)]
    turn: Py<PyTurn>,
    writes: Vec<PreviewedWrite>,
    tp: ToPython,
}

impl PyPreview {
    pub fn new(py: Python<'_>, preview: Preview, tp: ToPython) -> PyResult<PyPreview> {
        Ok(PyPreview {
            turn: Py::new(py, PyTurn::new(preview.turn, tp))?,
            writes: preview.writes,
            tp,
        })
    }
}

#[pymethods]
impl PyPreview {
    /// `[{"at", "tool", "args"}]`: the writes, in order (one conversion).
    #[getter]
    fn writes(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        let mut converter = self.tp.converter();
        self.writes
            .iter()
            .map(|w| {
                let d = call_dict(py, &mut converter, ("at", &w.at), &w.tool, &w.args)?;
                Ok(d.into_any().unbind())
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("Preview(writes={})", self.writes.len())
    }
}

/// user/ as a dict, in order of first definition (one conversion).
pub fn memory_of(
    py: Python<'_>,
    tp: ToPython,
    memory: &crate::eval::Globals,
) -> PyResult<PyObject> {
    let d = PyDict::new(py);
    let mut converter = tp.converter();
    for (name, def) in memory.iter() {
        let value = converter.convert(py, &def.value, &format!("user/{name}"))?;
        d.set_item(name.as_ref(), value)?;
    }
    Ok(d.into_any().unbind())
}

/// What `ptc_lisp.run` returns.
#[pyclass(module = "ptc_lisp", name = "RunResult", frozen)]
pub struct RunResult {
    pub result: Result<Value, Error>,
    pub returned: bool,
    pub prints: Vec<String>,
    pub tool_calls: Vec<ToolCall>,
    pub tp: ToPython,
}

#[pymethods]
impl RunResult {
    /// True when the program succeeded.
    #[getter]
    fn ok(&self) -> bool {
        self.result.is_ok()
    }
    /// The program's value (of its last form, or of `return`); `None` on error.
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<PyObject> {
        value_of(py, self.tp, &self.result, "RunResult.value")
    }
    /// The error (a `PtcError` instance, not raised), or `None`.
    #[getter]
    fn error(&self, py: Python<'_>) -> PyResult<PyObject> {
        error_of(py, &self.result)
    }
    /// The program ended with `(return v)`.
    #[getter]
    fn returned(&self) -> bool {
        self.returned
    }
    /// One entry per output line: each `println` call ends one (newlines in
    /// its text stay in it), as does each newline `print` writes.
    #[getter]
    fn prints(&self) -> Vec<String> {
        self.prints.clone()
    }
    /// The tool calls, in call order.
    #[getter]
    fn tool_calls(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        tool_calls_of(py, self.tp, &self.tool_calls)
    }
    /// The value, or raises the error.
    fn unwrap(&self, py: Python<'_>) -> PyResult<PyObject> {
        match &self.result {
            Ok(v) => self.tp.convert(py, v, "RunResult.value"),
            Err(e) => Err(PyErr::from_value(exception(py, e)?.into_bound(py))),
        }
    }
    fn __repr__(&self) -> String {
        match &self.result {
            Ok(v) => format!(
                "RunResult(value={})",
                crate::format::to_clojure(v, Some(5), Some(60)).0
            ),
            Err(e) => format!("RunResult(error={}: {})", e.kind().name(), e.message()),
        }
    }
}
