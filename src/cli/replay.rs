//! `ptc replay SESSION.json [--after N] [--view compressed|uncompressed|turns]
//! [--format text|json] [--stats] [--budget-tokens N] [--snapshot DIR | --check DIR] [LIMITS]`:
//! runs a session file's turns (all, or the first N) and prints the messages
//! for the next turn (`session.md` §Commands). Input problems exit 2 and
//! name the file.
//!
//! Prompt snapshots: `--snapshot DIR` writes what `--after k` prints, for
//! every k from 0 to the turns run, as `DIR/turn-KK.txt`; `--check DIR`
//! renders them again and exits 1 with a unified diff when any file
//! differs, is missing or is extra.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::{input_error, LimitArgs};
use crate::render::Rendered;
use crate::session::json::ReplayJson;
use crate::session::messages::{render, turns_text, Stats, View};
use crate::session::Session;

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
    /// Write the text printed after each turn (0, 1, … turns) to
    /// DIR/turn-00.txt, DIR/turn-01.txt …, in the view printed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["check", "stats", "format"])]
    snapshot: Option<PathBuf>,
    /// Render again and compare with the files --snapshot wrote (same
    /// --view); print a unified diff and exit 1 when any differs.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["stats", "format"])]
    check: Option<PathBuf>,
    /// Render as if the model handed over its programs this way (default:
    /// the file's "protocol"): `tool` shows the uncompressed history as
    /// native tool-call pairs.
    #[arg(long, value_enum)]
    protocol: Option<super::llm_args::ProtocolArg>,
    /// Print the request body (model and sampling left out) exactly as
    /// `ptc agent --provider P` sends it (JSON; not with --snapshot).
    #[arg(long, value_enum, conflicts_with_all = ["snapshot", "check", "stats", "format"])]
    wire: Option<super::llm_args::ProviderArg>,
    /// Fit the compressed view in N tokens (chars/4), degrading in the
    /// documented order (overrides the file's render.budget_tokens); exits
    /// 1 with a limit-error when even the minimum does not fit.
    #[arg(long, value_name = "N")]
    budget_tokens: Option<usize>,
    /// Run the tools again instead of answering recorded turns' tool calls
    /// from the file's recording ("tool_calls").
    #[arg(long)]
    live: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn replay(args: ReplayArgs) -> i32 {
    let path = &args.file;
    let tools = super::replay_tools(args.live);
    let (file, mut session) = match super::open_session(path, &args.limits, tools) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    session.set_budget_tokens(args.budget_tokens);
    if let Some(p) = args.protocol {
        session.set_protocol(p.protocol());
    }
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
    let view = match args.view {
        Some(ViewArg::Compressed) => View::Compressed,
        Some(ViewArg::Uncompressed) => View::Uncompressed,
        Some(ViewArg::Turns) => View::Turns,
        None => View::of(&session),
    };
    // With --stats, both views are rendered after every turn, to compare
    // what compression saves; with --snapshot/--check, the text after
    // every turn.
    let snapshots = args.snapshot.is_some() || args.check.is_some();
    let mut sizes = Vec::new();
    let mut points = Vec::new();
    let mut record = |session: &Session| {
        if args.stats {
            sizes.push(both_views(session));
        }
        if snapshots {
            points.push(text_now(session, view));
        }
    };
    record(&session);
    let mut ran = 0;
    for k in 0..n {
        match file.run_turn(&mut session, k, tools) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return input_error(format!("{}: {e}", path.display())),
        }
        ran += 1;
        record(&session);
    }
    if ran < n {
        eprintln!(
            "ptc: note: {}: the session ended after turn {ran} ({}); turns {}..{n} were not run",
            path.display(),
            session.status(),
            ran + 1
        );
    }
    if let Some(dir) = &args.snapshot {
        return write_snapshots(dir, &points);
    }
    if let Some(dir) = &args.check {
        return check_snapshots(dir, &points);
    }
    let over_budget = render(&session, view).budget_error();
    if let Some(provider) = args.wire {
        let messages = if view == View::of(&session) {
            session.next_prompt().to_vec()
        } else {
            render(&session, view).messages
        };
        let body = wire_body(provider, &session, &messages);
        match serde_json::to_string_pretty(&body) {
            Ok(s) => outln!("{s}"),
            Err(e) => return input_error(format!("cannot write JSON: {e}")),
        }
        return 0;
    }
    match args.format {
        // Streamed: the results' text is written as it is serialized,
        // never held twice.
        FormatArg::Json => {
            let json = ReplayJson::of(&session, view);
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::new(stdout.lock());
            let written = serde_json::to_writer_pretty(&mut w, &json)
                .map_err(std::io::Error::from)
                .and_then(|()| {
                    use std::io::Write as _;
                    w.write_all(b"\n")?;
                    w.flush()
                });
            if let Err(e) = written {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    return input_error(format!("cannot write JSON: {e}"));
                }
            }
        }
        FormatArg::Text => {
            out!("{}", text_now(&session, view));
            if args.stats {
                let rendered = render(&session, view);
                out!("{}", stats_text(&session, &rendered.stats, &sizes));
            }
        }
    }
    match over_budget {
        Some(e) => {
            eprintln!(
                "ptc: {}: {}: {}",
                path.display(),
                e.kind().name(),
                e.message()
            );
            if let Some(h) = e.hint() {
                eprintln!("hint: {h}");
            }
            1
        }
        None => 0,
    }
}

