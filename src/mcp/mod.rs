//! MCP (feature `mcp`), over the official Rust SDK (`rmcp`): a front end
//! like `agent/`, talking to `session/` through its public API and owning
//! no language logic. Its tokio runtime stays inside this module; what it
//! offers is blocking.
//!
//! - `client/`: MCP servers as tool sources of a session (issue 24).
//! - `server/`: `ptc mcp`, ptc as a code-mode MCP server (issue 25).

pub mod client;
pub mod server;
