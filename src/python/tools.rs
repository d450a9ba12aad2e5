//! Python callables as ptc tools.
//!
//! A [`PyTool`] implements the session layer's [`Tool`] trait: the
//! evaluation (running without the GIL) takes the GIL for each call, on the
//! calling thread's own stack (`eval/stack.rs`, so CPython's stack checks
//! see the stack they expect),
//! converts the arguments to Python ([`ToPython`], one bounded conversion
//! per call: `the arguments of tool/NAME`), calls the function and
//! converts its result back ([`from_python`], bounded by the heap limit as
//! it goes). Less than [`native::TOOL_ROOM`] of native stack left (tools
//! running programs that call tools …, or a small thread stack): the call
//! fails without calling Python. A Python `Exception` in the
//! tool becomes the tool's error message, `"TypeName: message"` (the
//! evaluator makes it a `tool-error` naming the tool). A `BaseException`
//! that is not an `Exception` — `KeyboardInterrupt`, `SystemExit` — stops
//! the turn: the call fails, every later tool call of the turn fails
//! without running, and the binding drops the turn and re-raises the
//! exception once evaluation returns ([`Interrupt`]).
//!
//! [`ToolSpec`] (`ptc_lisp.Tool`, what the `@ptc_lisp.tool` decorator
//! makes) adds a name, a signature and a description to a callable. Without
//! a signature, one is derived from the function's parameters (each
//! `:any`, `_` written `-`), without a description, the first paragraph of
//! its docstring is used.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::convert::ToPython;
use super::errors::type_error;
use super::from_python::from_python;
use super::native;
use crate::eval::Limits;
use crate::session::{Acts, CallContext, Effect, Job, Tool, ToolInfo};
use crate::value::Value;

/// A Python exception that must stop the turn, kept until evaluation
/// returns. Shared by the tools of one session or `run`.
#[derive(Clone, Default)]
pub struct Interrupt(Arc<Mutex<Option<PyErr>>>);

impl Interrupt {
    pub fn is_set(&self) -> bool {
        self.0.lock().map(|g| g.is_some()).unwrap_or(true)
    }
    fn set(&self, e: PyErr) {
        if let Ok(mut g) = self.0.lock() {
            g.get_or_insert(e);
        }
    }
    /// The stored exception, cleared.
    pub fn take(&self) -> Option<PyErr> {
        self.0.lock().ok().and_then(|mut g| g.take())
    }
}

/// A tool backed by a Python callable.
pub struct PyTool {
    info: ToolInfo,
    function: Py<PyAny>,
    to_python: ToPython,
    /// The heap limit, bounding what a result may become.
    max_result_bytes: Option<u64>,
    interrupt: Interrupt,
    /// The function takes the keyword `idempotency_key` (or `**kwargs`).
    takes_key: bool,
}

impl Tool for PyTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }

    fn call(&mut self, args: &[Value]) -> Result<Value, String> {
        self.call_with(args, &CallContext::default())
    }

    fn call_with(&mut self, args: &[Value], ctx: &CallContext) -> Result<Value, String> {
        if let Some(problem) = native::tool_room_problem() {
            return Err(problem);
        }
        self.calling(args, ctx)()
    }

    /// Runs on a worker thread (`pmap`): the job takes the GIL, so a
    /// function that releases it (`time.sleep`, I/O, an `async def`
    /// awaiting) overlaps with the others.
    fn start(&mut self, args: &[Value], ctx: &CallContext) -> Option<Job> {
        Some(self.calling(args, ctx))
    }
}

impl PyTool {
    /// The call as a job: it takes the GIL, converts the arguments, calls
    /// the function (with `idempotency_key=` when it takes one and the
    /// call has a key), awaits a coroutine it returns (`asyncio.run` on
    /// the calling thread) and converts the result.
    fn calling(&self, args: &[Value], ctx: &CallContext) -> Job {
        let args = args.to_vec();
        let name = self.info.name.clone();
        let function = Python::with_gil(|py| self.function.clone_ref(py));
        let to_python = self.to_python;
        let max_result_bytes = self.max_result_bytes;
        let interrupt = self.interrupt.clone();
        let key = ctx.idempotency_key.clone().filter(|_| self.takes_key);
        Box::new(move || {
            if interrupt.is_set() {
                return Err("not run: the turn was interrupted".into());
            }
            Python::with_gil(|py| {
                let what = format!("the arguments of tool/{name}");
                let mut converter = to_python.converter();
                let args = args
                    .iter()
                    .map(|a| converter.convert(py, a, &what))
                    .collect::<PyResult<Vec<_>>>()
                    .and_then(|a| PyTuple::new(py, a))
                    .map_err(|e| {
                        format!("its arguments cannot reach Python: {}", describe(py, &e))
                    })?;
                let called = (|| -> PyResult<Bound<'_, PyAny>> {
                    let kwargs = match &key {
                        Some(k) => {
                            let d = PyDict::new(py);
                            d.set_item("idempotency_key", k)?;
                            Some(d)
                        }
                        None => None,
                    };
                    let result = function.bind(py).call(args, kwargs.as_ref())?;
                    if py
                        .import("inspect")?
                        .call_method1("iscoroutine", (&result,))?
                        .is_truthy()?
                    {
                        return py.import("asyncio")?.call_method1("run", (result,));
                    }
                    Ok(result)
                })();
                match called {
                    Ok(result) => from_python(&result, "its result", max_result_bytes)
                        .map_err(|e| describe(py, &e)),
                    Err(e) if !e.is_instance_of::<PyException>(py) => {
                        let text = describe(py, &e);
                        interrupt.set(e);
                        Err(format!("interrupted by {text}"))
                    }
                    Err(e) => Err(describe(py, &e)),
                }
            })
        })
    }
}

