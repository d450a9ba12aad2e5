//! The reader's main loop: assembles tokens from [`super::lex`] into forms.
//!
//! Collections (`()` `[]` `{}` `#{}` `#()`) and prefix forms (`'x`, `#'x`,
//! `#_`, `^meta`) are [`Frame`]s on an explicit heap stack, so reading never
//! recurses natively; the stack is capped at [`MAX_NESTING`] frames. A
//! finished form is delivered to the frame on top (which may wrap it, drop it
//! or collect it) or, with no frame open, becomes a top-level form.
//!
//! `#(...)` is expanded here: `%`/`%1`…`%20`/`%&` seen while it is open are
//! recorded, and on `)` it becomes `(fn [%1 … & %&] (...))`, `%` renamed `%1`.

use super::lex::{self, In};
use super::{Form, FormKind, MAX_NESTING};
use crate::error::{line_col, Error, Result, Span};

/// What an open frame is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Open {
    List,
    Vector,
    Map,
    Set,
    /// `#(`
    FnLit,
    /// `'` — the next form is wrapped in `(quote …)`.
    Quote,
    /// `#'` — the next form (a symbol) is wrapped in `(var …)`.
    Var,
    /// `#_` — the next form is dropped.
    Discard,
    /// `^` — the next form is metadata (dropped), the one after it is kept.
    Meta {
        seen: bool,
    },
}

impl Open {
    fn closer(self) -> Option<char> {
        match self {
            Open::List | Open::FnLit => Some(')'),
            Open::Vector => Some(']'),
            Open::Map | Open::Set => Some('}'),
            _ => None,
        }
    }

    fn opener(self) -> &'static str {
        match self {
            Open::List => "(",
            Open::Vector => "[",
            Open::Map => "{",
            Open::Set => "#{",
            Open::FnLit => "#(",
            Open::Quote => "'",
            Open::Var => "#'",
            Open::Discard => "#_",
            Open::Meta { .. } => "^",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Open::List => "list",
            Open::Vector => "vector",
            Open::Map => "map",
            Open::Set => "set",
            Open::FnLit => "#() function",
            Open::Quote => "quote",
            Open::Var => "var",
            Open::Discard => "discard",
            Open::Meta { .. } => "metadata",
        }
    }
}

struct Frame {
    open: Open,
    /// Byte offset of the opening delimiter.
    start: usize,
    items: Vec<Form>,
}

/// The `%` arguments seen inside the open `#(...)`.
#[derive(Default)]
struct FnArgs {
    max: usize,
    rest: bool,
}

/// The highest numbered `%N` accepted inside `#()`.
const MAX_FN_ARG: usize = 20;

struct Reader<'s> {
    src: &'s str,
    stack: Vec<Frame>,
    top: Vec<Form>,
    fn_args: Option<FnArgs>,
}

/// Reads every top-level form of `src`.
pub(super) fn read(src: &str) -> Result<Vec<Form>> {
    Ok(read_with(src, false)?.0)
}

/// Reads every top-level form of a program, tolerating surplus closing
/// brackets after the last complete top-level form (see
/// [`super::SurplusClosers`]).
pub(super) fn read_program(src: &str) -> Result<(Vec<Form>, Option<super::SurplusClosers>)> {
    read_with(src, true)
}

fn read_with(src: &str, allow_surplus: bool) -> Result<(Vec<Form>, Option<super::SurplusClosers>)> {
    let mut reader = Reader {
        src,
        stack: Vec::new(),
        top: Vec::new(),
        fn_args: None,
    };
    let mut input = In::new(src);
    let mut surplus = None;
    loop {
        input = lex::skip_ws(input);
        let Some(c) = input.fragment().chars().next() else {
            break;
        };
        if allow_surplus && reader.stack.is_empty() && c == ')' {
            if let Some(found) = surplus_closers(input) {
                surplus = Some(found);
                break;
            }
        }
        input = reader.step(input, c)?;
    }
    Ok((reader.finish()?, surplus))
}

/// The `)`s `input` (which starts at one, with no form open) holds, when
/// nothing but `)`s, whitespace and comments follow. Surplus `]` and `}`
/// stay parse errors: models over-close lists (a final `nil)`), and the
/// conformance cases keep `[1 2 3]]]` and `(+ 1 2))]}` errors as in Clojure.
fn surplus_closers(mut input: In<'_>) -> Option<super::SurplusClosers> {
    let start = input.location_offset();
    let mut brackets = String::new();
    loop {
        input = lex::skip_ws(input);
        let Some(c) = input.fragment().chars().next() else {
            break;
        };
        if c != ')' {
            return None;
        }
        brackets.push(c);
        input = lex::split(input, 1).0;
    }
    Some(super::SurplusClosers { start, brackets })
}

