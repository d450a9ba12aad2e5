//! Session → chat messages: adapts a [`Session`] to the pure renderer
//! ([`crate::render::to_messages`], `rendering.md`), the one place that
//! decides what the LLM sees for its next turn.

use crate::render::{
    self, ErrorInfo, MemoryView, RenderInput, Strategy, ToolInfo as RenderTool, TurnRecord,
};
pub use crate::render::{Feedback, Message, ProgramCall, RenderOptions, Rendered, Role, Stats};

use super::Session;
use crate::analyze::expr::GlobalId;
use crate::eval::hidden::HiddenMarks;
use crate::eval::Globals;
use crate::value::Returned;

/// Which perspective to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Single-user-coalesced (§3).
    Compressed,
    /// Full history (§7).
    Uncompressed,
    /// The turns themselves, for people ([`turns_text`]); its messages are
    /// those of the session's own view.
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

    /// The view named `s` on the command line (`compressed`,
    /// `uncompressed`); `None` for any other name.
    pub fn parse(s: &str) -> Option<View> {
        match s {
            "compressed" => Some(View::Compressed),
            "uncompressed" => Some(View::Uncompressed),
            "turns" => Some(View::Turns),
            _ => None,
        }
    }

    pub(super) fn strategy(self, session: &Session) -> Strategy {
        match self {
            View::Compressed => Strategy::SingleUserCoalesced,
            View::Uncompressed => Strategy::Uncompressed,
            View::Turns => View::of(session).strategy(session),
        }
    }
}

/// What the renderer needs from a session.
pub fn render_input(session: &Session) -> RenderInput {
    render_input_of(session, session.turns())
}

/// [`render_input`] with only `turns` of the session's turns.
fn render_input_of(session: &Session, turns: &[super::Turn]) -> RenderInput {
    let interp = session.interp();
    render_input_at(
        session,
        turns,
        &interp.globals,
        |id| interp.last_return(id).cloned(),
        interp.hidden.clone(),
        render_tools(session),
        session.protocol(),
    )
}

/// The session's tools as the renderer takes them.
pub(super) fn render_tools(session: &Session) -> Vec<RenderTool> {
    let approves_writes = session.approves_writes();
    session
        .tools()
        .iter()
        .map(|t| RenderTool {
            writes: t.acts.writes(),
            approval: t.acts.approval || (approves_writes && t.acts.writes()),
            name: t.name.clone(),
            params: t
                .signature
                .params
                .iter()
                .map(|p| (p.name.clone(), p.ty_display.clone()))
                .collect(),
            returns: t.signature.returns_display.clone(),
            description: t.description.clone(),
        })
        .collect()
}

/// What the renderer needs to render the prompt after `turns`: the
/// session's mission, data and `max_turns`, with user/ as `globals`, the
/// functions' last return values from `last_return`, the hidden-data
/// marks, tools and protocol given (`prompts.rs` records them per prompt).
pub(super) fn render_input_at(
    session: &Session,
    turns: &[super::Turn],
    globals: &Globals,
    last_return: impl Fn(GlobalId) -> Option<Returned> + Copy,
    hidden: HiddenMarks,
    tools: Vec<RenderTool>,
    protocol: super::Protocol,
) -> RenderInput {
    RenderInput {
        mission: session.mission().to_string(),
        tools,
        data: session
            .data()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        max_turns: session.max_turns(),
        turns: turns
            .iter()
            .map(|t| TurnRecord {
                number: t.number,
                raw_response: t.raw_response.clone(),
                program: t.program.clone(),
                result: t.result.clone().map_err(|e| ErrorInfo::from(&e)),
                prints: t.prints.clone(),
                tool_calls: t.tool_calls.clone(),
                memory: Some(MemoryView::from_globals(&t.memory, last_return)),
                notes: t.notes.clone(),
                called: t.calls.is_some() && t.issue.is_none() && t.program.is_some(),
            })
            .collect(),
        memory: MemoryView::from_globals(globals, last_return),
        hidden,
        protocol,
    }
}

/// Messages and statistics for the session's next turn in `view`.
pub fn render(session: &Session, view: View) -> Rendered {
    let calibration = session.token_calibration();
    let options = if calibration.is_some() {
        std::borrow::Cow::Owned(RenderOptions {
            calibration,
            ..session.render_options().clone()
        })
    } else {
        std::borrow::Cow::Borrowed(session.render_options())
    };
    render::to_messages(&render_input(session), &options, view.strategy(session))
}

/// The messages for the session's next turn in `view`.
pub fn render_messages(session: &Session, view: View) -> Vec<Message> {
    render(session, view).messages
}

/// The turns view: every turn's raw response, program, result, prints, tool
/// calls and memory diff.
pub fn turns_text(session: &Session) -> String {
    render::turns_view(&render_input(session))
}

/// The feedback of the session's last turn, as a front end that runs one
/// program at a time shows it (`ptc mcp`): the compressed view's text for
/// that turn, hidden data redacted ([`crate::render::turn_feedback`]).
/// `None` before the first turn.
pub fn turn_feedback(session: &Session) -> Option<Feedback> {
    let last = session.turns().len().checked_sub(1)?;
    let turns = &session.turns()[last..];
    let position = turns[0].error().and_then(|e| e.line_col());
    render::turn_feedback(
        &render_input_of(session, turns),
        session.render_options(),
        position,
    )
}

/// The `tool/`, `data/` and `user/` namespaces as the compressed view lists
/// them, with samples, hidden data redacted ([`crate::render::listing`]).
pub fn listing(session: &Session) -> String {
    render::listing(&render_input_of(session, &[]), session.render_options())
}
