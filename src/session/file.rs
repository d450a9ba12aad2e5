//! Session files (`session.md` §Session file): the JSON a prompt designer
//! keeps in version control — mission, `max_turns`, `compression`, `data`
//! (JSON), `data_lisp` (PTC-Lisp literals), `tools`, `limits`, `render` and
//! the raw LLM responses of its `turns`.
//!
//! Reading is strict: an unknown key, bad JSON, a bad signature, a bad
//! literal or a command whose program is missing is a [`SessionError::File`]
//! naming the file, the place (line and column) and the key
//! (`tools.search.signature`). Command tools start in the session file's
//! directory — or in the tool's `cwd`, relative to it — and relative
//! program and script paths are resolved against that directory. When the
//! file's turns replay from their recording (`tool_calls`,
//! `recording.rs`), a missing program or script is no error: nothing runs.
//!
//! Writing ([`Session::to_file`], [`SessionFile::to_json`]) gives back a file
//! that replays to the same turns, with every turn's tool calls
//! (`tool_calls`). **Saving elsewhere** (R-SAVE-PATHS): a file saved into
//! another directory than the one its session's relative paths resolve
//! against ([`Session::to_file_at`]: `ptc agent --out`, `ptc eval`,
//! `:save`, Python `save`) gets a `cwd` on each command tool: the original
//! directory, relative to the new file's (absolute when no relative path
//! joins them), so that the saved file runs the same programs from where it
//! is saved. A tool already in that directory writes no `cwd`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::act::{Acts, Effect};
use super::llm::{LlmInfo, Protocol, Reply, ReplyCall};
use super::mcp::McpServerConfig;
use super::messages::RenderOptions;
use super::recording::{CallFile, RecordedCall, RecordedOnlyTool, ReplayTools};
use super::resume::ResumeFile;
use super::signature::{Signature, Type};
use super::tools::{program_exists, CommandTool, Response, ScriptedTool, Tool, ToolInfo};
use super::{bad_name, Session, SessionBuilder, SessionError, DEFAULT_MAX_TURNS};
use crate::eval::Limits;
use crate::format::to_clojure;
use crate::reader::read_value;
use crate::value::json::{from_json, to_json_lossless};
use crate::value::Value;

fn default_max_turns() -> usize {
    DEFAULT_MAX_TURNS
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A session file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionFile {
    /// The task, shown to the LLM in every prompt.
    pub mission: String,
    /// The most turns the session may take (default 10).
    #[serde(default = "default_max_turns")]
    pub max_turns: usize,
    /// Render the compressed view (`true`) or the full history.
    #[serde(default, skip_serializing_if = "is_false")]
    pub compression: bool,
    /// `data/NAME` values given as JSON.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data: BTreeMap<String, Json>,
    /// `data/NAME` values given as PTC-Lisp literals (keywords, sets …
    /// that JSON cannot say).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data_lisp: BTreeMap<String, String>,
    /// `tool/NAME` tools: signature, description and how they answer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, ToolFile>,
    /// The limits of every turn (the defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// How prompts are rendered (the defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<RenderOptions>,
    /// The shape `(return v)` must have (`{total :int, items [:string]}`);
    /// a turn returning anything else fails with a `type-error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<String>,
    /// The LLM responses of the turns taken so far, in order (replayed
    /// when the file is loaded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<String>,
    /// What the LLM reported for each turn (`llm[k]` for `turns[k]`; `null`
    /// for a turn without it). Written by `ptc agent`; absent from files
    /// written by hand or from turns without LLM information, and ignored
    /// when rendering prompts. Entries past the last turn are ignored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub llm: Vec<Option<LlmInfo>>,
    /// The run's cost in US dollars: the sum of `llm[k].cost_usd`, when a
    /// turn has one (written with prices, `ptc agent --price-in …`;
    /// informational: reading a file ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Each turn's tool calls with what they answered (`tool_calls[k]` for
    /// `turns[k]`): recorded turns replay from it (`recording.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<Vec<CallFile>>,
    /// MCP servers whose tools the session offers as `tool/SERVER.NAME`
    /// (`session/mcp.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mcp: BTreeMap<String, McpServerConfig>,
    /// How the model hands over its program: `"text"` (the default, a
    /// ```clojure block) or `"tool"` (a call of `run_ptc_lisp`).
    #[serde(default, skip_serializing_if = "Protocol::is_text")]
    pub protocol: Protocol,
    /// The function calls of each tool-protocol reply (`calls[k]` for
    /// `turns[k]`, whose text is the reply's prose; `null` for a text
    /// reply): `[{"name": "run_ptc_lisp", "arguments": "{\"program\": …}"}]`,
    /// the arguments as the JSON text the model sent. Replaying runs the
    /// same program (or fails the same way). Absent when no turn has calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Option<Vec<ReplyCall>>>,
    /// The session's id: what its writes' idempotency keys start with
    /// (ACT-3). Written when saved; a new one when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `"writes"`: every write waits for approval (ACT-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Approval>,
    /// A paused turn, or one under way when ptc stopped, to resume
    /// (`resume.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<ResumeFile>,
}

/// The session-level `"approval"` (ACT-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Approval {
    /// Every write waits for approval.
    Writes,
}

