//! The session an agent run starts from: a session file with the run's
//! overrides (view, `max_turns`, limits). The file's own turns (the
//! recorded responses of an example, say) are left out: the model starts
//! the mission afresh, unless [`Overrides::continue_turns`] asks to run
//! them first (continuing a saved run: `ptc agent RUN.json --continue
//! --out RUN.json`).

use std::path::Path;

use crate::eval::Limits;
use crate::session::{Session, SessionError, SessionFile, View};

/// What a run changes in the session file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Compressed or uncompressed (the file's `compression` when `None`).
    pub view: Option<View>,
    pub max_turns: Option<usize>,
    /// Replaces the file's limits.
    pub limits: Option<Limits>,
    /// Run the file's turns first (with their LLM information).
    pub continue_turns: bool,
}

/// Builds the session of `file` (read from `path`, whose `text` locates
/// errors) with `overrides`; runs the file's turns when
/// `overrides.continue_turns`.
pub fn session_from_file(
    path: &Path,
    text: Option<&str>,
    file: &SessionFile,
    overrides: &Overrides,
) -> Result<Session, SessionError> {
    let mut file = file.clone();
    match overrides.view {
        Some(View::Compressed) => file.compression = true,
        Some(View::Uncompressed) => file.compression = false,
        Some(View::Turns) | None => {}
    }
    if let Some(n) = overrides.max_turns {
        file.max_turns = n;
    }
    let mut session = file.session(path, text, overrides.limits.clone())?;
    if overrides.continue_turns {
        file.run_turns(&mut session);
    }
    Ok(session)
}
