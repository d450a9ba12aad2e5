//! Sessions and turns: the multi-turn model (`rendering.md` §1,
//! `session.md`).
//!
//! A [`Session`] holds a mission, `data/` values, tools, `max_turns`, limits
//! and render options, and the interpreter whose user/ memory grows turn by
//! turn. [`Session::run_turn`] takes one raw LLM response, extracts the
//! program (R-70, [`extract_program`]), runs it, and records an immutable [`Turn`]:
//! program, result or error, prints, tool calls, memory snapshot. Memory is
//! transactional: only a successful turn changes user/, and the snapshot of
//! every turn is an O(1) clone of the persistent [`Globals`] that shares
//! structure with the previous one. `*1 *2 *3` are the results of the
//! previous successful turns.
//!
//! The session ends when a turn calls `(return v)` ([`Status::Returned`]),
//! `(fail reason)` ([`Status::Failed`]), or when `max_turns` turns have run
//! without either ([`Status::Exhausted`]) — unless it is open-ended
//! ([`SessionBuilder::open_ended`]: front ends such as `ptc mcp`, where a
//! client runs programs for as long as it likes).
//!
//! Submodules: `signature.rs` (tool signatures), `tools.rs` (the [`Tool`]
//! trait and the closure, scripted and command tools), `host.rs` (the
//! interpreter's [`Host`](crate::Host) over data and tools),
//! `extract.rs` (R-70), `file.rs` (session files, [`SessionFile`]),
//! `recording.rs` (tool calls recorded in session files, hermetic replay,
//! recorded-only tools), [`json`]
//! (the JSON of `ptc replay`), `messages.rs` (turns → chat messages),
//! `prompts.rs` (each turn's prompt recorded as what its render reads,
//! rendered when asked for).
//!
//! ```
//! use ptc_lisp::session::{Session, Status};
//! use ptc_lisp::Value;
//!
//! let mut session = Session::builder("Find the most expensive product")
//!     .data_json("products", &serde_json::json!([
//!         {"name": "Laptop", "price": 1200},
//!         {"name": "Mouse", "price": 25}
//!     ]))
//!     .tool_fn("notify", "(message :string) -> :nil", "Sends a notification", |_args| {
//!         Ok(Value::Nil)
//!     })
//!     .max_turns(3)
//!     .build()
//!     .expect("a valid session");
//!
//! // A failing turn leaves memory as it was.
//! let turn = session.run_turn("```clojure\n(def top (first (sort-by :price > data/products)))\n(undefined-fn)\n```").unwrap();
//! assert!(!turn.success);
//! assert!(session.memory().lookup("top").is_none());
//!
//! // A successful one defines `top`, calls a tool, and the next turn returns.
//! let turn = session.run_turn("(def top (first (sort-by :price > data/products)))\n(tool/notify (:name top))").unwrap();
//! assert!(turn.success);
//! assert_eq!(turn.defined, ["top"]);
//! assert_eq!(turn.tool_calls[0].args, [Value::string("Laptop")]);
//!
//! session.run_turn("(return (:name top))").unwrap();
//! assert_eq!(session.status(), &Status::Returned(Value::string("Laptop")));
//! assert!(session.run_turn("(return 1)").is_err()); // the session has ended
//! ```

pub(crate) mod act;
mod concurrent;
pub(crate) mod extract;
pub(crate) mod file;
mod held;
pub(crate) mod host;
pub mod json;
pub(crate) mod llm;
pub(crate) mod mcp;
pub(crate) mod messages;
mod prompts;
pub(crate) mod recording;
pub(crate) mod reply;
pub(crate) mod resume;
pub(crate) mod shape;
pub(crate) mod signature;
pub(crate) mod tools;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::eval::{Globals, Interp, Limits, ToolCall};
use crate::reader::read_value;
use crate::value::json::from_json;
use crate::value::Value;

pub use act::{Acts, Decision, Effect, Journal, PendingCall, PreviewedWrite};
pub use extract::extract_program;
pub use file::SessionFile;
pub use file::ToolFile;
pub use host::SessionHost;
pub use llm::{
    program_tool_schema, LlmInfo, Protocol, Reply, ReplyCall, Usage, PROGRAM_TOOL,
    PROGRAM_TOOL_DESCRIPTION,
};
pub use mcp::{McpCommand, McpLink, McpServerConfig};
pub use messages::{
    listing, render, render_input, render_messages, turn_feedback, turns_text, Feedback, Message,
    ProgramCall, RenderOptions, Role, View,
};
pub use recording::{CallFile, RecordedCall, RecordedOnlyTool, ReplayTools};
pub use reply::ReplyIssue;
pub use resume::{Preview, ResumeFile};
pub use signature::{Signature, SignatureError, Type};
pub use tools::{call_limit, CallContext, CommandTool, FnTool, Job, ScriptedTool, Tool, ToolInfo};

/// `max_turns` when not given.
pub const DEFAULT_MAX_TURNS: usize = 5;

/// Where a session stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// More turns may run.
    Running,
    /// A turn called `(return v)`.
    Returned(Value),
    /// A turn called `(fail reason)`.
    Failed(Value),
    /// `max_turns` turns ran without `return` or `fail`.
    Exhausted,
}

impl Status {
    /// Whether the session can take another turn.
    pub fn is_running(&self) -> bool {
        matches!(self, Status::Running)
    }
    /// `running`, `returned`, `failed` or `exhausted` (`session.md`).
    pub fn state(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Returned(_) => "returned",
            Status::Failed(_) => "failed",
            Status::Exhausted => "exhausted",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.state())
    }
}

