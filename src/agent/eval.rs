//! `ptc eval`'s logic: run a mission N times per view with one model and
//! summarize each view (success rate, mean turns, tokens, cached tokens,
//! the provider's prompt tokens against the chars/4 estimate and the token
//! budget's calibration, cost, seconds, and why turns failed), to see
//! whether the compressed view helps or hurts on a task.
//!
//! Runs are independent: each has its own session and client, so `jobs`
//! runs at once (threads) give the same records as one at a time, in the
//! same order (by view, then run index), whatever order they end in.
//!
//! Failure causes (per view, counted over the failed turns of all runs):
//! the reply issue when the reply had no program to run (`no-code`,
//! `empty`, `cut-off`, `protocol`), else the error kind (`parse-error`,
//! `type-error` …); a turn that ended the mission with `fail` is not
//! counted (the outcome says it). Exhausted runs are the outcome column.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::{run, AgentError, Llm, LlmError, RunEnd};
use crate::error::ErrorKind;
use crate::session::{Session, Status, Turn, View};

/// Why a failed turn failed, for the causes of `ptc eval` (module docs);
/// `None` for a successful turn or one that called `fail`.
pub fn failure_cause(turn: &Turn) -> Option<String> {
    if let Some(issue) = turn.issue {
        return Some(issue.name().to_string());
    }
    match turn.error() {
        Some(e) if e.kind() != ErrorKind::Fail => Some(e.kind().name().to_string()),
        _ => None,
    }
}

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
    /// Input tokens read from the provider's prompt cache, over all turns.
    pub cached_tokens: u64,
    /// The chars/4 estimate of the prompts whose tokens the provider
    /// reported (the same turns as `input_tokens`).
    pub estimated_tokens: u64,
    /// The token budget's calibration after the run (`render/tokens.rs`):
    /// the largest recent ratio of the provider's count to the budget's
    /// own, and difference; `None` without a budget or a report.
    pub calibration: Option<(f64, i64)>,
    /// Cost in US dollars over all turns (`None` without prices).
    pub cost_usd: Option<f64>,
    /// Failed turns by cause ([`failure_cause`]).
    pub causes: BTreeMap<String, usize>,
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
            cached_tokens: sum(&|u| u.cached_input_tokens),
            estimated_tokens: turns
                .iter()
                .filter(|t| {
                    t.llm
                        .as_ref()
                        .is_some_and(|i| i.usage.input_tokens.is_some())
                })
                .filter_map(|t| session.prompts().get(t.number - 1))
                .map(|sent| crate::render::Tokenizer::Chars4.count(sent) as u64)
                .sum(),
            calibration: session.token_calibration().map(|c| (c.ratio, c.offset)),
            cost_usd: turns
                .iter()
                .filter_map(|t| t.llm.as_ref().and_then(|i| i.cost_usd))
                .reduce(|a, b| a + b),
            causes: turns
                .iter()
                .filter_map(failure_cause)
                .fold(BTreeMap::new(), |mut m, c| {
                    *m.entry(c).or_insert(0) += 1;
                    m
                }),
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
    /// Mean cached input tokens per run.
    pub mean_cached_tokens: f64,
    /// The provider's prompt tokens over the chars/4 estimate of the same
    /// prompts, over all runs (`None` without reports).
    pub reported_over_estimate: Option<f64>,
    /// The largest budget calibration of the view's runs (ratio,
    /// difference), when a budget was set.
    pub calibration: Option<(f64, i64)>,
    /// Total cost of the view's runs in US dollars (`None` without prices).
    pub cost_usd: Option<f64>,
    /// Failed turns by cause, over all runs.
    pub causes: BTreeMap<String, usize>,
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
            mean_cached_tokens: mean(&|r| r.cached_tokens as f64),
            reported_over_estimate: {
                let estimated: u64 = rs.iter().map(|r| r.estimated_tokens).sum();
                let reported: u64 = rs
                    .iter()
                    .filter(|r| r.estimated_tokens > 0)
                    .map(|r| r.input_tokens)
                    .sum();
                (estimated > 0).then(|| reported as f64 / estimated as f64)
            },
            calibration: rs
                .iter()
                .filter_map(|r| r.calibration)
                .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1))),
            cost_usd: rs.iter().filter_map(|r| r.cost_usd).reduce(|a, b| a + b),
            causes: rs.iter().flat_map(|r| r.causes.iter()).fold(
                BTreeMap::new(),
                |mut m, (c, n)| {
                    *m.entry(c.clone()).or_insert(0) += n;
                    m
                },
            ),
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

