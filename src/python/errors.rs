//! ptc's error kinds as a Python exception hierarchy.
//!
//! Every class derives from `ptc_lisp.PtcError`, whose instances carry
//! `kind` (the kind's name as `language.md` §Errors spells it:
//! `"type-error"`, `"timeout"`, …), `message`, `hint`, `line` and `column`
//! (1-based, into the program; `None` when unknown). A failing *program* is
//! not raised: it is a failed turn whose `error` is one of these instances.
//! They are raised only for bad input to the API: [`ConversionError`] (a
//! Python value with no PTC-Lisp counterpart, an int beyond 64 bits; or a
//! value past the conversion bound, kind `limit-exceeded`),
//! [`SessionError`] (bad definitions, session files, a turn after the end).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;

use crate::error::{Error, ErrorKind};
use crate::session::SessionError as RustSessionError;

create_exception!(
    ptc_lisp,
    PtcError,
    PyException,
    "An error of ptc: `kind`, `message`, `hint`, `line`, `column`."
);
create_exception!(
    ptc_lisp,
    ParseError,
    PtcError,
    "parse-error: the program cannot be read."
);
create_exception!(
    ptc_lisp,
    ValidationError,
    PtcError,
    "validation-error: a form is malformed (bad special form, forbidden name)."
);
create_exception!(
    ptc_lisp,
    PtcTypeError,
    PtcError,
    "type-error: a value of the wrong type."
);
create_exception!(
    ptc_lisp,
    PtcArithmeticError,
    PtcError,
    "arithmetic-error: division by zero, integer overflow."
);
create_exception!(
    ptc_lisp,
    ArityError,
    PtcError,
    "arity-error: a call with the wrong number of arguments."
);
create_exception!(
    ptc_lisp,
    UndefinedError,
    PtcError,
    "undefined-error: an unknown name, tool or data."
);
create_exception!(
    ptc_lisp,
    ExecutionError,
    PtcError,
    "execution-error: a runtime failure (ex-info, bad argument)."
);
create_exception!(
    ptc_lisp,
    ToolError,
    PtcError,
    "tool-error: a tool failed (a Python exception in it)."
);
create_exception!(
    ptc_lisp,
    FailError,
    PtcError,
    "fail: the program called (fail reason)."
);
create_exception!(
    ptc_lisp,
    PtcTimeoutError,
    PtcError,
    "timeout: the turn ran past timeout_ms."
);
create_exception!(
    ptc_lisp,
    MemoryExceededError,
    PtcError,
    "memory-exceeded: the turn built more than max_heap_bytes."
);
create_exception!(
    ptc_lisp,
    LimitExceededError,
    PtcError,
    "limit-exceeded: steps, call depth, printed bytes, tool calls or source size over their limit."
);
create_exception!(
    ptc_lisp,
    InternalError,
    PtcError,
    "internal-error: a bug of ptc, never the program's fault."
);
create_exception!(
    ptc_lisp,
    ConversionError,
    PtcError,
    "A value with no counterpart on the other side (kind type-error: an unsupported Python type, an int beyond 64 bits, nesting past 1000 levels), or past the conversion bound (kind limit-exceeded: 4 x max_heap_bytes of Python objects)."
);
create_exception!(
    ptc_lisp,
    SessionError,
    PtcError,
    "Bad input to a session (kind validation-error): definitions, session files, a turn after the session ended."
);

/// Registers every class on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PtcError", py.get_type::<PtcError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("ValidationError", py.get_type::<ValidationError>())?;
    m.add("PtcTypeError", py.get_type::<PtcTypeError>())?;
    m.add("PtcArithmeticError", py.get_type::<PtcArithmeticError>())?;
    m.add("ArityError", py.get_type::<ArityError>())?;
    m.add("UndefinedError", py.get_type::<UndefinedError>())?;
    m.add("ExecutionError", py.get_type::<ExecutionError>())?;
    m.add("ToolError", py.get_type::<ToolError>())?;
    m.add("FailError", py.get_type::<FailError>())?;
    m.add("PtcTimeoutError", py.get_type::<PtcTimeoutError>())?;
    m.add("MemoryExceededError", py.get_type::<MemoryExceededError>())?;
    m.add("LimitExceededError", py.get_type::<LimitExceededError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("ConversionError", py.get_type::<ConversionError>())?;
    m.add("SessionError", py.get_type::<SessionError>())?;
    Ok(())
}

