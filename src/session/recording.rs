//! Tool calls recorded in session files, and hermetic replay (R-REC).
//!
//! Every turn records its tool calls ([`Turn::tool_calls`]): the tool, the
//! arguments and what it answered (a value or an error message). A saved
//! session file carries them beside `turns`, like `llm`: `"tool_calls"`
//! holds one array per turn, each call written
//!
//! ```json
//! {"tool": "weather", "args": ["Oslo"], "returns": {"temp": 3}}
//! {"tool": "weather", "args": ["Atlantis"], "error": "city not found (exit code 3)"}
//! {"tool": "tags", "args": [], "returns": {"lisp": "#{:a :b}"}}
//! ```
//!
//! **Values** (arguments and results) round-trip exactly: a value is
//! written as JSON when the JSON reads back equal (numbers keep their kind,
//! maps with keyword keys are objects — `data/`'s conversion), else as
//! `{"lisp": "TEXT"}`, its PTC-Lisp literal (keywords, sets, characters,
//! string-keyed maps, NaN). A value whose own JSON would be an object with
//! the single string key `lisp` is written in the tagged form too, so a
//! one-key `{"lisp": …}` object always means a literal. `returns` absent
//! (and no `error`) is nil.
//!
//! **Which turns are recorded**: turn `k` is recorded when `tool_calls`
//! has an entry `k` (an empty array: a turn that called no tool). Files
//! written by [`Session::to_file`] record every turn when the session has
//! tools; files written by hand without `tool_calls` have no recorded
//! turns and run their tools, as before. Entries past the last turn are
//! ignored.
//!
//! **Replay** ([`ReplayTools::Recorded`], the default of `ptc replay`,
//! `ptc repl SESSION`, `ptc run --session`, `--snapshot`/`--check`,
//! [`Session::load`] and Python `Session.from_file`): a recorded turn's tool
//! calls are answered from its recording, in order — no command,
//! script, closure, Python callable or MCP server runs, and a command
//! tool's missing program or script is then no load error. The `n`-th
//! call the program makes must be the recording's `n`-th: same tool, equal
//! arguments (compared in their recorded form). Otherwise — another tool,
//! other arguments, a call past the recorded ones, or a turn that ends
//! with recorded calls it did not make — the replay stops with
//! [`SessionError::Recording`]: "turn K, call N (tool/T): the recording no
//! longer matches: …", saying what differs. The turn is not kept. A call
//! whose arguments fail the tool's signature is recorded too (with the
//! check's error) and consumes its entry the same way; the error is made
//! again by the check, not read from the file.
//!
//! [`ReplayTools::Live`] (`--live`, Python `live=True`) ignores the
//! recording: every call runs its tool, and the new answers are what a
//! later save records. Turns after the recorded ones always run live.
//!
//! **Recorded-only tools**: a tool saved as its signature alone because it
//! was code of the program that saved the file (a Rust closure, a Python
//! callable) is written with `"recorded_only": true`. Loaded, it answers
//! inside recorded turns from the recording; a live call (a new turn,
//! `--live`) is a `tool-error` saying it has no live implementation and
//! how to attach one ([`SessionBuilder::attach_tool`], Python
//! `Session.from_file(path, tools=[...])`).
//!
//! Not reproduced: a turn that ended in `timeout` because a tool was slow
//! replays with the recorded answer arriving at once, so it may run on.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::file::ToolFile;
use super::tools::{Tool, ToolInfo};
use super::SessionError;
use crate::eval::ToolCall;
use crate::format::to_clojure_capped;
use crate::reader::read_value;
use crate::value::json::{from_json, to_json_lossless};
use crate::value::Value;

/// Whether recorded turns answer tool calls from their recording.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplayTools {
    /// Recorded turns answer from the recording; no tool runs (default).
    #[default]
    Recorded,
    /// Every tool runs again (`--live`).
    Live,
}

/// One recorded call as written in a session file's `tool_calls`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallFile {
    /// The tool's name without `tool/`.
    pub tool: String,
    /// The arguments, each a recorded value ([`encode`]).
    pub args: Vec<Json>,
    /// What the tool returned ([`encode`]); absent with `error`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub returns: Option<Json>,
    /// The tool's error message, when the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where in the turn the call was made (CALL-SITE-1), written when it
    /// is not the call's place in the list (a `pmap`'s calls, a paused
    /// turn's): absent, it is that place, `"0"` for the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// `"returns": null` is nil, present.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    Json::deserialize(d).map(Some)
}

