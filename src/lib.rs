//! # ptc_lisp
//!
//! A sandboxed interpreter for PTC-Lisp, the safe Clojure subset that LLM
//! agents write for programmatic tool calling, with the multi-turn sessions,
//! prompt rendering and agent loop built on it.
//!
//! ## The public API
//!
//! * **Interpreter** (crate root): [`Interp`] runs one program per turn
//!   ([`Interp::run_program`] → [`Outcome`]) within [`Limits`], against a
//!   [`Host`] that serves `data/` values and `tool/` calls ([`StaticHost`]
//!   with [`CannedTool`]s for fixed ones). User definitions live in
//!   [`Globals`]; what a program called is in [`ToolCall`]s.
//! * **Values**: [`Value`] (with [`value::Map`], [`value::Set`]); JSON with
//!   [`to_json`] / [`from_json`] / [`value::to_json_lossless`], and serde
//!   (`Serialize` writes the lossless JSON form or fails, see [`Value`]);
//!   PTC-Lisp text with [`to_clojure`], [`display`] and [`read_value`].
//! * **Errors**: [`Error`] with its [`ErrorKind`] (the spec's error kinds)
//!   and [`Span`].
//! * **Sessions** ([`session`]): [`session::Session`] (mission, data, tools,
//!   turns, status), [`session::Turn`], tools ([`session::Tool`],
//!   [`session::FnTool`] …), session files ([`session::SessionFile`]), the
//!   next prompt ([`session::render_messages`] in a [`session::View`]) and
//!   the JSON of `ptc replay` ([`session::json`], also what `Session` and
//!   `Turn` serialize as).
//! * **Rendering** ([`render`]): turns → chat messages without a session
//!   ([`render::to_messages`]), the SYSTEM prompt
//!   ([`render::system_prompt`]), [`render::RenderOptions`], statistics.
//! * **Agent loop** ([`agent`]): the [`agent::Llm`] trait, the runner
//!   ([`agent::run`]), [`agent::ScriptedLlm`]; with the `agent` feature the
//!   HTTP clients ([`agent::http`]).
//! * **Conformance** ([`check`]): what `ptc check` runs.
//! * **The reference run** ([`reference`]): programs evaluated with every
//!   optimisation off, the oracle the optimised evaluator is checked
//!   against ([`reference::scope`], [`Interp::set_reference`]), and the
//!   oracle comparing the two runs ([`oracle`]).
//! * **Command line** (`cli`, feature `cli`): the `ptc` binary's `main`.
//! * **Allocator** (`alloc`, feature `mimalloc`, part of `cli`): the `ptc`
//!   binary's, for a server running sessions on several threads to make
//!   its global allocator.
//!
//! The reader, analyzer, evaluator and builtin tables are private.
//!
//! ## Embedding
//!
//! ```
//! use ptc_lisp::agent::{self, ScriptedLlm};
//! use ptc_lisp::session::{render_messages, Role, Session, Status};
//! use ptc_lisp::{to_clojure, CannedTool, ErrorKind, Interp, Limits, StaticHost, Value};
//!
//! // The interpreter alone: data, a canned tool, one program per turn.
//! let mut host = StaticHost::default();
//! host.data.insert("prices".into(), Value::vector_from([Value::Int(3), Value::Int(5)]));
//! host.tools.insert("rate".into(), CannedTool::Returns(Value::Float(1.5)));
//! let mut interp = Interp::new(Box::new(host), Limits::default());
//! let turn = interp.run_program("(def total (* (tool/rate) (reduce + data/prices)))");
//! assert!(turn.is_ok());
//! assert_eq!(interp.run_program("total").result.unwrap(), Value::Float(12.0));
//! // A failed program keeps memory as it was.
//! let failed = interp.run_program("(def total 0) (count 5)");
//! assert_eq!(failed.result.unwrap_err().kind(), ErrorKind::Type);
//! assert_eq!(interp.globals.lookup("total").unwrap().value, Value::Float(12.0));
//!
//! // A session: mission, data and tools; the prompt for the next turn.
//! let mut session = Session::builder("Find the cheapest product")
//!     .data_json("products", &serde_json::json!([{"name": "Pen", "price": 2}, {"name": "Ink", "price": 9}]))
//!     .tool_fn("notify", "(message :string) -> :nil", "Tells the user", |_| Ok(Value::Nil))
//!     .max_turns(4)
//!     .build()
//!     .unwrap();
//! let messages = render_messages(&session, ptc_lisp::session::View::of(&session));
//! assert_eq!(messages[0].role, Role::System);
//!
//! // The agent loop with any `agent::Llm` (here a scripted one).
//! let mut llm = ScriptedLlm::new([
//!     "```clojure\n(def cheapest (first (sort-by :price data/products)))\n```",
//!     "(tool/notify (:name cheapest))\n(return (:name cheapest))",
//! ]);
//! agent::run(&mut session, &mut llm, &mut |_: &Session, _: &ptc_lisp::session::Turn| {
//!     std::ops::ControlFlow::Continue(())
//! })
//! .unwrap();
//! assert_eq!(session.status(), &Status::Returned(Value::string("Pen")));
//!
//! // Values print as PTC-Lisp and serialize as lossless JSON …
//! let result = session.turns()[1].result.clone().unwrap();
//! assert_eq!(to_clojure(&result, None, None).0, "\"Pen\"");
//! assert_eq!(serde_json::to_string(&result).unwrap(), "\"Pen\"");
//! assert!(serde_json::to_string(&Value::keyword("a")).is_err()); // would read back as "a"
//! // … and a session serializes as `ptc replay --format json` prints it.
//! let json = serde_json::to_value(&session).unwrap();
//! assert_eq!(json["turns"][1]["program"], "(tool/notify (:name cheapest))\n(return (:name cheapest))");
//! ```

// Library code never panics on bad input: no unwrap/expect outside tests.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Every public item says what it is for.
#![warn(missing_docs)]

pub mod agent;
#[cfg(feature = "mimalloc")]
pub mod alloc;
pub(crate) mod analyze;
pub(crate) mod builtins;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub(crate) mod error;
pub(crate) mod eval;
pub(crate) mod format;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod oracle;
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
pub use eval::reference;
pub use eval::{
    CallAnswer, CallRequest, CannedTool, Definition, Globals, Host, Interp, Limits, StaticHost,
    ToolCall,
};
pub use format::{display, to_clojure};
pub use reader::read_value;
pub use run::Outcome;
pub use value::json::{from_json, to_json, to_json_within};
pub use value::Value;

/// The README's Rust example (section "Embedding"), compiled and run as a
/// doc test so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The embedding guide's Rust example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
struct EmbeddingGuideDoctests;
