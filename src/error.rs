//! The one error type of ptc.
//!
//! Every failure a program can meet is an [`Error`] whose [`ErrorKind`] is one
//! of the kinds listed in `spec/language.md` §Errors, plus [`ErrorKind::Internal`]
//! for bugs of ptc itself (tests treat those as failures). An error carries a
//! one-line message written for an LLM to act on, an optional hint, an optional
//! byte-range [`Span`] into the source it came from, and — for `ex-info`,
//! `fail` and `return` — a value.
//!
//! `(return v)` travels as an error of kind [`ErrorKind::Return`] so that it can
//! unwind through any depth of evaluation; it is not an error and never leaves
//! [`crate::eval`] as one.
//!
//! Spans become line/column only when shown ([`Error::line_col`], and the
//! `miette` diagnostic in [`Error::diagnostic`]).

use std::fmt;
use std::sync::Arc;

use crate::value::Value;

/// A byte range `start..end` in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`; offsets past `u32::MAX` are clamped (sources
    /// are limited far below that).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start.min(u32::MAX as usize) as u32,
            end: end.min(u32::MAX as usize) as u32,
        }
    }

    /// 1-based line and column (in characters) of `self.start` in `src`.
    pub fn line_col(&self, src: &str) -> (usize, usize) {
        line_col(src, self.start as usize)
    }
}

