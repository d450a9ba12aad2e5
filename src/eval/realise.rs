//! Builtins given a `lazy-seq` (a lazy sequence that may end,
//! [`Value::may_end`]; value/lazy.rs, "lazy-seq").
//!
//! Builtins that consume items one at a time (`take`, `first`, `map` …)
//! see it as any lazy sequence. The others need the whole sequence: they
//! refuse a lazy one (`args::whole`: for a `lazy-seq` a `limit-exceeded`
//! error marked with the refused link, `Error::refused_lazy`), or print and
//! compare it as the opaque `#seq[infinite]`. So:
//! * `seq`, `next`, `not-empty` and `empty?` realise the first item only,
//!   an empty sequence being `nil` (`empty?`: `true`);
//! * the printing and comparing builtins ([`WHOLE`]) get it realised into a
//!   vector first;
//! * any other builtin that refuses one of its arguments (the error's mark
//!   names that argument's link) is called again with its `lazy-seq`
//!   arguments realised. Bodies run at most once (value/lazy.rs), so the
//!   second call runs none again; functions the builtin was given may run
//!   again if it called them before refusing (the builtins that take a
//!   collection whole check it before calling anything). A refusal of a
//!   `lazy-seq` that is not an argument itself (one nested in a vector
//!   argument, or met by a function the builtin called) is the error.
//!
//! Realising ([`Interp::realise`]) stops past [`MAX_REALISED`] items with a
//! `limit-exceeded` error; each item costs a step and its heap share.

use std::sync::Arc;

use super::iter::SeqIter;
use super::Interp;
use crate::builtins::Builtin;
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Value, Vector};

/// The most items a `lazy-seq` realised whole may have.
pub const MAX_REALISED: usize = 1_000_000;

/// Builtins that print or compare their arguments: a `lazy-seq` among them
/// is realised before the call.
const WHOLE: &[&str] = &[
    "str",
    "pr-str",
    "prn-str",
    "print-str",
    "println-str",
    "println",
    "print",
    "prn",
    "pr",
    "printf",
    "format",
    "=",
    "not=",
    "==",
    "distinct?",
    "compare",
    "hash",
    "vector?",
    "list?",
    "sequential?",
    "coll?",
];

/// Whether a call of `b` with `args` goes through
/// [`Interp::call_builtin_may_end`]: an argument may end (O(1) per
/// argument), or `b` prints or compares ([`WHOLE`]), a `lazy-seq` was ever
/// built, and one is found nested in a vector or map argument within
/// [`NESTED_LOOK`] parts (beyond that it prints as `#seq[infinite]`).
#[inline(always)]
pub(crate) fn lazy_path(b: &Builtin, args: &[Value]) -> bool {
    if args.iter().any(Value::may_end) {
        return true;
    }
    crate::value::any_may_end() && nested_lazy(b, args)
}

/// [`lazy_path`] once a `lazy-seq` was ever built: whether `b` prints or
/// compares and a `lazy-seq` is nested in an argument.
#[inline(never)]
fn nested_lazy(b: &Builtin, args: &[Value]) -> bool {
    if !WHOLE.contains(&b.name) {
        return false;
    }
    let mut visits = NESTED_LOOK;
    let mut seen = std::collections::HashSet::new();
    args.iter().any(|a| {
        matches!(a, Value::Vector(_) | Value::Map(_))
            && holds_may_end(a, 0, &mut seen, &mut visits).unwrap_or(false)
    })
}

/// How many parts of a printed or compared argument [`lazy_path`] looks
/// through for a nested `lazy-seq`.
const NESTED_LOOK: usize = 1000;

impl Interp {
    /// Calls builtin `b` with `args`, one of which may end
    /// ([`Value::may_end`]), as the module doc says.
    pub(crate) fn call_builtin_may_end(
        &mut self,
        b: &'static Builtin,
        args: &[Value],
    ) -> Result<Value> {
        match b.name {
            "seq" | "next" | "not-empty" | "empty?" => {
                let mut args = args.to_vec();
                if let Some(a) = args.first_mut() {
                    if self.is_empty_seq(b.name, a)? {
                        *a = Value::Nil;
                    }
                }
                let r = self.call_builtin_plain(b, &args)?;
                if b.name != "empty?" && self.is_empty_seq(b.name, &r)? {
                    return Ok(Value::Nil);
                }
                Ok(r)
            }
            name if WHOLE.contains(&name) => {
                let args = self.realise_all(b.name, args)?;
                self.call_builtin_plain(b, &args)
            }
            _ => match self.call_builtin_plain(b, args) {
                Err(e) if refuses_an_argument(&e, args) => {
                    let args = self.realise_all(b.name, args)?;
                    self.call_builtin_plain(b, &args)
                }
                r => r,
            },
        }
    }

    /// Item `i` of the `lazy-seq` `v` (`nil` past its end), for a vector
    /// pattern.
    pub(crate) fn lazy_seq_nth(&mut self, v: &Value, i: usize) -> Result<Value> {
        let mut it = SeqIter::new("destructuring", v)?;
        for _ in 0..i {
            if it.next(self)?.is_none() {
                return Ok(Value::Nil);
            }
        }
        Ok(it.next(self)?.unwrap_or(Value::Nil))
    }

