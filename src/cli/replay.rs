//! `ptc replay SESSION.json [--after N] [--view compressed|uncompressed|turns]
//! [--format text|json] [--stats] [LIMITS]`: runs a session file's turns
//! (all, or the first N) and prints the messages for the next turn
//! (`session.md` §Commands). Input problems exit 2 and name the file.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{input_error, LimitArgs};
use crate::render::Rendered;
use crate::session::json::ReplayJson;
use crate::session::messages::{render, turns_text, Stats, View};
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
    // With --stats, both views are rendered after every turn, to compare
    // what compression saves.
    let mut sizes = Vec::new();
    if args.stats {
        sizes.push(both_views(&session));
    }
    let mut ran = 0;
    for response in &file.turns[..n] {
        if session.run_turn(response).is_err() {
            break;
        }
        ran += 1;
        if args.stats {
            sizes.push(both_views(&session));
        }
    }
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
                println!("status: {}", status_line(&session));
            } else {
                print!("{}", messages_text(&rendered.messages));
            }
            if args.stats {
                print!("{}", stats_text(&session, &rendered.stats, &sizes));
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

/// Compressed and uncompressed renders of the session as it is now, with
/// exact token counts when available.
fn both_views(session: &Session) -> (Rendered, Rendered) {
    let mut c = render(session, View::Compressed);
    let mut u = render(session, View::Uncompressed);
    c.count_exact_tokens();
    u.count_exact_tokens();
    (c, u)
}

/// Tokens of a render: exact cl100k_base when counted, else chars/4 (`~`).
fn tokens(r: &Rendered) -> String {
    let exact: Option<usize> = r
        .stats
        .messages
        .iter()
        .map(|m| m.tokens.map(|t| t.cl100k_base))
        .sum();
    match exact {
        Some(n) => n.to_string(),
        None => format!("~{}", r.stats.tokens_estimate),
    }
}

fn stats_text(session: &Session, s: &Stats, sizes: &[(Rendered, Rendered)]) -> String {
    let ok = session.turns().iter().filter(|t| t.success).count();
    let mut out = format!(
        "\n--- stats ---\nstatus: {}\nturns: {} ({ok} ok, {} failed)\nview: {}\ntool calls: {} total, {} shown, {} dropped\nprintlns: {} total, {} shown, {} dropped ({} truncated)\nerror turns collapsed: {}\ncharacters: {}\nestimated tokens (chars/4): {}\n",
        status_line(session),
        s.turns_rendered,
        s.turns_rendered - ok,
        s.strategy,
        s.tool_calls_total,
        s.tool_calls_shown,
        s.tool_calls_dropped,
        s.printlns_total,
        s.printlns_shown,
        s.printlns_dropped,
        s.printlns_truncated,
        s.error_turns_collapsed,
        s.chars,
        s.tokens_estimate,
    );
    out.push_str("\nprompt tokens for the next turn (cl100k_base; ~ = chars/4):\nafter turn  compressed  uncompressed  saved\n");
    for (i, (c, u)) in sizes.iter().enumerate() {
        let saved = if u.stats.chars > 0 {
            format!(
                "{:.0}%",
                100.0 * (1.0 - c.stats.chars as f64 / u.stats.chars as f64)
            )
        } else {
            "-".into()
        };
        out.push_str(&format!(
            "{i:>10}  {:>10}  {:>12}  {saved:>5}\n",
            tokens(c),
            tokens(u)
        ));
    }
    out
}
