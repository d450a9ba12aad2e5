//! Paused and unfinished turns, resumed; previews (`act.rs` has the
//! rules ACT-1 … ACT-5).
//!
//! A turn that pauses ([`Turn::is_paused`]) stays the session's last turn,
//! changing nothing, until [`Session::resume`] runs its program again with
//! the decisions taken: the calls it made before the pause answer from its
//! record by site, an approved call runs once, a denied one fails. The
//! session takes no new turn meanwhile ([`SessionError::Paused`]).
//!
//! **In a session file** a paused turn is not among `"turns"`: the file
//! has a `"resume"` object instead —
//!
//! ```json
//! "resume": {"turn": 3, "state": "paused", "response": "…the reply…",
//!            "tool_calls": [{"tool": "lookup", "args": ["a"], "returns": 1}],
//!            "pending": [{"id": "1", "tool": "charge", "args": [5], "key": "…:3:1"}],
//!            "decisions": {"1": "approve", "2": {"deny": "too much"}}}
//! ```
//!
//! — and `"state": "running"` for a turn that was under way when ptc
//! stopped (`ptc run --out F` writes it before the turn starts; its writes
//! are in the journal `F.journal`). Loading the file runs the other turns;
//! [`Session::resume`] then runs this one (rule ACT-4 for its journaled
//! writes).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::act::{Decision, Journal, PendingCall, PreviewedWrite};
use super::llm::{LlmInfo, ReplyCall};
use super::recording::{decode, encode, CallFile, RecordedCall};
use super::{Session, SessionError, SessionFile, Turn};
use crate::value::Value;

/// A paused or unfinished turn, to resume.
#[derive(Clone, Debug)]
pub(crate) struct PausedTurn {
    number: usize,
    text: String,
    calls: Option<Vec<ReplyCall>>,
    llm: Option<LlmInfo>,
    /// The calls made before the pause, with their sites.
    recorded: Vec<CallFile>,
    pending: Vec<PendingCall>,
    decisions: BTreeMap<String, Decision>,
    /// Under way when ptc stopped (a file's `"state": "running"`).
    unfinished: bool,
}

/// The `"resume"` object of a session file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResumeFile {
    /// The turn's number.
    pub turn: usize,
    /// `"paused"` or `"running"` (ptc stopped while it ran).
    pub state: String,
    /// The reply whose program the turn runs.
    pub response: String,
    /// The function calls of a tool-protocol reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<Vec<ReplyCall>>,
    /// What the LLM reported for the reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmInfo>,
    /// The calls made before the pause.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<CallFile>,
    /// The calls awaiting approval.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<PendingFile>,
    /// Decisions taken so far, by call id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub decisions: BTreeMap<String, Decision>,
}

/// A pending call as a session file writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingFile {
    /// The call's id (its site).
    pub id: String,
    /// The tool.
    pub tool: String,
    /// The arguments, recorded values.
    pub args: Vec<Json>,
    /// The idempotency key of a write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

impl PendingFile {
    /// The file form of a pending call.
    pub fn of(c: &PendingCall) -> PendingFile {
        PendingFile {
            id: c.id.clone(),
            tool: c.tool.clone(),
            args: c.args.iter().map(encode).collect(),
            key: c.key.clone(),
        }
    }
}

/// What a preview found: the program's outcome and the writes it would
/// have made (ACT-5).
#[derive(Clone, Debug)]
pub struct Preview {
    /// The turn as it ran (memory and the session unchanged).
    pub turn: Turn,
    /// The writes, in site order.
    pub writes: Vec<PreviewedWrite>,
}

impl Session {
    /// The session's id (what its writes' idempotency keys start with).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Journals the writes of this session's turns in `path` from now on
    /// (ACT-4; `None` stops).
    pub fn set_journal(&mut self, path: Option<std::path::PathBuf>) {
        self.journal = path;
    }

    /// Whether every write waits for approval (`"approval": "writes"`).
    pub fn approves_writes(&self) -> bool {
        self.act.lock().approval_writes
    }

    /// The calls the paused turn waits on (empty when none is paused).
    pub fn pending(&self) -> &[PendingCall] {
        self.paused.as_ref().map_or(&[], |p| &p.pending)
    }

