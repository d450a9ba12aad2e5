//! `ptc eval`'s logic: run a mission N times per view with one model and
//! summarize each view (success rate, mean turns, tokens, seconds), to see
//! whether the compressed view helps or hurts on a task.

use std::ops::ControlFlow;
use std::time::Instant;

use super::{run, AgentError, Llm, LlmError, RunEnd};
use crate::session::{Session, Status, View};

/// What one run did.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// The view the run rendered its prompts in.
    pub view: View,
    /// 0-based, per view.
    pub index: usize,
    /// `returned`, `failed`, `exhausted`, or `error` when the LLM failed
    /// for good (after its retries).
    pub outcome: &'static str,
    /// Turns the run took.
    pub turns: usize,
    /// Prompt tokens over all turns, as the provider reported them.
    pub input_tokens: u64,
    /// Completion tokens over all turns, as the provider reported them.
    pub output_tokens: u64,
    /// Wall-clock seconds of the whole run (LLM and interpreter).
    pub seconds: f64,
    /// The LLM error of an `error` run.
    pub error: Option<String>,
}

impl RunRecord {
    fn of(
        session: &Session,
        view: View,
        index: usize,
        seconds: f64,
        error: Option<&LlmError>,
    ) -> RunRecord {
        let turns = session.turns();
        let sum = |f: &dyn Fn(&crate::session::Usage) -> Option<u64>| {
            turns
                .iter()
                .filter_map(|t| t.llm.as_ref().and_then(|i| f(&i.usage)))
                .sum()
        };
        RunRecord {
            view,
            index,
            outcome: match (error, session.status()) {
                (Some(_), _) => "error",
                (None, Status::Returned(_)) => "returned",
                (None, Status::Failed(_)) => "failed",
                (None, Status::Exhausted) => "exhausted",
                (None, Status::Running) => "stopped",
            },
            turns: turns.len(),
            input_tokens: sum(&|u| u.input_tokens),
            output_tokens: sum(&|u| u.output_tokens),
            seconds,
            error: error.map(ToString::to_string),
        }
    }
}

/// One view's row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewSummary {
    /// The view summarized.
    pub view: View,
    /// Runs made in this view.
    pub runs: usize,
    /// Runs whose program returned (the success count).
    pub returned: usize,
    /// Runs whose program called `fail`.
    pub failed: usize,
    /// Runs that used every turn without returning.
    pub exhausted: usize,
    /// Runs the LLM failed for good.
    pub errors: usize,
    /// Mean turns per run.
    pub mean_turns: f64,
    /// Mean prompt tokens per run.
    pub mean_input_tokens: f64,
    /// Mean completion tokens per run.
    pub mean_output_tokens: f64,
    /// Mean wall-clock seconds per run.
    pub mean_seconds: f64,
}

impl ViewSummary {
    /// The summary of the runs in `records` that used `view`.
    pub fn of(records: &[RunRecord], view: View) -> ViewSummary {
        let rs: Vec<&RunRecord> = records.iter().filter(|r| r.view == view).collect();
        let n = rs.len();
        let count = |o: &str| rs.iter().filter(|r| r.outcome == o).count();
        let mean = |f: &dyn Fn(&RunRecord) -> f64| {
            if n == 0 {
                0.0
            } else {
                rs.iter().map(|r| f(r)).sum::<f64>() / n as f64
            }
        };
        ViewSummary {
            view,
            runs: n,
            returned: count("returned"),
            failed: count("failed"),
            exhausted: count("exhausted"),
            errors: count("error"),
            mean_turns: mean(&|r| r.turns as f64),
            mean_input_tokens: mean(&|r| r.input_tokens as f64),
            mean_output_tokens: mean(&|r| r.output_tokens as f64),
            mean_seconds: mean(&|r| r.seconds),
        }
    }

    /// Returned runs / runs (0 without runs).
    pub fn success_rate(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.returned as f64 / self.runs as f64
        }
    }
}

/// The name of a view in tables and file names.
pub fn view_name(view: View) -> &'static str {
    match view {
        View::Compressed => "compressed",
        View::Uncompressed => "uncompressed",
        View::Turns => "turns",
    }
}

/// The table `ptc eval` prints: one row per view.
pub fn table(summaries: &[ViewSummary]) -> String {
    let mut out = format!(
        "{:<13} {:>4} {:>8} {:>8} {:>6} {:>9} {:>6} {:>10} {:>13} {:>17} {:>9}\n",
        "view",
        "runs",
        "success",
        "returned",
        "failed",
        "exhausted",
        "errors",
        "mean turns",
        "mean prompt tk",
        "mean completion tk",
        "mean s"
    );
    for s in summaries {
        out.push_str(&format!(
            "{:<13} {:>4} {:>7.0}% {:>8} {:>6} {:>9} {:>6} {:>10.2} {:>13.1} {:>17.1} {:>9.3}\n",
            view_name(s.view),
            s.runs,
            100.0 * s.success_rate(),
            s.returned,
            s.failed,
            s.exhausted,
            s.errors,
            s.mean_turns,
            s.mean_input_tokens,
            s.mean_output_tokens,
            s.mean_seconds
        ));
    }
    out
}

/// Runs the mission `runs` times per view, in order (all runs of the first
/// view, then the next). `make_session` builds a fresh session in a view;
/// `on_run` sees each run's record and session as it ends (save it, print
/// progress). A retryable LLM failure that outlived its retries makes an
/// `error` run and evaluation goes on; any other LLM failure (a bad key,
/// a rejected request) stops it and is returned.
pub fn evaluate(
    make_session: &mut dyn FnMut(View) -> Result<Session, String>,
    llm: &mut dyn Llm,
    views: &[View],
    runs: usize,
    on_run: &mut dyn FnMut(&RunRecord, &Session),
) -> Result<Vec<RunRecord>, EvalError> {
    let mut records = Vec::new();
    for &view in views {
        for index in 0..runs {
            let mut session = make_session(view).map_err(EvalError::Session)?;
            let start = Instant::now();
            let result = run(
                &mut session,
                llm,
                &mut |_: &Session, _: &crate::session::Turn| ControlFlow::Continue(()),
            );
            let seconds = start.elapsed().as_secs_f64();
            let error = match result {
                Ok(RunEnd::Ended | RunEnd::Stopped) => None,
                Err(AgentError::Llm { error, .. }) => Some(error),
                Err(AgentError::Session(e)) => return Err(EvalError::Session(e.to_string())),
            };
            let record = RunRecord::of(&session, view, index, seconds, error.as_ref());
            on_run(&record, &session);
            records.push(record);
            if let Some(e) = error.filter(|e| !e.kind.is_retryable()) {
                return Err(EvalError::Llm(e, records));
            }
        }
    }
    Ok(records)
}

/// Why evaluation stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// A session could not be made.
    Session(String),
    /// A non-retryable LLM failure; the runs so far, the failed one last.
    Llm(LlmError, Vec<RunRecord>),
}
