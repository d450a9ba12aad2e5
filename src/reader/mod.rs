//! The reader: source text → spanned [`Form`]s.
//!
//! This module owns the public contract ([`Form`], [`FormKind`], [`read_all`],
//! [`form_to_value`], [`read_value`], [`MAX_NESTING`]). The work is split in:
//!
//! * [`lex`] — the token lexers over the input and its byte offset:
//!   whitespace and comments, strings, characters, regex sources,
//!   `##Inf`-style values, and the classification of bare tokens (numbers,
//!   with nom; `nil`/`true`/`false`, keywords, symbols).
//! * [`build`] — the main loop that assembles forms. Collections and the
//!   prefix forms (`'x`, `#'x`, `#_`, `^meta`, `#(...)`) are frames on an
//!   explicit heap stack, never native recursion, so no input can overflow
//!   the native stack; nesting deeper than [`MAX_NESTING`] is a parse error.
//! * [`data`] — forms as data (what `quote` gives) and [`read_value`].
//!
//! Spans are byte ranges; lines and columns are computed only when an error
//! is shown. Syntax errors are `parse-error`s with a span; those caused by the
//! input ending inside an open form, string or regex are also marked
//! [`crate::Error::incomplete`] so a REPL can keep reading.
//!
//! Reader decisions worth knowing (from the conformance cases):
//! `@x` (deref) is a parse error (there are no atoms); a nested `#()` and
//! `%`, `%1`, `%&` outside `#()` are validation errors; integer literals
//! beyond 64 bits are arithmetic errors; `.5` is a symbol; characters read as
//! one-character strings; `#(...)` reads as `(fn [%1 %2 & %&] (...))` with
//! `%` renamed `%1`.

mod build;
mod data;
mod lex;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_errors;
#[cfg(test)]
mod tests_surplus;

use crate::error::{Result, Span};
use crate::value::Value;

/// The deepest nesting of collections and prefix forms the reader accepts.
/// Deeper input is a parse error (never a native stack overflow).
pub const MAX_NESTING: usize = 1000;

/// A form as read, with the byte range it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub kind: FormKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FormKind {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// Strings and characters (`\a` reads as `"a"`).
    Str(String),
    /// Without the colon: `:a/b` → `a/b`.
    Keyword(String),
    Symbol(String),
    List(Vec<Form>),
    Vector(Vec<Form>),
    /// Flat `k1 v1 k2 v2 …` (the reader checks the count is even).
    Map(Vec<Form>),
    Set(Vec<Form>),
    /// `#"…"`: the pattern source.
    Regex(String),
}

/// Reads every top-level form of `src`.
pub fn read_all(src: &str) -> Result<Vec<Form>> {
    build::read(src)
}

/// Surplus `)`s found after the last complete top-level form of a program,
/// with nothing but whitespace and comments around them. LLMs often close
/// one list too many at the very end (language.md, principle 1); the
/// program reads as if they were absent and the turn records a note
/// ([`SurplusClosers::note`]). A stray `)` anywhere else, and any surplus
/// `]` or `}`, stays a parse error (as in Clojure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurplusClosers {
    /// Byte offset of the first surplus bracket.
    pub start: usize,
    /// The brackets (`")"`, `"))"` …).
    pub brackets: String,
}

/// The most brackets a [`SurplusClosers::note`] repeats.
pub const NOTE_BRACKETS: usize = 16;

impl SurplusClosers {
    /// The note shown on the turn, e.g. `ignored 1 surplus closing bracket
    /// ")" at the end of the program (line 3, column 4)`.
    pub fn note(&self, src: &str) -> String {
        let (line, col) = crate::error::line_col(src, self.start);
        let n = self.brackets.chars().count();
        let plural = if n == 1 { "" } else { "s" };
        // A count and an excerpt: a flood of brackets is not repeated.
        let shown: String = if n > NOTE_BRACKETS {
            let head: String = self.brackets.chars().take(NOTE_BRACKETS).collect();
            format!("{head}...")
        } else {
            self.brackets.clone()
        };
        format!(
            "ignored {n} surplus closing bracket{plural} \"{shown}\" at the end of the program (line {line}, column {col})"
        )
    }
}

/// Reads a whole program: [`read_all`], except that surplus closing
/// brackets after the last complete top-level form are dropped and reported.
pub fn read_program(src: &str) -> Result<(Vec<Form>, Option<SurplusClosers>)> {
    build::read_program(src)
}

/// Converts a form to the value it denotes as data (what `quote` gives).
pub fn form_to_value(form: &Form) -> Result<Value> {
    data::to_value(form, false)
}

/// Reads exactly one literal (conformance `expect`, `data` …) as a value.
/// `#'x` reads as the var `x` here.
pub fn read_value(src: &str) -> Result<Value> {
    data::read_value(src)
}