/// `TypeName: message` (or just the type name when the message is empty).
fn describe(py: Python<'_>, e: &PyErr) -> String {
    let name = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".into());
    let message = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    if message.is_empty() {
        name
    } else {
        format!("{name}: {message}")
    }
}

/// `ptc_lisp.Tool`: a callable with the name, signature and description
/// the prompt shows. Calling it calls the function.
#[pyclass(module = "ptc_lisp", name = "Tool", frozen)]
pub struct ToolSpec {
    #[pyo3(get)]
    function: Py<PyAny>,
    /// The name after `tool/`; `None`: the function's `__name__` with `_`
    /// written `-`.
    #[pyo3(get)]
    name: Option<String>,
    #[pyo3(get)]
    signature: Option<String>,
    #[pyo3(get)]
    description: Option<String>,
    /// `"read"` or `"write"` (ACT-1); `None`: a read.
    #[pyo3(get)]
    effect: Option<String>,
    /// Every call waits for approval (ACT-2).
    #[pyo3(get)]
    approval: bool,
    /// Running it again with the same key is safe (ACT-4).
    #[pyo3(get)]
    idempotent: bool,
    /// What a preview answers for it (ACT-5).
    #[pyo3(get)]
    preview: Option<Py<PyAny>>,
}

#[pymethods]
impl ToolSpec {
    #[new]
    #[pyo3(signature = (function, *, name=None, signature=None, description=None, effect=None, approval=false, idempotent=false, preview=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        function: Py<PyAny>,
        name: Option<String>,
        signature: Option<String>,
        description: Option<String>,
        effect: Option<String>,
        approval: bool,
        idempotent: bool,
        preview: Option<Py<PyAny>>,
    ) -> PyResult<ToolSpec> {
        if let Some(e) = effect
            .as_deref()
            .filter(|e| !matches!(*e, "read" | "write"))
        {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "Tool(effect={e:?}): the effect is \"read\" or \"write\""
            )));
        }
        Ok(ToolSpec {
            function,
            name,
            signature,
            description,
            effect,
            approval,
            idempotent,
            preview,
        })
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.function.bind(py).call(args, kwargs).map(Bound::unbind)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Tool({}, signature={:?})",
            self.function.bind(py).repr()?,
            self.signature.as_deref().unwrap_or("(derived)")
        ))
    }
}

/// The tools of `tools=`: a dict of name → callable or `Tool`, or a list
/// of `Tool`s (decorated functions) and plain functions, for a session or
/// `run` with these `limits`.
pub fn tools_from(
    tools: Option<&Bound<'_, PyAny>>,
    to_python: ToPython,
    limits: &Limits,
    interrupt: &Interrupt,
) -> PyResult<Vec<PyTool>> {
    let made = Made {
        to_python,
        max_result_bytes: limits.max_heap_bytes,
        interrupt,
    };
    let Some(tools) = tools else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if let Ok(dict) = tools.downcast::<PyDict>() {
        for (name, f) in dict.iter() {
            let name: String = name.extract().map_err(|_| {
                type_error("tools: the keys of the dict must be str (tool names)".into())
            })?;
            out.push(tool_from(&f, Some(name), &made)?);
        }
    } else if tools.is_instance_of::<PyList>() || tools.is_instance_of::<PyTuple>() {
        for f in tools.try_iter()? {
            out.push(tool_from(&f?, None, &made)?);
        }
    } else {
        return Err(type_error(format!(
            "tools: expected a dict of name -> function or a list of ptc_lisp.Tool, got {}",
            tools.get_type().name()?
        )));
    }
    Ok(out)
}

/// What every tool of one `tools=` shares.
struct Made<'a> {
    to_python: ToPython,
    max_result_bytes: Option<u64>,
    interrupt: &'a Interrupt,
}

