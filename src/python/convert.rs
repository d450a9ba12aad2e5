//! Values between Python and PTC-Lisp, both ways.
//!
//! Python → PTC-Lisp (data, tool results): `None` → nil, `bool` → boolean,
//! `int` → 64-bit integer (a bigger one is a [`ConversionError`]), `float`
//! → float, `str` → string, `list`/`tuple` → vector, `dict` → map whose
//! `str` keys become keywords (as JSON objects do in session files,
//! `session.md`; other keys convert as values), `set`/`frozenset` → set,
//! [`Keyword`] → keyword. Anything else, and nesting past
//! [`depth::MAX_DEPTH`] levels (a list that contains itself), is a
//! [`ConversionError`] naming the Python type and where it sits.
//!
//! PTC-Lisp → Python (results, memory, tool arguments): nil → `None`,
//! booleans, integers, floats and strings as themselves, keywords → `str`
//! without the colon (or [`Keyword`] when the session keeps keywords),
//! symbols → `str`, vectors → `list`, maps → `dict` (in insertion order),
//! sets → `set`. Inside a map key or a set, where Python needs hashable
//! values, vectors become `tuple`s, sets `frozenset`s and maps a `tuple` of
//! `(key, value)` pairs. Functions, regexes, vars and infinite sequences
//! become their printed form (`str`), as in JSON (`value/json.rs`).
//! Map keys that collide once converted (`:a` and `"a"`) keep the later
//! entry.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::errors::conversion_error;
use crate::format::to_clojure;
use crate::value::{depth, Map, Set, Value};

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

/// How values reach Python.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToPython {
    /// Keywords as [`Keyword`] instead of `str`.
    pub keep_keywords: bool,
}

impl ToPython {
    /// Converts `v`.
    pub fn convert(self, py: Python<'_>, v: &Value) -> PyResult<PyObject> {
        self.value(py, v, false)
    }