/// 1-based line and column (counted in characters) of byte offset `at`.
pub fn line_col(src: &str, at: usize) -> (usize, usize) {
    let at = floor_char_boundary(src, at.min(src.len()));
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The kinds of `spec/language.md` §Errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `parse-error`: the text is not well-formed PTC-Lisp (unbalanced
    /// brackets, a bad literal, nesting too deep).
    Parse,
    /// `validation-error`: well-formed but not a valid program (a special
    /// form used wrongly, a forbidden form, `recur` not in tail position).
    Validation,
    /// `type-error`: a function got an argument of the wrong type.
    Type,
    /// `arithmetic-error`: division by zero, integer overflow.
    Arithmetic,
    /// `arity-error`: a function called with the wrong number of arguments.
    Arity,
    /// `undefined-error`: a name, `data/` or `tool/` that does not exist.
    Undefined,
    /// `execution-error`: a runtime failure not covered by another kind
    /// (`ex-info` thrown, index out of range …).
    Execution,
    /// `tool-error`: a tool call failed (the host's message).
    Tool,
    /// `fail`: the program gave up with `(fail v)`.
    Fail,
    /// `timeout`: the program ran past [`crate::Limits::timeout_ms`].
    Timeout,
    /// `memory-exceeded`: the program built more than
    /// [`crate::Limits::max_heap_bytes`].
    MemoryExceeded,
    /// `limit-exceeded`: another limit of [`crate::Limits`] (steps, call
    /// depth, printed bytes, tool calls, source size, nesting of a result).
    LimitExceeded,
    /// `paused`: the turn stopped at a tool call that awaits approval
    /// (`session.md` §Tools that act); memory is unchanged and the turn
    /// can be resumed.
    Paused,
    /// `indeterminate`: a write whose intent was recorded but whose answer
    /// was not (ptc stopped in between): it may or may not have happened,
    /// so it is not run again.
    Indeterminate,
    /// A bug in ptc, never the program's fault.
    Internal,
    /// Not an error: `(return v)` unwinding to the top of the turn.
    Return,
}

impl ErrorKind {
    /// The kind's name as the spec and conformance cases spell it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse-error",
            ErrorKind::Validation => "validation-error",
            ErrorKind::Type => "type-error",
            ErrorKind::Arithmetic => "arithmetic-error",
            ErrorKind::Arity => "arity-error",
            ErrorKind::Undefined => "undefined-error",
            ErrorKind::Execution => "execution-error",
            ErrorKind::Tool => "tool-error",
            ErrorKind::Fail => "fail",
            ErrorKind::Timeout => "timeout",
            ErrorKind::MemoryExceeded => "memory-exceeded",
            ErrorKind::LimitExceeded => "limit-exceeded",
            ErrorKind::Paused => "paused",
            ErrorKind::Indeterminate => "indeterminate",
            ErrorKind::Internal => "internal-error",
            ErrorKind::Return => "return",
        }
    }

    /// Whether `try`/`catch` may catch this kind. Limits, `fail`, `return`
    /// and ptc's own bugs always end the turn: a sandboxed program cannot
    /// swallow them.
    pub fn catchable(self) -> bool {
        matches!(
            self,
            ErrorKind::Type
                | ErrorKind::Arithmetic
                | ErrorKind::Arity
                | ErrorKind::Undefined
                | ErrorKind::Execution
                | ErrorKind::Tool
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of every fallible operation in ptc. Boxed so that
/// `Result<Value>` stays small on the hot path.
#[derive(Clone)]
pub struct Error(Box<ErrorInner>);

#[derive(Clone)]
struct ErrorInner {
    kind: ErrorKind,
    message: String,
    hint: Option<String>,
    span: Option<Span>,
    /// The source text `span` points into, once known (functions defined in
    /// an earlier turn carry their own source).
    source: Option<Arc<str>>,
    data: Option<Value>,
    /// Parse errors only: the input ended inside an open form or string
    /// (the REPL keeps reading instead of reporting).
    incomplete: bool,
    /// The Java exception class a thrown error was built as (`(throw
    /// (IllegalArgumentException. "msg"))`, `Integer/parseInt` failing):
    /// what `catch` matches on besides the kind.
    class: Option<&'static str>,
    /// A Java exception built without a message (`(RuntimeException.)`):
    /// `message` holds the class name for the reader, `ex-message` is nil.
    no_message: bool,
    /// A builtin refused a `lazy-seq` it needs whole (`args::whole`): the
    /// address of that sequence's link, for eval/realise.rs to realise it
    /// and call the builtin again.
    refused_lazy: Option<usize>,
}

/// `Result` with ptc's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with a one-line `message` (written for an LLM:
    /// name the function, the expected and the actual).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(ErrorInner {
            kind,
            message: message.into(),
            hint: None,
            span: None,
            source: None,
            data: None,
            incomplete: false,
            class: None,
            no_message: false,
            refused_lazy: None,
        }))
    }

    pub(crate) fn parse(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Parse, message)
    }
    pub(crate) fn validation(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Validation, message)
    }
    pub(crate) fn type_error(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Type, message)
    }
    pub(crate) fn arithmetic(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Arithmetic, message)
    }
    pub(crate) fn arity(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Arity, message)
    }
    pub(crate) fn undefined(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Undefined, message)
    }
    pub(crate) fn execution(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Execution, message)
    }
    pub(crate) fn limit(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::LimitExceeded, message)
    }
    pub(crate) fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Internal, message)
    }

    /// `(return v)`.
    pub(crate) fn return_signal(value: Value) -> Error {
        Error::new(ErrorKind::Return, "return").with_data(value)
    }

    /// Adds a hint: how to fix the mistake, shown after the message.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.0.hint = Some(hint.into());
        self
    }
    /// Attaches a value (`ex-info`'s map, `fail`'s argument).
    pub fn with_data(mut self, data: Value) -> Error {
        self.0.data = Some(data);
        self
    }
    /// The error with `f` applied to its message and hint (hidden data
    /// taken out of them, `eval/hidden.rs`).
    pub(crate) fn map_text(mut self, f: impl Fn(&str) -> String) -> Error {
        self.0.message = f(&self.0.message);
        self.0.hint = self.0.hint.as_deref().map(f);
        self
    }
    /// Points the error at `span` of its source.
    pub fn with_span(mut self, span: Span) -> Error {
        self.0.span = Some(span);
        self
    }
    /// Marks a parse error as "the input ended too early".
    pub(crate) fn incomplete(mut self) -> Error {
        self.0.incomplete = true;
        self
    }

    /// Sets the span if the error has none yet (the innermost span wins).
    pub(crate) fn or_span(mut self, span: Span) -> Error {
        if self.0.span.is_none() {
            self.0.span = Some(span);
        }
        self
    }
    /// Records which source text the span points into, if not known yet.
    pub(crate) fn or_source(mut self, source: &Arc<str>) -> Error {
        if self.0.source.is_none() && self.0.span.is_some() {
            self.0.source = Some(source.clone());
        }
        self
    }

    /// Which of the spec's error kinds this is.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
    /// The one-line message, without kind, hint or position.
    pub fn message(&self) -> &str {
        &self.0.message
    }
    /// How to fix the mistake, when the mistake is a common one.
    pub fn hint(&self) -> Option<&str> {
        self.0.hint.as_deref()
    }
    /// The bytes of the source the error points at, if known.
    pub fn span(&self) -> Option<Span> {
        self.0.span
    }
    /// The source text [`Error::span`] points into, if known.
    pub fn source_text(&self) -> Option<&Arc<str>> {
        self.0.source.as_ref()
    }
    /// The value attached by `ex-info`, `fail` or `return`, if any.
    pub fn data(&self) -> Option<&Value> {
        self.0.data.as_ref()
    }
    /// Marks the error as an instance of the Java exception `class`.
    pub(crate) fn with_class(mut self, class: &'static str) -> Error {
        self.0.class = Some(class);
        self
    }
    /// Marks the error as a builtin's refusal of the `lazy-seq` whose link
    /// is at `addr` (`args::whole`).
    pub(crate) fn with_refused_lazy(mut self, addr: usize) -> Error {
        self.0.refused_lazy = Some(addr);
        self
    }
    /// The link address [`Error::with_refused_lazy`] marked, if any.
    pub(crate) fn refused_lazy(&self) -> Option<usize> {
        self.0.refused_lazy
    }
    /// Marks a Java exception built without a message (`ex-message` is nil).
    pub(crate) fn without_message(mut self) -> Error {
        self.0.no_message = true;
        self
    }
    /// Whether the error has a message of its own (see [`Error::without_message`]).
    pub(crate) fn has_message(&self) -> bool {
        !self.0.no_message
    }
    /// The Java exception class the error was built as, if any.
    pub(crate) fn class(&self) -> Option<&'static str> {
        self.0.class
    }
    /// Whether this parse error means only "the input ended inside an open
    /// form or string": a REPL reads another line instead of reporting it.
    pub fn is_incomplete(&self) -> bool {
        self.0.incomplete
    }

    /// Line and column of the error, if it has a span and its source is known.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        let span = self.0.span?;
        let src = self.0.source.as_ref()?;
        Some(span.line_col(src))
    }

    /// A `miette` diagnostic showing the offending line with a caret.
    ///
    /// Only a window of that line is shown: at most
    /// 80 characters either side of the error's start, with
    /// its exact line number. A whole line of a megabyte source would be
    /// unreadable, and miette cannot lay out a column past 65,535.
    pub fn diagnostic(&self) -> miette::Report {
        let mut diag =
            miette::MietteDiagnostic::new(self.0.message.clone()).with_code(self.0.kind.name());
        if let Some(hint) = &self.0.hint {
            diag = diag.with_help(hint.clone());
        }
        match (&self.0.span, &self.0.source) {
            (Some(span), Some(src)) => {
                let snippet = Snippet::around(src, *span);
                diag = diag.with_label(miette::LabeledSpan::at(snippet.label.clone(), "here"));
                miette::Report::new(diag).with_source_code(snippet)
            }
            _ => miette::Report::new(diag),
        }
    }
}

