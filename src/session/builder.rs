//! [`SessionBuilder`]: a session's definitions, checked when built.

use super::*;

/// Builds a [`Session`]; problems are reported by [`SessionBuilder::build`].
pub struct SessionBuilder {
    mission: String,
    data: BTreeMap<String, Value>,
    tools: Vec<Box<dyn Tool>>,
    max_turns: usize,
    limits: Limits,
    render: RenderOptions,
    compression: bool,
    returns: Option<(String, Type)>,
    problems: Vec<String>,
    base_dir: Option<PathBuf>,
    /// MCP servers: name, configuration, directory, tools a file lists.
    /// Servers: name, configuration, directory, and the tools to offer
    /// without listing them (`None`: listed at build).
    mcp: Vec<(
        String,
        McpServerConfig,
        std::path::PathBuf,
        Option<Vec<ToolInfo>>,
    )>,
    open_ended: bool,
    protocol: Protocol,
    approval_writes: bool,
    id: Option<String>,
}

impl SessionBuilder {
    /// Every write waits for approval (`"approval": "writes"`, ACT-2).
    pub fn approval_for_writes(mut self, on: bool) -> SessionBuilder {
        self.approval_writes = on;
        self
    }

    /// The session's id, what its writes' idempotency keys start with
    /// (ACT-3); a new one by default, kept in the session file.
    pub fn id(mut self, id: impl Into<String>) -> SessionBuilder {
        self.id = Some(id.into());
        self
    }

    /// Adds MCP server `name` (`session/mcp.rs`): its tools become
    /// `tool/NAME.TOOL`. The server starts when the session is built (for
    /// its tool listing), a stdio one in the current directory, and stops
    /// when the session ends or is dropped. Without the cargo feature
    /// `mcp`, building is an error.
    pub fn mcp_server(self, name: impl Into<String>, config: McpServerConfig) -> SessionBuilder {
        self.mcp_server_in(name, config, ".")
    }

    /// [`SessionBuilder::mcp_server`] with a stdio server started in `dir`
    /// (a session file's directory).
    pub fn mcp_server_in(
        self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
    ) -> SessionBuilder {
        self.mcp_server_with(name, config, dir, Vec::new())
    }

    /// [`SessionBuilder::mcp_server_in`] with the tools a session file
    /// lists for this server: they are offered as listed, and the server
    /// starts at the first call instead of now.
    pub fn mcp_server_with(
        self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
        saved: Vec<ToolInfo>,
    ) -> SessionBuilder {
        let saved = (!saved.is_empty()).then_some(saved);
        self.mcp_server_offering(name, config, dir, saved)
    }

    /// [`SessionBuilder::mcp_server_with`] offering exactly `tools` (none
    /// at all when empty) without listing the server: it starts at the
    /// first live call; `None` lists it at build.
    pub(crate) fn mcp_server_offering(
        mut self,
        name: impl Into<String>,
        config: McpServerConfig,
        dir: impl Into<std::path::PathBuf>,
        tools: Option<Vec<ToolInfo>>,
    ) -> SessionBuilder {
        let name = name.into();
        if let Some(why) = bad_name(&name).or_else(|| name.contains('.').then_some("has a '.'")) {
            self.problems
                .push(format!("MCP server name {name:?} {why}"));
        }
        self.mcp.push((name, config, dir.into(), tools));
        self
    }

    /// An open-ended session (`ptc mcp`): it never ends. `(return v)` is a
    /// successful turn whose value is `v`, `(fail reason)` a failed turn
    /// (memory unchanged), and `max_turns` turns do not exhaust it. No
    /// prompts are rendered or stored ([`Session::prompts`] stays empty):
    /// the front end asks for what it shows ([`turn_feedback`],
    /// [`listing`]), so a long session costs no re-rendering per turn.
    pub fn open_ended(mut self) -> SessionBuilder {
        self.open_ended = true;
        self
    }

