//! Key functions of `sort-by` and `group-by`: anything callable, called
//! through [`Interp::repeated`], or (PTC-Lisp) a string key or a vector
//! path.

use crate::builtins::args;
use crate::error::Result;
use crate::eval::{Interp, Repeated};
use crate::value::{Value, Vector};

/// A key function: anything callable, or (PTC-Lisp) a string key or a
/// vector path looked up with the keyword ⇄ string fallback.
pub(super) enum KeyFn {
    Call(Value),
    Key(Value),
    Path(Vector),
}

pub(super) fn key_fn(fname: &str, f: &Value) -> Result<KeyFn> {
    match f {
        Value::Str(_) => Ok(KeyFn::Key(f.clone())),
        Value::Vector(p) => Ok(KeyFn::Path(p.clone())),
        _ => {
            args::callable(fname, f)?;
            Ok(KeyFn::Call(f.clone()))
        }
    }
}

impl KeyFn {
    /// The function a `KeyFn::Call` calls (`nil` for the others), for
    /// [`Interp::repeated`].
    pub(super) fn callee(&self) -> Value {
        match self {
            KeyFn::Call(f) => f.clone(),
            _ => Value::Nil,
        }
    }
}

/// The key of `x`; `f` is [`KeyFn::callee`] repeated.
pub(super) fn key_of(
    interp: &mut Interp,
    kf: &KeyFn,
    f: &mut Repeated,
    x: &Value,
) -> Result<Value> {
    Ok(match kf {
        KeyFn::Call(_) => interp.call_again_ref(f, std::slice::from_ref(x))?,
        KeyFn::Key(k) => crate::eval::lookup(x, k).unwrap_or(Value::Nil),
        KeyFn::Path(p) => {
            let mut cur = x.clone();
            for k in p.iter() {
                cur = crate::eval::lookup(&cur, k).unwrap_or(Value::Nil);
            }
            cur
        }
    })
}
