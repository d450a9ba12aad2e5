//! `ptc eval SESSION.json --model M --runs N [--view compressed]
//! [--view uncompressed] [--out-dir DIR] [--jobs N] [--protocol text|tool]
//! [PRICES]`: runs the mission N times per
//! view (`crate::agent::eval`), prints one line per run and a table per
//! view, and writes every run's session file to DIR (default
//! `STEM-eval/`) as `VIEW-KK.json`.
//!
//! Exit codes: 0 every run done (whatever the success rate), 2 bad input,
//! 3 a provider error that retrying cannot fix (bad key, rejected request).

use std::path::PathBuf;

use clap::Args;

use super::agent::limits_of;
use super::llm_args::{open_for_agent, LlmArgs, ProtocolArg, ViewArg};
use super::{input_error, LimitArgs};
use crate::agent::eval::{evaluate, table, view_name, EvalError, RunRecord, ViewSummary};
use crate::agent::save::save_session;
use crate::agent::Overrides;
use crate::session::{Session, View};

#[derive(Args)]
pub struct EvalArgs {
    /// The session file.
    file: PathBuf,
    #[command(flatten)]
    llm: LlmArgs,
    /// Runs per view.
    #[arg(long, value_name = "N")]
    runs: usize,
    /// A view to evaluate (repeat for both; default both).
    #[arg(long, value_enum)]
    view: Vec<ViewArg>,
    /// Turns before a run is exhausted (default: the file's).
    #[arg(long, value_name = "N", value_parser = super::limits::turns_at_least_one)]
    max_turns: Option<usize>,
    /// Token budget of the compressed view (default: the file's
    /// render.budget_tokens).
    #[arg(long, value_name = "N")]
    budget_tokens: Option<usize>,
    /// Runs at once (threads; each run has its own session and client).
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Where every run's session file goes (default: STEM-eval/).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn eval(args: EvalArgs) -> i32 {
    if args.runs == 0 {
        return input_error("--runs must be at least 1");
    }
    if args.jobs == 0 {
        return input_error("--jobs must be at least 1");
    }
    let mut views: Vec<View> = Vec::new();
    for v in &args.view {
        if !views.contains(&v.view()) {
            views.push(v.view());
        }
    }
    if views.is_empty() {
        views = vec![View::Compressed, View::Uncompressed];
    }
    let dir = args.out_dir.clone().unwrap_or_else(|| {
        let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
        PathBuf::from(format!("{stem}-eval"))
    });
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return input_error(format!(
            "{}: cannot create the directory: {e}",
            dir.display()
        ));
    }
    let limits = Some(args.limits.apply(limits_of(&args.file).unwrap_or_default()));
    let protocol = args.llm.protocol.map(ProtocolArg::protocol);
    // Bad input is reported before any request.
    let first = match open_for_agent(
        &args.file,
        &Overrides {
            protocol,
            ..Overrides::default()
        },
    ) {
        Ok((_, s)) => s,
        Err(code) => return code,
    };
    let session_protocol = first.protocol();
    drop(first);
    // The client is checked once here (key, URL, prices); each run then
    // makes its own.
    if let Err(code) = args.llm.client(session_protocol) {
        return code;
    }
    let make_llm = || {
        args.llm
            .client(session_protocol)
            .map(|c| Box::new(c) as Box<dyn crate::agent::Llm>)
            .map_err(|_| {
                crate::agent::LlmError::new(
                    crate::agent::LlmErrorKind::Config,
                    "the client could not be made",
                )
            })
    };
    let make = |view: View| {
        let overrides = Overrides {
            view: Some(view),
            max_turns: args.max_turns,
            limits: limits.clone(),
            continue_turns: false,
            budget_tokens: args.budget_tokens,
            token_model: Some(args.llm.model.clone()),
            protocol,
        };
        open_for_agent(&args.file, &overrides)
            .map(|(_, s)| s)
            .map_err(|_| "the session file changed during evaluation".to_string())
    };
    let save_failed = std::sync::Mutex::new(None);
    let on_run = |r: &RunRecord, s: &Session| {
        let path = dir.join(format!("{}-{:02}.json", view_name(r.view), r.index + 1));
        if let Err(e) = save_session(s, &path) {
            save_failed
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(e);
        }
        let error = r
            .error
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        let cost = r.cost_usd.map(|c| format!(", ${c:.4}")).unwrap_or_default();
        outln!(
            "{} run {}/{}: {} after {} turn{}, {:.2}s{cost}{error}",
            view_name(r.view),
            r.index + 1,
            args.runs,
            r.outcome,
            r.turns,
            if r.turns == 1 { "" } else { "s" },
            r.seconds
        );
    };
    let result = evaluate(&make, &make_llm, &views, args.runs, args.jobs, &on_run);
    if let Some(e) = save_failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return input_error(e);
    }
    let (records, code) = match result {
        Ok(records) => (records, 0),
        Err(EvalError::Session(e)) => return input_error(e),
        Err(EvalError::Llm(e, records)) => {
            eprintln!("ptc: evaluation stopped: the LLM failed: {e}");
            (records, 3)
        }
    };
    let summaries: Vec<ViewSummary> = views
        .iter()
        .map(|&v| ViewSummary::of(&records, v))
        .collect();
    outln!();
    out!("{}", table(&summaries));
    outln!("session files: {}", dir.display());
    code
}
