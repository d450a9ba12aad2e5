//! The uncompressed strategy: the full history as USER/ASSISTANT
//! pairs, no prelude, no collapsing; each turn's printed output capped as
//! the compressed view caps it (R-33's `println_limit` and
//! `print_char_limit`, per turn, saying what was left out), so one chatty
//! turn cannot overflow a context window. Also what single-shot
//! sessions (`max_turns == 1`, R-03) get, without a turn indicator.

use super::input::{RenderInput, TurnRecord};
use super::loops;
use super::options::RenderOptions;
use super::sections;
use super::stats::Stats;
use super::system::system_prompt;
use super::{Message, Rendered};

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
        Message::system(system_prompt()),
        Message::user(first.join("\n\n")),
    ];
    let (mut printlns_shown, mut printlns_truncated) = (0, 0);
    for (i, turn) in input.turns.iter().enumerate() {
        messages.push(Message::assistant(turn.raw_response.clone()));
        let (mut fb, output) = feedback(&input.turns, i, o);
        printlns_shown += output.shown;
        printlns_truncated += output.truncated;
        if i + 1 == input.turns.len() {
            if let Some(ind) = &indicator {
                fb.push_str("\n\n");
                fb.push_str(ind);
            }
        }
        messages.push(Message::user(fb));
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
