//! One client's session: its [`Session`], the calls it runs (one at a
//! time, on the shared workers of `pool.rs`, interruptible, at most
//! `max_queued` waiting behind the running one) and its recording
//! (`--out`, appended to after every call).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::pool::Load;
use super::{Slot, Template};
use crate::session::{self, CallFile, Decision, Feedback, PendingCall, Session, SessionFile};

/// What one `run_ptc_lisp` call gives back.
pub struct Ran {
    /// The turn's feedback (hidden data redacted).
    pub feedback: Feedback,
    /// Names the turn defined.
    pub defined: Vec<String>,
    /// The error's line and column in the program.
    pub position: Option<(usize, usize)>,
    /// The first call answered in this MCP session.
    pub first: bool,
}

/// How a turn ended: answered, or paused at calls awaiting approval.
pub enum Outcome {
    /// The turn ended (well or not).
    Done(Ran),
    /// The turn paused at these calls (ACT-2).
    Paused(Vec<PendingCall>),
}

/// What a turn that ran left: the names it defined, its error's position.
type Ended = (Vec<String>, Option<(usize, usize)>);

/// A client's session.
pub struct ClientSession {
    template: Arc<Template>,
    inner: Mutex<Inner>,
    record: Option<PathBuf>,
    /// One permit: the call running (or about to) holds it.
    pub(super) turn: Arc<tokio::sync::Semaphore>,
    /// Calls admitted and not yet ended (the running one included).
    pub(super) pending: AtomicUsize,
    /// Recent busy time: the weight of its calls on the shared workers.
    pub(super) load: Arc<Load>,
    /// Its place among the server's sessions.
    _slot: Slot,
    /// Set once a call was answered (the first answer carries a note).
    answered: AtomicBool,
}

struct Inner {
    session: Session,
    /// How many times `ptc_reset` ran.
    resets: usize,
}

/// Why the calls of a turn left paused are denied.
const UNANSWERED: &str = "the request that paused the turn ended before the user answered";

/// Numbers the recordings of one server process.
static NEXT: AtomicUsize = AtomicUsize::new(1);

