//! Function values: builtins from the registry, closures made by `fn`/`defn`,
//! and native closures that builtins such as `partial` or `comp` return.
//!
//! Closures point up into compiled code ([`crate::eval::Closure`]); this is the
//! one place where a value refers to a higher layer, and it only holds it.

use std::borrow::Cow;
use std::sync::Arc;

use crate::builtins::Builtin;
use crate::error::Result;
use crate::eval::{Closure, Interp};
use crate::value::Value;

/// Bytes of a closure made by `fn` inside its `Arc`, its captures' array
/// aside (`value/cost.rs`).
pub(crate) const CLOSURE_BYTES: u64 = std::mem::size_of::<Closure>() as u64;

/// The body of a native closure.
pub type NativeBody = dyn Fn(&mut Interp, &[Value]) -> Result<Value> + Send + Sync;

/// A function made by a builtin at run time (`partial`, `comp`, `juxt` …);
/// its name is not copied when it is a literal. (The body stays boxed: an
/// `Arc` of the unsized body would be a wide pointer, and a `Value`
/// holding one costs every clone and drop a few instructions.)
pub struct NativeFn {
    /// What `#fn[...]` shows: e.g. `partial`.
    pub name: Cow<'static, str>,
    pub body: Box<NativeBody>,
}

/// A callable value.
#[derive(Clone)]
pub enum Func {
    Builtin(&'static Builtin),
    Closure(Arc<Closure>),
    Native(Arc<NativeFn>),
}

impl Func {
    /// Wraps a Rust closure as a PTC-Lisp function.
    pub fn native(
        name: impl Into<Cow<'static, str>>,
        body: impl Fn(&mut Interp, &[Value]) -> Result<Value> + Send + Sync + 'static,
    ) -> Value {
        Value::Fn(Func::Native(Arc::new(NativeFn {
            name: name.into(),
            body: Box::new(body),
        })))
    }

    /// The function's name (`fn` for anonymous closures).
    pub fn name(&self) -> &str {
        match self {
            Func::Builtin(b) => b.name,
            Func::Closure(c) => c.name(),
            Func::Native(n) => &n.name,
        }
    }

    /// Identity, for ordering functions deterministically within one run.
    pub fn addr(&self) -> usize {
        match self {
            Func::Builtin(b) => *b as *const Builtin as usize,
            Func::Closure(c) => Arc::as_ptr(c) as *const u8 as usize,
            Func::Native(n) => Arc::as_ptr(n) as *const u8 as usize,
        }
    }

    /// What goes inside `#fn[...]` (format.md): parameter names for closures,
    /// the name for builtins and native closures.
    pub fn display_params(&self) -> String {
        match self {
            Func::Builtin(b) => b.name.to_string(),
            Func::Closure(c) => c.display_params(),
            Func::Native(n) => n.name.to_string(),
        }
    }
}
