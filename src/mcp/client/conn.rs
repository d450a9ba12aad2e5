//! One MCP server of a session: starting it (stdio child process or
//! Streamable HTTP), its tool listing, calls bounded by a deadline, and
//! stopping it (rule MCP-6):
//!
//! * a stdio server runs in its own process group in the session file's
//!   directory; stopping it (session end or drop, or a failed start)
//!   sends SIGTERM to the group, then SIGKILL after [`STOP_GRACE`], and
//!   reaps it: no orphans;
//! * the last [`STDERR_TAIL`] bytes of its stderr are kept for errors, with
//!   every expanded `${NAME}` value replaced by `***`;
//! * `initialize` (rmcp negotiates the protocol version) and the paginated
//!   `tools/list` must finish within the server's `startup_timeout_ms`
//!   (default [`DEFAULT_STARTUP`]);
//! * a call past its deadline is dropped, which sends
//!   `notifications/cancelled`; a server whose connection closes during a
//!   call is stopped and started again at the next call;
//! * `notifications/tools/list_changed` marks the listing stale; it is
//!   listed again before the next call that needs it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Map, Value as Json};
use tokio::io::AsyncReadExt;

use super::runtime::Rt;
use crate::session::McpServerConfig;

/// How long a server may take to start, by default.
pub const DEFAULT_STARTUP: Duration = Duration::from_secs(30);
/// How long a stopped server gets between SIGTERM and SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_millis(500);
/// Bytes of a server's stderr kept for error messages.
pub const STDERR_TAIL: usize = 2048;