/// One turn, as recorded (immutable once made). Serializes (serde) as its
/// [`json::TurnJson`], the turn of `ptc replay --format json`.
#[derive(Clone)]
pub struct Turn {
    /// 1-based.
    pub number: usize,
    /// The full LLM output, prose included.
    pub raw_response: String,
    /// The program extracted from it (cleaned, R-70); `None` when the
    /// response held no code.
    pub program: Option<String>,
    /// The value of the last form (or of `return`), or the error.
    pub result: Result<Value, Error>,
    /// The turn ended with `(return v)`.
    pub returned: bool,
    /// One entry per output line, in order: each `println` call ends one
    /// (newlines in its text stay in it), as does each newline `print`
    /// writes.
    pub prints: Vec<String>,
    /// Tool calls in call order, failed ones too.
    pub tool_calls: Vec<ToolCall>,
    /// user/ after the turn (unchanged if the turn failed); shares structure
    /// with the previous turn's snapshot.
    pub memory: Globals,
    /// Names this turn defined or redefined, in user/ order.
    pub defined: Vec<String>,
    /// False when extraction, parsing or evaluation failed.
    pub success: bool,
    /// Remarks on how the program was read (surplus closing brackets at
    /// the end ignored, …); not errors.
    pub notes: Vec<String>,
    /// What the LLM reported for `raw_response` (model, usage, latency),
    /// when the turn came from an LLM ([`Session::run_llm_turn`]).
    pub llm: Option<Box<LlmInfo>>,
    /// The function calls of a tool-protocol reply ([`Protocol::Tool`]);
    /// `None` for a text reply.
    pub calls: Option<Vec<ReplyCall>>,
    /// Why the reply gave no program to run (empty, cut off, no code,
    /// protocol), when it did not (`session/reply.rs`).
    pub issue: Option<ReplyIssue>,
    /// The calls a paused turn waits on (ACT-2, `act.rs`): empty unless
    /// the turn paused ([`Turn::is_paused`]).
    pub pending: Vec<PendingCall>,
}

impl Turn {
    /// Whether the turn paused at calls awaiting approval (`paused`); it
    /// changed nothing and [`Session::resume`] continues it.
    pub fn is_paused(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The error, if the turn failed.
    pub fn error(&self) -> Option<&Error> {
        self.result.as_ref().err()
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("number", &self.number)
            .field("program", &self.program)
            .field("result", &self.result)
            .field("returned", &self.returned)
            .field("prints", &self.prints)
            .field("tool_calls", &self.tool_calls)
            .field("defined", &self.defined)
            .field("success", &self.success)
            .field("llm", &self.llm)
            .finish_non_exhaustive()
    }
}

/// What can go wrong building or driving a session.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionError {
    /// An invalid definition: bad signature, duplicate or bad name, bad
    /// `data_lisp` literal, `max_turns` of 0.
    Invalid(String),
    /// `run_turn` after the session ended.
    Ended(Status),
    /// A session file problem: the file, the place (line and column) when
    /// known, and a message that names the key.
    File {
        /// The session file's path.
        file: PathBuf,
        /// 1-based line and column of the problem, when known.
        place: Option<(usize, usize)>,
        /// What is wrong, naming the key.
        message: String,
    },
    /// Replaying a recorded turn went wrong: the program's tool calls no
    /// longer match the recording, or the recording does not read.
    Recording {
        /// The 1-based turn.
        turn: usize,
        /// `call N (tool/T): the recording no longer matches: …`.
        message: String,
    },
    /// A new turn, or a preview, while the last turn is paused (ACT-2).
    Paused,
    /// [`Session::resume`] without a paused turn.
    NothingToResume,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Invalid(m) => f.write_str(m),
            SessionError::Ended(s) => {
                write!(f, "the session has ended ({s}); no more turns can run")
            }
            SessionError::Paused => f.write_str(
                "the last turn is paused at calls awaiting approval; resume it first \
                 (`ptc resume FILE --approve ID|all` or `--deny ID|all`, Python \
                 session.resume(approve=..., deny=...))",
            ),
            SessionError::NothingToResume => {
                f.write_str("there is no paused or unfinished turn to resume")
            }
            SessionError::File {
                file,
                place: Some((line, column)),
                message,
            } => write!(f, "{}:{line}:{column}: {message}", file.display()),
            SessionError::File {
                file,
                place: None,
                message,
            } => write!(f, "{}: {message}", file.display()),
            SessionError::Recording { turn, message } => write!(f, "turn {turn}, {message}"),
        }
    }
}

impl std::error::Error for SessionError {}

/// Builds a [`Session`]; problems are reported by [`SessionBuilder::build`].
pub struct SessionBuilder {
    mission: String,
    data: BTreeMap<String, Value>,
    tools: Vec<Box<dyn Tool>>,
    max_turns: usize,
    limits: Limits,
    render: RenderOptions,
    compression: bool,
    returns: Option<(String, Type)>,
    problems: Vec<String>,
    base_dir: Option<PathBuf>,
    /// MCP servers: name, configuration, directory, tools a file lists.
    /// Servers: name, configuration, directory, and the tools to offer
    /// without listing them (`None`: listed at build).
    mcp: Vec<(
        String,
        McpServerConfig,
        std::path::PathBuf,
        Option<Vec<ToolInfo>>,
    )>,
    open_ended: bool,
    protocol: Protocol,
    approval_writes: bool,
    id: Option<String>,
}

impl SessionBuilder {
    /// Every write waits for approval (`"approval": "writes"`, ACT-2).
    pub fn approval_for_writes(mut self, on: bool) -> SessionBuilder {
        self.approval_writes = on;
        self
    }

    /// The session's id, what its writes' idempotency keys start with
    /// (ACT-3); a new one by default, kept in the session file.
    pub fn id(mut self, id: impl Into<String>) -> SessionBuilder {
        self.id = Some(id.into());
        self
    }

    /// Adds MCP server `name` (`session/mcp.rs`): its tools become
    /// `tool/NAME.TOOL`. The server starts when the session is built (for
    /// its tool listing), a stdio one in the current directory, and stops
    /// when the session ends or is dropped. Without the cargo feature
    /// `mcp`, building is an error.
    pub fn mcp_server(self, name: impl Into<String>, config: McpServerConfig) -> SessionBuilder {
        self.mcp_server_in(name, config, ".")
    }

    /// [`SessionBuilder::mcp_server`] with a stdio server started in `dir`
    /// (a session file's directory).
    pub fn mcp_server_in(
        self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
    ) -> SessionBuilder {
        self.mcp_server_with(name, config, dir, Vec::new())
    }

    /// [`SessionBuilder::mcp_server_in`] with the tools a session file
    /// lists for this server: they are offered as listed, and the server
    /// starts at the first call instead of now.
    pub fn mcp_server_with(
        self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
        saved: Vec<ToolInfo>,
    ) -> SessionBuilder {
        let saved = (!saved.is_empty()).then_some(saved);
        self.mcp_server_offering(name, config, dir, saved)
    }

