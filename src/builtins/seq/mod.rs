//! Builtins: sequence functions and infinite sequences.
//!
//! Everything sequential returns a vector (`language.md`: one sequential
//! type, eager evaluation). Any seqable is accepted where Clojure accepts a
//! seq: `nil` is empty, maps give `[k v]` entries in their order (F-2), sets
//! their elements in canonical order, strings one-character strings.
//!
//! Higher-order functions call their function argument with
//! [`Interp::call`], so keywords, maps and sets work as functions; a vector
//! in function position is a `type-error` with a hint (`args::callable`).
//! `sort-by` and `group-by` also take a string key or a vector path as their
//! key (PTC-Lisp flexible keys).
//!
//! # Infinite sequences
//!
//! `(range)`, `(range a b 0)`, `(iterate f x)`, `(repeat x)` and `(cycle coll)`
//! are [`Value::Lazy`] descriptions. Consumers that can stop on their own
//! pull items one at a time through [`SeqIter`]: `first second nth take
//! take-while some every? not-any? not-every? reduce transduce` (these run
//! until `reduced`, or into the step limit), `map mapv mapcat pmap
//! interleave` over several sequences when one of them is finite (they stop
//! at the shortest). Infinite in, infinite out (items computed as they are
//! taken): `map map-indexed filter remove keep mapcat reductions take-nth
//! cons` of one infinite sequence, `map` and `interleave` of only infinite
//! ones, `concat` up to its first infinite part, `(repeatedly f)`, and `for`
//! over an infinite first binding (`eval/comprehension.rs`). Dropping from
//! an infinite sequence gives another one:
//! `drop rest next nthrest nthnext drop-while split-at split-with` and
//! `cycle` of an infinite sequence. Everything else that would realize one
//! completely (`count`-like work: `last sort reverse filter map` of a single
//! infinite sequence, `concat cons partition` …) is a `limit-exceeded` error,
//! never a hang: we are eager and cannot know whether a bounded consumer
//! follows.
//!
//! # Transducers
//!
//! `map filter remove keep keep-indexed map-indexed mapcat take take-while
//! drop drop-while distinct dedupe partition-all partition-by interpose
//! replace` called without a collection return a transducer (a function
//! from reducing function to reducing function), for `transduce` and, with
//! [`transduce_with`], for other areas (`into` with a transducer).
//!
//! Costs: one step per item processed (on top of what calls cost), and
//! what the values built cost (HEAP-COST-1, `value/cost.rs`); results that
//! share a large vector's tree with their input (`rest`, `drop`, `take`)
//! charge their handle.

mod access;
mod build;
mod gen;
mod group;
mod hof;
mod keyfn;
mod table;
mod xf;

#[cfg(test)]
mod cut_tests;
#[cfg(test)]
mod tests;

use crate::builtins::args;
use crate::error::Result;
use crate::eval::iter::SeqIter;
use crate::eval::Interp;
use crate::value::{cost, Value, Vector};

pub use gen::LAZY_SEQ;
pub(crate) use group::comparator_order;
pub use table::BUILTINS;
pub use xf::transduce_with;

/// A one-character string.
fn char_value(c: char) -> Value {
    Value::string(c.to_string())
}

/// `v` without its first `n` items (all of them when `n` is larger).
fn vskip(v: &Vector, n: usize) -> Vector {
    if n >= v.len() {
        Vector::new()
    } else {
        v.skip(n)
    }
}

/// The first `n` items of `v` (all of them when `n` is larger).
fn vtake(v: &Vector, n: usize) -> Vector {
    if n >= v.len() {
        v.clone()
    } else {
        v.take(n)
    }
}

/// A freshly built vector result: charges its size.
fn built(interp: &mut Interp, v: Vector) -> Result<Value> {
    interp.alloc(cost::vector_bytes(v.len()))?;
    Ok(Value::vector(v))
}

/// A count argument (`take`, `drop`, `partition` …): an integer (or an
/// integral float); negative counts read as 0 where callers clamp.
fn count_arg(fname: &str, v: &Value) -> Result<i64> {
    args::index(fname, v)
}

/// Calls `pred` on `x` and reads the result as a boolean.
fn test(interp: &mut Interp, pred: &Value, x: &Value) -> Result<bool> {
    Ok(interp.call(pred, std::slice::from_ref(x))?.truthy())
}

/// Iterates `v`, charging one step per item, calling `each` until it
/// returns `false`.
fn for_each(
    interp: &mut Interp,
    fname: &str,
    v: &Value,
    mut each: impl FnMut(&mut Interp, Value) -> Result<bool>,
) -> Result<()> {
    let mut it = SeqIter::new(fname, v)?;
    while let Some(x) = it.next(interp)? {
        interp.tick(1)?;
        if !each(interp, x)? {
            break;
        }
    }
    Ok(())
}

/// Iterators over several collections walked side by side (`map` with
/// several collections, `interleave`): fine as long as one is finite.
fn side_by_side(fname: &str, colls: &[Value]) -> Result<Vec<SeqIter>> {
    let its = colls
        .iter()
        .map(|c| SeqIter::new(fname, c))
        .collect::<Result<Vec<_>>>()?;
    if its.iter().all(SeqIter::is_infinite) {
        let lazy = colls.iter().find(|c| c.may_end()).unwrap_or(&colls[0]);
        return Err(args::whole(fname, lazy));
    }
    Ok(its)
}

/// The next item of every iterator, or `None` when one has ended.
fn next_row(interp: &mut Interp, its: &mut [SeqIter]) -> Result<Option<Vec<Value>>> {
    let mut row = Vec::with_capacity(its.len());
    for it in its.iter_mut() {
        match it.next(interp)? {
            Some(x) => row.push(x),
            None => return Ok(None),
        }
    }
    Ok(Some(row))
}

/// Rejects values that are not seqable (without realizing anything).
fn seqable(fname: &str, v: &Value) -> Result<()> {
    match v {
        Value::Nil
        | Value::Vector(_)
        | Value::Str(_)
        | Value::Map(_)
        | Value::Set(_)
        | Value::Lazy(_) => Ok(()),
        other => Err(args::type_error(fname, "a collection", other)),
    }
}
