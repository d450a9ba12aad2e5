//! The `turns` debugging view: every turn in full — raw response, program,
//! result or error, prints, tool calls with results, and what it changed in
//! user/ (a diff against the previous turn's snapshot; the first turn is
//! compared with an empty namespace). Not a prompt: nothing is dropped,
//! values print with the `Result:` limits (10 items, 500 characters).

use std::fmt::Write as _;

use super::input::{MemoryView, RenderInput, TurnRecord};
use super::layout::{sample, type_label};
use super::sections::{error_lines, result_text};

/// One block per turn, oldest first.
pub fn turns_view(input: &RenderInput) -> String {
    let mut out = String::new();
    let empty = MemoryView::default();
    let mut previous = &empty;
    for turn in &input.turns {
        if !out.is_empty() {
            out.push('\n');
        }
        write_turn(&mut out, turn, input.max_turns, previous);
        if let Some(m) = &turn.memory {
            previous = m;
        }
    }
    if out.is_empty() {
        out.push_str("(no turns yet)\n");
    }
    out
}

fn write_turn(out: &mut String, t: &TurnRecord, max_turns: usize, previous: &MemoryView) {
    let status = if t.success() { "ok" } else { "failed" };
    let _ = writeln!(
        out,
        "=== Turn {} of {}: {} ===",
        t.number, max_turns, status
    );
    section(out, "response", &t.raw_response);
    section(
        out,
        "program",
        t.program.as_deref().unwrap_or("(no program found)"),
    );
    if !t.notes.is_empty() {
        section(out, "notes", &t.notes.join("\n"));
    }
    match &t.result {
        Ok(v) => section(out, "result", &result_text(v)),
        Err(e) => section(
            out,
            "error",
            &format!(
                "[{}] {}",
                e.kind.name(),
                error_lines(e).trim_start_matches("Error: ")
            ),
        ),
    }
    if !t.prints.is_empty() {
        section(
            out,
            &format!("prints ({})", t.prints.len()),
            &t.prints.join("\n"),
        );
    }
    if !t.tool_calls.is_empty() {
        let lines: Vec<String> = t
            .tool_calls
            .iter()
            .map(|c| {
                let args: Vec<String> = c.args.iter().map(result_text).collect();
                let result = match &c.result {
                    Ok(v) => result_text(v),
                    Err(msg) => format!("error: {msg}"),
                };
                format!("{}({}) -> {}", c.name, args.join(" "), result)
            })
            .collect();
        section(
            out,
            &format!("tool calls ({})", lines.len()),
            &lines.join("\n"),
        );
    }
    if let Some(now) = &t.memory {
        section(out, "memory", &memory_diff(previous, now));
    }
}

fn section(out: &mut String, title: &str, body: &str) {
    let _ = writeln!(out, "--- {title} ---");
    out.push_str(body.trim_end_matches('\n'));
    out.push('\n');
}

/// `+ name = TYPE, sample: S` for new names, `~ …` for changed ones,
/// `- name` for removed ones; `(unchanged)` when nothing changed.
fn memory_diff(before: &MemoryView, after: &MemoryView) -> String {
    let mut lines = Vec::new();
    for e in &after.entries {
        let mark = match before.get(&e.name) {
            None => "+",
            Some(old) if old.value != e.value || old.doc != e.doc => "~",
            Some(_) => continue,
        };
        let mut line = format!("{mark} {} = {}", e.name, type_label(&e.value));
        if let Some(s) = sample(&e.value, 3, 80) {
            let _ = write!(line, ", sample: {s}");
        }
        lines.push(line);
    }
    for e in &before.entries {
        if after.get(&e.name).is_none() {
            lines.push(format!("- {}", e.name));
        }
    }
    if lines.is_empty() {
        "(unchanged)".into()
    } else {
        lines.join("\n")
    }
}