/// A tool in a session file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolFile {
    /// `(p1 :type, p2 :type) -> :type`, enforced on every call
    /// ([`super::shape`]); no signature means `-> :any`, arguments unchecked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// What the prompt's tool listing says about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The answer when no response matches and there is no command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Json>,
    /// Canned answers, matched on the arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub responses: Vec<ResponseFile>,
    /// `[program, args…]`, started per call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// The directory `command` starts in and its relative paths resolve
    /// against, relative to the session file's directory (default: that
    /// directory). Written when a file is saved elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The tool was code of the program that saved the file (a closure, a
    /// Python callable): it answers only from the recording
    /// (`recording.rs`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub recorded_only: bool,
    /// The MCP server this tool comes from (`tool/SERVER.NAME`): written
    /// when saving, so the listing renders without starting the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<String>,
    /// `"read"` or `"write"` (ACT-1, `act.rs`); without it a `command` is a
    /// write, a canned tool a read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// Every call waits for approval (ACT-2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub approval: bool,
    /// Running it again with the same idempotency key is safe (ACT-4).
    #[serde(default, skip_serializing_if = "is_false")]
    pub idempotent: bool,
    /// What a preview answers for this write (ACT-5); nil without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<Json>,
}

impl ToolFile {
    /// How the tool acts: as declared, else a write for a command or an MCP
    /// server's tool, a read for a canned one (ACT-1).
    pub fn acts(&self) -> Acts {
        let effect = self
            .effect
            .unwrap_or(if self.command.is_some() || self.mcp.is_some() {
                Effect::Write
            } else {
                Effect::Read
            });
        Acts {
            effect,
            approval: self.approval,
            idempotent: self.idempotent,
            preview: self.preview.as_ref().map(from_json),
        }
    }

    /// `self` with what `acts` declares written out.
    pub fn with_acts(mut self, acts: &Acts) -> ToolFile {
        self.effect = Some(acts.effect);
        self.approval = acts.approval;
        self.idempotent = acts.idempotent;
        self.preview = acts.preview.as_ref().map(crate::value::json::to_json);
        self
    }
}

/// A canned answer: `returns` (or the tool error `error`) when the call's
/// arguments equal `args`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseFile {
    pub args: Vec<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Script extensions whose files must exist when they appear in a command.
const SCRIPT_EXTENSIONS: &[&str] = &[
    "py", "sh", "bash", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua", "clj", "bb",
];

impl SessionFile {
    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<SessionFile, SessionError> {
        let text = read_file(path)?;
        SessionFile::parse(&text, path)
    }

