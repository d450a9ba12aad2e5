//! MCP servers as tool sources (issue 24): the `"mcp"` key of a session
//! file and [`SessionBuilder::mcp_server`](super::SessionBuilder::mcp_server).
//!
//! This file holds the configuration only (plain serde data, present in
//! every build so that any build reads and writes the same session files);
//! the client that starts servers and calls their tools is
//! `crate::mcp::client` (feature `mcp`), which session/ reaches only
//! through [`connect`] below — the one place, like `CommandTool` for
//! subprocesses. Without the feature, a session with an MCP server is a
//! build error that says so.
//!
//! Rules (decided here, `session.md` does not cover MCP):
//! * MCP-1: `{"command": [program, args…]}` or Claude-Desktop style
//!   `{"command": "program", "args": [...]}` is a stdio server started in
//!   the session file's directory (`cwd`, relative to it, overrides);
//!   `{"url": ..., "headers": {...}}` a Streamable HTTP server.
//! * MCP-2: `${NAME}` in `env` and `headers` values is replaced by the
//!   environment variable `NAME` when the server starts; a session file
//!   keeps the text as written, and the expanded value never appears in a
//!   prompt, an error or a log line (the tail of a server's stderr shown in
//!   errors has it replaced by `***`). A variable that is not set is an
//!   error naming the server, the key and the variable.
//! * MCP-3: `tools` is an allow-list of MCP tool names; the others are not
//!   offered.
//! * MCP-9: servers given when a file is loaded (Python
//!   `Session.from_file(mcp=...)`, `Session::load_with_mcp`) join the
//!   file's `"mcp"`, replacing the file's of the same name: started in the
//!   file's directory, lazily when the file lists their tools, and saved
//!   with it. A saved tool `{"mcp": S}` whose server S the file does not
//!   configure is recorded-only (answers inside recorded turns; a live
//!   call is a `tool-error` saying how to attach S).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::tools::{Tool, ToolInfo};

/// How a stdio server's command is written: `["program", "arg"]`, or a
/// program name with `args` beside it (Claude Desktop's form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum McpCommand {
    /// `["program", "arg", ...]`
    Argv(Vec<String>),
    /// `"program"` (its arguments in `args`).
    Program(String),
}

/// One MCP server of a session (the value of `"mcp": {NAME: ...}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServerConfig {
    /// A stdio server: the program to start (and its arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<McpCommand>,
    /// More arguments after `command` (Claude Desktop's form).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Environment variables of a stdio server (`${NAME}` expanded at start).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Where a stdio server starts, relative to the session file's
    /// directory (default: that directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// A Streamable HTTP server: its endpoint (`http://127.0.0.1:3001/mcp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP headers sent with every request (`${NAME}` expanded at start).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Only these MCP tools are offered (all when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// How long starting the server (up to its tool listing) may take
    /// (default 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout_ms: Option<u64>,
}

impl McpServerConfig {
    /// A stdio server running `argv` (program first).
    pub fn command<S: Into<String>>(argv: impl IntoIterator<Item = S>) -> McpServerConfig {
        McpServerConfig {
            command: Some(McpCommand::Argv(argv.into_iter().map(Into::into).collect())),
            ..McpServerConfig::default()
        }
    }

    /// A Streamable HTTP server at `url`.
    pub fn url(url: impl Into<String>) -> McpServerConfig {
        McpServerConfig {
            url: Some(url.into()),
            ..McpServerConfig::default()
        }
    }

    /// Adds an environment variable (`${NAME}` expanded at start).
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> McpServerConfig {
        self.env.insert(name.into(), value.into());
        self
    }

    /// Adds an HTTP header (`${NAME}` expanded at start).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> McpServerConfig {
        self.headers.insert(name.into(), value.into());
        self
    }

    /// Offers only these tools.
    pub fn allow<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> McpServerConfig {
        self.tools = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// The program and its arguments of a stdio server (empty for HTTP).
    pub fn argv(&self) -> Vec<String> {
        let mut argv = match &self.command {
            Some(McpCommand::Argv(a)) => a.clone(),
            Some(McpCommand::Program(p)) => vec![p.clone()],
            None => Vec::new(),
        };
        argv.extend(self.args.iter().cloned());
        argv
    }

    /// What is wrong with this configuration, if anything.
    pub fn problem(&self) -> Option<String> {
        match (&self.command, &self.url) {
            (Some(_), Some(_)) => Some("has both \"command\" and \"url\"; give one".into()),
            (None, None) => Some(
                "needs \"command\": [\"program\", \"arg\", ...] (stdio) or \"url\" (Streamable HTTP)"
                    .into(),
            ),
            (Some(_), None) if self.argv().is_empty() || self.argv()[0].is_empty() => {
                Some("the command is empty; write [\"program\", \"arg\", ...]".into())
            }
            (None, Some(_)) if !self.env.is_empty() || self.cwd.is_some() => {
                Some("\"env\" and \"cwd\" are for stdio servers (\"command\"), not \"url\"".into())
            }
            (Some(_), None) if !self.headers.is_empty() => {
                Some("\"headers\" are for HTTP servers (\"url\"), not \"command\"".into())
            }
            _ => None,
        }
    }
}

/// A started (or startable) MCP server, as the session sees it.
pub trait McpLink: Send + Sync {
    /// The server's name in the session (`fs` of `tool/fs.read_file`).
    fn name(&self) -> &str;
    /// One line on where it stands: `running (stdio, pid 123), 14 tools`.
    fn state(&self) -> String;
    /// The process id of a running stdio server.
    fn pid(&self) -> Option<u32>;
    /// Stops it (it starts again at the next call).
    fn stop(&self);
    /// Whether the server said its tool listing changed.
    fn listing_changed(&self) -> bool;
    /// The server's tools as it lists them now (listing again).
    fn tools(&self) -> Result<Vec<Box<dyn Tool>>, String>;
}

/// What [`connect`] gives: the server's tools and its link.
pub(crate) type Connected = (Vec<Box<dyn Tool>>, std::sync::Arc<dyn McpLink>);

/// The tools of MCP server `name`: `tool/NAME.TOOL` each. With `saved`
/// (the tools a session file lists for this server, or those its recording
/// calls) the tools are made from it and the server starts at the first
/// call; with `None`, it starts now for its listing. `dir` is where a stdio
/// server starts.
pub(crate) fn connect(
    name: &str,
    config: &McpServerConfig,
    dir: &Path,
    saved: Option<Vec<ToolInfo>>,
) -> Result<Connected, String> {
    if let Some(p) = config.problem() {
        return Err(format!("MCP server {name}: {p}"));
    }
    #[cfg(feature = "mcp")]
    {
        crate::mcp::client::connect(name, config, dir, saved)
    }
    #[cfg(not(feature = "mcp"))]
    {
        let _ = (dir, saved);
        Err(format!(
            "MCP server {name}: this build of ptc-lisp has no MCP support (cargo feature `mcp`)"
        ))
    }
}
