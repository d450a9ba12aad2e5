//! The checks on a value that leaves the evaluator: a turn's result, its
//! `return` value, the data of the error that ended it, a tool's
//! arguments.
//!
//! Such values are dropped, compared, printed and serialized by the host,
//! on ordinary threads and without any budget, so they must be
//! * shallow enough for recursive drop, equality and JSON conversion
//!   ([`depth::MAX_DEPTH`] levels, every wrapper counting: collections,
//!   `reduced`, closures' captures);
//! * short enough when printed ([`print_bound`]): a self-sharing value
//!   (`(reduce (fn [a _] [a a]) [1] (range 60))`) is tiny in memory but
//!   2^60 items printed, and would hang `ptc run`'s result line, the JSON
//!   of a command tool's request or `ptc replay --format json`.
//!
//! Both checks are iterative and visit each shared part once, so they cost
//! at most the value's size in memory.

use super::{Interp, Limits};
use crate::error::{Error, ErrorKind, Result};
use crate::format::{printed_len_within, HARD_OUTPUT_CAP};
use crate::value::{depth, Value};

/// The most bytes a value leaving the evaluator may print to: four times
/// the heap budget (printed text is rarely longer than the memory the
/// value was charged for, except for parts it shares), or the
/// [`HARD_OUTPUT_CAP`] when the heap is not limited.
pub fn print_bound(limits: &Limits) -> usize {
    match limits.max_heap_bytes {
        Some(max) => usize::try_from(max.saturating_mul(4))
            .unwrap_or(HARD_OUTPUT_CAP)
            .min(HARD_OUTPUT_CAP),
        None => HARD_OUTPUT_CAP,
    }
}

impl Interp {
    /// Checks that `v` may leave the evaluator (see the module doc);
    /// `what` names it in the error: "the result", "the arguments of
    /// tool/x".
    pub(crate) fn check_leaving(&self, what: &str, v: &Value) -> Result<()> {
        if is_flat(v) {
            return Ok(());
        }
        if depth::exceeds(v, depth::MAX_DEPTH) {
            return Err(Error::limit(format!(
                "{what} nests more than {} levels deep, the most a value kept after a turn may have",
                depth::MAX_DEPTH
            ))
            .with_hint(
                "flatten the data (e.g. a vector of records instead of nesting each in the next)",
            ));
        }
        let bound = print_bound(&self.budget.limits);
        if printed_len_within(v, bound).is_none() {
            // The measure gave up at the deadline: the turn timed out.
            self.budget.check_clock()?;
            return Err(Error::limit(format!(
                "{what} prints to more than {bound} bytes (it repeats shared parts, or is too big to show)"
            ))
            .with_hint("return a summary (a count, a sample with take) instead of the whole value"));
        }
        Ok(())
    }

    /// Checks the data an error carries out of the turn (`fail`'s reason,
    /// `ex-info`'s data, `return`'s value): an error whose data may not
    /// leave becomes the limit error saying why, and the data is dropped
    /// here, on the evaluation stack.
    pub(crate) fn check_error_leaving(&self, e: Error) -> Error {
        let Some(data) = e.data() else { return e };
        let what = match e.kind() {
            ErrorKind::Return => "the value of return",
            ErrorKind::Fail => "the reason given to fail",
            _ => "the data of the error",
        };
        match self.check_leaving(what, data) {
            Ok(()) => e,
            Err(limit) => match e.span() {
                Some(span) => limit.with_span(span),
                None => limit,
            },
        }
    }
}

/// Scalars need no check (a `def`'s var is the result of most turns).
fn is_flat(v: &Value) -> bool {
    matches!(
        v,
        Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Keyword(_)
    ) || matches!(v, Value::Str(s) if s.len() < 1 << 20)
        || matches!(v, Value::Var(n) | Value::Symbol(n) if n.len() < 1 << 20)
}
