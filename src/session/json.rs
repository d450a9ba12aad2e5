//! The JSON shapes of `ptc replay --format json` (`session.md`): the
//! object `{messages, status, turns, stats}`, one [`TurnJson`] per turn.
//! Values inside turns are `to_clojure` text without limits, and beside
//! each, under the same name with `_json`, the value as JSON when it
//! converts losslessly (`value::json::to_json_lossless`: reading the JSON
//! back gives an equal value; keywords, sets and string-keyed maps do not,
//! so a script never mistakes `:a` for `"a"`); missing when it does not,
//! and when the value prints to more than [`JSON_FORM_MAX_BYTES`] (1 MiB:
//! a JSON tree is many times its text, and a value repeating shared parts
//! expands in full).
//! Each turn carries its `raw_response` (the LLM's full text). Errors are
//! `{kind, message, hint, line, column}`. Every shape reads back with serde
//! (a saved replay can be loaded and compared).
//!
//! The same shapes are how [`Turn`] and [`Session`] implement `Serialize`:
//! a turn serializes as its [`TurnJson`], a session as the [`ReplayJson`]
//! of its own view (what `ptc replay --format json` prints without
//! `--view`). Neither implements `Deserialize`: a turn's memory snapshot
//! and a session's tools (closures, commands) have no JSON form; the JSON
//! reads back as [`TurnJson`] / [`ReplayJson`], and a session is restored
//! from its [`SessionFile`](super::SessionFile).

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::messages::{render, Message, Stats, View};
use super::{Session, Status, Turn};
use crate::error::Error;
use crate::eval::ToolCall;
use crate::format::to_clojure;
use crate::value::json::to_json_lossless;
use crate::value::Value;
use serde::Serializer;

/// What `ptc replay --format json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayJson {
    /// The next prompt's chat messages in the chosen view.
    pub messages: Vec<Message>,
    /// Where the session stands.
    pub status: StatusJson,
    /// Every turn so far, oldest first.
    pub turns: Vec<TurnJson>,
    /// Sizes of the rendered messages (characters, estimated tokens).
    pub stats: Stats,
}

/// `{"state": "running", "turns": 2, "max_turns": 5}`, with `value` after
/// `return` and `reason` after `fail`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusJson {
    /// `running`, `returned`, `failed` or `exhausted`.
    pub state: String,
    /// Turns taken so far.
    pub turns: usize,
    /// The most turns the session allows.
    pub max_turns: usize,
    /// The value of `(return v)`, printed (only when returned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `value` as JSON, when it converts losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub value_json: Option<Json>,
    /// The argument of `(fail v)`, printed (only when failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `reason` as JSON, when it converts losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub reason_json: Option<Json>,
}

/// One turn: `result` when it succeeded, `error` when it failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnJson {
    /// 1-based position of the turn in the session.
    pub number: usize,
    /// The LLM's full response, prose included.
    #[serde(default)]
    pub raw_response: String,
    /// `null` when the response held no code.
    pub program: Option<String>,
    /// Whether the program ran without error (its definitions were kept).
    pub success: bool,
    /// The program's value, printed without limits (only on success).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// `result` as JSON, when it converts losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub result_json: Option<Json>,
    /// Why the program failed (only on failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorJson>,
    /// The lines the program printed, in order.
    pub prints: Vec<String>,
    /// The tool calls the program made, in order.
    pub tool_calls: Vec<ToolCallJson>,
    /// The user/ names the program (re)defined, in order.
    pub defined: Vec<String>,
    /// Remarks on how the program was read (surplus closing brackets
    /// ignored, …); omitted when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Why the reply had no program to run (`no-code`, `empty`, `cut-off`,
    /// `protocol`); omitted when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// The calls a paused turn waits on (ACT-2): `{"id", "tool", "args",
    /// "key"}`; omitted unless the turn paused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<super::resume::PendingFile>,
}

/// A failed turn's error: what the LLM is shown, with its position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorJson {
    /// The kind as the spec spells it (`type-error`, …).
    pub kind: String,
    /// The one-line message.
    pub message: String,
    /// How to fix it, when the mistake is a common one.
    pub hint: Option<String>,
    /// 1-based line in the program, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
}

/// A tool call: `args` is the argument vector's text; `result` or, for a
/// failed call, `error` (the tool's message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallJson {
    /// The tool's name without `tool/`.
    pub name: String,
    /// The argument vector, printed.
    pub args: String,
    /// The arguments as a JSON array, when they all convert losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub args_json: Option<Json>,
    /// What the tool returned, printed (only when it succeeded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// `result` as JSON, when it converts losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub result_json: Option<Json>,
    /// The tool's error message (only when it failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A `*_json` field that is present: `null` is the JSON of nil, not a
