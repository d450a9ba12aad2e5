//! What a render reads: the session as plain data, independent of the
//! session layer (`rendering.md` §1).
//!
//! The session layer fills a [`RenderInput`] after every turn; the only
//! interpreter-facing piece is [`MemoryView::from_interp`], which turns the
//! user/ namespace into the prelude's entries in one call.

use crate::analyze::expr::{FnProto, GlobalId};
use crate::error::{Error, ErrorKind};
use crate::eval::hidden::HiddenMarks;
use crate::eval::{Globals, Interp};
use crate::value::{Returned, Value};

pub use crate::eval::ToolCall;

/// Everything one render needs.
#[derive(Clone, Debug, Default)]
pub struct RenderInput {
    /// The mission text, shown verbatim first.
    pub mission: String,
    /// The `tool/` namespace, in any order (rendered sorted by name).
    pub tools: Vec<ToolInfo>,
    /// The `data/` namespace, in any order (rendered sorted by name).
    pub data: Vec<(String, Value)>,
    /// The session's turn budget (`rendering.md` default 5).
    pub max_turns: usize,
    /// The turns so far, oldest first; `turns.len()` is the turn count.
    pub turns: Vec<TurnRecord>,
    /// The current user/ namespace (after the last successful turn).
    pub memory: MemoryView,
    /// The values the session derived from hidden data:
    /// `Interp::hidden` after the last turn. Rendered as `[hidden]`.
    pub hidden: HiddenMarks,
    /// How the model hands over its program: the SYSTEM prompt's reply
    /// line and the uncompressed view's turn pairs follow it.
    pub protocol: super::Protocol,
}

/// One tool as declared in the session: `(query :string) -> :string`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolInfo {
    /// The name the program calls it by, without `tool/`.
    pub name: String,
    /// Parameter names with their type text, written without colons
    /// (`string`, `[string]`, `{score float}`; see [`type_text`]).
    pub params: Vec<(String, String)>,
    /// The return type text, without colons.
    pub returns: String,
    /// One line on what the tool does, shown after its signature.
    pub description: Option<String>,
    /// The tool changes the world (ACT-1): its line ends in `, writes`.
    pub writes: bool,
    /// Its calls wait for approval (ACT-2): its line ends in `, asks
    /// approval`.
    pub approval: bool,
}

/// One turn, as recorded by the session (immutable once made).
#[derive(Clone, Debug)]
pub struct TurnRecord {
    /// 1-based.
    pub number: usize,
    /// The full LLM output, prose included.
    pub raw_response: String,
    /// The code extracted from the response; `None` when none was found.
    pub program: Option<String>,
    /// The value of the program, or its error.
    pub result: Result<Value, ErrorInfo>,
    /// One entry per output line, in order (also for failed turns): each
    /// `println` call ends one (newlines in its text stay in it), as does
    /// each newline `print` writes.
    pub prints: Vec<String>,
    /// Tool calls in call order (also for failed turns).
    pub tool_calls: Vec<ToolCall>,
    /// The user/ namespace after this turn, when the session kept it (the
    /// `turns` view diffs consecutive snapshots). Unchanged by a failed turn.
    pub memory: Option<MemoryView>,
    /// Remarks on how the program was read (e.g. surplus closing brackets
    /// ignored); shown by the `turns` view, not by prompts.
    pub notes: Vec<String>,
    /// The program came from the reply's one well-formed call of the
    /// program tool (tool protocol): the uncompressed view renders the turn
    /// as a native tool-call pair.
    pub called: bool,
}

impl TurnRecord {
    /// The record of a program `interp` just ran (`Interp::run_program`):
    /// its result, prints, tool calls and the user/ namespace after it.
    pub fn after_run(
        number: usize,
        raw_response: impl Into<String>,
        program: Option<String>,
        result: &crate::error::Result<Value>,
        interp: &Interp,
    ) -> TurnRecord {
        TurnRecord {
            number,
            raw_response: raw_response.into(),
            program,
            result: result.clone().map_err(ErrorInfo::from),
            prints: interp.prints.clone(),
            tool_calls: interp.tool_calls.clone(),
            memory: Some(MemoryView::from_interp(interp)),
            notes: Vec::new(),
            called: false,
        }
    }

    /// Whether the turn's program succeeded.
    pub fn success(&self) -> bool {
        self.result.is_ok()
    }
    /// The program, or the raw response when no program was extracted.
    pub fn program_or_response(&self) -> &str {
        self.program.as_deref().unwrap_or(&self.raw_response)
    }
}

/// The parts of an error that prompts show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorInfo {
    /// The error's kind (shown as `type-error` …).
    pub kind: ErrorKind,
    /// One line, written for the LLM.
    pub message: String,
    /// How to fix it, shown after the message when present.
    pub hint: Option<String>,
}

