//! What the LLM reported about the response of one turn — model, token
//! usage, latency, finish reason — kept with the [`Turn`](super::Turn) and
//! in the session file's `llm` list (entry k describes `turns[k]`). Turns
//! run from plain text (`run_turn`, a session file without `llm`) have none.
//!
//! Also the reply protocol ([`Protocol`]) and the function calls of a
//! tool-protocol reply ([`ReplyCall`], the session file's `calls` list).

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

pub use crate::render::{Protocol, PROGRAM_TOOL};

/// Token usage as the provider reports it.
///
/// `input_tokens` is the provider's own count: OpenAI's `prompt_tokens`
/// includes the cached tokens, Anthropic's `input_tokens` excludes both
/// cache reads and cache writes (see [`Usage::uncached_input_tokens`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Prompt tokens (`prompt_tokens` / `input_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Completion tokens (`completion_tokens` / `output_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Input tokens read from the provider's prompt cache (OpenAI
    /// `prompt_tokens_details.cached_tokens`, Anthropic
    /// `cache_read_input_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    /// Input tokens written to the prompt cache (Anthropic
    /// `cache_creation_input_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Whether `input_tokens` counts the cached tokens too (OpenAI: yes,
    /// Anthropic: no). Absent means no.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub input_includes_cached: bool,
    /// The provider's own `usage` object, unchanged (cache counts …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<Json>,
}

impl Usage {
    /// Input tokens billed at the plain input price: `input_tokens` less
    /// the cached ones when the provider counts them in.
    pub fn uncached_input_tokens(&self) -> Option<u64> {
        let input = self.input_tokens?;
        Some(if self.input_includes_cached {
            input
                .saturating_sub(self.cached_input_tokens.unwrap_or(0))
                .saturating_sub(self.cache_write_tokens.unwrap_or(0))
        } else {
            input
        })
    }

    /// Every input token of the request: cached, written and plain.
    pub fn total_input_tokens(&self) -> Option<u64> {
        let plain = self.uncached_input_tokens()?;
        Some(plain + self.cached_input_tokens.unwrap_or(0) + self.cache_write_tokens.unwrap_or(0))
    }
}

/// The LLM side of one turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmInfo {
    /// The model that answered, as the provider names it.
    pub model: String,
    /// Tokens the provider counted for the request and the response.
    #[serde(default)]
    pub usage: Usage,
    /// From sending the request to having the whole response, retries and
    /// their waits included.
    pub latency_ms: u64,
    /// `stop`, `length`, `end_turn`, `max_tokens` … as the provider says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// What the turn cost in US dollars, when prices were given
    /// (`--price-in`/`--price-out`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl LlmInfo {
    /// Whether the provider stopped the reply at the token limit
    /// (`length`, `max_tokens`).
    pub fn cut_off(&self) -> bool {
        matches!(
            self.finish_reason.as_deref(),
            Some("length" | "max_tokens" | "model_length")
        )
    }
}

/// The description of [`PROGRAM_TOOL`] sent with every tool-protocol
/// request.
pub const PROGRAM_TOOL_DESCRIPTION: &str =
    "Runs a PTC-Lisp program in the session and returns what it did (result or error, output).";

/// The JSON Schema of [`PROGRAM_TOOL`]'s parameters: `{program: string}`.
pub fn program_tool_schema() -> Json {
    serde_json::json!({
        "type": "object",
        "properties": {
            "program": {
                "type": "string",
                "description": "The whole PTC-Lisp program to run."
            }
        },
        "required": ["program"],
        "additionalProperties": false
    })
}

/// One function call in a tool-protocol reply, as the model sent it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplyCall {
    /// The function the model called (should be [`PROGRAM_TOOL`]).
    pub name: String,
    /// Its arguments as the JSON text the model wrote (OpenAI sends a
    /// string; Anthropic's `input` object is written as compact JSON).
    pub arguments: String,
}

/// A model's reply: its text and, under [`Protocol::Tool`], its function
/// calls (`None` under [`Protocol::Text`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The prose (and, under the text protocol, the code).
    pub text: String,
    /// The function calls, in order; `Some(vec![])` is a tool-protocol
    /// reply without any.
    pub calls: Option<Vec<ReplyCall>>,
}

impl Reply {
    /// A text-protocol reply.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            calls: None,
        }
    }

    /// A tool-protocol reply with one call of [`PROGRAM_TOOL`] holding
    /// `program`.
    pub fn program_call(prose: impl Into<String>, program: &str) -> Reply {
        Reply {
            text: prose.into(),
            calls: Some(vec![ReplyCall {
                name: PROGRAM_TOOL.into(),
                arguments: serde_json::json!({ "program": program }).to_string(),
            }]),
        }
    }
}
