//! Render statistics: what was shown, what was dropped, and how big
//! each message is.
//!
//! Every render estimates tokens as `ceil(chars / 4)`. Exact BPE counts for
//! OpenAI's `cl100k_base` and `o200k_base` come from `tiktoken-rs` (its
//! vocabularies are compiled into the binary: no network) behind the
//! default `tokens` cargo feature. They cost a vocabulary load on first use
//! (a fraction of a second), so they are computed only on request:
//! [`Rendered::count_exact_tokens`](super::Rendered::count_exact_tokens).

use serde::{Deserialize, Serialize};

use super::{Message, Role};

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Numbers about one render.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// `single-user-coalesced` or `uncompressed`.
    pub strategy: String,
    /// Turns the messages show (the uncompressed view shows them all).
    pub turns_rendered: usize,
    /// Tool calls the view could show: those of successful turns (and of
    /// failed ones when the view lists them: `keep_failed_turn_calls`, or
    /// the uncompressed history).
    pub tool_calls_total: usize,
    /// Tool calls visible to the LLM (listed, or in the history's code).
    pub tool_calls_shown: usize,
    /// `total - shown`: cut by the FIFO limit.
    pub tool_calls_dropped: usize,
    /// Tool calls of failed turns the view never lists (not in `total`).
    #[serde(default)]
    pub tool_calls_in_failed_turns: usize,
    /// `println` entries the view could show (those of successful turns in
    /// the compressed view, of every turn in the uncompressed one).
    pub printlns_total: usize,
    /// `println` entries the messages show.
    pub printlns_shown: usize,
    /// `total - shown`: cut by the FIFO limit.
    pub printlns_dropped: usize,
    /// `println` entries of failed turns the view never shows (not in
    /// `total`).
    #[serde(default)]
    pub printlns_in_failed_turns: usize,
    /// Shown entries cut at `print_char_limit`.
    pub printlns_truncated: usize,
    /// Failed turns whose error is not shown (all but a failing last turn).
    pub error_turns_collapsed: usize,
    /// Characters of all messages.
    pub chars: usize,
    /// `ceil(chars / 4)` summed over the messages.
    pub tokens_estimate: usize,
    /// Size of each message, in order.
    pub messages: Vec<MessageStats>,
    /// The token budget the render had to fit (`budget.rs`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<usize>,
    /// With a budget: the tokenizer that counted (`tokens.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<String>,
    /// With a budget: the messages' tokens as that tokenizer counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_counted: Option<usize>,
    /// With a budget: the calibration ratio applied (the provider's count
    /// over ours, from recent turns), when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<f64>,
    /// With a calibration: the provider's count minus ours, from recent
    /// turns (`tokens.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration_offset: Option<i64>,
    /// With a budget: the number compared with it, `tokens_counted`
    /// times `calibration`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_budgeted: Option<usize>,
    /// The degradation steps that changed the prompt to fit the budget, in
    /// order (`budget::STEPS` names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub degraded: Vec<String>,
    /// How many of `budget::STEPS` were applied (those that had nothing to
    /// cut included): a larger budget never applies more.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub degrade_steps: usize,
    /// Tokens over the budget even after every step (or, uncompressed,
    /// without any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_budget_by: Option<usize>,
}

/// Size of one message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageStats {
    /// Who the message is from.
    pub role: Role,
    /// Characters (Unicode scalar values) of its content.
    pub chars: usize,
    /// `ceil(chars / 4)`.
    pub tokens_estimate: usize,
    /// Exact counts, once [`super::Rendered::count_exact_tokens`] ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<ExactTokens>,
}

/// Exact BPE token counts of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactTokens {
    /// Tokens in the `cl100k_base` vocabulary (GPT-4, GPT-3.5).
    pub cl100k_base: usize,
    /// Tokens in the `o200k_base` vocabulary (GPT-4o and later).
    pub o200k_base: usize,
}

impl Stats {
    /// Fills in the sizes of `messages`.
    pub fn measure(&mut self, messages: &[Message]) {
        self.messages = messages
            .iter()
            .map(|m| {
                // A program call's program is sent too (tool protocol).
                let chars = m.content.chars().count()
                    + m.tool_call
                        .as_ref()
                        .map_or(0, |c| c.program.chars().count());
                MessageStats {
                    role: m.role,
                    chars,
                    tokens_estimate: chars.div_ceil(4),
                    tokens: None,
                }
            })
            .collect();
        self.chars = self.messages.iter().map(|m| m.chars).sum();
        self.tokens_estimate = self.messages.iter().map(|m| m.tokens_estimate).sum();
    }
}

/// Exact token counts of `text`, or `None` when ptc was built without the
/// `tokens` feature; counted once per text, a text over
/// [`MAX_ENCODED_BYTES`](super::tokens::MAX_ENCODED_BYTES) over its first
/// part and the rest at that rate (`tokens.rs`).
pub fn exact_tokens(text: &str) -> Option<ExactTokens> {
    use super::tokens::Tokenizer;
    Some(ExactTokens {
        cl100k_base: Tokenizer::Cl100kBase.bpe(text)?,
        o200k_base: Tokenizer::O200kBase.bpe(text)?,
    })
}
