//! Writing session files atomically: a temp file beside the target, then
//! a rename, so a reader (or a run killed mid-write) sees the old file or
//! the new one, never half of one.

use std::path::Path;

use crate::session::Session;

pub use crate::session::resume::write_atomically;

/// Saves the session (definitions and every turn with its LLM information
/// and tool calls) as a session file at `path`, atomically; command tools'
/// paths still work from there ([`Session::to_file_at`]).
pub fn save_session(session: &Session, path: &Path) -> Result<(), String> {
    let json = serde_json::to_string_pretty(&session.to_file_at(path))
        .map_err(|e| format!("cannot write the session as JSON: {e}"))?;
    write_atomically(path, &(json + "\n"))
        .map_err(|e| format!("{}: cannot write the session file: {e}", path.display()))
}
