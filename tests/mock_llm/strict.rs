//! What a strict provider rejects in a request (the mock answers 400), and
//! the prompt-cache counts it reports.

use serde_json::Value as Json;

use super::Request;

/// Why a strict provider would reject this request body, if it would.
pub fn problem(path: &str, body: &str) -> Option<String> {
    let json: Json = serde_json::from_str(body).ok()?;
    if path.ends_with("/v1/messages") {
        anthropic(&json).err()
    } else {
        openai(&json).err()
    }
}

fn openai(json: &Json) -> Result<(), String> {
    let messages = json
        .get("messages")
        .and_then(Json::as_array)
        .ok_or("messages: required")?;
    if json.get("tool_choice").is_some() && json.get("tools").is_none() {
        return Err("tool_choice is only allowed when tools are specified".into());
    }
    let mut open: Vec<String> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Json::as_str).unwrap_or("");
        if role == "tool" {
            let id = m.get("tool_call_id").and_then(Json::as_str).unwrap_or("");
            match open.iter().position(|o| o == id) {
                Some(k) => {
                    open.remove(k);
                }
                None => {
                    return Err(format!(
                        "messages[{i}]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (no call {id:?})"
                    ))
                }
            }
            continue;
        }
        if !open.is_empty() {
            return Err(format!(
                "messages[{i}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing {open:?}"
            ));
        }
        match m.get("tool_calls").and_then(Json::as_array) {
            Some(calls) if role == "assistant" => {
                for c in calls {
                    let id = c.get("id").and_then(Json::as_str).unwrap_or("");
                    let args = c.pointer("/function/arguments").and_then(Json::as_str);
                    if id.is_empty() || args.is_none() {
                        return Err(format!(
                            "messages[{i}]: a tool call needs an id and string arguments"
                        ));
                    }
                    open.push(id.to_string());
                }
            }
            Some(_) => {
                return Err(format!(
                    "messages[{i}]: only assistant messages have tool_calls"
                ))
            }
            None => {
                if !m.get("content").is_some_and(Json::is_string) {
                    return Err(format!("messages[{i}]: content must be a string"));
                }
            }
        }
    }
    if !open.is_empty() {
        return Err(format!(
            "an assistant message with 'tool_calls' must be followed by tool messages; missing {open:?}"
        ));
    }
    Ok(())
}

fn anthropic(json: &Json) -> Result<(), String> {
    let messages = json
        .get("messages")
        .and_then(Json::as_array)
        .ok_or("messages: Field required")?;
    if json.get("tool_choice").is_some() && json.get("tools").is_none() {
        return Err("tool_choice may only be specified while providing tools".into());
    }
    let mut expected_role = "user";
    let mut pending: Vec<String> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Json::as_str).unwrap_or("");
        if role != expected_role {
            return Err(format!("messages.{i}: roles must alternate between \"user\" and \"assistant\" (expected {expected_role})"));
        }
        let blocks: Vec<Json> = match m.get("content") {
            Some(Json::String(s)) if s.trim().is_empty() => {
                return Err(format!(
                    "messages.{i}: text content blocks must be non-empty"
                ))
            }
            Some(Json::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
            Some(Json::Array(a)) if !a.is_empty() => a.clone(),
            _ => {
                return Err(format!(
                    "messages.{i}: content must be a non-empty string or list"
                ))
            }
        };
        let results: Vec<&str> = blocks
            .iter()
            .filter(|b| b["type"] == "tool_result")
            .map(|b| b["tool_use_id"].as_str().unwrap_or(""))
            .collect();
        if role == "user" {
            for id in &results {
                if !pending.iter().any(|p| p == id) {
                    return Err(format!("messages.{i}.content: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."));
                }
            }
            if let Some(missing) = pending.iter().find(|p| !results.contains(&p.as_str())) {
                return Err(format!("messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: {missing}. Each `tool_use` block must have a corresponding `tool_result` block in the next message."));
            }
            pending.clear();
        } else {
            if !results.is_empty() {
                return Err(format!(
                    "messages.{i}: tool_result blocks belong in user messages"
                ));
            }
            for b in &blocks {
                if b["type"] == "text" && b["text"].as_str().is_none_or(|t| t.trim().is_empty()) {
                    return Err(format!(
                        "messages.{i}: text content blocks must be non-empty"
                    ));
                }
                if b["type"] == "tool_use" {
                    if !b["input"].is_object() {
                        return Err(format!(
                            "messages.{i}: tool_use.input: Input should be a valid dictionary"
                        ));
                    }
                    pending.push(b["id"].as_str().unwrap_or("").to_string());
                }
            }
        }
        expected_role = if role == "user" { "assistant" } else { "user" };
    }
    if !pending.is_empty() {
        return Err(format!(
            "`tool_use` ids were found without `tool_result` blocks immediately after: {pending:?}"
        ));
    }
    Ok(())
}

/// (cache reads, cache writes) the provider reports for this request,
/// given the earlier ones.
pub fn cache_counts(path: &str, body: &str, earlier: &[Request]) -> (u64, u64) {
    if path.ends_with("/v1/messages") {
        let Ok(json) = serde_json::from_str::<Json>(body) else {
            return (0, 0);
        };
        let marked = json
            .get("system")
            .and_then(Json::as_array)
            .and_then(|a| a.last())
            .is_some_and(|b| b.get("cache_control").is_some());
        if !marked {
            return (0, 0);
        }
        let prefix = |j: &Json| format!("{}{}", j.get("tools").unwrap_or(&Json::Null), j["system"]);
        let mine = prefix(&json);
        let tokens = mine.len() as u64 / 4;
        let seen = earlier.iter().any(|r| {
            r.path == path
                && serde_json::from_str::<Json>(&r.body).is_ok_and(|j| prefix(&j) == mine)
        });
        if seen {
            (tokens, 0)
        } else {
            (0, tokens)
        }
    } else {
        // The longest start shared with any earlier request, as a
        // provider's prefix cache keeps every prompt it has seen: what a
        // request finds cached does not depend on which request of a
        // concurrent run came just before it.
        let shared = earlier
            .iter()
            .filter(|r| r.path == path)
            .map(|p| {
                p.body
                    .bytes()
                    .zip(body.bytes())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0);
        (shared as u64 / 4, 0)
    }
}
