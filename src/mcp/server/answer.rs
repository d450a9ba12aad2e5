//! A turn as the tool result the client gets: the feedback text (capped in
//! tokens) and `structuredContent`, which stands on its own (hosts such as
//! Claude Code, Codex and pydantic-ai show their model only it): the
//! printed result exactly as the text has it, the prints, the tool calls,
//! the error with its hint and position, what the call defined, and the
//! value as JSON only as an addition when JSON holds it exactly. Both are
//! bounded by the same cap.

use rmcp::model::{CallToolResult, ContentBlock as Content};
use serde_json::{json, Value as Json};

use super::client::Ran;
use crate::value::json::to_json_lossless;

/// Characters per token, as the renderer estimates (`ceil(chars / 4)`).
const CHARS_PER_TOKEN: usize = 4;

/// The note of the first answer of an MCP session (SRV-3).
pub const FRESH_SESSION_NOTE: &str = "New MCP session: definitions persist only within this MCP \
     session (a client that opens a new session for each call starts empty each time).";

/// Where a text was cut: the characters kept and the note that follows.
struct Cut {
    kept: usize,
    note: String,
}

/// Where `text` is cut at `max_tokens` tokens, `None` when it fits.
fn cut_of(text: &str, max_tokens: usize) -> Option<Cut> {
    let limit = max_tokens.saturating_mul(CHARS_PER_TOKEN);
    let total = text.chars().count();
    (total > limit).then(|| Cut {
        kept: limit,
        note: format!(
            "... (output cut at {max_tokens} tokens, {} more characters: print or return less, e.g. (take 10 xs) or select-keys)",
            total - limit
        ),
    })
}

/// `text` cut to `max_tokens` tokens, with a note when cut.
pub fn cap_text(text: &str, max_tokens: usize) -> String {
    match cut_of(text, max_tokens) {
        None => text.to_string(),
        Some(cut) => {
            let mut out: String = text.chars().take(cut.kept).collect();
            out.push('\n');
            out.push_str(&cut.note);
            out
        }
    }
}

/// The tool result of one `run_ptc_lisp` call; `fresh`: the first call of
/// its MCP session, which carries [`FRESH_SESSION_NOTE`].
pub fn call_result(ran: &Ran, max_tokens: usize, fresh: bool) -> CallToolResult {
    let fb = &ran.feedback;
    let cut = cut_of(&fb.text, max_tokens);
    let mut text = cap_text(&fb.text, max_tokens);
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
    // The printed result as the text shows it: it ends the text, so a cut
    // of the text falls in it or before it.
    let result = fb.result.as_ref().and_then(|printed| {
        let Some(cut) = &cut else {
            return Some(printed.clone());
        };
        let start = fb
            .text
            .chars()
            .count()
            .saturating_sub(printed.chars().count());
        (cut.kept > start).then(|| {
            let mut kept: String = printed.chars().take(cut.kept - start).collect();
            kept.push('\n');
            kept.push_str(&cut.note);
            kept
        })
    });
    let value = match (&result, &cut) {
        (Some(_), None) => fb
            .value
            .as_ref()
            .and_then(to_json_lossless)
            .filter(|v| json_len(v) <= limit),
        _ => None,
    };
    // The earliest prints go first when they do not fit with the rest.
    let mut prints: Vec<&String> = fb.prints.iter().collect();
    let mut used: usize = prints.iter().map(|p| p.len() + 3).sum();
    while used > limit && !prints.is_empty() {
        used -= prints.remove(0).len() + 3;
    }
    // The tool calls as the text lists them; the earliest go first too.
    let mut calls: Vec<&String> = fb.tool_calls.iter().collect();
    let mut used: usize = calls.iter().map(|p| p.len() + 3).sum();
    while used > limit && !calls.is_empty() {
        used -= calls.remove(0).len() + 3;
    }
    let mut structured = json!({
        "result": result,
        "prints": prints,
        "tool_calls": calls,
        "error": error,
        "defined": ran.defined,
    });
    if let Some(v) = value {
        structured["value"] = v;
    }
    if let Some(cut) = &cut {
        structured["truncated"] = json!(cut.note);
    }
    if fresh {
        structured["note"] = json!(FRESH_SESSION_NOTE);
        text.push_str("\n\n;; Note: ");
        text.push_str(FRESH_SESSION_NOTE);
    }
    let mut result = if fb.error.is_some() {
        CallToolResult::error(vec![Content::text(text)])
    } else {
        CallToolResult::success(vec![Content::text(text)])
    };
    result.structured_content = Some(structured);
    result
}

/// The tool result of `ptc_state`: the listing, capped, as the text and as
/// `structuredContent.listing`.
pub fn state_result(listing: &str, max_tokens: usize) -> CallToolResult {
    let text = cap_text(listing, max_tokens);
    let mut result = CallToolResult::success(vec![Content::text(text.clone())]);
    result.structured_content = Some(json!({ "listing": text }));
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
