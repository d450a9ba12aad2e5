//! One MCP server of a session: starting it (stdio child process or
//! Streamable HTTP), its tool listing, calls bounded by a deadline, and
//! stopping it (rule MCP-6):
//!
//! * a stdio server runs in its own process group in the session file's
//!   directory; stopping it (session end or drop, or a failed start)
//!   sends SIGTERM to the group, then SIGKILL after [`STOP_GRACE`], and
//!   reaps it: no orphans;
//! * the last [`STDERR_TAIL`] bytes of its stderr are kept for errors, with
//!   every expanded `${NAME}` value (and any piece of 8 bytes or more of
//!   one) replaced by `***`: redacted before it is cut (`redact.rs`);
//! * what it sends is bounded before it is parsed or kept (`wire.rs`);
//! * `initialize` (rmcp negotiates the protocol version) and the paginated
//!   `tools/list` must finish, together, within the server's
//!   `startup_timeout_ms` (default [`DEFAULT_STARTUP`]); a listing has at
//!   most [`MAX_LIST_PAGES`] pages (a cursor seen before ends it too) and
//!   `wire::MAX_LISTING_BYTES` bytes;
//! * of the tools listed (and allowed by `tools`), those whose
//!   `SERVER.NAME` cannot be a tool name (the session's rule for tool
//!   names, at most [`MAX_NAME_CHARS`] characters, no control or
//!   invisible formatting characters, no secret in it) or that repeat a
//!   name are skipped, and so are those past the first [`MAX_TOOLS`]:
//!   counted in the server's state line (`:tools`);
//! * a call past its deadline is dropped, which sends
//!   `notifications/cancelled`; a server whose connection closes during a
//!   call is stopped and started again at the next call;
//! * errors name the server and the tool, never with rmcp's own words
//!   (Rust type names), and say what the server wrote that was not a
//!   message when a request went unanswered;
//! * `notifications/tools/list_changed` marks the listing stale; it is
//!   listed again before the next call that needs it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, MetaObject,
    PaginatedRequestParams, RequestMetaObject,
};
use rmcp::service::{
    ClientCacheConfig, ClientInitializeError, NotificationContext, RoleClient, RunningService,
};
use rmcp::{ClientHandler, ServiceError, ServiceExt};
use serde_json::{Map, Value as Json};
use tokio::io::AsyncReadExt;

use super::redact::Redactor;
use super::result::{self, Failed, Within, MAX_ERROR_CHARS, MAX_RESULT_BYTES};
use super::runtime::Rt;
use super::wire::{self, Answer, Wire};
use crate::session::McpServerConfig;
use crate::value::Value;

/// How long a server may take to start, by default.
pub const DEFAULT_STARTUP: Duration = Duration::from_secs(30);
/// How long a stopped server gets between SIGTERM and SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_millis(500);
/// Bytes of a server's stderr kept for error messages.
pub const STDERR_TAIL: usize = 2048;
/// Pages of one `tools/list`.
pub const MAX_LIST_PAGES: usize = 100;
/// Tools offered from one server (the first ones listed).
pub const MAX_TOOLS: usize = 128;
/// Characters of an MCP tool's name.
pub const MAX_NAME_CHARS: usize = 128;

/// An MCP tool as the server lists it (`tool::listed_parts`), secrets
/// redacted.
#[derive(Clone, Debug)]
pub struct ListedTool {
    /// The MCP name.
    pub name: String,
    /// Its description, whole (control characters taken out).
    pub description: String,
    /// Its signature (MCP-4).
    pub signature: crate::session::Signature,
    /// What `(doc tool/SERVER.NAME)` shows.
    pub doc: String,
    /// Read when its annotations say `readOnlyHint: true`, else a write;
    /// idempotent when they say `idempotentHint: true` (ACT-1).
    pub acts: crate::session::Acts,
}

/// The `_meta` key of a write's idempotency key (ACT-3).
pub const IDEMPOTENCY_META: &str = "ptc/idempotency_key";

