//! What one entry shows, and how it is printed (plain or coloured).

use std::fmt::Write as _;

use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::error::Error;

/// How to print an [`Output`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// No escape codes, ASCII error drawings (scripts, `--plain`, pipes).
    Plain,
    /// ANSI colours and miette's fancy errors (a terminal).
    Colour,
}

/// One part of an entry's output, in the order it is shown.
#[derive(Clone, Debug)]
pub enum Item {
    /// One `println` entry of the turn.
    Print(String),
    /// A tool call of the turn: name, arguments and result (or the host's
    /// error), as PTC-Lisp text.
    ToolCall {
        name: String,
        args: String,
        result: Result<String, String>,
    },
    /// The entry's value (a bounded preview).
    Value(String),
    /// The entry's error, shown with its source line and a caret.
    Error(Error),
    /// Text to print as it is (command output, docs, the prompt).
    Text(String),
    /// A remark of the REPL (status changes, truncation, hints).
    Note(String),
}

/// What one entry produced.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub items: Vec<Item>,
    /// The entry asked to leave the REPL.
    pub quit: bool,
}

const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const RESET: &str = "\x1b[0m";

impl Output {
    /// Output with a single text item.
    pub fn text(s: impl Into<String>) -> Output {
        let mut o = Output::default();
        o.push_text(s);
        o
    }

    /// Output with a single note.
    pub fn note(s: impl Into<String>) -> Output {
        let mut o = Output::default();
        o.push_note(s);
        o
    }

    pub fn push_text(&mut self, s: impl Into<String>) {
        self.items.push(Item::Text(s.into()));
    }

    pub fn push_note(&mut self, s: impl Into<String>) {
        self.items.push(Item::Note(s.into()));
    }

    /// Whether the entry failed (it shows an error).
    pub fn failed(&self) -> bool {
        self.items.iter().any(|i| matches!(i, Item::Error(_)))
    }

    /// The error shown, if any.
    #[cfg(test)]
    pub fn error(&self) -> Option<&Error> {
        self.items.iter().find_map(|i| match i {
            Item::Error(e) => Some(e),
            _ => None,
        })
    }

    /// [`Output::render`] in [`Style::Plain`].
    #[cfg(test)]
    pub fn plain(&self) -> String {
        self.render(Style::Plain)
    }

    /// The text to print: every item on its own line(s), ending with a
    /// newline unless there is nothing to show.
    pub fn render(&self, style: Style) -> String {
        let colour = style == Style::Colour;
        let mut out = String::new();
        for item in &self.items {
            match item {
                Item::Print(line) | Item::Text(line) | Item::Value(line) => {
                    out.push_str(line);
                    out.push('\n');
                }
                Item::ToolCall { name, args, result } => {
                    let shown = match result {
                        Ok(v) => format!(";; tool/{name} {args} => {v}"),
                        Err(e) => format!(";; tool/{name} {args} => tool error: {e}"),
                    };
                    push_dim(&mut out, &shown, colour);
                }
                Item::Note(note) => {
                    let shown = note
                        .lines()
                        .map(|l| format!(";; {l}"))
                        .collect::<Vec<_>>()
                        .join("\n");
                    push_dim(&mut out, &shown, colour);
                }
                Item::Error(e) => out.push_str(&error_text(e, style)),
            }
        }
        out
    }
}

fn push_dim(out: &mut String, text: &str, colour: bool) {
    if colour {
        let _ = writeln!(out, "{DIM}{text}{RESET}");
    } else {
        out.push_str(text);
        out.push('\n');
    }
}

/// An error as miette draws it: kind, message, the source line with a
/// caret, the hint.
pub fn error_text(e: &Error, style: Style) -> String {
    let theme = match style {
        Style::Plain => GraphicalTheme::none(),
        Style::Colour => GraphicalTheme::unicode(),
    };
    let handler = GraphicalReportHandler::new_themed(theme);
    let report = e.diagnostic();
    let mut s = String::new();
    if handler.render_report(&mut s, report.as_ref()).is_err() || s.trim().is_empty() {
        s = match style {
            Style::Plain => format!("{e}\n"),
            Style::Colour => format!("{RED}{e}{RESET}\n"),
        };
    }
    // miette starts with the code on its own line and ends with a blank one
    let body = s.trim_end_matches('\n');
    format!("{body}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Span;
    use std::sync::Arc;

    #[test]
    fn plain_output_has_no_escape_codes() {
        let src: Arc<str> = "(+ 1\n   (count 5))".into();
        let e = Error::type_error("count expects a collection, got integer 5")
            .with_span(Span::new(8, 17))
            .or_source(&src);
        let out = Output {
            items: vec![
                Item::Print("hello".into()),
                Item::ToolCall {
                    name: "search".into(),
                    args: "[\"x\"]".into(),
                    result: Ok("[]".into()),
                },
                Item::Error(e),
                Item::Note("two\nlines".into()),
            ],
            quit: false,
        };
        let text = out.plain();
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.starts_with("hello\n;; tool/search [\"x\"] => []\n"));
        assert!(text.contains("type-error"), "{text}");
        assert!(text.contains("(count 5))"), "{text}");
        assert!(text.contains("count expects a collection"), "{text}");
        assert!(text.ends_with(";; two\n;; lines\n"), "{text}");
        assert!(out.render(Style::Colour).contains('\x1b'));
    }
}
