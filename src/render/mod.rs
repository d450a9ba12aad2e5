//! Rendering the next prompt: session turns → chat messages
//! (`spec/rendering.md`; rule ids R-… refer to it).
//!
//! [`to_messages`] is pure (R-01): the same [`RenderInput`], options and
//! strategy always give the same messages, byte for byte. Two strategies:
//! [`Strategy::SingleUserCoalesced`] (the compressed view, `[SYSTEM, USER]`,
//! §3–§5) and [`Strategy::Uncompressed`] (the full history, R-80). A
//! single-shot session (`max_turns == 1`) is always rendered uncompressed and
//! without a turn indicator (R-03). [`turns_view`] is the debugging view of
//! every turn. [`system_prompt`] is the static SYSTEM text.
//!
//! Files: `input.rs` (the input model, [`MemoryView::from_interp`]),
//! `options.rs` (R-02), `layout.rs` (R-20 entry layout, R-26 docstrings,
//! R-28 samples, R-29 labels), `sections.rs` (each USER section),
//! `compressed.rs`, `uncompressed.rs`, `budget.rs` (the token budget), `redact.rs` (R-23), `loops.rs` (error loops,
//! repeated tool calls), `turns.rs`, `stats.rs` (R-90),
//! `system.rs`, `feedback.rs` (one turn's feedback and the namespace
//! listing, for front ends that run one program at a time: `ptc mcp`).
//!
//! # Decisions where the spec is silent
//!
//! * **No turn left** (`turns.len() >= max_turns`): no turn indicator (R-60
//!   only defines `left >= 1`; there is no next turn to announce).
//! * **Mission**: verbatim except trailing newlines (a mission ending in a
//!   newline would otherwise leave two blank lines); an empty one is left
//!   out like any empty section (R-12).
//! * **Docstrings** (R-26) also get `"` escaped as `\"`, so the quoted text
//!   stays well-formed; a docstring that is empty after cleaning counts as
//!   none. Tool descriptions are cleaned the same way (a newline in one would
//!   break the line layout). A tool without a return type shows `-> any`.
//! * **Functions in the prelude**: a value is shown as a function line
//!   (R-25) when it is a user closure — made by `defn`, or by `(def f (fn …))`
//!   (its parameters as written; a return type only for `defn`, which is
//!   what the interpreter records). Other function values (`(def inc2
//!   (partial + 2))`) are values: `inc2 = #fn[partial]`, no sample. `def`'s
//!   docstring is used for a function when the `fn` has none. A `#(...)`
//!   function has no written parameters: it shows `(f [%1])`.
//! * **Samples beyond R-28**: a regex, symbol or var shows itself; an
//!   infinite sequence (type `list[infinite]`) shows its first item, which is
//!   known without running anything.
//! * **Hidden data** (R-23) is kept out of every USER message, also when a
//!   program passes it to a tool, defines or prints it, and so are values
//!   derived from it (shown as `[hidden]`): see `redact.rs` and
//!   `eval/hidden.rs` for exactly what is covered.
//! * The `turns` view is for people: it shows hidden data as it is.
//! * **Hints** (R-50, R-80): `MESSAGE` is followed by a line `Hint: HINT`.
//! * **Output entries** (R-33): an empty `println` shows as an empty line; the
//!   cut is counted in characters (Unicode scalar values).
//! * **Protocol** ([`Protocol`]): under the tool protocol the SYSTEM
//!   prompt's one line on how to reply asks for a `run_ptc_lisp` call
//!   ([`system_prompt_for`]); the compressed view is otherwise unchanged,
//!   and the uncompressed view renders program calls as native tool-call
//!   pairs (rules U-T1–U-T3 in `uncompressed.rs`). [`Role::Tool`] messages
//!   are redacted like USER ones.
//! * **Uncompressed** (R-80): tool calls are not listed (they are in the
//!   ASSISTANT messages' code); the three extra options apply to the
//!   compressed view only. The two loop notes (`loops.rs`, on by default)
//!   apply to both: the error-loop note follows `Error:`/`Hint:` (in the
//!   error block, or in the feedback of each turn that repeats the error
//!   before it), the repeated-tool-calls note follows the tool calls
//!   section (compressed, for the last turn) or the turn's `Result:`/`Error:`
//!   lines (uncompressed, for each turn).
//! * **`show_tool_results`**: ` -> RESULT` printed with the argument limits;
//!   a failed call shows ` -> error: MESSAGE` (message cut at
//!   `args_printable_limit` characters).
//! * **`keep_failed_turn_calls`**: calls of failed turns are listed in order
//!   among the others, marked ` (turn N failed)`.
//! * **`show_last_result`**: `;; Last result: VALUE` (limits of R-80's
//!   `Result:`) after the Output section, when the last turn succeeded and its
//!   value is *not stored*: the value is not a var (a program ending in
//!   `def`/`defn` returns `#'name`), not nil (`println`, `doseq`… return nil:
//!   noise), and not equal to the value of any user/ definition (the prelude
//!   already shows it).
//! * **Statistics** (R-90): `shown + dropped = total` for tool calls and
//!   printlns, where `total` counts what the view could show: in the
//!   compressed view the calls and prints of successful turns (and failed
//!   turns' calls when `keep_failed_turn_calls` lists them); what failed
//!   turns did otherwise is counted apart (`*_in_failed_turns`), never as
//!   dropped. In the uncompressed view everything counts as shown (it is
//!   all in the history). Exact token counts are computed on
//!   request ([`Rendered::count_exact_tokens`]).

