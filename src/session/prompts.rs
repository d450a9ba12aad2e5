//! The prompts of a session ([`Session::prompts`], [`Session::next_prompt`]):
//! recorded after every turn as what their render reads, rendered when
//! asked for.
//!
//! Rendering the next prompt is most of a short turn's work, and a
//! rendered prompt carries its own copy of the SYSTEM text; a session that
//! runs turns and never reads its prompts (an embedder's REPL, a benchmark,
//! `ptc mcp`) should pay for neither. So each prompt is recorded as a
//! [`State`]: the render settings in force (tools, options, protocol;
//! one `Arc` shared by every prompt recorded with the same settings), the
//! functions' last return values and the hidden-data marks at that moment.
//! Everything else a render reads is already kept and never changes once
//! made: the mission, data, `max_turns`, the view, and the turns before the
//! prompt (`Turn::memory` is the user/ namespace the render shows).
//!
//! # Rules (the session's, `spec/rendering.md` R-01 makes them exact)
//!
//! * **P-1** Prompt k (for turn k+1) is rendered from its [`State`] and the
//!   first k turns, with the options recorded in it: byte for byte what
//!   rendering it when turn k ended gave (a render is pure, R-01).
//! * **P-2** It is rendered at the first [`Session::next_prompt`] and kept
//!   while it is the next prompt; when the next turn is recorded its
//!   messages are dropped (its `State` stays), so a live session holds at
//!   most one rendered prompt.
//! * **P-3** With a token budget the prompt is rendered when it is
//!   recorded and kept for the session's life: its token count calibrates
//!   later budgets ([`Session::token_calibration`]), and the calibration
//!   depends on the earlier prompts and reports, which must not be derived
//!   again recursively.
//! * **P-4** [`Session::prompts`] renders the prompts it does not hold and
//!   keeps the whole list until the session next changes (a turn,
//!   truncation, a change of settings).

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::messages::{render_input_at, render_messages, Message, RenderOptions, View};
use super::{Protocol, Session};
use crate::analyze::expr::GlobalId;
use crate::eval::hidden::HiddenMarks;
use crate::eval::Globals;
use crate::render::{self, ToolInfo as RenderTool};
use crate::value::{Returned, Value};

/// Every prompt of a session, oldest first.
#[derive(Default)]
pub(crate) struct Prompts {
    slots: Vec<State>,
    /// The messages of the newest prompt, once asked for (P-2).
    next: OnceLock<Vec<Message>>,
    /// The prompts rendered when recorded (P-3), by index.
    kept: Vec<(usize, Vec<Message>)>,
    /// [`Session::prompts`]: every prompt, rendered when asked for and
    /// dropped at the next change (P-4).
    all: OnceLock<Vec<Vec<Message>>>,
    /// The settings the next recorded prompt shares; `None` after a change.
    settings: Option<Arc<Settings>>,
}

/// What a prompt's render reads that the session does not keep otherwise.
struct State {
    settings: Arc<Settings>,
    /// `Interp::last_return` of every function that has one (shared with
    /// the prompt before when it holds the same numbers).
    returns: Arc<[(GlobalId, Returned)]>,
    /// `Interp::hidden`, when anything is marked.
    hidden: Option<Arc<HiddenMarks>>,
}

/// The render settings a prompt was recorded with.
struct Settings {
    tools: Vec<RenderTool>,
    options: RenderOptions,
    protocol: Protocol,
}

impl Prompts {
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Keeps the first `n` prompts.
    pub(crate) fn truncate(&mut self, n: usize) {
        if n < self.slots.len() {
            self.slots.truncate(n);
            self.kept.retain(|(k, _)| *k < n);
            self.next.take();
            self.all.take();
        }
    }

    /// Drops the newest prompt.
    pub(crate) fn pop(&mut self) {
        self.truncate(self.slots.len().saturating_sub(1));
    }

    /// Prompt `k`, when it is held.
    fn held(&self, k: usize) -> Option<&[Message]> {
        if let Some((_, m)) = self.kept.iter().find(|(i, _)| *i == k) {
            return Some(m);
        }
        if k + 1 == self.slots.len() {
            return self.next.get().map(Vec::as_slice);
        }
        None
    }

    /// The render settings changed (tools, options, protocol): the next
    /// prompt recorded takes them afresh.
    pub(crate) fn settings_changed(&mut self) {
        self.settings = None;
    }
}

impl Session {
    /// The messages produced for every turn so far and the next one, in
    /// the session's own view ([`View::of`]): index k holds the messages
    /// for turn k+1, exactly as they were (or would have been) sent when
    /// turn k ended. Prompts are rendered when first asked for
    /// (`session/prompts.rs`, rules P-1–P-4): this renders the ones the
    /// session does not hold, and keeps the list until the next turn.
    pub fn prompts(&self) -> &[Vec<Message>] {
        self.prompts.all.get_or_init(|| {
            (0..self.prompts.slots.len())
                .map(|k| self.prompt_at(k).into_owned())
                .collect()
        })
    }

    /// The messages for the next turn (after the last turn that ran; once
    /// the session has ended, what the next turn would have been sent);
    /// rendered at the first call after a turn, then kept.
    pub fn next_prompt(&self) -> &[Message] {
        match self.prompts.slots.len().checked_sub(1) {
            Some(k) => match self.prompts.kept.iter().find(|(i, _)| *i == k) {
                Some((_, m)) => m,
                None => self.prompts.next.get_or_init(|| self.render_prompt(k)),
            },
            None => &[],
        }
    }

