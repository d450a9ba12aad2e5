//! `ptc mcp`: ptc as a stateful, transactional code-mode MCP server
//! (issue 25), over stdio or Streamable HTTP.
//!
//! The client sees three tools ([`describe`]): `run_ptc_lisp {program}`
//! runs one program as the next turn of the client's own session (an
//! open-ended [`Session`](crate::session::Session) built from the session
//! file: its data, tools, limits and render options), `ptc_state {}` lists
//! its `tool/`, `data/` and `user/` namespaces, `ptc_reset {}` clears its
//! definitions. The full SYSTEM prompt is the prompt `ptc-lisp` and the
//! resource `ptc://system-prompt`. Everything the client reads comes from
//! `session/` and `render/` (the compressed view's text for a turn, its
//! listing, its redaction of hidden data): this module owns no language
//! logic.
//!
//! Files: `describe.rs` (tool definitions, descriptions, prompt and
//! resource), `client.rs` (one client's session: its calls one at a time,
//! interrupted when the request is cancelled or the client goes away,
//! appended to the `--out` recording), `pool.rs` (the evaluation workers
//! all sessions share), `answer.rs` (a turn → the tool result, capped in
//! tokens), `handler.rs` (the rmcp `ServerHandler`: the per-session queue),
//! `http.rs` (the Streamable HTTP listener: origin, bearer token, session
//! limit, disconnects), `malformed.rs` (JSON-RPC errors for messages rmcp
//! would drop; the stdio message bound).
//!
//! # Rules where the specs are silent
//!
//! * **Sessions**: one per MCP session: per stdio connection, per HTTP
//!   `Mcp-Session-Id`. The server offers protocol versions up to
//!   2025-11-25 only: later versions (2026-07-28) have no sessions, and a
//!   client's definitions must live somewhere.
//! * **Open-ended**: `(return v)` answers `v` and the session goes on;
//!   `(fail reason)` is a failed call; there is no `max_turns`.
//! * **A failed call** (any error, a timeout, an interruption) changes no
//!   definition; the tool result has `isError: true` and its text is the
//!   error, hint and position. Protocol errors (JSON-RPC) are kept for
//!   requests that are not calls at all: an unknown tool, a missing or
//!   non-string `program` (`-32602`), and requests the server has no room
//!   for ([`BUSY`], `-32000`, below).
//! * **Workers** (`--workers`, default one per CPU, 2 to 16): programs run
//!   on a fixed set of threads shared by all sessions, each keeping one
//!   1 GiB evaluation stack (`eval/stack.rs`); no request takes a thread
//!   of its own. A free worker takes the waiting call whose session was
//!   least busy lately (then the oldest): trivial calls are not stuck
//!   behind calls that run into their limits.
//! * **Queue** (`--max-queued`, default 8): a session runs one call
//!   (`tools/call`, `prompts/get`) at a time, in arrival order; at most
//!   `max-queued` may wait behind the running one. One more is refused at
//!   once with `-32000` ("this session already has N calls running or
//!   waiting … wait for the answers"); the session goes on.
//! * **Sessions limit** (`--max-sessions`, default 64): an HTTP
//!   `initialize` past it gets HTTP 503, `Retry-After: 5` and the JSON-RPC
//!   error `-32000` with its id, naming the flag. A session's place is
//!   free again once it ends (`DELETE`, idle expiry).
//! * **Memory** (`--max-session-bytes`, default 64 MiB; 0: none): what a
//!   session's definitions hold, in the heap bytes the evaluator charges
//!   (a part shared by several definitions counts for each). A call whose
//!   definitions would pass it is a failed call (`limit-exceeded`, memory
//!   unchanged, not recorded); freeing a definition (`(def big nil)`) or
//!   `ptc_reset` makes room. A session keeps only its last turn in memory
//!   (the recording has the others).
//! * **Shared data and MCP servers**: the session file is read once; its
//!   data values are shared by every session, and each of its MCP servers
//!   is one process (one connection) for all sessions, started at the
//!   first call of any session and stopped when the server ends.
//! * **Output cap**: the text of a result is cut at `max_output_tokens`
//!   tokens (4 characters each, as the renderer estimates), with a note
//!   saying so; `structuredContent.result` is cut at the same place with
//!   the same note (also its `truncated`), `value` is left out when its
//!   JSON would pass the cap or the result was cut, and the earliest prints
//!   and tool calls are dropped until the rest fits. `ptc_state`'s listing
//!   and the listing of the prompt `ptc-lisp` are cut the same way.
//! * **`structuredContent` stands on its own** (Claude Code, Codex and
//!   pydantic-ai show their model only it): `result` (the value printed as
//!   the text's `Result:` has it, null for a failed call), `prints`,
//!   `tool_calls` (as the text lists them), `error` with hint and position,
//!   `defined`, and `value` (JSON) only when JSON holds the value exactly.
//!   `ptc_state`'s is `{"listing"}`. Both tools declare the matching
//!   `outputSchema`.
//! * **Annotations**: `run_ptc_lisp` is not read-only, destructive (and
//!   open-world) only when the session has tools run by a command or an
//!   MCP server; `ptc_state` is read-only; `ptc_reset` destructive.
//! * **Approval** (ACT-2): a `run_ptc_lisp` turn that pauses at calls
//!   awaiting approval is answered by the user, not the model: with the
//!   client's elicitation capability, one `elicitation/create` per pending
//!   call (tool and arguments; accept approves, decline or cancel denies
//!   with "declined by the user"); without it every pending call is denied
//!   ("the MCP client cannot ask the user for approval (no elicitation
//!   support); the call was not run"). The session resumes and the answer
//!   is the resumed turn's; a paused turn is never recorded, its resumed
//!   one is.
//! * **First answer**: the first `run_ptc_lisp` answer of an MCP session
//!   ends with a note (`structuredContent.note`) that definitions persist
//!   only within one MCP session (clients such as LangChain's default
//!   `get_tools()` open one per call).
//! * **HTTP `DELETE`** of a session answers 204 (rmcp says 202; Python SDK
//!   clients warn on that).
//! * **Message size**: a stdio line (an HTTP body) over 4 MiB gets
//!   `-32600` (HTTP 413) and is dropped unread; the server goes on.
//! * **Idle expiry** (HTTP, `--idle-secs`, default 1,800): a session with
//!   no request for `idle` is closed (its state dropped); the next request
//!   with its id gets 404 and the client starts a new session. A stdio
//!   session lasts as long as its connection.
//! * **Disconnect**: when a request is cancelled
//!   (`notifications/cancelled`), its session ends (stdio closed, HTTP
//!   `DELETE`, expiry) or, over HTTP, the client closes the connection
//!   before the answer, the running turn is interrupted: it fails with
//!   the interpreter's "interrupted" `timeout` error, memory unchanged.
//! * **Origin** (HTTP): a request with an `Origin` header other than
//!   `http(s)://localhost`, `127.0.0.1` or `[::1]` (any port) gets 403
//!   unless `--allow-origin ORIGIN` (repeatable, `*` for any) names it.
//! * **Token** (HTTP, `--token-env`): `Authorization: Bearer TOKEN`, the
//!   scheme in any case; else 401.
//! * **`ptc_reset`** drops every turn (as the REPL's `:reset`); with
//!   `--out` the turns before it stay in their own file
//!   (`NAME-before-reset-K.json`).
//! * **`--out DIR`**: each MCP session is recorded as
//!   `DIR/mcp-UNIXTIME-PID-N.json`, a session-file journal: its first line
//!   the session file without turns (command tools relocated as
//!   `Session::to_file_at` does, the MCP servers configured), then one line
//!   per call appended as it ends, `{"turn": PROGRAM, "tool_calls": [...]}`;
//!   `ptc replay` reads it. A call costs what its own line costs, however
//!   long the session.

