//! Turns → chat messages (`rendering.md`): the one place that decides what
//! the LLM sees for its next turn.
//!
//! This is a minimal stand-in until the rendering work lands: a placeholder
//! SYSTEM message; the compressed view is one USER message with the mission
//! and the turn indicator (R-60, R-03); the uncompressed view follows R-80's
//! shape (mission, then each turn's raw response and its feedback) without
//! the tool/ and data/ sections. [`render`] is a pure function of the
//! session (R-01).

use serde::{Deserialize, Serialize};

use super::{Session, Status};
use crate::format::to_clojure;

/// The R-02 options (`render` in a session file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    pub println_limit: usize,
    pub tool_call_limit: usize,
    pub sample_limit: usize,
    pub sample_printable_limit: usize,
    pub args_limit: usize,
    pub args_printable_limit: usize,
    pub print_char_limit: usize,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            println_limit: 15,
            tool_call_limit: 20,
            sample_limit: 3,
            sample_printable_limit: 80,
            args_limit: 3,
            args_printable_limit: 60,
            print_char_limit: 2000,
        }
    }
}

/// Who says a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One chat message (the shape every chat API accepts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// Which perspective to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Single-user-coalesced (§3).
    Compressed,
    /// Full history (§7).
    Uncompressed,
    /// The turns themselves (for people); its messages are those of the
    /// session's own view.
    Turns,
}

impl View {
    /// The view the session sends to the LLM (`compression`).
    pub fn of(session: &Session) -> View {
        if session.compression() {
            View::Compressed
        } else {
            View::Uncompressed
        }
    }

    pub fn parse(s: &str) -> Option<View> {
        match s {
            "compressed" => Some(View::Compressed),
            "uncompressed" => Some(View::Uncompressed),
            "turns" => Some(View::Turns),
            _ => None,
        }
    }
}

/// Numbers about one render (R-90).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderStats {
    pub turns_rendered: usize,
    pub tool_calls_total: usize,
    pub tool_calls_shown: usize,
    pub tool_calls_dropped: usize,
    pub printlns_total: usize,
    pub printlns_shown: usize,
    pub printlns_dropped: usize,
    pub error_turns_collapsed: usize,
    pub characters: usize,
    /// Estimated tokens of each message (characters / 4, rounded up).
    pub estimated_tokens: Vec<usize>,
}

/// Messages and their statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub messages: Vec<Message>,
    pub stats: RenderStats,
}

/// Placeholder SYSTEM text until the language reference prompt exists.
const SYSTEM_PLACEHOLDER: &str =
    "You write PTC-Lisp (a safe Clojure subset) to complete the mission. \
Answer with one ```clojure code block. Call (return value) when done or (fail reason) to give up.";

/// The messages for the session's next turn in `view`.
pub fn render_messages(session: &Session, view: View) -> Vec<Message> {
    render(session, view).messages
}

/// The turn indicator (R-60, R-03), if any.
fn turn_indicator(session: &Session) -> Option<String> {
    if session.max_turns() == 1 || !matches!(session.status(), Status::Running) {
        return None;
    }
    match session.turns_left() {
        0 => None,
        1 => Some("FINAL TURN - you must call (return result) or (fail reason) now.".into()),
        n => Some(format!("Turns left: {n}")),
    }
}

/// Messages and statistics for the session's next turn in `view`.
pub fn render(session: &Session, view: View) -> Rendered {
    let view = match view {
        View::Turns => View::of(session),
        v => v,
    };
    let turns = session.turns();
    let indicator = turn_indicator(session);
    let mut messages = vec![Message::new(Role::System, SYSTEM_PLACEHOLDER)];
    let ok_turns = turns.iter().filter(|t| t.success);
    let tool_calls_total: usize = ok_turns.clone().map(|t| t.tool_calls.len()).sum();
    let printlns_total: usize = ok_turns.map(|t| t.prints.len()).sum();
    let mut stats = RenderStats {
        turns_rendered: turns.len(),
        tool_calls_total,
        tool_calls_shown: tool_calls_total,
        printlns_total,
        printlns_shown: printlns_total,
        ..RenderStats::default()
    };
    match view {
        View::Compressed | View::Turns => {
            let mut user = session.mission().to_string();
            if let Some(ind) = &indicator {
                user.push_str("\n\n");
                user.push_str(ind);
            }
            stats.error_turns_collapsed = match turns.last() {
                Some(t) if !t.success => turns.iter().filter(|t| !t.success).count() - 1,
                _ => turns.iter().filter(|t| !t.success).count(),
            };
            messages.push(Message::new(Role::User, user));
        }
        View::Uncompressed => {
            let mut first = session.mission().to_string();
            if turns.is_empty() {
                if let Some(ind) = &indicator {
                    first.push_str("\n\n");
                    first.push_str(ind);
                }
            }
            messages.push(Message::new(Role::User, first));
            for (i, t) in turns.iter().enumerate() {
                messages.push(Message::new(Role::Assistant, t.raw_response.clone()));
                let mut feedback = match &t.result {
                    Ok(v) => format!("Result: {}", to_clojure(v, Some(10), Some(500)).0),
                    Err(e) => {
                        let mut s = format!("Error: {}", e.message());
                        if let Some(h) = e.hint() {
                            s.push('\n');
                            s.push_str(h);
                        }
                        s
                    }
                };
                if !t.prints.is_empty() {
                    feedback.push_str("\n\n;; Output:\n");
                    feedback.push_str(&t.prints.join("\n"));
                }
                if i + 1 == turns.len() {
                    if let Some(ind) = &indicator {
                        feedback.push_str("\n\n");
                        feedback.push_str(ind);
                    }
                }
                messages.push(Message::new(Role::User, feedback));
            }
            // uncompressed shows every print and call, failed turns' too
            stats.tool_calls_total = turns.iter().map(|t| t.tool_calls.len()).sum();
            stats.tool_calls_shown = stats.tool_calls_total;
            stats.printlns_total = turns.iter().map(|t| t.prints.len()).sum();
            stats.printlns_shown = stats.printlns_total;
        }
    }
    stats.characters = messages.iter().map(|m| m.content.chars().count()).sum();
    stats.estimated_tokens = messages
        .iter()
        .map(|m| m.content.chars().count().div_ceil(4))
        .collect();
    Rendered { messages, stats }
}
