//! How the token budget counts a prompt (`render.tokenizer`) and how it is
//! calibrated against what the provider reports.
//!
//! **Counting.** [`Tokenizer::Chars4`] (the default, and the statistics'
//! estimate): `ceil(chars / 4)` per message. [`Tokenizer::Cl100kBase`] and
//! [`Tokenizer::O200kBase`] (with the `tokens` feature): the BPE count of
//! each message plus [`MESSAGE_OVERHEAD`] tokens per message and
//! [`REPLY_OVERHEAD`] for the reply's start, the chat format's framing.
//! `ptc agent`/`ptc eval` with a budget pick the tokenizer for the model
//! ([`Tokenizer::for_model`]: o200k for current OpenAI models, cl100k for
//! every other model) unless the session file names one; the choice is saved
//! in the file's `render.tokenizer`, so a replay counts the same way.
//!
//! **Work.** Each text is encoded once, with the one tokenizer in use: the
//! counts are kept (a process-wide table of [`COUNT_CACHE_ENTRIES`] texts,
//! by tokenizer, length and a 64-bit hash), so the renders of a budget's
//! degradation steps, of each turn of a replay and of calibration count a
//! message that does not change once. A text longer than
//! [`MAX_ENCODED_BYTES`] is encoded over its first `MAX_ENCODED_BYTES` and
//! the rest counted at the same rate (a 4 MB reply took seconds per
//! encoding and was encoded twice per render).
//!
//! **Calibration.** A real server's tokenizer and chat template differ from
//! any local count (a llama.cpp server counted 1.21× the chars/4 estimate,
//! 1.135× cl100k). After each turn whose LLM reported its prompt tokens,
//! the ratio of that report to the local count of the prompt that was sent
//! is known; the budget uses the largest ratio of the last
//! [`CALIBRATION_TURNS`] such turns (clamped to [`MIN_RATIO`]..[`MAX_RATIO`]),
//! so the next prompt fits the budget in the provider's count. The ratio
//! is derived from the recorded turns (their `llm.usage`), never stored:
//! replaying a session file gives the same prompts.

use serde::{Deserialize, Serialize};

use super::Message;

/// Tokens of framing per chat message (role, separators), for BPE counts.
pub const MESSAGE_OVERHEAD: usize = 4;
/// Tokens that start the reply, for BPE counts.
pub const REPLY_OVERHEAD: usize = 3;
/// How many recent turns with a reported prompt size calibrate the budget.
pub const CALIBRATION_TURNS: usize = 5;
/// The smallest calibration ratio applied.
pub const MIN_RATIO: f64 = 0.5;
/// The largest calibration ratio applied.
pub const MAX_RATIO: f64 = 4.0;
/// The most bytes of one text a BPE tokenizer encodes; the rest of a longer
/// one is counted at the rate of those.
pub const MAX_ENCODED_BYTES: usize = 256 * 1024;
/// Texts whose counts are kept (then the table starts over).
pub const COUNT_CACHE_ENTRIES: usize = 4096;

/// How the budget counts tokens (`render.tokenizer` in a session file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tokenizer {
    /// `ceil(chars / 4)` per message (the statistics' estimate).
    #[default]
    Chars4,
    /// OpenAI's cl100k_base BPE (GPT-4, GPT-3.5; the default for other
    /// models' servers).
    Cl100kBase,
    /// OpenAI's o200k_base BPE (GPT-4o, GPT-4.1, GPT-5, o-series).
    O200kBase,
}

impl Tokenizer {
    /// The tokenizer that fits `model`: o200k_base for current OpenAI
    /// models, cl100k_base for every other one; `Chars4` when ptc was built
    /// without the `tokens` feature.
    pub fn for_model(model: &str) -> Tokenizer {
        if !cfg!(feature = "tokens") {
            return Tokenizer::Chars4;
        }
        let m = model.to_ascii_lowercase();
        let m = m.rsplit('/').next().unwrap_or(&m); // "openai/gpt-4o"
        let o200k = [
            "gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-", "o1", "o3", "o4",
        ];
        if o200k.iter().any(|p| m.starts_with(p)) {
            Tokenizer::O200kBase
        } else {
            Tokenizer::Cl100kBase
        }
    }

