//! An MCP `tools/call` result as a PTC-Lisp value (rule MCP-5):
//!
//! * `isError: true` → the tool's error: its text items joined by newlines,
//!   cut at [`MAX_ERROR_CHARS`] characters;
//! * `structuredContent` → that value (JSON objects → maps with keyword
//!   keys, as `data/` values are);
//! * else one text item → its text parsed as JSON when it is JSON, else the
//!   text; several items → a vector of them (text items as strings);
//!   no items → `nil`;
//! * an image or audio item → `{:type "image", :mime-type "image/png",
//!   :size BYTES}`, an embedded resource → `{:type "resource", :uri …,
//!   :mime-type …, :size …}`, a resource link → `{:type "resource_link",
//!   :uri …, :name …, :mime-type …}`: never the bytes;
//! * a result whose JSON is over [`MAX_RESULT_BYTES`] is an error saying
//!   so (the session's heap limit applies to what is kept).

use serde_json::{json, Value as Json};

use crate::value::json::from_json;
use crate::value::Value;

/// Longest error text kept from a server, in characters.
pub const MAX_ERROR_CHARS: usize = 2000;

/// Largest result (as JSON) turned into a value.
pub const MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;

/// The value (or error text) of a `tools/call` result given as JSON.
pub fn to_value(result: &Json, size: usize) -> Result<Value, String> {
    if size > MAX_RESULT_BYTES {
        return Err(format!(
            "the result is {} bytes, over the {} MiB a tool result may have; ask for less (a page, a range, a filter)",
            size,
            MAX_RESULT_BYTES / (1024 * 1024)
        ));
    }
    let items: &[Json] = result
        .get("content")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if result.get("isError").and_then(Json::as_bool) == Some(true) {
        let text: Vec<&str> = items
            .iter()
            .filter_map(|i| i.get("text").and_then(Json::as_str))
            .collect();
        let text = if text.is_empty() {
            "the server reported an error without a message".to_string()
        } else {
            text.join("\n")
        };
        return Err(cap(&text, MAX_ERROR_CHARS));
    }
    if let Some(s) = result.get("structuredContent").filter(|s| !s.is_null()) {
        return Ok(from_json(s));
    }
    match items {
        [] => Ok(Value::Nil),
        [one] => match one.get("type").and_then(Json::as_str) {
            Some("text") => {
                let text = one.get("text").and_then(Json::as_str).unwrap_or("");
                Ok(match serde_json::from_str::<Json>(text) {
                    Ok(j) => from_json(&j),
                    _ => Value::string(text),
                })
            }
            _ => Ok(from_json(&describe(one))),
        },
        many => Ok(Value::vector_from(many.iter().map(
            |i| match i.get("type").and_then(Json::as_str) {
                Some("text") => Value::string(i.get("text").and_then(Json::as_str).unwrap_or("")),
                _ => from_json(&describe(i)),
            },
        ))),
    }
}

/// The small map standing for a non-text item.
fn describe(item: &Json) -> Json {
    let kind = item.get("type").and_then(Json::as_str).unwrap_or("unknown");
    let b64_size = |s: Option<&str>| s.map(|d| d.trim_end_matches('=').len() * 3 / 4);
    match kind {
        "image" | "audio" => json!({
            "type": kind,
            "mime-type": item.get("mimeType"),
            "size": b64_size(item.get("data").and_then(Json::as_str)),
        }),
        "resource" => {
            let r = item.get("resource").cloned().unwrap_or(Json::Null);
            let size = match (r.get("text"), r.get("blob")) {
                (Some(Json::String(t)), _) => Some(t.len()),
                (_, Some(Json::String(b))) => b64_size(Some(b)),
                _ => None,
            };
            json!({
                "type": "resource",
                "uri": r.get("uri"),
                "mime-type": r.get("mimeType"),
                "size": size,
            })
        }
        "resource_link" => json!({
            "type": "resource_link",
            "uri": item.get("uri"),
            "name": item.get("name"),
            "mime-type": item.get("mimeType"),
        }),
        other => json!({"type": other}),
    }
}

/// `text` cut to `max` characters, saying how much was cut.
pub fn cap(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept}… ({} more characters cut)", n - max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::to_clojure;

    fn show(j: Json) -> String {
        match to_value(&j, 0) {
            Ok(v) => to_clojure(&v, None, None).0,
            Err(e) => format!("ERR {e}"),
        }
    }

    #[test]
    fn the_shapes_of_results() {
        assert_eq!(
            show(
                json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {"a": [1]}})
            ),
            "{:a [1]}"
        );
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "{\"k\": true}"}]})),
            "{:k true}"
        );
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "hello world"}]})),
            "\"hello world\""
        );
        assert_eq!(
            show(
                json!({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]})
            ),
            "[\"a\" {:type \"image\" :mime-type \"image/png\" :size 3}]"
        );
        assert_eq!(show(json!({"content": []})), "nil");
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "no such file"}], "isError": true})),
            "ERR no such file"
        );
        let long = "e".repeat(5000);
        let e = show(json!({"content": [{"type": "text", "text": long}], "isError": true}));
        assert!(
            e.len() < 2100 && e.contains("3000 more characters cut"),
            "{e}"
        );
        assert!(to_value(&json!({}), MAX_RESULT_BYTES + 1)
            .unwrap_err()
            .contains("over the 8 MiB"));
    }
}