/// The table `ptc eval` prints: one row per view, then per view the
/// causes of its failed turns.
pub fn table(summaries: &[ViewSummary]) -> String {
    let mut out = format!(
        "{:<13} {:>4} {:>8} {:>8} {:>6} {:>9} {:>6} {:>10} {:>13} {:>17} {:>14} {:>9} {:>9}\n",
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
        "mean cached tk",
        "cost $",
        "mean s"
    );
    for s in summaries {
        let cost = s.cost_usd.map_or("-".to_string(), |c| format!("{c:.4}"));
        out.push_str(&format!(
            "{:<13} {:>4} {:>7.0}% {:>8} {:>6} {:>9} {:>6} {:>10.2} {:>13.1} {:>17.1} {:>14.1} {:>9} {:>9.3}\n",
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
            s.mean_cached_tokens,
            cost,
            s.mean_seconds
        ));
    }
    for s in summaries {
        let causes: Vec<String> = s.causes.iter().map(|(c, n)| format!("{c} {n}")).collect();
        let causes = if causes.is_empty() {
            "none".to_string()
        } else {
            causes.join(", ")
        };
        out.push_str(&format!("failed turns ({}): {causes}\n", view_name(s.view)));
    }
    for s in summaries {
        if let Some(ratio) = s.reported_over_estimate {
            let calibration = match s.calibration {
                Some((r, d)) => format!("; token budget calibrated x {r:.3} or {d:+} tokens"),
                None => String::new(),
            };
            out.push_str(&format!(
                "prompt tokens ({}): the provider reported {ratio:.3} x the chars/4 estimate{calibration}\n",
                view_name(s.view)
            ));
        }
    }
    out
}

/// Makes a fresh session in a view, for one run.
pub type MakeSession<'a> = dyn Fn(View) -> Result<Session, String> + Sync + 'a;
/// Makes a model client, for one run.
pub type MakeLlm<'a> = dyn Fn() -> Result<Box<dyn Llm>, LlmError> + Sync + 'a;
/// Sees each run's record and session as it ends (from the thread that
/// ran it).
pub type OnRun<'a> = dyn Fn(&RunRecord, &Session) + Sync + 'a;

/// Runs the mission `runs` times per view, `jobs` runs at once (at least
/// one). Each run gets a fresh session (`make_session`) and a fresh client
/// (`make_llm`); `on_run` sees each run as it ends (save it, print
/// progress). A retryable LLM failure that outlived its retries makes an
/// `error` run and evaluation goes on; any other LLM failure (a bad key, a
/// rejected request) starts no new run and is returned with the runs that
/// ended. Records are ordered by view, then run index.
pub fn evaluate(
    make_session: &MakeSession<'_>,
    make_llm: &MakeLlm<'_>,
    views: &[View],
    runs: usize,
    jobs: usize,
    on_run: &OnRun<'_>,
) -> Result<Vec<RunRecord>, EvalError> {
    let tasks: Vec<(usize, View, usize)> = views
        .iter()
        .enumerate()
        .flat_map(|(vi, &v)| (0..runs).map(move |i| (vi, v, i)))
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done: Mutex<Vec<(usize, RunRecord)>> = Mutex::new(Vec::new());
    let fatal: Mutex<Option<EvalError>> = Mutex::new(None);
    let worker = || {
        while !stop.load(Ordering::SeqCst) {
            let k = next.fetch_add(1, Ordering::SeqCst);
            let Some(&(_, view, index)) = tasks.get(k) else {
                break;
            };
            match one_run(make_session, make_llm, view, index) {
                Ok((record, session, error)) => {
                    on_run(&record, &session);
                    lock(&done).push((k, record));
                    if let Some(e) = error.filter(|e| !e.kind.is_retryable()) {
                        stop.store(true, Ordering::SeqCst);
                        lock(&fatal).get_or_insert(EvalError::Llm(e, Vec::new()));
                    }
                }
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    lock(&fatal).get_or_insert(e);
                }
            }
        }
    };
    let jobs = jobs.clamp(1, tasks.len().max(1));
    if jobs == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(worker);
            }
        });
    }
    let mut done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    done.sort_by_key(|(k, _)| *k);
    let records: Vec<RunRecord> = done.into_iter().map(|(_, r)| r).collect();
    match fatal.into_inner().unwrap_or_else(|p| p.into_inner()) {
        None => Ok(records),
        Some(EvalError::Llm(e, _)) => Err(EvalError::Llm(e, records)),
        Some(other) => Err(other),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

type RunOutcome = (RunRecord, Session, Option<LlmError>);

/// One run: its record, its session and the LLM error that ended it.
fn one_run(
    make_session: &MakeSession<'_>,
    make_llm: &MakeLlm<'_>,
    view: View,
    index: usize,
) -> Result<RunOutcome, EvalError> {
    let mut session = make_session(view).map_err(EvalError::Session)?;
    let mut llm = make_llm().map_err(|e| EvalError::Llm(e, Vec::new()))?;
    let start = Instant::now();
    let result = run(&mut session, &mut llm, &mut |_: &Session, _: &Turn| {
        ControlFlow::Continue(())
    });
    let seconds = start.elapsed().as_secs_f64();
    let error = match result {
        Ok(RunEnd::Ended | RunEnd::Stopped | RunEnd::Paused) => None,
        Err(AgentError::Llm { error, .. }) => Some(error),
        Err(AgentError::Session(e)) => return Err(EvalError::Session(e.to_string())),
    };
    let record = RunRecord::of(&session, view, index, seconds, error.as_ref());
    Ok((record, session, error))
}

/// Why evaluation stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// A session could not be made.
    Session(String),
    /// A non-retryable LLM failure; the runs so far, the failed one last.
    Llm(LlmError, Vec<RunRecord>),
}