/// How a listed tool acts, from its annotations (ACT-1): a read only when
/// `readOnlyHint` is true; idempotent when `idempotentHint` is true.
fn acts_of(annotations: Option<&rmcp::model::ToolAnnotations>) -> crate::session::Acts {
    let hint = |h: Option<bool>| h == Some(true);
    crate::session::Acts {
        effect: if annotations.is_some_and(|a| hint(a.read_only_hint)) {
            crate::session::Effect::Read
        } else {
            crate::session::Effect::Write
        },
        idempotent: annotations.is_some_and(|a| hint(a.idempotent_hint)),
        ..Default::default()
    }
}

/// Receives the server's notifications.
#[derive(Clone)]
struct Handler {
    changed: Arc<AtomicBool>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("ptc", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.store(true, Ordering::SeqCst);
    }
}

struct Running {
    service: RunningService<RoleClient, Handler>,
    child: Option<tokio::process::Child>,
    pid: Option<u32>,
    wire: Arc<Wire>,
}

/// Tools of the listing not offered, by why.
#[derive(Clone, Copy, Debug, Default)]
struct Skipped {
    names: usize,
    secrets: usize,
    over: usize,
}

enum State {
    Stopped,
    Running(Box<Running>),
}

/// One server: its configuration and, when started, its connection.
pub struct Server {
    /// Its name in the session (`fs` of `tool/fs.read_file`).
    pub name: String,
    rt: Rt,
    config: McpServerConfig,
    dir: PathBuf,
    state: Mutex<State>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Expanded `${NAME}` values, hidden from everything it sends.
    redact: Mutex<Arc<Redactor>>,
    changed: Arc<AtomicBool>,
    listing: Mutex<Option<Arc<Vec<ListedTool>>>>,
    skipped: Mutex<Skipped>,
    starts: Mutex<u32>,
    last_error: Mutex<Option<String>>,
}

impl Server {
    /// A server not started yet.
    pub fn new(name: &str, config: &McpServerConfig, dir: &Path) -> Result<Server, String> {
        Ok(Server {
            rt: Rt::new(name)?,
            name: name.to_string(),
            config: config.clone(),
            dir: dir.to_path_buf(),
            state: Mutex::new(State::Stopped),
            stderr: Arc::new(Mutex::new(Vec::new())),
            redact: Mutex::new(Arc::new(Redactor::default())),
            changed: Arc::new(AtomicBool::new(false)),
            listing: Mutex::new(None),
            skipped: Mutex::new(Skipped::default()),
            starts: Mutex::new(0),
            last_error: Mutex::new(None),
        })
    }

    /// `node server.js ./docs` or the URL: how the server is named in
    /// errors (as written, `${NAME}` not expanded).
    pub fn display(&self) -> String {
        match &self.config.url {
            Some(url) => url.clone(),
            None => self.config.argv().join(" "),
        }
    }

    /// One line on where the server stands (`:tools` of the REPL).
    pub fn state(&self) -> String {
        let kind = if self.config.url.is_some() {
            "http"
        } else {
            "stdio"
        };
        let state = lock(&self.state);
        let mut s = match &*state {
            State::Running(r) => match r.pid {
                Some(pid) => format!("running ({kind}, pid {pid})"),
                None => format!("running ({kind})"),
            },
            State::Stopped => match &*lock(&self.last_error) {
                Some(e) => format!("stopped ({kind}): {}", first_line(e)),
                None => format!("not started ({kind}; starts at its first call)"),
            },
        };
        if let Some(l) = &*lock(&self.listing) {
            s.push_str(&format!(", {} tools", l.len()));
        }
        let k = *lock(&self.skipped);
        let mut why = Vec::new();
        if k.names > 0 {
            why.push(format!(
                "{} whose names cannot be tool names or repeat one",
                k.names
            ));
        }
        if k.secrets > 0 {
            why.push(format!("{} whose names hold a secret", k.secrets));
        }
        if k.over > 0 {
            why.push(format!("{} past the first {MAX_TOOLS}", k.over));
        }
        if !why.is_empty() {
            s.push_str(&format!(
                " ({} skipped: {})",
                k.names + k.secrets + k.over,
                why.join(", ")
            ));
        }
        if self.changed.load(Ordering::SeqCst) {
            s.push_str(", listing changed");
        }
        s
    }