fn tool_from(f: &Bound<'_, PyAny>, name: Option<String>, made: &Made<'_>) -> PyResult<PyTool> {
    let (function, spec_name, signature, description, acts) = match f.downcast::<ToolSpec>() {
        Ok(spec) => {
            let s = spec.get();
            (
                s.function.bind(f.py()).clone(),
                s.name.clone(),
                s.signature.clone(),
                s.description.clone(),
                acts_of(s, f.py(), made.max_result_bytes)?,
            )
        }
        Err(_) => (f.clone(), None, None, None, Acts::default()),
    };
    if !function.is_callable() {
        return Err(type_error(format!(
            "tools: {} is not callable",
            function.repr()?
        )));
    }
    let name = match name.or(spec_name) {
        Some(n) => n,
        None => function
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .map(|n| n.replace('_', "-"))
            .map_err(|_| {
                type_error(format!(
                    "tools: {} has no __name__; give it a name (a dict key or Tool(name=...))",
                    function.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?,
    };
    let signature = match signature {
        Some(s) => s,
        None => derived_signature(&function),
    };
    let description = match description {
        Some(d) => Some(d),
        None => docstring(&function),
    };
    let mut info =
        ToolInfo::new(name.clone(), &signature, description.as_deref()).map_err(|e| {
            super::errors::session_error_msg(format!(
                "tool/{name}: bad signature {}: {e}",
                excerpt(&signature)
            ))
        })?;
    info.acts = acts;
    let takes_key = takes_key(&function);
    Ok(PyTool {
        info,
        takes_key,
        function: function.unbind(),
        to_python: made.to_python,
        max_result_bytes: made.max_result_bytes,
        interrupt: made.interrupt.clone(),
    })
}

/// How a `Tool` acts: its effect (a read unless declared), approval,
/// idempotence and preview value.
fn acts_of(spec: &ToolSpec, py: Python<'_>, max_bytes: Option<u64>) -> PyResult<Acts> {
    let preview = match &spec.preview {
        Some(p) => Some(from_python(p.bind(py), "its preview value", max_bytes)?),
        None => None,
    };
    Ok(Acts {
        effect: match spec.effect.as_deref() {
            Some("write") => Effect::Write,
            _ => Effect::Read,
        },
        approval: spec.approval,
        idempotent: spec.idempotent,
        preview,
    })
}

/// Whether `f` takes the keyword `idempotency_key` (or any keyword).
fn takes_key(f: &Bound<'_, PyAny>) -> bool {
    (|| -> PyResult<bool> {
        let params = f
            .py()
            .import("inspect")?
            .call_method1("signature", (f,))?
            .getattr("parameters")?;
        if params.contains("idempotency_key")? {
            return Ok(true);
        }
        for p in params.call_method0("values")?.try_iter()? {
            let kind: String = p?.getattr("kind")?.getattr("name")?.extract()?;
            if kind == "VAR_KEYWORD" {
                return Ok(true);
            }
        }
        Ok(false)
    })()
    .unwrap_or(false)
}

/// A signature in a message: quoted, cut after 60 characters.
fn excerpt(signature: &str) -> String {
    const SHOWN: usize = 60;
    let count = signature.chars().count();
    if count <= SHOWN {
        return format!("{signature:?}");
    }
    let head: String = signature.chars().take(SHOWN).collect();
    format!("{head:?}… ({count} characters)")
}

/// `(a :any, b :any) -> :any` from the positional parameters of `f`;
/// `-> :any` when they cannot be read.
fn derived_signature(f: &Bound<'_, PyAny>) -> String {
    let names = (|| -> PyResult<Vec<String>> {
        let inspect = f.py().import("inspect")?;
        let params = inspect
            .call_method1("signature", (f,))?
            .getattr("parameters")?
            .call_method0("values")?;
        let mut names = Vec::new();
        for p in params.try_iter()? {
            let p = p?;
            let kind: String = p.getattr("kind")?.getattr("name")?.extract()?;
            let name: String = p.getattr("name")?.extract()?;
            if (kind == "POSITIONAL_ONLY" || kind == "POSITIONAL_OR_KEYWORD")
                && name != "idempotency_key"
            {
                names.push(p.getattr("name")?.extract::<String>()?.replace('_', "-"));
            }
        }
        Ok(names)
    })();
    match names {
        Ok(names) if !names.is_empty() => format!(
            "({}) -> :any",
            names
                .iter()
                .map(|n| format!("{n} :any"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => "-> :any".into(),
    }
}

/// The first paragraph of `f`'s docstring, on one line.
fn docstring(f: &Bound<'_, PyAny>) -> Option<String> {
    let doc: String = f
        .py()
        .import("inspect")
        .ok()?
        .call_method1("getdoc", (f,))
        .ok()?
        .extract()
        .ok()?;
    let first = doc
        .split("\n\n")
        .next()?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!first.is_empty()).then_some(first)
}