    /// [`SessionBuilder::mcp_server_with`] offering exactly `tools` (none
    /// at all when empty) without listing the server: it starts at the
    /// first live call; `None` lists it at build.
    pub(crate) fn mcp_server_offering(
        mut self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
        tools: Option<Vec<ToolInfo>>,
    ) -> SessionBuilder {
        let name = name.into();
        if let Some(why) = bad_name(&name).or_else(|| name.contains('.').then_some("has a '.'")) {
            self.problems
                .push(format!("MCP server name {name:?} {why}"));
        }
        self.mcp.push((name, config, dir.into(), tools));
        self
    }

    /// An open-ended session (`ptc mcp`): it never ends. `(return v)` is a
    /// successful turn whose value is `v`, `(fail reason)` a failed turn
    /// (memory unchanged), and `max_turns` turns do not exhaust it. No
    /// prompts are rendered or stored ([`Session::prompts`] stays empty):
    /// the front end asks for what it shows ([`turn_feedback`],
    /// [`listing`]), so a long session costs no re-rendering per turn.
    pub fn open_ended(mut self) -> SessionBuilder {
        self.open_ended = true;
        self
    }

    /// The shape the mission's result must have, e.g. `{total :int, items
    /// [:string]}` (`shape.rs` says what each type accepts): `(return v)`
    /// with a value of another shape is a failed turn (`type-error`) whose
    /// message says what differs, so the LLM can fix it next turn.
    pub fn returns(mut self, shape: &str) -> SessionBuilder {
        match Type::parse(shape) {
            Ok(ty) => self.returns = Some((shape.trim().to_string(), ty)),
            Err(e) => self
                .problems
                .push(format!("bad result shape {shape:?}: {e}")),
        }
        self
    }

    /// `data/NAME` = `value`.
    pub fn data(mut self, name: impl Into<String>, value: Value) -> SessionBuilder {
        let name = name.into();
        if self.data.contains_key(&name) {
            self.problems.push(format!("data/{name} is defined twice"));
        }
        self.data.insert(name, value);
        self
    }

    /// `data/NAME` from JSON: objects become maps with keyword keys.
    pub fn data_json(self, name: impl Into<String>, json: &serde_json::Value) -> SessionBuilder {
        self.data(name, from_json(json))
    }

    /// `data/NAME` from a PTC-Lisp literal (keywords, sets, characters).
    pub fn data_lisp(mut self, name: impl Into<String>, literal: &str) -> SessionBuilder {
        let name = name.into();
        match read_value(literal) {
            Ok(v) => self.data(name, v),
            Err(e) => {
                self.problems.push(format!(
                    "data/{name}: cannot read the literal: {}",
                    e.message()
                ));
                self
            }
        }
    }

    /// Adds a tool.
    pub fn tool(self, tool: impl Tool + 'static) -> SessionBuilder {
        self.boxed_tool(Box::new(tool))
    }

    /// Adds `tool`, replacing a tool of the same name: attaches a live
    /// implementation to a recorded-only tool of a loaded session file
    /// (`recording.rs`), or swaps one tool for another.
    pub fn attach_tool(mut self, tool: Box<dyn Tool>) -> SessionBuilder {
        let name = tool.info().name.clone();
        self.tools.retain(|t| t.info().name != name);
        self.tools.push(tool);
        self
    }

    /// The directory the session's relative tool paths (command programs,
    /// scripts, `cwd`) are resolved against: the session file's. Saving
    /// to another directory rewrites them ([`Session::to_file_at`]).
    pub fn base_dir(mut self, dir: impl Into<PathBuf>) -> SessionBuilder {
        self.base_dir = Some(dir.into());
        self
    }

    /// Adds an already boxed tool (see [`SessionBuilder::tool`]).
    pub fn boxed_tool(mut self, tool: Box<dyn Tool>) -> SessionBuilder {
        self.tools.push(tool);
        self
    }

    /// Adds a closure tool: `signature` as in `(query :string) -> :string`.
    pub fn tool_fn(
        mut self,
        name: &str,
        signature: &str,
        description: &str,
        f: impl FnMut(&[Value]) -> Result<Value, String> + Send + 'static,
    ) -> SessionBuilder {
        match FnTool::new(name, signature, description, f) {
            Ok(t) => self.tool(t),
            Err(e) => {
                self.problems.push(format!(
                    "tool/{name}: bad signature {:?}: {e}",
                    crate::value::describe_text(signature)
                ));
                self
            }
        }
    }

    /// Turns before the session is exhausted (default 5).
    pub fn max_turns(mut self, n: usize) -> SessionBuilder {
        self.max_turns = n;
        self
    }

    /// The limits of every turn (default: [`Limits::default`]).
    pub fn limits(mut self, limits: Limits) -> SessionBuilder {
        self.limits = limits;
        self
    }

    /// How the next prompt is rendered (default: [`RenderOptions::default`]).
    pub fn render(mut self, options: RenderOptions) -> SessionBuilder {
        self.render = options;
        self
    }

    /// Whether the LLM gets the compressed view (default false).
    pub fn compression(mut self, on: bool) -> SessionBuilder {
        self.compression = on;
        self
    }

    /// How the model hands over its program (default [`Protocol::Text`]);
    /// the SYSTEM prompt and the uncompressed view follow it.
    pub fn protocol(mut self, protocol: Protocol) -> SessionBuilder {
        self.protocol = protocol;
        self
    }

