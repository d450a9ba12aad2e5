//! Forms as data: what a quoted form denotes ([`super::form_to_value`]) and
//! reading one literal as a value ([`super::read_value`]).
//!
//! Lists and vectors become vectors (one sequential type), maps and sets drop
//! duplicates (a later map entry wins), regex sources are compiled (an
//! invalid pattern is an `execution-error`). Recursion here is bounded by the
//! reader's [`super::MAX_NESTING`].

use super::{Form, FormKind};
use crate::error::{Error, Result, Span};
use crate::value::{Map, Set, Text, Value};

/// Converts `form` to data. With `literal`, `(var x)` (as `#'x` reads)
/// becomes the var value `#'x`, for reading expected results.
///
/// Iterative (an explicit work stack), so deep forms cannot overflow the
/// native stack.
pub(super) fn to_value(form: &Form, literal: bool) -> Result<Value> {
    enum Task<'f> {
        Visit(&'f Form),
        Build(&'f Form),
    }
    let mut tasks = vec![Task::Visit(form)];
    let mut done: Vec<Value> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(f) => match children(f, literal) {
                Some(items) => {
                    tasks.push(Task::Build(f));
                    tasks.extend(items.iter().rev().map(Task::Visit));
                }
                None => done.push(scalar(f, literal)?),
            },
            Task::Build(f) => {
                let items = children(f, literal).unwrap_or(&[]);
                let at = done.len().saturating_sub(items.len());
                let values = done.split_off(at);
                done.push(collection(f, values)?);
            }
        }
    }
    done.pop()
        .ok_or_else(|| Error::internal("reader: form conversion lost its value"))
}

/// The sub-forms of a collection form (`None` for atoms and literal vars).
fn children(form: &Form, literal: bool) -> Option<&[Form]> {
    match &form.kind {
        FormKind::List(items) if literal && literal_var(items).is_some() => None,
        FormKind::List(items)
        | FormKind::Vector(items)
        | FormKind::Map(items)
        | FormKind::Set(items) => Some(items),
        _ => None,
    }
}

/// `(var name)` → `name`.
fn literal_var(items: &[Form]) -> Option<&str> {
    match items {
        [Form {
            kind: FormKind::Symbol(head),
            ..
        }, Form {
            kind: FormKind::Symbol(name),
            ..
        }] if head == "var" => Some(name),
        _ => None,
    }
}

fn scalar(form: &Form, literal: bool) -> Result<Value> {
    Ok(match &form.kind {
        FormKind::Nil => Value::Nil,
        FormKind::Bool(b) => Value::Bool(*b),
        FormKind::Int(i) => Value::Int(*i),
        FormKind::Float(f) => Value::Float(*f),
        FormKind::Str(s) => Value::string(s.as_str()),
        FormKind::Keyword(k) => Value::keyword_interned(k),
        FormKind::Symbol(s) => Value::symbol(s.as_str()),
        FormKind::Regex(src) => regex(src, form.span)?,
        FormKind::List(items) => match literal_var(items).filter(|_| literal) {
            Some(name) => Value::Var(Text::from(name)),
            None => return Err(Error::internal("reader: list treated as a scalar")),
        },
        _ => return Err(Error::internal("reader: collection treated as a scalar")),
    })
}

/// Builds the collection `form` from its converted items.
fn collection(form: &Form, values: Vec<Value>) -> Result<Value> {
    Ok(match &form.kind {
        FormKind::Map(_) => {
            if values.len() % 2 == 1 {
                return Err(
                    Error::parse("map literal needs an even number of forms").with_span(form.span)
                );
            }
            let mut map = Map::new();
            let mut it = values.into_iter();
            while let (Some(k), Some(v)) = (it.next(), it.next()) {
                map.insert(k, v);
            }
            Value::Map(map)
        }
        FormKind::Set(_) => Value::Set(values.into_iter().collect::<Set>()),
        _ => Value::vector_from(values),
    })
}

fn regex(src: &str, span: Span) -> Result<Value> {
    crate::value::regex::compile_regex(src)
        .map(Value::Regex)
        .map_err(|e| e.with_span(span))
}

/// Reads exactly one form of `src` and converts it as a literal.
pub(super) fn read_value(src: &str) -> Result<Value> {
    let forms = super::read_all(src)?;
    match forms.as_slice() {
        [form] => to_value(form, true),
        [] => {
            Err(Error::parse("expected one literal, found nothing")
                .with_span(Span::new(0, src.len())))
        }
        [_, second, ..] => Err(Error::parse(format!(
            "expected exactly one literal, found {} forms",
            forms.len()
        ))
        .with_span(second.span)),
    }
}
