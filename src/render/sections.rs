//! The sections of the compressed USER message (`rendering.md` §4, §5), each
//! a function from the input to its text (`None` = section left out).

use super::input::{MemoryEntry, MemoryView, RenderInput, ToolInfo, TurnRecord};
use super::layout::{entry, quoted_doc, returned_label, sample, type_label};
use super::options::RenderOptions;
use crate::format::to_clojure;
use crate::value::Value;

/// The mission, verbatim but for trailing newlines (R-13); `None` if empty.
pub fn mission(text: &str) -> Option<String> {
    let m = text.trim_end_matches(['\n', '\r']);
    (!m.is_empty()).then(|| m.to_string())
}

/// `;; === tool/ ===` with one entry per tool, sorted by name (R-21).
pub fn tools(tools: &[ToolInfo]) -> Option<String> {
    if tools.is_empty() {
        return None;
    }
    let mut sorted: Vec<&ToolInfo> = tools.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = String::from(";; === tool/ ===");
    for t in sorted {
        out.push('\n');
        out.push_str(&tool_line(t));
    }
    Some(out)
}

fn tool_line(t: &ToolInfo) -> String {
    let mut name_part = format!("(tool/{}", t.name);
    for (p, _) in &t.params {
        name_part.push(' ');
        name_part.push_str(p);
    }
    name_part.push(')');
    let params = t
        .params
        .iter()
        .map(|(p, ty)| format!("{p}:{ty}"))
        .collect::<Vec<_>>()
        .join(", ");
    let returns = if t.returns.trim().is_empty() {
        "any"
    } else {
        t.returns.as_str()
    };
    let mut comment = if params.is_empty() {
        format!("-> {returns}")
    } else {
        format!("{params} -> {returns}")
    };
    if let Some(doc) = quoted_doc(t.description.as_deref()) {
        comment.push_str(", ");
        comment.push_str(&doc);
    }
    // R-21a: what a tool does to the world, after its description.
    if t.writes {
        comment.push_str(", writes");
    }
    if t.approval {
        comment.push_str(", asks approval");
    }
    entry(&name_part, &comment)
}

/// `;; === data/ ===` with one entry per value, sorted by name; names
/// starting with `_` are hidden (R-22, R-23); without `samples` (the token
/// budget's last step) just the types.
pub fn data(data: &[(String, Value)], o: &RenderOptions, samples: bool) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let mut sorted: Vec<&(String, Value)> = data.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::from(";; === data/ ===");
    for (name, v) in sorted {
        let label = type_label(v);
        let comment = if name.starts_with('_') {
            format!("{label}, [hidden]")
        } else {
            match samples
                .then(|| sample(v, o.sample_limit, o.sample_printable_limit))
                .flatten()
            {
                Some(s) => format!("{label}, sample: {s}"),
                None => label,
            }
        };
        out.push('\n');
        out.push_str(&entry(&format!("data/{name}"), &comment));
    }
    Some(out)
}

/// `;; === user/ (your prelude) ===`: functions first, then values, each in
/// order of first definition (R-24); `samples` is false when output is shown
/// instead (R-40).
pub fn prelude(memory: &MemoryView, o: &RenderOptions, samples: bool) -> Option<String> {
    if memory.is_empty() {
        return None;
    }
    let mut out = String::from(";; === user/ (your prelude) ===");
    let (fns, values): (Vec<&MemoryEntry>, Vec<&MemoryEntry>) =
        memory.entries.iter().partition(|e| e.function.is_some());
    for e in fns {
        out.push('\n');
        out.push_str(&function_line(e));
    }
    for e in values {
        out.push('\n');
        out.push_str(&value_line(e, o, samples));
    }
    Some(out)
}

/// The four shapes of R-25.
fn function_line(e: &MemoryEntry) -> String {
    let params = e
        .function
        .as_ref()
        .map(|f| f.params.as_str())
        .unwrap_or("[]");
    let name_part = format!("({} {})", e.name, params);
    let doc = quoted_doc(e.doc.as_deref());
    let ret = e
        .function
        .as_ref()
        .and_then(|f| f.last_return.as_ref())
        .map(|r| format!("-> {}", returned_label(r)));
    match (doc, ret) {
        (Some(d), Some(r)) => entry(&name_part, &format!("{d} {r}")),
        (Some(d), None) => entry(&name_part, &d),
        (None, Some(r)) => entry(&name_part, &r),
        (None, None) => name_part,
    }
}