    /// Checks everything and makes the session.
    pub fn build(self) -> Result<Session, SessionError> {
        let mut problems = self.problems;
        if self.max_turns == 0 {
            problems.push("max_turns must be at least 1".into());
        }
        for name in self.data.keys() {
            if let Some(why) = bad_name(name) {
                problems.push(format!("data name {name:?} {why}"));
            }
        }
        let mut seen = BTreeSet::new();
        for t in &self.tools {
            let name = &t.info().name;
            if let Some(why) = bad_name(name) {
                problems.push(format!("tool name {name:?} {why}"));
            }
            if !seen.insert(name.clone()) {
                problems.push(format!("tool/{name} is defined twice"));
            }
        }
        if !problems.is_empty() {
            return Err(SessionError::Invalid(problems.join("; ")));
        }
        let mut tools = self.tools;
        let mut mcp_links = Vec::new();
        let mut mcp_files = BTreeMap::new();
        for (name, config, dir, saved) in self.mcp {
            let (server_tools, link) =
                mcp::connect(&name, &config, &dir, saved).map_err(SessionError::Invalid)?;
            for t in server_tools {
                if !seen.insert(t.info().name.clone()) {
                    return Err(SessionError::Invalid(format!(
                        "tool/{} is defined twice",
                        t.info().name
                    )));
                }
                tools.push(t);
            }
            mcp_links.push(link);
            mcp_files.insert(name, config);
        }
        tools.sort_by(|a, b| a.info().name.cmp(&b.info().name));
        let timeout = self.limits.timeout_ms.map(Duration::from_millis);
        for t in tools.iter_mut() {
            t.set_timeout(timeout);
        }
        let infos = tools.iter().map(|t| t.info().clone()).collect();
        let tool_files = tools
            .iter()
            .map(|t| (t.info().name.clone(), t.to_file()))
            .collect();
        let replay = recording::ReplaySlot::default();
        let act = act::ActSlot::default();
        let id = self.id.unwrap_or_else(act::new_session_id);
        {
            let mut a = act.lock();
            a.approval_writes = self.approval_writes;
            a.session_id = id.clone();
        }
        let host = SessionHost::replaying(self.data.clone(), tools, replay.clone(), act.clone());
        let mut session = Session {
            act,
            id,
            paused: None,
            journal: None,
            replay,
            base_dir: self.base_dir,
            mission: self.mission,
            data: self.data,
            tools: infos,
            tool_files,
            mcp_links,
            mcp_files,
            max_turns: self.max_turns,
            limits: self.limits.clone(),
            render: self.render,
            compression: self.compression,
            returns: self.returns,
            interp: Interp::new(Box::new(host), self.limits),
            turns: Vec::new(),
            status: Status::Running,
            prompts: prompts::Prompts::default(),
            stop_at_max_turns: !self.open_ended,
            open_ended: self.open_ended,
            protocol: self.protocol,
            forgotten: 0,
            held: None,
            over_memory: false,
        };
        session.record_next_prompt();
        Ok(session)
    }
}

/// Why `name` cannot be a data or tool name, if it cannot.
pub(crate) fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name
        .chars()
        .any(|c| c.is_whitespace() || "()[]{}\"',;/`@~^\\".contains(c))
    {
        Some("cannot be written as a symbol (no spaces, slashes, brackets or quotes)")
    } else if name.starts_with(|c: char| c.is_ascii_digit() || c == ':') {
        Some("cannot start with a digit or ':'")
    } else {
        None
    }
}

/// A mission and its turns. Serializes (serde) as the
/// [`json::ReplayJson`] of its own view: what `ptc replay --format json`
/// prints (messages, status, turns, stats).
pub struct Session {
    mission: String,
    data: BTreeMap<String, Value>,
    tools: Vec<ToolInfo>,
    tool_files: BTreeMap<String, file::ToolFile>,
    /// The MCP servers (they stop when the last of these and of their
    /// tools is dropped).
    mcp_links: Vec<std::sync::Arc<dyn McpLink>>,
    /// The MCP servers as configured (`${NAME}` not expanded).
    mcp_files: BTreeMap<String, McpServerConfig>,
    max_turns: usize,
    limits: Limits,
    render: RenderOptions,
    compression: bool,
    /// The declared result shape, as written and parsed.
    returns: Option<(String, Type)>,
    interp: Interp,
    turns: Vec<Turn>,
    status: Status,
    /// The prompt for each turn, in the session's own view: `prompts[k]`
    /// is what was sent for turn k+1, recorded when the turn before it
    /// ended and rendered when asked for (`prompts.rs`).
    prompts: prompts::Prompts,
    /// Whether `max_turns` turns exhaust the session (see
    /// [`Session::set_stop_at_max_turns`]).
    stop_at_max_turns: bool,
    /// The recording the turn under way replays (shared with the host).
    replay: recording::ReplaySlot,
    /// Where relative tool paths resolve ([`SessionBuilder::base_dir`]).
    base_dir: Option<PathBuf>,
    /// See [`SessionBuilder::open_ended`].
    open_ended: bool,
    /// How the model hands over its program.
    protocol: Protocol,
    /// Turns dropped by [`Session::forget_turns`] (numbers go on after them).
    forgotten: usize,
    /// What user/ holds, against [`Session::set_memory_limit`].
    held: Option<held::Held>,
    /// Whether the last turn failed for [`Session::set_memory_limit`].
    over_memory: bool,
    /// Approvals, the journal and previews of the turn under way, shared
    /// with the host (`act.rs`).
    act: act::ActSlot,
    /// What idempotency keys start with (ACT-3).
    id: String,
    /// The paused or unfinished turn [`Session::resume`] continues.
    paused: Option<resume::PausedTurn>,
    /// Where new turns journal their writes (`act.rs`, ACT-4).
    journal: Option<std::path::PathBuf>,
}

impl Session {
    /// Starts building a session for `mission`.
    pub fn builder(mission: impl Into<String>) -> SessionBuilder {
        SessionBuilder {
            mission: mission.into(),
            data: BTreeMap::new(),
            tools: Vec::new(),
            max_turns: DEFAULT_MAX_TURNS,
            limits: Limits::default(),
            render: RenderOptions::default(),
            compression: false,
            returns: None,
            problems: Vec::new(),
            base_dir: None,
            mcp: Vec::new(),
            open_ended: false,
            protocol: Protocol::Text,
            approval_writes: false,
            id: None,
        }
    }

    /// Runs one LLM response as the next turn and records it.
    ///
    /// A response without code makes a failed turn (a `parse-error`); so
    /// does any error. Only successful turns change memory. It is an error
    /// to call this once the session has ended.
    pub fn run_turn(&mut self, raw_response: &str) -> Result<&Turn, SessionError> {
        self.run_llm_turn(raw_response, None)
    }

