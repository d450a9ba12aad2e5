//! Loop detection (seed 003's "error loops"): notes that tell the LLM it is
//! going round in circles.
//!
//! * **Error loops**: when the same error — same kind and same message —
//!   ended two or more turns in a row, the error block (and, uncompressed,
//!   that turn's feedback) says so and asks for a different approach.
//!   Only consecutive failed turns count: a success in between ends the
//!   streak, and so does a different error.
//! * **Repeated tool calls**: when a turn calls a tool with the same
//!   arguments as a call that already succeeded (earlier in that turn, or
//!   in an earlier turn the model can see the call of), the next message
//!   lists those calls and suggests keeping the first result with `def`.
//!   Arguments are compared as the prompt shows them (after hidden values
//!   are replaced, R-23). Decision (issue 27 item 11, amending R-52 to
//!   agree with ): a call in an earlier turn that *failed* does
//!   not count — that turn's definitions were rolled back and its calls are
//!   not listed under `;; Tool calls made`, so "keep a result with def"
//!   would point at nothing the model can see — unless
//!   `keep_failed_turn_calls` lists them.
//!
//! Both are options (`note_error_loops`, `note_repeated_tool_calls`),
//! on by default.

use super::input::{ToolCall, TurnRecord};
use super::options::RenderOptions;
use crate::format::to_clojure;

/// How many turns in a row, ending with `turns`' last one, failed with the
/// same error (kind and message) as the last; 0 when the last succeeded.
pub fn error_streak(turns: &[TurnRecord]) -> usize {
    let Some(Err(last)) = turns.last().map(|t| &t.result) else {
        return 0;
    };
    turns
        .iter()
        .rev()
        .take_while(|t| match &t.result {
            Err(e) => e.kind == last.kind && e.message == last.message,
            Ok(_) => false,
        })
        .count()
}

/// The note of an error loop, for a streak of 2 or more.
pub fn error_loop_note(streak: usize) -> Option<String> {
    (streak >= 2).then(|| {
        format!(
            "Note: this is the same error as in the previous turn{} ({streak} turns in a row). \
             Repeating the same approach will not fix it: try a different approach.",
            if streak > 2 { "s" } else { "" }
        )
    })
}

/// The calls of `turns[i]` that repeat, with the same arguments, a call
/// that already succeeded (earlier in that turn, or in an earlier turn
/// that succeeded — or any earlier turn with `keep_failed_turn_calls`).
pub fn repeated_calls<'a>(
    turns: &'a [TurnRecord],
    i: usize,
    o: &RenderOptions,
) -> Vec<&'a ToolCall> {
    let Some(turn) = turns.get(i) else {
        return Vec::new();
    };
    let earlier: Vec<&ToolCall> = turns[..i]
        .iter()
        .filter(|t| t.result.is_ok() || o.keep_failed_turn_calls)
        .flat_map(|t| t.tool_calls.iter())
        .filter(|c| c.result.is_ok())
        .collect();
    let mut out = Vec::new();
    for (k, call) in turn.tool_calls.iter().enumerate() {
        let same = |c: &&ToolCall| c.name == call.name && c.args == call.args;
        let before_in_turn = turn.tool_calls[..k]
            .iter()
            .filter(|c| c.result.is_ok())
            .any(|c| same(&c));
        let repeated = before_in_turn || earlier.iter().any(same);
        if repeated && !out.iter().any(same) {
            out.push(call);
        }
    }
    out
}

/// `;; Repeated tool calls ...` listing the repeated calls of `turns[i]`.
pub fn repeated_calls_note(turns: &[TurnRecord], i: usize, o: &RenderOptions) -> Option<String> {
    let calls = repeated_calls(turns, i, o);
    if calls.is_empty() {
        return None;
    }
    let mut out = String::from(
        ";; Repeated tool calls: these already succeeded with the same arguments; \
         keep a result with def and reuse it instead of calling again:",
    );
    for c in calls {
        let args = c
            .args
            .iter()
            .map(|a| to_clojure(a, Some(o.args_limit), Some(o.args_printable_limit)).0)
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!("\n;   {}({args})", c.name));
    }
    Some(out)
}
