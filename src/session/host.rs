//! [`SessionHost`]: the session's [`Host`] — its `data/` values and its
//! tools. The interpreter owns it; the session keeps its own copies of the
//! data values (cheap: persistent values share structure) and of the tools'
//! [`ToolInfo`](super::tools::ToolInfo) for rendering. While a recorded
//! turn replays, calls are answered from its recording and no tool runs
//! (`recording.rs`).

use std::collections::BTreeMap;

use std::time::Duration;

use super::act::{ActSlot, Gate};
use super::recording::ReplaySlot;
use super::tools::{CallContext, Job, Tool};
use crate::eval::{CallAnswer, CallRequest, Host};
use crate::value::Value;

/// Data values and tools, by name.
#[derive(Default)]
pub struct SessionHost {
    data: BTreeMap<String, Value>,
    tools: BTreeMap<String, Box<dyn Tool>>,
    replay: ReplaySlot,
    act: ActSlot,
}

impl SessionHost {
    /// A host serving `data` as `data/NAME` and `tools` as `tool/NAME`.
    pub fn new(data: BTreeMap<String, Value>, tools: Vec<Box<dyn Tool>>) -> SessionHost {
        SessionHost::replaying(data, tools, ReplaySlot::default(), ActSlot::default())
    }

    /// [`SessionHost::new`], answering from the recording in `replay`
    /// while one is active, acting as `act` says (`act.rs`).
    pub(crate) fn replaying(
        data: BTreeMap<String, Value>,
        tools: Vec<Box<dyn Tool>>,
        replay: ReplaySlot,
        act: ActSlot,
    ) -> SessionHost {
        SessionHost {
            replay,
            act,
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
    fn check_args(&self, name: &str, args: &[Value], at: &str) -> Result<(), crate::error::Error> {
        let checked = match self.tools.get(name) {
            Some(tool) => super::shape::check_arguments(name, &tool.info().signature, args),
            None => Ok(()),
        };
        // A call failing its check is recorded too: it takes its entry.
        if checked.is_err() {
            if let Some(Err(mismatch)) = self.replay.take(name, args, at) {
                return Err(crate::error::Error::new(
                    crate::error::ErrorKind::Tool,
                    format!("tool/{name} failed: {mismatch}"),
                ));
            }
        }
        checked
    }
    fn call_tool(&mut self, name: &str, args: &[Value]) -> Result<Value, String> {
        self.call_tool_within(name, args, None)
    }
    fn call_tool_within(
        &mut self,
        name: &str,
        args: &[Value],
        time_left: Option<Duration>,
    ) -> Result<Value, String> {
        match self.call_at(&CallRequest { name, args, at: "" }, time_left) {
            CallAnswer::Done(r) => r,
            CallAnswer::Pause => Err("the call awaits approval".into()),
            CallAnswer::Stop(e) => Err(e.message().to_string()),
        }
    }
    fn call_at(&mut self, req: &CallRequest<'_>, time_left: Option<Duration>) -> CallAnswer {
        match self.prepare(req) {
            Gate::Answer(a) => a,
            Gate::Run { key, journaled } => {
                let ctx = CallContext {
                    time_left,
                    idempotency_key: key,
                };
                let result = match self.tools.get_mut(req.name) {
                    Some(tool) => tool.call_with(req.args, &ctx),
                    None => Err(format!("there is no tool named {}", req.name)),
                };
                self.finish(req.at, journaled, result)
            }
        }
    }
    fn call_batch(
        &mut self,
        reqs: &[CallRequest<'_>],
        time_left: Option<Duration>,
        max_parallel: usize,
    ) -> Vec<CallAnswer> {
        let mut answers: Vec<Option<CallAnswer>> = vec![None; reqs.len()];
        let mut jobs: Vec<(usize, Job)> = Vec::new();
        let mut inline: Vec<(usize, CallContext)> = Vec::new();
        let mut journaled = vec![false; reqs.len()];
        for (i, req) in reqs.iter().enumerate() {
            match self.prepare(req) {
                Gate::Answer(a) => answers[i] = Some(a),
                Gate::Run { key, journaled: j } => {
                    journaled[i] = j;
                    let ctx = CallContext {
                        time_left,
                        idempotency_key: key,
                    };
                    match self
                        .tools
                        .get_mut(req.name)
                        .and_then(|t| t.start(req.args, &ctx))
                    {
                        Some(job) => jobs.push((i, job)),
                        None => inline.push((i, ctx)),
                    }
                }
            }
        }
        let mut results: Vec<Option<Result<Value, String>>> = vec![None; reqs.len()];
        let tools = &mut self.tools;
        super::concurrent::run_jobs(jobs, max_parallel, &mut results, || {
            // Tools that cannot run elsewhere run here meanwhile, in order.
            inline
                .iter()
                .map(|(i, ctx)| {
                    let req = &reqs[*i];
                    let r = match tools.get_mut(req.name) {
                        Some(tool) => tool.call_with(req.args, ctx),
                        None => Err(format!("there is no tool named {}", req.name)),
                    };
                    (*i, r)
                })
                .collect()
        });
        for (i, result) in results.into_iter().enumerate() {
            if let Some(r) = result {
                answers[i] = Some(self.finish(reqs[i].at, journaled[i], r));
            }
        }
        answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|| CallAnswer::Done(Err("the call did not run".into()))))
            .collect()
    }
    fn max_parallel(&self) -> usize {
        // A turn replayed in recorded order makes its calls in that order.
        if self.replay.in_order() {
            1
        } else {
            usize::MAX
        }
    }
}

impl SessionHost {
    /// The recording, then approvals, the journal and a preview (`act.rs`)
    /// answer a call, or say how it runs.
    fn prepare(&mut self, req: &CallRequest<'_>) -> Gate {
        if let Some(answer) = self.replay.take(req.name, req.args, req.at) {
            return Gate::Answer(CallAnswer::Done(answer.and_then(|a| a)));
        }
        let Some(tool) = self.tools.get(req.name) else {
            return Gate::Answer(CallAnswer::Done(Err(format!(
                "there is no tool named {}",
                req.name
            ))));
        };
        self.act.gate(req.name, &tool.info().acts, req.args, req.at)
    }

    /// A call's answer, journaled when its intent was.
    fn finish(&self, at: &str, journaled: bool, result: Result<Value, String>) -> CallAnswer {
        if journaled {
            if let Err(msg) = self.act.answered(at, &result) {
                // The write ran; a later resume will call it indeterminate.
                return CallAnswer::Stop(crate::error::Error::new(
                    crate::error::ErrorKind::Indeterminate,
                    format!("the call at {at} ran, but its answer could not be recorded: {msg}"),
                ));
            }
        }
        CallAnswer::Done(result)
    }
}
