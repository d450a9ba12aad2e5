//! Anthropic Messages (`POST {base}/v1/messages`): the system messages go
//! in the `system` field (joined by a blank line), the others in
//! `messages`; `x-api-key` and `anthropic-version` headers; `max_tokens` is
//! required (4096 when not given). The response text is its `text` blocks,
//! joined.

use serde_json::{json, Value as Json};

use super::{count, parse_body, ClientConfig, Provider};
use crate::agent::{LlmError, LlmErrorKind, LlmResponse, Usage};
use crate::session::{Message, Role};

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

pub fn request(config: &ClientConfig, messages: &[Message]) -> Json {
    let system: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let mut body = json!({
        "model": config.model,
        "max_tokens": config.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages
            .iter()
            .filter(|m| m.role != Role::System)
            .map(|m| json!({"role": m.role.name(), "content": m.content}))
            .collect::<Vec<_>>(),
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if let Some(t) = config.temperature {
        body["temperature"] = json!(t);
    }
    body
}

pub fn response(text: &str, model: &str) -> Result<LlmResponse, LlmError> {
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
    if texts.is_empty() {
        return Err(LlmError::new(
            LlmErrorKind::BadResponse,
            "anthropic: the response has no text block in content",
        ));
    }
    let usage = json.get("usage").filter(|u| u.is_object());
    Ok(LlmResponse {
        text: texts.concat(),
        usage: Usage {
            input_tokens: count(usage, "input_tokens"),
            output_tokens: count(usage, "output_tokens"),
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
        latency: Default::default(),
    })
}
