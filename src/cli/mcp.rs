//! `ptc mcp [SESSION.json] [--http [ADDR:]PORT] [--token-env NAME]
//! [--allow-origin ORIGIN]... [--out DIR] [--max-output-tokens N]
//! [--idle-secs N] [--max-sessions N] [--max-queued N]
//! [--max-session-bytes N] [--workers N] [LIMITS]`: ptc as an MCP server
//! (`crate::mcp::server`), over stdio by default.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{input_error, LimitArgs};
use crate::mcp::server::{self, Options};

#[derive(Args)]
pub struct McpArgs {
    /// The session file: data, tools, limits and render options (its
    /// mission becomes the server's instructions; its turns are not run).
    session: Option<PathBuf>,
    /// Serve Streamable HTTP at http://ADDR:PORT/mcp instead of stdio;
    /// a bare PORT binds to 127.0.0.1 (0 picks a free port).
    #[arg(long, value_name = "[ADDR:]PORT")]
    http: Option<String>,
    /// With --http: every request must carry `Authorization: Bearer T`,
    /// T being the value of this environment variable.
    #[arg(long, value_name = "NAME", requires = "http")]
    token_env: Option<String>,
    /// Record each MCP session as a session file in DIR (replay it with
    /// `ptc replay`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Cap of one tool result's text, in tokens (4 characters each).
    #[arg(long, default_value_t = server::DEFAULT_MAX_OUTPUT_TOKENS)]
    max_output_tokens: usize,
    /// With --http: close a session after this many seconds without a request.
    #[arg(long, default_value_t = server::DEFAULT_IDLE.as_secs())]
    idle_secs: u64,
    /// With --http: the most MCP sessions served at once; an `initialize`
    /// past it gets HTTP 503 with a JSON-RPC error (-32000).
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
    /// The most calls one session may have waiting behind its running one
    /// (a session runs one call at a time); past it a request gets the
    /// JSON-RPC error -32000 at once.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_QUEUED)]
    max_queued: usize,
    /// The most bytes one session's definitions may hold (as the heap
    /// limit counts them); a call whose definitions would pass it fails
    /// (memory unchanged). 0: no limit.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_MAX_SESSION_BYTES)]
    max_session_bytes: u64,
    /// Threads evaluating programs, shared by all sessions (each reserves
    /// a 1 GiB evaluation stack); default: one per CPU, 2 to 16.
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// With --http: also accept requests from this browser origin (e.g.
    /// https://app.example.com; `*` for any). Requests with another
    /// `Origin` than localhost, 127.0.0.1 or [::1] get 403. Repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allow_origin: Vec<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn mcp(args: McpArgs) -> i32 {
    let base = match &args.session {
        // Read with the CLI's bound (the server reads it again, once checked).
        Some(path) => {
            match super::input::read_json_file(path, "the session file").and_then(|text| {
                crate::session::SessionFile::parse(&text, path).map_err(|e| e.to_string())
            }) {
                Ok(file) => file.limits.unwrap_or_default(),
                Err(e) => return input_error(e),
            }
        }
        None => Default::default(),
    };
    if let Some(dir) = &args.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return input_error(format!("--out {}: {e}", dir.display()));
        }
    }
    if args.max_output_tokens == 0 || args.idle_secs == 0 {
        return input_error("--max-output-tokens and --idle-secs must be at least 1");
    }
    if args.max_sessions == 0 || args.workers == Some(0) {
        return input_error("--max-sessions and --workers must be at least 1");
    }
    let options = Options {
        session_file: args.session.clone(),
        limits: Some(args.limits.apply(base)),
        max_output_tokens: args.max_output_tokens,
        idle: Duration::from_secs(args.idle_secs),
        out_dir: args.out.clone(),
        workers: args.workers.unwrap_or_else(server::default_workers),
        max_sessions: args.max_sessions,
        max_queued: args.max_queued,
        max_session_bytes: (args.max_session_bytes > 0).then_some(args.max_session_bytes),
        allowed_origins: args.allow_origin.clone(),
    };
    let result = match &args.http {
        None => server::serve_stdio(options),
        Some(spec) => {
            let addr = match parse_addr(spec) {
                Ok(a) => a,
                Err(e) => return input_error(e),
            };
            let token = match &args.token_env {
                None => None,
                Some(name) => match std::env::var(name) {
                    Ok(t) if !t.is_empty() => Some(t),
                    _ => {
                        return input_error(format!(
                        "--token-env {name}: the environment variable {name} is not set (or empty)"
                    ))
                    }
                },
            };
            server::serve_http(options, addr, token, |bound| {
                eprintln!("ptc mcp: serving MCP at http://{bound}/mcp");
            })
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => input_error(e),
    }
}

/// `PORT` (on 127.0.0.1) or `ADDR:PORT`.
fn parse_addr(spec: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = spec.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    spec.parse().map_err(|_| {
        format!("--http expects PORT or ADDR:PORT (e.g. 8080 or 127.0.0.1:8080), got {spec:?}")
    })
}
