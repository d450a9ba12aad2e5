//! Python values → PTC-Lisp (`data=`, tool results).
//!
//! `None` → nil, `bool` → boolean, `int` → 64-bit integer (a bigger one is
//! a `ConversionError`), `float` → float, `str` → string, `list`/`tuple` →
//! vector, `dict` → map whose `str` keys become keywords (as JSON objects
//! do in session files, `session.md`; other keys convert as values),
//! `set`/`frozenset` → set, [`Keyword`] → keyword. Anything else, and
//! nesting past [`depth::MAX_DEPTH`] levels (a list that contains itself)
//! or past the native stack left ([`native::CONVERT_ROOM`]), is a
//! `ConversionError` naming the Python type and where it sits.
//!
//! The place is a short path (PY-2): `its result[3]["items"][0]`, each step
//! at most [`STEP_CHARS`] characters (a `str` key's `repr`, cut; other keys
//! and set members by their type and position), and at most [`MAX_STEPS`]
//! steps: past that, the first and last halves around `…(N more)…`.
//!
//! A tool's result is converted under the heap limit (PY-3): the value
//! it becomes is counted as it is built, in the bytes the evaluator
//! charges for values from outside (`value/size.rs`, rule HEAP-COST-1 of
//! `value/cost.rs`: a string's `Arc` and text, a list's vector, a dict's
//! map, a set's table, a `str` key nothing once interned), and a result
//! that passes `max_heap_bytes`
//! stops there — before its items are converted when a container's own
//! size passes it — with an error naming the size. What fits is then
//! charged to the turn's heap like any tool result (`eval/outside.rs`).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

use super::convert::Keyword;
use super::errors::conversion_error;
use super::native;
use crate::value::{cost, depth, Map, Set, Value};

/// The most characters one step of a path shows.
pub const STEP_CHARS: usize = 40;

/// The most steps a path shows.
pub const MAX_STEPS: usize = 8;

/// Converts a Python value; `what` names it in errors (`data/products`,
/// `its result`); `max_bytes`: the bound on what it becomes (the heap
/// limit), `None` for none.
pub fn from_python(obj: &Bound<'_, PyAny>, what: &str, max_bytes: Option<u64>) -> PyResult<Value> {
    let mut c = FromPython {
        path: Vec::new(),
        spent: 0,
        max_bytes: max_bytes.unwrap_or(u64::MAX),
    };
    c.convert(obj).map_err(|e| match e {
        Problem::Python(e) => e,
        Problem::Unsupported(msg) => {
            conversion_error(format!("{what}{}: {msg}", path_text(&c.path)))
        }
    })
}

/// One step down from a container, written out only for an error message.
enum Step<'py> {
    Index(usize),
    /// The value under this key.
    Value(Bound<'py, PyAny>),
    /// The key itself (the `n`th of its dict).
    Key(usize, Bound<'py, PyAny>),
    /// A member of a set (the `n`th iterated).
    Member(usize, Bound<'py, PyAny>),
}

impl Step<'_> {
    /// At most [`STEP_CHARS`] characters (plus the brackets).
    fn text(&self) -> String {
        match self {
            Step::Index(i) => format!("[{i}]"),
            Step::Value(k) => format!("[{}]", key_text(k)),
            Step::Key(n, k) => format!("[key #{n}, {}]", type_name(k)),
            Step::Member(n, m) => format!("[member #{n}, {}]", type_name(m)),
        }
    }
}

/// A `str` key's `repr` (cut), a small `int` as itself, else the type.
fn key_text(k: &Bound<'_, PyAny>) -> String {
    if let Ok(s) = k.downcast::<PyString>() {
        let Ok(text) = s.to_cow() else {
            return "a str key".into();
        };
        if text.chars().count() <= STEP_CHARS - 2 {
            return s.repr().map(|r| r.to_string()).unwrap_or_default();
        }
        let cut: String = text.chars().take(STEP_CHARS - 3).collect();
        let shown = PyString::new(k.py(), &cut)
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_default();
        let (body, quote) = shown.split_at(shown.len().saturating_sub(1));
        return format!("{body}…{quote}");
    }
    if k.is_instance_of::<PyInt>() {
        if let Ok(i) = k.extract::<i64>() {
            return i.to_string();
        }
    }
    format!("a {} key", type_name(k))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into());
    name.chars().take(STEP_CHARS).collect()
}

