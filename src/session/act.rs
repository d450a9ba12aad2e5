//! Tools that act (`session.md` §Tools that act): effects, approval
//! pauses, idempotency keys, the intent journal, and previews.
//!
//! **Effects (ACT-1).** Every tool reads or writes ([`Effect`]). A session
//! file's tool says so with `"effect": "read"` or `"write"`; without it a
//! `command` tool is a write and a canned one (`returns`, `responses`) a
//! read; an MCP tool is a read when its annotations say `readOnlyHint:
//! true`, else a write; a Rust closure or Python callable is a read unless
//! declared. The prompt's tool listing ends a writing tool's comment with
//! `, writes`.
//!
//! **Approval (ACT-2).** A tool with `"approval": true`, or every write
//! when the session says `"approval": "writes"`, pauses the turn at its
//! call unless that call (named by its site, CALL-SITE-1 in
//! `eval/group.rs`) has a decision: nothing after the call runs, memory is
//! unchanged, and the turn is *paused* with its pending calls (tool,
//! arguments, id = the site). Resuming runs the turn's program again: the
//! calls it made before the pause are answered from its record (by site;
//! a call that no longer matches its record is a recording error, never a
//! silent re-run), an approved call runs once, a denied one fails with a
//! `tool-error` whose message carries the reason ("denied: REASON"), which
//! the program can catch.
//!
//! **Idempotency keys (ACT-3).** Every write call has the key
//! `SESSION-ID:TURN:SITE`, stable across resumes and replays; a command
//! tool gets it as `"idempotency_key"` in its request, an MCP tool in the
//! call's `_meta`, a Python tool as the keyword `idempotency_key` when it
//! accepts one.
//!
//! **The journal (ACT-4).** With a journal (`ptc run --out F`, `ptc
//! resume F`: the file `F.journal` beside it), each write is preceded by
//! its intent — one JSON line `{"turn", "at", "key", "tool", "args"}`,
//! fsynced — and followed by its answer `{"turn", "at", "returns"|"error"}`,
//! fsynced. Resuming a turn whose journal holds an answer for a write
//! answers it from there; one that holds only its intent never runs it
//! again: the turn ends in `indeterminate`, naming the call and its key —
//! unless the tool is declared `"idempotent": true`, which is run again
//! with the same key. Reads are not journaled: they may run again.
//!
//! **Preview (ACT-5).** A preview runs the program with every write
//! answered by the tool's `"preview"` value (else nil) without running it,
//! and lists the writes it would make, in site order, with their
//! arguments.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::recording::{decode, encode};
use crate::error::{Error, ErrorKind};
use crate::eval::CallAnswer;
use crate::value::Value;

/// Whether a tool only reads or changes the world (ACT-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// It only reads: it may run again (a resumed or retried turn).
    #[default]
    Read,
    /// It changes something: journaled, keyed, previewed, approvable.
    Write,
}

/// How a tool acts: its effect, whether its calls need approval, whether
/// running it again with the same key is safe, and its preview answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Acts {
    /// Read or write.
    pub effect: Effect,
    /// Every call pauses the turn for approval (ACT-2).
    pub approval: bool,
    /// Running it again with the same idempotency key has no further
    /// effect: after a crash between intent and answer it is run again
    /// instead of ending the turn `indeterminate` (ACT-4).
    pub idempotent: bool,
    /// What a preview answers for a write (ACT-5); nil when `None`.
    pub preview: Option<Value>,
}

impl Acts {
    /// A write with no other declaration.
    pub fn write() -> Acts {
        Acts {
            effect: Effect::Write,
            ..Acts::default()
        }
    }
    /// Whether the tool writes.
    pub fn writes(&self) -> bool {
        self.effect == Effect::Write
    }
}

/// What was decided about a pending call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Run it (once).
    Approve,
    /// Fail it with a `tool-error` carrying this reason.
    Deny(String),
}

/// A call a paused turn waits on.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingCall {
    /// What approves or denies it: the call's site (CALL-SITE-1).
    pub id: String,
    /// The tool's name without `tool/`.
    pub tool: String,
    /// The arguments.
    pub args: Vec<Value>,
    /// Its idempotency key, when the tool writes.
    pub key: Option<String>,
}

