//! Taking sequences apart and putting them together: `first` … `nth`,
//! `take`/`drop` and their `-while`/`-last` forms, `seq`, `cons`, `concat`,
//! `reverse`, `split-at`, `split-with`, `interleave`, `interpose`.

use super::gen::{drop_lazy, period, resume_lazy};
use super::{built, char_value, count_arg, next_row, side_by_side, test, vskip, vtake, xf};
use crate::builtins::args;
use crate::error::Result;
use crate::eval::iter::SeqIter;
use crate::eval::Interp;
use crate::value::{cost, Value, Vector};

/// Item `n` of any seqable (infinite sequences included), or `None`.
pub(super) fn nth_of(interp: &mut Interp, fname: &str, v: &Value, n: u64) -> Result<Option<Value>> {
    let i = usize::try_from(n).unwrap_or(usize::MAX);
    Ok(match v {
        Value::Nil => None,
        Value::Vector(x) => x.get(i).cloned(),
        // An ASCII text (it knows it is one) indexes its bytes: walking a
        // string with `nth` is linear; any other text walks to item `i`,
        // charged a step per `BYTES_PER_STEP` bytes walked.
        Value::Str(s) if s.is_ascii() => s.get(i..i.saturating_add(1)).map(Value::string),
        Value::Str(s) => {
            let found = s.char_indices().nth(i);
            let walked = found.map_or(s.len(), |(b, _)| b) as u64;
            interp.tick(walked / crate::eval::budget::BYTES_PER_STEP)?;
            found.map(|(_, c)| char_value(c))
        }
        Value::Map(m) => m
            .iter()
            .nth(i)
            .map(|(k, v)| Value::entry(k.clone(), v.clone())),
        Value::Set(s) => s.iter().nth(i).cloned(),
        Value::Lazy(_) => {
            let mut it = SeqIter::new(fname, v)?;
            for _ in 0..n {
                if it.next(interp)?.is_none() {
                    return Ok(None);
                }
            }
            it.next(interp)?
        }
        _ => return Err(args::type_error(fname, "a collection", v)),
    })
}

/// `v` without its first `n` items: a vector, or an infinite sequence.
pub(super) fn drop_n(interp: &mut Interp, fname: &str, v: &Value, n: u64) -> Result<Value> {
    match v {
        Value::Vector(x) => {
            interp.tick(1)?;
            if n == 0 {
                return Ok(v.clone());
            }
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            interp.alloc(cost::vector_slice_bytes(x.len().saturating_sub(n)))?;
            Ok(Value::vector(vskip(x, n)))
        }
        Value::Lazy(l) => drop_lazy(interp, l, n),
        other => {
            let items = args::items(fname, other)?;
            interp.tick(items.len() as u64)?;
            built(
                interp,
                vskip(&items, usize::try_from(n).unwrap_or(usize::MAX)),
            )
        }
    }
}

/// `nil` for an empty vector result (`next`, `nthnext`, `butlast` …).
fn nil_if_empty(v: Value) -> Value {
    match &v {
        Value::Vector(x) if x.is_empty() => Value::Nil,
        _ => v,
    }
}

pub(super) fn first(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(nth_of(interp, "first", &a[0], 0)?.unwrap_or(Value::Nil))
}

pub(super) fn second(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(nth_of(interp, "second", &a[0], 1)?.unwrap_or(Value::Nil))
}

pub(super) fn fnext(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(nth_of(interp, "fnext", &a[0], 1)?.unwrap_or(Value::Nil))
}

pub(super) fn ffirst(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = nth_of(interp, "ffirst", &a[0], 0)?.unwrap_or(Value::Nil);
    Ok(nth_of(interp, "ffirst", &f, 0)?.unwrap_or(Value::Nil))
}

pub(super) fn nfirst(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = nth_of(interp, "nfirst", &a[0], 0)?.unwrap_or(Value::Nil);
    Ok(nil_if_empty(drop_n(interp, "nfirst", &f, 1)?))
}

pub(super) fn nnext(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(nil_if_empty(drop_n(interp, "nnext", &a[0], 2)?))
}

pub(super) fn last(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(match &a[0] {
        Value::Vector(x) => x.back().cloned(),
        Value::Str(s) => s.chars().next_back().map(char_value),
        other => args::items("last", other)?.back().cloned(),
    }
    .unwrap_or(Value::Nil))
}

