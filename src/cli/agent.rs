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
    let result = run_with_stop(&mut session, &mut llm, &mut observer, &stop);
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
        Err(AgentError::Session(e)) => input_error(e),
        Err(e @ AgentError::Llm { .. }) => {
            outln!("stopped: {}{saved}", status_line(&session));
            eprintln!("ptc: {e}");
            3
        }
    }
}

/// The limits written in the session file, if it can be read (LIMITS
/// flags apply on top of them).
pub(super) fn limits_of(path: &std::path::Path) -> Option<crate::eval::Limits> {
    let text = super::input::read_json_file(path, "the session file").ok()?;
    crate::session::SessionFile::parse(&text, path).ok()?.limits
}
