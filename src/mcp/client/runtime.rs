//! The tokio runtimes of the module: one per MCP server (one worker
//! thread), so a server that floods or stalls its connection cannot slow
//! another server's calls. Callers block on a channel (not on the
//! runtime), so a tool call works from any thread, including one that
//! itself runs inside another tokio runtime (`ptc mcp`).

use std::future::Future;
use std::sync::mpsc;
use std::sync::Arc;

use tokio::runtime::Runtime;

/// A server's runtime.
#[derive(Clone)]
pub struct Rt(Arc<Runtime>);

impl Rt {
    /// A runtime with one worker thread.
    pub fn new(name: &str) -> Result<Rt, String> {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name(format!("ptc-mcp-{name}"))
            .enable_all()
            .build()
            .map(|r| Rt(Arc::new(r)))
            .map_err(|e| format!("MCP server {name}: cannot start its I/O runtime: {e}"))
    }

    /// Runs `fut` on the runtime and waits for its output. Bounds belong
    /// in `fut` (`tokio::time::timeout`), which is dropped on timeout: rmcp
    /// then sends `notifications/cancelled` for a request in flight.
    pub fn block<F>(&self, fut: F) -> Result<F::Output, String>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (tx, rx) = mpsc::sync_channel(1);
        self.0.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.recv()
            .map_err(|_| "the MCP client's task stopped without an answer".to_string())
    }
}
