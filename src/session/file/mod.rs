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

mod paths;
mod place;
mod session;
mod tools;

pub(crate) use paths::read_at_most;
use paths::*;
use place::*;
pub(in crate::session) use session::from_session;
use tools::*;

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

#[cfg(test)]
mod tests;