    /// Whether a turn awaits [`Session::resume`]: paused, or under way when
    /// the process that saved the file stopped.
    pub fn can_resume(&self) -> bool {
        self.paused.is_some()
    }

    /// Continues the paused (or unfinished) turn with `decisions` added to
    /// those already taken, by call id (ACT-2): it runs again from its
    /// start, the calls made before the pause answered from its record.
    /// The turn replaces the paused one; it may pause again at a later
    /// call.
    pub fn resume(&mut self, decisions: BTreeMap<String, Decision>) -> Result<&Turn, SessionError> {
        let Some(mut p) = self.paused.take() else {
            return Err(SessionError::NothingToResume);
        };
        if let Some(last) = self.turns.last() {
            if last.number == p.number && last.is_paused() {
                self.truncate_turns(self.turns.len() - 1);
            }
        }
        p.decisions.extend(decisions);
        let recorded = match RecordedCall::read_turn(p.number, &p.recorded) {
            Ok(r) => r,
            Err(e) => {
                self.paused = Some(p);
                return Err(e);
            }
        };
        {
            let mut a = self.act.lock();
            a.decisions = p.decisions.clone();
            a.resuming = true;
        }
        self.replay.start_by_site(recorded);
        let program = super::reply::program_of(
            &super::llm::Reply {
                text: p.text.clone(),
                calls: p.calls.clone(),
            },
            p.llm.as_ref(),
        );
        let ran = self
            .run_extracted(p.text.clone(), p.calls.clone(), program, p.llm.clone())
            .map(|_| ());
        let mismatch = self.replay.finish();
        {
            let mut a = self.act.lock();
            a.decisions.clear();
            a.resuming = false;
        }
        if let Err(e) = ran {
            self.paused = Some(p);
            return Err(e);
        }
        if let Some(message) = mismatch {
            self.truncate_turns(self.turns.len() - 1);
            self.paused = None;
            return Err(SessionError::Recording {
                turn: p.number,
                message,
            });
        }
        // Paused again: the decisions taken stay with it.
        if let Some(again) = self.paused.as_mut() {
            let mut all = p.decisions;
            all.extend(std::mem::take(&mut again.decisions));
            again.decisions = all;
        }
        Ok(&self.turns[self.turns.len() - 1])
    }

    /// Runs `program` as a preview (ACT-5): every write answered with its
    /// tool's preview value without running it, reads run; the session
    /// and its memory are left as they were.
    pub fn preview(&mut self, program: &str) -> Result<Preview, SessionError> {
        if self.paused.is_some() {
            return Err(SessionError::Paused);
        }
        let keep = self.turns.len();
        let status = self.status.clone();
        let journal = self.journal.take();
        self.act.lock().preview = Some(Vec::new());
        let ran = self.run_program(program).map(|_| ());
        let writes = self.act.lock().preview.take().unwrap_or_default();
        self.journal = journal;
        ran?;
        let mut dropped = self.truncate_turns(keep);
        self.status = status;
        self.paused = None;
        let turn = dropped.pop().ok_or(SessionError::NothingToResume)?;
        Ok(Preview { turn, writes })
    }

    /// Sets up the turn `number` about to run (`run_extracted`): its
    /// number for idempotency keys, the journal.
    pub(super) fn begin_acting(&mut self, number: usize) -> Result<(), SessionError> {
        let resumed = self.act.lock().resuming;
        let journal = match &self.journal {
            Some(path) if self.act.lock().preview.is_none() => {
                Some(Journal::open(path, number, !resumed).map_err(SessionError::Invalid)?)
            }
            _ => None,
        };
        let mut a = self.act.lock();
        a.turn = number;
        a.pending.clear();
        a.journal = journal;
        Ok(())
    }

    /// The pending calls of the turn that just ran (with their keys).
    pub(super) fn end_acting(&mut self) -> Vec<PendingCall> {
        let mut a = self.act.lock();
        a.journal = None;
        let mut pending = std::mem::take(&mut a.pending);
        pending.sort_by(|x, y| crate::eval::group::site_order(&x.id, &y.id));
        pending
    }