    /// The process id of a running stdio server.
    pub fn pid(&self) -> Option<u32> {
        match &*lock(&self.state) {
            State::Running(r) => r.pid,
            State::Stopped => None,
        }
    }

    /// Whether the server said its tools changed since the last listing.
    pub fn listing_changed(&self) -> bool {
        self.changed.load(Ordering::SeqCst)
    }

    /// The server's tools (allow-list applied), starting it if needed and
    /// listing again when the server said they changed.
    pub fn tools(&self) -> Result<Arc<Vec<ListedTool>>, String> {
        let started = Instant::now();
        self.ensure_started(None)?;
        if self.changed.swap(false, Ordering::SeqCst) || lock(&self.listing).is_none() {
            self.list(started + self.startup())?;
        }
        Ok(lock(&self.listing).clone().unwrap_or_default())
    }

    /// Starts the server unless it runs; `limit` bounds the start below
    /// the configured startup timeout.
    fn ensure_started(&self, limit: Option<Duration>) -> Result<(), String> {
        let mut state = lock(&self.state);
        if let State::Running(r) = &*state {
            if !r.service.is_closed() {
                return Ok(());
            }
        }
        if let State::Running(r) = std::mem::replace(&mut *state, State::Stopped) {
            self.stop_running(*r);
        }
        let startup = self.startup();
        let limit = limit.map_or(startup, |l| l.min(startup));
        *lock(&self.starts) += 1;
        let _notice = super::SlowStart::watch(format!(
            "starting MCP server {} (`{}`; up to {} s)…",
            self.name,
            self.display(),
            limit.as_secs()
        ));
        match self.start(limit) {
            Ok(r) => {
                *state = State::Running(Box::new(r));
                *lock(&self.last_error) = None;
                Ok(())
            }
            Err(e) => {
                *lock(&self.last_error) = Some(e.clone());
                Err(e)
            }
        }
    }