    /// Parses a session file's text; `file` names it in errors. The text
    /// may also be a journal (what `ptc mcp --out` appends to): the
    /// session file without `turns` on its first line, then one line per
    /// turn, `{"turn": RAW, "tool_calls": [...]}` ([`SessionFile::journal_line`]);
    /// `max_turns` then grows to the number of turns.
    pub fn parse(text: &str, file: &Path) -> Result<SessionFile, SessionError> {
        let parsed = serde_json::from_str(text);
        if let Err(e) = &parsed {
            if e.to_string().starts_with("trailing characters") {
                if let Some(journal) = parse_journal(text, file) {
                    return journal;
                }
            }
        }
        parsed.map_err(|e| {
            let offset = offset_of(text, e.line(), e.column());
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let msg = full.strip_suffix(&suffix).unwrap_or(&full);
            let msg = match e.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    format!("invalid JSON: {msg}")
                }
                _ => match path_at(text, offset) {
                    Some(path) if !path.is_empty() => format!("{path}: {msg}"),
                    _ => msg.to_string(),
                },
            };
            SessionError::File {
                file: file.to_path_buf(),
                place: Some((e.line(), e.column().max(1))),
                message: msg,
            }
        })
    }

    /// One turn of a journal (see [`SessionFile::parse`]): its raw
    /// response and its tool calls, as one line of JSON.
    pub fn journal_line(raw_response: &str, tool_calls: &[CallFile]) -> String {
        serde_json::json!({"turn": raw_response, "tool_calls": tool_calls}).to_string()
    }

    /// As pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Checks the definitions and makes a builder. `file` names the file in
    /// errors, and its directory is where command tools run. `text`, when
    /// given, is the file's text, used to point errors at a line.
    pub fn builder(&self, file: &Path, text: Option<&str>) -> Result<SessionBuilder, SessionError> {
        self.builder_with(file, text, ReplayTools::Live)
    }

    /// [`SessionFile::builder`] for replaying this file's turns with
    /// `tools`: with [`ReplayTools::Recorded`] and recorded turns, a
    /// command tool's missing program or script is no error.
    pub fn builder_with(
        &self,
        file: &Path,
        text: Option<&str>,
        tools: ReplayTools,
    ) -> Result<SessionBuilder, SessionError> {
        let err = |path: &[&str], message: String| SessionError::File {
            file: file.to_path_buf(),
            place: text.and_then(|t| {
                let off = find_key(t, path)?;
                Some(crate::error::line_col(t, off))
            }),
            message: format!("{}: {message}", display_path(path)),
        };
        let dir = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if self.max_turns == 0 {
            return Err(err(&["max_turns"], "must be at least 1".into()));
        }
        let lenient = tools == ReplayTools::Recorded && !self.tool_calls.is_empty();
        let mut b = Session::builder(self.mission.clone())
            .base_dir(absolute(&dir))
            .max_turns(self.max_turns)
            .compression(self.compression)
            .protocol(self.protocol)
            .limits(self.limits.clone().unwrap_or_default())
            .render(self.render.clone().unwrap_or_default())
            .approval_for_writes(self.approval == Some(Approval::Writes));
        if let Some(id) = &self.id {
            b = b.id(id.clone());
        }
        if let Some(shape) = &self.returns {
            Type::parse(shape)
                .map_err(|e| err(&["returns"], format!("bad result shape {shape:?}: {e}")))?;
            b = b.returns(shape);
        }
        for (name, json) in &self.data {
            if let Some(why) = bad_name(name) {
                return Err(err(&["data", name], format!("the name {why}")));
            }
            b = b.data(name.clone(), from_json(json));
        }
        for (name, literal) in &self.data_lisp {
            if let Some(why) = bad_name(name) {
                return Err(err(&["data_lisp", name], format!("the name {why}")));
            }
            if self.data.contains_key(name) {
                return Err(err(
                    &["data_lisp", name],
                    format!("data/{name} is also defined in \"data\""),
                ));
            }
            let v = read_value(literal).map_err(|e| {
                let at = e
                    .line_col()
                    .map(|(l, c)| format!(" (line {l}, column {c} of the literal)"))
                    .unwrap_or_default();
                err(
                    &["data_lisp", name],
                    format!("not a PTC-Lisp literal: {}{at}", e.message()),
                )
            })?;
            b = b.data(name.clone(), v);
        }
        // Replaying recorded turns runs no server (R-REC): one the file
        // lists no tools of offers the tools its recording calls, unchecked,
        // and starts at the first live call, as one with saved tools does.
        let all_recorded = tools == ReplayTools::Recorded
            && !self.turns.is_empty()
            && self.tool_calls.len() >= self.turns.len();
        for (server, config) in &self.mcp {
            if let Some(p) = config.problem() {
                return Err(err(&["mcp", server], p));
            }
            let mut saved = Vec::new();
            for (name, spec) in &self.tools {
                if spec.mcp.as_deref() == Some(server.as_str()) {
                    let ScriptedParts { info, .. } = parts_of(name, spec, &err)?;
                    saved.push(info);
                }
            }
            let offered = if !saved.is_empty() {
                Some(saved)
            } else if all_recorded {
                Some(self.recorded_tools_of(server))
            } else {
                None
            };
            b = b.mcp_server_offering(server.clone(), config.clone(), dir.clone(), offered);
        }
        for (name, spec) in &self.tools {
            if spec.mcp.as_ref().is_some_and(|s| self.mcp.contains_key(s)) {
                continue;
            }
            b = b.boxed_tool(tool_of(name, spec, &dir, lenient, &err)?);
        }
        Ok(b)
    }

    /// The tools of MCP server `server` that this file's recording calls
    /// (`SERVER.NAME`), unchecked, in name order.
    fn recorded_tools_of(&self, server: &str) -> Vec<ToolInfo> {
        let prefix = format!("{server}.");
        let names: std::collections::BTreeSet<&str> = self
            .tool_calls
            .iter()
            .flatten()
            .map(|c| c.tool.as_str())
            .filter(|t| t.starts_with(&prefix))
            .collect();
        names
            .into_iter()
            .map(|name| ToolInfo {
                name: name.to_string(),
                signature: Signature::any(),
                description: None,
                doc: None,
                acts: Acts::write(),
            })
            .collect()
    }

    /// The session this file describes, before any turn ran. `limits`
    /// replaces the file's limits (command-line flags).
    pub fn session(
        &self,
        file: &Path,
        text: Option<&str>,
        limits: Option<Limits>,
    ) -> Result<Session, SessionError> {
        self.session_with(file, text, limits, ReplayTools::Live)
    }

    /// [`SessionFile::session`] for replaying this file's turns with
    /// `tools` (see [`SessionFile::builder_with`]).
    pub fn session_with(
        &self,
        file: &Path,
        text: Option<&str>,
        limits: Option<Limits>,
        tools: ReplayTools,
    ) -> Result<Session, SessionError> {
        let mut b = self.builder_with(file, text, tools)?;
        if let Some(l) = limits {
            b = b.limits(l);
        }
        b.build().map_err(|e| match e {
            SessionError::Invalid(message) => SessionError::File {
                file: file.to_path_buf(),
                place: None,
                message,
            },
            other => other,
        })
    }
}