/// What the text format prints for the session as it is now (without
/// statistics). The session's own view is the prompt it stored.
fn text_now(session: &Session, view: View) -> String {
    if view == View::Turns {
        format!("{}status: {}\n", turns_text(session), status_line(session))
    } else if view == View::of(session) {
        messages_text(session.next_prompt())
    } else {
        messages_text(&render(session, view).messages)
    }
}

/// The body `ptc agent` sends for `messages` (`agent/wire.rs`), without
/// `model`, `max_tokens` and `temperature` (which the command line gives).
fn wire_body(
    provider: super::llm_args::ProviderArg,
    session: &Session,
    messages: &[crate::session::Message],
) -> serde_json::Value {
    use crate::agent::wire;
    let s = wire::Sampling::default();
    let mut body = match provider {
        super::llm_args::ProviderArg::Openai => {
            wire::openai_body("", messages, session.protocol(), &s)
        }
        super::llm_args::ProviderArg::Anthropic => {
            wire::anthropic_body("", messages, session.protocol(), &s, 0, true)
        }
    };
    if let Some(o) = body.as_object_mut() {
        o.shift_remove("model");
        o.shift_remove("max_tokens");
    }
    body
}

/// The snapshot file after `k` turns.
fn snapshot_name(k: usize) -> String {
    format!("turn-{k:02}.txt")
}

/// The snapshot files in `dir`, by turn number.
fn snapshot_files(dir: &Path) -> Result<BTreeMap<usize, String>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot read the snapshot directory: {e}", dir.display()))?;
    let mut out = BTreeMap::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let number = name
            .strip_prefix("turn-")
            .and_then(|r| r.strip_suffix(".txt"))
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<usize>().ok());
        if let Some(k) = number {
            out.insert(k, name);
        }
    }
    Ok(out)
}

/// `--snapshot DIR`: one file per point, stale `turn-KK.txt` files removed.
fn write_snapshots(dir: &Path, points: &[String]) -> i32 {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return input_error(format!(
            "{}: cannot create the snapshot directory: {e}",
            dir.display()
        ));
    }
    let existing = match snapshot_files(dir) {
        Ok(f) => f,
        Err(e) => return input_error(e),
    };
    for (k, name) in &existing {
        if *k >= points.len() || *name != snapshot_name(*k) {
            if let Err(e) = std::fs::remove_file(dir.join(name)) {
                return input_error(format!(
                    "{}: cannot remove a stale snapshot: {e}",
                    dir.join(name).display()
                ));
            }
        }
    }
    for (k, text) in points.iter().enumerate() {
        let path = dir.join(snapshot_name(k));
        if let Err(e) = std::fs::write(&path, text) {
            return input_error(format!("{}: cannot write: {e}", path.display()));
        }
    }
    outln!(
        "wrote {} snapshot file{} to {} ({} … {})",
        points.len(),
        if points.len() == 1 { "" } else { "s" },
        dir.display(),
        snapshot_name(0),
        snapshot_name(points.len().saturating_sub(1))
    );
    0
}

