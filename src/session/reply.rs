//! From a model's reply to the program of a turn, or to why there is none.
//!
//! Rules (in this order; each failure is a failed turn whose `parse-error`
//! the model sees next turn, never an error of the run):
//! 1. **Cut off**: the LLM information says the reply stopped at the token
//!    limit (`finish_reason` `length` / `max_tokens`): "your response was
//!    cut off at N tokens; write a shorter program" (N the output tokens,
//!    when reported). A cut-off program is not run, even when it parses.
//! 2. **Tool protocol** (the reply has a list of calls): no call at all and
//!    no text → *empty*; no call → *protocol* ("no run_ptc_lisp call");
//!    several calls → *protocol* (none runs); a call of another function, or
//!    arguments that are not a JSON object with a string `program` →
//!    *protocol*; else the `program` argument is the program — passed
//!    through R-70 extraction when it holds a code fence (models sometimes
//!    fence it), else taken as written (trimmed, typographic quotes
//!    replaced like R-70's). A blank `program` is *empty*. Prose beside the
//!    call stays in `raw_response` and is never run.
//! 3. **Text protocol**: a reply whose text is blank → *empty* ("the reply
//!    was empty"); else R-70 extraction; no code → *no-code* (the existing
//!    "no PTC-Lisp code found" error, which asks for code next turn).

use serde::Serialize;

use super::extract::{extract_program, no_code_error};
use super::llm::{LlmInfo, Reply, ReplyCall, PROGRAM_TOOL};
use crate::error::Error;

/// Why a reply gave no program to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReplyIssue {
    /// Text only, no code (text protocol).
    NoCode,
    /// No text and no call.
    Empty,
    /// Stopped at the token limit.
    CutOff,
    /// Tool protocol: no call, several calls, another function or bad
    /// arguments.
    Protocol,
}

impl ReplyIssue {
    /// `no-code`, `empty`, `cut-off` or `protocol`.
    pub fn name(self) -> &'static str {
        match self {
            ReplyIssue::NoCode => "no-code",
            ReplyIssue::Empty => "empty",
            ReplyIssue::CutOff => "cut-off",
            ReplyIssue::Protocol => "protocol",
        }
    }
}

/// The program of `reply` (rules in the module docs), or the turn's error
/// and why.
pub fn program_of(reply: &Reply, llm: Option<&LlmInfo>) -> Result<String, (Error, ReplyIssue)> {
    program_in(&reply.text, reply.calls.as_deref(), llm)
}

/// [`program_of`] the reply of `text` and `calls`.
pub(crate) fn program_in(
    text: &str,
    calls: Option<&[ReplyCall]>,
    llm: Option<&LlmInfo>,
) -> Result<String, (Error, ReplyIssue)> {
    if let Some(info) = llm.filter(|i| i.cut_off()) {
        let at = match info.usage.output_tokens {
            Some(n) => format!("{n} tokens"),
            None => "the token limit".into(),
        };
        return Err((
            Error::parse(format!(
                "your response was cut off at {at}; write a shorter program"
            ))
            .with_hint(
                "the program did not run: answer with less prose and thinking, and split long work across turns (def the intermediate values)",
            ),
            ReplyIssue::CutOff,
        ));
    }
    match calls {
        Some(calls) => tool_program(text, calls),
        None if text.trim().is_empty() => Err((empty_error(false), ReplyIssue::Empty)),
        None => extract_program(text).ok_or_else(|| (no_code_error(text), ReplyIssue::NoCode)),
    }
}

fn empty_error(tool: bool) -> Error {
    let hint = if tool {
        "call run_ptc_lisp with the whole program as its \"program\" argument"
    } else {
        "answer with the program in a ```clojure code block"
    };
    Error::parse("the reply was empty: no text and no program").with_hint(hint)
}

fn protocol_error(message: String) -> (Error, ReplyIssue) {
    (
        Error::parse(message).with_hint(
            "call the run_ptc_lisp tool exactly once, with the whole program as its \"program\" argument (a string); text outside the call is not run",
        ),
        ReplyIssue::Protocol,
    )
}

