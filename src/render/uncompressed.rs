//! The uncompressed strategy: the full history as USER/ASSISTANT
//! pairs, no prelude, no collapsing; each turn's printed output capped as
//! the compressed view caps it (R-33's `println_limit` and
//! `print_char_limit`, per turn, saying what was left out), so one chatty
//! turn cannot overflow a context window. Also what single-shot
//! sessions (`max_turns == 1`, R-03) get, without a turn indicator.
//!
//! # Tool protocol (`RenderInput::protocol` = `tool`): native pairs
//!
//! * **U-T1** A turn whose program came from the reply's one well-formed
//!   `run_ptc_lisp` call (`TurnRecord::called`) renders as an ASSISTANT
//!   message carrying that call ([`Message::tool_call`]: id `ptc_turn_N`
//!   for turn N, the program as its `program` argument, the reply's prose
//!   as its text, maybe empty) followed by a [`Role::Tool`] message
//!   answering id `ptc_turn_N` whose text is the turn's feedback (the same
//!   `Result:`/`Error:`/notes/output text the text protocol puts in the USER
//!   message, turn indicator included). Provider clients write these as
//!   OpenAI's `tool_calls` + `role: "tool"` message and Anthropic's
//!   `tool_use` + `tool_result` blocks.
//! * **U-T2** Any other turn (no call, several calls, a bad call, a
//!   cut-off or empty reply) has no call to answer: it renders as in the
//!   text protocol, ASSISTANT text then USER feedback (whose error carries
//!   the protocol hint). So every call in the history has its result right
//!   after it, and no result lacks its call.
//! * **U-T3** An ASSISTANT message is never empty (both providers reject
//!   empty text): a reply without text, rendered as text (U-T2), is
//!   `(no text)`. This holds for the text protocol too.

use super::input::{RenderInput, TurnRecord};
use super::loops;
use super::options::RenderOptions;
use super::sections;
use super::stats::Stats;
use super::system::system_prompt_for;
use super::{Message, Protocol, Rendered};

/// What an empty reply renders as (U-T3).
pub const EMPTY_REPLY: &str = "(no text)";

/// The id of turn `n`'s program call (U-T1).
pub fn call_id(n: usize) -> String {
    format!("ptc_turn_{n}")
}

pub fn render(input: &RenderInput, o: &RenderOptions, single_shot: bool) -> Rendered {
    let indicator = if single_shot {
        None
    } else {
        sections::turn_indicator(input.max_turns, input.turns.len())
    };
    let mut first: Vec<String> = [
        sections::mission(&input.mission),
        sections::tools(&input.tools),
        sections::data(&input.data, o, true),
    ]
    .into_iter()
    .flatten()
    .collect();
    if input.turns.is_empty() {
        first.extend(indicator.clone());
    }
    let mut messages = vec![
        Message::system(system_prompt_for(input.protocol)),
        Message::user(first.join("\n\n")),
    ];
    let (mut printlns_shown, mut printlns_truncated) = (0, 0);
    for (i, turn) in input.turns.iter().enumerate() {
        let (mut fb, output) = feedback(&input.turns, i, o);
        printlns_shown += output.shown;
        printlns_truncated += output.truncated;
        if i + 1 == input.turns.len() {
            if let Some(ind) = &indicator {
                fb.push_str("\n\n");
                fb.push_str(ind);
            }
        }
        match (&turn.program, input.protocol) {
            (Some(program), Protocol::Tool) if turn.called => {
                let id = call_id(turn.number);
                messages.push(Message::program_call(
                    turn.raw_response.clone(),
                    id.clone(),
                    program.clone(),
                ));
                messages.push(Message::tool_result(id, fb));
            }
            _ => {
                let text = if turn.raw_response.trim().is_empty() {
                    EMPTY_REPLY.to_string()
                } else {
                    turn.raw_response.clone()
                };
                messages.push(Message::assistant(text));
                messages.push(Message::user(fb));
            }
        }
    }

    let tool_calls_total = input.turns.iter().map(|t| t.tool_calls.len()).sum();
    let printlns_total = input.turns.iter().map(|t| t.prints.len()).sum();
    let mut stats = Stats {
        strategy: super::Strategy::Uncompressed.name().to_string(),
        turns_rendered: input.turns.len(),
        tool_calls_total,
        tool_calls_shown: tool_calls_total,
        printlns_total,
        printlns_shown,
        printlns_dropped: printlns_total - printlns_shown,
        printlns_truncated,
        ..Stats::default()
    };
    stats.measure(&messages);
    Rendered { messages, stats }
}

/// `Result: VALUE` or `Error: MESSAGE` (with the error-loop note), the
/// repeated-tool-calls note, then a blank line and the turn's prints, capped
/// as the compressed view caps them (R-33: the last `println_limit`
/// entries, each cut at `print_char_limit` characters), saying what was cut.
fn feedback(turns: &[TurnRecord], i: usize, o: &RenderOptions) -> (String, sections::Output) {
    let turn = &turns[i];
    let mut out = match &turn.result {
        Ok(v) => format!("Result: {}", sections::result_text(v)),
        Err(e) => sections::error_lines(e),
    };
    if o.note_error_loops {
        if let Some(note) = loops::error_loop_note(loops::error_streak(&turns[..=i])) {
            out.push('\n');
            out.push_str(&note);
        }
    }
    if o.note_repeated_tool_calls {
        if let Some(note) = loops::repeated_calls_note(turns, i, o) {
            out.push_str("\n\n");
            out.push_str(&note);
        }
    }
    let prints: Vec<&String> = turn.prints.iter().collect();
    let output = sections::capped_output(&prints, o, true);
    if let Some(text) = &output.text {
        out.push_str("\n\n");
        out.push_str(text);
    }
    (out, output)
}
