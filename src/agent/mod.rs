//! The agent loop: a session driven by an LLM (`ptc agent`, `ptc eval`).
//!
//! [`Llm`] is the one thing a model client implements: messages in; the
//! response text, token usage, model name, finish reason and latency out
//! ([`LlmResponse`]), or a typed [`LlmError`]. [`run`] drives a
//! [`Session`](crate::session::Session): next prompt → LLM →
//! [`run_llm_turn`](crate::session::Session::run_llm_turn) → … until the
//! session returns, fails or runs out of turns; an [`Observer`] sees every
//! turn as it ends and may stop the run. [`ScriptedLlm`] answers from a
//! list (tests, examples); [`eval`] runs a mission many times per view and
//! summarizes. With the `agent` feature, [`http`] has the provider clients
//! (OpenAI-compatible Chat Completions, Anthropic Messages) over blocking
//! HTTP, and [`save`] writes session files atomically.
//!
//! ```
//! use ptc_lisp::agent::{self, RunEnd, ScriptedLlm};
//! use ptc_lisp::session::{Session, Status};
//! use ptc_lisp::Value;
//!
//! let mut session = Session::builder("Add the numbers")
//!     .data_json("nums", &serde_json::json!([1, 2, 3]))
//!     .build()
//!     .unwrap();
//! let mut llm = ScriptedLlm::new(["(def total (reduce + data/nums))", "(return total)"]);
//! let mut seen = Vec::new();
//! let end = agent::run(&mut session, &mut llm, &mut |_: &_, turn: &_| {
//!     seen.push(agent::turn_line(turn));
//!     std::ops::ControlFlow::Continue(())
//! })
//! .unwrap();
//! assert_eq!(end, RunEnd::Ended);
//! assert_eq!(session.status(), &Status::Returned(Value::Int(6)));
//! assert_eq!(seen.len(), 2);
//! // The model saw the prompts the session recorded.
//! assert_eq!(llm.requests()[1], session.prompts()[1]);
//! ```

pub mod cost;
mod error;
pub mod eval;
#[cfg(feature = "agent")]
pub mod http;
mod runner;
#[cfg(feature = "agent")]
pub mod save;
mod scripted;
mod start;
#[cfg(test)]
mod tests;
pub mod wire;

use std::time::Duration;

pub use crate::session::{LlmInfo, Protocol, Reply, ReplyCall, Usage};
pub use cost::Prices;
pub use error::{LlmError, LlmErrorKind};
pub use runner::{escape_controls, run, run_with_stop, turn_line, AgentError, Observer, RunEnd};
pub use scripted::ScriptedLlm;
pub use start::{session_from_file, Overrides};

use crate::session::Message;

/// One answer of a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LlmResponse {
    /// The response text (prose and code), as the model wrote it.
    pub text: String,
    /// Under the tool protocol, the function calls of the reply (maybe
    /// none); `None` for a text-protocol request.
    pub calls: Option<Vec<ReplyCall>>,
    /// Tokens the provider counted for the request and the response.
    pub usage: Usage,
    /// The model that answered (the provider's name for it).
    pub model: String,
    /// Why the model stopped (`stop`, `length` …), as the provider says it.
    pub finish_reason: Option<String>,
    /// Request to whole response, retries and their waits included.
    pub latency: Duration,
    /// What the response cost in US dollars, when the client has prices.
    pub cost_usd: Option<f64>,
}

impl LlmResponse {
    /// What a turn records about this response.
    pub fn info(&self) -> LlmInfo {
        LlmInfo {
            model: self.model.clone(),
            usage: self.usage.clone(),
            latency_ms: u64::try_from(self.latency.as_millis()).unwrap_or(u64::MAX),
            finish_reason: self.finish_reason.clone(),
            cost_usd: self.cost_usd,
        }
    }

    /// The reply the session runs.
    pub fn reply(&self) -> Reply {
        Reply {
            text: self.text.clone(),
            calls: self.calls.clone(),
        }
    }
}

/// A chat model: the rendered messages of the next turn in, one response
/// out. Implement it to plug in any client.
pub trait Llm {
    /// Sends `messages` (SYSTEM first) and returns the model's answer, or
    /// why there is none (after any retries the client makes).
    fn complete(&mut self, messages: &[Message]) -> Result<LlmResponse, LlmError>;
}

impl<L: Llm + ?Sized> Llm for &mut L {
    fn complete(&mut self, messages: &[Message]) -> Result<LlmResponse, LlmError> {
        (**self).complete(messages)
    }
}

impl<L: Llm + ?Sized> Llm for Box<L> {
    fn complete(&mut self, messages: &[Message]) -> Result<LlmResponse, LlmError> {
        (**self).complete(messages)
    }
}