/// `NAME ; = TYPE[, sample: S][, "DOC"]` (R-27).
fn value_line(e: &MemoryEntry, o: &RenderOptions, samples: bool) -> String {
    let mut comment = format!("= {}", type_label(&e.value));
    if e.hidden {
        comment.push_str(", [hidden]");
    } else if samples {
        if let Some(s) = sample(&e.value, o.sample_limit, o.sample_printable_limit) {
            comment.push_str(", sample: ");
            comment.push_str(&s);
        }
    }
    if let Some(d) = quoted_doc(e.doc.as_deref()) {
        comment.push_str(", ");
        comment.push_str(&d);
    }
    entry(&e.name, &comment)
}

/// The tool calls the compressed view lists, oldest first, before the
/// FIFO cut: those of successful turns, and of failed ones when
/// `keep_failed_turn_calls` is set.
pub fn eligible_calls<'a>(
    turns: &'a [TurnRecord],
    o: &RenderOptions,
) -> Vec<(&'a TurnRecord, &'a super::input::ToolCall)> {
    turns
        .iter()
        .filter(|t| t.success() || o.keep_failed_turn_calls)
        .flat_map(|t| t.tool_calls.iter().map(move |c| (t, c)))
        .collect()
}

/// `;; Tool calls made:` with the most recent `tool_call_limit` calls, or
/// `;; No tool calls made` when tools exist but none was called (R-30…R-32).
/// Returns the text and how many calls it lists.
pub fn tool_calls(input: &RenderInput, o: &RenderOptions) -> (Option<String>, usize) {
    let calls = eligible_calls(&input.turns, o);
    if calls.is_empty() {
        let text = (!input.tools.is_empty()).then(|| ";; No tool calls made".to_string());
        return (text, 0);
    }
    let shown = &calls[calls.len().saturating_sub(o.tool_call_limit)..];
    if shown.is_empty() {
        return (None, 0);
    }
    let mut out = String::from(";; Tool calls made:");
    for (turn, call) in shown {
        let args = call
            .args
            .iter()
            .map(|a| print_arg(a, o))
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!("\n;   {}({})", call.name, args));
        if o.show_tool_results {
            match &call.result {
                Ok(v) => out.push_str(&format!(" -> {}", print_arg(v, o))),
                Err(msg) => {
                    out.push_str(&format!(" -> error: {}", cut(msg, o.args_printable_limit)))
                }
            }
        }
        if !turn.success() {
            out.push_str(&format!(" (turn {} failed)", turn.number));
        }
    }
    (Some(out), shown.len())
}

fn print_arg(v: &Value, o: &RenderOptions) -> String {
    to_clojure(v, Some(o.args_limit), Some(o.args_printable_limit)).0
}

/// The first `n` characters of one line of `s`, with `...` when cut.
fn cut(s: &str, n: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= n {
        flat
    } else {
        let mut out: String = flat.chars().take(n).collect();
        out.push_str("...");
        out
    }
}

/// What the Output section shows.
pub struct Output {
    pub text: Option<String>,
    pub shown: usize,
    pub truncated: usize,
}

/// `;; Output:` with the most recent `println_limit` entries of successful
/// turns, each cut at `print_char_limit` characters (R-33).
pub fn output(turns: &[TurnRecord], o: &RenderOptions) -> Output {
    let prints: Vec<&String> = turns
        .iter()
        .filter(|t| t.success())
        .flat_map(|t| t.prints.iter())
        .collect();
    capped_output(&prints, o, false)
}

/// `;; Output:` with the most recent `println_limit` of `prints`, each cut
/// at `print_char_limit` characters (R-33); with `note_dropped`, a line
/// saying how many earlier entries were left out (the uncompressed view,
/// R-80, where each turn's output stands alone).
pub fn capped_output(prints: &[&String], o: &RenderOptions, note_dropped: bool) -> Output {
    let dropped = prints.len().saturating_sub(o.println_limit);
    let shown = &prints[dropped..];
    if shown.is_empty() {
        return Output {
            text: None,
            shown: 0,
            truncated: 0,
        };
    }
    let mut out = String::from(";; Output:");
    if note_dropped && dropped > 0 {
        out.push_str(&format!(
            "\n... ({dropped} earlier println entr{} not shown)",
            if dropped == 1 { "y" } else { "ies" }
        ));
    }
    let mut truncated = 0;
    for p in shown {
        out.push('\n');
        let n = p.chars().count();
        if n > o.print_char_limit {
            truncated += 1;
            out.extend(p.chars().take(o.print_char_limit));
            out.push_str(&format!(
                "\n... ({} more characters)",
                n - o.print_char_limit
            ));
        } else {
            out.push_str(p);
        }
    }
    Output {
        text: Some(out),
        shown: shown.len(),
        truncated,
    }
}