impl CallFile {
    /// The file form of the `index`-th call the evaluator recorded.
    pub fn of(index: usize, call: &ToolCall) -> CallFile {
        CallFile {
            tool: call.name.clone(),
            args: call.args.iter().map(encode).collect(),
            returns: call.result.as_ref().ok().map(encode),
            error: call.result.as_ref().err().cloned(),
            at: (call.at != index.to_string()).then(|| call.at.clone()),
        }
    }

    /// The file form of a turn's calls.
    pub fn all_of(calls: &[ToolCall]) -> Vec<CallFile> {
        calls
            .iter()
            .enumerate()
            .map(|(i, c)| CallFile::of(i, c))
            .collect()
    }

    /// The recorded answer.
    fn answer(&self) -> Result<Result<Value, String>, String> {
        match (&self.returns, &self.error) {
            (Some(_), Some(_)) => {
                Err("a call has either \"returns\" or \"error\", not both".into())
            }
            (_, Some(e)) => Ok(Err(e.clone())),
            (Some(v), None) => decode(v).map(Ok),
            (None, None) => Ok(Ok(Value::Nil)),
        }
    }
}

/// Whether `j` is the tagged form `{"lisp": "TEXT"}`.
fn tagged(j: &Json) -> Option<&str> {
    match j {
        Json::Object(m) if m.len() == 1 => m.get("lisp").and_then(Json::as_str),
        _ => None,
    }
}

/// A value as recorded: its JSON when that reads back equal (and is not
/// itself a one-key `{"lisp": …}` object), else `{"lisp": "LITERAL"}`.
pub fn encode(v: &Value) -> Json {
    match to_json_lossless(v) {
        Some(j) if tagged(&j).is_none() => j,
        _ => {
            let (text, _) = to_clojure_capped(v, None, None, Some(usize::MAX));
            serde_json::json!({ "lisp": text })
        }
    }
}

/// A recorded value back ([`encode`]'s inverse).
pub fn decode(j: &Json) -> Result<Value, String> {
    match tagged(j) {
        Some(text) => read_value(text)
            .map_err(|e| format!("{text:?} is not a PTC-Lisp literal: {}", e.message())),
        None => Ok(from_json(j)),
    }
}

/// A recorded call, read: the arguments as written, the answer decoded.
#[derive(Clone, Debug)]
pub struct RecordedCall {
    tool: String,
    args: Vec<Json>,
    answer: Result<Value, String>,
    at: String,
}

impl RecordedCall {
    /// Reads turn `turn`'s recorded calls; a bad entry is an error naming
    /// the turn and the call.
    pub fn read_turn(turn: usize, calls: &[CallFile]) -> Result<Vec<RecordedCall>, SessionError> {
        calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let answer = c.answer().map_err(|m| SessionError::Recording {
                    turn,
                    message: format!("call {} (tool/{}) in \"tool_calls\": {m}", i + 1, c.tool),
                })?;
                Ok(RecordedCall {
                    tool: c.tool.clone(),
                    args: c.args.clone(),
                    answer,
                    at: c.at.clone().unwrap_or_else(|| i.to_string()),
                })
            })
            .collect()
    }
}

impl RecordedCall {
    /// The recorded answer for the call `(tool/name args…)` made as call
    /// `call`, or why it is not the recorded one.
    fn answer_to(
        &self,
        call: &str,
        name: &str,
        args: &[Value],
    ) -> Result<Result<Value, String>, String> {
        let live: Vec<Json> = args.iter().map(encode).collect();
        if self.tool == name && self.args == live {
            return Ok(self.answer.clone());
        }
        let what = if self.tool != name {
            format!("the recording has tool/{} here", self.tool)
        } else {
            difference(&self.args, &live)
        };
        Err(format!(
            "call {call} (tool/{name}): the recording no longer matches: {what}; recorded \
             (tool/{} {}), made (tool/{name} {})",
            self.tool,
            inner(&recorded_args_text(&self.args)),
            inner(&args_text(args.iter().cloned()))
        ))
    }
}

