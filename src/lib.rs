//! # ptc_lisp
//!
//! A sandboxed interpreter for PTC-Lisp, the safe Clojure subset that LLM
//! agents write for programmatic tool calling. See `src/README.md` for the
//! map of the code.

pub mod analyze;
pub mod builtins;
pub mod check;
pub mod cli;
pub mod error;
pub mod eval;
pub mod format;
pub mod reader;
pub mod render;
pub mod run;
pub mod value;

pub use error::{Error, ErrorKind, Result, Span};
pub use eval::{Host, Interp, Limits, StaticHost};
pub use run::Outcome;
pub use value::Value;