pub(crate) mod budget;
mod compressed;
mod feedback;
pub(crate) mod input;
pub(crate) mod layout;
pub(crate) mod loops;
pub(crate) mod options;
mod redact;
pub(crate) mod sections;
pub(crate) mod stats;
pub(crate) mod system;
pub mod tokens;
mod turns;
mod uncompressed;

use serde::{Deserialize, Serialize};

pub use budget::degrade_step_names;
pub use feedback::{listing, turn_feedback, Feedback, EMPTY_LISTING};
pub use input::{
    type_text, ErrorInfo, FnInfo, MemoryEntry, MemoryView, RenderInput, ToolCall, ToolInfo,
    TurnRecord,
};
pub use options::RenderOptions;
pub use stats::{exact_tokens, ExactTokens, MessageStats, Stats};
pub use system::{system_prompt, system_prompt_for};
pub use tokens::Tokenizer;
pub use turns::turns_view;
pub use uncompressed::{call_id, EMPTY_REPLY};

/// How turns become messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// `[SYSTEM, USER]`: mission, namespaces and a summary of the history.
    #[default]
    SingleUserCoalesced,
    /// The full history as USER/ASSISTANT pairs.
    Uncompressed,
}

impl Strategy {
    /// The strategy's name as statistics and `--view` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::SingleUserCoalesced => "single-user-coalesced",
            Strategy::Uncompressed => "uncompressed",
        }
    }
}

/// How the model hands over its program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// In a ```clojure block of the reply text (R-70).
    #[default]
    Text,
    /// As the `program` argument of a call to the one function tool
    /// [`PROGRAM_TOOL`].
    Tool,
}

impl Protocol {
    /// `text` or `tool`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Text => "text",
            Protocol::Tool => "tool",
        }
    }

    /// The protocol named `s` (`text`, `tool`).
    pub fn parse(s: &str) -> Option<Protocol> {
        match s {
            "text" => Some(Protocol::Text),
            "tool" => Some(Protocol::Tool),
            _ => None,
        }
    }

    /// Whether this is the default (for `skip_serializing_if`).
    pub fn is_text(&self) -> bool {
        *self == Protocol::Text
    }
}

/// The name of the function tool of [`Protocol::Tool`].
pub const PROGRAM_TOOL: &str = "run_ptc_lisp";

/// Who a message is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The fixed instructions (the language reference, rules).
    System,
    /// The mission, the memory and what the last programs did.
    User,
    /// The LLM's own earlier responses (uncompressed view).
    Assistant,
    /// What a program call of the tool protocol did (uncompressed view):
    /// the answer to the assistant message's [`Message::tool_call`].
    Tool,
}