mod answer;
mod client;
pub mod describe;
mod handler;
mod http;
mod malformed;
mod pool;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::eval::Limits;
use crate::session::{Session, SessionFile};
use crate::value::Value;

pub use handler::PtcServer;

/// Default cap of a tool result, in tokens.
pub const DEFAULT_MAX_OUTPUT_TOKENS: usize = 2000;
/// Default time an idle HTTP session lives.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);
/// Default number of MCP sessions served at once.
pub const DEFAULT_MAX_SESSIONS: usize = 64;
/// Default number of calls one session may have waiting behind its running
/// one.
pub const DEFAULT_MAX_QUEUED: usize = 8;
/// Default bytes one session's definitions may hold.
pub const DEFAULT_MAX_SESSION_BYTES: u64 = 64 << 20;

/// The JSON-RPC error code of a request the server is too busy for (a
/// session's queue full, the session limit reached): try again later.
pub const BUSY: i32 = -32000;

/// Default number of evaluation workers: one per CPU, at least 2, at most
/// 16 (each reserves a 1 GiB evaluation stack).
pub fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(2, 16)
}

/// How `ptc mcp` serves.
#[derive(Clone, Debug)]
pub struct Options {
    /// The session file (mission, data, tools, limits, render options);
    /// `None`: an empty session.
    pub session_file: Option<PathBuf>,
    /// Replaces the file's limits (LIMITS flags).
    pub limits: Option<Limits>,
    /// Cap of one tool result's text, in tokens.
    pub max_output_tokens: usize,
    /// How long an idle HTTP session lives.
    pub idle: Duration,
    /// Where each MCP session is recorded as a session file.
    pub out_dir: Option<PathBuf>,
    /// Threads evaluating programs, shared by every session.
    pub workers: usize,
    /// MCP sessions served at once (HTTP; stdio has one).
    pub max_sessions: usize,
    /// Calls one session may have waiting behind its running one.
    pub max_queued: usize,
    /// Bytes one session's definitions may hold (`None`: unbounded).
    pub max_session_bytes: Option<u64>,
    /// Browser origins allowed besides localhost, 127.0.0.1 and [::1]
    /// (`*` allows any).
    pub allowed_origins: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            session_file: None,
            limits: None,
            max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            idle: DEFAULT_IDLE,
            out_dir: None,
            workers: default_workers(),
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_queued: DEFAULT_MAX_QUEUED,
            max_session_bytes: Some(DEFAULT_MAX_SESSION_BYTES),
            allowed_origins: Vec::new(),
        }
    }
}

