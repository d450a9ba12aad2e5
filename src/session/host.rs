//! [`SessionHost`]: the session's [`Host`] — its `data/` values and its
//! tools. The interpreter owns it; the session keeps its own copies of the
//! data values (cheap: persistent values share structure) and of the tools'
//! [`ToolInfo`](super::tools::ToolInfo) for rendering. While a recorded
//! turn replays, calls are answered from its recording and no tool runs
//! (`recording.rs`).

use std::collections::BTreeMap;

use super::recording::ReplaySlot;
use super::tools::Tool;
use crate::eval::Host;
use crate::value::Value;

/// Data values and tools, by name.
#[derive(Default)]
pub struct SessionHost {
    data: BTreeMap<String, Value>,
    tools: BTreeMap<String, Box<dyn Tool>>,
    replay: ReplaySlot,
}

impl SessionHost {
    /// A host serving `data` as `data/NAME` and `tools` as `tool/NAME`.
    pub fn new(data: BTreeMap<String, Value>, tools: Vec<Box<dyn Tool>>) -> SessionHost {
        SessionHost::replaying(data, tools, ReplaySlot::default())
    }

    /// [`SessionHost::new`], answering from the recording in `replay`
    /// while one is active.
    pub(crate) fn replaying(
        data: BTreeMap<String, Value>,
        tools: Vec<Box<dyn Tool>>,
        replay: ReplaySlot,
    ) -> SessionHost {
        SessionHost {
            replay,
            data,
            tools: tools
                .into_iter()
                .map(|t| (t.info().name.clone(), t))
                .collect(),
        }
    }
}

impl SessionHost {
    /// Replaces the tools whose names start with `prefix` (an MCP server's
    /// `SERVER.`) by `tools`.
    pub fn replace_tools(&mut self, prefix: &str, tools: Vec<Box<dyn Tool>>) {
        self.tools.retain(|name, _| !name.starts_with(prefix));
        for t in tools {
            self.tools.insert(t.info().name.clone(), t);
        }
    }
}

impl Host for SessionHost {
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }
    fn data(&self, name: &str) -> Option<Value> {
        self.data.get(name).cloned()
    }
    fn data_names(&self) -> Vec<String> {
        self.data.keys().cloned().collect()
    }
    fn has_tool(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }
    fn tool_names(&self) -> Vec<String> {
        self.tools.keys().cloned().collect()
    }
    fn tool_doc(&self, name: &str) -> Option<String> {
        self.tools.get(name).map(|t| t.info().doc_text())
    }
    fn check_args(&self, name: &str, args: &[Value]) -> Result<(), crate::error::Error> {
        let checked = match self.tools.get(name) {
            Some(tool) => super::shape::check_arguments(name, &tool.info().signature, args),
            None => Ok(()),
        };
        // A call failing its check is recorded too: it takes its entry.
        if checked.is_err() {
            if let Some(Err(mismatch)) = self.replay.take(name, args) {
                return Err(crate::error::Error::new(
                    crate::error::ErrorKind::Tool,
                    format!("tool/{name} failed: {mismatch}"),
                ));
            }
        }
        checked
    }
    fn call_tool(&mut self, name: &str, args: &[Value]) -> Result<Value, String> {
        if let Some(answer) = self.replay.take(name, args) {
            return answer.and_then(|a| a);
        }
        match self.tools.get_mut(name) {
            Some(tool) => tool.call(args),
            None => Err(format!("there is no tool named {name}")),
        }
    }
    fn call_tool_within(
        &mut self,
        name: &str,
        args: &[Value],
        time_left: Option<std::time::Duration>,
    ) -> Result<Value, String> {
        if let Some(answer) = self.replay.take(name, args) {
            return answer.and_then(|a| a);
        }
        match self.tools.get_mut(name) {
            Some(tool) => tool.call_within(args, time_left),
            None => Err(format!("there is no tool named {name}")),
        }
    }
}
