//! What the client reads before it calls anything: the three tools (name,
//! description, input and output schemas), the prompt and the resource
//! holding the full SYSTEM prompt. Each tool description stays under
//! [`DESCRIPTION_LIMIT`] bytes (some clients cut descriptions there): the
//! compact language reference and, when it fits, the session's listing at
//! start (else a pointer to `ptc_state`).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::json;

/// Most bytes a tool description may have.
pub const DESCRIPTION_LIMIT: usize = 2048;

/// The prompt and resource names of the full SYSTEM prompt.
pub const PROMPT_NAME: &str = "ptc-lisp";
/// The resource URI of the full SYSTEM prompt.
pub const SYSTEM_URI: &str = "ptc://system-prompt";
/// The MIME type of that resource, in `resources/list` and
/// `resources/read` alike.
pub const SYSTEM_MIME: &str = "text/markdown";
/// The prompt's description, in `prompts/list` and `prompts/get` alike.
pub const PROMPT_DESCRIPTION: &str =
    "The full PTC-Lisp reference (ptc's SYSTEM prompt) and this session's namespaces";

/// The compact reference at the head of `run_ptc_lisp`'s description.
pub const REFERENCE: &str = "\
Run a PTC-Lisp program (a safe subset of Clojure) in your persistent session; returns its \
value, prints, tool calls, or the error with a hint and line/column.
- Definitions persist across calls: (def x ...), (defn f [a] ...). A failed call changes \
nothing (tool calls it made still happened). *1 *2 *3: the last values.
- data/NAME: read-only inputs. (tool/NAME args...): tools; their calls are listed back.
- Eager, one sequence type (vectors). (/ 10 2) is 5.0, use quot. Characters are 1-char strings.
- No atoms, eval, files, network, Java interop (except dates, string methods, Math/).
- str/ set/ walk/ work without require; (println ...) output is returned.
- Helpers: (where :k = v), sum-by, avg-by, min-by, max-by, pluck.
- Limits per call (time, steps, memory); output is capped.
Full reference: prompt 'ptc-lisp' or resource ptc://system-prompt. ptc_state lists \
namespaces; ptc_reset clears definitions.";

const STATE: &str = "\
List your session's namespaces: tool/ (signatures), data/ (types and samples; data/_x is \
hidden) and user/ (your definitions, with types and samples). Use it to re-orient in a long \
session instead of re-reading old results.";

const RESET: &str = "\
Clear every definition of your session (user/, *1 *2 *3); data/ and tool/ stay.";

/// `run_ptc_lisp`'s description: the reference, then the listing at start
/// when the whole stays under [`DESCRIPTION_LIMIT`].
pub fn run_description(listing: &str) -> String {
    let with = format!("{REFERENCE}\n\nAt start:\n{listing}");
    if with.len() <= DESCRIPTION_LIMIT {
        with
    } else {
        format!("{REFERENCE}\n\nThe tool/ and data/ listing is long: call ptc_state.")
    }
}

fn object(value: serde_json::Value) -> Arc<JsonObject> {
    match value {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The three tools, `listing` being the session's listing at start and
/// `writes` whether the session has tools that may change the world (run
/// by a command or an MCP server; canned answers do not): then
/// `run_ptc_lisp` is marked destructive.
pub fn tools(listing: &str, writes: bool) -> Vec<Tool> {
    let run_input = object(json!({
        "type": "object",
        "properties": {"program": {
            "type": "string",
            "description": "PTC-Lisp source: one or more top-level forms; the value of the last is returned"
        }},
        "required": ["program"],
        "additionalProperties": false
    }));
    let run_output = object(json!({
        "type": "object",
        "properties": {
            "result": {
                "type": ["string", "null"],
                "description": "the value printed in Clojure notation exactly as the text's Result: shows it (truncated the same way, with the same note); null when the call failed"
            },
            "value": {"description": "the value as JSON, present only when JSON holds it exactly and it fits the output cap"},
            "prints": {"type": "array", "items": {"type": "string"}, "description": "each println of the call, in order"},
            "tool_calls": {"type": "array", "items": {"type": "string"}, "description": "the tool calls the program made, as the text lists them"},
            "error": {
                "type": ["object", "null"],
                "properties": {
                    "kind": {"type": "string"},
                    "message": {"type": "string"},
                    "hint": {"type": ["string", "null"]},
                    "line": {"type": ["integer", "null"]},
                    "column": {"type": ["integer", "null"]}
                },
                "required": ["kind", "message", "hint", "line", "column"]
            },
            "defined": {"type": "array", "items": {"type": "string"}, "description": "the names this call defined"},
            "truncated": {"type": "string", "description": "the note of a cut answer"},
            "note": {"type": "string", "description": "a note on the session (its first answer)"}
        },
        "required": ["result", "prints", "tool_calls", "error", "defined"]
    }));
    let state_output = object(json!({
        "type": "object",
        "properties": {"listing": {"type": "string", "description": "the tool/, data/ and user/ namespaces, as the text shows them"}},
        "required": ["listing"]
    }));
    let empty = object(json!({"type": "object", "properties": {}, "additionalProperties": false}));
    vec![
        Tool::new("run_ptc_lisp", run_description(listing), run_input)
            .with_raw_output_schema(run_output)
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(writes)
                    .idempotent(false)
                    .open_world(writes),
            ),
        Tool::new("ptc_state", STATE, empty.clone())
            .with_raw_output_schema(state_output)
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(false),
            ),
        Tool::new("ptc_reset", RESET, empty).with_annotations(
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(true)
                .open_world(false),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_stay_under_the_limit() {
        let long = ";; x\n".repeat(1000);
        for listing in ["", ";; === data/ ===\ndata/x ; int, sample: 1", &long] {
            for t in tools(listing, false) {
                let d = t.description.unwrap_or_default();
                assert!(
                    d.len() <= DESCRIPTION_LIMIT,
                    "{} is {} bytes",
                    t.name,
                    d.len()
                );
            }
        }
        assert!(run_description(";; === data/ ===").contains("data/ ==="));
        assert!(run_description(&long).contains("call ptc_state"));
    }
}