impl From<&Error> for ErrorInfo {
    fn from(e: &Error) -> ErrorInfo {
        ErrorInfo {
            kind: e.kind(),
            message: e.message().to_string(),
            hint: e.hint().map(str::to_string),
        }
    }
}

impl From<Error> for ErrorInfo {
    fn from(e: Error) -> ErrorInfo {
        ErrorInfo::from(&e)
    }
}

/// The user/ namespace as the prelude shows it.
#[derive(Clone, Debug, Default)]
pub struct MemoryView {
    /// Every definition, in order of first definition.
    pub entries: Vec<MemoryEntry>,
}

/// One user/ definition.
#[derive(Clone, Debug)]
pub struct MemoryEntry {
    /// The name without `user/`.
    pub name: String,
    /// The latest value.
    pub value: Value,
    /// The docstring (`defn`'s, or `def`'s `(def x "doc" v)`), uncleaned.
    pub doc: Option<String>,
    /// Set when the value is a user function (`defn`, or `def` of an `fn`):
    /// it is shown as a function line.
    pub function: Option<FnInfo>,
    /// The value is hidden data or derived from it: shown as
    /// `= TYPE, [hidden]` (set by the renderer's redaction).
    pub hidden: bool,
}

/// What the prelude shows of a user function.
#[derive(Clone, Debug, PartialEq)]
pub struct FnInfo {
    /// The parameter vectors as written, whitespace collapsed: `[x] [x y]`.
    pub params: String,
    /// What is kept of the value its most recent successful call
    /// returned, if any (its type label is shown: [`Returned`]).
    pub last_return: Option<Returned>,
}

impl MemoryView {
    /// The user/ namespace of `interp`, with each `defn` function's last
    /// return value.
    pub fn from_interp(interp: &Interp) -> MemoryView {
        MemoryView::from_globals(&interp.globals, |id| interp.last_return(id).cloned())
    }

    /// The entries of `globals`; `last_return` gives the value a `defn`
    /// function (by its definition id) returned from its last call.
    pub fn from_globals(
        globals: &Globals,
        last_return: impl Fn(GlobalId) -> Option<Returned>,
    ) -> MemoryView {
        let entries = globals
            .iter()
            .map(|(name, def)| {
                let mut doc = def.doc.as_deref().map(str::to_string);
                let function = def.value.as_closure().map(|c| {
                    if let Some(d) = &c.proto.docstring {
                        doc = Some(d.to_string());
                    }
                    FnInfo {
                        params: params_text(&c.proto),
                        last_return: c.proto.global.and_then(&last_return),
                    }
                });
                MemoryEntry {
                    name: name.to_string(),
                    value: def.value.clone(),
                    doc,
                    function,
                    hidden: false,
                }
            })
            .collect();
        MemoryView { entries }
    }

    /// Whether nothing is defined.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `name` (without `user/`), if defined.
    pub fn get(&self, name: &str) -> Option<&MemoryEntry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// The parameter vectors as written (`[x] [x y]`; `[%1]` for `#(...)`).
fn params_text(proto: &FnProto) -> String {
    proto.source_params.trim().to_string()
}

/// A signature type as the prelude writes it: colons that start a type name
/// removed (`:string` → `string`, `[:user]` → `[user]`,
/// `{score :float}` → `{score float}`), whitespace collapsed.
pub fn type_text(signature_type: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in signature_type
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
    {
        let starts_name = matches!(prev, None | Some(' ' | '[' | '{' | '(' | ','));
        if !(c == ':' && starts_name) {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_text_drops_leading_colons() {
        assert_eq!(type_text(":string"), "string");
        assert_eq!(type_text("[:user]"), "[user]");
        assert_eq!(
            type_text("{score :float, name :string}"),
            "{score float, name string}"
        );
        assert_eq!(type_text("list[user]"), "list[user]");
    }

    #[test]
    fn memory_view_reads_globals_in_definition_order() {
        let mut interp = Interp::standalone();
        let out = interp.run_program(
            "(def b 2) (defn f \"Adds.\" [x & more] (apply + x more)) (def a \"doc a\" 1) (f 1 2) (def b 3)",
        );
        assert!(out.is_ok());
        let m = MemoryView::from_interp(&interp);
        let names: Vec<&str> = m.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["b", "f", "a"]);
        let f = m.get("f").and_then(|e| e.function.clone());
        assert_eq!(
            f,
            Some(FnInfo {
                params: "[x & more]".into(),
                last_return: Some(Returned::Value(Value::Int(3)))
            })
        );
        assert_eq!(
            m.get("f").and_then(|e| e.doc.clone()).as_deref(),
            Some("Adds.")
        );
        assert_eq!(
            m.get("a").and_then(|e| e.doc.clone()).as_deref(),
            Some("doc a")
        );
        assert!(matches!(m.get("b").map(|e| &e.value), Some(Value::Int(3))));
    }
}
