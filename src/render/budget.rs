//! The token budget (`render.budget_tokens`, `--budget-tokens`): the
//! compressed view's messages for the next turn fit it, degrading in a
//! fixed order when they would not.
//!
//! Tokens are counted by the options' tokenizer (`tokens.rs`): by default
//! as the statistics estimate them, `ceil(chars / 4)` per message summed
//! over the messages (SYSTEM included); with `render.tokenizer` a BPE count
//! with the chat format's framing; and once turns reported the provider's
//! prompt tokens, times the calibration ratio learnt from them, so the
//! budget holds in the provider's own count.
//!
//! **The order** ([`STEPS`]), each step keeping the ones before it:
//!
//! 1. `shorter samples` — samples of at most 2 items and 40 characters;
//! 2. `shortest samples` — 1 item, 20 characters;
//! 3. `fewer tool-call and println lines` — the 10 most recent calls and 8
//!    prints, prints cut at 500 characters, tool arguments at 40, no tool
//!    results or last result (the opt-in extras);
//! 4. `few tool-call and println lines` — 3 calls, 3 prints, cut at 200 and
//!    20 characters;
//! 5. `no tool-call or println lines`;
//! 6. `user/ samples dropped` — user/ values show `= TYPE` only;
//! 7. `data/ samples dropped` — data/ values show their type only.
//!
//! The render uses the first step (none at all when everything fits) whose
//! messages fit. Never dropped: the mission, the names in the tool/, data/
//! and user/ sections, the current error block and the turn indicator; so
//! after step 7 the prompt is as small as it gets. If even that does not
//! fit, the render is that minimum and [`Rendered::budget_error`] is a
//! `limit-error` saying by how many tokens it is over. The statistics list
//! the steps that changed the prompt (`degraded`), how many steps were
//! applied (`degrade_steps`, steps with nothing to cut included) and the
//! budget.
//!
//! A larger budget never shows less: a step shows a part of what the step
//! before it shows, and a larger budget stops at the same step or an
//! earlier one. The budget applies to the compressed view; the
//! uncompressed one is the full history by definition and is only
//! measured (its statistics say when it is over).

use super::options::RenderOptions;
use super::Rendered;
use crate::error::Error;

/// What the compressed view shows beyond the options' limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub user_samples: bool,
    pub data_samples: bool,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            user_samples: true,
            data_samples: true,
        }
    }
}

/// One degradation step: its name (as the statistics list it) and what it
/// changes.
pub type Step = (&'static str, fn(&mut RenderOptions, &mut Shown));

/// The names of the degradation steps, in the order they apply
/// ([`Stats::degraded`](super::Stats::degraded) lists those a render took).
pub fn degrade_step_names() -> impl ExactSizeIterator<Item = &'static str> {
    STEPS.iter().map(|(name, _)| *name)
}

/// The fixed order of degradation.
pub const STEPS: &[Step] = &[
    ("shorter samples", |o, _| {
        o.sample_limit = o.sample_limit.min(2);
        o.sample_printable_limit = o.sample_printable_limit.min(40);
    }),
    ("shortest samples", |o, _| {
        o.sample_limit = o.sample_limit.min(1);
        o.sample_printable_limit = o.sample_printable_limit.min(20);
    }),
    ("fewer tool-call and println lines", |o, _| {
        o.tool_call_limit = o.tool_call_limit.min(10);
        o.println_limit = o.println_limit.min(8);
        o.print_char_limit = o.print_char_limit.min(500);
        o.args_printable_limit = o.args_printable_limit.min(40);
        o.show_tool_results = false;
        o.show_last_result = false;
    }),
    ("few tool-call and println lines", |o, _| {
        o.tool_call_limit = o.tool_call_limit.min(3);
        o.println_limit = o.println_limit.min(3);
        o.print_char_limit = o.print_char_limit.min(200);
        o.args_printable_limit = o.args_printable_limit.min(20);
        o.args_limit = o.args_limit.min(2);
    }),
    ("no tool-call or println lines", |o, _| {
        o.tool_call_limit = 0;
        o.println_limit = 0;
        o.note_repeated_tool_calls = false;
    }),
    ("user/ samples dropped", |_, s| s.user_samples = false),
    ("data/ samples dropped", |_, s| s.data_samples = false),
];

/// Renders with the fewest degradation steps whose messages fit `budget`;
/// `render` renders one set of options. Records the budget, the steps
/// applied and, when even all of them are not enough, by how much.
pub fn fit(
    budget: usize,
    base: &RenderOptions,
    render: impl Fn(&RenderOptions, Shown) -> Rendered,
) -> Rendered {
    let mut o = base.clone();
    let mut shown = Shown::default();
    let mut rendered = render(&o, shown);
    let mut degraded = Vec::new();
    let mut steps = 0;
    for (name, step) in STEPS {
        if count(&mut rendered, base) <= budget {
            break;
        }
        step(&mut o, &mut shown);
        steps += 1;
        let next = render(&o, shown);
        if next.messages != rendered.messages {
            degraded.push(name.to_string());
        }
        rendered = next;
    }
    let used = count(&mut rendered, base);
    rendered.stats.budget_tokens = Some(budget);
    rendered.stats.degrade_steps = steps;
    rendered.stats.degraded = degraded;
    rendered.stats.over_budget_by = used.checked_sub(budget).filter(|n| *n > 0);
    rendered
}

/// Counts `rendered`'s messages as the budget does (the options' tokenizer,
/// times their calibration), records the figures in its statistics, and
/// returns the number compared with the budget.
pub fn count(rendered: &mut Rendered, o: &RenderOptions) -> usize {
    let counted = o.tokenizer.count(&rendered.messages);
    let used = super::tokens::calibrated(counted, o.calibration);
    let stats = &mut rendered.stats;
    stats.tokenizer = Some(o.tokenizer.name().to_string());
    stats.tokens_counted = Some(counted);
    stats.calibration = o.calibration.map(|c| c.ratio);
    stats.calibration_offset = o.calibration.map(|c| c.offset);
    stats.tokens_budgeted = Some(used);
    used
}

impl Rendered {
    /// The `limit-error` of a render over its token budget even after every
    /// degradation step (`None` when it fits or has no budget).
    pub fn budget_error(&self) -> Option<Error> {
        let over = self.stats.over_budget_by?;
        let budget = self.stats.budget_tokens?;
        let how = if self.stats.strategy == super::Strategy::Uncompressed.name() {
            "the uncompressed view (never degraded)"
        } else {
            "the prompt, even with every degradation step,"
        };
        Some(
            Error::limit(format!(
                "{how} needs {} tokens, {over} more than the budget of {budget} tokens",
                self.stats
                    .tokens_budgeted
                    .unwrap_or(self.stats.tokens_estimate)
            ))
            .with_hint(
                "raise the budget (render.budget_tokens, --budget-tokens), or shorten the mission, data names or the program that failed",
            ),
        )
    }
}