    /// [`Session::run_turn`], recording what the LLM reported about the
    /// response in [`Turn::llm`] (and so in the session file).
    pub fn run_llm_turn(
        &mut self,
        raw_response: &str,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        let found = reply::program_in(raw_response, None, llm.as_ref());
        self.run_extracted(raw_response.to_string(), None, found, llm)
    }

    /// [`Session::run_llm_turn`] for a recorded turn: its tool calls are
    /// answered from `calls`, in order, and no tool runs (`recording.rs`).
    /// A call that is not the recorded one, or recorded calls the turn
    /// did not make, is a [`SessionError::Recording`]; the turn is then
    /// not kept.
    pub fn run_recorded_turn(
        &mut self,
        raw_response: &str,
        llm: Option<LlmInfo>,
        calls: Vec<RecordedCall>,
    ) -> Result<&Turn, SessionError> {
        self.run_recorded_reply(&Reply::text(raw_response), llm, calls)
    }

    /// [`Session::run_recorded_turn`] for a model's reply (tool protocol
    /// calls too).
    pub fn run_recorded_reply(
        &mut self,
        reply: &Reply,
        llm: Option<LlmInfo>,
        calls: Vec<RecordedCall>,
    ) -> Result<&Turn, SessionError> {
        if !self.status.is_running() {
            return Err(SessionError::Ended(self.status.clone()));
        }
        let number = self.turns.len() + 1;
        self.replay.start(calls);
        let ran = self.run_reply(reply, llm).map(|_| ());
        let mismatch = self.replay.finish();
        ran?;
        if let Some(message) = mismatch {
            self.truncate_turns(number - 1);
            return Err(SessionError::Recording {
                turn: number,
                message,
            });
        }
        Ok(&self.turns[number - 1])
    }

    /// Runs a model's reply — text, and function calls under the tool
    /// protocol — as the next turn (`session/reply.rs` says which program
    /// runs, and which replies are failed turns: empty, cut off, no code,
    /// protocol problems).
    pub fn run_reply(
        &mut self,
        reply: &Reply,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        self.run_reply_owned(reply.clone(), llm)
    }

    /// [`Session::run_reply`] taking the reply (nothing of it is copied).
    pub(crate) fn run_reply_owned(
        &mut self,
        reply: Reply,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        let found = reply::program_of(&reply, llm.as_ref());
        self.run_extracted(reply.text, reply.calls, found, llm)
    }

    /// Runs `source` as the next turn, as written: a front end's program
    /// (`ptc mcp`), not an LLM response, so there is no R-70 extraction
    /// (`x` alone is a program). The turn's raw response is `source`, in a
    /// ```` ```clojure ```` fence when extraction would not give it back,
    /// so that a saved session replays the same programs.
    pub fn run_program(&mut self, source: &str) -> Result<&Turn, SessionError> {
        let raw = if extract_program(source).as_deref() == Some(source.trim()) {
            source.to_string()
        } else {
            format!("```clojure\n{source}\n```")
        };
        self.run_extracted(raw, None, Ok(source.to_string()), None)
    }