    /// The shape the mission's result must have, e.g. `{total :int, items
    /// [:string]}` (`shape.rs` says what each type accepts): `(return v)`
    /// with a value of another shape is a failed turn (`type-error`) whose
    /// message says what differs, so the LLM can fix it next turn.
    pub fn returns(mut self, shape: &str) -> SessionBuilder {
        match Type::parse(shape) {
            Ok(ty) => self.returns = Some((shape.trim().to_string(), ty)),
            Err(e) => self
                .problems
                .push(format!("bad result shape {shape:?}: {e}")),
        }
        self
    }

    /// `data/NAME` = `value`.
    pub fn data(mut self, name: impl Into<String>, value: Value) -> SessionBuilder {
        let name = name.into();
        if self.data.contains_key(&name) {
            self.problems.push(format!("data/{name} is defined twice"));
        }
        self.data.insert(name, value);
        self
    }

    /// `data/NAME` from JSON: objects become maps with keyword keys.
    pub fn data_json(self, name: impl Into<String>, json: &serde_json::Value) -> SessionBuilder {
        self.data(name, from_json(json))
    }

    /// `data/NAME` from a PTC-Lisp literal (keywords, sets, characters).
    pub fn data_lisp(mut self, name: impl Into<String>, literal: &str) -> SessionBuilder {
        let name = name.into();
        match read_value(literal) {
            Ok(v) => self.data(name, v),
            Err(e) => {
                self.problems.push(format!(
                    "data/{name}: cannot read the literal: {}",
                    e.message()
                ));
                self
            }
        }
    }

    /// Adds a tool.
    pub fn tool(self, tool: impl Tool + 'static) -> SessionBuilder {
        self.boxed_tool(Box::new(tool))
    }

    /// Adds `tool`, replacing a tool of the same name: attaches a live
    /// implementation to a recorded-only tool of a loaded session file
    /// (`recording.rs`), or swaps one tool for another.
    pub fn attach_tool(mut self, tool: Box<dyn Tool>) -> SessionBuilder {
        let name = tool.info().name.clone();
        self.tools.retain(|t| t.info().name != name);
        self.tools.push(tool);
        self
    }

    /// The directory the session's relative tool paths (command programs,
    /// scripts, `cwd`) are resolved against: the session file's. Saving
    /// to another directory rewrites them ([`Session::to_file_at`]).
    pub fn base_dir(mut self, dir: impl Into<PathBuf>) -> SessionBuilder {
        self.base_dir = Some(dir.into());
        self
    }

    /// Adds an already boxed tool (see [`SessionBuilder::tool`]).
    pub fn boxed_tool(mut self, tool: Box<dyn Tool>) -> SessionBuilder {
        self.tools.push(tool);
        self
    }

    /// Adds a closure tool: `signature` as in `(query :string) -> :string`.
    pub fn tool_fn(
        mut self,
        name: &str,
        signature: &str,
        description: &str,
        f: impl FnMut(&[Value]) -> Result<Value, String> + Send + 'static,
    ) -> SessionBuilder {
        match FnTool::new(name, signature, description, f) {
            Ok(t) => self.tool(t),
            Err(e) => {
                self.problems.push(format!(
                    "tool/{name}: bad signature {:?}: {e}",
                    crate::value::describe_text(signature)
                ));
                self
            }
        }
    }

    /// Turns before the session is exhausted (default 5).
    pub fn max_turns(mut self, n: usize) -> SessionBuilder {
        self.max_turns = n;
        self
    }

    /// The limits of every turn (default: [`Limits::default`]).
    pub fn limits(mut self, limits: Limits) -> SessionBuilder {
        self.limits = limits;
        self
    }

    /// How the next prompt is rendered (default: [`RenderOptions::default`]).
    pub fn render(mut self, options: RenderOptions) -> SessionBuilder {
        self.render = options;
        self
    }

    /// Whether the LLM gets the compressed view (default false).
    pub fn compression(mut self, on: bool) -> SessionBuilder {
        self.compression = on;
        self
    }

    /// How the model hands over its program (default [`Protocol::Text`]);
    /// the SYSTEM prompt and the uncompressed view follow it.
    pub fn protocol(mut self, protocol: Protocol) -> SessionBuilder {
        self.protocol = protocol;
        self
    }

