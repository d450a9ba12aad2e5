//! PTC-Lisp values → Python (results, memory, tool arguments and results
//! of the tool-call log), and [`Keyword`]. The other way is
//! [`super::from_python`].
//!
//! nil → `None`, booleans, integers, floats and strings as themselves,
//! keywords → `str` without the colon (or [`Keyword`] when the session
//! keeps keywords), symbols → `str`, vectors → `list`, maps → `dict` (in
//! insertion order), sets → `set`. Inside a map key or a set, where Python
//! needs hashable values, vectors become `tuple`s, sets `frozenset`s and
//! maps a `tuple` of `(key, value)` pairs. Functions, regexes, vars and
//! infinite sequences become their printed form (`str`), as in JSON
//! (`value/json.rs`). Map keys that collide once converted (`:a` and `"a"`)
//! keep the later entry.
//!
//! # The conversion bound (PY-1)
//!
//! Values share parts: `(reduce (fn [a _] [a a]) [1] (range 40))` is 40
//! vectors in memory but 2^40 Python lists once converted, since every
//! place it appears gets objects of its own (Python code may mutate them).
//! So every conversion is bounded like printing and JSON are (4 ×
//! `max_heap_bytes`, `eval/leaving.rs`), in estimated bytes of the Python
//! objects it makes: 32 per `int` or `float`, 48 per `str` (or `Keyword`)
//! plus its length, 56 per `list` or `tuple` plus 8 per item, 64 per
//! `dict` plus 48 per entry, 64 per `set` or `frozenset` plus 32 per item
//! (`None` and booleans are free). A conversion that would pass
//! [`ToPython::max_bytes`] — 4 × `max_heap_bytes`, or 1 GiB when the heap is
//! not limited — stops there with a `ConversionError` (kind
//! `limit-exceeded`) naming what was converted (`Turn.value`, `user/x`,
//! `the arguments of tool/t`) and the bound; nothing is returned in part.
//! It stops at nesting past [`depth::MAX_DEPTH`] levels, or with less than
//! [`native::CONVERT_ROOM`] of native stack left, the same way. The cost of
//! a conversion is bounded by what it may make, whatever the value shares.
//! One getter call is one conversion (`Session.memory` converts every
//! definition under one bound); a Python tool's arguments are one per call.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PySet, PyTuple};
use pyo3::IntoPyObjectExt;

use super::errors::conversion_limit_error;
use super::native;
use crate::eval::Limits;
use crate::format::to_clojure_capped;
use crate::value::{depth, Value};

/// A PTC-Lisp keyword on the Python side (only when a session or `run`
/// keeps keywords; by default they arrive as `str`).
#[pyclass(module = "ptc_lisp", frozen, eq, hash, ord)]
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Keyword {
    /// The name without the colon: `Keyword("a")` is `:a`.
    #[pyo3(get)]
    pub name: String,
}

#[pymethods]
impl Keyword {
    #[new]
    fn new(name: String) -> Keyword {
        Keyword {
            name: name.strip_prefix(':').map(str::to_string).unwrap_or(name),
        }
    }
    fn __repr__(&self) -> String {
        format!("Keyword({:?})", self.name)
    }
    /// `:name`, as PTC-Lisp writes it.
    fn __str__(&self) -> String {
        format!(":{}", self.name)
    }
}

/// The most a conversion may make without a heap limit (estimated bytes).
pub const UNLIMITED_MAX_BYTES: u64 = 1 << 30;

/// How values reach Python.
#[derive(Clone, Copy, Debug)]
pub struct ToPython {
    /// Keywords as [`Keyword`] instead of `str`.
    pub keep_keywords: bool,
    /// The most estimated bytes of Python objects one conversion may make
    /// (see the module docs).
    pub max_bytes: u64,
}

impl ToPython {
    /// For a session or `run` with these limits.
    pub fn new(keep_keywords: bool, limits: &Limits) -> ToPython {
        ToPython {
            keep_keywords,
            max_bytes: limits
                .max_heap_bytes
                .map_or(UNLIMITED_MAX_BYTES, |m| m.saturating_mul(4)),
        }
    }

    /// Converts `v` (one conversion); `what` names it in errors.
    pub fn convert(self, py: Python<'_>, v: &Value, what: &str) -> PyResult<PyObject> {
        self.converter().convert(py, v, what)
    }

    /// A conversion of several values under one bound.
    pub fn converter(self) -> Converter {
        Converter { tp: self, spent: 0 }
    }
}

/// One conversion in progress: what it has made so far.
pub struct Converter {
    tp: ToPython,
    spent: u64,
}

/// Why a conversion stopped.
enum Stop {
    Bound,
    Deep,
    Stack,
    Python(PyErr),
}

impl From<PyErr> for Stop {
    fn from(e: PyErr) -> Stop {
        Stop::Python(e)
    }
}