    /// `hashable`: inside a map key or a set.
    fn value(self, py: Python<'_>, v: &Value, hashable: bool) -> PyResult<PyObject> {
        match v {
            Value::Nil => Ok(py.None()),
            Value::Bool(b) => b.into_py_any(py),
            Value::Int(i) => i.into_py_any(py),
            Value::Float(f) => f.into_py_any(py),
            Value::Str(s) | Value::Symbol(s) => s.as_ref().into_py_any(py),
            Value::Keyword(k) if self.keep_keywords => Keyword {
                name: k.to_string(),
            }
            .into_py_any(py),
            Value::Keyword(k) => k.as_ref().into_py_any(py),
            Value::Vector(items) => {
                let items = items
                    .iter()
                    .map(|x| self.value(py, x, hashable))
                    .collect::<PyResult<Vec<_>>>()?;
                if hashable {
                    PyTuple::new(py, items)?.into_py_any(py)
                } else {
                    PyList::new(py, items)?.into_py_any(py)
                }
            }
            Value::Map(m) if hashable => {
                let pairs = m
                    .iter()
                    .map(|(k, x)| {
                        PyTuple::new(py, [self.value(py, k, true)?, self.value(py, x, true)?])
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, pairs)?.into_py_any(py)
            }
            Value::Map(m) => {
                let dict = PyDict::new(py);
                for (k, x) in m.iter() {
                    dict.set_item(self.value(py, k, true)?, self.value(py, x, false)?)?;
                }
                dict.into_py_any(py)
            }
            Value::Set(s) => {
                let items = s
                    .iter()
                    .map(|x| self.value(py, x, true))
                    .collect::<PyResult<Vec<_>>>()?;
                if hashable {
                    PyFrozenSet::new(py, &items)?.into_py_any(py)
                } else {
                    PySet::new(py, &items)?.into_py_any(py)
                }
            }
            Value::Reduced(x) => self.value(py, x, hashable),
            other => to_clojure(other, None, None).0.into_py_any(py),
        }
    }
}

/// Converts a Python value; `what` names it in errors (`data/products`,
/// `its result`).
pub fn from_python(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    let mut path = Vec::new();
    convert(obj, &mut path).map_err(|e| match e {
        Problem::Python(e) => e,
        Problem::Unsupported(msg) => {
            let place = path
                .iter()
                .map(Step::text)
                .collect::<PyResult<String>>()
                .unwrap_or_default();
            conversion_error(format!("{what}{place}: {msg}"))
        }
    })
}

/// One step down from a container, written out only for an error message.
enum Step<'py> {
    Index(usize),
    /// The value under this key.
    Value(Bound<'py, PyAny>),
    /// The key itself.
    Key(Bound<'py, PyAny>),
    Member(Bound<'py, PyAny>),
}

impl Step<'_> {
    fn text(&self) -> PyResult<String> {
        Ok(match self {
            Step::Index(i) => format!("[{i}]"),
            Step::Value(k) => format!("[{}]", k.repr()?),
            Step::Key(k) => format!("[key {}]", k.repr()?),
            Step::Member(m) => format!("[member {}]", m.repr()?),
        })
    }
}

/// Why a conversion stopped.
enum Problem {
    Unsupported(String),
    Python(PyErr),
}

impl From<PyErr> for Problem {
    fn from(e: PyErr) -> Problem {
        Problem::Python(e)
    }
}

/// Converts `obj`; `path` holds the steps down to it (left as they were at
/// a problem, to name the place).
fn convert<'py>(obj: &Bound<'py, PyAny>, path: &mut Vec<Step<'py>>) -> Result<Value, Problem> {
    if path.len() > depth::MAX_DEPTH {
        return Err(Problem::Unsupported(format!(
            "nests more than {} levels deep (a container that holds itself?)",
            depth::MAX_DEPTH
        )));
    }
    if obj.is_none() {
        return Ok(Value::Nil);
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::string(s.to_str()?));
    }
    if let Ok(b) = obj.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(i) => Ok(Value::Int(i)),
            Err(_) => Err(Problem::Unsupported(format!(
                "the int {} does not fit in 64 bits (PTC-Lisp integers are 64-bit; pass it as a float or a str)",
                obj.str()?
            ))),
        };
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        return Ok(Value::Float(f.value()));
    }
    if let Ok(k) = obj.downcast::<Keyword>() {
        return Ok(Value::keyword(k.get().name.as_str()));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::with_capacity(obj.len().unwrap_or(0));
        for (i, item) in obj.try_iter()?.enumerate() {
            path.push(Step::Index(i));
            items.push(convert(&item?, path)?);
            path.pop();
        }
        return Ok(Value::vector_from(items));
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            // Keys of data are interned, as JSON object keys are.
            let key = match k.downcast::<PyString>() {
                Ok(s) => Value::keyword_interned(s.to_str()?),
                Err(_) => {
                    path.push(Step::Key(k.clone()));
                    let key = convert(&k, path)?;
                    path.pop();
                    key
                }
            };
            path.push(Step::Value(k));
            m.insert(key, convert(&v, path)?);
            path.pop();
        }
        return Ok(Value::Map(m));
    }
    if obj.is_instance_of::<PySet>() || obj.is_instance_of::<PyFrozenSet>() {
        let mut s = Set::new();
        for item in obj.try_iter()? {
            let item = item?;
            path.push(Step::Member(item.clone()));
            s.insert(convert(&item, path)?);
            path.pop();
        }
        return Ok(Value::Set(s));
    }
    let type_name = obj.get_type().name()?.to_string();
    Err(Problem::Unsupported(format!(
        "a Python {type_name} has no PTC-Lisp counterpart (expected None, bool, int, float, str, list, tuple, dict, set or Keyword)"
    )))
}

/// Raises a Python `TypeError` (for arguments of the wrong shape).
pub fn type_error(message: String) -> PyErr {
    PyTypeError::new_err(message)
}
