//! The messages of a prompt in each provider's wire shape, tool protocol
//! included — shared by the HTTP clients, `ptc replay --wire` and the
//! Python `Session.next_prompt(protocol=…)`.
//!
//! Rules:
//! * **OpenAI** Chat Completions: SYSTEM, USER and plain ASSISTANT messages
//!   are `{"role", "content"}`; an ASSISTANT program call (U-T1 of
//!   `render/uncompressed.rs`) is `{"role": "assistant", "content": PROSE
//!   or null, "tool_calls": [{"id", "type": "function", "function":
//!   {"name": "run_ptc_lisp", "arguments": "{\"program\": …}"}}]}`, and its
//!   answer `{"role": "tool", "tool_call_id", "content"}`. Tool protocol
//!   requests declare the one function and `tool_choice: "required"`.
//! * **Anthropic** Messages: SYSTEM messages go in `system` (joined by a
//!   blank line); with prompt caching on, `system` is one text block marked
//!   `cache_control: {"type": "ephemeral"}` — the cached prefix is the tool
//!   declaration and SYSTEM, identical for every turn. A program call is an
//!   assistant message with content blocks `[{"type": "text"} (only when
//!   there is prose), {"type": "tool_use", "id", "name", "input":
//!   {"program"}}]`; its answer a user message `[{"type": "tool_result",
//!   "tool_use_id", "content"}]`. Tool protocol requests declare the tool
//!   (`input_schema`) and `tool_choice: {"type": "tool", "name":
//!   "run_ptc_lisp"}`.
//! * Keys are written in a fixed order, the messages last, so consecutive
//!   requests of a session share their bytes up to the end of the first
//!   message that changes (the SYSTEM prompt and tool declaration first).

use serde_json::{json, Map, Value as Json};

use crate::render::{Message, Protocol, Role, PROGRAM_TOOL};
use crate::session::{program_tool_schema, PROGRAM_TOOL_DESCRIPTION};

/// The `{"program": …}` arguments of a program call.
fn program_args(program: &str) -> Json {
    json!({ "program": program })
}

/// OpenAI's `tools` list for `protocol` (`None` for text).
pub fn openai_tools(protocol: Protocol) -> Option<Json> {
    (protocol == Protocol::Tool).then(|| {
        json!([{
            "type": "function",
            "function": {
                "name": PROGRAM_TOOL,
                "description": PROGRAM_TOOL_DESCRIPTION,
                "parameters": program_tool_schema(),
            }
        }])
    })
}

/// The messages as OpenAI Chat Completions messages.
pub fn openai_messages(messages: &[Message]) -> Vec<Json> {
    messages.iter().map(openai_message).collect()
}

fn openai_message(m: &Message) -> Json {
    match (&m.role, &m.tool_call, &m.tool_call_id) {
        (Role::Assistant, Some(call), _) => json!({
            "role": "assistant",
            "content": if m.content.is_empty() { Json::Null } else { json!(m.content) },
            "tool_calls": [{
                "id": call.id,
                "type": "function",
                "function": {
                    "name": PROGRAM_TOOL,
                    "arguments": program_args(&call.program).to_string(),
                }
            }]
        }),
        (Role::Tool, _, id) => json!({
            "role": "tool",
            "tool_call_id": id.clone().unwrap_or_default(),
            "content": m.content,
        }),
        (role, _, _) => json!({"role": role.name(), "content": m.content}),
    }
}

/// Anthropic's `tools` list for `protocol` (`None` for text).
pub fn anthropic_tools(protocol: Protocol) -> Option<Json> {
    (protocol == Protocol::Tool).then(|| {
        json!([{
            "name": PROGRAM_TOOL,
            "description": PROGRAM_TOOL_DESCRIPTION,
            "input_schema": program_tool_schema(),
        }])
    })
}

/// Anthropic's `system` field: `None` without SYSTEM messages; a string,
/// or with `cache` one text block marked for caching.
pub fn anthropic_system(messages: &[Message], cache: bool) -> Option<Json> {
    let system: Vec<&str> = messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    if system.is_empty() {
        return None;
    }
    let text = system.join("\n\n");
    Some(if cache {
        json!([{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}])
    } else {
        json!(text)
    })
}

