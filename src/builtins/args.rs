//! Argument helpers shared by every builtin area: type checks that produce
//! the LLM-readable `type-error` (`count expects a collection, got integer 5`)
//! and conversion of any seqable value to its items.

use crate::error::{Error, Result};
use crate::value::{Map, Text, Value, Vector};

/// `NAME expects EXPECTED, got TYPE PREVIEW`.
pub fn type_error(fname: &str, expected: &str, got: &Value) -> Error {
    Error::type_error(format!(
        "{fname} expects {expected}, got {}",
        got.describe()
    ))
}

pub fn int(fname: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(type_error(fname, "an integer", v)),
    }
}

/// An integer, or a float with an integral value (`(take 2.0 xs)`).
pub fn index(fname: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i64),
        _ => Err(type_error(fname, "an integer", v)),
    }
}

pub fn number(fname: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        _ => Err(type_error(fname, "a number", v)),
    }
}

pub fn string<'a>(fname: &str, v: &'a Value) -> Result<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        _ => Err(type_error(fname, "a string", v)),
    }
}

/// A map, with `nil` read as the empty map (as Clojure's map functions do).
pub fn map_or_nil(fname: &str, v: &Value) -> Result<Map> {
    match v {
        Value::Map(m) => Ok(m.clone()),
        Value::Nil => Ok(Map::new()),
        _ => Err(type_error(fname, "a map", v)),
    }
}

/// Anything callable: functions, keywords, maps, sets.
pub fn callable(fname: &str, v: &Value) -> Result<()> {
    match v {
        Value::Fn(_) | Value::Keyword(_) | Value::Map(_) | Value::Set(_) => Ok(()),
        Value::Vector(_) => Err(type_error(fname, "a function", v).with_hint(
            "a vector is not a function here; for a path use (fn [x] (get-in x [:a :b])) or #(get-in % [:a :b])",
        )),
        _ => Err(type_error(fname, "a function", v)),
    }
}

/// The items of a seqable value, in order: `nil` → none, vectors as they are,
/// sets in canonical order, maps as `[k v]` entries, strings as
/// one-character strings. Infinite sequences cannot be realized this way
/// (`limit-exceeded`); functions that can consume them lazily check for
/// [`Value::Lazy`] first.
pub fn items(fname: &str, v: &Value) -> Result<Vector> {
    match v {
        Value::Vector(vec) => Ok(vec.clone()),
        Value::Nil => Ok(Vector::new()),
        Value::Set(s) => Ok(s.iter().cloned().collect()),
        Value::Map(m) => Ok(m
            .iter()
            .map(|(k, v)| Value::entry(k.clone(), v.clone()))
            .collect()),
        Value::Str(s) => Ok(s.chars().map(|c| Value::string(c.to_string())).collect()),
        Value::Lazy(_) => Err(whole(fname, v)),
        _ => Err(type_error(fname, "a collection", v)),
    }
}

/// Calls `each` with every item of a seqable value by reference, in
/// [`items`]' order, without copying the collection first (the hot loops of
/// `map`, `filter`, `frequencies` … clone only what they keep).
pub fn each(fname: &str, v: &Value, mut each: impl FnMut(&Value) -> Result<()>) -> Result<()> {
    match v {
        Value::Vector(vec) => vec.iter().try_for_each(each),
        Value::Nil => Ok(()),
        Value::Set(s) => s.iter().try_for_each(each),
        Value::Map(m) => m
            .iter()
            .try_for_each(|(k, x)| each(&Value::entry(k.clone(), x.clone()))),
        Value::Str(s) => s
            .chars()
            .try_for_each(|c| each(&Value::string(c.to_string()))),
        Value::Lazy(_) => Err(whole(fname, v)),
        _ => Err(type_error(fname, "a collection", v)),
    }
}

