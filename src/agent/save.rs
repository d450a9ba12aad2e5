//! Writing session files atomically: a temp file beside the target, then
//! a rename, so a reader (or a run killed mid-write) sees the old file or
//! the new one, never half of one.

use std::io::Write;
use std::path::Path;

use crate::session::Session;

/// Writes `text` to `path` through `path.tmp-PID` + rename.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Saves the session (definitions and every turn with its LLM information
/// and tool calls) as a session file at `path`, atomically; command tools'
/// paths still work from there ([`Session::to_file_at`]).
pub fn save_session(session: &Session, path: &Path) -> Result<(), String> {
    let json = serde_json::to_string_pretty(&session.to_file_at(path))
        .map_err(|e| format!("cannot write the session as JSON: {e}"))?;
    write_atomically(path, &(json + "\n"))
        .map_err(|e| format!("{}: cannot write the session file: {e}", path.display()))
}