/// Whether any successful turn printed anything (R-40).
pub fn any_output(turns: &[TurnRecord]) -> bool {
    turns.iter().any(|t| t.success() && !t.prints.is_empty())
}

/// `;; Last result: VALUE` for `show_last_result`: only after a successful
/// last turn whose value is not stored in user/ (not a var made by `def`,
/// not equal to a defined value) and not nil.
pub fn last_result(input: &RenderInput) -> Option<String> {
    let last = input.turns.last()?;
    let v = last.result.as_ref().ok()?;
    if matches!(v, Value::Var(_) | Value::Nil) || input.memory.entries.iter().any(|e| e.value == *v)
    {
        return None;
    }
    Some(format!(";; Last result: {}", result_text(v)))
}

/// A turn's value as `Result:` lines show it (R-80: limit 10, 500 characters).
pub fn result_text(v: &Value) -> String {
    to_clojure(v, Some(10), Some(500)).0
}

/// `Error: MESSAGE` and, when the error has one, `Hint: HINT` (R-50, R-80).
pub fn error_lines(e: &super::input::ErrorInfo) -> String {
    let mut out = format!("Error: {}", e.message);
    if let Some(h) = e.hint.as_deref().filter(|h| !h.trim().is_empty()) {
        out.push_str("\nHint: ");
        out.push_str(h);
    }
    out
}

/// The error block of R-50, when the last turn failed; with the note of
/// an error loop (`loops.rs`) when `note_loops` is set.
pub fn error_block(turns: &[TurnRecord], note_loops: bool) -> Option<String> {
    let last = turns.last()?;
    let err = last.result.as_ref().err()?;
    let mut lines = error_lines(err);
    if let Some(note) = note_loops
        .then(|| super::loops::error_loop_note(super::loops::error_streak(turns)))
        .flatten()
    {
        lines.push('\n');
        lines.push_str(&note);
    }
    let attempt = match &last.program {
        Some(program) => format!(
            "Your previous attempt:\n```clojure\n{}\n```",
            program.trim_end_matches('\n')
        ),
        None => format!(
            "Your previous response (no code was found in it) began:\n{}",
            quoted_reply(&last.raw_response)
        ),
    };
    Some(format!("---\n{attempt}\n\n{lines}\n---"))
}

/// Lines of a reply quoted in the error block when it held no program.
pub const QUOTED_REPLY_LINES: usize = 6;
/// Characters of each quoted line.
pub const QUOTED_LINE_CHARS: usize = 160;

/// A reply without a program, as quoted text (R-50): its first non-blank
/// lines, each after `> ` and cut to [`QUOTED_LINE_CHARS`], at most
/// [`QUOTED_REPLY_LINES`], then how many lines were left out. Never inside
/// a code fence: the reply's own fences would nest in ours.
pub fn quoted_reply(raw: &str) -> String {
    let lines: Vec<&str> = raw
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let mut out: Vec<String> = lines
        .iter()
        .take(QUOTED_REPLY_LINES)
        .map(|l| {
            if l.chars().count() > QUOTED_LINE_CHARS {
                let cut: String = l.chars().take(QUOTED_LINE_CHARS).collect();
                format!("> {cut}…")
            } else {
                format!("> {l}")
            }
        })
        .collect();
    if out.is_empty() {
        out.push("> (an empty response)".to_string());
    }
    if lines.len() > QUOTED_REPLY_LINES {
        let more = lines.len() - QUOTED_REPLY_LINES;
        out.push(format!(
            "> … ({more} more line{})",
            if more == 1 { "" } else { "s" }
        ));
    }
    out.join("\n")
}

/// The turn indicator of R-60: `None` once no turn is left.
pub fn turn_indicator(max_turns: usize, turns_done: usize) -> Option<String> {
    match max_turns.saturating_sub(turns_done) {
        0 => None,
        1 => Some("FINAL TURN - you must call (return result) or (fail reason) now.".into()),
        n => Some(format!("Turns left: {n}")),
    }
}
