//! `ptc agent SESSION.json --model M [--provider openai|anthropic]
//! [--base-url URL] [--out RUN.json] [--view compressed|uncompressed]
//! [--max-turns N] [--temperature T] [--max-tokens N] [--protocol text|tool]
//! [--prompt-cache on|off] [--price-in USD --price-out USD [--price-cached
//! USD] | --prices FILE] [LIMITS]`: runs the
//! mission with a model (`crate::agent`), printing one line per turn and
//! the final status, saving the session to `--out` after every turn.
//!
//! Exit codes: 0 returned, 1 failed or exhausted, 2 bad input (also a
//! missing API key or an unwritable `--out`), 3 provider error, 130 stopped
//! by Ctrl-C (after the turn under way, the file saved). The file's own
//! turns are left out (the model starts afresh) unless `--continue`: then
//! they run first, so `ptc agent RUN.json --continue --out RUN.json` goes on
//! with a saved run.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Args;

use super::llm_args::{open_for_agent, LlmArgs, ProtocolArg, ViewArg};
use super::replay::status_line;
use super::{input_error, LimitArgs};
use crate::agent::save::save_session;
use crate::agent::{run_with_stop, turn_line, AgentError, Overrides, RunEnd};
use crate::session::{Session, Status, Turn};

#[derive(Args)]
pub struct AgentArgs {
    /// The session file (mission, data, tools, limits).
    file: PathBuf,
    /// Run the file's turns first and go on from there (its recorded
    /// turns are otherwise left out).
    #[arg(long = "continue")]
    continue_turns: bool,
    #[command(flatten)]
    llm: LlmArgs,
    /// Save the session here after every turn (atomically).
    #[arg(long, value_name = "RUN.json")]
    out: Option<PathBuf>,
    /// The view sent to the model (default: the file's `compression`).
    #[arg(long, value_enum)]
    view: Option<ViewArg>,
    /// Turns before the session is exhausted (default: the file's).
    #[arg(long, value_name = "N", value_parser = super::limits::turns_at_least_one)]
    max_turns: Option<usize>,
    /// Token budget of the compressed view: prompts are degraded in the
    /// documented order to fit (default: the file's render.budget_tokens).
    #[arg(long, value_name = "N")]
    budget_tokens: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn agent(args: AgentArgs) -> i32 {
    let base_limits = limits_of(&args.file).unwrap_or_default();
    let overrides = Overrides {
        view: args.view.map(ViewArg::view),
        max_turns: args.max_turns,
        limits: Some(args.limits.apply(base_limits)),
        continue_turns: args.continue_turns,
        budget_tokens: args.budget_tokens,
        token_model: Some(args.llm.model.clone()),
        protocol: args.llm.protocol.map(ProtocolArg::protocol),
    };
    let (_, mut session) = match open_for_agent(&args.file, &overrides) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let mut llm = match args.llm.client(session.protocol()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // The first Ctrl-C lets the turn under way finish (the file is saved
    // after it); a second one quits at once (the file holds the turns
    // before). If a handler cannot be installed, Ctrl-C kills as usual.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("ptc: stopping after the turn under way (Ctrl-C again to quit now)");
    });
    if let Some(out) = &args.out {
        if let Err(e) = save_session(&session, out) {
            return input_error(e);
        }
    }
    let mut save_error = None;
    let mut observer = |s: &Session, turn: &Turn| {
        outln!("{}", turn_line(turn));
        if let Some(out) = &args.out {
            if let Err(e) = save_session(s, out) {
                save_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    };
    let mut result = run_with_stop(&mut session, &mut llm, &mut observer, &stop);
    // A paused turn: asked on a terminal, else the saved file is resumed
    // later (`ptc resume`, exit 4).
    while matches!(result, Ok(RunEnd::Paused)) {
        let Some(decisions) = ask_approval(&session) else {
            break;
        };
        match session.resume(decisions) {
            Ok(turn) => {
                let turn = turn.clone();
                if observer(&session, &turn).is_break() {
                    result = Ok(RunEnd::Stopped);
                    break;
                }
            }
            Err(e) => {
                result = Err(AgentError::Session(e));
                break;
            }
        }
        result = if session.can_resume() {
            Ok(RunEnd::Paused)
        } else if session.status().is_running() {
            run_with_stop(&mut session, &mut llm, &mut observer, &stop)
        } else {
            Ok(RunEnd::Ended)
        };
    }
    if let Some(e) = save_error {
        return input_error(e);
    }
    let cost = session
        .turns()
        .iter()
        .filter_map(|t| t.llm.as_ref().and_then(|i| i.cost_usd))
        .reduce(|a, b| a + b)
        .map(|c| format!(", cost ${c:.4}"))
        .unwrap_or_default();
    let saved = args
        .out
        .as_ref()
        .map(|p| format!("{cost} (saved to {})", p.display()))
        .unwrap_or(cost);
    match result {
        Ok(RunEnd::Ended) => {
            outln!("{}{saved}", status_line(&session));
            match session.status() {
                Status::Returned(_) => 0,
                _ => 1,
            }
        }
        Ok(RunEnd::Stopped) => {
            outln!("interrupted: {}{saved}", status_line(&session));
            130
        }
        Ok(RunEnd::Paused) => {
            outln!("paused: awaiting approval{saved}");
            for c in session.pending() {
                eprintln!("  [{}] tool/{}", c.id, c.tool);
            }
            if let Some(out) = &args.out {
                eprintln!(
                    "ptc: continue with `ptc resume {} --approve ID|all` or `--deny ID|all`",
                    out.display()
                );
            }
            4
        }
        Err(AgentError::Session(e)) => input_error(e),
        Err(e @ AgentError::Llm { .. }) => {
            outln!("stopped: {}{saved}", status_line(&session));
            eprintln!("ptc: {e}");
            3
        }
    }
}

/// Asks on the terminal about each call the paused turn waits on; `None`
/// when standard input is not a terminal.
fn ask_approval(
    session: &Session,
) -> Option<std::collections::BTreeMap<String, crate::session::Decision>> {
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let mut decisions = std::collections::BTreeMap::new();
    for c in session.pending() {
        let args: Vec<String> = c
            .args
            .iter()
            .map(|a| crate::format::to_clojure_capped(a, Some(10), Some(200), Some(400)).0)
            .collect();
        eprint!("approve (tool/{} {})? [y/N] ", c.tool, args.join(" "));
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).ok()?;
        let yes = matches!(line.trim(), "y" | "Y" | "yes");
        decisions.insert(
            c.id.clone(),
            if yes {
                crate::session::Decision::Approve
            } else {
                crate::session::Decision::Deny("denied by the user".into())
            },
        );
    }
    Some(decisions)
}

/// The limits written in the session file, if it can be read (LIMITS
/// flags apply on top of them).
pub(super) fn limits_of(path: &std::path::Path) -> Option<crate::eval::Limits> {
    let text = super::input::read_json_file(path, "the session file").ok()?;
    crate::session::SessionFile::parse(&text, path).ok()?.limits
}