impl Session {
    /// Loads a session file and runs its turns (until they run out or the
    /// session ends), recorded turns answering from their recording.
    pub fn load(path: &Path) -> Result<Session, SessionError> {
        Session::load_with(path, Vec::new(), ReplayTools::Recorded)
    }

    /// [`Session::load`] with `tools` attached (each replacing the file's
    /// tool of that name: live implementations of recorded-only tools, for
    /// new turns; [`SessionBuilder::attach_tool`]), replaying with
    /// `replay`.
    pub fn load_with(
        path: &Path,
        tools: Vec<Box<dyn Tool>>,
        replay: ReplayTools,
    ) -> Result<Session, SessionError> {
        Session::load_with_mcp(path, tools, BTreeMap::new(), replay)
    }

    /// [`Session::load_with`] with MCP servers `mcp` added to the file's
    /// `"mcp"` (Python `Session.from_file(mcp=...)`), each replacing the
    /// file's server of that name. They are the file's servers from then
    /// on (rule MCP-9): a stdio one starts in the session file's
    /// directory (MCP-1), the file's saved tools of that server are
    /// offered as listed and it starts at their first live call (recorded
    /// turns answer from the recording), a server with no saved tools
    /// starts now, and saving writes them into the file's `"mcp"`, so the
    /// saved session reloads them the same way.
    pub fn load_with_mcp(
        path: &Path,
        tools: Vec<Box<dyn Tool>>,
        mcp: BTreeMap<String, McpServerConfig>,
        replay: ReplayTools,
    ) -> Result<Session, SessionError> {
        let text = read_file(path)?;
        let mut file = SessionFile::parse(&text, path)?;
        file.mcp.extend(mcp);
        let mut b = file.builder_with(path, Some(&text), replay)?;
        for t in tools {
            b = b.attach_tool(t);
        }
        let mut session = b.build().map_err(|e| match e {
            SessionError::Invalid(message) => SessionError::File {
                file: path.to_path_buf(),
                place: None,
                message,
            },
            other => other,
        })?;
        file.run_turns(&mut session, replay)?;
        Ok(session)
    }

    /// Writes the session as a session file at `path` (pretty JSON and a
    /// newline): [`Session::to_file_at`], so its tool calls are recorded
    /// and its command tools work from there.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_file_at(path).to_json() + "\n")
    }

    /// The session as a session file to be written at `path`: like
    /// [`Session::to_file`], with command tools given a `cwd` when `path`
    /// is in another directory than the session's own (R-SAVE-PATHS).
    pub fn to_file_at(&self, path: &Path) -> SessionFile {
        let mut file = self.to_file();
        let from = self
            .base_dir
            .clone()
            .unwrap_or_else(|| absolute(Path::new(".")));
        file.relocate(&from, &absolute(&parent_dir(path)));
        file
    }
}

impl SessionFile {
    /// Turn `k`'s reply (its text and `calls` entry) and `llm` entry, as
    /// [`Session::run_reply`] takes them (an empty reply past the last turn).
    pub fn reply(&self, k: usize) -> (Reply, Option<LlmInfo>) {
        let reply = Reply {
            text: self.turns.get(k).cloned().unwrap_or_default(),
            calls: self.calls.get(k).cloned().flatten(),
        };
        (reply, self.llm.get(k).cloned().flatten())
    }

    /// Runs this file's turns in `session`, each with its `llm` entry,
    /// until they run out or the session ends; returns how many ran.
    /// Recorded turns answer their tool calls from the recording unless
    /// `tools` is [`ReplayTools::Live`]; a recording that no longer
    /// matches is an error ([`SessionError::Recording`]).
    pub fn run_turns(
        &self,
        session: &mut Session,
        tools: ReplayTools,
    ) -> Result<usize, SessionError> {
        let mut ran = 0;
        for k in 0..self.turns.len() {
            if !self.run_turn(session, k, tools)? {
                break;
            }
            ran += 1;
        }
        if let (Some(r), true) = (&self.resume, ran == self.turns.len()) {
            session
                .take_resume(r)
                .map_err(|m| SessionError::Invalid(format!("\"resume\": {m}")))?;
        }
        Ok(ran)
    }