type Made = Result<PyObject, Stop>;

impl Converter {
    /// Converts `v`, counting it with what this converter made before.
    pub fn convert(&mut self, py: Python<'_>, v: &Value, what: &str) -> PyResult<PyObject> {
        self.value(py, v, false, 0).map_err(|stop| match stop {
            Stop::Python(e) => e,
            Stop::Bound => conversion_limit_error(format!(
                "{what} is too big for Python: more than {} bytes of Python objects \
                 (estimated), the most one conversion may make (4 × max_heap_bytes); it repeats \
                 shared parts, or holds too much. repr() shows a preview; keep less in it, or \
                 raise max_heap_bytes",
                self.tp.max_bytes
            )),
            Stop::Deep => conversion_limit_error(format!(
                "{what} nests more than {} levels deep, the most a conversion follows",
                depth::MAX_DEPTH
            )),
            Stop::Stack => conversion_limit_error(format!(
                "{what} nests too deep for the native stack left on this thread (less than \
                 {} KiB); convert it on a thread with a bigger stack",
                native::CONVERT_ROOM >> 10
            )),
        })
    }

    /// Counts `bytes` more.
    fn spend(&mut self, bytes: u64) -> Result<(), Stop> {
        self.spent = self.spent.saturating_add(bytes);
        if self.spent > self.tp.max_bytes {
            return Err(Stop::Bound);
        }
        Ok(())
    }

    fn text(&mut self, py: Python<'_>, s: &str) -> Made {
        self.spend(48 + s.len() as u64)?;
        Ok(s.into_py_any(py)?)
    }

    /// `hashable`: inside a map key or a set.
    fn value(&mut self, py: Python<'_>, v: &Value, hashable: bool, level: usize) -> Made {
        match v {
            Value::Nil => return Ok(py.None()),
            Value::Bool(b) => return Ok(b.into_py_any(py)?),
            Value::Int(i) => {
                self.spend(32)?;
                return Ok(i.into_py_any(py)?);
            }
            Value::Float(f) => {
                self.spend(32)?;
                return Ok(f.into_py_any(py)?);
            }
            Value::Str(s) | Value::Symbol(s) => return self.text(py, s),
            Value::Keyword(k) if self.tp.keep_keywords => {
                self.spend(48 + k.len() as u64)?;
                return Ok(Keyword {
                    name: k.to_string(),
                }
                .into_py_any(py)?);
            }
            Value::Keyword(k) => return self.text(py, k),
            _ => {}
        }
        if level >= depth::MAX_DEPTH {
            return Err(Stop::Deep);
        }
        if !native::has_room(native::CONVERT_ROOM) {
            return Err(Stop::Stack);
        }
        let level = level + 1;
        match v {
            Value::Vector(items) => {
                self.spend(56 + 8 * items.len() as u64)?;
                let items = items
                    .iter()
                    .map(|x| self.value(py, x, hashable, level))
                    .collect::<Result<Vec<_>, Stop>>()?;
                Ok(if hashable {
                    PyTuple::new(py, items)?.into_py_any(py)?
                } else {
                    PyList::new(py, items)?.into_py_any(py)?
                })
            }
            Value::Map(m) if hashable => {
                self.spend(56 + 64 * m.len() as u64)?;
                let mut pairs = Vec::with_capacity(m.len());
                for (k, x) in m.iter() {
                    let k = self.value(py, k, true, level)?;
                    let x = self.value(py, x, true, level)?;
                    pairs.push(PyTuple::new(py, [k, x])?);
                }
                Ok(PyTuple::new(py, pairs)?.into_py_any(py)?)
            }
            Value::Map(m) => {
                self.spend(64 + 48 * m.len() as u64)?;
                let dict = PyDict::new(py);
                for (k, x) in m.iter() {
                    let k = self.value(py, k, true, level)?;
                    let x = self.value(py, x, false, level)?;
                    dict.set_item(k, x)?;
                }
                Ok(dict.into_py_any(py)?)
            }
            Value::Set(s) => {
                self.spend(64 + 32 * s.len() as u64)?;
                let items = s
                    .iter()
                    .map(|x| self.value(py, x, true, level))
                    .collect::<Result<Vec<_>, Stop>>()?;
                Ok(if hashable {
                    PyFrozenSet::new(py, &items)?.into_py_any(py)?
                } else {
                    PySet::new(py, &items)?.into_py_any(py)?
                })
            }
            Value::Reduced(x) => self.value(py, x, hashable, level),
            other => {
                // Printed within what is left of the bound: a closure's
                // captures print too.
                let room = self.tp.max_bytes.saturating_sub(self.spent);
                let cap = usize::try_from(room).unwrap_or(usize::MAX).max(1);
                let (text, _) = to_clojure_capped(other, None, None, Some(cap));
                self.text(py, &text)
            }
        }
    }
}
