//! Where an entry ends: decided by the real reader (brackets, braces,
//! strings, comments, character literals), never by counting parentheses.
//!
//! * A line starting with `:` and a letter is a command, complete at once.
//! * Text with a code fence (a pasted LLM response) is complete when every
//!   fence is closed; text that starts with prose (a response pasted without
//!   bracketed paste, one line at a time) waits for its fence, so the prose
//!   lines are gathered with it into one entry, never run as turns. Ctrl-C
//!   clears such an entry.
//! * Code is complete unless the reader stops with an "input ended inside an
//!   open form or string" error ([`crate::Error::is_incomplete`]). Any other
//!   parse error counts as complete: running the entry shows it.
//!
//! [`EntrySplitter`] applies this to a stream of lines (`ptc repl < file`):
//! one entry per complete top-level form, one per command line, one per
//! LLM response (prose lines and the fenced block after them).

use crate::reader::read_all;

/// Whether `text` (trimmed) is a `:command` line.
pub fn is_command_line(text: &str) -> bool {
    let mut chars = text.trim_start().chars();
    chars.next() == Some(':') && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// Whether `line` opens or closes a code fence.
fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

/// Whether `text` holds a code fence (it is a whole LLM response).
pub fn has_fence(text: &str) -> bool {
    text.lines().any(is_fence)
}

/// Whether `text` starts with prose: its first non-blank line begins with
/// a letter and holds three words or more, or two and ends with
/// punctuation (`I'll count the products:`, `Let me check.`), the way
/// an LLM response starts. Code typed at the prompt starts with a bracket,
/// a quote, a digit or a single name (`data/products`, `*1`).
pub fn starts_with_prose(text: &str) -> bool {
    let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return false;
    };
    let words = first.split_whitespace().count();
    first.starts_with(|c: char| c.is_alphabetic())
        && (words >= 3 || (words == 2 && first.ends_with(['.', ':', '!', '?', ','])))
        && !is_command_line(first)
}

/// Whether `text` is a whole entry (see the module documentation).
pub fn is_complete(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed.is_empty() || is_command_line(trimmed) {
        return true;
    }
    if has_fence(text) {
        return text.lines().filter(|l| is_fence(l)).count() % 2 == 0;
    }
    if starts_with_prose(text) {
        // An LLM response pasted line by line: gather until its fence closes.
        return false;
    }
    !matches!(read_all(text), Err(e) if e.is_incomplete())
}

/// Cuts a stream of lines into entries.
#[derive(Debug, Default)]
pub struct EntrySplitter {
    buf: String,
}

impl EntrySplitter {
    pub fn new() -> EntrySplitter {
        EntrySplitter::default()
    }

    /// Adds one line (without its newline); returns the entries it
    /// completes, in order.
    pub fn push_line(&mut self, line: &str) -> Vec<String> {
        if self.buf.trim().is_empty() && is_command_line(line) {
            self.buf.clear();
            return vec![line.trim().to_string()];
        }
        self.buf.push_str(line);
        self.buf.push('\n');
        if !is_complete(&self.buf) {
            return Vec::new();
        }
        let text = std::mem::take(&mut self.buf);
        if has_fence(&text) {
            return vec![text.trim().to_string()];
        }
        match read_all(&text) {
            Ok(forms) => forms
                .iter()
                .map(|f| text[f.span.start as usize..f.span.end as usize].to_string())
                .collect(),
            // not incomplete: run it whole to show the error
            Err(_) => vec![text.trim().to_string()],
        }
    }

    /// The unfinished entry at the end of the input, if any (running it
    /// shows where the input ended too early).
    pub fn finish(self) -> Option<String> {
        let rest = self.buf.trim();
        (!rest.is_empty()).then(|| rest.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completeness_follows_the_reader() {
        for done in [
            "(+ 1 2)",
            "[1 2]",
            "",
            "  ",
            "; just a comment",
            "(str \"(\" \\) \\( )",
            "(str \\))",
            "{:a [1 2]}",
            ":help",
            ":save out.json",
            "(let [x 1]\n  x)",
            "x y",
            "(count @x",
            "{:a [1 2}",
            "```clojure\n(+ 1\n```",
        ] {
            assert!(is_complete(done), "{done:?} should be complete");
        }
        for open in [
            "(+ 1",
            "(def s \"abc",
            "(let [x 1]\n  ; )\n",
            "(str \\)",
            "#{1 2",
            "(str \"a\\\"\"",
            "I think:\n```clojure\n(+ 1 2)\n",
            "I'll count the products first.",
            "I'll count the products first.\n\nThen sum them.\n",
        ] {
            assert!(!is_complete(open), "{open:?} should be incomplete");
        }
    }

    #[test]
    fn commands_are_colon_words() {
        assert!(is_command_line(":quit"));
        assert!(is_command_line("  :prompt compressed"));
        assert!(is_command_line(":repl/quit"));
        assert!(!is_command_line("(:a m)"));
        assert!(!is_command_line(": x"));
        assert!(!is_command_line(":1"));
    }

    #[test]
    fn the_splitter_gives_one_entry_per_form_command_or_response() {
        let mut s = EntrySplitter::new();
        let mut all = Vec::new();
        for line in [
            "; setup",
            "(def a 1) (def b",
            "  2)",
            ":prompt",
            "",
            "(str \"x",
            "y\")",
            "```clojure",
            "(+ a b)",
            "```",
            "(+ 1",
        ] {
            all.extend(s.push_line(line));
        }
        assert_eq!(
            all,
            [
                "(def a 1)",
                "(def b\n  2)",
                ":prompt",
                "(str \"x\ny\")",
                "```clojure\n(+ a b)\n```"
            ]
        );
        assert_eq!(s.finish().as_deref(), Some("(+ 1"));
    }

    #[test]
    fn prose_lines_before_a_fence_are_one_entry() {
        let mut s = EntrySplitter::new();
        let mut all = Vec::new();
        for line in [
            "I'll count the products first.",
            "",
            "Then I can compare prices:",
            "```clojure",
            "(count data/products)",
            "```",
            "data/products",
        ] {
            all.extend(s.push_line(line));
        }
        assert_eq!(
            all,
            [
                "I'll count the products first.\n\nThen I can compare prices:\n```clojure\n(count data/products)\n```",
                "data/products"
            ]
        );
        assert!(!starts_with_prose("(count x)"));
        assert!(!starts_with_prose("data/products"));
        assert!(!starts_with_prose(":save x.json"));
    }

    #[test]
    fn a_parse_error_is_one_entry() {
        let mut s = EntrySplitter::new();
        assert_eq!(s.push_line("(+ 1 @x) (+ 2 2)"), ["(+ 1 @x) (+ 2 2)"]);
        assert_eq!(s.finish(), None);
    }
}