/// What every session of the server shares: the session file read once
/// (its data converted once, its MCP servers started once), the tool
/// definitions, the evaluation workers and the count of live sessions.
pub struct Template {
    file: SessionFile,
    path: PathBuf,
    options: Options,
    /// The file without its data and MCP servers: each session is built
    /// from it, then given `data` and `mcp_tools`.
    lean: SessionFile,
    data: BTreeMap<String, Value>,
    mcp_tools: Vec<crate::mcp::client::McpTool>,
    mcp_servers: Vec<Arc<crate::mcp::client::Server>>,
    tools: Arc<Vec<rmcp::model::Tool>>,
    pool: pool::Pool,
    sessions: Arc<Sessions>,
    header: std::sync::OnceLock<String>,
}

impl Template {
    /// Reads the session file of `options` (an empty session without one)
    /// and checks that a session can be built from it.
    pub fn new(options: Options) -> Result<Template, String> {
        let (file, path, text) = match &options.session_file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("{}: cannot read the session file: {e}", path.display())
                })?;
                let file = SessionFile::parse(&text, path).map_err(|e| e.to_string())?;
                (file, path.clone(), Some(text))
            }
            None => (
                SessionFile::parse(r#"{"mission": ""}"#, std::path::Path::new("ptc-mcp.json"))
                    .map_err(|e| e.to_string())?,
                PathBuf::from("ptc-mcp.json"),
                None,
            ),
        };
        // The whole file once: its errors, its data's values, and the
        // tools its MCP servers offer.
        let proto = {
            let mut b = file
                .builder(&path, text.as_deref())
                .map_err(|e| e.to_string())?;
            if let Some(l) = &options.limits {
                b = b.limits(l.clone());
            }
            b.open_ended().build().map_err(|e| e.to_string())?
        };
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let proto_tools = proto.to_file().tools;
        let mut mcp_tools = Vec::new();
        let mut mcp_servers = Vec::new();
        for (server, config) in &file.mcp {
            let listed = proto
                .tools()
                .iter()
                .filter(|t| {
                    proto_tools.get(&t.name).and_then(|f| f.mcp.as_deref()) == Some(server.as_str())
                })
                .cloned()
                .collect();
            let (tools, s) = crate::mcp::client::shared(server, config, &dir, listed)?;
            mcp_tools.extend(tools);
            mcp_servers.push(s);
        }
        let listing = crate::session::listing(&proto);
        // Tools run by a command or an MCP server may change the world.
        let writes = proto_tools
            .values()
            .any(|t| (t.command.is_some() || t.mcp.is_some()) && !t.recorded_only);
        let data = proto.data().clone();
        proto.stop_mcp_servers();
        drop(proto);
        let mut lean = file.clone();
        lean.data.clear();
        lean.data_lisp.clear();
        lean.mcp.clear();
        let template = Template {
            tools: Arc::new(describe::tools(&listing, writes)),
            lean,
            data,
            mcp_tools,
            mcp_servers,
            file,
            path,
            pool: pool::Pool::new(options.workers),
            sessions: Arc::new(Sessions {
                live: AtomicUsize::new(0),
                max: options.max_sessions.max(1),
            }),
            header: std::sync::OnceLock::new(),
            options,
        };
        template.session()?;
        Ok(template)
    }

    /// A fresh open-ended session (the file's turns are not run: each
    /// client starts from the definitions of the file only), sharing the
    /// template's data values and MCP servers.
    pub fn session(&self) -> Result<Session, String> {
        let mut b = self
            .lean
            .builder(&self.path, None)
            .map_err(|e| e.to_string())?;
        for (name, v) in &self.data {
            b = b.data(name.clone(), v.clone());
        }
        for t in &self.mcp_tools {
            b = b.attach_tool(Box::new(t.clone()));
        }
        if let Some(l) = &self.options.limits {
            b = b.limits(l.clone());
        }
        let mut session = b.open_ended().build().map_err(|e| e.to_string())?;
        session.set_memory_limit(self.options.max_session_bytes);
        Ok(session)
    }

    /// The session file's mission (the server's instructions).
    pub fn mission(&self) -> &str {
        &self.file.mission
    }

    /// The options served with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Stops the shared MCP servers (a later call starts one again).
    fn stop_mcp_servers(&self) {
        for s in &self.mcp_servers {
            s.stop();
        }
    }

    /// The first line of a recording: `session` (one of this template's)
    /// as a session file without turns, saved at `path`, with the
    /// template's MCP servers. The same for every session: made once.
    fn recording_header(
        &self,
        session: &Session,
        path: &std::path::Path,
    ) -> Result<String, String> {
        if let Some(h) = self.header.get() {
            return Ok(h.clone());
        }
        let mut file = session.to_file_at(path);
        file.turns.clear();
        file.tool_calls.clear();
        file.llm.clear();
        file.calls.clear();
        file.cost_usd = None;
        file.mcp = self.file.mcp.clone();
        let json = serde_json::to_string(&file)
            .map_err(|e| format!("cannot write the session as JSON: {e}"))?;
        Ok(self.header.get_or_init(|| json).clone())
    }

    /// A place for one more session, or `None` at the limit.
    fn session_slot(&self) -> Option<Slot> {
        self.sessions.take()
    }
}