/// `--check DIR`: exit 0 when every file matches, 1 with a unified diff per
/// differing, missing or extra file, 2 when DIR holds no snapshots.
fn check_snapshots(dir: &Path, points: &[String]) -> i32 {
    if !dir.is_dir() {
        return input_error(format!(
            "{}: no such snapshot directory (write one with --snapshot {})",
            dir.display(),
            dir.display()
        ));
    }
    let existing = match snapshot_files(dir) {
        Ok(f) => f,
        Err(e) => return input_error(e),
    };
    if existing.is_empty() {
        return input_error(format!(
            "{}: no turn-KK.txt snapshot files here (write them with --snapshot {})",
            dir.display(),
            dir.display()
        ));
    }
    let numbers: BTreeSet<usize> = existing.keys().copied().chain(0..points.len()).collect();
    let mut diffs = String::new();
    let mut differ = 0;
    for k in &numbers {
        let name = existing
            .get(k)
            .cloned()
            .unwrap_or_else(|| snapshot_name(*k));
        let path = dir.join(&name);
        let old = match existing.get(k) {
            Some(_) => match std::fs::read_to_string(&path) {
                Ok(t) => Some(t),
                Err(e) => return input_error(format!("{}: cannot read: {e}", path.display())),
            },
            None => None,
        };
        let new = points.get(*k);
        if old.as_ref() == new {
            continue;
        }
        differ += 1;
        let a = match &old {
            Some(_) => format!("{} (snapshot)", path.display()),
            None => format!("{} (missing)", path.display()),
        };
        let b = match new {
            Some(_) => format!("{} (rendered now)", path.display()),
            None => format!(
                "{} (extra: only {} turn{} ran)",
                path.display(),
                points.len().saturating_sub(1),
                if points.len() == 2 { "" } else { "s" }
            ),
        };
        let old_text = old.as_deref().unwrap_or("");
        let new_text = new.map(String::as_str).unwrap_or("");
        let diff = similar::TextDiff::from_lines(old_text, new_text);
        diffs.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&a, &b)
                .to_string(),
        );
    }
    if differ == 0 {
        outln!(
            "ok: {} snapshot file{} in {} match",
            points.len(),
            if points.len() == 1 { "" } else { "s" },
            dir.display()
        );
        return 0;
    }
    out!("{diffs}");
    eprintln!(
        "ptc: {differ} of {} snapshot files in {} differ (rewrite them with --snapshot if the change is intended)",
        numbers.len(),
        dir.display()
    );
    1
}

