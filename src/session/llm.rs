//! What the LLM reported about the response of one turn — model, token
//! usage, latency, finish reason — kept with the [`Turn`](super::Turn) and
//! in the session file's `llm` list (entry k describes `turns[k]`). Turns
//! run from plain text (`run_turn`, a session file without `llm`) have none.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// Token usage as the provider reports it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Prompt tokens (`prompt_tokens` / `input_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Completion tokens (`completion_tokens` / `output_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// The provider's own `usage` object, unchanged (cache counts …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<Json>,
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
}
