//! Sessions loaded from their files, and a session's file.

use super::*;

impl Session {
    /// Loads a session file and runs its turns (until they run out or the
    /// session ends), recorded turns answering from their recording.
    pub fn load(path: &Path) -> Result<Session, SessionError> {
        Session::load_with(path, Vec::new(), ReplayTools::Recorded)
    }

    /// [`Session::load`] with `tools` attached (each replacing the file's
    /// tool of that name: live implementations of recorded-only tools, for
    /// new turns; [`SessionBuilder::attach_tool`]), replaying with
    /// `replay`.
    pub fn load_with(
        path: &Path,
        tools: Vec<Box<dyn Tool>>,
        replay: ReplayTools,
    ) -> Result<Session, SessionError> {
        Session::load_with_mcp(path, tools, BTreeMap::new(), replay)
    }

    /// [`Session::load_with`] with MCP servers `mcp` added to the file's
    /// `"mcp"` (Python `Session.from_file(mcp=...)`), each replacing the
    /// file's server of that name. They are the file's servers from then
    /// on (rule MCP-9): a stdio one starts in the session file's
    /// directory (MCP-1), the file's saved tools of that server are
    /// offered as listed and it starts at their first live call (recorded
    /// turns answer from the recording), a server with no saved tools
    /// starts now, and saving writes them into the file's `"mcp"`, so the
    /// saved session reloads them the same way.
    pub fn load_with_mcp(
        path: &Path,
        tools: Vec<Box<dyn Tool>>,
        mcp: BTreeMap<String, McpServerConfig>,
        replay: ReplayTools,
    ) -> Result<Session, SessionError> {
        let text = read_file(path)?;
        let mut file = SessionFile::parse(&text, path)?;
        file.mcp.extend(mcp);
        let mut b = file.builder_with(path, Some(&text), replay)?;
        for t in tools {
            b = b.attach_tool(t);
        }
        let mut session = b.build().map_err(|e| match e {
            SessionError::Invalid(message) => SessionError::File {
                file: path.to_path_buf(),
                place: None,
                message,
            },
            other => other,
        })?;
        file.run_turns(&mut session, replay)?;
        Ok(session)
    }

    /// Writes the session as a session file at `path` (pretty JSON and a
    /// newline): [`Session::to_file_at`], so its tool calls are recorded
    /// and its command tools work from there.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_file_at(path).to_json() + "\n")
    }

    /// The session as a session file to be written at `path`: like
    /// [`Session::to_file`], with command tools given a `cwd` when `path`
    /// is in another directory than the session's own (R-SAVE-PATHS).
    pub fn to_file_at(&self, path: &Path) -> SessionFile {
        let mut file = self.to_file();
        let from = self
            .base_dir
            .clone()
            .unwrap_or_else(|| absolute(Path::new(".")));
        file.relocate(&from, &absolute(&parent_dir(path)));
        file
    }
}

/// The session file of `session` (see [`Session::to_file`]).
pub(in crate::session) fn from_session(
    session: &Session,
    tool_files: &BTreeMap<String, ToolFile>,
) -> SessionFile {
    // A paused turn is the file's "resume", not one of its turns.
    let turns = match session.turns().split_last() {
        Some((last, before)) if last.is_paused() => before,
        _ => session.turns(),
    };
    let mut data = BTreeMap::new();
    let mut data_lisp = BTreeMap::new();
    for (name, v) in session.data() {
        match to_json_lossless(v) {
            Some(json) => {
                data.insert(name.clone(), json);
            }
            None => {
                data_lisp.insert(name.clone(), to_clojure(v, None, None).0);
            }
        }
    }
    SessionFile {
        mission: session.mission().to_string(),
        max_turns: session.max_turns(),
        compression: session.compression(),
        data,
        data_lisp,
        tools: tool_files.clone(),
        limits: Some(session.limits().clone()),
        render: Some(session.render_options().clone()).filter(|r| *r != RenderOptions::default()),
        returns: session.result_shape().map(str::to_string),
        turns: turns.iter().map(|t| t.raw_response.clone()).collect(),
        llm: if turns.iter().any(|t| t.llm.is_some()) {
            turns.iter().map(|t| t.llm.as_deref().cloned()).collect()
        } else {
            Vec::new()
        },
        cost_usd: session
            .turns()
            .iter()
            .filter_map(|t| t.llm.as_ref().and_then(|i| i.cost_usd))
            .reduce(|a, b| a + b),
        // Every turn is recorded when there are tools to record.
        tool_calls: if tool_files.is_empty() {
            Vec::new()
        } else {
            turns
                .iter()
                .map(|t| CallFile::all_of(&t.tool_calls))
                .collect()
        },
        mcp: BTreeMap::new(),
        protocol: session.protocol(),
        calls: if turns.iter().any(|t| t.calls.is_some()) {
            turns.iter().map(|t| t.calls.clone()).collect()
        } else {
            Vec::new()
        },
        id: Some(session.id().to_string()),
        approval: session.approves_writes().then_some(Approval::Writes),
        resume: session.resume_file(),
    }
}