    /// How long starting (up to the complete listing) may take.
    fn startup(&self) -> Duration {
        self.config
            .startup_timeout_ms
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_STARTUP)
    }

    fn redactor(&self) -> Arc<Redactor> {
        lock(&self.redact).clone()
    }

    fn start(&self, limit: Duration) -> Result<Running, String> {
        lock(&self.stderr).clear();
        let handler = Handler {
            changed: self.changed.clone(),
        };
        if let Some(url) = &self.config.url {
            return self.start_http(url, handler, limit);
        }
        let argv = self.config.argv();
        let (program, rest) = argv.split_first().ok_or("the command is empty")?;
        let mut env = Vec::new();
        let mut secrets = Vec::new();
        for (k, v) in &self.config.env {
            let value = expand(v, &mut secrets)
                .map_err(|var| self.fail(&format!("env.{k}: {var}"), None))?;
            env.push((k.clone(), value));
        }
        let redact = Arc::new(Redactor::new(secrets.iter().map(String::as_str)));
        *lock(&self.redact) = redact.clone();
        // Absolute, so that a relative program path is not resolved twice
        // (once here, once against the child's working directory).
        let dir = std::path::absolute(&self.dir).unwrap_or_else(|_| self.dir.clone());
        let cwd = match &self.config.cwd {
            Some(c) => dir.join(c),
            None => dir.clone(),
        };
        let program_path = if program.contains('/') {
            dir.join(program)
        } else {
            PathBuf::from(program)
        };
        let mut cmd = tokio::process::Command::new(program_path);
        cmd.args(rest)
            .envs(env)
            .current_dir(&cwd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        let stderr_buf = self.stderr.clone();
        // The tail is redacted when shown, then cut: it keeps as many more
        // bytes as the longest secret has, so that no secret it shows a
        // part of is cut before it is redacted.
        let keep = STDERR_TAIL + redact.longest();
        let spawned = self.rt.block(async move {
            let mut child = cmd.spawn()?;
            if let Some(mut err) = child.stderr.take() {
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = err.read(&mut buf).await {
                        if n == 0 {
                            break;
                        }
                        let mut tail = lock(&stderr_buf);
                        tail.extend_from_slice(&buf[..n]);
                        let len = tail.len();
                        if len > keep {
                            tail.drain(..len - keep);
                        }
                    }
                });
            }
            Ok::<_, std::io::Error>(child)
        })?;
        let mut child = spawned.map_err(|e| {
            self.fail(
                &format!("cannot start it: {e} (in {})", cwd.display()),
                None,
            )
        })?;
        let pid = child.id();
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return Err(self.fail("its stdin/stdout could not be opened", None));
        };
        let wire = Wire::new(redact);
        let transport = wire::Stdio::new(stdout, stdin, wire.clone());
        let served = self
            .rt
            .block(async move { tokio::time::timeout(limit, handler.serve(transport)).await })?;
        let service = match served {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                let status = stop_child(&self.rt, Some(child), pid);
                let why = self.init_error(&e, &wire);
                return Err(self.fail(&why, status));
            }
            Err(_) => {
                let status = stop_child(&self.rt, Some(child), pid);
                return Err(self.fail(
                    &format!(
                        "it did not answer `initialize` within {} ms{}",
                        limit.as_millis(),
                        wire.noise()
                    ),
                    status,
                ));
            }
        };
        Ok(Running {
            service,
            child: Some(child),
            pid,
            wire,
        })
    }

    fn start_http(&self, url: &str, handler: Handler, limit: Duration) -> Result<Running, String> {
        use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
        use rmcp::transport::StreamableHttpClientTransport;
        let mut secrets = Vec::new();
        let mut headers = HashMap::new();
        for (k, v) in &self.config.headers {
            let value = expand(v, &mut secrets)
                .map_err(|var| self.fail(&format!("headers.{k}: {var}"), None))?;
            let name = http::HeaderName::from_bytes(k.as_bytes())
                .map_err(|_| self.fail(&format!("headers.{k}: not a header name"), None))?;
            let value = http::HeaderValue::from_str(&value).map_err(|_| {
                self.fail(
                    &format!("headers.{k}: the value is not a valid header value"),
                    None,
                )
            })?;
            headers.insert(name, value);
        }
        let redact = Arc::new(Redactor::new(secrets.iter().map(String::as_str)));
        *lock(&self.redact) = redact.clone();
        let config = StreamableHttpClientTransportConfig::with_uri(url.to_string())
            .custom_headers(headers)
            .max_sse_event_size(wire::MAX_MESSAGE_BYTES)
            .max_json_response_size(wire::MAX_MESSAGE_BYTES);
        // reqwest is built without a TLS provider of its own (Cargo.toml):
        // ring becomes the process default unless the embedder chose one.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let wire = Wire::new(redact);
        let relayed = wire.clone();
        let served = self.rt.block(async move {
            let transport = StreamableHttpClientTransport::from_config(config);
            let transport = wire::Relay::new(transport, relayed);
            tokio::time::timeout(limit, handler.serve(transport)).await
        })?;
        match served {
            Ok(Ok(service)) => Ok(Running {
                service,
                child: None,
                pid: None,
                wire,
            }),
            Ok(Err(e)) => {
                let why = self.init_error(&e, &wire);
                Err(self.fail(&why, None))
            }
            Err(_) => Err(self.fail(
                &format!(
                    "it did not answer `initialize` within {} ms{}",
                    limit.as_millis(),
                    wire.noise()
                ),
                None,
            )),
        }
    }

    /// Why `initialize` failed, in words (no rmcp types, nothing the
    /// server sent but its error message, redacted and cut).
    fn init_error(&self, e: &ClientInitializeError, wire: &Wire) -> String {
        use ClientInitializeError as E;
        match e {
            E::ExpectedInitResponse(_) | E::ExpectedInitResult(_) => {
                "it answered `initialize` with something other than an initialize result; \
                 is this an MCP server?"
                    .to_string()
            }
            E::ConflictInitResponseId(..) | E::UncorrelatedErrorResponse { .. } => {
                "it answered `initialize` under another request's id".to_string()
            }
            E::ConnectionClosed(_) => format!(
                "it closed the connection before answering `initialize`{}",
                wire.noise()
            ),
            E::TransportError { .. } => {
                "`initialize` could not be sent to it (the connection failed)".to_string()
            }
            E::JsonRpcError(d) if d.code.0 == wire::REFUSED_HERE => d.message.to_string(),
            E::JsonRpcError(d) => format!(
                "it refused `initialize`: {}",
                result::cap(&self.redactor().text(&d.message), MAX_ERROR_CHARS)
            ),
            E::NoCompatibleProtocolVersion {
                server_supported, ..
            } => format!(
                "it speaks no MCP protocol version ptc speaks (it offers {})",
                serde_json::to_string(server_supported).unwrap_or_default()
            ),
            _ => "`initialize` failed".to_string(),
        }
    }

    /// What a failed request's error says, in words (see `init_error`).
    fn service_error(&self, e: &ServiceError, what: &str) -> String {
        match e {
            ServiceError::McpError(d) if d.code.0 == wire::REFUSED_HERE => d.message.to_string(),
            ServiceError::McpError(d) => format!(
                "it refused {what}: {}",
                result::cap(&self.redactor().text(&d.message), MAX_ERROR_CHARS)
            ),
            ServiceError::TransportSend(_) => {
                format!("{what} could not be sent to it (the connection failed)")
            }
            ServiceError::TransportClosed => format!("it closed the connection during {what}"),
            ServiceError::UnexpectedResponse => {
                format!("it answered {what} with something else than its answer")
            }
            ServiceError::Cancelled { .. } => format!("{what} was cancelled"),
            ServiceError::Timeout { timeout } => {
                format!("it did not answer {what} within {} ms", timeout.as_millis())
            }
            _ => format!("{what} failed"),
        }
    }

    /// Lists the tools (every page, within `deadline` and the bounds of
    /// the module docs), keeping those the allow-list names and that can
    /// be tools.
    fn list(&self, deadline: Instant) -> Result<(), String> {
        let (peer, wire) = match &*lock(&self.state) {
            State::Running(r) => (r.service.peer().clone(), r.wire.clone()),
            State::Stopped => return Err(self.fail("it is not running", None)),
        };
        let limit = deadline.saturating_duration_since(Instant::now());
        wire.start_listing();
        enum Stop {
            Pages,
            Again(String),
            Failed(ServiceError),
        }
        let listed = self.rt.block(async move {
            tokio::time::timeout(limit, async move {
                // rmcp would keep pages a server marks cacheable.
                peer.set_response_cache_config(ClientCacheConfig::disabled())
                    .await;
                let mut tools = Vec::new();
                let mut cursor: Option<String> = None;
                let mut seen = HashSet::new();
                for _ in 0..MAX_LIST_PAGES {
                    let params = cursor
                        .take()
                        .map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
                    let page = peer.list_tools(params).await.map_err(Stop::Failed)?;
                    tools.extend(page.tools);
                    match page.next_cursor {
                        Some(c) if !c.is_empty() => {
                            if !seen.insert(c.clone()) {
                                return Err(Stop::Again(c));
                            }
                            cursor = Some(c);
                        }
                        _ => return Ok(tools),
                    }
                }
                Err(Stop::Pages)
            })
            .await
        })?;
        let tools = match listed {
            Ok(Ok(t)) => t,
            Ok(Err(Stop::Pages)) => {
                return Err(self.fail(
                    &format!(
                        "its tool listing goes on past {MAX_LIST_PAGES} pages, the most ptc reads; \
                         offer fewer tools from this server"
                    ),
                    None,
                ))
            }
            Ok(Err(Stop::Again(c))) => {
                return Err(self.fail(
                    &format!(
                        "its tool listing gave the cursor {:?} twice, which would list forever",
                        result::cap(&self.redactor().text(&c), 40)
                    ),
                    None,
                ))
            }
            Ok(Err(Stop::Failed(e))) => {
                let why = self.service_error(&e, "`tools/list`");
                return Err(self.fail(&why, None));
            }
            Err(_) => {
                return Err(self.fail(
                    &format!(
                        "it did not list its tools within its start-up time of {} ms{}",
                        self.startup().as_millis(),
                        wire.noise()
                    ),
                    None,
                ))
            }
        };
        let allow = self.config.tools.as_ref();
        let redact = self.redactor();
        let mut skipped = Skipped::default();
        let mut names = HashSet::new();
        let mut listing = Vec::new();
        for t in tools {
            if !allow.is_none_or(|a| a.iter().any(|n| *n == t.name)) {
                continue;
            }
            if redact.finds(&t.name) {
                skipped.secrets += 1;
                continue;
            }
            if tool_name_problem(&self.name, &t.name).is_some() || !names.insert(t.name.clone()) {
                skipped.names += 1;
                continue;
            }
            if listing.len() == MAX_TOOLS {
                skipped.over += 1;
                continue;
            }
            let description = t.description.as_deref().map(|d| redact.text(d));
            let listed = if redact.is_empty() {
                super::tool::listed_parts(
                    &t.name,
                    description.as_deref(),
                    &t.input_schema,
                    t.output_schema.as_deref(),
                )
            } else {
                let redacted = |m: &Map<String, Json>| {
                    let mut j = Json::Object(m.clone());
                    redact.json(&mut j);
                    match j {
                        Json::Object(m) => m,
                        _ => Map::new(),
                    }
                };
                super::tool::listed_parts(
                    &t.name,
                    description.as_deref(),
                    &redacted(&t.input_schema),
                    t.output_schema.as_deref().map(redacted).as_ref(),
                )
            };
            let mut listed = listed;
            listed.acts = acts_of(t.annotations.as_ref());
            listing.push(listed);
        }
        *lock(&self.skipped) = skipped;
        *lock(&self.listing) = Some(Arc::new(listing));
        Ok(())
    }

    /// Calls MCP tool `tool`: its result as a value (`result.rs`), read
    /// within the call's deadline and the turn's heap room. `limit` is
    /// the time the call may take (start included).
    pub fn call(
        &self,
        tool: &str,
        args: Map<String, Json>,
        limit: Option<Duration>,
        key: Option<&str>,
    ) -> Result<Value, String> {
        let started = Instant::now();
        let deadline = limit.map(|l| started + l);
        self.ensure_started(limit)?;
        let left = limit.map(|l| l.saturating_sub(started.elapsed()));
        let (peer, wire) = match &*lock(&self.state) {
            State::Running(r) => (r.service.peer().clone(), r.wire.clone()),
            State::Stopped => return Err(self.fail("it is not running", None)),
        };
        let mut params = CallToolRequestParams::new(tool.to_string()).with_arguments(args);
        // A write's idempotency key (ACT-3) goes in the request's _meta.
        if let Some(key) = key {
            let mut meta = Map::new();
            meta.insert(IDEMPOTENCY_META.to_string(), Json::String(key.to_string()));
            params.meta = Some(RequestMetaObject(MetaObject(meta)));
        }
        let called = self.rt.block(async move {
            let call = peer.call_tool(params);
            match left {
                Some(l) => tokio::time::timeout(l, call).await.map_err(|_| l),
                None => Ok(call.await),
            }
        })?;
        let name = &self.name;
        let result = match called {
            Err(l) => {
                return Err(format!(
                    "the MCP server {name} did not answer within the {} ms left; the call was cancelled{}",
                    l.as_millis(),
                    wire.noise()
                ))
            }
            Ok(Ok(result)) => result,
            Ok(Err(e)) => {
                let closed = match &*lock(&self.state) {
                    State::Running(r) => r.service.is_closed(),
                    State::Stopped => true,
                };
                if closed || matches!(e, ServiceError::TransportClosed) {
                    let status = self.stop();
                    let mut msg = self.fail("it stopped during the call", status);
                    msg.push_str("; it is started again at the next call");
                    *lock(&self.last_error) = Some(msg.clone());
                    return Err(msg);
                }
                return Err(format!(
                    "the MCP server {name}: {}",
                    self.service_error(&e, "the call")
                ));
            }
        };
        let answer = result
            .structured_content
            .as_ref()
            .and_then(|s| wire.take(s));
        let bytes = match answer {
            Some(Answer::Line(bytes)) => bytes,
            Some(Answer::TooLarge(n)) => {
                return Err(format!(
                    "the MCP server {name} answered with {n} bytes, over the {} MiB a tool \
                     result may have; ask for less (a page, a range, a filter)",
                    MAX_RESULT_BYTES >> 20
                ))
            }
            None => {
                return Err(format!(
                    "the MCP server {name} answered with something ptc cannot match to the call"
                ))
            }
        };
        let redact = self.redactor();
        let room = crate::eval::budget::tool_room();
        let within = Within {
            deadline,
            room,
            redact: &redact,
        };
        result::decode(&bytes, &within).map_err(|f| match f {
            Failed::Tool(text) => text,
            Failed::Refused(text) => format!("the MCP server {name} refused the call: {text}"),
            Failed::Malformed(why) => format!(
                "the MCP server {name} answered with something that is not a tool result: {why}"
            ),
            Failed::Deadline => format!(
                "the MCP server {name}'s answer was still being read at the call's deadline"
            ),
            Failed::TooBig(_) => format!(
                "the result takes more than the {} bytes left of the turn's heap limit \
                 (max_heap_bytes); ask for less (a page, a range, a filter) or raise max_heap_bytes",
                room.unwrap_or(0)
            ),
        })
    }

    /// Stops the server if it runs; its exit status, when known.
    pub fn stop(&self) -> Option<String> {
        let old = std::mem::replace(&mut *lock(&self.state), State::Stopped);
        match old {
            State::Running(r) => self.stop_running(*r),
            State::Stopped => None,
        }
    }

    fn stop_running(&self, r: Running) -> Option<String> {
        let Running {
            service,
            child,
            pid,
            ..
        } = r;
        let _ = self.rt.block(async move {
            let mut service = service;
            let _ = tokio::time::timeout(STOP_GRACE, service.close()).await;
        });
        stop_child(&self.rt, child, pid)
    }

    /// How many times the server was started.
    pub fn starts(&self) -> u32 {
        *lock(&self.starts)
    }

    /// The error for a server that failed: names the server, its command
    /// and the tail of its stderr, secrets hidden (redacted before the
    /// tail is cut).
    fn fail(&self, why: &str, status: Option<String>) -> String {
        // Let the stderr reader catch up with a process that just exited.
        std::thread::sleep(Duration::from_millis(50));
        let mut msg = format!("MCP server {} (`{}`): {why}", self.name, self.display());
        if let Some(s) = status {
            msg.push_str(&format!(" ({s})"));
        }
        let raw = lock(&self.stderr).clone();
        let text = String::from_utf8_lossy(&raw);
        let redacted = self.redactor().text(&text).into_owned();
        let mut start = redacted.len().saturating_sub(STDERR_TAIL);
        while !redacted.is_char_boundary(start) {
            start += 1;
        }
        let tail = redacted[start..].trim();
        if !tail.is_empty() {
            let lines: Vec<&str> = tail.lines().collect();
            let last = lines[lines.len().saturating_sub(10)..].join("\n  ");
            msg.push_str(&format!("; its stderr ended with:\n  {last}"));
        }
        self.redact(&msg)
    }

    fn redact(&self, text: &str) -> String {
        self.redactor().text(text).into_owned()
    }
}