pub(super) fn rest(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    drop_n(interp, "rest", &a[0], 1)
}

pub(super) fn next(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(nil_if_empty(drop_n(interp, "next", &a[0], 1)?))
}

pub(super) fn butlast(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = args::items("butlast", &a[0])?;
    if items.len() <= 1 {
        return Ok(Value::Nil);
    }
    let out = vtake(&items, items.len() - 1);
    if let Value::Vector(_) = &a[0] {
        interp.alloc(cost::vector_slice_bytes(out.len()))?;
        return Ok(Value::vector(out));
    }
    built(interp, out)
}

pub(super) fn nth(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let default = a.get(2).cloned().unwrap_or(Value::Nil);
    let i = args::index("nth", &a[1])?;
    if i < 0 {
        // Still reject non-collections.
        nth_of(interp, "nth", &a[0], 0)?;
        return Ok(default);
    }
    Ok(nth_of(interp, "nth", &a[0], i as u64)?.unwrap_or(default))
}

pub(super) fn nthnext(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("nthnext", &a[1])?.max(0) as u64;
    if n == 0 {
        return seq(interp, &a[..1]);
    }
    Ok(nil_if_empty(drop_n(interp, "nthnext", &a[0], n)?))
}

pub(super) fn nthrest(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("nthrest", &a[1])?;
    if n <= 0 {
        // Clojure gives the collection itself.
        super::seqable("nthrest", &a[0])?;
        return Ok(a[0].clone());
    }
    drop_n(interp, "nthrest", &a[0], n as u64)
}

pub(super) fn take(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("take", &a[0])?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::take(n));
    };
    take_n(interp, "take", n, coll)
}

fn take_n(interp: &mut Interp, fname: &str, n: i64, coll: &Value) -> Result<Value> {
    let n = n.max(0) as u64;
    match coll {
        Value::Vector(x) => {
            interp.tick(1)?;
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            interp.alloc(cost::vector_slice_bytes(n.min(x.len())))?;
            Ok(Value::vector(vtake(x, n)))
        }
        Value::Lazy(_) => {
            interp.alloc(cost::vector_bytes_for(n))?;
            let mut it = SeqIter::new(fname, coll)?;
            let mut out = Vector::new();
            for _ in 0..n {
                interp.tick(1)?;
                match it.next(interp)? {
                    Some(x) => out.push_back(x),
                    None => break,
                }
            }
            Ok(Value::vector(out))
        }
        other => {
            // Nothing to take: still reject non-collections.
            let items = args::items(fname, other)?;
            interp.tick(items.len() as u64)?;
            built(
                interp,
                vtake(&items, usize::try_from(n).unwrap_or(usize::MAX)),
            )
        }
    }
}

pub(super) fn take_last(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("take-last", &a[0])?;
    let items = args::items("take-last", &a[1])?;
    if n <= 0 || items.is_empty() {
        return Ok(Value::Nil);
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    let out = vskip(&items, items.len().saturating_sub(n));
    built(interp, out)
}

pub(super) fn take_while(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let pred = &a[0];
    args::callable("take-while", pred)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::take_while(pred.clone()));
    };
    Ok(Value::vector(take_while_items(interp, pred, coll)?))
}

fn take_while_items(interp: &mut Interp, pred: &Value, coll: &Value) -> Result<Vector> {
    let limit = match coll {
        Value::Lazy(l) => period(l),
        _ => None,
    };
    let mut it = SeqIter::new("take-while", coll)?;
    let mut out = Vector::new();
    while let Some(x) = it.next(interp)? {
        interp.tick(1)?;
        if !test(interp, pred, &x)? {
            break;
        }
        interp.alloc(cost::vector_push(out.len()))?;
        out.push_back(x);
        if limit.is_some_and(|p| out.len() as u64 >= p) {
            // Every item of a repeating sequence matched: it never ends.
            return Err(args::infinite("take-while"));
        }
    }
    Ok(out)
}

pub(super) fn drop(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("drop", &a[0])?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::drop(n));
    };
    drop_n(interp, "drop", coll, n.max(0) as u64)
}