    /// Checks everything and makes the session.
    pub fn build(self) -> Result<Session, SessionError> {
        let mut problems = self.problems;
        if self.max_turns == 0 {
            problems.push("max_turns must be at least 1".into());
        }
        for name in self.data.keys() {
            if let Some(why) = bad_name(name) {
                problems.push(format!("data name {name:?} {why}"));
            }
        }
        let mut seen = BTreeSet::new();
        for t in &self.tools {
            let name = &t.info().name;
            if let Some(why) = bad_name(name) {
                problems.push(format!("tool name {name:?} {why}"));
            }
            if !seen.insert(name.clone()) {
                problems.push(format!("tool/{name} is defined twice"));
            }
        }
        if !problems.is_empty() {
            return Err(SessionError::Invalid(problems.join("; ")));
        }
        let mut tools = self.tools;
        let mut mcp_links = Vec::new();
        let mut mcp_files = BTreeMap::new();
        for (name, config, dir, saved) in self.mcp {
            let (server_tools, link) =
                mcp::connect(&name, &config, &dir, saved).map_err(SessionError::Invalid)?;
            for t in server_tools {
                if !seen.insert(t.info().name.clone()) {
                    return Err(SessionError::Invalid(format!(
                        "tool/{} is defined twice",
                        t.info().name
                    )));
                }
                tools.push(t);
            }
            mcp_links.push(link);
            mcp_files.insert(name, config);
        }
        tools.sort_by(|a, b| a.info().name.cmp(&b.info().name));
        let timeout = self.limits.timeout_ms.map(Duration::from_millis);
        for t in tools.iter_mut() {
            t.set_timeout(timeout);
        }
        let infos = tools.iter().map(|t| t.info().clone()).collect();
        let tool_files = tools
            .iter()
            .map(|t| (t.info().name.clone(), t.to_file()))
            .collect();
        let replay = recording::ReplaySlot::default();
        let act = act::ActSlot::default();
        let id = self.id.unwrap_or_else(act::new_session_id);
        {
            let mut a = act.lock();
            a.approval_writes = self.approval_writes;
            a.session_id = id.clone();
        }
        let host = SessionHost::replaying(self.data.clone(), tools, replay.clone(), act.clone());
        let mut session = Session {
            act,
            id,
            paused: None,
            journal: None,
            replay,
            base_dir: self.base_dir,
            mission: self.mission,
            data: self.data,
            tools: infos,
            tool_files,
            mcp_links,
            mcp_files,
            max_turns: self.max_turns,
            limits: self.limits.clone(),
            render: self.render,
            compression: self.compression,
            returns: self.returns,
            interp: Interp::new(Box::new(host), self.limits),
            turns: Vec::new(),
            status: Status::Running,
            prompts: prompts::Prompts::default(),
            stop_at_max_turns: !self.open_ended,
            open_ended: self.open_ended,
            protocol: self.protocol,
            forgotten: 0,
            held: None,
            over_memory: false,
        };
        session.record_next_prompt();
        Ok(session)
    }
}

/// Why `name` cannot be a data or tool name, if it cannot.
pub(crate) fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name
        .chars()
        .any(|c| c.is_whitespace() || "()[]{}\"',;/`@~^\\".contains(c))
    {
        Some("cannot be written as a symbol (no spaces, slashes, brackets or quotes)")
    } else if name.starts_with(|c: char| c.is_ascii_digit() || c == ':') {
        Some("cannot start with a digit or ':'")
    } else {
        None
    }
}

impl Session {
    /// Starts building a session for `mission`.
    pub fn builder(mission: impl Into<String>) -> SessionBuilder {
        SessionBuilder {
            mission: mission.into(),
            data: BTreeMap::new(),
            tools: Vec::new(),
            max_turns: DEFAULT_MAX_TURNS,
            limits: Limits::default(),
            render: RenderOptions::default(),
            compression: false,
            returns: None,
            problems: Vec::new(),
            base_dir: None,
            mcp: Vec::new(),
            open_ended: false,
            protocol: Protocol::Text,
            approval_writes: false,
            id: None,
        }
    }
}