/// The steps, or the first and last [`MAX_STEPS`]` / 2` of them.
fn path_text(path: &[Step<'_>]) -> String {
    if path.len() <= MAX_STEPS {
        return path.iter().map(Step::text).collect();
    }
    let half = MAX_STEPS / 2;
    let head: String = path[..half].iter().map(Step::text).collect();
    let tail: String = path[path.len() - half..].iter().map(Step::text).collect();
    format!("{head}…({} more)…{tail}", path.len() - 2 * half)
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

struct FromPython<'py> {
    /// The steps down to the value being converted (left as they were at
    /// a problem, to name the place).
    path: Vec<Step<'py>>,
    /// Bytes the value built so far will take (`value/size.rs` units).
    spent: u64,
    max_bytes: u64,
}

impl<'py> FromPython<'py> {
    /// Counts `bytes` more of the value being built; `what` describes the
    /// part that brings it past the bound.
    fn spend(&mut self, bytes: u64, what: impl FnOnce() -> String) -> Result<(), Problem> {
        self.spent = self.spent.saturating_add(bytes);
        if self.spent > self.max_bytes {
            return Err(Problem::Unsupported(format!(
                "{} brings it past {} bytes as PTC-Lisp values, the heap limit \
                 (max_heap_bytes); return less (a page, a summary) or raise the limit",
                what(),
                self.max_bytes
            )));
        }
        Ok(())
    }

    fn convert(&mut self, obj: &Bound<'py, PyAny>) -> Result<Value, Problem> {
        if obj.is_none() {
            return Ok(Value::Nil);
        }
        if let Ok(s) = obj.downcast::<PyString>() {
            let s = s.to_str()?;
            self.spend(cost::string_bytes(s.len()), || {
                format!("a str of {} bytes", s.len())
            })?;
            return Ok(Value::string(s));
        }
        if let Ok(b) = obj.downcast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if obj.is_instance_of::<PyInt>() {
            return match obj.extract::<i64>() {
                Ok(i) => Ok(Value::Int(i)),
                Err(_) => {
                    let bits: u64 = obj.call_method0("bit_length")?.extract().unwrap_or(0);
                    Err(Problem::Unsupported(format!(
                        "an int of {bits} bits does not fit in 64 bits (PTC-Lisp integers \
                         are 64-bit; pass it as a float or a str)"
                    )))
                }
            };
        }
        if let Ok(f) = obj.downcast::<PyFloat>() {
            return Ok(Value::Float(f.value()));
        }
        if let Ok(k) = obj.downcast::<Keyword>() {
            let name = &k.get().name;
            self.spend(cost::keyword_bytes(name.len()), || {
                format!("a Keyword of {} bytes", name.len())
            })?;
            return Ok(Value::keyword(name.as_str()));
        }
        let nested = obj.is_instance_of::<PyList>()
            || obj.is_instance_of::<PyTuple>()
            || obj.is_instance_of::<PyDict>()
            || obj.is_instance_of::<PySet>()
            || obj.is_instance_of::<PyFrozenSet>();
        if !nested {
            let type_name = type_name(obj);
            return Err(Problem::Unsupported(format!(
                "a Python {type_name} has no PTC-Lisp counterpart (expected None, bool, int, \
                 float, str, list, tuple, dict, set or Keyword)"
            )));
        }
        if self.path.len() >= depth::MAX_DEPTH {
            return Err(Problem::Unsupported(format!(
                "nests more than {} levels deep (a container that holds itself?)",
                depth::MAX_DEPTH
            )));
        }
        if !native::has_room(native::CONVERT_ROOM) {
            return Err(Problem::Unsupported(format!(
                "nests too deep for the native stack left on this thread (less than {} KiB)",
                native::CONVERT_ROOM >> 10
            )));
        }
        self.container(obj)
    }

    fn container(&mut self, obj: &Bound<'py, PyAny>) -> Result<Value, Problem> {
        let len = obj.len()?;
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            let kind = type_name(obj);
            self.spend(cost::vector_bytes(len), || {
                format!("a {kind} of {len} items")
            })?;
            let mut items = Vec::with_capacity(len);
            for (i, item) in obj.try_iter()?.enumerate() {
                self.path.push(Step::Index(i));
                items.push(self.convert(&item?)?);
                self.path.pop();
            }
            return Ok(Value::vector_from(items));
        }
        if let Ok(d) = obj.downcast::<PyDict>() {
            self.spend(cost::map_bytes(len), || format!("a dict of {len} entries"))?;
            let mut m = Map::new();
            for (n, (k, v)) in d.iter().enumerate() {
                // Keys of data are interned, as JSON object keys are
                // (nothing to count, unless past the interning bound).
                let key = match k.downcast::<PyString>() {
                    Ok(s) => {
                        let s = s.to_str()?;
                        let key = Value::keyword_interned(s);
                        if !matches!(&key, Value::Keyword(kw) if kw.is_interned()) {
                            self.spend(cost::string_bytes(s.len()), || {
                                format!("a key of {} bytes", s.len())
                            })?;
                        }
                        key
                    }
                    Err(_) => {
                        self.path.push(Step::Key(n, k.clone()));
                        let key = self.convert(&k)?;
                        self.path.pop();
                        key
                    }
                };
                self.path.push(Step::Value(k));
                m.insert(key, self.convert(&v)?);
                self.path.pop();
            }
            return Ok(Value::Map(m));
        }
        let kind = type_name(obj);
        self.spend(cost::set_bytes(len), || format!("a {kind} of {len} items"))?;
        let mut s = Set::new();
        for (n, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            self.path.push(Step::Member(n, item.clone()));
            s.insert(self.convert(&item)?);
            self.path.pop();
        }
        Ok(Value::Set(s))
    }
}