pub(super) fn drop_last(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (n, coll) = match a {
        [coll] => (1, coll),
        [n, coll, ..] => (count_arg("drop-last", n)?, coll),
        [] => return built(interp, Vector::new()),
    };
    let items = args::items("drop-last", coll)?;
    let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
    let out = vtake(&items, items.len().saturating_sub(n));
    if let Value::Vector(_) = coll {
        interp.alloc(cost::vector_slice_bytes(out.len()))?;
        return Ok(Value::vector(out));
    }
    built(interp, out)
}

pub(super) fn drop_while(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let pred = &a[0];
    args::callable("drop-while", pred)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::drop_while(pred.clone()));
    };
    drop_while_value(interp, pred, coll)
}

fn drop_while_value(interp: &mut Interp, pred: &Value, coll: &Value) -> Result<Value> {
    if let Value::Lazy(l) = coll {
        let limit = period(l);
        let mut it = SeqIter::new("drop-while", coll)?;
        let mut index = 0u64;
        while let Some(x) = it.next(interp)? {
            interp.tick(1)?;
            if !test(interp, pred, &x)? {
                return Ok(resume_lazy(l, x, index));
            }
            index += 1;
            if limit.is_some_and(|p| index >= p) {
                return Err(args::infinite("drop-while"));
            }
        }
        return built(interp, Vector::new());
    }
    let items = args::items("drop-while", coll)?;
    let mut k = 0;
    while k < items.len() {
        interp.tick(1)?;
        if !test(interp, pred, &items[k])? {
            break;
        }
        k += 1;
    }
    let out = vskip(&items, k);
    if let Value::Vector(_) = coll {
        interp.alloc(cost::vector_slice_bytes(out.len()))?;
        return Ok(Value::vector(out));
    }
    built(interp, out)
}

pub(super) fn seq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Ok(Value::Nil),
        Value::Vector(x) => Ok(if x.is_empty() {
            Value::Nil
        } else {
            a[0].clone()
        }),
        Value::Lazy(_) => Ok(a[0].clone()),
        Value::Str(_) | Value::Map(_) | Value::Set(_) => {
            let items = args::items("seq", &a[0])?;
            if items.is_empty() {
                return Ok(Value::Nil);
            }
            interp.tick(items.len() as u64)?;
            built(interp, items)
        }
        other => Err(args::type_error("seq", "a collection", other)),
    }
}

pub(super) fn cons(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Lazy(_) = &a[1] {
        // The head; the chain is charged as a link (`Value::lazy`).
        interp.alloc(cost::vector_bytes(1))?;
        let head = Value::vector(std::iter::once(a[0].clone()).collect());
        return Ok(Value::lazy(crate::value::LazySeq::Chain(vec![
            head,
            a[1].clone(),
        ])));
    }
    let mut items = args::items("cons", &a[1])?;
    items.push_front(a[0].clone());
    if let Value::Vector(_) = &a[1] {
        // A copy of a small vector; a large one's first chunk written.
        interp.alloc(cost::vector_copy_bytes(items.len()))?;
        return Ok(Value::vector(items));
    }
    built(interp, items)
}

pub(super) fn concat(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Some(chain) = lazy_concat(a)? {
        return Ok(chain);
    }
    match a.split_first() {
        None => eager_concat(interp, None, &[]),
        Some((first, rest)) => eager_concat(interp, Some(first.clone()), rest),
    }
}

/// `concat` taking its first collection: `(reduce concat [] parts)`
/// appends to one vector in place.
pub(super) fn concat_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    if let Some(chain) = lazy_concat(a)? {
        return Ok(chain);
    }
    match a.split_first_mut() {
        None => eager_concat(interp, None, &[]),
        Some((first, rest)) => eager_concat(interp, Some(Value::take(first)), rest),
    }
}

/// The chain of `concat`'s parts when one is lazy, else `None`.
fn lazy_concat(a: &[Value]) -> Result<Option<Value>> {
    // Items after an infinite part never come: it ends the chain. Parts
    // after a `lazy-seq` (which may end) stay.
    let Some(i) = a
        .iter()
        .position(|c| matches!(c, Value::Lazy(_)) && !c.may_end())
        .or_else(|| a.iter().any(Value::may_end).then(|| a.len() - 1))
    else {
        return Ok(None);
    };
    for c in &a[..i] {
        super::seqable("concat", c)?;
    }
    // Charged as a link with its array of parts (`Value::lazy`).
    Ok(Some(Value::lazy(crate::value::LazySeq::Chain(
        a[..=i].to_vec(),
    ))))
}