/// missing value (missing means "does not convert losslessly").
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    Json::deserialize(d).map(Some)
}

fn text(v: &Value) -> String {
    to_clojure(v, None, None).0
}

/// The most bytes a value may print to and still get its `_json` form
/// beside the text. A JSON tree takes tens of bytes per item where the
/// text takes two (`[1 1 …]`), and a value that repeats shared parts
/// expands in full: past this size the JSON form is omitted (the text is
/// still there), so a replay's memory stays proportional to its text.
pub const JSON_FORM_MAX_BYTES: usize = crate::format::LIMITED_OUTPUT_CAP;

/// `v` (printed as `printed`) as lossless JSON, unless it prints longer
/// than [`JSON_FORM_MAX_BYTES`].
fn json_form(v: &Value, printed: &str) -> Option<Json> {
    if printed.len() > JSON_FORM_MAX_BYTES {
        return None;
    }
    to_json_lossless(v)
}

/// The text of `v` and its JSON form ([`json_form`]).
fn text_and_json(v: &Value) -> (String, Option<Json>) {
    let printed = text(v);
    let json = json_form(v, &printed);
    (printed, json)
}

impl ErrorJson {
    /// The JSON of `e`; line and column when its source is known.
    pub fn of(e: &Error) -> ErrorJson {
        let (line, column) = match e.line_col() {
            Some((l, c)) => (Some(l), Some(c)),
            None => (None, None),
        };
        ErrorJson {
            kind: e.kind().name().to_string(),
            message: e.message().to_string(),
            hint: e.hint().map(str::to_string),
            line,
            column,
        }
    }
}

impl ToolCallJson {
    /// The JSON of one recorded tool call.
    pub fn of(c: &ToolCall) -> ToolCallJson {
        let args = Value::vector_from(c.args.iter().cloned());
        let (args, args_json) = text_and_json(&args);
        let (result, result_json) = c.result.as_ref().ok().map(text_and_json).unzip();
        ToolCallJson {
            name: c.name.clone(),
            args,
            args_json,
            result,
            result_json: result_json.flatten(),
            error: c.result.as_ref().err().cloned(),
        }
    }
}

impl TurnJson {
    /// The JSON of turn `t` (what `ptc replay --format json` writes per turn).
    pub fn of(t: &Turn) -> TurnJson {
        let (result, result_json) = t.result.as_ref().ok().map(text_and_json).unzip();
        TurnJson {
            number: t.number,
            raw_response: t.raw_response.clone(),
            program: t.program.clone(),
            success: t.success,
            result,
            result_json: result_json.flatten(),
            error: t.result.as_ref().err().map(ErrorJson::of),
            prints: t.prints.clone(),
            tool_calls: t.tool_calls.iter().map(ToolCallJson::of).collect(),
            defined: t.defined.clone(),
            notes: t.notes.clone(),
            issue: t.issue.map(|i| i.name().to_string()),
            pending: t
                .pending
                .iter()
                .map(super::resume::PendingFile::of)
                .collect(),
        }
    }
}

impl StatusJson {
    /// The JSON of `s`'s status.
    pub fn of(s: &Session) -> StatusJson {
        let status = s.status();
        let (value, value_json) = match status {
            Status::Returned(v) => text_and_json(v),
            _ => (String::new(), None),
        };
        let (reason, reason_json) = match status {
            Status::Failed(r) => text_and_json(r),
            _ => (String::new(), None),
        };
        StatusJson {
            state: status.state().to_string(),
            turns: s.turns().len(),
            max_turns: s.max_turns(),
            value: matches!(status, Status::Returned(_)).then_some(value),
            value_json,
            reason: matches!(status, Status::Failed(_)).then_some(reason),
            reason_json,
        }
    }
}

impl ReplayJson {
    /// The whole replay object for `session` in `view`.
    pub fn of(session: &Session, view: View) -> ReplayJson {
        let rendered = render(session, view);
        ReplayJson {
            messages: rendered.messages,
            status: StatusJson::of(session),
            turns: session.turns().iter().map(TurnJson::of).collect(),
            stats: rendered.stats,
        }
    }
}

impl Serialize for Turn {
    /// As its [`TurnJson`].
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TurnJson::of(self).serialize(s)
    }
}

impl Serialize for Session {
    /// As the [`ReplayJson`] of the session's own view.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ReplayJson::of(self, View::of(self)).serialize(s)
    }
}
