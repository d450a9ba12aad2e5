//! The rustyline helper: multi-line input decided by the reader
//! ([`super::input::is_complete`]), tab completion of names and commands,
//! and matching-bracket highlighting on colour terminals.

use std::borrow::Cow;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{Highlighter, MatchingBracketHighlighter};
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};

use super::commands::COMMAND_NAMES;
use super::input::is_complete;

/// Characters that end a symbol.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || "()[]{}\"',;@^`~".contains(c)
}

/// Completion, validation and highlighting for the REPL's editor.
pub struct ReplHelper {
    /// Names to complete, sorted ([`super::Repl::completion_names`]).
    names: Vec<String>,
    brackets: Option<MatchingBracketHighlighter>,
}

impl ReplHelper {
    pub fn new(names: Vec<String>, colour: bool) -> ReplHelper {
        ReplHelper {
            names,
            brackets: colour.then(MatchingBracketHighlighter::new),
        }
    }

    /// Replaces the names (after each entry: definitions change).
    pub fn set_names(&mut self, names: Vec<String>) {
        self.names = names;
    }

    /// The start of the word before `pos` and its candidates: `:commands`
    /// at the start of the input, otherwise names.
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let pos = pos.min(line.len());
        let before = &line[..pos];
        let start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| is_delimiter(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        if word.starts_with(':') {
            if !line[..start].trim().is_empty() {
                return (start, Vec::new()); // a keyword inside code
            }
            let found = COMMAND_NAMES
                .iter()
                .filter(|c| c.starts_with(word))
                .map(|c| c.to_string())
                .collect();
            return (start, found);
        }
        if word.is_empty() {
            return (start, Vec::new());
        }
        let found = self
            .names
            .iter()
            .filter(|n| n.starts_with(word))
            .cloned()
            .collect();
        (start, found)
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = self.candidates(line, pos);
        Ok((
            start,
            found
                .into_iter()
                .map(|n| Pair {
                    display: n.clone(),
                    replacement: n,
                })
                .collect(),
        ))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        match &self.brackets {
            Some(b) => b.highlight(line, pos),
            None => Cow::Borrowed(line),
        }
    }

    fn highlight_char(&self, line: &str, pos: usize, forced: bool) -> bool {
        match &self.brackets {
            Some(b) => b.highlight_char(line, pos, forced),
            None => false,
        }
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if is_complete(ctx.input()) {
            ValidationResult::Valid(None)
        } else {
            ValidationResult::Incomplete
        })
    }
}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_names_and_commands() {
        let h = ReplHelper::new(
            vec![
                "data/products".into(),
                "filter".into(),
                "filterv".into(),
                "tool/search".into(),
            ],
            false,
        );
        assert_eq!(
            h.candidates("(fil", 4),
            (1, vec!["filter".into(), "filterv".into()])
        );
        assert_eq!(
            h.candidates("(count data/p", 13),
            (7, vec!["data/products".into()])
        );
        assert_eq!(h.candidates("(tool/", 6), (1, vec!["tool/search".into()]));
        assert_eq!(h.candidates(":pr", 3), (0, vec![":prompt".into()]));
        assert_eq!(h.candidates("(get m :pr", 10).1, Vec::<String>::new());
        assert_eq!(h.candidates("(", 1).1, Vec::<String>::new());
    }
}
