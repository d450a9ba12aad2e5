//! OpenAI-compatible Chat Completions (`POST {base}/chat/completions`):
//! OpenAI, OpenRouter, vLLM, llama.cpp's server, Ollama, LM Studio. The
//! request carries the messages as they are (system message included);
//! the answer's `choices[0].message.content` is the response text.

use serde_json::Value as Json;

use super::{count, parse_body, ClientConfig, Provider};
use crate::agent::{wire, LlmError, LlmErrorKind, LlmResponse, Usage};
use crate::session::{Message, Protocol, ReplyCall};

/// `Authorization: Bearer KEY` when there is a key.
pub fn headers(key: Option<&str>) -> Vec<(&'static str, String)> {
    key.map(|k| vec![("authorization", format!("Bearer {k}"))])
        .unwrap_or_default()
}

/// The request body (`agent/wire.rs`). `max_tokens` is sent as
/// `max_tokens`, which every compatible server reads.
pub fn request(config: &ClientConfig, messages: &[Message]) -> Json {
    wire::openai_body(&config.model, messages, config.protocol, &config.sampling())
}

/// The response of a 2xx body: `content` (may be null or absent) and,
/// under the tool protocol, `tool_calls` (every one, whatever its name).
/// A reply with neither is an empty reply (a failed turn), not an error.
pub fn response(text: &str, model: &str, protocol: Protocol) -> Result<LlmResponse, LlmError> {
    let json = parse_body(Provider::OpenAi, text)?;
    let choice = json.pointer("/choices/0");
    let message = choice.and_then(|c| c.get("message")).ok_or_else(|| {
        LlmError::new(
            LlmErrorKind::BadResponse,
            "openai: the response has no choices[0].message",
        )
    })?;
    let content = message
        .get("content")
        .and_then(Json::as_str)
        .unwrap_or_default();
    let calls = (protocol == Protocol::Tool).then(|| {
        message
            .get("tool_calls")
            .and_then(Json::as_array)
            .map(|calls| {
                calls
                    .iter()
                    .map(|c| ReplyCall {
                        name: c
                            .pointer("/function/name")
                            .and_then(Json::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        arguments: match c.pointer("/function/arguments") {
                            Some(Json::String(s)) => s.clone(),
                            Some(other) => other.to_string(),
                            None => String::new(),
                        },
                    })
                    .collect()
            })
            .unwrap_or_default()
    });
    let usage = json.get("usage").filter(|u| u.is_object());
    Ok(LlmResponse {
        text: content.to_string(),
        calls,
        usage: Usage {
            input_tokens: count(usage, "prompt_tokens"),
            output_tokens: count(usage, "completion_tokens"),
            cached_input_tokens: usage
                .and_then(|u| u.pointer("/prompt_tokens_details/cached_tokens"))
                .and_then(Json::as_u64),
            cache_write_tokens: None,
            input_includes_cached: true,
            provider: usage.cloned(),
        },
        model: json
            .get("model")
            .and_then(Json::as_str)
            .unwrap_or(model)
            .to_string(),
        finish_reason: choice
            .and_then(|c| c.get("finish_reason"))
            .and_then(Json::as_str)
            .map(str::to_string),
        ..LlmResponse::default()
    })
}
