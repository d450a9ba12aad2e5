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
//! resource), `client.rs` (one client's session: turns on a blocking
//! thread, interrupted when the request is cancelled or the client goes
//! away, recorded to `--out`), `answer.rs` (a turn → the tool result, capped
//! in tokens), `handler.rs` (the rmcp `ServerHandler`), `http.rs` (the
//! Streamable HTTP listener, bearer token), `malformed.rs` (JSON-RPC errors
//! for messages rmcp would drop).
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
//!   non-string `program` (`-32602`).
//! * **Output cap**: the text of a result is cut at `max_output_tokens`
//!   tokens (4 characters each, as the renderer estimates), with a note
//!   saying so; in `structuredContent`, `value` becomes `null` with
//!   `"value_omitted": "too large"` when its JSON would pass the cap, and
//!   the earliest prints are dropped until the rest fits.
//! * **Idle expiry** (HTTP): a session with no request for `idle` is
//!   closed (its state dropped); the next request with its id gets 404
//!   and the client starts a new session. A stdio session lasts as long
//!   as its connection.
//! * **Disconnect**: when a request is cancelled
//!   (`notifications/cancelled`) or its session ends (stdio closed, HTTP
//!   `DELETE`, expiry), the running turn is interrupted: it fails with
//!   the interpreter's "interrupted" `timeout` error, memory unchanged.
//! * **`ptc_reset`** drops every turn (as the REPL's `:reset`); with
//!   `--out` the turns before it stay in their own file
//!   (`NAME-before-reset-K.json`).
//! * **`--out DIR`**: each MCP session is saved after every call as
//!   `DIR/mcp-UNIXTIME-PID-N.json`, a session file whose turns are the
//!   programs with their recorded tool calls, command tools relocated as
//!   `Session::to_file_at` does (`max_turns` raised to the number of turns so that `ptc
//!   replay` runs them all).

mod answer;
mod client;
pub mod describe;
mod handler;
mod http;
mod malformed;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::eval::Limits;
use crate::session::{Session, SessionFile};

pub use handler::PtcServer;

/// Default cap of a tool result, in tokens.
pub const DEFAULT_MAX_OUTPUT_TOKENS: usize = 2000;
/// Default time an idle HTTP session lives.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);

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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            session_file: None,
            limits: None,
            max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            idle: DEFAULT_IDLE,
            out_dir: None,
        }
    }
}

/// What every new client session starts from: the session file read once.
pub struct Template {
    file: SessionFile,
    path: PathBuf,
    text: Option<String>,
    options: Options,
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
        let template = Template {
            file,
            path,
            text,
            options,
        };
        template.session()?;
        Ok(template)
    }

    /// A fresh open-ended session (the file's turns are not run: each
    /// client starts from the definitions of the file only).
    pub fn session(&self) -> Result<Session, String> {
        let mut b = self
            .file
            .builder(&self.path, self.text.as_deref())
            .map_err(|e| e.to_string())?;
        if let Some(l) = &self.options.limits {
            b = b.limits(l.clone());
        }
        b.open_ended().build().map_err(|e| e.to_string())
    }

    /// The session file's mission (the server's instructions).
    pub fn mission(&self) -> &str {
        &self.file.mission
    }

    /// The options served with.
    pub fn options(&self) -> &Options {
        &self.options
    }
}

/// A new tokio runtime for serving (the runtime never leaves this module).
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Serves one client over standard input and output until it disconnects.
pub fn serve_stdio(options: Options) -> Result<(), String> {
    let template = Arc::new(Template::new(options)?);
    let rt = runtime()?;
    let result = rt.block_on(async move {
        use rmcp::ServiceExt;
        let server = PtcServer::new(template)?;
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
    let result = rt.block_on(http::serve(template, addr, token, ready));
    rt.shutdown_timeout(Duration::from_secs(2));
    result
}
