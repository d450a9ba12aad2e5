//! MCP servers as tool sources of a session (issue 24), over `rmcp`.
//!
//! A session names its servers in the session file's `"mcp"` key (or
//! [`SessionBuilder::mcp_server`](crate::session::SessionBuilder::mcp_server),
//! Python's `Session(mcp=...)`): a stdio command or a Streamable HTTP URL
//! (see [`McpServerConfig`](crate::session::McpServerConfig), rules MCP-1
//! to MCP-3 in `session/mcp.rs`). Each MCP tool becomes `tool/SERVER.NAME`.
//!
//! - `conn.rs`: one server's process or connection, listing, calls with a
//!   deadline, restarts after a crash, stopping (MCP-6);
//! - `schema.rs`: JSON Schema → signature (MCP-4);
//! - `wire.rs`: what a server sends, bounded before it is parsed or kept
//!   (stdio lines, answers matched to requests without parsing them);
//! - `redact.rs`: the server's secrets taken out of all it sends (MCP-2);
//! - `result.rs`: `tools/call` results → values (MCP-5), read within the
//!   call's deadline and the turn's heap room;
//! - `tool.rs`: [`McpTool`], the session `Tool` (arguments MCP-7,
//!   descriptions MCP-8);
//! - `runtime.rs`: a tokio runtime per server; everything public is
//!   blocking.

mod conn;
mod redact;
mod result;
mod runtime;
mod schema;
mod tool;
mod wire;

use std::path::Path;
use std::sync::Arc;

pub use conn::Server;

/// What is told when a server takes long to start (npx downloading a
/// package takes seconds): the `ptc` binary sets it to a line on stderr;
/// unset (a library's embedder), nothing is said.
static SLOW_START: std::sync::OnceLock<fn(&str)> = std::sync::OnceLock::new();

/// How long a start may take before [`SLOW_START`] is told.
const SLOW_START_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// Sets what is told of a start that takes more than a second (once per
/// process; later calls are ignored).
pub fn on_slow_start(notice: fn(&str)) {
    let _ = SLOW_START.set(notice);
}

/// A start under way: if it lasts past [`SLOW_START_AFTER`], its message
/// goes to the [`SLOW_START`] hook; dropping it (the start ended) cancels.
pub(crate) struct SlowStart {
    _done: Option<std::sync::mpsc::Sender<()>>,
}

impl SlowStart {
    pub(crate) fn watch(message: String) -> SlowStart {
        let Some(notice) = SLOW_START.get().copied() else {
            return SlowStart { _done: None };
        };
        let (done, wait) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(SLOW_START_AFTER)
            {
                notice(&message);
            }
        });
        SlowStart { _done: Some(done) }
    }
}
pub use tool::McpTool;

use crate::session::{McpLink, McpServerConfig, Tool, ToolInfo};

/// The session's handle on a server.
struct Link(Arc<Server>);

impl McpLink for Link {
    fn name(&self) -> &str {
        &self.0.name
    }
    fn state(&self) -> String {
        self.0.state()
    }
    fn pid(&self) -> Option<u32> {
        self.0.pid()
    }
    fn stop(&self) {
        self.0.stop();
    }
    fn listing_changed(&self) -> bool {
        self.0.listing_changed()
    }
    fn tools(&self) -> Result<Vec<Box<dyn Tool>>, String> {
        listed_tools(&self.0)
    }
}

/// A tool of server `name` as a session file (or another session) lists
/// it: its name there is `NAME.MCP-NAME`.
fn saved_tool(server: &Arc<Server>, name: &str, info: ToolInfo) -> McpTool {
    let mcp_name = info
        .name
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(&info.name)
        .to_string();
    McpTool::from_info(server, info, &mcp_name)
}

fn listed_tools(server: &Arc<Server>) -> Result<Vec<Box<dyn Tool>>, String> {
    Ok(server
        .tools()?
        .iter()
        .map(|t| Box::new(McpTool::listed(server, t)) as Box<dyn Tool>)
        .collect())
}

/// Server `name` for many sessions at once (`ptc mcp`): not started
/// until a tool is called, its tools made from `listed` (the tools a
/// session built from the same file offers as `tool/NAME.*`). Each
/// session takes clones of the tools; they all call the one server.
pub fn shared(
    name: &str,
    config: &McpServerConfig,
    dir: &Path,
    listed: Vec<ToolInfo>,
) -> Result<(Vec<McpTool>, Arc<Server>), String> {
    let server = Arc::new(Server::new(name, config, dir)?);
    let tools = listed
        .into_iter()
        .map(|info| saved_tool(&server, name, info))
        .collect();
    Ok((tools, server))
}

/// The tools of server `name` (see `session::mcp::connect`): from `saved`
/// when a session file lists them or its recording calls them (the server
/// starts at the first call), else (`None`) from the server's listing (it
/// starts now).
pub(crate) fn connect(
    name: &str,
    config: &McpServerConfig,
    dir: &Path,
    saved: Option<Vec<ToolInfo>>,
) -> Result<crate::session::mcp::Connected, String> {
    let server = Arc::new(Server::new(name, config, dir)?);
    let tools: Vec<Box<dyn Tool>> = match saved {
        None => listed_tools(&server)?,
        Some(saved) => saved
            .into_iter()
            .map(|info| Box::new(saved_tool(&server, name, info)) as Box<dyn Tool>)
            .collect(),
    };
    Ok((tools, Arc::new(Link(server))))
}