    /// The `lazy-seq` `v` from item `i` on (`nil` if empty), for `&` in a
    /// vector pattern.
    pub(crate) fn lazy_seq_rest(&mut self, v: &Value, i: usize) -> Result<Value> {
        let Some(drop) = crate::builtins::lookup("drop") else {
            return Err(Error::new(
                ErrorKind::Internal,
                "the builtin drop is missing",
            ));
        };
        let rest = self.call_builtin(drop, &[Value::Int(i as i64), v.clone()])?;
        let empty_vector = matches!(&rest, Value::Vector(v) if v.is_empty());
        if empty_vector || self.is_empty_seq("destructuring", &rest)? {
            return Ok(Value::Nil);
        }
        Ok(rest)
    }

    /// Whether `v` is a `lazy-seq` with no items (realises its first).
    fn is_empty_seq(&mut self, fname: &str, v: &Value) -> Result<bool> {
        if !v.may_end() {
            return Ok(false);
        }
        let mut it = SeqIter::new(fname, v)?;
        Ok(it.next(self)?.is_none())
    }

    fn realise_all(&mut self, fname: &str, args: &[Value]) -> Result<Vec<Value>> {
        args.iter().map(|a| self.realise(fname, a)).collect()
    }

    /// `v` with every `lazy-seq` in it (itself, or inside its vectors and
    /// map values, [`REALISE_DEPTH`] levels down) realised into a vector
    /// of [`MAX_REALISED`] items at most.
    pub(crate) fn realise(&mut self, fname: &str, v: &Value) -> Result<Value> {
        if !crate::value::any_may_end() {
            return Ok(v.clone());
        }
        let mut visits = MAX_VISITS;
        self.realise_at(fname, v, 0, &mut visits)
    }

    fn realise_at(
        &mut self,
        fname: &str,
        v: &Value,
        depth: usize,
        visits: &mut usize,
    ) -> Result<Value> {
        *visits = visits.checked_sub(1).ok_or_else(|| too_big(fname))?;
        let mut seen = std::collections::HashSet::new();
        if depth > REALISE_DEPTH || !holds_may_end(v, depth, &mut seen, visits)? {
            return Ok(v.clone());
        }
        match v {
            Value::Vector(items) => {
                let mut out = Vector::new();
                for x in items.iter() {
                    out.push_back(self.realise_at(fname, x, depth + 1, visits)?);
                }
                Ok(Value::Vector(out))
            }
            Value::Map(m) => {
                let mut out = crate::value::Map::new();
                for (k, x) in m.iter() {
                    out.insert(k.clone(), self.realise_at(fname, x, depth + 1, visits)?);
                }
                Ok(Value::Map(out))
            }
            _ => {
                let whole = self.realise_one(fname, v)?;
                self.realise_at(fname, &whole, depth + 1, visits)
            }
        }
    }

    /// The `lazy-seq` `v` realised into a vector.
    fn realise_one(&mut self, fname: &str, v: &Value) -> Result<Value> {
        let mut it = SeqIter::new(fname, v)?;
        let mut out = Vector::new();
        while let Some(x) = it.next(self)? {
            if out.len() >= MAX_REALISED {
                return Err(too_long(fname));
            }
            self.tick(1)?;
            crate::eval::budget::charge_heap(crate::value::cost::vector_push(out.len()));
            out.push_back(x);
        }
        crate::eval::budget::charge_heap(crate::value::cost::vector_bytes(0));
        Ok(Value::Vector(out))
    }
}

/// How deep inside vectors and maps [`Interp::realise`] looks.
const REALISE_DEPTH: usize = 64;

/// The most parts of a value [`Interp::realise`] visits (a self-sharing
/// value, `(reduce (fn [a _] [a a]) [1] (range 60))`, has 2^60 paths).
const MAX_VISITS: usize = 1_000_000;

/// Whether `v` is or holds (in vectors and map values, down to
/// [`REALISE_DEPTH`]) a `lazy-seq`; shared parts are looked at once
/// (`seen`), and every visit counts against `visits`.
fn holds_may_end(
    v: &Value,
    depth: usize,
    seen: &mut std::collections::HashSet<usize>,
    visits: &mut usize,
) -> Result<bool> {
    if depth > REALISE_DEPTH {
        return Ok(false);
    }
    *visits = visits.checked_sub(1).ok_or_else(|| too_big("the result"))?;
    match v {
        Value::Vector(items) => {
            if !seen.insert(items.addr()) {
                return Ok(false);
            }
            for x in items.iter() {
                if holds_may_end(x, depth + 1, seen, visits)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Map(m) => {
            for (_, x) in m.iter() {
                if holds_may_end(x, depth + 1, seen, visits)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        other => Ok(other.may_end()),
    }
}

fn too_big(fname: &str) -> Error {
    Error::limit(format!(
        "{fname} holds more than {MAX_VISITS} parts to look through for lazy-seqs to realise"
    ))
    .with_hint("realise lazy-seqs with vec or doall before building big values around them")
}

/// Whether `e` is a builtin's refusal (`args::whole`) of one of the
/// `lazy-seq`s among `args`.
fn refuses_an_argument(e: &Error, args: &[Value]) -> bool {
    e.refused_lazy().is_some_and(|addr| {
        args.iter()
            .any(|a| matches!(a, Value::Lazy(l) if a.may_end() && Arc::as_ptr(l) as usize == addr))
    })
}

fn too_long(fname: &str) -> Error {
    Error::limit(format!(
        "{fname} realised more than {MAX_REALISED} items of a lazy-seq: it probably never ends"
    ))
    .with_hint(
        "give the recursion an end (return nil from the lazy-seq body when done), or take a \
         bounded part first, e.g. (take 10 (fib 0 1))",
    )
}
