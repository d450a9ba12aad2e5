//! A turn as the tool result the client gets: the feedback text (capped in
//! tokens) and `structuredContent` (`value`, `prints`, `error`,
//! `defined`), both bounded by the same cap.

use rmcp::model::{CallToolResult, ContentBlock as Content};
use serde_json::{json, Value as Json};

use super::client::Ran;
use crate::value::json::to_json_lossless;

/// Characters per token, as the renderer estimates (`ceil(chars / 4)`).
const CHARS_PER_TOKEN: usize = 4;

/// `text` cut to `max_tokens` tokens, with a note when cut.
pub fn cap_text(text: &str, max_tokens: usize) -> String {
    let limit = max_tokens.saturating_mul(CHARS_PER_TOKEN);
    let total = text.chars().count();
    if total <= limit {
        return text.to_string();
    }
    let mut out: String = text.chars().take(limit).collect();
    out.push_str(&format!(
        "\n... (output cut at {max_tokens} tokens, {} more characters: print or return less, e.g. (take 10 xs) or select-keys)",
        total - limit
    ));
    out
}

/// The tool result of one `run_ptc_lisp` call.
pub fn call_result(ran: &Ran, max_tokens: usize) -> CallToolResult {
    let fb = &ran.feedback;
    let text = cap_text(&fb.text, max_tokens);
    let error = fb.error.as_ref().map(|e| {
        json!({
            "kind": e.kind.name(),
            "message": e.message,
            "hint": e.hint,
            "line": ran.position.map(|p| p.0),
            "column": ran.position.map(|p| p.1),
        })
    });
    let limit = max_tokens.saturating_mul(CHARS_PER_TOKEN);
    let mut value = fb.value.as_ref().and_then(to_json_lossless);
    let mut omitted = None;
    if value.as_ref().is_some_and(|v| json_len(v) > limit) {
        value = None;
        omitted = Some("too large");
    }
    // The earliest prints go first when they do not fit with the rest.
    let mut prints: Vec<&String> = fb.prints.iter().collect();
    let mut used: usize = prints.iter().map(|p| p.len() + 3).sum();
    while used > limit && !prints.is_empty() {
        used -= prints.remove(0).len() + 3;
    }
    let mut structured = json!({
        "value": value.unwrap_or(Json::Null),
        "prints": prints,
        "error": error,
        "defined": ran.defined,
    });
    if let Some(why) = omitted {
        structured["value_omitted"] = json!(why);
    }
    let mut result = if fb.error.is_some() {
        CallToolResult::error(vec![Content::text(text)])
    } else {
        CallToolResult::success(vec![Content::text(text)])
    };
    result.structured_content = Some(structured);
    result
}

fn json_len(v: &Json) -> usize {
    serde_json::to_string(v)
        .map(|s| s.len())
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_note() {
        let text = "x".repeat(100);
        assert_eq!(cap_text(&text, 25), text);
        let cut = cap_text(&text, 10);
        assert!(cut.starts_with(&"x".repeat(40)));
        assert!(
            cut.contains("cut at 10 tokens, 60 more characters"),
            "{cut}"
        );
    }
}