/// A write a preview would have made.
#[derive(Clone, Debug, PartialEq)]
pub struct PreviewedWrite {
    /// The call's site.
    pub at: String,
    /// The tool's name without `tool/`.
    pub tool: String,
    /// The arguments.
    pub args: Vec<Value>,
}

/// One line of a journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    turn: usize,
    at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    args: Option<Vec<Json>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    returns: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// What the journal says of a write.
#[derive(Clone, Debug)]
enum Journaled {
    /// Its intent, no answer: it may or may not have happened.
    Intent { key: String, tool: String },
    /// Its answer.
    Answer(Result<Value, String>),
}

/// The intent journal of one session file (ACT-4).
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    turn: usize,
    /// What earlier runs of this turn recorded, by site.
    before: BTreeMap<String, Journaled>,
}

impl Journal {
    /// The journal beside the session file `out`: `OUT.journal`.
    pub fn path_for(out: &Path) -> PathBuf {
        let mut name = out.file_name().unwrap_or_default().to_os_string();
        name.push(".journal");
        out.with_file_name(name)
    }

    /// Opens the journal of turn `turn` at `path`: `fresh` starts it empty
    /// (a new turn), else what it holds for `turn` is read first and new
    /// entries are appended (a resumed one); entries of other turns are
    /// ignored.
    pub fn open(path: &Path, turn: usize, fresh: bool) -> Result<Journal, String> {
        let mut before = BTreeMap::new();
        if !fresh {
            if let Ok(f) = std::fs::File::open(path) {
                for line in std::io::BufReader::new(f).lines() {
                    let Ok(line) = line else { break };
                    // A line cut short by a crash is the last one: ignored.
                    let Ok(e) = serde_json::from_str::<Entry>(&line) else {
                        continue;
                    };
                    if e.turn != turn {
                        continue;
                    }
                    let state = match (&e.returns, &e.error, &e.tool) {
                        (_, Some(msg), _) => Journaled::Answer(Err(msg.clone())),
                        (Some(v), None, _) => Journaled::Answer(decode(v)),
                        (None, None, Some(tool)) => Journaled::Intent {
                            key: e.key.clone().unwrap_or_default(),
                            tool: tool.clone(),
                        },
                        (None, None, None) => Journaled::Answer(Ok(Value::Nil)),
                    };
                    match (before.get(&e.at), &state) {
                        (Some(Journaled::Answer(_)), Journaled::Intent { .. }) => {}
                        _ => {
                            before.insert(e.at.clone(), state);
                        }
                    }
                }
            }
        }
        // A new turn starts the journal empty; a resumed one appends, so
        // that nothing it held is lost if ptc stops again.
        let file = if fresh {
            std::fs::File::create(path)
        } else {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
        }
        .map_err(|e| format!("{}: cannot write the journal: {e}", path.display()))?;
        file.sync_all()
            .map_err(|e| format!("{}: cannot write the journal: {e}", path.display()))?;
        sync_dir(path);
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            turn,
            before,
        })
    }

    fn append(&mut self, e: &Entry) -> Result<(), String> {
        let line = serde_json::to_string(e).map_err(|e| e.to_string())?;
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|err| format!("{}: cannot write the journal: {err}", self.path.display()))
    }

    /// Records that the write at `at` is about to run (fsynced).
    fn intent(&mut self, at: &str, key: &str, tool: &str, args: &[Value]) -> Result<(), String> {
        self.append(&Entry {
            turn: self.turn,
            at: at.to_string(),
            key: Some(key.to_string()),
            tool: Some(tool.to_string()),
            args: Some(args.iter().map(encode).collect()),
            returns: None,
            error: None,
        })
    }

    /// Records the write's answer (fsynced).
    fn answer(&mut self, at: &str, answer: &Result<Value, String>) -> Result<(), String> {
        self.append(&Entry {
            turn: self.turn,
            at: at.to_string(),
            key: None,
            tool: None,
            args: None,
            returns: answer.as_ref().ok().map(encode),
            error: answer.as_ref().err().cloned(),
        })
    }

    /// Removes the journal (its turn is saved in the session file).
    pub fn remove(path: &Path) {
        let _ = std::fs::remove_file(path);
    }
}

