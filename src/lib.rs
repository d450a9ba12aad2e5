//! # ptc_lisp
//!
//! A sandboxed interpreter for PTC-Lisp, the safe Clojure subset that LLM
//! agents write for programmatic tool calling. See `src/README.md` for the
//! map of the code.
//!
//! ```
//! use ptc_lisp::{CannedTool, ErrorKind, Interp, Limits, StaticHost, Value};
//!
//! let mut host = StaticHost::default();
//! host.data.insert("prices".into(), Value::vector_from([Value::Int(3), Value::Int(5)]));
//! host.tools.insert("rate".into(), CannedTool::Returns(Value::Float(1.5)));
//! let mut interp = Interp::new(Box::new(host), Limits::default());
//!
//! // One program is one turn: its defs persist only if it succeeds.
//! let turn = interp.run_program("(def total (* (tool/rate) (reduce + data/prices)))");
//! assert!(turn.is_ok());
//! assert_eq!(interp.run_program("total").result.unwrap(), Value::Float(12.0));
//! assert_eq!(interp.tool_calls.len(), 0); // cleared per program
//!
//! let failed = interp.run_program("(def total 0) (count 5)");
//! assert_eq!(failed.result.unwrap_err().kind(), ErrorKind::Type);
//! assert_eq!(interp.globals.lookup("total").unwrap().value, Value::Float(12.0));
//! ```

// Library code never panics on bad input: no unwrap/expect outside tests.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
#![warn(missing_docs)]

pub mod agent;
pub(crate) mod analyze;
pub(crate) mod builtins;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub(crate) mod error;
pub(crate) mod eval;
pub(crate) mod format;
#[cfg(feature = "python")]
mod python;
pub(crate) mod reader;
pub mod render;
#[cfg(feature = "cli")]
pub(crate) mod repl;
pub(crate) mod run;
pub mod session;
pub mod value;

pub use error::{Error, ErrorKind, Result, Span};
pub use eval::{CannedTool, Definition, Globals, Host, Interp, Limits, StaticHost, ToolCall};
pub use format::{display, to_clojure};
pub use reader::read_value;
pub use run::Outcome;
pub use value::json::{from_json, to_json};
pub use value::Value;