    /// Keeps the last turn to resume when it paused.
    pub(super) fn note_paused(&mut self) {
        let Some(t) = self.turns.last() else { return };
        if !t.is_paused() {
            return;
        }
        let Some(program) = &t.program else { return };
        let _ = program;
        self.paused = Some(PausedTurn {
            number: t.number,
            text: t.raw_response.clone(),
            calls: t.calls.clone(),
            llm: t.llm.as_deref().cloned(),
            recorded: CallFile::all_of(&t.tool_calls),
            pending: t.pending.clone(),
            decisions: BTreeMap::new(),
            unfinished: false,
        });
    }

    /// The `"resume"` object for the paused turn, if any.
    pub(super) fn resume_file(&self) -> Option<ResumeFile> {
        let p = self.paused.as_ref()?;
        Some(ResumeFile {
            turn: p.number,
            state: if p.unfinished { "running" } else { "paused" }.into(),
            response: p.text.clone(),
            calls: p.calls.clone(),
            llm: p.llm.clone(),
            tool_calls: p.recorded.clone(),
            pending: p.pending.iter().map(PendingFile::of).collect(),
            decisions: p.decisions.clone(),
        })
    }

    /// Takes up a file's `"resume"` object (after its turns ran).
    pub(crate) fn take_resume(&mut self, r: &ResumeFile) -> Result<(), String> {
        let pending = r
            .pending
            .iter()
            .map(|c| {
                Ok(PendingCall {
                    id: c.id.clone(),
                    tool: c.tool.clone(),
                    args: c
                        .args
                        .iter()
                        .map(decode)
                        .collect::<Result<Vec<Value>, String>>()?,
                    key: c.key.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let expected = self.forgotten + self.turns.len() + 1;
        if r.turn != expected {
            return Err(format!(
                "\"resume\" is for turn {}, but the file's turns make it turn {expected}",
                r.turn
            ));
        }
        if r.state != "paused" && r.state != "running" {
            return Err(format!(
                "\"resume\": \"state\" is \"paused\" or \"running\", not {:?}",
                r.state
            ));
        }
        self.paused = Some(PausedTurn {
            number: r.turn,
            text: r.response.clone(),
            calls: r.calls.clone(),
            llm: r.llm.clone(),
            recorded: r.tool_calls.clone(),
            pending,
            decisions: r.decisions.clone(),
            unfinished: r.state == "running",
        });
        Ok(())
    }

    /// The session file with `raw` as the turn under way (`"state":
    /// "running"`): what `ptc run --out F` writes before the turn starts,
    /// so that `ptc resume F` finds it if ptc stops.
    pub fn to_file_running(&self, raw: &str, path: &Path) -> SessionFile {
        let mut file = self.to_file_at(path);
        file.resume = Some(ResumeFile {
            turn: self.forgotten + self.turns.len() + 1,
            state: "running".into(),
            response: raw.to_string(),
            calls: None,
            llm: None,
            tool_calls: Vec::new(),
            pending: Vec::new(),
            decisions: BTreeMap::new(),
        });
        file
    }

    /// The session file with the paused turn's decisions so far plus
    /// `decisions`, marked as running: what `ptc resume F` writes before
    /// it runs the turn again.
    pub fn to_file_resuming(
        &self,
        decisions: &BTreeMap<String, Decision>,
        path: &Path,
    ) -> SessionFile {
        let mut file = self.to_file_at(path);
        if let Some(r) = file.resume.as_mut() {
            r.decisions.extend(decisions.clone());
            r.state = "running".into();
        }
        file
    }
}

/// Writes `file` to `path` atomically and durably: a temp file beside it,
/// fsynced, renamed over it, the directory fsynced.
pub fn save_file(file: &SessionFile, path: &Path) -> Result<(), String> {
    let json = serde_json::to_string_pretty(file)
        .map_err(|e| format!("cannot write the session as JSON: {e}"))?;
    write_atomically(path, &(json + "\n"))
        .map_err(|e| format!("{}: cannot write the session file: {e}", path.display()))
}

/// Writes `text` to `path` through `path.tmp-PID` + rename, both fsynced.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        super::act::sync_dir(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