/// The most characters of the error's line a diagnostic shows either side
/// of the error's start.
pub const WINDOW_CHARS: usize = 80;

/// The part of a source a diagnostic shows: a window of one line around
/// the error, as a byte range of the whole source (so miette's offsets
/// stay those of the source), with its exact 0-based line and column.
#[derive(Debug)]
struct Snippet {
    src: Arc<str>,
    window: std::ops::Range<usize>,
    /// The label: the error's span, cut to the window.
    label: std::ops::Range<usize>,
    line: usize,
    column: usize,
}

impl Snippet {
    fn around(src: &Arc<str>, span: Span) -> Snippet {
        let at = floor_char_boundary(src, (span.start as usize).min(src.len()));
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[at..].find('\n').map_or(src.len(), |i| at + i);
        // Up to WINDOW_CHARS characters before and after `at`, on its line.
        let start = src[line_start..at]
            .char_indices()
            .rev()
            .nth(WINDOW_CHARS - 1)
            .map_or(line_start, |(i, _)| line_start + i);
        let end = src[at..line_end]
            .char_indices()
            .nth(WINDOW_CHARS)
            .map_or(line_end, |(i, _)| at + i);
        let (line, column) = line_col(src, start);
        let label_end = floor_char_boundary(src, (span.end as usize).clamp(at, end));
        Snippet {
            src: src.clone(),
            window: start..end,
            label: at..label_end,
            line: line - 1,
            column: column - 1,
        }
    }
}

impl miette::SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        _span: &miette::SourceSpan,
        _context_lines_before: usize,
        _context_lines_after: usize,
    ) -> std::result::Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let data = &self.src.as_bytes()[self.window.clone()];
        Ok(Box::new(miette::MietteSpanContents::new(
            data,
            (self.window.start, data.len()).into(),
            self.line,
            self.column,
            1,
        )))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.kind, self.0.message)?;
        if let Some(hint) = &self.0.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self}")?;
        if let Some(span) = self.0.span {
            write!(f, " @{}..{}", span.start, span.end)?;
        }
        write!(f, ")")
    }
}

impl std::error::Error for Error {}

/// The hint for `atom`, `swap!`, `reset!`, `@x` … (issue 27 item 10): state
/// lives in `def`, and the two shapes models reach for an atom for have a
/// two-line rewrite each.
pub(crate) const MUTABLE_STATE_HINT: &str =
    "there is no mutable state: values kept across turns live in def. \
An accumulator filled in doseq becomes reduce:
  (def totals (reduce (fn [acc x] (conj acc (:amount x))) [] items))
  ;; not (doseq [x items] (swap! acc conj (:amount x)))
A counter becomes loop/recur (or count/filter):
  (loop [xs items n 0] (if (seq xs) (recur (rest xs) (if (ok? (first xs)) (inc n) n)) n))
  ;; not (swap! counter inc) inside doseq";