/// The exception instance for a ptc error (not raised: turns carry it).
pub fn exception(py: Python<'_>, e: &Error) -> PyResult<PyObject> {
    let message = e.message().to_string();
    let err = match e.kind() {
        ErrorKind::Parse => ParseError::new_err(message.clone()),
        ErrorKind::Validation => ValidationError::new_err(message.clone()),
        ErrorKind::Type => PtcTypeError::new_err(message.clone()),
        ErrorKind::Arithmetic => PtcArithmeticError::new_err(message.clone()),
        ErrorKind::Arity => ArityError::new_err(message.clone()),
        ErrorKind::Undefined => UndefinedError::new_err(message.clone()),
        ErrorKind::Execution => ExecutionError::new_err(message.clone()),
        ErrorKind::Tool => ToolError::new_err(message.clone()),
        ErrorKind::Fail => FailError::new_err(message.clone()),
        ErrorKind::Timeout => PtcTimeoutError::new_err(message.clone()),
        ErrorKind::MemoryExceeded => MemoryExceededError::new_err(message.clone()),
        ErrorKind::LimitExceeded => LimitExceededError::new_err(message.clone()),
        ErrorKind::Paused => ToolError::new_err(message.clone()),
        ErrorKind::Indeterminate => ToolError::new_err(message.clone()),
        ErrorKind::Internal | ErrorKind::Return => InternalError::new_err(message.clone()),
    };
    with_fields(
        py,
        err,
        e.kind().name(),
        &message,
        e.hint(),
        e.line_col().unzip(),
    )
}

/// Sets `kind`, `message`, `hint`, `line`, `column` on `err`'s instance.
fn with_fields(
    py: Python<'_>,
    err: PyErr,
    kind: &str,
    message: &str,
    hint: Option<&str>,
    place: (Option<usize>, Option<usize>),
) -> PyResult<PyObject> {
    let value = err.value(py);
    value.setattr("kind", kind)?;
    value.setattr("message", message)?;
    value.setattr("hint", hint)?;
    value.setattr("line", place.0)?;
    value.setattr("column", place.1)?;
    Ok(value.clone().into_any().unbind())
}

/// `err` with its fields set, to raise.
fn raised(err: PyErr, kind: &str, message: &str, place: Option<(usize, usize)>) -> PyErr {
    Python::with_gil(
        |py| match with_fields(py, err, kind, message, None, place.unzip()) {
            Ok(value) => PyErr::from_value(value.into_bound(py)),
            Err(e) => e,
        },
    )
}

/// A [`ConversionError`] to raise.
pub fn conversion_error(message: String) -> PyErr {
    raised(
        ConversionError::new_err(message.clone()),
        "type-error",
        &message,
        None,
    )
}

/// A [`ConversionError`] of kind `limit-exceeded`: a value past the
/// conversion bound (`convert.rs`).
pub fn conversion_limit_error(message: String) -> PyErr {
    raised(
        ConversionError::new_err(message.clone()),
        "limit-exceeded",
        &message,
        None,
    )
}

/// Raises a Python `TypeError` (for arguments of the wrong shape).
pub fn type_error(message: String) -> PyErr {
    PyTypeError::new_err(message)
}

/// A [`SessionError`] to raise for a session problem.
pub fn session_error(e: &RustSessionError) -> PyErr {
    let message = e.to_string();
    let place = match e {
        RustSessionError::File { place, .. } => *place,
        _ => None,
    };
    raised(
        SessionError::new_err(message.clone()),
        "validation-error",
        &message,
        place,
    )
}

/// A [`SessionError`] with a message of the binding's own.
pub fn session_error_msg(message: String) -> PyErr {
    raised(
        SessionError::new_err(message.clone()),
        "validation-error",
        &message,
        None,
    )
}
