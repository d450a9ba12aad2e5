//! How long a value prints, without printing it.
//!
//! A value that shares its parts (`[a a]` nested 60 times) is tiny in
//! memory but prints to 2^60 items, so every value that leaves a turn (its
//! result, `return` value, error data, a tool's arguments) is measured
//! before any host prints or serializes it. The measure walks each shared
//! part once (remembering its length by address, as the depth check does),
//! iteratively (deep chains do not touch the native stack), and stops as
//! soon as the total passes the budget: its cost is bounded by the value's
//! size in memory, whatever its printed size.
//!
//! The length is the byte length of [`super::to_clojure`] without limits.

use std::collections::HashMap;

use crate::eval::budget::{should_stop, STOP_POLL_EVERY};
use crate::value::{Func, Value};

/// The byte length of `v` printed without limits, or `None` when it is
/// more than `max` bytes.
pub fn printed_len_within(v: &Value, max: usize) -> Option<usize> {
    let mut known: HashMap<usize, usize> = HashMap::new();
    let mut steps: Vec<Step<'_>> = vec![Step::Enter(v)];
    // The running length of every collection still open (the first entry
    // is the whole value's).
    let mut open: Vec<usize> = vec![0];
    let mut total: usize = 0;
    let mut poll = STOP_POLL_EVERY;
    while let Some(step) = steps.pop() {
        poll -= 1;
        if poll == 0 {
            poll = STOP_POLL_EVERY;
            // Past the running turn's deadline: "too long" (the caller
            // reports the timeout).
            if should_stop() {
                return None;
            }
        }
        match step {
            Step::Enter(v) => {
                if let Some(n) = atom_len(v) {
                    add(&mut open, n);
                    total = total.saturating_add(n);
                } else {
                    let addr = v.shared_addr();
                    if let Some(n) = addr.and_then(|a| known.get(&a)) {
                        add(&mut open, *n);
                        total = total.saturating_add(*n);
                    } else {
                        let overhead = push_children(v, &mut steps, addr);
                        open.push(overhead);
                        total = total.saturating_add(overhead);
                    }
                }
            }
            Step::Exit(addr) => {
                let n = open.pop().unwrap_or(0);
                if let Some(a) = addr {
                    known.insert(a, n);
                }
                add(&mut open, n);
            }
        }
        if total > max {
            return None;
        }
    }
    Some(total)
}

enum Step<'a> {
    Enter(&'a Value),
    /// A collection's items are all measured (its address, when shared).
    Exit(Option<usize>),
}

fn add(open: &mut [usize], n: usize) {
    if let Some(last) = open.last_mut() {
        *last = last.saturating_add(n);
    }
}

/// Pushes the exit of `v` then its items; returns the bytes `v` prints
/// around them (brackets and separators).
fn push_children<'a>(v: &'a Value, steps: &mut Vec<Step<'a>>, addr: Option<usize>) -> usize {
    steps.push(Step::Exit(addr));
    let seps = |n: usize| n.saturating_sub(1);
    match v {
        Value::Vector(items) => {
            steps.extend(items.iter().map(Step::Enter));
            2 + seps(items.len())
        }
        Value::Set(items) => {
            steps.extend(items.iter().map(Step::Enter));
            3 + seps(items.len())
        }
        Value::Map(m) => {
            for (k, x) in m.iter() {
                steps.push(Step::Enter(k));
                steps.push(Step::Enter(x));
            }
            // `{k v, ...}` without commas: a space inside each entry and
            // between entries.
            2 + m.len() + seps(m.len())
        }
        Value::Reduced(inner) => {
            steps.push(Step::Enter(inner));
            "#reduced[]".len()
        }
        _ => 0,
    }
}

/// The printed length of a value that holds no other values.
fn atom_len(v: &Value) -> Option<usize> {
    Some(match v {
        Value::Vector(_) | Value::Set(_) | Value::Map(_) | Value::Reduced(_) => return None,
        Value::Nil => 3,
        Value::Bool(b) => {
            if *b {
                4
            } else {
                5
            }
        }
        Value::Str(s) => {
            2 + s.len()
                + s.bytes()
                    .filter(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\t' | b'\r'))
                    .count()
        }
        Value::Keyword(k) => 1 + k.len(),
        Value::Symbol(s) => s.len(),
        Value::Var(name) => 2 + name.len(),
        Value::Regex(r) => 3 + r.as_str().len(),
        Value::Lazy(_) => "#seq[infinite]".len(),
        Value::Fn(f) => fn_len(f),
        Value::Int(_) | Value::Float(_) => {
            let (text, _) = super::to_clojure(v, None, None);
            text.len()
        }
    })
}

fn fn_len(f: &Func) -> usize {
    "#fn[]".len() + f.display_params().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::to_clojure;

    fn check(v: &Value) {
        let printed = to_clojure(v, None, None).0;
        assert_eq!(
            printed_len_within(v, usize::MAX),
            Some(printed.len()),
            "{printed}"
        );
        assert_eq!(printed_len_within(v, printed.len()), Some(printed.len()));
        if !printed.is_empty() {
            assert_eq!(printed_len_within(v, printed.len() - 1), None);
        }
    }

    #[test]
    fn measures_what_the_printer_writes() {
        let inner = Value::vector_from([Value::Int(-12), Value::Float(1.5), Value::Nil]);
        check(&inner);
        check(&Value::string("a\"b\\c\nλ"));
        check(&Value::map_from([
            (Value::keyword("a"), inner.clone()),
            (
                Value::string("k"),
                Value::set_from([Value::Bool(true), Value::Bool(false)]),
            ),
        ]));
        check(&Value::Reduced(std::sync::Arc::new(inner.clone())));
        check(&Value::vector_from([inner.clone(), inner]));
        check(&Value::empty_vector());
        check(&Value::map_from([]));
    }

    #[test]
    fn self_sharing_values_are_measured_part_by_part() {
        let mut v = Value::vector_from([Value::Int(1)]);
        for _ in 0..60 {
            v = Value::vector_from([v.clone(), v]);
        }
        assert_eq!(printed_len_within(&v, 1 << 30), None);
        let mut small = Value::vector_from([Value::Int(1)]);
        for _ in 0..5 {
            small = Value::vector_from([small.clone(), small]);
        }
        check(&small);
    }

    #[test]
    fn deep_chains_are_measured_without_recursion() {
        let mut v = Value::Int(0);
        for _ in 0..200_000 {
            v = Value::Reduced(std::sync::Arc::new(v));
        }
        let len = printed_len_within(&v, usize::MAX);
        assert_eq!(len, Some(1 + 200_000 * "#reduced[]".len()));
        // Unwrapped level by level: a recursive drop would overflow the
        // test thread's stack.
        while let Value::Reduced(inner) = v {
            v = std::sync::Arc::try_unwrap(inner).unwrap_or(Value::Nil);
        }
    }
}