fn tool_program(text: &str, calls: &[ReplyCall]) -> Result<String, (Error, ReplyIssue)> {
    let call = match calls {
        [] if text.trim().is_empty() => return Err((empty_error(true), ReplyIssue::Empty)),
        [] => {
            return Err(protocol_error(
                "the reply made no run_ptc_lisp call, so no program ran".into(),
            ))
        }
        [one] => one,
        several => {
            return Err(protocol_error(format!(
                "the reply made {} tool calls; exactly one run_ptc_lisp call runs per turn, so none ran",
                several.len()
            )))
        }
    };
    if call.name != PROGRAM_TOOL {
        return Err(protocol_error(format!(
            "the reply called {:?}; the only tool is run_ptc_lisp (PTC-Lisp tools are called from inside the program: (tool/NAME …))",
            short(&call.name)
        )));
    }
    let args: serde_json::Value = serde_json::from_str(&call.arguments).map_err(|e| {
        protocol_error(format!(
            "run_ptc_lisp's arguments are not valid JSON ({e}): {:?}",
            short(&call.arguments)
        ))
    })?;
    let program = match args.get("program") {
        Some(serde_json::Value::String(p)) => p,
        Some(other) => {
            return Err(protocol_error(format!(
                "run_ptc_lisp's \"program\" argument must be a string, got {}",
                json_type(other)
            )))
        }
        None => {
            return Err(protocol_error(format!(
                "run_ptc_lisp's arguments must be an object {{\"program\": string}}, got {:?}",
                short(&call.arguments)
            )))
        }
    };
    if program.trim().is_empty() {
        return Err((empty_error(true), ReplyIssue::Empty));
    }
    let fenced = program.lines().any(|l| l.trim_start().starts_with("```"));
    let found = if fenced {
        extract_program(program)
    } else {
        // R-70's cleaning without its "starts with (" test: `42` or
        // `data/x` is a program here.
        extract_program(&format!("```\n{program}\n```"))
    };
    found
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| (empty_error(true), ReplyIssue::Empty))
}

/// "a string", "an object" …: a JSON value's type, for error messages.
pub fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// At most 80 characters of `s`, for messages.
fn short(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, arguments: &str) -> ReplyCall {
        ReplyCall {
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    fn issue(reply: &Reply) -> Option<ReplyIssue> {
        program_of(reply, None).err().map(|(_, i)| i)
    }

    #[test]
    fn tool_replies() {
        let ok = Reply::program_call("I'll add.", "(+ 1 2)");
        assert_eq!(program_of(&ok, None).unwrap(), "(+ 1 2)");
        let bare = Reply::program_call("", "42");
        assert_eq!(program_of(&bare, None).unwrap(), "42");
        let fenced = Reply::program_call("", "```clojure\n(inc 1)\n```");
        assert_eq!(program_of(&fenced, None).unwrap(), "(inc 1)");
        let none = Reply {
            text: "thinking".into(),
            calls: Some(vec![]),
        };
        assert_eq!(issue(&none), Some(ReplyIssue::Protocol));
        let empty = Reply {
            text: " ".into(),
            calls: Some(vec![]),
        };
        assert_eq!(issue(&empty), Some(ReplyIssue::Empty));
        let two = Reply {
            text: String::new(),
            calls: Some(vec![
                call(PROGRAM_TOOL, r#"{"program":"1"}"#),
                call(PROGRAM_TOOL, r#"{"program":"2"}"#),
            ]),
        };
        let (e, i) = program_of(&two, None).unwrap_err();
        assert_eq!(i, ReplyIssue::Protocol);
        assert!(e.message().contains("2 tool calls"), "{}", e.message());
        for bad in [
            r#"{"program": 1}"#,
            "{not json",
            r#"{"code": "(+ 1 2)"}"#,
            "[]",
        ] {
            let r = Reply {
                text: String::new(),
                calls: Some(vec![call(PROGRAM_TOOL, bad)]),
            };
            let (e, i) = program_of(&r, None).unwrap_err();
            assert_eq!(i, ReplyIssue::Protocol, "{bad}");
            assert!(e.hint().unwrap_or("").contains("run_ptc_lisp"), "{bad}");
        }
        let other = Reply {
            text: String::new(),
            calls: Some(vec![call("search", "{}")]),
        };
        assert_eq!(issue(&other), Some(ReplyIssue::Protocol));
    }

    #[test]
    fn text_replies_and_cut_off() {
        assert_eq!(issue(&Reply::text("")), Some(ReplyIssue::Empty));
        assert_eq!(issue(&Reply::text("I think so")), Some(ReplyIssue::NoCode));
        assert_eq!(
            program_of(&Reply::text("(+ 1 2)"), None).unwrap(),
            "(+ 1 2)"
        );
        let mut info = LlmInfo {
            finish_reason: Some("length".into()),
            ..LlmInfo::default()
        };
        info.usage.output_tokens = Some(512);
        let (e, i) = program_of(&Reply::text("(+ 1 2)"), Some(&info)).unwrap_err();
        assert_eq!(i, ReplyIssue::CutOff);
        assert_eq!(
            e.message(),
            "your response was cut off at 512 tokens; write a shorter program"
        );
        info.finish_reason = Some("max_tokens".into());
        let r = Reply::program_call("", "(+ 1 2)");
        assert_eq!(
            program_of(&r, Some(&info)).err().map(|(_, i)| i),
            Some(ReplyIssue::CutOff)
        );
    }
}