/// The items of `first` and then of each of `rest`, as one vector. A
/// vector `first` is the result's start, not copied into it: appended to
/// in place when nothing else holds it, else from a copy of its last chunk
/// (it was copied whole, so `(reduce concat [] parts)` took time and heap
/// quadratic in the items: 50,000 one-item parts passed the 1 s timeout).
fn eager_concat(interp: &mut Interp, first: Option<Value>, rest: &[Value]) -> Result<Value> {
    let mut out = Vector::new();
    // A first part that is not a vector: read like the others.
    let mut head = None;
    match first {
        Some(Value::Vector(v)) => {
            interp.tick(1)?;
            interp.alloc(part_charge(0, true, v.len()))?;
            out = v;
        }
        other => head = other,
    }
    for coll in head.iter().chain(rest) {
        let items = args::items("concat", coll)?;
        interp.tick(1)?;
        interp.alloc(part_charge(
            out.len(),
            matches!(coll, Value::Vector(_)),
            items.len(),
        ))?;
        out.append(items);
    }
    interp.alloc(cost::vector_bytes(0))?;
    Ok(Value::vector(out))
}

/// What appending a part of `n` items to `len` costs: a large vector is
/// appended by sharing its tree.
fn part_charge(len: usize, vector: bool, n: usize) -> u64 {
    if vector && n > crate::value::vector::SMALL {
        cost::vector_slice_bytes(n)
    } else {
        cost::vector_growth(len, len + n)
    }
}

pub(super) fn reverse(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = args::items("reverse", &a[0])?;
    interp.tick(items.len() as u64)?;
    built(interp, items.into_iter().rev().collect())
}

pub(super) fn split_at(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("split-at", &a[0])?;
    let taken = take_n(interp, "split-at", n, &a[1])?;
    let dropped = drop_n(interp, "split-at", &a[1], n.max(0) as u64)?;
    interp.alloc(cost::entry_bytes())?;
    Ok(Value::entry(taken, dropped))
}

pub(super) fn split_with(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let pred = &a[0];
    args::callable("split-with", pred)?;
    let taken = take_while_items(interp, pred, &a[1])?;
    let dropped = match &a[1] {
        Value::Vector(x) => {
            interp.alloc(cost::vector_slice_bytes(
                x.len().saturating_sub(taken.len()),
            ))?;
            Value::vector(vskip(x, taken.len()))
        }
        Value::Lazy(l) => drop_lazy(interp, l, taken.len() as u64)?,
        other => built(
            interp,
            vskip(&args::items("split-with", other)?, taken.len()),
        )?,
    };
    interp.alloc(cost::entry_bytes())?;
    Ok(Value::entry(Value::vector(taken), dropped))
}

pub(super) fn interleave(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [] => built(interp, Vector::new()),
        [Value::Lazy(_)] => Ok(a[0].clone()),
        [one] => {
            let items = args::items("interleave", one)?;
            built(interp, items)
        }
        colls if colls.iter().all(|c| matches!(c, Value::Lazy(_))) => {
            // All infinite: so is the interleaving, taken item by item
            // (charged as a link with its array of sources).
            Ok(Value::lazy(crate::value::LazySeq::Interleave(
                colls.to_vec(),
            )))
        }
        colls => {
            let mut its = side_by_side("interleave", colls)?;
            let mut out = Vector::new();
            while let Some(row) = next_row(interp, &mut its)? {
                interp.tick(1)?;
                interp.alloc(cost::vector_growth(out.len(), out.len() + row.len()))?;
                out.extend(row);
            }
            Ok(Value::vector(out))
        }
    }
}

pub(super) fn interpose(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let sep = &a[0];
    let Some(coll) = a.get(1) else {
        return Ok(xf::interpose(sep.clone()));
    };
    let items = args::items("interpose", coll)?;
    interp.tick(items.len() as u64)?;
    let mut out = Vector::new();
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_back(sep.clone());
        }
        out.push_back(x);
    }
    built(interp, out)
}
