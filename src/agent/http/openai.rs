//! OpenAI-compatible Chat Completions (`POST {base}/chat/completions`):
//! OpenAI, OpenRouter, vLLM, llama.cpp's server, Ollama, LM Studio. The
//! request carries the messages as they are (system message included);
//! the answer's `choices[0].message.content` is the response text.

use serde_json::{json, Value as Json};

use super::{count, parse_body, ClientConfig, Provider};
use crate::agent::{LlmError, LlmErrorKind, LlmResponse, Usage};
use crate::session::Message;

/// `Authorization: Bearer KEY` when there is a key.
pub fn headers(key: Option<&str>) -> Vec<(&'static str, String)> {
    key.map(|k| vec![("authorization", format!("Bearer {k}"))])
        .unwrap_or_default()
}

/// The request body. `max_tokens` is sent as `max_tokens`, which every
/// compatible server reads.
pub fn request(config: &ClientConfig, messages: &[Message]) -> Json {
    let mut body = json!({
        "model": config.model,
        "messages": messages
            .iter()
            .map(|m| json!({"role": m.role.name(), "content": m.content}))
            .collect::<Vec<_>>(),
    });
    if let Some(t) = config.temperature {
        body["temperature"] = json!(t);
    }
    if let Some(n) = config.max_tokens {
        body["max_tokens"] = json!(n);
    }
    body
}

/// The response of a 2xx body.
pub fn response(text: &str, model: &str) -> Result<LlmResponse, LlmError> {
    let json = parse_body(Provider::OpenAi, text)?;
    let choice = json.pointer("/choices/0");
    let content = choice
        .and_then(|c| c.pointer("/message/content"))
        .and_then(Json::as_str)
        .ok_or_else(|| {
            LlmError::new(
                LlmErrorKind::BadResponse,
                "openai: the response has no choices[0].message.content text",
            )
        })?;
    let usage = json.get("usage").filter(|u| u.is_object());
    Ok(LlmResponse {
        text: content.to_string(),
        usage: Usage {
            input_tokens: count(usage, "prompt_tokens"),
            output_tokens: count(usage, "completion_tokens"),
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
        latency: Default::default(),
    })
}