/// The non-SYSTEM messages as Anthropic Messages.
pub fn anthropic_messages(messages: &[Message]) -> Vec<Json> {
    messages
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| match (&m.role, &m.tool_call, &m.tool_call_id) {
            (Role::Assistant, Some(call), _) => {
                let mut blocks = Vec::new();
                if !m.content.trim().is_empty() {
                    blocks.push(json!({"type": "text", "text": m.content}));
                }
                blocks.push(json!({
                    "type": "tool_use",
                    "id": call.id,
                    "name": PROGRAM_TOOL,
                    "input": program_args(&call.program),
                }));
                json!({"role": "assistant", "content": blocks})
            }
            (Role::Tool, _, id) => json!({
                "role": "user",
                "content": [{
                    "type": "tool_result",
                    "tool_use_id": id.clone().unwrap_or_default(),
                    "content": m.content,
                }]
            }),
            (role, _, _) => json!({"role": role.name(), "content": m.content}),
        })
        .collect()
}

/// Sampling settings of a request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sampling {
    /// `temperature`, when set.
    pub temperature: Option<f64>,
    /// `max_tokens`, when set (Anthropic: required, see the client).
    pub max_tokens: Option<u64>,
}

/// A whole OpenAI request body.
pub fn openai_body(model: &str, messages: &[Message], protocol: Protocol, s: &Sampling) -> Json {
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    if let Some(t) = s.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(n) = s.max_tokens {
        body.insert("max_tokens".into(), json!(n));
    }
    if let Some(tools) = openai_tools(protocol) {
        body.insert("tools".into(), tools);
        body.insert("tool_choice".into(), json!("required"));
    }
    body.insert("messages".into(), json!(openai_messages(messages)));
    Json::Object(body)
}

/// A whole Anthropic request body (`max_tokens` given).
pub fn anthropic_body(
    model: &str,
    messages: &[Message],
    protocol: Protocol,
    s: &Sampling,
    max_tokens: u64,
    cache: bool,
) -> Json {
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert("max_tokens".into(), json!(max_tokens));
    if let Some(t) = s.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(tools) = anthropic_tools(protocol) {
        body.insert("tools".into(), tools);
        body.insert(
            "tool_choice".into(),
            json!({"type": "tool", "name": PROGRAM_TOOL}),
        );
    }
    if let Some(system) = anthropic_system(messages, cache) {
        body.insert("system".into(), system);
    }
    body.insert("messages".into(), json!(anthropic_messages(messages)));
    Json::Object(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history() -> Vec<Message> {
        vec![
            Message::system("SYS".into()),
            Message::user("mission".into()),
            Message::program_call(String::new(), "ptc_turn_1".into(), "(+ 1 2)".into()),
            Message::tool_result("ptc_turn_1".into(), "Result: 3".into()),
            Message::assistant("no code".into()),
            Message::user("Error: …".into()),
        ]
    }

    #[test]
    fn openai_pairs() {
        let m = openai_messages(&history());
        assert_eq!(m[2]["content"], Json::Null);
        assert_eq!(m[2]["tool_calls"][0]["id"], "ptc_turn_1");
        let args: Json = serde_json::from_str(
            m[2]["tool_calls"][0]["function"]["arguments"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(args["program"], "(+ 1 2)");
        assert_eq!(
            m[3],
            json!({"role": "tool", "tool_call_id": "ptc_turn_1", "content": "Result: 3"})
        );
        assert_eq!(m[4], json!({"role": "assistant", "content": "no code"}));
    }

    #[test]
    fn anthropic_pairs_and_cache() {
        let m = anthropic_messages(&history());
        assert_eq!(m.len(), 5);
        assert_eq!(m[1]["content"][0]["type"], "tool_use");
        assert_eq!(m[1]["content"][0]["input"]["program"], "(+ 1 2)");
        assert_eq!(m[2]["role"], "user");
        assert_eq!(m[2]["content"][0]["tool_use_id"], "ptc_turn_1");
        let sys = anthropic_system(&history(), true).unwrap();
        assert_eq!(sys[0]["cache_control"]["type"], "ephemeral");
        assert_eq!(anthropic_system(&history(), false).unwrap(), json!("SYS"));
        let body = anthropic_body(
            "m",
            &history(),
            Protocol::Tool,
            &Sampling::default(),
            10,
            true,
        );
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "model",
                "max_tokens",
                "tools",
                "tool_choice",
                "system",
                "messages"
            ]
        );
    }
}
