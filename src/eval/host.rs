//! What the program can reach outside itself: `data/` values, `tool/` calls
//! and the host's clock. The session layer implements [`Host`]; tests and
//! `ptc run` use [`StaticHost`].

use std::collections::BTreeMap;
use std::time::Duration;

use crate::value::Value;

/// The program's outside world.
pub trait Host: Send {
    /// The value of `data/NAME`.
    fn data(&self, name: &str) -> Option<Value>;
    /// Every data name, sorted.
    fn data_names(&self) -> Vec<String>;
    /// Whether `tool/NAME` exists (unknown names fail at analysis, with a
    /// "did you mean").
    fn has_tool(&self, name: &str) -> bool;
    /// Every tool name, sorted.
    fn tool_names(&self) -> Vec<String>;
    /// What `(doc tool/NAME)` prints: the tool's name, signature and
    /// whole documentation; `None` for an unknown tool. By default just
    /// `tool/NAME` (a host that knows no more about its tools).
    fn tool_doc(&self, name: &str) -> Option<String> {
        self.has_tool(name).then(|| format!("tool/{name}"))
    }
    /// Runs a tool; `Err` is the host's message (becomes a `tool-error`).
    /// A panic in it is caught and becomes a `tool-error` too.
    fn call_tool(&mut self, name: &str, args: &[Value]) -> Result<Value, String>;
    /// Runs a tool with at most `time_left` before the turn's deadline
    /// (`None`: no deadline); hosts whose tools can be stopped should stop
    /// them then. By default [`Host::call_tool`]: the interpreter checks
    /// the deadline before and after every call either way.
    fn call_tool_within(
        &mut self,
        name: &str,
        args: &[Value],
        _time_left: Option<std::time::Duration>,
    ) -> Result<Value, String> {
        self.call_tool(name, args)
    }
    /// Checks a call's arguments before [`Host::call_tool`]: `Err` (an
    /// `arity-error` or `type-error` naming the tool and the parameter)
    /// fails the call without running the tool. By default every call is
    /// accepted. `at` is the call's site (CALL-SITE-1).
    fn check_args(
        &self,
        _name: &str,
        _args: &[Value],
        _at: &str,
    ) -> Result<(), crate::error::Error> {
        Ok(())
    }
    /// The host as `Any`, for a session that changes its own host's tools
    /// between turns (an MCP server's new listing). By default none.
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        None
    }
    /// `System/currentTimeMillis`, if the host provides a clock.
    fn current_time_millis(&self) -> Option<i64> {
        None
    }
    /// Runs the call `req`, made at `req.at` ([`CallRequest`]): what the
    /// interpreter calls for every tool call. A host whose tools act
    /// (approval, journal, preview: `session/act.rs`) may answer without
    /// running the tool, pause the turn, or stop it. By default
    /// [`Host::call_tool_within`].
    fn call_at(&mut self, req: &CallRequest<'_>, time_left: Option<Duration>) -> CallAnswer {
        CallAnswer::Done(self.call_tool_within(req.name, req.args, time_left))
    }
    /// Runs several calls, at most `max_parallel` at once, answers in the
    /// order of `reqs` (`pmap`/`pcalls`, `eval/group.rs`). By default one
    /// after the other through [`Host::call_at`].
    fn call_batch(
        &mut self,
        reqs: &[CallRequest<'_>],
        time_left: Option<Duration>,
        _max_parallel: usize,
    ) -> Vec<CallAnswer> {
        reqs.iter().map(|r| self.call_at(r, time_left)).collect()
    }
    /// How many tool calls of one `pmap`/`pcalls` may run at once now;
    /// 1 (the default) runs their items one after the other.
    fn max_parallel(&self) -> usize {
        1
    }
}

/// A tool call as the host sees it.
#[derive(Clone, Copy, Debug)]
pub struct CallRequest<'a> {
    /// The tool's name without `tool/`.
    pub name: &'a str,
    /// The arguments.
    pub args: &'a [Value],
    /// Where in the turn the call was made (`eval/group.rs`): `"3"` for the
    /// fourth call site of the turn, `"2.1.0"` for the first call of item 1
    /// of the `pmap` at site 2. The same program with the same answers
    /// makes the same calls at the same sites, however the calls of a
    /// `pmap` were scheduled.
    pub at: &'a str,
}

/// What the host made of a call.
#[derive(Clone, Debug)]
pub enum CallAnswer {
    /// The tool's answer, or its error message (a `tool-error`).
    Done(Result<Value, String>),
    /// The call awaits approval: the turn pauses here (`paused`).
    Pause,
    /// The turn ends with this error (`indeterminate`, a recording that
    /// no longer matches).
    Stop(crate::error::Error),
}

/// A canned tool: a fixed result or a fixed error.
#[derive(Clone, Debug)]
pub enum CannedTool {
    /// Every call returns this value, whatever the arguments.
    Returns(Value),
    /// Every call fails with this message (the program sees a `tool-error`).
    Error(String),
}

/// A host with fixed data and canned tools.
#[derive(Clone, Debug, Default)]
pub struct StaticHost {
    /// `data/NAME` values by name (without `data/`).
    pub data: BTreeMap<String, Value>,
    /// `tool/NAME` tools by name (without `tool/`).
    pub tools: BTreeMap<String, CannedTool>,
}

impl Host for StaticHost {
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
    fn call_tool(&mut self, name: &str, _args: &[Value]) -> Result<Value, String> {
        match self.tools.get(name) {
            Some(CannedTool::Returns(v)) => Ok(v.clone()),
            Some(CannedTool::Error(e)) => Err(e.clone()),
            None => Err(format!("unknown tool {name}")),
        }
    }
}
