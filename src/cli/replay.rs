//! `ptc replay SESSION.json [--after N] [--view compressed|uncompressed|turns]
//! [--format text|json] [--stats] [LIMITS]`: runs a session file's turns
//! (all, or the first N) and prints the messages for the next turn
//! (`session.md` §Commands). Input problems exit 2 and name the file.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{input_error, LimitArgs};
use crate::session::json::{ReplayJson, ToolCallJson, TurnJson};
use crate::session::messages::{render, RenderStats, View};
use crate::session::{Session, SessionFile};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ViewArg {
    Compressed,
    Uncompressed,
    Turns,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
enum FormatArg {
    #[default]
    Text,
    Json,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The session file.
    file: PathBuf,
    /// Run only the first N turns.
    #[arg(long, value_name = "N")]
    after: Option<usize>,
    /// The view to print (default: the session's own, from `compression`).
    #[arg(long, value_enum)]
    view: Option<ViewArg>,
    /// Text for people, or one JSON object {messages, status, turns, stats}.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
    /// Also print render statistics (text format; JSON always has them).
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn replay(args: ReplayArgs) -> i32 {
    let path = &args.file;
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            return input_error(format!(
                "{}: cannot read the session file: {e}",
                path.display()
            ))
        }
    };
    let file = match SessionFile::parse(&text, path) {
        Ok(f) => f,
        Err(e) => return input_error(e),
    };
    let limits = args.limits.apply(file.limits.clone().unwrap_or_default());
    let mut session = match file.session(path, Some(&text), Some(limits)) {
        Ok(s) => s,
        Err(e) => return input_error(e),
    };
    let n = match args.after {
        Some(n) if n > file.turns.len() => {
            return input_error(format!(
                "{}: --after {n}, but the session file has {} turn{}",
                path.display(),
                file.turns.len(),
                if file.turns.len() == 1 { "" } else { "s" }
            ))
        }
        Some(n) => n,
        None => file.turns.len(),
    };
    let ran = session.replay(&file.turns[..n]);
    if ran < n {
        eprintln!(
            "ptc: note: {}: the session ended after turn {ran} ({}); turns {}..{n} were not run",
            path.display(),
            session.status(),
            ran + 1
        );
    }
    let view = match args.view {
        Some(ViewArg::Compressed) => View::Compressed,
        Some(ViewArg::Uncompressed) => View::Uncompressed,
        Some(ViewArg::Turns) => View::Turns,
        None => View::of(&session),
    };
    match args.format {
        FormatArg::Json => match serde_json::to_string_pretty(&ReplayJson::of(&session, view)) {
            Ok(s) => println!("{s}"),
            Err(e) => return input_error(format!("cannot write JSON: {e}")),
        },
        FormatArg::Text => {
            let rendered = render(&session, view);
            if view == View::Turns {
                print!("{}", turns_text(&session));
            } else {
                print!("{}", messages_text(&rendered.messages));
            }
            if args.stats {
                print!("{}", stats_text(&session, &rendered.stats));
            }
        }
    }
    0
}

fn messages_text(messages: &[crate::session::Message]) -> String {
    let mut out = String::new();
    for (i, m) in messages.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("[{}]\n", m.role.name().to_uppercase()));
        out.push_str(&m.content);
        if !m.content.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn status_line(session: &Session) -> String {
    let s = crate::session::json::StatusJson::of(session);
    let mut line = format!("{} after {} of {} turns", s.state, s.turns, s.max_turns);
    if let Some(v) = s.value {
        line.push_str(&format!(", value {v}"));
    }
    if let Some(r) = s.reason {
        line.push_str(&format!(", reason {r}"));
    }
    line
}

/// The turns, for people: program, output, tool calls, result or error.
fn turns_text(session: &Session) -> String {
    let mut out = String::new();
    for t in session.turns() {
        let j = TurnJson::of(t);
        out.push_str(&format!(
            "=== turn {} ({}) ===\n",
            j.number,
            if j.success { "ok" } else { "failed" }
        ));
        match &j.program {
            Some(p) => {
                out.push_str(p);
                out.push('\n');
            }
            None => {
                out.push_str("(no program; the response was:)\n");
                out.push_str(&t.raw_response);
                out.push('\n');
            }
        }
        if !j.prints.is_empty() {
            out.push_str("--- output ---\n");
            for p in &j.prints {
                out.push_str(p);
                out.push('\n');
            }
        }
        if !j.tool_calls.is_empty() {
            out.push_str("--- tool calls ---\n");
            for c in &j.tool_calls {
                out.push_str(&tool_call_line(c));
                out.push('\n');
            }
        }
        match (&j.result, &j.error) {
            (Some(r), _) => out.push_str(&format!("=> {r}\n")),
            (None, Some(e)) => {
                let at = match (e.line, e.column) {
                    (Some(l), Some(c)) => format!(" (line {l}, column {c})"),
                    _ => String::new(),
                };
                out.push_str(&format!("{}: {}{at}\n", e.kind, e.message));
                if let Some(h) = &e.hint {
                    out.push_str(&format!("hint: {h}\n"));
                }
            }
            (None, None) => {}
        }
        if !j.defined.is_empty() {
            out.push_str(&format!("defined: {}\n", j.defined.join(" ")));
        }
        out.push('\n');
    }
    out.push_str(&format!("status: {}\n", status_line(session)));
    out
}

fn tool_call_line(c: &ToolCallJson) -> String {
    match (&c.result, &c.error) {
        (Some(r), _) => format!("tool/{} {} => {r}", c.name, c.args),
        (None, Some(e)) => format!("tool/{} {} => error: {e}", c.name, c.args),
        (None, None) => format!("tool/{} {}", c.name, c.args),
    }
}

fn stats_text(session: &Session, s: &RenderStats) -> String {
    let ok = session.turns().iter().filter(|t| t.success).count();
    format!(
        "\n--- stats ---\nstatus: {}\nturns: {} ({ok} ok, {} failed)\ntool calls: {} total, {} shown, {} dropped\nprintlns: {} total, {} shown, {} dropped\nerror turns collapsed: {}\ncharacters: {}\nestimated tokens: {}\n",
        status_line(session),
        s.turns_rendered,
        s.turns_rendered - ok,
        s.tool_calls_total,
        s.tool_calls_shown,
        s.tool_calls_dropped,
        s.printlns_total,
        s.printlns_shown,
        s.printlns_dropped,
        s.error_turns_collapsed,
        s.characters,
        s.estimated_tokens
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" + "),
    )
}
