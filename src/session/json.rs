//! The JSON shapes of `ptc replay --format json` (`session.md`): the
//! object `{messages, status, turns, stats}`, one [`TurnJson`] per turn.
//! Values inside turns are `to_clojure` text without limits, and beside
//! each, under the same name with `_json`, the value as JSON when it
//! converts losslessly (`value::json::to_json_lossless`: reading the JSON
//! back gives an equal value; keywords, sets and string-keyed maps do not,
//! so a script never mistakes `:a` for `"a"`); missing when it does not.
//! Each turn carries its `raw_response` (the LLM's full text). Errors are
//! `{kind, message, hint, line, column}`. Every shape reads back with serde
//! (a saved replay can be loaded and compared).

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::messages::{render, Message, Stats, View};
use super::{Session, Status, Turn};
use crate::error::Error;
use crate::eval::ToolCall;
use crate::format::to_clojure;
use crate::value::json::to_json_lossless;
use crate::value::Value;

/// What `ptc replay --format json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayJson {
    pub messages: Vec<Message>,
    pub status: StatusJson,
    pub turns: Vec<TurnJson>,
    pub stats: Stats,
}

/// `{"state": "running", "turns": 2, "max_turns": 5}`, with `value` after
/// `return` and `reason` after `fail`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusJson {
    pub state: String,
    pub turns: usize,
    pub max_turns: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub value_json: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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
    pub number: usize,
    /// The LLM's full response, prose included.
    #[serde(default)]
    pub raw_response: String,
    /// `null` when the response held no code.
    pub program: Option<String>,
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub result_json: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorJson>,
    pub prints: Vec<String>,
    pub tool_calls: Vec<ToolCallJson>,
    pub defined: Vec<String>,
    /// Remarks on how the program was read (surplus closing brackets
    /// ignored, …); omitted when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorJson {
    pub kind: String,
    pub message: String,
    pub hint: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A tool call: `args` is the argument vector's text; `result` or, for a
/// failed call, `error` (the tool's message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallJson {
    pub name: String,
    pub args: String,
    /// The arguments as a JSON array, when they all convert losslessly.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub args_json: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub result_json: Option<Json>,
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

impl ErrorJson {
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
    pub fn of(c: &ToolCall) -> ToolCallJson {
        let args = Value::vector_from(c.args.iter().cloned());
        ToolCallJson {
            name: c.name.clone(),
            args: text(&args),
            args_json: to_json_lossless(&args),
            result: c.result.as_ref().ok().map(text),
            result_json: c.result.as_ref().ok().and_then(to_json_lossless),
            error: c.result.as_ref().err().cloned(),
        }
    }
}

impl TurnJson {
    pub fn of(t: &Turn) -> TurnJson {
        TurnJson {
            number: t.number,
            raw_response: t.raw_response.clone(),
            program: t.program.clone(),
            success: t.success,
            result: t.result.as_ref().ok().map(text),
            result_json: t.result.as_ref().ok().and_then(to_json_lossless),
            error: t.result.as_ref().err().map(ErrorJson::of),
            prints: t.prints.clone(),
            tool_calls: t.tool_calls.iter().map(ToolCallJson::of).collect(),
            defined: t.defined.clone(),
            notes: t.notes.clone(),
        }
    }
}

impl StatusJson {
    pub fn of(s: &Session) -> StatusJson {
        let status = s.status();
        StatusJson {
            state: status.state().to_string(),
            turns: s.turns().len(),
            max_turns: s.max_turns(),
            value: match status {
                Status::Returned(v) => Some(text(v)),
                _ => None,
            },
            value_json: match status {
                Status::Returned(v) => to_json_lossless(v),
                _ => None,
            },
            reason: match status {
                Status::Failed(r) => Some(text(r)),
                _ => None,
            },
            reason_json: match status {
                Status::Failed(r) => to_json_lossless(r),
                _ => None,
            },
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