/// How many sessions live, against the limit.
struct Sessions {
    live: AtomicUsize,
    max: usize,
}

impl Sessions {
    fn take(self: &Arc<Self>) -> Option<Slot> {
        self.live
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.clone()))
    }
}

/// One live session's place: given back when dropped.
pub struct Slot(Arc<Sessions>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A new tokio runtime for serving (the runtime never leaves this module).
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    // Programs run on the pool's workers (`pool.rs`), never on blocking
    // threads of the runtime: the few it needs (standard input) stay few.
    tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(4)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Serves one client over standard input and output until it disconnects.
pub fn serve_stdio(options: Options) -> Result<(), String> {
    let template = Arc::new(Template::new(options)?);
    let stopping = template.clone();
    let rt = runtime()?;
    let result = rt.block_on(async move {
        use rmcp::ServiceExt;
        let server = PtcServer::new(template.clone())?;
        let (to_server, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, from_server) = tokio::io::duplex(1 << 16);
        let filter = tokio::spawn(malformed::filter_stdio(
            tokio::io::stdin(),
            tokio::io::stdout(),
            to_server,
            from_server,
        ));
        let running = server
            .serve((server_in, server_out))
            .await
            .map_err(|e| format!("MCP handshake failed: {e}"))?;
        running
            .waiting()
            .await
            .map_err(|e| format!("MCP server stopped: {e}"))?;
        // The filter ends once the server's last line is out.
        let _ = tokio::time::timeout(Duration::from_secs(2), filter).await;
        Ok::<(), String>(())
    });
    // Blocking reads of stdin would keep a plain drop waiting.
    rt.shutdown_timeout(Duration::from_secs(2));
    stopping.stop_mcp_servers();
    result
}

/// Serves Streamable HTTP at `http://ADDR/mcp` until interrupted; `token`
/// is the bearer token every request must carry. `ready` is told the
/// bound address (port 0 picks a free one).
pub fn serve_http(
    options: Options,
    addr: std::net::SocketAddr,
    token: Option<String>,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), String> {
    let template = Arc::new(Template::new(options)?);
    let rt = runtime()?;
    let result = rt.block_on(http::serve(template.clone(), addr, token, ready));
    rt.shutdown_timeout(Duration::from_secs(2));
    template.stop_mcp_servers();
    result
}