/// The items of a seqable value in a `Vec` ([`items`]' order), cloned
/// one by one from the collection (no copy of the collection first).
pub fn to_vec(fname: &str, v: &Value) -> Result<Vec<Value>> {
    let mut out = Vec::with_capacity(count(fname, v)?);
    each(fname, v, |x| {
        out.push(x.clone());
        Ok(())
    })?;
    Ok(out)
}

/// The error for trying to realize an infinite sequence completely.
pub fn infinite(fname: &str) -> Error {
    Error::limit(format!(
        "{fname} cannot realize an infinite sequence (from range, iterate, repeat or cycle)"
    ))
    .with_hint("bound it first, e.g. (take 10 (iterate f x)) or (take-while pred xs)")
}

/// The error for a lazy sequence `v` that `fname` needs whole: for an
/// infinite one [`infinite`]'s; for a `lazy-seq` (one that may end) a
/// refusal marked with its link ([`Error::with_refused_lazy`]), on which
/// the interpreter realises it and calls `fname` again (eval/realise.rs).
pub fn whole(fname: &str, v: &Value) -> Error {
    match v {
        Value::Lazy(l) if v.may_end() => Error::limit(format!(
            "{fname} needs all the items of a lazy-seq here and cannot realise it"
        ))
        .with_hint("realise it first with (vec s), or take a bounded part: (take n s)")
        .with_refused_lazy(std::sync::Arc::as_ptr(l) as usize),
        _ => infinite(fname),
    }
}

/// A string whose ASCII-ness may be known without reading it: a [`Text`]
/// knows it (found once when it was made), a `str` is scanned.
pub(crate) trait Chars {
    /// The string.
    fn text(&self) -> &str;
    /// Whether every byte is ASCII (characters are bytes).
    fn ascii(&self) -> bool;
}

impl Chars for str {
    #[inline]
    fn text(&self) -> &str {
        self
    }
    #[inline]
    fn ascii(&self) -> bool {
        self.is_ascii()
    }
}

impl Chars for Text {
    #[inline]
    fn text(&self) -> &str {
        self.as_str()
    }
    /// O(1): what `count`, `subs` and `nth` walking a long string ask on
    /// every step (`value/text.rs`).
    #[inline]
    fn ascii(&self) -> bool {
        self.is_ascii()
    }
}

/// The number of characters of `s` (what `count` and `.length` say): its
/// length in bytes when it is ASCII (known to a [`Text`], else checked a
/// word at a time), else its characters counted.
#[inline]
pub(crate) fn char_count<S: Chars + ?Sized>(s: &S) -> usize {
    if s.ascii() {
        s.text().len()
    } else {
        s.text().chars().count()
    }
}

/// Whether `s` is one character (a Clojure char's stand-in): looks at two
/// characters at most, whatever the text's length.
#[inline]
pub(crate) fn is_one_char(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some() && chars.next().is_none()
}

/// The byte offset of character `i` of `s`, clamped to its end: `i` itself
/// when `s` is ASCII.
pub(crate) fn byte_at<S: Chars + ?Sized>(s: &S, i: usize) -> usize {
    let t = s.text();
    if s.ascii() {
        i.min(t.len())
    } else {
        t.char_indices().nth(i).map_or(t.len(), |(b, _)| b)
    }
}

/// Number of items of a counted value, without copying.
pub fn count(fname: &str, v: &Value) -> Result<usize> {
    match v {
        Value::Vector(vec) => Ok(vec.len()),
        Value::Nil => Ok(0),
        Value::Set(s) => Ok(s.len()),
        Value::Map(m) => Ok(m.len()),
        // An ASCII text knows it is one (O(1)); any other is walked,
        // charged a step per `BYTES_PER_STEP` bytes.
        Value::Str(s) if s.is_ascii() => Ok(s.len()),
        Value::Str(s) => {
            crate::eval::budget::charge_work(s.len() as u64 / crate::eval::budget::BYTES_PER_STEP);
            Ok(char_count(s))
        }
        Value::Lazy(_) => Err(whole(fname, v)),
        _ => Err(type_error(fname, "a collection", v)),
    }
}
