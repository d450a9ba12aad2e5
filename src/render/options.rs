//! Render options (R-02), the three opt-in extras and the two loop notes
//! (on by default).
//!
//! A session file's `"render": {...}` object deserializes into
//! [`RenderOptions`]: every field is optional (missing ones take the
//! defaults), unknown names are an error.

use serde::{Deserialize, Serialize};

/// How much of the history the compressed view shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    /// Most recent `println` entries shown (R-33).
    pub println_limit: usize,
    /// Most recent tool calls shown (R-30).
    pub tool_call_limit: usize,
    /// `to_clojure` item limit for samples (R-28).
    pub sample_limit: usize,
    /// `to_clojure` character limit for samples (R-28).
    pub sample_printable_limit: usize,
    /// `to_clojure` item limit for tool-call arguments (R-30).
    pub args_limit: usize,
    /// `to_clojure` character limit for tool-call arguments (R-30).
    pub args_printable_limit: usize,
    /// Characters of one `println` entry shown before it is cut (R-33).
    pub print_char_limit: usize,
    /// Append ` -> RESULT` to each tool-call line (printed like arguments).
    pub show_tool_results: bool,
    /// Add `;; Last result: VALUE` when the last turn succeeded and its value
    /// was not stored by `def` (see the module docs of [`crate::render`]).
    pub show_last_result: bool,
    /// Also list the tool calls made by failed turns (they did happen),
    /// marked `(turn N failed)`.
    pub keep_failed_turn_calls: bool,
    /// Say so when the same error ended two or more turns in a row, and
    /// ask for a different approach (`loops.rs`). On by default.
    pub note_error_loops: bool,
    /// List the last turn's tool calls that repeat a call that already
    /// succeeded with the same arguments (`loops.rs`). On by default.
    pub note_repeated_tool_calls: bool,
    /// The most tokens the compressed view's messages may take; the
    /// renderer degrades in a fixed order to fit (`budget.rs`). None: no
    /// budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<usize>,
    /// How the budget counts tokens (`tokens.rs`): `chars4` (default),
    /// `cl100k_base` or `o200k_base`. `ptc agent` picks the one for its
    /// model when a budget is set and the file names none.
    #[serde(skip_serializing_if = "is_default_tokenizer")]
    pub tokenizer: super::tokens::Tokenizer,
    /// The provider's count over ours, learnt from the turns' reported
    /// prompt tokens (`tokens.rs`); derived by the session, never stored.
    #[serde(skip)]
    pub calibration: Option<super::tokens::Calibration>,
}

fn is_default_tokenizer(t: &super::tokens::Tokenizer) -> bool {
    *t == super::tokens::Tokenizer::default()
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
            show_tool_results: false,
            show_last_result: false,
            keep_failed_turn_calls: false,
            note_error_loops: true,
            note_repeated_tool_calls: true,
            budget_tokens: None,
            tokenizer: super::tokens::Tokenizer::default(),
            calibration: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_defaults() {
        let o: RenderOptions = serde_json::from_str(r#"{"println_limit": 4}"#).unwrap();
        assert_eq!(o.println_limit, 4);
        assert_eq!(o.tool_call_limit, 20);
        assert!(!o.show_tool_results);
        let empty: RenderOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, RenderOptions::default());
        assert!(empty.note_error_loops && empty.note_repeated_tool_calls);
        assert_eq!(empty.budget_tokens, None);
        let budget: RenderOptions = serde_json::from_str(r#"{"budget_tokens": 3000}"#).unwrap();
        assert_eq!(budget.budget_tokens, Some(3000));
        let back = serde_json::to_string(&budget).unwrap();
        assert!(back.contains("\"budget_tokens\":3000"), "{back}");
    }

    #[test]
    fn unknown_fields_are_rejected_by_name() {
        let err = serde_json::from_str::<RenderOptions>(r#"{"printn_limit": 4}"#).unwrap_err();
        assert!(err.to_string().contains("printn_limit"), "{err}");
    }
}