fn messages_text(messages: &[crate::session::Message]) -> String {
    let mut out = String::new();
    for (i, m) in messages.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match (&m.tool_call, &m.tool_call_id) {
            (Some(call), _) => out.push_str(&format!(
                "[{} calls run_ptc_lisp {}]\n",
                m.role.name().to_uppercase(),
                call.id
            )),
            (None, Some(id)) => out.push_str(&format!(
                "[{} answers {id}]\n",
                m.role.name().to_uppercase()
            )),
            (None, None) => out.push_str(&format!("[{}]\n", m.role.name().to_uppercase())),
        }
        out.push_str(&m.content);
        if !m.content.is_empty() && !m.content.ends_with('\n') {
            out.push('\n');
        }
        if let Some(call) = &m.tool_call {
            out.push_str("program:\n");
            out.push_str(&call.program);
            if !call.program.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

pub(super) fn status_line(session: &Session) -> String {
    let s = crate::session::json::StatusJson::of(session);
    let mut line = format!("{} after {} of {} turns", s.state, s.turns, s.max_turns);
    if let Some(v) = s.value {
        line.push_str(&format!(", value {v}"));
    }
    if let Some(r) = s.reason {
        line.push_str(&format!(", reason {r}"));
    }
    // The value and reason come from the model's program: no raw control
    // characters on the terminal.
    crate::agent::escape_controls(&line)
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

/// `, N more in failed turns (not shown)` when there are any.
fn in_failed_turns(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(", {n} more in failed turns (not shown)")
    }
}

fn stats_text(session: &Session, s: &Stats, sizes: &[(Rendered, Rendered)]) -> String {
    let ok = session.turns().iter().filter(|t| t.success).count();
    let mut out = format!(
        "\n--- stats ---\nstatus: {}\nturns: {} ({ok} ok, {} failed)\nview: {}\ntool calls: {} total, {} shown, {} dropped{}\nprintlns: {} total, {} shown, {} dropped ({} truncated){}\nerror turns collapsed: {}\ncharacters: {}\nestimated tokens (chars/4): {}\n",
        status_line(session),
        s.turns_rendered,
        s.turns_rendered - ok,
        s.strategy,
        s.tool_calls_total,
        s.tool_calls_shown,
        s.tool_calls_dropped,
        in_failed_turns(s.tool_calls_in_failed_turns),
        s.printlns_total,
        s.printlns_shown,
        s.printlns_dropped,
        s.printlns_truncated,
        in_failed_turns(s.printlns_in_failed_turns),
        s.error_turns_collapsed,
        s.chars,
        s.tokens_estimate,
    );
    if let Some(budget) = s.budget_tokens {
        if let (Some(tokenizer), Some(counted), Some(used)) =
            (&s.tokenizer, s.tokens_counted, s.tokens_budgeted)
        {
            out.push_str(&format!(
                "budget count: {counted} tokens ({tokenizer}){}\n",
                match (s.calibration, s.calibration_offset) {
                    (Some(r), Some(d)) => format!(
                        "; calibrated by recent turns' reports (x {r:.3}, or {d:+} tokens, whichever is more) = {used}"
                    ),
                    _ => " (no calibration: no turn reported its prompt tokens yet)".into(),
                }
            ));
        }
        out.push_str(&format!(
            "token budget: {budget}; degraded: {}{}\n",
            if s.degraded.is_empty() {
                "nothing".to_string()
            } else {
                s.degraded.join(", ")
            },
            s.over_budget_by
                .map(|n| format!("; still {n} tokens over"))
                .unwrap_or_default()
        ));
    }
    // What the provider reported for the prompt each turn was sent (the
    // prompt rendered after turn i went with turn i+1).
    let reported: Vec<Option<u64>> = session
        .turns()
        .iter()
        .map(|t| t.llm.as_ref().and_then(|l| l.usage.input_tokens))
        .collect();
    let any_reported = reported.iter().any(Option::is_some);
    out.push_str(&format!(
        "\nprompt tokens for the next turn (cl100k_base; ~ = chars/4{}):\nafter turn  compressed  uncompressed  saved{}\n",
        if any_reported { "; reported: the provider's count of what was sent" } else { "" },
        if any_reported { "  reported" } else { "" }
    ));
    for (i, (c, u)) in sizes.iter().enumerate() {
        let saved = if u.stats.chars > 0 {
            format!(
                "{:.0}%",
                100.0 * (1.0 - c.stats.chars as f64 / u.stats.chars as f64)
            )
        } else {
            "-".into()
        };
        let sent = if any_reported {
            let r = reported.get(i).copied().flatten();
            format!("  {:>8}", r.map_or("-".to_string(), |n| n.to_string()))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{i:>10}  {:>10}  {:>12}  {saved:>5}{sent}\n",
            tokens(c),
            tokens(u)
        ));
    }
    out
}
