//! The single-user-coalesced strategy (`rendering.md` §3): `[SYSTEM, USER]`,
//! the USER message built from the sections of [`super::sections`] in the
//! order of R-12, joined by one blank line.

use super::budget::Shown;
use super::input::RenderInput;
use super::options::RenderOptions;
use super::sections;
use super::stats::Stats;
use super::system::system_prompt_for;
use super::{Message, Rendered};

pub fn render(input: &RenderInput, o: &RenderOptions, shown: Shown) -> Rendered {
    let printed = sections::any_output(&input.turns);
    let (calls, calls_shown) = sections::tool_calls(input, o);
    let output = if printed {
        sections::output(&input.turns, o)
    } else {
        sections::Output {
            text: None,
            shown: 0,
            truncated: 0,
        }
    };
    let last_result = if o.show_last_result {
        sections::last_result(input)
    } else {
        None
    };
    let repeated = if o.note_repeated_tool_calls && !input.turns.is_empty() {
        super::loops::repeated_calls_note(&input.turns, input.turns.len() - 1, o)
    } else {
        None
    };
    let parts = [
        sections::mission(&input.mission),
        sections::tools(&input.tools),
        sections::data(&input.data, o, shown.data_samples),
        sections::prelude(&input.memory, o, !printed && shown.user_samples),
        calls,
        repeated,
        output.text,
        last_result,
        sections::error_block(&input.turns, o.note_error_loops),
        sections::turn_indicator(input.max_turns, input.turns.len()),
    ];
    let user = parts.into_iter().flatten().collect::<Vec<_>>().join("\n\n");
    let messages = vec![
        Message::system(system_prompt_for(input.protocol)),
        Message::user(user),
    ];

    let failed = input.turns.iter().filter(|t| !t.success()).count();
    let last_failed = input.turns.last().is_some_and(|t| !t.success());
    // totals describe what this view could show; what failed turns
    // did is counted apart (never listed, unless `keep_failed_turn_calls`).
    let count = |failed: bool, f: fn(&super::input::TurnRecord) -> usize| -> usize {
        input
            .turns
            .iter()
            .filter(|t| t.success() != failed)
            .map(f)
            .sum()
    };
    let calls_ok = count(false, |t| t.tool_calls.len());
    let calls_failed = count(true, |t| t.tool_calls.len());
    let (tool_calls_total, tool_calls_in_failed_turns) = if o.keep_failed_turn_calls {
        (calls_ok + calls_failed, 0)
    } else {
        (calls_ok, calls_failed)
    };
    let printlns_total = count(false, |t| t.prints.len());
    let printlns_in_failed_turns = count(true, |t| t.prints.len());
    let mut stats = Stats {
        strategy: super::Strategy::SingleUserCoalesced.name().to_string(),
        turns_rendered: input.turns.len(),
        tool_calls_total,
        tool_calls_shown: calls_shown,
        tool_calls_dropped: tool_calls_total - calls_shown,
        tool_calls_in_failed_turns,
        printlns_total,
        printlns_shown: output.shown,
        printlns_dropped: printlns_total - output.shown,
        printlns_in_failed_turns,
        printlns_truncated: output.truncated,
        error_turns_collapsed: failed - usize::from(last_failed),
        ..Stats::default()
    };
    stats.measure(&messages);
    Rendered { messages, stats }
}
