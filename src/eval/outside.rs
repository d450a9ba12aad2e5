//! What the program reaches outside itself, through the [`Host`]: `data/`
//! values and tool calls. A tool call is charged to the tool-call limit, is
//! bounded by the turn's deadline (no call starts after it, the host is told
//! how much time is left, a call ending past it ends the turn in `timeout`),
//! and its result is charged to the heap budget like a value the program
//! built.

use super::{guard, stack, Interp, ToolCall};
use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;

impl Interp {
    pub(super) fn data(&self, name: &str) -> Result<Value> {
        self.host.data(name).ok_or_else(|| {
            let listing = listing("data", &self.host.data_names(), "there is no data");
            Error::undefined(format!("data/{name} is not defined; {listing}"))
        })
    }

    /// Calls a host tool and records the call.
    pub(crate) fn call_tool(&mut self, name: &str, args: Vec<Value>) -> Result<Value> {
        if !self.host.has_tool(name) {
            let listing = listing("tool", &self.host.tool_names(), "there are no tools");
            return Err(Error::undefined(format!(
                "tool/{name} is not defined; {listing}"
            )));
        }
        self.budget.tool_call()?;
        // Arguments must be shallow and short enough for the host to use
        // (print, serialize, drop) on its own threads.
        let what = format!("the arguments of tool/{name}");
        for a in &args {
            self.check_leaving(&what, a)?;
        }
        // Arguments that do not fit the tool's signature: a failed call,
        // and the tool does not run.
        if let Err(e) = self.host.check_args(name, &args) {
            self.tool_calls.push(ToolCall {
                name: name.to_string(),
                args,
                result: Err(e.message().to_string()),
            });
            return Err(e);
        }
        // The turn's deadline bounds the sum of its tool calls: none starts
        // after it, the host may stop one at it, and a call that ends past
        // it ends the turn. A panicking tool is a failed call.
        self.budget.check_clock()?;
        let time_left = self.budget.time_left();
        let host = &mut self.host;
        // Host code runs on the calling thread's own stack (`stack.rs`).
        let result = guard::catch_quietly(|| {
            stack::on_caller_stack(|| host.call_tool_within(name, &args, time_left))
        })
        .unwrap_or_else(|panic| Err(format!("the tool panicked: {panic}")))
        // A failure's text (a command's stderr, a Python traceback) goes
        // into the next prompt: 1 KB of it.
        .map_err(|msg| crate::value::describe_text(&msg).into_owned());
        self.tool_calls.push(ToolCall {
            name: name.to_string(),
            args,
            result: result.clone(),
        });
        self.budget.check_clock().map_err(|e| {
            Error::new(
                ErrorKind::Timeout,
                format!(
                    "tool/{name} answered after the turn's time limit; {}",
                    e.message()
                ),
            )
        })?;
        let value = result
            .map_err(|msg| Error::new(ErrorKind::Tool, format!("tool/{name} failed: {msg}")))?;
        self.charge_outside_value(&value)?;
        Ok(value)
    }

    /// Charges a value that came from outside the program (a tool's result)
    /// to the heap budget, as if the program had built it.
    fn charge_outside_value(&mut self, v: &Value) -> Result<()> {
        let room = match self.budget.limits.max_heap_bytes {
            Some(max) => max.saturating_sub(self.budget.heap_bytes()),
            None => return Ok(()),
        };
        let bytes = crate::value::size::approx_bytes_upto(v, room);
        self.budget.tick_settled(bytes / 64)?;
        self.budget.alloc(bytes)
    }
}

/// `available: data/a, data/b` (the names in namespace `ns`), or `none`.
fn listing(ns: &str, names: &[String], none: &str) -> String {
    if names.is_empty() {
        return none.to_string();
    }
    let qualified: Vec<String> = names.iter().map(|n| format!("{ns}/{n}")).collect();
    format!("available: {}", qualified.join(", "))
}
