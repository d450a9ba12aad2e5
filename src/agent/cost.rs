//! What a turn costs: [`Prices`] per million tokens applied to a turn's
//! [`Usage`].
//!
//! Rule: cost = (plain input × `input` + cache reads × `cached_input` +
//! cache writes × `cache_write` + output × `output`) / 1 000 000, in US
//! dollars. Plain input is [`Usage::uncached_input_tokens`] (OpenAI counts
//! cached tokens in `prompt_tokens`, Anthropic does not). `cached_input`
//! defaults to `input` and `cache_write` to 1.25 × `input` (Anthropic's
//! five-minute cache write). A usage without input or output counts has
//! no cost (`None`), rather than a wrong one.

use serde::{Deserialize, Serialize};

use crate::session::Usage;

/// US dollars per million tokens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prices {
    /// Uncached input tokens.
    pub input: f64,
    /// Output tokens.
    pub output: f64,
    /// Input tokens read from the cache (default: `input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input: Option<f64>,
    /// Input tokens written to the cache (default: 1.25 × `input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write: Option<f64>,
}

impl Prices {
    /// The cost of `usage` in US dollars (module docs), `None` when the
    /// provider did not report input and output tokens.
    pub fn cost(&self, usage: &Usage) -> Option<f64> {
        let plain = usage.uncached_input_tokens()? as f64;
        let output = usage.output_tokens? as f64;
        let read = usage.cached_input_tokens.unwrap_or(0) as f64;
        let write = usage.cache_write_tokens.unwrap_or(0) as f64;
        let cents = plain * self.input
            + read * self.cached_input.unwrap_or(self.input)
            + write * self.cache_write.unwrap_or(self.input * 1.25)
            + output * self.output;
        Some(cents / 1_000_000.0)
    }

    /// Checks every price is finite and not negative.
    pub fn check(&self) -> Result<(), String> {
        for (name, v) in [
            ("input", Some(self.input)),
            ("output", Some(self.output)),
            ("cached_input", self.cached_input),
            ("cache_write", self.cache_write),
        ] {
            if let Some(v) = v {
                if !v.is_finite() || v < 0.0 {
                    return Err(format!(
                        "the {name} price must be a number of dollars per million tokens, at least 0; got {v}"
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_follow_the_provider_counting() {
        let p = Prices {
            input: 3.0,
            output: 15.0,
            cached_input: Some(0.3),
            cache_write: None,
        };
        // Anthropic: input_tokens excludes the cache.
        let anthropic = Usage {
            input_tokens: Some(1000),
            output_tokens: Some(100),
            cached_input_tokens: Some(10_000),
            cache_write_tokens: Some(2000),
            ..Usage::default()
        };
        let c = p.cost(&anthropic).unwrap();
        let want = (1000.0 * 3.0 + 10_000.0 * 0.3 + 2000.0 * 3.75 + 100.0 * 15.0) / 1e6;
        assert!((c - want).abs() < 1e-12, "{c} {want}");
        // OpenAI: prompt_tokens includes the cached ones.
        let openai = Usage {
            input_tokens: Some(11_000),
            output_tokens: Some(100),
            cached_input_tokens: Some(10_000),
            input_includes_cached: true,
            ..Usage::default()
        };
        let c = p.cost(&openai).unwrap();
        let want = (1000.0 * 3.0 + 10_000.0 * 0.3 + 100.0 * 15.0) / 1e6;
        assert!((c - want).abs() < 1e-12, "{c} {want}");
        assert_eq!(p.cost(&Usage::default()), None);
        assert!(Prices { input: -1.0, ..p }.check().is_err());
    }
}