    /// The name a session file uses.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::Chars4 => "chars4",
            Tokenizer::Cl100kBase => "cl100k_base",
            Tokenizer::O200kBase => "o200k_base",
        }
    }

    /// Tokens of `messages` as this tokenizer counts them, framing included
    /// for the BPE ones. Without the `tokens` feature the BPE ones count
    /// like `Chars4`.
    pub fn count(self, messages: &[Message]) -> usize {
        match self {
            Tokenizer::Chars4 => chars4(messages),
            Tokenizer::Cl100kBase | Tokenizer::O200kBase => {
                let mut total = REPLY_OVERHEAD;
                for m in messages {
                    match self.bpe(&m.content) {
                        Some(n) => total += n + MESSAGE_OVERHEAD,
                        None => return chars4(messages),
                    }
                }
                total
            }
        }
    }

    /// The BPE count of `text` (`None` for `Chars4` and without the
    /// `tokens` feature): counted once per text (see the module docs), over
    /// at most [`MAX_ENCODED_BYTES`].
    pub fn bpe(self, text: &str) -> Option<usize> {
        if self == Tokenizer::Chars4 || !cfg!(feature = "tokens") {
            return None;
        }
        use std::hash::BuildHasher;
        static COUNTS: std::sync::Mutex<Option<Counts>> = std::sync::Mutex::new(None);
        let hash = foldhash::quality::FixedState::with_seed(0x5eed).hash_one(text);
        let key = (self as u8, text.len(), hash);
        let lock = || COUNTS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = lock().as_ref().and_then(|c| c.get(&key)) {
            return Some(*n);
        }
        let n = bounded_encode(self, text)?;
        let mut counts = lock();
        let counts = counts.get_or_insert_with(Default::default);
        if counts.len() >= COUNT_CACHE_ENTRIES {
            counts.clear();
        }
        counts.insert(key, n);
        Some(n)
    }
}

/// Counts kept: (tokenizer, length, hash) → tokens.
type Counts = std::collections::HashMap<(u8, usize, u64), usize>;

/// `text`'s tokens: its first [`MAX_ENCODED_BYTES`] encoded, the rest at
/// their rate (rounded up).
fn bounded_encode(tokenizer: Tokenizer, text: &str) -> Option<usize> {
    let mut cut = text.len().min(MAX_ENCODED_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = encode(tokenizer, &text[..cut])?;
    if cut == text.len() || cut == 0 {
        return Some(head);
    }
    let rest = (text.len() - cut) as u128 * head as u128;
    Some(head + rest.div_ceil(cut as u128) as usize)
}

/// The BPE tokens of `text`, encoded whole.
fn encode(tokenizer: Tokenizer, text: &str) -> Option<usize> {
    #[cfg(feature = "tokens")]
    {
        Some(match tokenizer {
            Tokenizer::Cl100kBase => tiktoken_rs::cl100k_base_singleton()
                .encode_ordinary(text)
                .len(),
            Tokenizer::O200kBase => tiktoken_rs::o200k_base_singleton()
                .encode_ordinary(text)
                .len(),
            Tokenizer::Chars4 => return None,
        })
    }
    #[cfg(not(feature = "tokens"))]
    {
        let _ = (tokenizer, text);
        None
    }
}

fn chars4(messages: &[Message]) -> usize {
    messages
        .iter()
        .map(|m| m.content.chars().count().div_ceil(4))
        .sum()
}

/// What the provider's count was over ours in recent turns: the largest
/// ratio and the largest difference. A provider's extra tokens are part
/// proportional (a finer tokenizer) and part fixed (its chat template);
/// the ratio alone under-predicts a prompt smaller than the ones measured
/// (the fixed part weighs more), the difference alone a larger one, so a
/// count is predicted as the larger of the two ([`Calibration::apply`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The provider's count over ours, clamped to [`MIN_RATIO`]..[`MAX_RATIO`].
    pub ratio: f64,
    /// The provider's count minus ours (may be negative).
    pub offset: i64,
}

impl Calibration {
    /// `count` as the provider is expected to count it:
    /// `max(ceil(count x ratio), count + offset)`, at least 0.
    pub fn apply(self, count: usize) -> usize {
        let scaled = (count as f64 * self.ratio).ceil() as i64;
        scaled.max(count as i64 + self.offset).max(0) as usize
    }
}

