//! What the program reaches outside itself, through the [`Host`]: `data/`
//! values and tool calls. A tool call is charged to the tool-call limit, is
//! bounded by the turn's deadline (no call starts after it, the host is told
//! how much time is left, a call ending past it ends the turn in `timeout`),
//! and its result is charged to the heap budget like a value the program
//! built.

use super::host::{CallAnswer, CallRequest};
use super::{group, guard, stack, Interp, ToolCall};
use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;

impl Interp {
    pub(super) fn data(&self, name: &str) -> Result<Value> {
        self.host.data(name).ok_or_else(|| {
            let none = format!(
                "there is no data (give it: `ptc run --data {name}=FILE.json`, or a session file's \"data\")"
            );
            let listing = listing("data", &self.host.data_names(), &none);
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
        let at = self.sites.take();
        self.budget.tool_call()?;
        // Arguments must be shallow and short enough for the host to use
        // (print, serialize, drop) on its own threads.
        let what = format!("the arguments of tool/{name}");
        for a in &args {
            self.check_leaving(&what, a)?;
        }
        self.check_conversion_room(&what, &args)?;
        // Arguments that do not fit the tool's signature: a failed call,
        // and the tool does not run.
        if let Err(e) = self.host.check_args(name, &args, &at) {
            return Err(self.failed_call(name, args, at, e));
        }
        // Inside a `pmap` item: the answer gathered for this site, or the
        // item's try stops here (`group.rs`).
        let answer = match self.attempted_call(name, &args, &at) {
            group::Found::Answer(a) => CallAnswer::Done(a),
            group::Found::Wanted(e) => return Err(e),
            group::Found::Live => self.call_host(name, &args, &at)?,
        };
        let result = match answer {
            CallAnswer::Done(r) => r,
            CallAnswer::Pause => {
                self.pending_calls.push(ToolCall {
                    name: name.to_string(),
                    args,
                    result: Err("awaits approval".into()),
                    at,
                });
                return Err(self.paused_error());
            }
            CallAnswer::Stop(e) => return Err(self.failed_call(name, args, at, e)),
        }
        // A failure's text (a command's stderr, a Python traceback) goes
        // into the next prompt: 1 KB of it.
        .map_err(|msg| crate::value::describe_text(&msg).into_owned());
        self.tool_calls.push(ToolCall {
            name: name.to_string(),
            args,
            result: result.clone(),
            at,
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

    /// Records a call that failed with `e` (a signature check, a stopped
    /// turn) and gives `e` back.
    fn failed_call(&mut self, name: &str, args: Vec<Value>, at: String, e: Error) -> Error {
        self.tool_calls.push(ToolCall {
            name: name.to_string(),
            args,
            result: Err(e.message().to_string()),
            at,
        });
        e
    }

    /// Runs the call through the host: no call starts after the turn's
    /// deadline, the host may stop one at it; a panicking tool is a failed
    /// call. Host code runs on the calling thread's own stack (`stack.rs`),
    /// knowing how much text it may parse (`budget::tool_answer_cap`).
    fn call_host(&mut self, name: &str, args: &[Value], at: &str) -> Result<CallAnswer> {
        self.budget.check_clock()?;
        let time_left = self.budget.time_left();
        let room = self
            .budget
            .limits
            .max_heap_bytes
            .map(|max| max.saturating_sub(self.budget.heap_bytes()));
        let host = &mut self.host;
        let req = CallRequest { name, args, at };
        Ok(guard::catch_quietly(|| {
            stack::on_caller_stack(|| {
                super::budget::with_tool_room(room, || host.call_at(&req, time_left))
            })
        })
        .unwrap_or_else(|panic| CallAnswer::Done(Err(format!("the tool panicked: {panic}")))))
    }

    /// Tools see their arguments converted (JSON for command and MCP
    /// tools, Python objects for Python tools), which copies every shared
    /// part and takes several times the memory the values were charged:
    /// a 22-level self-sharing map, 70 KB as values, took 2.85 GB as JSON.
    /// So before any tool runs, the arguments' size with shared parts
    /// copied ([`conversion_bytes_upto`]) must fit in the heap room left.
    /// The check does not depend on the kind of tool (a recorded call
    /// replays the same way) and charges the walk as work, not as heap
    /// (the copy is gone when the call returns).
    fn check_conversion_room(&mut self, what: &str, args: &[Value]) -> Result<()> {
        let Some(max) = self.budget.limits.max_heap_bytes else {
            return Ok(());
        };
        let room = max.saturating_sub(self.budget.heap_bytes());
        let mut bytes: u64 = 0;
        for a in args {
            bytes = bytes.saturating_add(conversion_bytes_upto(a, room.saturating_sub(bytes)));
            if bytes > room {
                break;
            }
        }
        self.budget
            .tick_settled(bytes.min(room.saturating_add(1)) / CONVERSION_FACTOR / 64)?;
        if bytes > room {
            return Err(Error::new(
                ErrorKind::MemoryExceeded,
                format!(
                    "{what} take more than the {room} bytes left of the heap limit of {max} bytes \
                     once converted for the tool (shared parts are copied)"
                ),
            )
            .with_hint(
                "pass the tool less data (an id, a count, a sample), or raise max_heap_bytes",
            ));
        }
        Ok(())
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

/// How many times its heap size (`value::size`, HEAP-COST-1) a value takes
/// once converted for a tool: a JSON tree (`serde_json::Value` nodes of
/// 72 bytes with ordered maps, map entries with their hashes and keys) and
/// its text, measured at 1.6 (strings) to 2.9 (nested small maps) times
/// with a counting allocator; Python objects take less.
pub const CONVERSION_FACTOR: u64 = 4;

/// The approximate memory `v` takes once converted for a tool (JSON tree
/// and text, Python objects), shared parts copied; some number above `cap`
/// once it is known to be bigger. Costs at most about `cap / 64` visits
/// (a visited item is a 16-byte slot of its collection). For any code that
/// converts a value on its way out of a turn.
pub fn conversion_bytes_upto(v: &Value, cap: u64) -> u64 {
    crate::value::size::approx_bytes_upto(v, cap / CONVERSION_FACTOR)
        .saturating_mul(CONVERSION_FACTOR)
}

/// `available: data/a, data/b` (the names in namespace `ns`), or `none`.
fn listing(ns: &str, names: &[String], none: &str) -> String {
    if names.is_empty() {
        return none.to_string();
    }
    let qualified: Vec<String> = names.iter().map(|n| format!("{ns}/{n}")).collect();
    format!("available: {}", qualified.join(", "))
}
