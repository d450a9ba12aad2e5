//! `ptc run FILE.clj [--data NAME=FILE.json]… [--session S.json] [LIMITS]`.
//!
//! With `--session`, the program runs as the next turn of that session
//! file's session: its mission, data, tools and limits, and its recorded
//! turns replayed first, so what they defined is visible. A session that
//! has already ended (a turn returned or failed, or `max_turns` ran) is
//! refused with exit 2: no more turns can run in it.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{input, input_error, LimitArgs};
use crate::eval::{Interp, Limits, StaticHost};
use crate::format::to_clojure;
use crate::session::resume::save_file;
use crate::value::json::from_json;

#[derive(Args)]
pub struct RunArgs {
    /// The program (`-` reads standard input).
    file: PathBuf,
    /// A data/ value from a JSON file: `--data products=products.json`.
    #[arg(
        long = "data",
        value_name = "NAME=FILE.json",
        conflicts_with = "session"
    )]
    data: Vec<String>,
    /// Run as the next turn of this session file (its data, tools and
    /// limits; its recorded turns replayed first).
    #[arg(long, value_name = "S.json")]
    session: Option<PathBuf>,
    /// With --session: run the tools of the recorded turns again instead
    /// of answering from the file's recording.
    #[arg(long, requires = "session")]
    live: bool,
    /// With --session: save the session with the new turn to this file
    /// (paused or not), its writes journaled beside it (F.journal) so that
    /// `ptc resume F` continues a paused turn or one cut short.
    #[arg(long, value_name = "F.json", requires = "session")]
    out: Option<PathBuf>,
    /// With --session: run with every write answered without running it
    /// (the tool's "preview" value, else nil) and list the writes the
    /// program would make; nothing is written or saved.
    #[arg(long, requires = "session", conflicts_with = "out")]
    preview: bool,
    /// Run as the reference: every optimisation off (no compiled code, no
    /// moves, no in-place writes); the same value as without it, or a bug.
    #[arg(long)]
    reference: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn run(args: RunArgs) -> i32 {
    crate::eval::reference::set_on_this_thread(args.reference);
    // Refused while reading once past the source limit in force.
    let base = match &args.session {
        Some(path) => input::session_limits(path).unwrap_or_default(),
        None => Limits::default(),
    };
    let source_limit = args
        .limits
        .apply(base)
        .max_source_bytes
        .unwrap_or(input::MAX_INPUT_FILE_BYTES);
    let source = match input::read_bounded(
        &args.file,
        source_limit,
        "the program",
        "the source limit (max_source_bytes)",
    ) {
        Ok(s) => s,
        Err(e) => return input_error(e),
    };
    if args.session.is_none() && looks_like_session_file(&source) {
        return input_error(format!(
            "{} looks like a session file, not a program: `ptc replay {0}` renders its next \
             prompt, `ptc run PROGRAM.clj --session {0}` runs a program as its next turn, \
             `ptc agent {0} --model M` runs it with an LLM",
            args.file.display()
        ));
    }
    if let Some(path) = &args.session {
        let how = InSession {
            live: args.live,
            out: args.out.as_deref(),
            preview: args.preview,
        };
        return run_in_session(path, &source, &args.limits, how);
    }
    let mut host = StaticHost::default();
    for spec in &args.data {
        let Some((name, path)) = spec.split_once('=') else {
            return input_error(format!("--data expects NAME=FILE.json, got {spec:?}"));
        };
        let text = match input::read_json_file(std::path::Path::new(path), "the data file") {
            Ok(t) => t,
            Err(e) => return input_error(e),
        };
        match serde_json::from_str(&text) {
            Ok(json) => {
                host.data.insert(name.to_string(), from_json(&json));
            }
            Err(e) => return input_error(format!("{path}: invalid JSON: {e}")),
        }
    }
    let mut interp = Interp::new(Box::new(host), args.limits.apply(Limits::default()));
    interp.on_print = Some(Box::new(|line| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
    }));
    let outcome = interp.run_program(&source);
    for note in &outcome.notes {
        eprintln!("note: {note}");
    }
    let code = match outcome.result {
        Ok(v) => {
            outln!("{}", to_clojure(&v, None, None).0);
            0
        }
        Err(e) => {
            let _ = std::io::stdout().flush();
            eprintln!("{:?}", without_tools_hint(e).diagnostic());
            1
        }
    };
    // The process ends right after this: freeing every value the program
    // defined (100k records take ~10% of a benchmark's time) is left to the OS.
    std::mem::forget(interp);
    code
}

/// A JSON object with a `"mission"`: what a session file is.
fn looks_like_session_file(source: &str) -> bool {
    source.trim_start().starts_with('{')
        && serde_json::from_str::<serde_json::Value>(source)
            .is_ok_and(|json| json.get("mission").is_some())
}

