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
mod builder;
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
mod running;
pub(crate) mod shape;
pub(crate) mod signature;
pub(crate) mod tools;
mod turn;

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
pub(crate) use builder::bad_name;
pub use builder::SessionBuilder;
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
use running::reserve_gently;
pub use signature::{Signature, SignatureError, Type};
pub use tools::{call_limit, CallContext, CommandTool, FnTool, Job, ScriptedTool, Tool, ToolInfo};
pub use turn::{SessionError, Status, Turn, DEFAULT_MAX_TURNS};

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

#[cfg(test)]
mod tests;