/// A map literal may not repeat a key (Clojure's reader rejects
/// `{"k" 1 "k" 2}`): keys are compared as the data they read as, so `1`
/// and `1.0`, or `:a` and `"a"`, are different keys.
// Regex values hash by their source; the lazily built matcher inside them
// never changes a key.
#[allow(clippy::mutable_key_type)]
fn check_duplicate_keys(items: &[Form]) -> Result<()> {
    if items.len() < 4 {
        return Ok(());
    }
    if items.len() <= 2 * SIMPLE_KEYS && items.iter().step_by(2).all(|k| simple_key(k).is_some()) {
        // Nearly every map literal: a few keywords, strings, symbols or
        // integers, compared in place (no value is built).
        let keys: Vec<(u8, &str, i64)> = items.iter().step_by(2).filter_map(simple_key).collect();
        for (i, k) in keys.iter().enumerate() {
            if keys[..i].contains(k) {
                let key = &items[2 * i];
                let shown = super::data::to_value(key, false)
                    .map(|v| crate::format::to_clojure(&v, Some(5), Some(60)).0)
                    .unwrap_or_default();
                return Err(duplicate_key(&shown, key));
            }
        }
        return Ok(());
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len() / 2);
    for key in items.iter().step_by(2) {
        let Ok(k) = super::data::to_value(key, false) else {
            continue;
        };
        if seen.contains(&k) {
            let shown = crate::format::to_clojure(&k, Some(5), Some(60)).0;
            return Err(duplicate_key(&shown, key));
        }
        seen.insert(k);
    }
    Ok(())
}

/// Map literals with at most this many keys, all [`simple_key`]s, are
/// checked by comparing every key with the ones before it.
const SIMPLE_KEYS: usize = 16;

/// A keyword, string, symbol or integer key as (kind, text, integer): two
/// such keys are equal as data exactly when these are equal.
fn simple_key(key: &Form) -> Option<(u8, &str, i64)> {
    match &key.kind {
        FormKind::Keyword(k) => Some((0, k, 0)),
        FormKind::Str(s) => Some((1, s, 0)),
        FormKind::Symbol(s) => Some((2, s, 0)),
        FormKind::Int(i) => Some((3, "", *i)),
        _ => None,
    }
}

fn duplicate_key(shown: &str, key: &Form) -> Error {
    perr(
        format!("duplicate key {shown} in map literal"),
        key.span.start as usize,
        key.span.end as usize,
    )
    .with_hint("each key may appear once in a map literal; remove or rename the repeated one")
}

fn perr(msg: impl Into<String>, start: usize, end: usize) -> Error {
    Error::parse(msg).with_span(Span::new(start, end))
}

