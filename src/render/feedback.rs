//! What a front end that runs one program at a time shows for it (`ptc
//! mcp`): the feedback of one turn and the listing of the namespaces, in
//! the compressed view's text (`sections.rs`) and with its redaction of
//! hidden data (`redact.rs`, R-23).
//!
//! A turn's feedback is, in this order and each only when it has
//! something: the turn's tool calls (`;; Tool calls made:`, R-30's layout
//! with the session's `tool_call_limit`, `show_tool_results` and argument
//! limits; listed for failed turns too, marked `(turn N failed)`, since
//! what a tool did stays done), its prints (`;; Output:`, R-33's limits, with the uncompressed view's
//! line saying how many earlier entries were left out;
//! failed turns' prints too, as the uncompressed view shows them), then
//! `Result: VALUE` (R-80's limits) or `Error: MESSAGE`, `Hint: HINT` and,
//! when the error has a source position, `At: line L, column C` of the
//! program.
//!
//! The listing is the compressed view's `tool/`, `data/` (with samples)
//! and `user/ (your prelude)` sections (with samples), or
//! [`EMPTY_LISTING`] when all three are empty.

use super::input::{ErrorInfo, RenderInput};
use super::options::RenderOptions;
use super::{redact, sections};
use crate::value::Value;

/// The listing when there are no tools, data or definitions.
pub const EMPTY_LISTING: &str = ";; No tools, data or definitions yet.";

/// One turn's feedback, hidden data redacted in every part.
#[derive(Clone, Debug, PartialEq)]
pub struct Feedback {
    /// The text of the turn (see the module docs).
    pub text: String,
    /// The turn's value when it succeeded (hidden values replaced by
    /// `data/_NAME` or `[hidden]` symbols).
    pub value: Option<Value>,
    /// Every `println` of the turn, in order.
    pub prints: Vec<String>,
    /// The lines of the text's `;; Tool calls made:` section, each as the
    /// text shows it (without its `;   ` lead).
    pub tool_calls: Vec<String>,
    /// The value as the text's `Result:` prints it (R-80's limits), when
    /// the turn succeeded.
    pub result: Option<String>,
    /// The error when the turn failed.
    pub error: Option<ErrorInfo>,
}

/// The feedback of the last turn of `input` (`None` without turns);
/// `position` is the error's 1-based line and column in the program.
pub fn turn_feedback(
    input: &RenderInput,
    options: &RenderOptions,
    position: Option<(usize, usize)>,
) -> Option<Feedback> {
    let redacted = redact::redact_input(input);
    let turn = redacted.turns.last()?;
    let clean = |s: String| match &redacted {
        std::borrow::Cow::Owned(_) => redact::redact_text(input, s),
        std::borrow::Cow::Borrowed(_) => s,
    };
    let mut parts = Vec::new();
    let mut tool_calls = Vec::new();
    if !turn.tool_calls.is_empty() {
        let one = RenderInput {
            tools: redacted.tools.clone(),
            turns: vec![turn.clone()],
            ..RenderInput::default()
        };
        let o = RenderOptions {
            keep_failed_turn_calls: true,
            ..options.clone()
        };
        if let Some(section) = sections::tool_calls(&one, &o).0 {
            tool_calls = section
                .lines()
                .skip(1)
                .map(|l| clean(l.strip_prefix(";   ").unwrap_or(l).to_string()))
                .collect();
            parts.push(section);
        }
    }
    let prints: Vec<&String> = turn.prints.iter().collect();
    parts.extend(sections::capped_output(&prints, options, true).text);
    let mut result = None;
    match &turn.result {
        Ok(v) => {
            let printed = sections::result_text(v);
            parts.push(format!("Result: {printed}"));
            result = Some(clean(printed));
        }
        Err(e) => {
            let mut lines = sections::error_lines(e);
            if let Some((line, column)) = position {
                lines.push_str(&format!("\nAt: line {line}, column {column}"));
            }
            parts.push(lines);
        }
    }
    let error = turn.result.as_ref().err().map(|e| ErrorInfo {
        kind: e.kind,
        message: clean(e.message.clone()),
        hint: e.hint.clone().map(clean),
    });
    Some(Feedback {
        text: clean(parts.join("\n\n")),
        value: turn.result.as_ref().ok().cloned(),
        prints: turn.prints.iter().cloned().map(clean).collect(),
        tool_calls,
        result,
        error,
    })
}

/// The `tool/`, `data/` and `user/` sections of the compressed view for
/// `input` (see the module docs).
pub fn listing(input: &RenderInput, options: &RenderOptions) -> String {
    let redacted = redact::redact_input(input);
    let parts: Vec<String> = [
        sections::tools(&redacted.tools),
        sections::data(&redacted.data, options, true),
        sections::prelude(&redacted.memory, options, true),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return EMPTY_LISTING.to_string();
    }
    let text = parts.join("\n\n");
    match redacted {
        std::borrow::Cow::Owned(_) => redact::redact_text(input, text),
        std::borrow::Cow::Borrowed(_) => text,
    }
}