/// Makes a rename or a new file in `path`'s directory durable.
pub(crate) fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// What the turn under way does with writes and approvals.
#[derive(Default)]
pub(crate) struct Acting {
    /// Every write needs approval (`"approval": "writes"`).
    pub approval_writes: bool,
    /// What idempotency keys start with.
    pub session_id: String,
    /// The turn under way.
    pub turn: usize,
    /// Decisions on pending calls, by site.
    pub decisions: BTreeMap<String, Decision>,
    /// The journal, with `--out`.
    pub journal: Option<Journal>,
    /// The writes a preview would make (a preview is under way).
    pub preview: Option<Vec<PreviewedWrite>>,
    /// The calls the turn paused at, with their keys.
    pub pending: Vec<PendingCall>,
    /// The turn under way resumes a paused or unfinished one.
    pub resuming: bool,
}

/// [`Acting`], shared by the session and its host.
#[derive(Clone, Default)]
pub(crate) struct ActSlot(pub(crate) Arc<Mutex<Acting>>);

/// What the host does with a call before running its tool.
pub(crate) enum Gate {
    /// Answered without running the tool: a value or error, a pause, or
    /// the turn's end.
    Answer(CallAnswer),
    /// Run the tool, with this idempotency key (writes); the intent is
    /// journaled when `journaled`.
    Run {
        key: Option<String>,
        journaled: bool,
    },
}

impl ActSlot {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Acting> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Decides what happens to the call of `tool` (acting as `acts`) at
    /// `at`, journaling a write's intent before it runs.
    pub(crate) fn gate(&self, tool: &str, acts: &Acts, args: &[Value], at: &str) -> Gate {
        let mut a = self.lock();
        let writes = acts.writes();
        if let (Some(preview), true) = (a.preview.as_mut(), writes) {
            preview.push(PreviewedWrite {
                at: at.to_string(),
                tool: tool.to_string(),
                args: args.to_vec(),
            });
            return Gate::Answer(CallAnswer::Done(Ok(acts
                .preview
                .clone()
                .unwrap_or(Value::Nil))));
        }
        let key = writes.then(|| format!("{}:{}:{}", a.session_id, a.turn, at));
        if acts.approval || (writes && a.approval_writes) {
            match a.decisions.get(at) {
                Some(Decision::Approve) => {}
                Some(Decision::Deny(reason)) => {
                    return Gate::Answer(CallAnswer::Done(Err(format!("denied: {reason}"))));
                }
                None => {
                    a.pending.push(PendingCall {
                        id: at.to_string(),
                        tool: tool.to_string(),
                        args: args.to_vec(),
                        key: key.clone(),
                    });
                    return Gate::Answer(CallAnswer::Pause);
                }
            }
        }
        let Some(key) = key else {
            return Gate::Run {
                key: None,
                journaled: false,
            };
        };
        let Some(journal) = a.journal.as_mut() else {
            return Gate::Run {
                key: Some(key),
                journaled: false,
            };
        };
        match journal.before.get(at).cloned() {
            Some(Journaled::Answer(answer)) => return Gate::Answer(CallAnswer::Done(answer)),
            Some(Journaled::Intent { key, tool: was }) if !acts.idempotent => {
                return Gate::Answer(CallAnswer::Stop(
                    Error::new(
                        ErrorKind::Indeterminate,
                        format!(
                            "tool/{tool} (call {at}, idempotency key {key}) may or may not have \
                             run: ptc stopped after recording its intent and before its answer, \
                             so it is not run again{}",
                            if was == tool {
                                String::new()
                            } else {
                                format!(" (the journal names tool/{was})")
                            }
                        ),
                    )
                    .with_hint(
                        "check with the tool's owner whether the write happened (its idempotency \
                         key names it); declare the tool \"idempotent\": true to run it again \
                         with the same key",
                    ),
                ))
            }
            _ => {}
        }
        if let Err(msg) = journal.intent(at, &key, tool, args) {
            return Gate::Answer(CallAnswer::Done(Err(format!(
                "not run: its intent could not be recorded: {msg}"
            ))));
        }
        Gate::Run {
            key: Some(key),
            journaled: true,
        }
    }

    /// Records a journaled write's answer.
    pub(crate) fn answered(&self, at: &str, answer: &Result<Value, String>) -> Result<(), String> {
        match self.lock().journal.as_mut() {
            Some(j) => j.answer(at, answer),
            None => Ok(()),
        }
    }
}

/// A fresh session id: what idempotency keys start with (16 hex digits
/// from the clock, the process and a counter, hashed).
pub(crate) fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    format!("{:016x}", h.finish())
}