    /// Runs turn `k` (0-based) of this file as the session's next turn
    /// (see [`SessionFile::run_turns`]); `Ok(false)` when the session has
    /// ended.
    pub fn run_turn(
        &self,
        session: &mut Session,
        k: usize,
        tools: ReplayTools,
    ) -> Result<bool, SessionError> {
        if k >= self.turns.len() {
            return Ok(false);
        }
        let (reply, llm) = self.reply(k);
        let recorded = match (tools, self.tool_calls.get(k)) {
            (ReplayTools::Recorded, Some(calls)) => Some(RecordedCall::read_turn(k + 1, calls)?),
            _ => None,
        };
        let ran = match recorded {
            Some(calls) => session.run_recorded_reply(&reply, llm, calls).map(|_| ()),
            None => session.run_reply_owned(reply, llm).map(|_| ()),
        };
        match ran {
            Ok(()) => Ok(true),
            Err(SessionError::Ended(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Rewrites command tools' `cwd` for a file moving from directory
    /// `from` to directory `to` (both absolute): see R-SAVE-PATHS.
    pub fn relocate(&mut self, from: &Path, to: &Path) {
        let (from, to) = (normalize(from), normalize(to));
        if from == to {
            return;
        }
        for spec in self.tools.values_mut() {
            if spec.command.is_none() {
                continue;
            }
            let dir = normalize(&from.join(spec.cwd.as_deref().unwrap_or("")));
            spec.cwd = match relative_to(&dir, &to) {
                Some(rel) if rel.as_os_str().is_empty() => None,
                Some(rel) => Some(rel.display().to_string()),
                None => Some(dir.display().to_string()),
            };
        }
    }
}

/// The most bytes of a session file read (`SessionFile::load`,
/// `Session::load`, Python `Session.from_file`, the CLI): 256 MiB. A larger
/// file (or `/dev/zero`) is refused while it is read, never read whole.
pub const MAX_FILE_BYTES: usize = 256 << 20;

/// A session file's text, read with [`MAX_FILE_BYTES`] as its bound.
fn read_file(path: &Path) -> Result<String, SessionError> {
    let fail = |message: String| SessionError::File {
        file: path.to_path_buf(),
        place: None,
        message,
    };
    let f = std::fs::File::open(path)
        .map_err(|e| fail(format!("cannot read the session file: {e}")))?;
    match read_at_most(f, MAX_FILE_BYTES) {
        Ok(Some(bytes)) => String::from_utf8(bytes)
            .map_err(|e| fail(format!("the session file is not UTF-8 text ({e})"))),
        Ok(None) => Err(fail(format!(
            "the session file is larger than the limit of {MAX_FILE_BYTES} bytes; stopped reading there"
        ))),
        Err(e) => Err(fail(format!("cannot read the session file: {e}"))),
    }
}

/// All of `reader` if it holds at most `limit` bytes (`None`: more),
/// gathered in 1 MiB pieces joined only at the end (a growing buffer
/// would hold twice the limit while it is copied, and more with its
/// doubling).
pub(crate) fn read_at_most(
    mut reader: impl Read,
    limit: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let cap = limit.saturating_add(1);
    const PIECE: usize = 1 << 20;
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    let mut total = 0;
    while total < cap {
        let mut piece = vec![0u8; PIECE.min(cap - total)];
        let mut filled = 0;
        while filled < piece.len() {
            match reader.read(&mut piece[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        piece.truncate(filled);
        total += filled;
        let ended = filled == 0 || filled < PIECE.min(cap - (total - filled));
        pieces.push(piece);
        if ended {
            break;
        }
    }
    if total > limit {
        return Ok(None);
    }
    Ok(Some(pieces.concat()))
}

/// The directory a file at `path` is in (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `p` made absolute against the current directory, `.` and `..` folded.
fn absolute(p: &Path) -> PathBuf {
    normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// `.` and `..` folded lexically.
fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `target` relative to directory `base` (both absolute, normalized);
/// `None` when they share no root.
fn relative_to(target: &Path, base: &Path) -> Option<PathBuf> {
    let t: Vec<_> = target.components().collect();
    let b: Vec<_> = base.components().collect();
    if t.first() != b.first() {
        return None;
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c.as_os_str());
    }
    Some(rel)
}

/// The checked parts of a `tools` entry.
struct ScriptedParts {
    info: ToolInfo,
}

fn parts_of(
    name: &str,
    spec: &ToolFile,
    err: &dyn Fn(&[&str], String) -> SessionError,
) -> Result<ScriptedParts, SessionError> {
    if let Some(why) = bad_name(name) {
        return Err(err(&["tools", name], format!("the tool name {why}")));
    }
    let signature = match &spec.signature {
        Some(text) => Signature::parse(text).map_err(|e| {
            err(
                &["tools", name, "signature"],
                format!("bad signature {:?}: {e}", crate::value::describe_text(text)),
            )
        })?,
        None => Signature::any(),
    };
    let info = ToolInfo {
        name: name.to_string(),
        signature,
        description: spec.description.clone().filter(|d| !d.is_empty()),
        doc: None,
        acts: spec.acts(),
    };
    Ok(ScriptedParts { info })
}

fn tool_of(
    name: &str,
    spec: &ToolFile,
    dir: &Path,
    lenient: bool,
    err: &dyn Fn(&[&str], String) -> SessionError,
) -> Result<Box<dyn Tool>, SessionError> {
    let ScriptedParts { info } = parts_of(name, spec, err)?;
    // An MCP server's tool whose server the file does not configure (its
    // "mcp" key removed, or a file from elsewhere) is recorded-only too:
    // it has no live implementation until one is attached (MCP-9).
    let unserved_mcp = spec.mcp.is_some()
        && spec.command.is_none()
        && spec.returns.is_none()
        && spec.responses.is_empty();
    if spec.recorded_only || unserved_mcp {
        if spec.command.is_some() || spec.returns.is_some() || !spec.responses.is_empty() {
            return Err(err(
                &["tools", name, "recorded_only"],
                "a recorded-only tool has no \"command\", \"returns\" or \"responses\"; drop \"recorded_only\" to give it one".into(),
            ));
        }
        return Ok(Box::new(RecordedOnlyTool::new(info, spec.clone())));
    }
    let dir = &match &spec.cwd {
        Some(cwd) => dir.join(cwd),
        None => dir.to_path_buf(),
    };
    let mut responses = Vec::new();
    for (i, r) in spec.responses.iter().enumerate() {
        let index = format!("[{i}]");
        let path = ["tools", name, "responses", index.as_str()];
        let answer = match (&r.returns, &r.error) {
            (Some(_), Some(_)) => {
                return Err(err(
                    &path,
                    "a response has either \"returns\" or \"error\", not both".into(),
                ))
            }
            (_, Some(e)) => Err(e.clone()),
            (Some(v), None) => Ok(from_json(v)),
            (None, None) => Ok(Value::Nil),
        };
        responses.push(Response {
            args: r.args.iter().map(from_json).collect(),
            answer,
        });
    }
    let command = match &spec.command {
        None => None,
        Some(argv) => {
            let path = ["tools", name, "command"];
            let Some(program) = argv.first() else {
                return Err(err(
                    &path,
                    "the command is empty; write [\"program\", \"arg\", ...]".into(),
                ));
            };
            let dir_buf = dir.to_path_buf();
            if !lenient && !program_exists(program, Some(&dir_buf)) {
                return Err(err(
                    &path,
                    format!(
                        "program {program:?} not found (relative paths are resolved against {}; bare names are looked up on PATH)",
                        dir.display()
                    ),
                ));
            }
            for arg in &argv[1..] {
                let p = Path::new(arg);
                let is_script = p
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e));
                if !lenient && is_script && !arg.starts_with('-') && !dir.join(p).is_file() {
                    return Err(err(
                        &path,
                        format!("script {arg:?} not found (relative to {})", dir.display()),
                    ));
                }
            }
            Some(CommandTool::new(info.clone(), argv.clone()).current_dir(dir))
        }
    };
    let returns = spec.returns.as_ref().map(from_json).unwrap_or(Value::Nil);
    Ok(Box::new(ScriptedTool::from_parts(
        info,
        responses,
        command,
        returns,
        spec.clone(),
    )))
}

/// The session file of `session` (see [`Session::to_file`]).
pub(super) fn from_session(
    session: &Session,
    tool_files: &BTreeMap<String, ToolFile>,
) -> SessionFile {
    // A paused turn is the file's "resume", not one of its turns.
    let turns = match session.turns().split_last() {
        Some((last, before)) if last.is_paused() => before,
        _ => session.turns(),
    };
    let mut data = BTreeMap::new();
    let mut data_lisp = BTreeMap::new();
    for (name, v) in session.data() {
        match to_json_lossless(v) {
            Some(json) => {
                data.insert(name.clone(), json);
            }
            None => {
                data_lisp.insert(name.clone(), to_clojure(v, None, None).0);
            }
        }
    }
    SessionFile {
        mission: session.mission().to_string(),
        max_turns: session.max_turns(),
        compression: session.compression(),
        data,
        data_lisp,
        tools: tool_files.clone(),
        limits: Some(session.limits().clone()),
        render: Some(session.render_options().clone()).filter(|r| *r != RenderOptions::default()),
        returns: session.result_shape().map(str::to_string),
        turns: turns.iter().map(|t| t.raw_response.clone()).collect(),
        llm: if turns.iter().any(|t| t.llm.is_some()) {
            turns.iter().map(|t| t.llm.as_deref().cloned()).collect()
        } else {
            Vec::new()
        },
        cost_usd: session
            .turns()
            .iter()
            .filter_map(|t| t.llm.as_ref().and_then(|i| i.cost_usd))
            .reduce(|a, b| a + b),
        // Every turn is recorded when there are tools to record.
        tool_calls: if tool_files.is_empty() {
            Vec::new()
        } else {
            turns
                .iter()
                .map(|t| CallFile::all_of(&t.tool_calls))
                .collect()
        },
        mcp: BTreeMap::new(),
        protocol: session.protocol(),
        calls: if turns.iter().any(|t| t.calls.is_some()) {
            turns.iter().map(|t| t.calls.clone()).collect()
        } else {
            Vec::new()
        },
        id: Some(session.id().to_string()),
        approval: session.approves_writes().then_some(Approval::Writes),
        resume: session.resume_file(),
    }
}

fn display_path(path: &[&str]) -> String {
    let mut s = String::new();
    for (i, p) in path.iter().enumerate() {
        if p.starts_with('[') {
            s.push_str(p);
        } else {
            if i > 0 {
                s.push('.');
            }
            s.push_str(p);
        }
    }
    s
}

/// Byte offset of serde_json's 1-based line and column.
/// A journal's session file (see [`SessionFile::parse`]), or `None` when
/// `text` is not one (its first value is not a session file without
/// turns).
fn parse_journal(text: &str, file: &Path) -> Option<Result<SessionFile, SessionError>> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    let header = match values.next() {
        Some(Ok(Json::Object(o))) if !o.contains_key("turns") => o,
        _ => return None,
    };
    let mut f: SessionFile = serde_json::from_value(Json::Object(header)).ok()?;
    let err = |offset: usize, message: String| SessionError::File {
        file: file.to_path_buf(),
        place: Some(crate::error::line_col(text, offset)),
        message,
    };
    let mut calls = Vec::new();
    loop {
        let at = values.byte_offset();
        let at = at + text[at..].len() - text[at..].trim_start().len();
        let line = match values.next() {
            None => break,
            Some(Ok(Json::Object(o))) => o,
            Some(Ok(_)) => {
                return Some(Err(err(
                    at,
                    "a journal's turn must be an object {\"turn\": RAW, \"tool_calls\": [...]}"
                        .into(),
                )))
            }
            Some(Err(e)) => return Some(Err(err(at, format!("invalid JSON in the journal: {e}")))),
        };
        if let Some(k) = line.keys().find(|k| *k != "turn" && *k != "tool_calls") {
            return Some(Err(err(
                at,
                format!(
                    "unknown key {k:?} in a journal's turn (it has \"turn\" and \"tool_calls\")"
                ),
            )));
        }
        let Some(Json::String(turn)) = line.get("turn") else {
            return Some(Err(err(
                at,
                "a journal's turn needs \"turn\": the raw response, a string".into(),
            )));
        };
        let recorded: Vec<CallFile> = match line.get("tool_calls") {
            None => Vec::new(),
            Some(v) => match serde_json::from_value(v.clone()) {
                Ok(c) => c,
                Err(e) => return Some(Err(err(at, format!("tool_calls: {e}")))),
            },
        };
        f.turns.push(turn.clone());
        calls.push(recorded);
    }
    if !f.tools.is_empty() || calls.iter().any(|c| !c.is_empty()) {
        f.tool_calls = calls;
    }
    f.max_turns = f.max_turns.max(f.turns.len());
    Some(Ok(f))
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_len = text[start..].find('\n').unwrap_or(text.len() - start);
    start + column.min(line_len)
}

enum Frame {
    Object { key: Option<String>, want_key: bool },
    Array { index: usize },
}

/// Walks JSON text, tracking where it is; `visit` sees every object key
/// with the path to it and the key's byte offset, and stops the walk by
/// returning true. Returns the stack where the walk stopped.
fn walk_json(
    text: &str,
    until: usize,
    visit: &mut dyn FnMut(&[Frame], &str, usize) -> bool,
) -> Vec<Frame> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len().min(until) {
        match bytes[i] {
            b'{' => stack.push(Frame::Object {
                key: None,
                want_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { want_key, .. }) => *want_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let raw = &text[start..(i + 1).min(text.len())];
                if let Some(Frame::Object {
                    key,
                    want_key: true,
                }) = stack.last_mut()
                {
                    let k: String = serde_json::from_str(raw).unwrap_or_default();
                    *key = Some(k.clone());
                    if visit(&stack, &k, start) {
                        return stack;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

fn stack_path(stack: &[Frame]) -> Vec<String> {
    stack
        .iter()
        .filter_map(|f| match f {
            Frame::Object { key, .. } => key.clone(),
            Frame::Array { index } => Some(format!("[{index}]")),
        })
        .collect()
}

/// The key path (`tools.search.signature`) at a byte offset.
fn path_at(text: &str, offset: usize) -> Option<String> {
    let stack = walk_json(text, offset, &mut |_, _, _| false);
    let parts = stack_path(&stack);
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    Some(display_path(&refs))
}

/// The byte offset of the key at `path` (array indices as `[i]`).
fn find_key(text: &str, path: &[&str]) -> Option<usize> {
    let mut found = None;
    walk_json(text, text.len(), &mut |stack, _, at| {
        let parts = stack_path(stack);
        if parts.len() == path.len() && parts.iter().zip(path).all(|(a, b)| a == b) {
            found = Some(at);
            true
        } else {
            false
        }
    });
    found.or_else(|| {
        // an array element: point at its parent key
        match path.split_last() {
            Some((last, rest)) if last.starts_with('[') => find_key(text, rest),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> String {
        match SessionFile::parse(text, Path::new("s.json")) {
            Ok(_) => panic!("expected an error for {text}"),
            Err(e) => e.to_string(),
        }
    }

    fn build_err(text: &str) -> String {
        let file = SessionFile::parse(text, Path::new("s.json")).unwrap();
        match file.session(Path::new("s.json"), Some(text), None) {
            Ok(_) => panic!("expected an error for {text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_spec_example_parses() {
        let text = r##"{
  "mission": "Find well-reviewed products in stock",
  "max_turns": 5,
  "compression": true,
  "data": { "products": [ {"name": "Laptop", "price": 1200} ] },
  "data_lisp": { "statuses": "#{:active :pending}" },
  "tools": {
    "search-reviews": {
      "signature": "(query :string) -> :string",
      "description": "Searches review summaries",
      "returns": "Customer Review Summary for Electronics: ..."
    },
    "get-inventory": { "signature": "-> :map", "returns": {"laptop": 3} },
    "lookup": {
      "signature": "(id :int) -> :map",
      "responses": [ {"args": [1], "returns": {"id": 1}}, {"args": [2], "error": "not found"} ],
      "returns": null
    }
  },
  "limits": { "timeout_ms": 1000, "max_steps": 10000000 },
  "turns": [ "```clojure\n(def x 1)\n```", "(return x)" ]
}"##;
        let f = SessionFile::parse(text, Path::new("s.json")).unwrap();
        assert!(f.compression);
        assert_eq!(f.turns.len(), 2);
        let s = f.session(Path::new("s.json"), Some(text), None).unwrap();
        assert_eq!(s.tools().len(), 3);
        assert_eq!(s.tools()[0].name, "get-inventory");
        assert_eq!(s.data().len(), 2);
    }

    #[test]
    fn unknown_keys_are_named_with_their_place() {
        let e = parse_err("{\n  \"mission\": \"m\",\n  \"mision\": 1\n}");
        assert!(e.starts_with("s.json:3:"), "{e}");
        assert!(e.contains("unknown field `mision`"), "{e}");
        let e = parse_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"retruns\": 1}}}");
        assert!(
            e.contains("tools.t.retruns: unknown field `retruns`"),
            "{e}"
        );
        let e = parse_err("{\"mission\": \"m\", \"limits\": {\"timeout\": 1}}");
        assert!(e.contains("limits.timeout"), "{e}");
    }

    #[test]
    fn bad_json_and_bad_types() {
        let e = parse_err("{\"mission\": \"m\",\n}");
        assert!(e.starts_with("s.json:2:"), "{e}");
        assert!(e.contains("invalid JSON"), "{e}");
        let e = parse_err("{\"mission\": \"m\", \"max_turns\": \"five\"}");
        assert!(e.contains("max_turns: invalid type"), "{e}");
        assert!(parse_err("{}").contains("missing field `mission`"));
    }

    #[test]
    fn bad_signatures_literals_and_commands() {
        let e = build_err("{\"mission\": \"m\",\n \"tools\": {\"t\": {\n  \"signature\": \"(q string) -> :int\"}}}");
        assert!(
            e.starts_with("s.json:3:3: tools.t.signature: bad signature"),
            "{e}"
        );
        let e = build_err("{\"mission\": \"m\", \"data_lisp\": {\"x\": \"{:a\"}}");
        assert!(e.contains("data_lisp.x: not a PTC-Lisp literal"), "{e}");
        let e = build_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": []}}}");
        assert!(e.contains("tools.t.command: the command is empty"), "{e}");
        let e = build_err(
            "{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": [\"no-such-program-ptc\"]}}}",
        );
        assert!(
            e.contains("tools.t.command: program \"no-such-program-ptc\" not found"),
            "{e}"
        );
        let e = build_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"command\": [\"sh\", \"tools/missing.sh\"]}}}");
        assert!(e.contains("script \"tools/missing.sh\" not found"), "{e}");
        let e = build_err("{\"mission\": \"m\", \"tools\": {\"t\": {\"responses\": [{\"args\": [], \"returns\": 1, \"error\": \"x\"}]}}}");
        assert!(e.contains("tools.t.responses[0]"), "{e}");
        let e =
            build_err("{\"mission\": \"m\", \"data\": {\"x\": 1}, \"data_lisp\": {\"x\": \"1\"}}");
        assert!(e.contains("data_lisp.x: data/x is also defined"), "{e}");
        let e = build_err("{\"mission\": \"m\", \"max_turns\": 0}");
        assert!(e.contains("max_turns: must be at least 1"), "{e}");
        let e = build_err("{\"mission\": \"m\", \"data\": {\"my data\": 1}}");
        assert!(e.contains("data.my data"), "{e}");
    }

    #[test]
    fn paths_inside_the_text() {
        let t = r#"{"a": {"b": [1, {"c": 2}]}, "d": 3}"#;
        let at_c = t.find("\"c\"").unwrap();
        assert_eq!(path_at(t, at_c + 3).as_deref(), Some("a.b[1].c"));
        assert_eq!(find_key(t, &["d"]), t.find("\"d\""));
        assert_eq!(find_key(t, &["a", "b", "[1]", "c"]), Some(at_c));
        assert_eq!(find_key(t, &["x"]), None);
    }
}