/// An MCP tool as the server lists it.
#[derive(Clone, Debug)]
pub struct ListedTool {
    /// The MCP name.
    pub name: String,
    /// Its description, whole.
    pub description: Option<String>,
    /// `inputSchema`.
    pub input_schema: Map<String, Json>,
    /// `outputSchema`, if any.
    pub output_schema: Option<Map<String, Json>>,
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
    /// Expanded `${NAME}` values, hidden from every message.
    secrets: Mutex<Vec<String>>,
    changed: Arc<AtomicBool>,
    listing: Mutex<Option<Vec<ListedTool>>>,
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
            secrets: Mutex::new(Vec::new()),
            changed: Arc::new(AtomicBool::new(false)),
            listing: Mutex::new(None),
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
    pub fn tools(&self) -> Result<Vec<ListedTool>, String> {
        self.ensure_started(None)?;
        if self.changed.swap(false, Ordering::SeqCst) || lock(&self.listing).is_none() {
            self.list()?;
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
        let startup = self
            .config
            .startup_timeout_ms
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_STARTUP);
        let limit = limit.map_or(startup, |l| l.min(startup));
        *lock(&self.starts) += 1;
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
        *lock(&self.secrets) = secrets;
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
                        if len > STDERR_TAIL {
                            tail.drain(..len - STDERR_TAIL);
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
        let served = self.rt.block(async move {
            tokio::time::timeout(limit, handler.serve((stdout, stdin))).await
        })?;
        let service = match served {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                let status = stop_child(&self.rt, Some(child), pid);
                return Err(self.fail(&format!("initialize failed: {e}"), status));
            }
            Err(_) => {
                let status = stop_child(&self.rt, Some(child), pid);
                return Err(self.fail(
                    &format!(
                        "it did not answer `initialize` within {} ms",
                        limit.as_millis()
                    ),
                    status,
                ));
            }
        };
        Ok(Running {
            service,
            child: Some(child),
            pid,
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
        *lock(&self.secrets) = secrets;
        let config =
            StreamableHttpClientTransportConfig::with_uri(url.to_string()).custom_headers(headers);
        let served = self.rt.block(async move {
            let transport = StreamableHttpClientTransport::from_config(config);
            tokio::time::timeout(limit, handler.serve(transport)).await
        })?;
        match served {
            Ok(Ok(service)) => Ok(Running {
                service,
                child: None,
                pid: None,
            }),
            Ok(Err(e)) => Err(self.fail(&format!("initialize failed: {e}"), None)),
            Err(_) => Err(self.fail(
                &format!(
                    "it did not answer `initialize` within {} ms",
                    limit.as_millis()
                ),
                None,
            )),
        }
    }

    /// Lists the tools (every page), keeping those the allow-list names.
    fn list(&self) -> Result<(), String> {
        let peer = match &*lock(&self.state) {
            State::Running(r) => r.service.peer().clone(),
            State::Stopped => return Err(self.fail("it is not running", None)),
        };
        let limit = self
            .config
            .startup_timeout_ms
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_STARTUP);
        let listed = self
            .rt
            .block(async move { tokio::time::timeout(limit, peer.list_all_tools()).await })?;
        let tools = match listed {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => return Err(self.fail(&format!("tools/list failed: {e}"), None)),
            Err(_) => {
                return Err(self.fail(
                    &format!(
                        "it did not answer `tools/list` within {} ms",
                        limit.as_millis()
                    ),
                    None,
                ))
            }
        };
        let allow = self.config.tools.as_ref();
        let listing = tools
            .into_iter()
            .filter(|t| allow.is_none_or(|a| a.iter().any(|n| *n == t.name)))
            .map(|t| ListedTool {
                name: t.name.to_string(),
                description: t.description.map(|d| d.to_string()),
                input_schema: (*t.input_schema).clone(),
                output_schema: t.output_schema.map(|o| (*o).clone()),
            })
            .collect();
        *lock(&self.listing) = Some(listing);
        Ok(())
    }

    /// Calls MCP tool `tool`; the result as JSON and its size in bytes.
    /// `limit` is the time the call may take (start included).
    pub fn call(
        &self,
        tool: &str,
        args: Map<String, Json>,
        limit: Option<Duration>,
    ) -> Result<(Json, usize), String> {
        let started = std::time::Instant::now();
        self.ensure_started(limit)?;
        let left = limit.map(|l| l.saturating_sub(started.elapsed()));
        let peer = match &*lock(&self.state) {
            State::Running(r) => r.service.peer().clone(),
            State::Stopped => return Err(self.fail("it is not running", None)),
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(args);
        let called = self.rt.block(async move {
            let call = peer.call_tool(params);
            match left {
                Some(l) => tokio::time::timeout(l, call).await.map_err(|_| l),
                None => Ok(call.await),
            }
        })?;
        match called {
            Err(l) => Err(format!(
                "the MCP server {} did not answer within the {} ms left; the call was cancelled",
                self.name,
                l.as_millis()
            )),
            Ok(Ok(result)) => {
                let json = serde_json::to_value(&result)
                    .map_err(|e| format!("cannot read the result: {e}"))?;
                let size = serde_json::to_string(&json).map(|s| s.len()).unwrap_or(0);
                Ok((json, size))
            }
            Ok(Err(rmcp::ServiceError::McpError(e))) => Err(self.redact(&format!(
                "the MCP server {} refused the call: {}",
                self.name, e.message
            ))),
            Ok(Err(e)) => {
                let closed = match &*lock(&self.state) {
                    State::Running(r) => r.service.is_closed(),
                    State::Stopped => true,
                };
                if closed || matches!(e, rmcp::ServiceError::TransportClosed) {
                    let status = self.stop();
                    let mut msg = self.fail(&format!("it stopped during the call ({e})"), status);
                    msg.push_str("; it is started again at the next call");
                    *lock(&self.last_error) = Some(msg.clone());
                    Err(msg)
                } else {
                    Err(self.redact(&format!(
                        "the call to the MCP server {} failed: {e}",
                        self.name
                    )))
                }
            }
        }
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
    /// and the tail of its stderr, secrets hidden.
    fn fail(&self, why: &str, status: Option<String>) -> String {
        // Let the stderr reader catch up with a process that just exited.
        std::thread::sleep(Duration::from_millis(50));
        let mut msg = format!("MCP server {} (`{}`): {why}", self.name, self.display());
        if let Some(s) = status {
            msg.push_str(&format!(" ({s})"));
        }
        let tail = String::from_utf8_lossy(&lock(&self.stderr))
            .trim()
            .to_string();
        if !tail.is_empty() {
            let lines: Vec<&str> = tail.lines().collect();
            let last = lines[lines.len().saturating_sub(10)..].join("\n  ");
            msg.push_str(&format!("; its stderr ended with:\n  {last}"));
        }
        self.redact(&msg)
    }

    fn redact(&self, text: &str) -> String {
        let mut s = text.to_string();
        for secret in lock(&self.secrets).iter() {
            if !secret.is_empty() {
                s = s.replace(secret.as_str(), "***");
            }
        }
        s
    }
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
