//! The runner: next prompt → LLM → turn → observer, until the session
//! ends, the observer or a stop flag stops it, or the LLM fails.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Llm, LlmError};
use crate::format::to_clojure;
use crate::session::{Session, SessionError, Turn};

/// Sees every turn as it ends (progress lines, saving the session file);
/// `Break` stops the run after that turn.
pub trait Observer {
    /// Called after `turn` was added to `session`.
    fn turn_ended(&mut self, session: &Session, turn: &Turn) -> ControlFlow<()>;
}

impl<F: FnMut(&Session, &Turn) -> ControlFlow<()>> Observer for F {
    fn turn_ended(&mut self, session: &Session, turn: &Turn) -> ControlFlow<()> {
        self(session, turn)
    }
}

/// How a run that did not fail ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The session returned, failed or ran out of turns (see its status).
    Ended,
    /// The observer or the stop flag stopped it; the session may go on.
    Stopped,
    /// The last turn paused at calls awaiting approval (ACT-2): resume it
    /// ([`Session::resume`]), then run again.
    Paused,
}

/// Why a run could not go on.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentError {
    /// The LLM gave no response for turn `turn` (the turns before it ran
    /// and are in the session).
    Llm {
        /// The 1-based number of the turn that got no response.
        turn: usize,
        /// The client's error.
        error: LlmError,
    },
    /// The session had already ended when the run started.
    Session(SessionError),
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Llm { turn, error } => write!(f, "turn {turn}: the LLM failed: {error}"),
            AgentError::Session(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AgentError {}

/// Runs the session with `llm` until it ends or `observer` stops it.
pub fn run(
    session: &mut Session,
    llm: &mut dyn Llm,
    observer: &mut dyn Observer,
) -> Result<RunEnd, AgentError> {
    run_with_stop(session, llm, observer, &AtomicBool::new(false))
}

/// [`run`], also stopping before the next LLM call once `stop` is set (a
/// Ctrl-C handler sets it: the turn under way finishes and is recorded).
pub fn run_with_stop(
    session: &mut Session,
    llm: &mut dyn Llm,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<RunEnd, AgentError> {
    if !session.status().is_running() {
        return Err(AgentError::Session(SessionError::Ended(
            session.status().clone(),
        )));
    }
    while session.status().is_running() {
        if stop.load(Ordering::SeqCst) {
            return Ok(RunEnd::Stopped);
        }
        let number = session.turns().len() + 1;
        let response = llm
            .complete(session.next_prompt())
            .map_err(|error| AgentError::Llm {
                turn: number,
                error,
            })?;
        let info = response.info();
        session
            .run_reply_owned(response.reply(), Some(info))
            .map_err(AgentError::Session)?;
        let Some(turn) = session.turns().last() else {
            break;
        };
        if observer.turn_ended(session, turn).is_break() {
            return Ok(RunEnd::Stopped);
        }
        if session.can_resume() {
            return Ok(RunEnd::Paused);
        }
    }
    Ok(RunEnd::Ended)
}

/// Longest program line or value shown in a [`turn_line`].
const SHOWN_CHARS: usize = 60;

fn shorten(s: &str) -> String {
    let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let more = s.trim_end().contains('\n') || line.chars().count() > SHOWN_CHARS;
    let cut: String = line.trim().chars().take(SHOWN_CHARS).collect();
    let mut out = escape_controls(&cut);
    if more {
        out.push_str(" …");
    }
    out
}

/// `text` with its control characters (terminal escape sequences, BEL,
/// CR…) written as `\u{1b}`: what the model wrote is shown on a terminal,
/// never sent to it raw.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// One line about a turn, as `ptc agent` prints it:
/// `turn 2  (def total (reduce + data/nums))  ok 6  tokens 812/31  1.20s`.
/// The program's first line (`(no code)` when the response held none);
/// `ok VALUE`, `returned VALUE`, `failed`, the reply issue (`error
/// cut-off`, `error protocol`, `error empty`, `error no-code`) or the error
/// kind; tokens in/out (`?` when not reported), then ` cached N` when the
/// provider read N input tokens from its prompt cache; `$COST` when the
/// client had prices; seconds.
pub fn turn_line(turn: &Turn) -> String {
    let program = match &turn.program {
        Some(p) => shorten(p),
        None => "(no code)".into(),
    };
    let outcome = match &turn.result {
        Ok(v) if turn.returned => format!("returned {}", shorten(&to_clojure(v, None, None).0)),
        Ok(v) => format!("ok {}", shorten(&to_clojure(v, None, None).0)),
        Err(e) if e.kind() == crate::ErrorKind::Fail => "failed".into(),
        Err(_) if turn.issue.is_some() => {
            format!("error {}", turn.issue.map_or("", |i| i.name()))
        }
        Err(e) => format!("error {}", e.kind().name()),
    };
    let count = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
    let (tokens, seconds) = match &turn.llm {
        Some(i) => (
            format!(
                "{}/{}{}{}",
                count(i.usage.input_tokens),
                count(i.usage.output_tokens),
                i.usage
                    .cached_input_tokens
                    .filter(|n| *n > 0)
                    .map(|n| format!(" cached {n}"))
                    .unwrap_or_default(),
                i.cost_usd.map(|c| format!("  ${c:.4}")).unwrap_or_default()
            ),
            i.latency_ms as f64 / 1000.0,
        ),
        None => ("?/?".into(), 0.0),
    };
    format!(
        "turn {}  {program}  {outcome}  tokens {tokens}  {seconds:.2}s",
        turn.number
    )
}