/// The recording the turn under way replays, shared by the session and
/// its host.
#[derive(Clone, Default)]
pub(crate) struct ReplaySlot(Arc<Mutex<Option<TurnReplay>>>);

pub(crate) struct TurnReplay {
    calls: Vec<RecordedCall>,
    next: usize,
    mismatch: Option<String>,
    /// A resumed turn's record (ACT-2): calls matched by site, a call the
    /// record lacks runs; `used` marks the ones made.
    by_site: Option<Vec<bool>>,
}

/// Printed arguments, for messages.
fn args_text(args: impl Iterator<Item = Value>) -> String {
    let v = Value::vector_from(args);
    let (text, cut) = to_clojure_capped(&v, Some(10), Some(200), Some(2000));
    if cut {
        format!("{text} (cut)")
    } else {
        text
    }
}

fn recorded_args_text(args: &[Json]) -> String {
    args_text(
        args.iter()
            .map(|j| decode(j).unwrap_or_else(|_| Value::string(j.to_string()))),
    )
}

impl ReplaySlot {
    /// Starts replaying a turn with `calls`.
    pub(crate) fn start(&self, calls: Vec<RecordedCall>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(TurnReplay {
                calls,
                next: 0,
                mismatch: None,
                by_site: None,
            });
        }
    }

    /// Starts a resumed turn's replay: `calls` answer the calls made at
    /// their sites; other calls run (ACT-2).
    pub(crate) fn start_by_site(&self, calls: Vec<RecordedCall>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(TurnReplay {
                by_site: Some(vec![false; calls.len()]),
                calls,
                next: 0,
                mismatch: None,
            });
        }
    }

    /// Whether a turn is replayed in recorded order (its calls then run
    /// one after the other).
    pub(crate) fn in_order(&self) -> bool {
        self.0
            .lock()
            .ok()
            .is_some_and(|g| g.as_ref().is_some_and(|r| r.by_site.is_none()))
    }

    /// Ends the turn's replay: the mismatch, if any (unmade recorded calls
    /// count).
    pub(crate) fn finish(&self) -> Option<String> {
        let r = self.0.lock().ok()?.take()?;
        if r.mismatch.is_some() {
            return r.mismatch;
        }
        if let Some(used) = &r.by_site {
            let (rec, _) = r.calls.iter().zip(used).find(|(_, used)| !**used)?;
            return Some(format!(
                "call {} (tool/{}): the recording no longer matches: the resumed turn did not \
                 make the recorded call (tool/{} {})",
                rec.at,
                rec.tool,
                rec.tool,
                inner(&recorded_args_text(&rec.args)),
            ));
        }
        let left = &r.calls[r.next.min(r.calls.len())..];
        let first = left.first()?;
        Some(format!(
            "call {} (tool/{}): the recording no longer matches: the turn made {} tool call{}, \
             the recording has {}; the first not made: (tool/{} {})",
            r.next + 1,
            first.tool,
            r.next,
            if r.next == 1 { "" } else { "s" },
            r.calls.len(),
            first.tool,
            inner(&recorded_args_text(&first.args)),
        ))
    }

    /// The recorded answer of the next call, which must be `(tool/name
    /// args…)`: `Err` is the mismatch when it is not; `None` when no turn
    /// is being replayed (the tool runs).
    pub(crate) fn take(
        &self,
        name: &str,
        args: &[Value],
        at: &str,
    ) -> Option<Result<Result<Value, String>, String>> {
        let mut g = self.0.lock().ok()?;
        let r = g.as_mut()?;
        if let Some(m) = &r.mismatch {
            return Some(Err(m.clone()));
        }
        if let Some(used) = r.by_site.as_mut() {
            let i = r.calls.iter().position(|c| c.at == at)?;
            used[i] = true;
            let checked = r.calls[i].answer_to(at, name, args);
            if let Err(m) = &checked {
                r.mismatch = Some(m.clone());
            }
            return Some(checked);
        }
        let n = r.next;
        r.next += 1;
        let made = || format!("(tool/{name} {})", inner(&args_text(args.iter().cloned())));
        let Some(rec) = r.calls.get(n) else {
            let m = format!(
                "call {} (tool/{name}): the recording no longer matches: the recording has only {} \
                 tool call{} for this turn; the program made another: {}",
                n + 1,
                r.calls.len(),
                if r.calls.len() == 1 { "" } else { "s" },
                made()
            );
            r.mismatch = Some(m.clone());
            return Some(Err(m));
        };
        let checked = rec.answer_to(&(n + 1).to_string(), name, args);
        if let Err(m) = &checked {
            r.mismatch = Some(m.clone());
        }
        Some(checked)
    }
}

