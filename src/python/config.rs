//! The keyword arguments shared by `ptc_lisp.run` and `ptc_lisp.Session`:
//! `data=` (a dict of name → value) and the `limits=` and `render=` dicts.
//!
//! `limits` and `render` go through the same serde definitions as a
//! session file's `"limits"` and `"render"` objects ([`Limits`],
//! [`RenderOptions`]): missing keys take the defaults, `None` turns a limit
//! off, an unknown key is an error naming it. `limits="none"` is
//! [`Limits::none`] (trusted code and benchmarks: everything off but call
//! depth).

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde::de::DeserializeOwned;

use super::errors::{session_error_msg, type_error};
use super::from_python::from_python;
use crate::eval::Limits;
use crate::session::RenderOptions;
use crate::value::Value;

/// `data=`: `{"products": [...], ...}`; values convert as described in
/// [`super::from_python`] (the host's own data: no size bound).
pub fn data_from(data: Option<&Bound<'_, PyAny>>) -> PyResult<BTreeMap<String, Value>> {
    let mut out = BTreeMap::new();
    let Some(data) = data else {
        return Ok(out);
    };
    let dict = data.downcast::<PyDict>().map_err(|_| {
        type_error(format!(
            "data: expected a dict of name -> value, got {}",
            data.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    for (name, value) in dict.iter() {
        let name: String = name.extract().map_err(|_| {
            type_error("data: the keys of the dict must be str (data names)".into())
        })?;
        let value = from_python(&value, &format!("data/{name}"), None)?;
        out.insert(name, value);
    }
    Ok(out)
}

/// `limits=`: `None` (the defaults), `"none"`, or a dict such as
/// `{"timeout_ms": 200, "max_steps": None}`.
pub fn limits_from(py: Python<'_>, limits: Option<&Bound<'_, PyAny>>) -> PyResult<Limits> {
    match limits {
        None => Ok(Limits::default()),
        Some(l) if l.is_none() => Ok(Limits::default()),
        Some(l)
            if l.downcast::<PyString>()
                .is_ok_and(|s| s.to_cow().is_ok_and(|s| s == "none")) =>
        {
            Ok(Limits::none())
        }
        Some(l) => from_dict(py, l, "limits"),
    }
}

/// `render=`: render options (`rendering.md` R-02) as a dict.
pub fn render_from(py: Python<'_>, render: Option<&Bound<'_, PyAny>>) -> PyResult<RenderOptions> {
    match render {
        None => Ok(RenderOptions::default()),
        Some(r) if r.is_none() => Ok(RenderOptions::default()),
        Some(r) => from_dict(py, r, "render"),
    }
}

/// A dict read with serde, through JSON.
fn from_dict<T: DeserializeOwned>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    if !obj.is_instance_of::<PyDict>() {
        return Err(type_error(format!(
            "{what}: expected a dict, got {}",
            obj.get_type().name()?
        )));
    }
    let json: String = py
        .import("json")?
        .call_method1("dumps", (obj,))
        .map_err(|e| type_error(format!("{what}: {e}")))?
        .extract()?;
    serde_json::from_str(&json).map_err(|e| {
        let full = e.to_string();
        let msg = full.split(" at line ").next().unwrap_or(&full).to_string();
        session_error_msg(format!("{what}: {msg}"))
    })
}