/// The calibration from `(reported prompt tokens, local count of the
/// prompt sent)` pairs, newest last: over the last [`CALIBRATION_TURNS`],
/// the largest ratio (clamped) and the largest difference; `None` without
/// any.
pub fn calibration(pairs: impl DoubleEndedIterator<Item = (u64, usize)>) -> Option<Calibration> {
    pairs
        .rev()
        .filter(|(_, local)| *local > 0)
        .take(CALIBRATION_TURNS)
        .map(|(reported, local)| Calibration {
            ratio: (reported as f64 / local as f64).clamp(MIN_RATIO, MAX_RATIO),
            offset: reported as i64 - local as i64,
        })
        .reduce(|a, b| Calibration {
            ratio: a.ratio.max(b.ratio),
            offset: a.offset.max(b.offset),
        })
}

/// `count` as the budget compares it: calibrated when there is a
/// calibration.
pub fn calibrated(count: usize, calibration: Option<Calibration>) -> usize {
    calibration.map_or(count, |c| c.apply(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizers_for_models() {
        if cfg!(feature = "tokens") {
            for m in [
                "gpt-4o-mini",
                "gpt-4.1",
                "GPT-5",
                "o3-mini",
                "openai/gpt-4o",
            ] {
                assert_eq!(Tokenizer::for_model(m), Tokenizer::O200kBase, "{m}");
            }
            for m in [
                "gpt-4",
                "gpt-3.5-turbo",
                "qwen2.5-coder:7b",
                "claude-sonnet-4-5",
                "SmolLM2",
            ] {
                assert_eq!(Tokenizer::for_model(m), Tokenizer::Cl100kBase, "{m}");
            }
        }
    }

    #[test]
    fn counts_and_calibration() {
        let msgs = [
            Message::system("a".repeat(40)),
            Message::user("hello world".into()),
        ];
        assert_eq!(Tokenizer::Chars4.count(&msgs), 10 + 3);
        if cfg!(feature = "tokens") {
            // "hello world" is 2 tokens in both; 40 a's a handful.
            let n = Tokenizer::Cl100kBase.count(&msgs);
            assert!(
                n > 2 + 2 * MESSAGE_OVERHEAD + REPLY_OVERHEAD && n < 30,
                "{n}"
            );
        }
        assert_eq!(calibration(std::iter::empty()), None);
        // The largest ratio and difference of the last five turns.
        let pairs = [
            (400, 100),
            (120, 100),
            (121, 100),
            (110, 100),
            (100, 100),
            (105, 100),
        ];
        let c = calibration(pairs.into_iter()).unwrap();
        assert_eq!((c.ratio, c.offset), (1.21, 21));
        let c = calibration([(1000, 10)].into_iter()).unwrap();
        assert_eq!(c.ratio, MAX_RATIO);
        // A server with a template of 25 fixed tokens and 1.135 per token:
        // measured on a prompt of 2000, predicted on smaller and larger.
        let server = |n: usize| (n as f64 * 1.135).ceil() as usize + 25;
        let c = calibration([(server(2000) as u64, 2000)].into_iter()).unwrap();
        for n in [500, 1500, 1990, 2000, 2500, 4000] {
            assert!(
                c.apply(n) >= server(n),
                "{n}: {} < {}",
                c.apply(n),
                server(n)
            );
        }
        assert_eq!(calibrated(100, None), 100);
    }

    #[test]
    fn long_texts_are_encoded_in_part_and_counted_at_their_rate() {
        if !cfg!(feature = "tokens") {
            return;
        }
        let text = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(20_000);
        assert!(text.len() > 4 * MAX_ENCODED_BYTES);
        let whole = encode(Tokenizer::Cl100kBase, &text).unwrap();
        let counted = Tokenizer::Cl100kBase.bpe(&text).unwrap();
        assert!(
            counted.abs_diff(whole) * 100 <= whole,
            "{counted} vs {whole}"
        );
        // kept: the same text again, and the other tokenizer apart
        assert_eq!(Tokenizer::Cl100kBase.bpe(&text), Some(counted));
        assert_ne!(Tokenizer::O200kBase.bpe("héllo wörld"), None);
        assert_eq!(Tokenizer::Chars4.bpe("x"), None);
        assert_eq!(Tokenizer::Cl100kBase.bpe("hello world"), Some(2));
    }
}