/// `[a b]` → `a b`.
fn inner(vector_text: &str) -> &str {
    vector_text
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or(vector_text)
}

/// What differs between recorded and live arguments.
fn difference(recorded: &[Json], live: &[Json]) -> String {
    if recorded.len() != live.len() {
        return format!(
            "the recording has {} argument{}, the call {}",
            recorded.len(),
            if recorded.len() == 1 { "" } else { "s" },
            live.len()
        );
    }
    for (i, (r, l)) in recorded.iter().zip(live).enumerate() {
        if r != l {
            let show = |j: &Json| recorded_args_text(std::slice::from_ref(j));
            return format!(
                "argument {} differs: recorded {}, now {}",
                i + 1,
                inner(&show(r)),
                inner(&show(l))
            );
        }
    }
    "the arguments differ".into()
}

/// A tool known only by its signature (saved from a closure or a Python
/// callable): it answers inside recorded turns from the recording (the
/// host never calls it then); called live, it fails saying how to attach
/// an implementation.
pub struct RecordedOnlyTool {
    info: ToolInfo,
    file: ToolFile,
}

impl RecordedOnlyTool {
    /// The recorded-only tool `info`, written back as `file`.
    pub fn new(info: ToolInfo, file: ToolFile) -> RecordedOnlyTool {
        RecordedOnlyTool { info, file }
    }
}

impl Tool for RecordedOnlyTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }
    fn call(&mut self, _args: &[Value]) -> Result<Value, String> {
        if let Some(server) = &self.file.mcp {
            return Err(format!(
                "tool/{} has no live implementation: it is a tool of MCP server {server:?}, \
                 which the session file does not configure, so it answers only inside recorded \
                 turns. Attach the server: Python Session.from_file(path, mcp={{{server:?}: \
                 {{\"command\": [...]}}}}), or add \"mcp\": {{{server:?}: {{\"command\": [...]}}}} \
                 to the session file",
                self.info.name
            ));
        }
        Err(format!(
            "tool/{} has no live implementation: the session file keeps only its signature \
             (it was a function of the program that saved the file), so it answers only inside \
             recorded turns. Attach one: Python Session.from_file(path, tools=[...]), Rust \
             SessionBuilder::attach_tool, or give it a \"command\" or \"returns\" in the session file",
            self.info.name
        ))
    }
    fn to_file(&self) -> ToolFile {
        self.file.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: Value) {
        let j = encode(&v);
        let text = serde_json::to_string(&j).unwrap();
        let back: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(decode(&back).unwrap(), v, "{text}");
    }

    #[test]
    fn values_round_trip_exactly() {
        let samples = [
            "nil",
            "1",
            "1.0",
            "-0.5",
            "1.0E300",
            "\"a \\\"quoted\\\" \\n line\"",
            ":kw",
            "#{:a :b 1}",
            "\\c",
            "[1 2.5 nil \"x\" :y]",
            "{:a 1, :b [1 {:c #{2}}]}",
            "{\"a\" 1}",
            "{:lisp \"x\"}",
            "[{:lisp \"x\"}]",
            "{:lisp \"x\", :b 1}",
            "{1 2}",
            "(1 2 3)",
            "##NaN",
            "##Inf",
        ];
        for s in samples {
            let v = read_value(s).unwrap();
            round_trip(v);
        }
        assert_eq!(encode(&Value::Int(3)), Json::from(3));
        assert_eq!(
            encode(&Value::keyword("a")),
            serde_json::json!({"lisp": ":a"})
        );
    }

    #[test]
    fn bad_entries_name_the_turn_and_the_call() {
        let bad = CallFile {
            tool: "t".into(),
            args: vec![],
            returns: Some(serde_json::json!({"lisp": "{:a"})),
            error: None,
            at: None,
        };
        let e = RecordedCall::read_turn(2, &[bad]).unwrap_err().to_string();
        assert!(e.contains("turn 2") && e.contains("call 1 (tool/t)"), "{e}");
    }
}
