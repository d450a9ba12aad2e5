//! The session an agent run starts from: a session file with the run's
//! overrides (view, `max_turns`, limits). The file's own turns (the
//! recorded responses of an example, say) are left out: the model starts
//! the mission afresh, unless [`Overrides::continue_turns`] asks to run
//! them first (continuing a saved run: `ptc agent RUN.json --continue
//! --out RUN.json`).

use std::path::Path;

use crate::eval::Limits;
use crate::session::{Protocol, ReplayTools, Session, SessionError, SessionFile, View};

/// What a run changes in the session file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Compressed or uncompressed (the file's `compression` when `None`).
    pub view: Option<View>,
    /// Replaces the file's `max_turns`.
    pub max_turns: Option<usize>,
    /// Replaces the file's limits.
    pub limits: Option<Limits>,
    /// Run the file's turns first (with their LLM information).
    pub continue_turns: bool,
    /// The compressed view's token budget (the file's `render.budget_tokens`
    /// when `None`).
    pub budget_tokens: Option<usize>,
    /// The model the prompts go to: a budget counts with its tokenizer
    /// ([`Session::set_token_model`]).
    pub token_model: Option<String>,
    /// How the model hands over its program (the file's `protocol` when
    /// `None`).
    pub protocol: Option<Protocol>,
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
    if let Some(p) = overrides.protocol {
        file.protocol = p;
    }
    let mut session = file.session(path, text, overrides.limits.clone())?;
    session.set_budget_tokens(overrides.budget_tokens);
    if let Some(model) = &overrides.token_model {
        session.set_token_model(model);
    }
    if overrides.continue_turns {
        // Recorded turns answer from their recording; new turns run live.
        file.run_turns(&mut session, ReplayTools::Recorded)?;
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_set_the_view_turns_and_token_budget() {
        let path = Path::new("mission.json");
        let file = SessionFile::parse(r#"{"mission": "m", "max_turns": 5}"#, path).unwrap();
        let overrides = Overrides {
            view: Some(View::Compressed),
            max_turns: Some(2),
            budget_tokens: Some(3000),
            ..Overrides::default()
        };
        let s = session_from_file(path, None, &file, &overrides).unwrap();
        assert_eq!(s.render_options().budget_tokens, Some(3000));
        assert!(s.compression());
        let plain = session_from_file(path, None, &file, &Overrides::default()).unwrap();
        assert_eq!(plain.render_options().budget_tokens, None);
    }
}