    /// Runs `found` — the reply's program, or why it has none — as the
    /// next turn of the reply of `text` and `calls`.
    fn run_extracted(
        &mut self,
        text: String,
        calls: Option<Vec<ReplyCall>>,
        found: Result<String, (Error, reply::ReplyIssue)>,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        if !self.status.is_running() {
            return Err(SessionError::Ended(self.status.clone()));
        }
        if self.paused.is_some() {
            return Err(SessionError::Paused);
        }
        let raw_response = text.as_str();
        let number = self.forgotten + self.turns.len() + 1;
        self.begin_acting(number)?;
        // A failed program leaves user/ as it was (`run.rs`); a returned
        // value of the wrong shape fails the turn after its program ran, and
        // then user/ goes back to this.
        let before =
            (self.returns.is_some() || self.held.is_some()).then(|| self.interp.globals.clone());
        let (program, issue) = match found {
            Ok(p) => (Some(p), None),
            Err((e, issue)) => (None, Some((e, issue))),
        };
        let (mut result, mut returned, prints, tool_calls, notes) = match &program {
            None => (
                Err(issue
                    .as_ref()
                    .map_or_else(|| extract::no_code_error(raw_response), |(e, _)| e.clone())),
                false,
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
            // A lone fence or an empty block: a failed turn, not `nil`.
            Some(p) if extract::is_empty_program(p) => (
                Err(extract::empty_program_error()),
                false,
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
            Some(p) => {
                let out = self.interp.run_program(p);
                (
                    out.result,
                    out.returned,
                    std::mem::take(&mut self.interp.prints),
                    std::mem::take(&mut self.interp.tool_calls),
                    out.notes,
                )
            }
        };
        let pending = self.end_acting();
        if let (true, Ok(v), Some((text, ty))) = (returned, &result, &self.returns) {
            if let Some(m) = shape::mismatch(ty, v) {
                result = Err(Error::type_error(format!(
                    "return expects the mission's result shape {text}; {m}"
                ))
                .with_hint("return a value of that shape (the session goes on)"));
                returned = false;
            }
        }
        self.over_memory = false;
        let mut sizes = None;
        if let (Some(held), Some(_), Ok(_)) = (&self.held, &program, &result) {
            let names = defined_names(&mut self.interp);
            match held.measure(&self.interp.globals, &names) {
                Ok(s) => sizes = Some(s),
                Err(e) => {
                    result = Err(e);
                    returned = false;
                    self.over_memory = true;
                }
            }
        }
        let success = result.is_ok();
        if let (false, Some(before)) = (success, before) {
            self.interp.globals = before;
        }
        if let (Some(held), Some(sizes), true) = (&mut self.held, sizes, success) {
            held.commit(sizes);
        }
        let memory = self.interp.globals.clone();
        let defined = match (&program, success) {
            (Some(_), true) => defined_names(&mut self.interp),
            _ => Vec::new(),
        };
        if let Ok(v) = &result {
            self.interp.turn_history.push(v.clone());
        }
        // A paused turn ends nothing: it is resumed (ACT-2).
        if pending.is_empty() {
            self.status = self.status_after(number, &result, returned);
        }
        reserve_gently(&mut self.turns);
        self.turns.push(Turn {
            number,
            raw_response: text,
            program,
            result,
            returned,
            prints,
            tool_calls,
            memory,
            defined,
            success,
            notes,
            llm: llm.map(Box::new),
            calls,
            issue: issue.map(|(_, i)| i),
            pending,
        });
        self.note_paused();
        self.refresh_mcp_tools();
        self.record_next_prompt();
        Ok(&self.turns[self.turns.len() - 1])
    }

    /// The status once turn `number` ended with `result`.
    fn status_after(&self, number: usize, result: &Result<Value, Error>, returned: bool) -> Status {
        if self.open_ended {
            return Status::Running;
        }
        match result {
            Ok(v) if returned => Status::Returned(v.clone()),
            Err(e) if e.kind() == ErrorKind::Fail => Status::Failed(
                e.data()
                    .cloned()
                    .unwrap_or_else(|| Value::string(e.message())),
            ),
            _ if self.stop_at_max_turns && number >= self.max_turns => Status::Exhausted,
            _ => Status::Running,
        }
    }

    /// Whether running `max_turns` turns exhausts the session (default
    /// true). The REPL turns it off, so that a long exploration never runs
    /// out of turns: `max_turns` then still drives the turn indicator of
    /// the rendered prompt and is saved, but only `return` and `fail` end
    /// the session. Call it before running turns; it does not change the
    /// status of turns already run.
    pub fn set_stop_at_max_turns(&mut self, on: bool) {
        self.stop_at_max_turns = on;
    }

    /// Whether the session never ends ([`SessionBuilder::open_ended`]).
    pub fn is_open_ended(&self) -> bool {
        self.open_ended
    }

    /// See [`Session::set_stop_at_max_turns`].
    pub fn stops_at_max_turns(&self) -> bool {
        self.stop_at_max_turns
    }

    /// Keeps the first `n` turns and drops the later ones (the REPL's
    /// `:undo` and `:reset`): memory, `*1 *2 *3`, the status and the stored
    /// prompts go back to what they were after turn `n` (the prompt for
    /// turn `n + 1` is the one recorded then). What dropped turns did outside the
    /// interpreter stays done (a command tool's side effects). Returns the
    /// dropped turns, oldest first.
    pub fn truncate_turns(&mut self, n: usize) -> Vec<Turn> {
        if n >= self.turns.len() {
            return Vec::new();
        }
        let dropped = self.turns.split_off(n);
        self.prompts.truncate(n + 1);
        self.interp.globals = match self.turns.last() {
            Some(t) => t.memory.clone(),
            None => Globals::new(),
        };
        self.interp.turn_history = self
            .turns
            .iter()
            .filter_map(|t| t.result.as_ref().ok().cloned())
            .collect();
        // Forget recorded return values of functions that no longer exist
        // (their ids may be given to new names).
        let globals = &self.interp.globals;
        for (id, slot) in self.interp.fn_returns.iter_mut().enumerate() {
            if globals.get(id as crate::analyze::expr::GlobalId).is_none() {
                *slot = None;
            }
        }
        self.status = match self.turns.last() {
            Some(t) => self.status_after(t.number, &t.result, t.returned),
            None => Status::Running,
        };
        if let Some(held) = &mut self.held {
            held.recount(&self.interp.globals);
        }
        dropped
    }

    /// Drops all but the last `keep` turns of an open-ended session from
    /// memory (`ptc mcp`, which records turns as they end and never
    /// renders a prompt): memory and the definitions stay, `*1 *2 *3`
    /// stay, the numbers of later turns go on after the dropped ones, and
    /// [`Session::truncate_turns`] can only go back to a kept turn. What
    /// the dropped turns hold (programs, prints, results, earlier versions
    /// of redefined values) is freed. Does nothing to a session that is
    /// not open-ended (its prompts refer to every turn).
    pub fn forget_turns(&mut self, keep: usize) {
        if !self.open_ended || self.turns.len() <= keep {
            return;
        }
        let dropped = self.turns.len() - keep;
        self.turns.drain(..dropped);
        self.forgotten += dropped;
        let history = &mut self.interp.turn_history;
        if history.len() > 3 {
            history.drain(..history.len() - 3);
        }
    }

    /// Bounds what user/ may hold, in the heap bytes the evaluator charges
    /// (HEAP-COST-1; a part shared by several definitions counts for each):
    /// a turn whose definitions would pass `max` fails with a `limit`
    /// error, memory unchanged (`ptc mcp --max-session-bytes`). `None`
    /// removes the bound. Definitions made before are measured now.
    pub fn set_memory_limit(&mut self, max: Option<u64>) {
        self.held = max.map(|max| {
            let mut held = held::Held::new(max);
            held.recount(&self.interp.globals);
            held
        });
    }

    /// The bytes user/ holds as [`Session::set_memory_limit`] measures
    /// them, and the limit (`None` without one).
    pub fn memory_held(&self) -> Option<(u64, u64)> {
        self.held.as_ref().map(|h| (h.total(), h.max()))
    }

    /// Whether the last turn failed because its definitions would pass
    /// [`Session::set_memory_limit`].
    pub fn last_turn_over_memory(&self) -> bool {
        self.over_memory
    }

    /// Runs responses in order until they run out or the session ends;
    /// returns how many ran.
    pub fn replay<S: AsRef<str>>(&mut self, responses: impl IntoIterator<Item = S>) -> usize {
        let mut n = 0;
        for r in responses {
            if self.run_turn(r.as_ref()).is_err() {
                break;
            }
            n += 1;
        }
        n
    }

    /// The task the LLM is given.
    pub fn mission(&self) -> &str {
        &self.mission
    }
    /// The `data/` values, by name.
    pub fn data(&self) -> &BTreeMap<String, Value> {
        &self.data
    }
    /// The tools, sorted by name.
    pub fn tools(&self) -> &[ToolInfo] {
        &self.tools
    }
    /// The most turns the session may take.
    pub fn max_turns(&self) -> usize {
        self.max_turns
    }
    /// The limits every turn runs within.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
    /// How the next prompt is rendered.
    pub fn render_options(&self) -> &RenderOptions {
        &self.render
    }
    /// The declared shape of the mission's result, as written.
    pub fn result_shape(&self) -> Option<&str> {
        self.returns.as_ref().map(|(text, _)| text.as_str())
    }
    /// The token budget of the compressed view (`--budget-tokens`); `None`
    /// keeps the session file's.
    pub fn set_budget_tokens(&mut self, budget: Option<usize>) {
        if budget.is_some() && budget != self.render.budget_tokens {
            self.render.budget_tokens = budget;
            self.rerender_next_prompt();
        }
    }
    /// The model the prompts go to: with a token budget and no
    /// `render.tokenizer` of its own, the budget counts with the tokenizer
    /// that fits it ([`crate::render::Tokenizer::for_model`]). Saved in the
    /// session file, so replays count the same way.
    pub fn set_token_model(&mut self, model: &str) {
        let fits = crate::render::Tokenizer::for_model(model);
        if self.render.budget_tokens.is_some()
            && self.render.tokenizer == crate::render::Tokenizer::default()
            && fits != self.render.tokenizer
        {
            self.render.tokenizer = fits;
            self.rerender_next_prompt();
        }
    }
    /// How the model hands over its program.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }
    /// Changes how the model hands over its program from the next turn on:
    /// the prompt for the next turn is rendered again (the ones already
    /// sent stay as they were).
    pub fn set_protocol(&mut self, protocol: Protocol) {
        if protocol != self.protocol {
            self.protocol = protocol;
            self.prompts.settings_changed();
            self.prompts.pop();
            self.record_next_prompt();
        }
    }
    /// Whether the LLM gets the compressed view.
    pub fn compression(&self) -> bool {
        self.compression
    }
    /// The turns so far, oldest first.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }
    /// The current user/ memory (its `iter` gives first-definition order).
    pub fn memory(&self) -> &Globals {
        &self.interp.globals
    }
    /// Running, or how the session ended.
    pub fn status(&self) -> &Status {
        &self.status
    }
    /// `max_turns - turns.len()` (R-60).
    pub fn turns_left(&self) -> usize {
        self.max_turns.saturating_sub(self.turns.len())
    }
    /// A flag that stops the running turn when set (from another thread or
    /// a signal handler): the turn fails with an "interrupted" `timeout`
    /// error and memory is unchanged. Clear it before the next turn.
    pub fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.interp.budget.set_interrupt(flag);
    }
    /// A function called once in every turn that reaches its first clock
    /// check ([`crate::eval::Budget::set_long_turn`]); `None` removes it.
    #[cfg(feature = "python")]
    pub(crate) fn set_long_turn(&mut self, hook: Option<crate::eval::budget::LongTurn>) {
        self.interp.budget.set_long_turn(hook);
    }
    /// The interpreter (memory, turn history).
    pub fn interp(&self) -> &Interp {
        &self.interp
    }

    /// The session as a session file: its definitions and every turn's raw
    /// response (replaying it gives the same turns). Data values are
    /// written as JSON when JSON holds them exactly, else as PTC-Lisp
    /// literals; closure tools are written as their signature and
    /// description only.
    pub fn to_file(&self) -> SessionFile {
        let mut f = file::from_session(self, &self.tool_files);
        f.mcp = self.mcp_files.clone();
        f
    }

    /// The session's MCP servers: name and one line on where each stands.
    pub fn mcp_servers(&self) -> Vec<(String, String)> {
        self.mcp_links
            .iter()
            .map(|l| (l.name().to_string(), l.state()))
            .collect()
    }

    /// The process id of MCP server `name`, while its stdio process runs.
    pub fn mcp_server_pid(&self, name: &str) -> Option<u32> {
        self.mcp_links
            .iter()
            .find(|l| l.name() == name)
            .and_then(|l| l.pid())
    }

    /// Takes the new tool listing of every MCP server that said its tools
    /// changed (`notifications/tools/list_changed`), before the next
    /// prompt is rendered. A server that cannot list keeps its old tools.
    fn refresh_mcp_tools(&mut self) {
        let changed: Vec<_> = self
            .mcp_links
            .iter()
            .filter(|l| l.listing_changed())
            .cloned()
            .collect();
        if !changed.is_empty() {
            self.prompts.settings_changed();
        }
        for link in changed {
            let Ok(tools) = link.tools() else { continue };
            let prefix = format!("{}.", link.name());
            let Some(host) = self
                .interp
                .host
                .as_any_mut()
                .and_then(|a| a.downcast_mut::<SessionHost>())
            else {
                continue;
            };
            self.tools.retain(|t| !t.name.starts_with(&prefix));
            self.tool_files.retain(|n, _| !n.starts_with(&prefix));
            let timeout = self.limits.timeout_ms.map(Duration::from_millis);
            let mut tools = tools;
            for t in tools.iter_mut() {
                t.set_timeout(timeout);
                self.tools.push(t.info().clone());
                self.tool_files.insert(t.info().name.clone(), t.to_file());
            }
            self.tools.sort_by(|a, b| a.name.cmp(&b.name));
            host.replace_tools(&prefix, tools);
        }
    }

    /// Stops every MCP server of the session now (they also stop when it
    /// is dropped; a later call starts one again).
    pub fn stop_mcp_servers(&self) {
        for l in &self.mcp_links {
            l.stop();
        }
    }
}

/// Makes room for one more item, growing by a quarter (at least one)
/// instead of doubling: a live session keeps its turns and prompts for its
/// whole life, and a doubled vector of turns is mostly empty room.
fn reserve_gently<T>(items: &mut Vec<T>) {
    if items.len() == items.capacity() {
        items.reserve_exact((items.len() / 4).max(1));
    }
}

/// Names the turn's program defined or redefined (every `def`/`defn` it
/// ran, a redefinition with an equal value included), in user/ order (the
/// program's list of them is sorted in place: nothing reads it after).
fn defined_names(interp: &mut Interp) -> Vec<String> {
    interp.defined.sort_unstable();
    interp.defined.dedup();
    interp
        .defined
        .iter()
        .map(|&id| interp.globals.name(id).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::builder("test")
            .data_json("nums", &serde_json::json!([1, 2, 3]))
            .max_turns(4)
            .build()
            .unwrap()
    }

    #[test]
    fn failed_turns_leave_memory_alone() {
        let mut s = session();
        assert!(s.run_turn("(def x 1)").unwrap().success);
        let t = s.run_turn("(def x 2)\n(def y 3)\n(/ 1 nil)").unwrap();
        assert!(!t.success);
        assert!(t.defined.is_empty());
        assert_eq!(
            s.memory().lookup("x").map(|d| d.value.clone()),
            Some(Value::Int(1))
        );
        assert!(s.memory().lookup("y").is_none());
        assert_eq!(
            s.turns()[1].memory.lookup("x").map(|d| d.value.clone()),
            Some(Value::Int(1))
        );
    }

    #[test]
    fn no_code_is_a_failed_turn_with_a_parse_error() {
        let mut s = session();
        let t = s.run_turn("I will think about it.").unwrap();
        assert!(!t.success);
        assert_eq!(t.program, None);
        assert_eq!(t.error().map(|e| e.kind()), Some(ErrorKind::Parse));
        assert!(s.status().is_running());
    }

    #[test]
    fn star_vars_see_previous_successful_results() {
        let mut s = session();
        s.run_turn("(+ 5 5)").unwrap();
        s.run_turn("(undefined-thing)").unwrap();
        s.run_turn("```clojure\n20\n```").unwrap();
        let t = s.run_turn("```\n[*1 *2 *3]\n```").unwrap();
        assert_eq!(
            t.result.as_ref().ok(),
            Some(&Value::vector_from([
                Value::Int(20),
                Value::Int(10),
                Value::Nil
            ]))
        );
    }

    #[test]
    fn statuses() {
        let mut s = session();
        s.run_turn("(return 5)").unwrap();
        assert_eq!(s.status(), &Status::Returned(Value::Int(5)));
        assert!(matches!(s.run_turn("1"), Err(SessionError::Ended(_))));

        let mut s = session();
        let t = s.run_turn("(fail \"no data\")").unwrap();
        assert!(!t.success);
        assert_eq!(s.status(), &Status::Failed(Value::string("no data")));

        let mut s = session();
        assert_eq!(
            s.replay(["(inc 1)", "(inc 2)", "(inc 3)", "4", "(inc 5)"]),
            4
        );
        assert_eq!(s.status(), &Status::Exhausted);
        assert_eq!(s.turns().len(), 4);
    }

    #[test]
    fn defined_lists_new_and_redefined_names_in_memory_order() {
        let mut s = session();
        assert_eq!(
            s.run_turn("(def a 1) (defn f [x] x) (def b 2)")
                .unwrap()
                .defined,
            ["a", "f", "b"]
        );
        assert_eq!(
            s.run_turn("(def b 2) (do (def c 3)) 7").unwrap().defined,
            ["b", "c"]
        );
        assert!(s.run_turn("(+ a b)").unwrap().defined.is_empty());
    }

    #[test]
    fn truncating_turns_restores_memory_history_and_status() {
        let mut s = session();
        s.set_stop_at_max_turns(false);
        s.run_turn("(def a 1) 10").unwrap();
        s.run_turn("(def b 2) 20").unwrap();
        s.run_turn("(return 30)").unwrap();
        assert_eq!(s.status(), &Status::Returned(Value::Int(30)));
        let dropped = s.truncate_turns(2);
        assert_eq!(dropped.len(), 1);
        assert!(s.status().is_running());
        assert_eq!(
            s.run_turn("(vector *1 *2)").unwrap().result.as_ref().ok(),
            Some(&Value::vector_from([Value::Int(20), Value::Int(10)]))
        );
        s.truncate_turns(1);
        assert!(s.memory().lookup("b").is_none());
        assert!(s.memory().lookup("a").is_some());
        assert_eq!(s.prompts().len(), 2);
        s.truncate_turns(0);
        assert_eq!(s.prompts().len(), 1);
        assert!(s.memory().is_empty());
        assert!(s.turns().is_empty());
        assert!(s.interp().turn_history.is_empty());
    }

    #[test]
    fn without_stopping_at_max_turns_only_return_and_fail_end_the_session() {
        let mut s = session();
        s.set_stop_at_max_turns(false);
        for i in 0..10 {
            s.run_turn(&format!("(+ {i} 1)")).unwrap();
        }
        assert!(s.status().is_running());
        assert_eq!(s.turns_left(), 0);
        s.run_turn("(fail \"done\")").unwrap();
        assert_eq!(s.status(), &Status::Failed(Value::string("done")));
    }

    #[test]
    fn open_ended_sessions_never_end_and_run_programs_as_written() {
        let mut s = Session::builder("m")
            .max_turns(1)
            .open_ended()
            .build()
            .unwrap();
        assert!(s.prompts().is_empty());
        s.run_program("(def x 1)").unwrap();
        let t = s.run_program("x").unwrap();
        assert_eq!(t.result.as_ref().ok(), Some(&Value::Int(1)));
        assert_eq!(t.raw_response, "```clojure\nx\n```");
        assert_eq!(
            s.run_program("(return 5)").unwrap().result.as_ref().ok(),
            Some(&Value::Int(5))
        );
        let t = s.run_program("(def x 2) (fail \"no\")").unwrap();
        assert!(!t.success);
        assert!(s.status().is_running());
        assert_eq!(
            s.memory().lookup("x").map(|d| d.value.clone()),
            Some(Value::Int(1))
        );
        assert!(s.prompts().is_empty());
        // The recorded responses replay to the same programs.
        let replayed: Vec<Option<String>> = s
            .turns()
            .iter()
            .map(|t| extract_program(&t.raw_response))
            .collect();
        let programs: Vec<Option<String>> = s.turns().iter().map(|t| t.program.clone()).collect();
        assert_eq!(replayed, programs);
    }

    #[test]
    fn builder_reports_every_problem() {
        let e = Session::builder("m")
            .data("x", Value::Nil)
            .data("x", Value::Nil)
            .data_lisp("y", "{:a")
            .tool_fn("t", "(q string) -> :string", "", |_| Ok(Value::Nil))
            .max_turns(0)
            .build()
            .err()
            .unwrap()
            .to_string();
        for part in [
            "data/x is defined twice",
            "data/y",
            "tool/t: bad signature",
            "max_turns",
        ] {
            assert!(e.contains(part), "{e}");
        }
    }
}
