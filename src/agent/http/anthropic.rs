//! Anthropic Messages (`POST {base}/v1/messages`): the system messages go
//! in the `system` field (joined by a blank line), the others in
//! `messages`; `x-api-key` and `anthropic-version` headers; `max_tokens` is
//! required (4096 when not given). The response text is its `text` blocks,
//! joined; prompt caching marks the SYSTEM text (`agent/wire.rs`).

use serde_json::Value as Json;

use super::{count, parse_body, ClientConfig, Provider};
use crate::agent::{wire, LlmError, LlmErrorKind, LlmResponse, Usage};
use crate::session::{Message, Protocol, ReplyCall};

/// The API version sent in `anthropic-version`.
pub const API_VERSION: &str = "2023-06-01";

/// `max_tokens` when the config has none.
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

pub fn headers(key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut h = vec![("anthropic-version", API_VERSION.to_string())];
    if let Some(k) = key {
        h.push(("x-api-key", k.to_string()));
    }
    h
}

/// The request body (`agent/wire.rs`), `system` marked for caching when
/// `config.prompt_cache`.
pub fn request(config: &ClientConfig, messages: &[Message]) -> Json {
    wire::anthropic_body(
        &config.model,
        messages,
        config.protocol,
        &config.sampling(),
        config.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        config.prompt_cache,
    )
}

/// The response of a 2xx body: its `text` blocks joined and, under the
/// tool protocol, its `tool_use` blocks. A reply with neither is an empty
/// reply (a failed turn), not an error.
pub fn response(text: &str, model: &str, protocol: Protocol) -> Result<LlmResponse, LlmError> {
    let json = parse_body(Provider::Anthropic, text)?;
    let blocks = json
        .get("content")
        .and_then(Json::as_array)
        .ok_or_else(|| {
            LlmError::new(
                LlmErrorKind::BadResponse,
                "anthropic: the response has no content array",
            )
        })?;
    let texts: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Json::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Json::as_str))
        .collect();
    let calls = (protocol == Protocol::Tool).then(|| {
        blocks
            .iter()
            .filter(|b| b.get("type").and_then(Json::as_str) == Some("tool_use"))
            .map(|b| ReplyCall {
                name: b
                    .get("name")
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_string(),
                arguments: b.get("input").map(Json::to_string).unwrap_or_default(),
            })
            .collect()
    });
    let usage = json.get("usage").filter(|u| u.is_object());
    Ok(LlmResponse {
        text: texts.concat(),
        calls,
        usage: Usage {
            input_tokens: count(usage, "input_tokens"),
            output_tokens: count(usage, "output_tokens"),
            cached_input_tokens: count(usage, "cache_read_input_tokens"),
            cache_write_tokens: count(usage, "cache_creation_input_tokens"),
            input_includes_cached: false,
            provider: usage.cloned(),
        },
        model: json
            .get("model")
            .and_then(Json::as_str)
            .unwrap_or(model)
            .to_string(),
        finish_reason: json
            .get("stop_reason")
            .and_then(Json::as_str)
            .map(str::to_string),
        ..LlmResponse::default()
    })
}