    /// Prompt `k` (for turn k+1): held, or rendered now.
    pub(crate) fn prompt_at(&self, k: usize) -> Cow<'_, [Message]> {
        match self.prompts.held(k) {
            Some(m) => Cow::Borrowed(m),
            None => Cow::Owned(self.render_prompt(k)),
        }
    }

    /// Renders prompt `k` from its state and the first `k` turns (P-1).
    fn render_prompt(&self, k: usize) -> Vec<Message> {
        let state = &self.prompts.slots[k];
        let turns = &self.turns[..k];
        let globals = turns.last().map_or_else(Globals::new, |t| t.memory.clone());
        let last_return = |id: GlobalId| {
            state
                .returns
                .iter()
                .find(|(g, _)| *g == id)
                .map(|(_, v)| v.clone())
        };
        let hidden = state.hidden.as_deref().cloned().unwrap_or_default();
        let settings = &state.settings;
        let input = render_input_at(
            self,
            turns,
            &globals,
            last_return,
            hidden,
            settings.tools.clone(),
            settings.protocol,
        );
        render::to_messages(&input, &settings.options, View::of(self).strategy(self)).messages
    }

    /// Records the prompt for the next turn (after a turn, or when the
    /// session is built); renders it now only under a token budget (P-3).
    pub(super) fn record_next_prompt(&mut self) {
        if self.open_ended {
            return;
        }
        self.prompts.all.take();
        self.prompts.next.take();
        let settings = match &self.prompts.settings {
            Some(s) => s.clone(),
            None => {
                let s = Arc::new(Settings {
                    tools: super::messages::render_tools(self),
                    options: self.render.clone(),
                    protocol: self.protocol,
                });
                self.prompts.settings = Some(s.clone());
                s
            }
        };
        let interp = &self.interp;
        let current = interp
            .fn_returns
            .iter()
            .enumerate()
            .filter_map(|(id, v)| Some((id as GlobalId, v.as_ref()?)));
        // Compared before anything is copied: most turns leave them alone.
        let returns = match self.prompts.slots.last() {
            Some(before) if same_numbers(&before.returns, current.clone()) => {
                before.returns.clone()
            }
            _ => current.map(|(id, v)| (id, v.clone())).collect(),
        };
        let hidden = interp
            .hidden
            .active()
            .then(|| Arc::new(interp.hidden.clone()));
        super::reserve_gently(&mut self.prompts.slots);
        self.prompts.slots.push(State {
            settings,
            returns,
            hidden,
        });
        if self.render.budget_tokens.is_some() {
            let k = self.prompts.slots.len() - 1;
            let messages = render_messages(self, View::of(self));
            self.prompts.kept.push((k, messages));
        }
    }

    /// Records the prompt of the turn not yet run again (after a change of
    /// how it is rendered); the prompts already sent stay.
    pub(super) fn rerender_next_prompt(&mut self) {
        self.prompts.settings_changed();
        self.prompts.truncate(self.turns.len());
        self.record_next_prompt();
    }

    /// The provider's prompt-token count over the budget's own count of the
    /// prompts it was sent, from the recent turns that reported one
    /// (`render/tokens.rs`); `None` without a budget or a report.
    pub fn token_calibration(&self) -> Option<crate::render::tokens::Calibration> {
        self.render.budget_tokens?;
        let tokenizer = self.render.tokenizer;
        // Only the newest reports calibrate: count just their prompts
        // (tokenizing every earlier prompt on each render grows with the
        // session).
        let mut pairs: Vec<(u64, usize)> = self
            .turns
            .iter()
            .rev()
            .filter_map(|t| {
                let reported = t.llm.as_ref()?.usage.input_tokens?;
                let k = t.number - 1;
                (k < self.prompts.len()).then(|| (reported, self.prompt_at(k)))
            })
            .filter(|(_, sent)| !sent.is_empty())
            .take(crate::render::tokens::CALIBRATION_TURNS)
            .map(|(reported, sent)| (reported, tokenizer.count(&sent)))
            .collect();
        pairs.reverse();
        crate::render::tokens::calibration(pairs.into_iter())
    }
}

/// Whether `a` and `b` are the same functions' returns, all of them nil,
/// booleans or numbers of the same bits, or collections of the same kind
/// and size (a cheap test: other values are not compared, and then not
/// shared).
fn same_numbers<'v>(
    a: &[(GlobalId, Returned)],
    mut b: impl Iterator<Item = (GlobalId, &'v Returned)>,
) -> bool {
    a.iter().all(|(i, x)| {
        b.next().is_some_and(|(j, y)| {
            *i == j
                && match (x, y) {
                    (Returned::Value(x), Returned::Value(y)) => match (x, y) {
                        (Value::Nil, Value::Nil) => true,
                        (Value::Bool(p), Value::Bool(q)) => p == q,
                        (Value::Int(p), Value::Int(q)) => p == q,
                        (Value::Float(p), Value::Float(q)) => p.to_bits() == q.to_bits(),
                        _ => false,
                    },
                    (Returned::List(p), Returned::List(q))
                    | (Returned::Map(p), Returned::Map(q))
                    | (Returned::Set(p), Returned::Set(q)) => p == q,
                    _ => false,
                }
        })
    }) && b.next().is_none()
}
