//! The `ptc` command line (`spec/session.md` §Commands). Parsing with clap;
//! each command is a thin layer over the library. Exit codes: 0 success,
//! 1 the program or a check failed, 2 bad input (missing file, bad JSON …),
//! 3 an LLM provider error (`ptc agent`, `ptc eval`).

/// `print!` that never panics: output to a closed pipe (`ptc … | head`) is
/// dropped instead of aborting the process.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `println!` that never panics (see `out!`).
macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

#[cfg(feature = "agent")]
mod agent;
mod check;
mod completions;
#[cfg(feature = "agent")]
mod eval;
mod input;
mod limits;
#[cfg(feature = "agent")]
mod llm_args;
mod mcp;
mod prompt;
mod repl;
mod replay;
mod resume;
mod run;

use clap::{Parser, Subcommand};

pub use limits::LimitArgs;

#[derive(Parser)]
#[command(
    name = "ptc",
    version,
    about = "Run PTC-Lisp programs written by LLMs, safely",
    after_help = EXAMPLES
)]
struct Cli {
    /// Without a command: the REPL.
    #[command(subcommand)]
    command: Option<Command>,
}

/// `ptc --help`'s examples (run from a checkout: the files are its examples).
const EXAMPLES: &str = "Examples:
  echo '(map inc [1 2 3])' | ptc run -
  ptc run lisp-examples/orders-report.clj --data orders=lisp-examples/orders.json
  ptc repl lisp-examples/products-in-stock.json
  ptc agent lisp-examples/sales-by-region.json --model qwen2.5-coder:7b --base-url http://127.0.0.1:11434/v1
  ptc mcp lisp-examples/sales-by-region.json      # for Claude Code, Codex, Cursor
  ptc completions bash > ~/.local/share/bash-completion/completions/ptc

Guides: docs/ in the repository (README.md lists them).";

#[derive(Subcommand)]
enum Command {
    /// Interactive REPL: each entry is one turn of the session.
    Repl(repl::ReplArgs),
    /// Run one program and print its result (prints stream as they happen).
    Run(run::RunArgs),
    /// Continue a paused turn (approve or deny its calls) or one cut short, and save the file.
    Resume(resume::ResumeArgs),
    /// Run conformance cases; prints failures and `N passed, N failed`.
    Check(check::CheckArgs),
    /// Run a session file's turns and print the messages for the next turn.
    Replay(replay::ReplayArgs),
    /// Print a prompt: `ptc prompt system` prints the static SYSTEM prompt.
    Prompt(prompt::PromptArgs),
    /// Serve MCP (stdio, or Streamable HTTP with --http): run_ptc_lisp, ptc_state, ptc_reset.
    Mcp(mcp::McpArgs),
    /// Run the mission with an LLM: one line per turn, the session saved to --out after each.
    #[cfg(feature = "agent")]
    Agent(agent::AgentArgs),
    /// Run the mission N times per view with an LLM and compare the views.
    #[cfg(feature = "agent")]
    Eval(eval::EvalArgs),
    /// Print a shell completion script: ptc completions bash|zsh|fish.
    Completions(completions::CompletionsArgs),
}

/// Parses the arguments, runs the command, returns the exit code.
pub fn main() -> i32 {
    crate::mcp::client::on_slow_start(|notice| eprintln!("ptc: {notice}"));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        None => repl::repl(repl::ReplArgs::default()),
        Some(Command::Repl(args)) => repl::repl(args),
        Some(Command::Run(args)) => run::run(args),
        Some(Command::Resume(args)) => resume::resume(args),
        Some(Command::Check(args)) => check::check(args),
        Some(Command::Replay(args)) => replay::replay(args),
        Some(Command::Prompt(args)) => prompt::prompt(args),
        Some(Command::Mcp(args)) => mcp::mcp(args),
        #[cfg(feature = "agent")]
        Some(Command::Agent(args)) => agent::agent(args),
        #[cfg(feature = "agent")]
        Some(Command::Eval(args)) => eval::eval(args),
        Some(Command::Completions(args)) => completions::completions(args),
    }
}

/// Reads and builds a session file's session (its turns not run), with the
/// LIMITS flags applied over the file's limits, for replaying its turns
/// with `tools`; `Err` is the exit code after reporting the problem.
fn open_session(
    path: &std::path::Path,
    limits: &LimitArgs,
    tools: crate::session::ReplayTools,
) -> Result<(crate::session::SessionFile, crate::session::Session), i32> {
    let text = input::read_json_file(path, "the session file").map_err(input_error)?;
    let file = crate::session::SessionFile::parse(&text, path).map_err(input_error)?;
    let limits = limits.apply(file.limits.clone().unwrap_or_default());
    let session = file
        .session_with(path, Some(&text), Some(limits), tools)
        .map_err(input_error)?;
    Ok((file, session))
}

/// `--live`: recorded turns run their tools again.
fn replay_tools(live: bool) -> crate::session::ReplayTools {
    if live {
        crate::session::ReplayTools::Live
    } else {
        crate::session::ReplayTools::Recorded
    }
}

/// Reports an input problem (exit 2).
fn input_error(msg: impl std::fmt::Display) -> i32 {
    eprintln!("ptc: {msg}");
    2
}