impl Reader<'_> {
    /// Reads what starts at `input` (its first character is `c`).
    fn step<'a>(&mut self, input: In<'a>, c: char) -> Result<In<'a>> {
        let at = input.location_offset();
        match c {
            '(' => self.open(Open::List, input, 1),
            '[' => self.open(Open::Vector, input, 1),
            '{' => self.open(Open::Map, input, 1),
            '\'' => self.open(Open::Quote, input, 1),
            '^' => self.open(Open::Meta { seen: false }, input, 1),
            ')' | ']' | '}' => {
                self.close(c, at)?;
                Ok(lex::split(input, 1).0)
            }
            '"' => {
                let (rest, s) = lex::string(input)?;
                self.atom(FormKind::Str(s), at, rest)
            }
            '\\' => {
                let (rest, s) = lex::character(input)?;
                self.atom(FormKind::Str(s), at, rest)
            }
            '#' => self.dispatch(input),
            '@' => Err(perr(
                "@ (deref) is not supported: there are no atoms or refs",
                at,
                at + 1,
            )
            .with_hint(crate::error::MUTABLE_STATE_HINT)),
            '`' | '~' => Err(
                perr(format!("{c} (syntax quote) is not supported"), at, at + 1)
                    .with_hint("there are no macros; use ' to quote data"),
            ),
            _ => {
                let (rest, tok) = lex::token(input)?;
                let span = Span::new(at, rest.location_offset());
                let kind = match tok.fragment().strip_prefix('%') {
                    Some(arg) => self.fn_arg(tok.fragment(), arg, span)?,
                    None => lex::atom(tok.fragment(), span)?,
                };
                self.atom(kind, at, rest)
            }
        }
    }

    /// `#` dispatch: `#{` `#(` `#"` `#_` `#'` `##`.
    fn dispatch<'a>(&mut self, input: In<'a>) -> Result<In<'a>> {
        let at = input.location_offset();
        let next = input.fragment()[1..].chars().next();
        match next {
            Some('{') => self.open(Open::Set, input, 2),
            Some('(') => self.open(Open::FnLit, input, 2),
            Some('_') => self.open(Open::Discard, input, 2),
            Some('\'') => self.open(Open::Var, input, 2),
            Some('"') => {
                let (rest, pattern) = lex::regex(input)?;
                self.atom(FormKind::Regex(pattern), at, rest)
            }
            Some('#') => {
                let (rest, f) = lex::symbolic(input)?;
                self.atom(FormKind::Float(f), at, rest)
            }
            None => Err(perr("the input ended after #", at, at + 1).incomplete()),
            Some(c) => {
                let (msg, hint) = match c {
                    '?' => (
                        "reader conditionals #? are not supported",
                        "write plain code",
                    ),
                    ':' => (
                        "namespaced map literals #:ns{...} are not supported",
                        "write the keys out in full: {:ns/a 1}",
                    ),
                    c if c.is_alphabetic() => (
                        "tagged literals (#inst, #uuid, …) are not supported",
                        "use a string instead",
                    ),
                    _ => (
                        "# must be followed by {, (, \", _, ' or #",
                        "a set is #{...} and a short function #(...), with no space after #",
                    ),
                };
                Err(perr(msg, at, at + 1 + c.len_utf8()).with_hint(hint))
            }
        }
    }

    /// Opens a frame whose opening delimiter is `len` bytes long.
    fn open<'a>(&mut self, open: Open, input: In<'a>, len: usize) -> Result<In<'a>> {
        let start = input.location_offset();
        if self.stack.len() >= MAX_NESTING {
            return Err(perr(
                format!("forms are nested more than {MAX_NESTING} levels deep (the reader's limit MAX_NESTING)"),
                start,
                start + len,
            )
            .with_hint("flatten the data, or build deep structures with code"));
        }
        if open == Open::FnLit {
            if self.fn_args.is_some() {
                return Err(
                    Error::validation("nested #() short functions are not allowed")
                        .with_span(Span::new(start, start + len))
                        .with_hint("write the inner (or outer) one as (fn [x] ...)"),
                );
            }
            self.fn_args = Some(FnArgs::default());
        }
        self.stack.push(Frame {
            open,
            start,
            items: Vec::new(),
        });
        Ok(lex::split(input, len).0)
    }

    /// Delivers a finished atom spanning `at..rest`.
    fn atom<'a>(&mut self, kind: FormKind, at: usize, rest: In<'a>) -> Result<In<'a>> {
        let span = Span::new(at, rest.location_offset());
        self.deliver(Form { kind, span })?;
        Ok(rest)
    }

    /// Hands a finished form to the frame on top, unwinding prefix frames.
    fn deliver(&mut self, mut form: Form) -> Result<()> {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                self.top.push(form);
                return Ok(());
            };
            let start = frame.start;
            match frame.open {
                Open::List | Open::Vector | Open::Map | Open::Set | Open::FnLit => {
                    frame.items.push(form);
                    return Ok(());
                }
                Open::Discard => {
                    self.stack.pop();
                    return Ok(());
                }
                Open::Meta { seen: false } => {
                    frame.open = Open::Meta { seen: true };
                    return Ok(());
                }
                Open::Meta { seen: true } => {
                    self.stack.pop();
                }
                Open::Quote => {
                    self.stack.pop();
                    form = wrap("quote", start, 1, form);
                }
                Open::Var => {
                    if !matches!(form.kind, FormKind::Symbol(_)) {
                        return Err(perr(
                            "#' must be followed by a symbol",
                            start,
                            form.span.end as usize,
                        )
                        .with_hint("write #'name to refer to a var"));
                    }
                    self.stack.pop();
                    form = wrap("var", start, 2, form);
                }
            }
        }
    }

    /// A closing delimiter `c` at byte `at`.
    fn close(&mut self, c: char, at: usize) -> Result<()> {
        let Some(frame) = self.stack.last() else {
            let what = match c {
                ')' => "no list is open",
                ']' => "no vector is open",
                _ => "no map or set is open",
            };
            return Err(perr(format!("unexpected {c} — {what}"), at, at + 1)
                .with_hint(format!("remove the extra {c}")));
        };
        match frame.open.closer() {
            None => {
                return Err(perr(
                    format!(
                        "{} must be followed by a form, found {c}",
                        frame.open.opener()
                    ),
                    frame.start,
                    at + 1,
                ))
            }
            Some(expected) if expected != c => {
                let (line, col) = line_col(self.src, frame.start);
                return Err(perr(
                    format!(
                        "expected {expected} to close the {} opened at line {line}, column {col}, found {c}",
                        frame.open.name()
                    ),
                    at,
                    at + 1,
                ));
            }
            Some(_) => {}
        }
        let Some(frame) = self.stack.pop() else {
            return Err(Error::internal("reader: frame vanished"));
        };
        let span = Span::new(frame.start, at + 1);
        let kind = match frame.open {
            Open::List => FormKind::List(frame.items),
            Open::Vector => FormKind::Vector(frame.items),
            Open::Set => FormKind::Set(frame.items),
            Open::Map if frame.items.len() % 2 == 1 => {
                return Err(Error::parse(format!(
                    "map literal needs an even number of forms, got {}",
                    frame.items.len()
                ))
                .with_span(span)
                .with_hint("every key needs a value: {:a 1 :b 2}"));
            }
            Open::Map => {
                check_duplicate_keys(&frame.items)?;
                FormKind::Map(frame.items)
            }
            Open::FnLit => self.expand_fn(frame.items, span),
            _ => return Err(Error::internal("reader: closed a prefix frame")),
        };
        self.deliver(Form { kind, span })
    }

    /// A token starting with `%` (`arg` is the text after it).
    fn fn_arg(&mut self, text: &str, arg: &str, span: Span) -> Result<FormKind> {
        let number = if arg.is_empty() {
            Some(1)
        } else if arg.bytes().all(|b| b.is_ascii_digit()) {
            arg.parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_FN_ARG).contains(n))
        } else {
            None
        };
        let is_arg = arg.is_empty() || arg == "&" || arg.bytes().all(|b| b.is_ascii_digit());
        let Some(args) = self.fn_args.as_mut() else {
            if is_arg {
                return Err(Error::validation(format!(
                    "{text} is only valid inside a #(...) short function"
                ))
                .with_span(span)
                .with_hint("use #(... % ...) or name the parameter with (fn [x] ...)"));
            }
            return lex::atom(text, span);
        };
        if arg == "&" {
            args.rest = true;
            return Ok(FormKind::Symbol("%&".to_string()));
        }
        let Some(n) = number else {
            return Err(Error::parse(format!(
                "invalid argument {text} in #(): use %, %& or %1 to %{MAX_FN_ARG}"
            ))
            .with_span(span));
        };
        args.max = args.max.max(n);
        Ok(FormKind::Symbol(format!("%{n}")))
    }

    /// `#(body…)` → `(fn [%1 … & %&] (body…))`.
    fn expand_fn(&mut self, items: Vec<Form>, span: Span) -> FormKind {
        let args = self.fn_args.take().unwrap_or_default();
        let head = Span::new(span.start as usize, span.start as usize + 2);
        let sym = |name: String| Form {
            kind: FormKind::Symbol(name),
            span: head,
        };
        let mut params: Vec<Form> = (1..=args.max).map(|i| sym(format!("%{i}"))).collect();
        if args.rest {
            params.push(sym("&".to_string()));
            params.push(sym("%&".to_string()));
        }
        FormKind::List(vec![
            sym("fn".to_string()),
            Form {
                kind: FormKind::Vector(params),
                span: head,
            },
            Form {
                kind: FormKind::List(items),
                span,
            },
        ])
    }

    /// At the end of the input: the top-level forms, or an incomplete error
    /// for the innermost frame still open.
    fn finish(self) -> Result<Vec<Form>> {
        let Some(frame) = self.stack.last() else {
            return Ok(self.top);
        };
        let end = frame.start + frame.open.opener().len();
        let err = match frame.open.closer() {
            Some(_) => {
                let (line, col) = line_col(self.src, frame.start);
                let closers: String = self
                    .stack
                    .iter()
                    .rev()
                    .filter_map(|f| f.open.closer())
                    .collect();
                perr(
                    format!(
                        "unexpected end of input: the {} {} opened at line {line}, column {col} is never closed",
                        frame.open.name(),
                        frame.open.opener()
                    ),
                    frame.start,
                    end,
                )
                .with_hint(format!("add {closers} at the end (or check for a missing closer earlier)"))
            }
            None => perr(
                format!(
                    "unexpected end of input: {} must be followed by a form",
                    frame.open.opener()
                ),
                frame.start,
                end,
            ),
        };
        Err(err.incomplete())
    }
}

/// `(name form)`, the name spanning the `len`-byte prefix at `start`.
fn wrap(name: &str, start: usize, len: usize, form: Form) -> Form {
    let span = Span::new(start, form.span.end as usize);
    Form {
        kind: FormKind::List(vec![
            Form {
                kind: FormKind::Symbol(name.to_string()),
                span: Span::new(start, start + len),
            },
            form,
        ]),
        span,
    }
}