/// A call of an undefined `tool/…` under a plain `ptc run` (which has no
/// tools of its own): the hint says where tools come from.
fn without_tools_hint(e: crate::Error) -> crate::Error {
    if e.kind() == crate::ErrorKind::Undefined
        && e.message().starts_with("tool/")
        && e.hint().is_none()
    {
        e.with_hint(
            "`ptc run` alone has no tools: give a session file that defines them, \
             `ptc run PROGRAM.clj --session S.json` (its \"tools\")",
        )
    } else {
        e
    }
}

/// How `--session` runs the program.
struct InSession<'a> {
    live: bool,
    out: Option<&'a std::path::Path>,
    preview: bool,
}

/// Runs `source` as the next turn of the session in `path`.
fn run_in_session(
    path: &std::path::Path,
    source: &str,
    limits: &LimitArgs,
    how: InSession<'_>,
) -> i32 {
    let tools = super::replay_tools(how.live);
    let (file, mut session) = match super::open_session(path, limits, tools) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    if let Err(e) = file.run_turns(&mut session, tools) {
        return input_error(format!("{}: {e}", path.display()));
    }
    if session.can_resume() {
        return input_error(format!(
            "{}: its last turn is paused or unfinished; `ptc resume {0}` continues it",
            path.display()
        ));
    }
    if !session.status().is_running() {
        let n = session.turns().len();
        return input_error(format!(
            "{}: the session has already ended ({}) after {n} turn{}; no more turns can run \
             (remove the last turns from the file, or raise max_turns)",
            path.display(),
            ended_how(session.status()),
            if n == 1 { "" } else { "s" }
        ));
    }
    // Fenced, so the whole file is the program whatever it starts with.
    let raw = format!("```clojure\n{source}\n```");
    if how.preview {
        return match session.preview(source) {
            Ok(p) => {
                for w in &p.writes {
                    eprintln!("would write: {}", call_text(&w.tool, &w.args, &w.at));
                }
                if p.writes.is_empty() {
                    eprintln!("would write: nothing");
                }
                print_turn(&p.turn)
            }
            Err(e) => input_error(e),
        };
    }
    if let Some(out) = how.out {
        session.set_journal(Some(crate::session::Journal::path_for(out)));
        // Before the turn starts: `ptc resume` finds it if ptc stops.
        if let Err(e) = save_file(&session.to_file_running(&raw, out), out) {
            return input_error(e);
        }
    }
    let code = match session.run_turn(&raw) {
        Ok(turn) => print_turn(turn),
        Err(e) => return input_error(e),
    };
    match how.out {
        Some(out) => saved(&session, out, code),
        None => code,
    }
}

/// Saves the session in `out` after a turn (then its journal is not
/// needed); `code` unless saving failed.
pub(super) fn saved(session: &crate::session::Session, out: &std::path::Path, code: i32) -> i32 {
    match save_file(&session.to_file_at(out), out) {
        Ok(()) => {
            crate::session::Journal::remove(&crate::session::Journal::path_for(out));
            if session.can_resume() {
                eprintln!(
                    "ptc: saved to {}; continue with `ptc resume {0} --approve ID|all` or \
                     `--deny ID|all --reason TEXT`",
                    out.display()
                );
            }
            code
        }
        Err(e) => input_error(e),
    }
}

/// Prints a turn's prints, then its value (exit 0), its error (exit 1),
/// or the calls it paused at (exit 4).
pub(super) fn print_turn(turn: &crate::session::Turn) -> i32 {
    for line in &turn.prints {
        outln!("{line}");
    }
    if turn.is_paused() {
        let _ = std::io::stdout().flush();
        eprintln!("paused: awaiting approval:");
        for c in &turn.pending {
            eprintln!("  {}", call_text(&c.tool, &c.args, &c.id));
        }
        return 4;
    }
    match &turn.result {
        Ok(v) => {
            outln!("{}", to_clojure(v, None, None).0);
            0
        }
        Err(e) => {
            let _ = std::io::stdout().flush();
            eprintln!("{:?}", e.diagnostic());
            1
        }
    }
}

/// `[ID] (tool/NAME args…)`.
fn call_text(tool: &str, args: &[crate::Value], id: &str) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| crate::format::to_clojure_capped(a, Some(10), Some(200), Some(400)).0)
        .collect();
    let sep = if args.is_empty() { "" } else { " " };
    format!("[{id}] (tool/{tool}{sep}{})", args.join(" "))
}

/// `returned [...]`, `failed "reason"`, `exhausted`.
fn ended_how(status: &crate::session::Status) -> String {
    use crate::session::Status;
    match status {
        Status::Returned(v) | Status::Failed(v) => {
            format!("{} {}", status.state(), to_clojure(v, Some(5), Some(80)).0)
        }
        other => other.state().to_string(),
    }
}