impl ClientSession {
    /// A fresh session from `template`, in the place `slot`.
    pub fn new(template: Arc<Template>, slot: Slot) -> Result<ClientSession, String> {
        let session = template.session()?;
        let record = template.options().out_dir.as_ref().map(|dir| {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            dir.join(format!("mcp-{secs}-{}-{n}.json", std::process::id()))
        });
        Ok(ClientSession {
            template,
            inner: Mutex::new(Inner { session, resets: 0 }),
            record,
            turn: Arc::new(tokio::sync::Semaphore::new(1)),
            pending: AtomicUsize::new(0),
            load: Arc::new(Load::default()),
            _slot: slot,
            answered: AtomicBool::new(false),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic inside a turn is caught by the interpreter; a poisoned
        // lock still holds a consistent session (turns are atomic).
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `program` as the next turn; `interrupt`, once set, stops it.
    /// Blocking: call it off the async runtime. A turn that pauses for
    /// approval (ACT-2) is [`Outcome::Paused`]: answer it with
    /// [`ClientSession::resume`].
    pub fn run(&self, program: &str, interrupt: Arc<AtomicBool>) -> Result<Outcome, String> {
        let mut inner = self.lock();
        let session = &mut inner.session;
        // A turn left paused (its request cancelled while the user was
        // asked) ends first, its pending calls denied.
        if session.can_resume() {
            let denied = session
                .pending()
                .iter()
                .map(|c| (c.id.clone(), Decision::Deny(UNANSWERED.to_string())))
                .collect();
            if let Err(e) = session.resume(denied) {
                eprintln!("ptc mcp: {e}");
            }
        }
        session.set_interrupt(Some(interrupt));
        // A program sent in a code fence (as models like to) is taken out
        // of it (R-70); anything else runs as written.
        let fenced = program.lines().any(|l| l.trim_start().starts_with("```"));
        let turn = if fenced {
            session.run_turn(program)
        } else {
            session.run_program(program)
        };
        let ran = turn.map(|turn| {
            (
                turn.defined.clone(),
                turn.error().and_then(|e| e.line_col()),
            )
        });
        session.set_interrupt(None);
        self.finish(inner, ran.map_err(|e| e.to_string()))
    }

    /// Continues the paused turn with `decisions` (by pending call id).
    /// Blocking, like [`ClientSession::run`].
    pub fn resume(
        &self,
        decisions: BTreeMap<String, Decision>,
        interrupt: Arc<AtomicBool>,
    ) -> Result<Outcome, String> {
        let mut inner = self.lock();
        let session = &mut inner.session;
        session.set_interrupt(Some(interrupt));
        let ran = session.resume(decisions).map(|turn| {
            (
                turn.defined.clone(),
                turn.error().and_then(|e| e.line_col()),
            )
        });
        session.set_interrupt(None);
        self.finish(inner, ran.map_err(|e| e.to_string()))
    }

    /// What a turn that ran gives back: its pending calls when it paused
    /// (not recorded: its resumed turn is), else its feedback, recorded.
    fn finish(
        &self,
        mut inner: MutexGuard<'_, Inner>,
        ran: Result<Ended, String>,
    ) -> Result<Outcome, String> {
        let (defined, position) = ran?;
        let session = &inner.session;
        if session.turns().last().is_some_and(|t| t.is_paused()) {
            return Ok(Outcome::Paused(session.pending().to_vec()));
        }
        let feedback =
            session::turn_feedback(session).ok_or_else(|| "the turn left no record".to_string())?;
        // A call refused for the session's memory changed nothing, and a
        // replay (which has no such limit) would not refuse it: it is not
        // recorded.
        if !session.last_turn_over_memory() {
            if let Err(e) = self.save(&inner) {
                eprintln!("ptc mcp: {e}");
            }
        }
        // Nothing needs the earlier turns: the recording has them. The last
        // stays (what the next one may go back to).
        inner.session.forget_turns(1);
        Ok(Outcome::Done(Ran {
            feedback,
            defined,
            position,
            first: !self.answered.swap(true, Ordering::SeqCst),
        }))
    }

    /// The `tool/`, `data/` and `user/` listing.
    pub fn listing(&self) -> String {
        session::listing(&self.lock().session)
    }

    /// Drops every turn (and so every definition); with a recording, the
    /// turns before stay in their own file.
    pub fn reset(&self) -> Result<usize, String> {
        let mut inner = self.lock();
        let before = inner.session.turns().last().map_or(0, |t| t.number);
        if before == 0 {
            return Ok(0);
        }
        if let Some(path) = &self.record {
            inner.resets += 1;
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let old = path.with_file_name(format!("{stem}-before-reset-{}.json", inner.resets));
            if path.exists() {
                if let Err(e) = std::fs::rename(path, &old) {
                    eprintln!("ptc mcp: cannot keep {}: {e}", path.display());
                }
            }
        }
        // A fresh session: also forgets what the interpreter keeps beside
        // user/ (*1 *2 *3, recorded return values, hidden marks).
        inner.session = self.template.session()?;
        Ok(before)
    }

    /// Appends the last turn to the recording, when there is one (the
    /// header, the session file without turns, first when the file is
    /// new): one line each, so a call costs what its own turn costs
    /// whatever the length of the session.
    fn save(&self, inner: &Inner) -> Result<(), String> {
        let Some(path) = &self.record else {
            return Ok(());
        };
        let Some(turn) = inner.session.turns().last() else {
            return Ok(());
        };
        let fail =
            |e: std::io::Error| format!("{}: cannot write the recording: {e}", path.display());
        let mut out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        let mut text = String::new();
        if out.metadata().map_err(fail)?.len() == 0 {
            text.push_str(&self.template.recording_header(&inner.session, path)?);
            text.push('\n');
        }
        let calls: Vec<CallFile> = CallFile::all_of(&turn.tool_calls);
        text.push_str(&SessionFile::journal_line(&turn.raw_response, &calls));
        text.push('\n');
        out.write_all(text.as_bytes()).map_err(fail)
    }
}
