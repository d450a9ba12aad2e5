//! `ptc` / `ptc repl [SESSION.json] [--plain] [--max-turns N] [--mission TEXT] [--budget-tokens N]
//! [LIMITS]`: the REPL (`crate::repl`). On a terminal it edits lines with
//! rustyline; otherwise (`ptc repl < file`) it runs one entry per complete
//! form and prints their output without prompts, and exits 1 when an
//! entry failed. Colour only on a terminal
//! and never with `--plain` or `NO_COLOR`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::{input_error, LimitArgs};
use crate::repl::{terminal, Repl, ReplConfig, Style};

#[derive(Args, Default)]
pub struct ReplArgs {
    /// A session file: its mission, data and tools; its turns are replayed.
    file: Option<PathBuf>,
    /// No colour and ASCII error drawings (scripts).
    #[arg(long)]
    plain: bool,
    /// End the session after N turns, as the LLM's would (default: the REPL
    /// never runs out of turns; the file's max_turns only drives the turn
    /// indicator of the prompt).
    #[arg(long, value_name = "N", value_parser = super::limits::turns_at_least_one)]
    max_turns: Option<usize>,
    /// The mission of a new session (without a session file).
    #[arg(long, value_name = "TEXT", conflicts_with = "file")]
    mission: Option<String>,
    /// Fit the compressed view of the next prompt in N tokens (chars/4),
    /// degrading in the documented order (overrides render.budget_tokens).
    #[arg(long, value_name = "N")]
    budget_tokens: Option<usize>,
    /// Run the tools of the file's recorded turns again instead of
    /// answering from its recording (also for `:load`).
    #[arg(long)]
    live: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn repl(args: ReplArgs) -> i32 {
    let ReplArgs {
        file,
        plain,
        max_turns,
        mission,
        budget_tokens,
        live,
        limits,
    } = args;
    let config = ReplConfig {
        max_turns,
        budget_tokens,
        live,
        limits: Some(Arc::new(move |base| limits.apply(base))),
    };
    let opened = match &file {
        Some(path) => Repl::open(path, config),
        None => Repl::empty(mission.as_deref().unwrap_or(""), config),
    };
    let mut repl = match opened {
        Ok(r) => r,
        Err(e) => return input_error(e),
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let style = if !plain && !no_color && std::io::stdout().is_terminal() {
        Style::Colour
    } else {
        Style::Plain
    };
    if std::io::stdin().is_terminal() {
        if let Err(e) = terminal::run_interactive(&mut repl, style) {
            return input_error(format!("terminal error: {e}"));
        }
    } else {
        let stdin = std::io::stdin().lock();
        match terminal::run_script(&mut repl, stdin, &mut std::io::stdout().lock(), style) {
            Ok(true) => {}
            // An entry failed: the script's exit status says so.
            Ok(false) => return 1,
            Err(e) => return input_error(format!("cannot read standard input: {e}")),
        }
    }
    0
}