impl Role {
    /// `system`, `user` or `assistant`.
    pub fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// One chat message, in the shape every chat API accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who the message is from.
    pub role: Role,
    /// The text.
    pub content: String,
    /// Assistant messages of the tool protocol: the program call the
    /// model made (rendered as the provider's native tool call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<ProgramCall>,
    /// [`Role::Tool`] messages: the id of the call they answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// A call of [`PROGRAM_TOOL`] in the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramCall {
    /// `ptc_turn_N` for turn N (the model's own ids are not kept: ids are
    /// free text to both providers, and fixed ones keep prompts pure).
    pub id: String,
    /// The program, the call's `program` argument.
    pub program: String,
}

impl Message {
    /// A SYSTEM message.
    pub fn system(content: String) -> Message {
        Message {
            role: Role::System,
            content,
            tool_call: None,
            tool_call_id: None,
        }
    }
    /// A USER message.
    pub fn user(content: String) -> Message {
        Message {
            role: Role::User,
            content,
            tool_call: None,
            tool_call_id: None,
        }
    }
    /// An ASSISTANT message.
    pub fn assistant(content: String) -> Message {
        Message {
            role: Role::Assistant,
            content,
            tool_call: None,
            tool_call_id: None,
        }
    }
    /// An ASSISTANT message that calls [`PROGRAM_TOOL`] with `program`
    /// (`content` the prose beside the call, maybe empty).
    pub fn program_call(content: String, id: String, program: String) -> Message {
        Message {
            tool_call: Some(ProgramCall { id, program }),
            ..Message::assistant(content)
        }
    }
    /// The answer to the program call `id`.
    pub fn tool_result(id: String, content: String) -> Message {
        Message {
            role: Role::Tool,
            content,
            tool_call: None,
            tool_call_id: Some(id),
        }
    }
}

/// The messages for the next turn, with statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rendered {
    /// The chat messages to send, SYSTEM first.
    pub messages: Vec<Message>,
    /// What the messages hold and how big they are.
    pub stats: Stats,
}

impl Rendered {
    /// Adds exact BPE token counts to each message's statistics (no-op
    /// without the `tokens` feature).
    pub fn count_exact_tokens(&mut self) {
        for (m, s) in self.messages.iter().zip(self.stats.messages.iter_mut()) {
            s.tokens = exact_tokens(&m.content);
        }
    }
}

/// The messages the LLM gets for the next turn (R-01: pure). With a token
/// budget (`options.budget_tokens`), the compressed view degrades to fit
/// (`budget.rs`); see [`Rendered::budget_error`] for a minimum that does
/// not.
pub fn to_messages(input: &RenderInput, options: &RenderOptions, strategy: Strategy) -> Rendered {
    let redacted = redact::redact_input(input);
    let once = |o: &RenderOptions, shown: budget::Shown| {
        let mut rendered = if input.max_turns == 1 {
            uncompressed::render(&redacted, o, true)
        } else {
            match strategy {
                Strategy::SingleUserCoalesced => compressed::render(&redacted, o, shown),
                Strategy::Uncompressed => uncompressed::render(&redacted, o, false),
            }
        };
        if matches!(redacted, std::borrow::Cow::Owned(_)) {
            for m in &mut rendered.messages {
                if matches!(m.role, Role::User | Role::Tool) {
                    m.content = redact::redact_text(input, std::mem::take(&mut m.content));
                }
            }
            rendered.stats.measure(&rendered.messages);
        }
        rendered
    };
    let compressed = input.max_turns != 1 && strategy == Strategy::SingleUserCoalesced;
    match options.budget_tokens {
        Some(budget) if compressed => budget::fit(budget, options, once),
        Some(budget) => {
            let mut rendered = once(options, budget::Shown::default());
            budget::count(&mut rendered, options);
            rendered.stats.budget_tokens = Some(budget);
            rendered.stats.over_budget_by = rendered
                .stats
                .tokens_budgeted
                .and_then(|n| n.checked_sub(budget))
                .filter(|n| *n > 0);
            rendered
        }
        None => once(options, budget::Shown::default()),
    }
}