/// Why MCP tool `name` of server `server` cannot be offered, if it cannot:
/// `SERVER.NAME` must be a tool name (`session::bad_name`), of at most
/// [`MAX_NAME_CHARS`] characters, with no control or invisible formatting
/// characters (bidi overrides, zero-width ones).
pub fn tool_name_problem(server: &str, name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Some("is too long");
    }
    if name.chars().any(hidden_char) {
        return Some("has control or invisible characters");
    }
    crate::session::bad_name(&format!("{server}.{name}"))
}

/// A control character other than a newline or tab, or an invisible
/// formatting one: never shown from a server's text.
pub fn hidden_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || invisible(c)
}

/// Unicode's invisible formatting characters (general category Cf and the
/// like): bidi controls, zero-width characters, the BOM, soft hyphen.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Ends a stdio server's process group: SIGTERM, then SIGKILL after
/// [`STOP_GRACE`]; reaps the child. Its exit status, when known.
fn stop_child(rt: &Rt, child: Option<tokio::process::Child>, pid: Option<u32>) -> Option<String> {
    let mut child = child?;
    if let Some(pid) = pid {
        // SAFETY: kill(2) on the group the child leads (process_group(0)).
        unsafe {
            libc::kill(-(pid as i32), libc::SIGTERM);
        }
    }
    let waited = rt
        .block(async move {
            match tokio::time::timeout(STOP_GRACE, child.wait()).await {
                Ok(Ok(status)) => Some(status),
                _ => {
                    if let Some(pid) = pid {
                        // SAFETY: as above.
                        unsafe {
                            libc::kill(-(pid as i32), libc::SIGKILL);
                        }
                    }
                    let _ = child.kill().await;
                    child.wait().await.ok()
                }
            }
        })
        .ok()
        .flatten();
    // Whatever the group left behind (a wrapper's children) goes too.
    if let Some(pid) = pid {
        // SAFETY: as above; ESRCH when the group is gone.
        unsafe {
            libc::kill(-(pid as i32), libc::SIGKILL);
        }
    }
    waited.map(|s| match s.code() {
        Some(c) => format!("exit status {c}"),
        None => "killed by a signal".to_string(),
    })
}

/// `${NAME}` replaced by the environment variable; the values used are
/// pushed on `secrets`. Error: which variable is missing.
fn expand(text: &str, secrets: &mut Vec<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!("unclosed ${{ in {text:?}"));
        };
        let var = &after[..end];
        match std::env::var(var) {
            Ok(v) => {
                secrets.push(v.clone());
                out.push_str(&v);
            }
            Err(_) => return Err(format!("the environment variable {var} is not set")),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_reads_the_environment_and_remembers_the_values() {
        std::env::set_var("PTC_MCP_TEST_TOKEN", "s3cret");
        let mut secrets = Vec::new();
        let out = expand("Bearer ${PTC_MCP_TEST_TOKEN}!", &mut secrets).unwrap();
        assert_eq!(out, "Bearer s3cret!");
        assert_eq!(secrets, vec!["s3cret".to_string()]);
        let e = expand("${PTC_MCP_NOT_SET_ANYWHERE}", &mut secrets).unwrap_err();
        assert!(e.contains("PTC_MCP_NOT_SET_ANYWHERE is not set"), "{e}");
        assert_eq!(expand("plain", &mut secrets).unwrap(), "plain");
    }
}
