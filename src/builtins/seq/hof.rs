//! Higher-order sequence functions: `map` and friends, `filter`/`remove`/
//! `keep`, `reduce` and `reduced`, the quantifiers `some`/`every?`…, and
//! `pmap`/`pcalls` (run sequentially, in order).

use super::{built, for_each, next_row, side_by_side, xf};
use crate::builtins::args;
use crate::error::Result;
use crate::eval::iter::SeqIter;
use crate::eval::Interp;
use crate::value::{cost, LazySeq, Value, Vector};

use std::sync::Arc;

pub(super) fn map(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("map", f)?;
    if a.len() == 1 {
        return Ok(xf::map(f.clone()));
    }
    map_colls(interp, "map", f, &a[1..])
}

pub(super) fn mapv(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("mapv", &a[0])?;
    map_colls(interp, "mapv", &a[0], &a[1..])
}

/// `map` taking its arguments: one vector nothing else holds is mapped
/// in place ([`map_in_place`]).
pub(super) fn map_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("map", &a[0])?;
    if a.len() == 1 {
        return Ok(xf::map(a[0].clone()));
    }
    map_in_place(interp, "map", a)
}

/// `mapv` taking its arguments, as [`map_owned`].
pub(super) fn mapv_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("mapv", &a[0])?;
    map_in_place(interp, "mapv", a)
}

/// `(map f v)` of a vector `v` whose items nothing else holds (a `range`,
/// a vector built for the call): each item replaced by `f` of it where it
/// is — no second vector beside the first. The same steps, heap charge
/// and result as [`map_colls`], which does any other call; on an error the
/// half-mapped vector is dropped with the call's arguments.
fn map_in_place(interp: &mut Interp, fname: &str, a: &mut [Value]) -> Result<Value> {
    if let [f, Value::Vector(v)] = a {
        if let Some(items) = v.unique_items_mut() {
            interp.alloc(cost::vector_bytes(items.len()))?;
            interp.repeated(f, |interp, f| {
                for item in items.iter_mut() {
                    let x = Value::take(item);
                    Value::fill(item, interp.tick_call_again1(f, x)?);
                }
                Ok(())
            })?;
            return Ok(Value::take(&mut a[1]));
        }
    }
    map_colls(interp, fname, &a[0], &a[1..])
}

/// `(pmap f coll…)`: `map`, with the items' tool calls concurrent when the
/// host allows it (`eval/group.rs`); eager.
pub(super) fn pmap(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("pmap", f)?;
    let mut rows: Vec<Vec<Value>> = Vec::new();
    if let [coll] = &a[1..] {
        let n = args::count("pmap", coll)?;
        interp.alloc(cost::vector_bytes(n))?;
        rows.reserve(n);
        args::each("pmap", coll, |x| {
            rows.push(vec![x.clone()]);
            Ok(())
        })?;
    } else {
        let mut its = side_by_side("pmap", &a[1..])?;
        while let Some(row) = next_row(interp, &mut its)? {
            interp.tick(1)?;
            interp.alloc(cost::vector_push(rows.len()))?;
            rows.push(row);
        }
        interp.alloc(cost::vector_bytes(0))?;
    }
    let out = interp.run_group(rows.len(), &mut |interp, i| {
        interp.tick(1)?;
        interp.call(f, &rows[i])
    })?;
    Ok(Value::vector(Vector::from_vec(out)))
}

/// `(map f c1 c2 …)`: a single collection must be finite; several are
/// walked side by side up to the shortest (one finite is enough).
fn map_colls(interp: &mut Interp, fname: &str, f: &Value, colls: &[Value]) -> Result<Value> {
    if let [coll] = colls {
        if let (Value::Lazy(_), "map") = (coll, fname) {
            // Infinite in, infinite out: items are mapped as they are taken.
            return Ok(Value::lazy(LazySeq::Map {
                f: f.clone(),
                source: coll.clone(),
            }));
        }
        let n = args::count(fname, coll)?;
        interp.alloc(cost::vector_bytes(n))?;
        // Built as a `Vec` this builder alone holds (no copy-on-write
        // check per item), then made a vector.
        let mut out = Vec::with_capacity(n);
        interp.repeated(f, |interp, f| {
            args::each(fname, coll, |x| {
                out.push(interp.tick_call_again_ref(f, std::slice::from_ref(x))?);
                Ok(())
            })
        })?;
        return Ok(Value::vector(Vector::from_vec(out)));
    }
    if fname == "map" && colls.iter().all(|c| matches!(c, Value::Lazy(_))) {
        return Ok(Value::lazy(LazySeq::Zip {
            f: f.clone(),
            sources: colls.to_vec(),
        }));
    }
    let mut its = side_by_side(fname, colls)?;
    let mut out = Vector::new();
    while let Some(row) = next_row(interp, &mut its)? {
        interp.tick(1)?;
        interp.alloc(cost::vector_push(out.len()))?;
        out.push_back(interp.call(f, &row)?);
    }
    interp.alloc(cost::vector_bytes(0))?;
    Ok(Value::vector(out))
}

pub(super) fn map_indexed(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("map-indexed", f)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::map_indexed(f.clone()));
    };
    if let Value::Lazy(_) = coll {
        let indices = Value::lazy(LazySeq::Range {
            start: Value::Int(0),
            step: Value::Int(1),
        });
        return Ok(Value::lazy(LazySeq::Zip {
            f: f.clone(),
            sources: vec![indices, coll.clone()],
        }));
    }
    let items = args::items("map-indexed", coll)?;
    interp.alloc(cost::vector_bytes(items.len()))?;
    let mut out = Vec::with_capacity(items.len());
    interp.repeated(f, |interp, f| {
        for (i, x) in items.into_iter().enumerate() {
            out.push(interp.tick_call_again(f, &mut [Value::Int(i as i64), x])?);
        }
        Ok(())
    })?;
    Ok(Value::vector(Vector::from_vec(out)))
}

pub(super) fn mapcat(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("mapcat", f)?;
    if a.len() == 1 {
        return Ok(xf::mapcat(f.clone()));
    }
    if let [_, source @ Value::Lazy(_)] = a {
        // Infinite in, infinite out: f runs as items are taken.
        return Ok(Value::lazy(LazySeq::Concat {
            f: f.clone(),
            source: source.clone(),
        }));
    }
    let mapped = map_colls(interp, "mapcat", f, &a[1..])?;
    let mut out = Vector::new();
    if let Value::Vector(results) = &mapped {
        if results.iter().any(|r| matches!(r, Value::Lazy(_))) {
            return lazy_pieces(results);
        }
        for r in results.iter() {
            let items = args::items("mapcat", r).map_err(|e| {
                e.with_hint("the function given to mapcat must return a collection")
            })?;
            interp.alloc(cost::vector_growth(out.len(), out.len() + items.len()))?;
            out.append(items);
        }
    }
    Ok(Value::vector(out))
}

/// `mapcat`'s pieces when some are lazy: their chain, up to the first
/// infinite one (the pieces after it are never reached; a `lazy-seq` piece
/// may end, so the ones after it stay).
fn lazy_pieces(results: &Vector) -> Result<Value> {
    let mut parts = Vec::new();
    for r in results.iter() {
        if !matches!(r, Value::Lazy(_)) {
            super::seqable("mapcat", r).map_err(|e| {
                e.with_hint("the function given to mapcat must return a collection")
            })?;
        }
        parts.push(r.clone());
        if matches!(r, Value::Lazy(_)) && !r.may_end() {
            break;
        }
    }
    // Charged as a link with its array of parts (`Value::lazy`).
    Ok(Value::lazy(LazySeq::Chain(parts)))
}

/// The items of `coll` for which `pred` is `keep_if`.
fn select(
    interp: &mut Interp,
    fname: &str,
    pred: &Value,
    coll: &Value,
    keep_if: bool,
) -> Result<Value> {
    args::callable(fname, pred)?;
    if let (Value::Lazy(_), "filter" | "remove") = (coll, fname) {
        return Ok(Value::lazy(LazySeq::Filter {
            pred: pred.clone(),
            keep: keep_if,
            source: coll.clone(),
        }));
    }
    // Room for every item of a vector: no copies as the result grows. The
    // room left over is given back only when less than half was kept (a
    // copy of what was kept, the large block freed for later values); from
    // half on the allocator would keep the block anyway, except at exactly
    // half, where its rounded block size made it copy: `(filter even? xs)`
    // of 200k items held both copies, 4.8 MB, at once. (Keeping the room
    // down to a quarter kept 08-freq-sets' gain but took 4 MB more on
    // 03-records-pipeline, whose half-written blocks then held whole 2 MiB
    // pages.)
    let mut out = match coll {
        Value::Vector(v) => Vec::with_capacity(v.len()),
        _ => Vec::new(),
    };
    interp.repeated(pred, |interp, pred| {
        args::each(fname, coll, |x| {
            if interp
                .tick_call_again_ref(pred, std::slice::from_ref(x))?
                .into_truthy()
                == keep_if
            {
                out.push(x.clone());
            }
            Ok(())
        })
    })?;
    if out.len() < out.capacity() / 2 {
        out.shrink_to_fit();
    }
    built(interp, Vector::from_vec(out))
}

pub(super) fn filter(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a.get(1) {
        Some(coll) => select(interp, "filter", &a[0], coll, true),
        None => {
            args::callable("filter", &a[0])?;
            Ok(xf::filter(a[0].clone(), true))
        }
    }
}

pub(super) fn filterv(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    select(interp, "filterv", &a[0], &a[1], true)
}

pub(super) fn remove(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a.get(1) {
        Some(coll) => select(interp, "remove", &a[0], coll, false),
        None => {
            args::callable("remove", &a[0])?;
            Ok(xf::filter(a[0].clone(), false))
        }
    }
}

pub(super) fn keep(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("keep", f)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::keep(f.clone(), false));
    };
    if let Value::Lazy(_) = coll {
        let some = crate::builtins::lookup_in(crate::builtins::Ns::Core, "some?")
            .ok_or_else(|| crate::error::Error::internal("builtin some? is missing"))?;
        let mapped = Value::lazy(LazySeq::Map {
            f: f.clone(),
            source: coll.clone(),
        });
        return Ok(Value::lazy(LazySeq::Filter {
            pred: Value::Fn(crate::value::Func::builtin(some)),
            keep: true,
            source: mapped,
        }));
    }
    let items = args::items("keep", coll)?;
    let mut out = Vector::new();
    interp.repeated(f, |interp, f| {
        for x in items {
            let r = interp.tick_call_again1(f, x)?;
            if !r.is_nil() {
                out.push_back(r);
            }
        }
        Ok(())
    })?;
    built(interp, out)
}

pub(super) fn keep_indexed(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("keep-indexed", f)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::keep(f.clone(), true));
    };
    let items = args::items("keep-indexed", coll)?;
    let mut out = Vector::new();
    for (i, x) in items.into_iter().enumerate() {
        interp.tick(1)?;
        let r = interp.call(f, &[Value::Int(i as i64), x])?;
        if !r.is_nil() {
            out.push_back(r);
        }
    }
    built(interp, out)
}

/// Folds the rest of `it` into `acc` with `f`; stops at `(reduced v)`.
pub(super) fn fold(
    interp: &mut Interp,
    f: &Value,
    mut acc: Value,
    it: &mut SeqIter,
) -> Result<Value> {
    interp.repeated(f, |interp, f| {
        // Integer arithmetic over integers in an array: folded at once.
        if let Some(items) = it.rest_in_array() {
            let n = interp.fold_ints(f, &mut acc, items)?;
            it.skip_in_array(n);
        }
        while let Some(x) = it.next(interp)? {
            // The accumulator is handed over (not copied), so a collection
            // built up by `assoc`/`conj` is updated in place.
            acc = interp.tick_call_again2(f, acc, x)?;
            if let Value::Reduced(v) = &acc {
                return Ok((**v).clone());
            }
        }
        Ok(acc)
    })
}

/// `(reduce f coll)` / `(reduce f init coll)`. Without init, an empty
/// collection gives `(f)` and a single item is returned as is.
pub(super) fn reduce(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("reduce", f)?;
    match a {
        [_, coll] => {
            let mut it = SeqIter::new("reduce", coll)?;
            match it.next(interp)? {
                None => interp.call(f, &[]),
                Some(first) => fold(interp, f, first, &mut it),
            }
        }
        [_, init, coll, ..] => {
            let mut it = SeqIter::new("reduce", coll)?;
            fold(interp, f, init.clone(), &mut it)
        }
        _ => Ok(Value::Nil),
    }
}

pub(super) fn reduce_kv(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("reduce-kv", f)?;
    let mut acc = a[1].clone();
    let pairs: Vec<(Value, Value)> = match &a[2] {
        Value::Nil => return Ok(acc),
        Value::Map(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Value::Vector(x) => x
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Int(i as i64), v.clone()))
            .collect(),
        other => return Err(args::type_error("reduce-kv", "a map or a vector", other)),
    };
    interp.repeated(f, |interp, f| {
        for (k, v) in pairs {
            acc = interp.tick_call_again(f, &mut [acc, k, v])?;
            if let Value::Reduced(v) = &acc {
                return Ok((**v).clone());
            }
        }
        Ok(acc)
    })
}

/// A `(reduced x)` wrapper is charged its shared allocation (an `Arc`
/// around one value): charging it bounds how deep a chain of wrappers a
/// turn can build, like any other nesting.
pub(super) fn reduced(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.alloc(cost::REDUCED_BYTES)?;
    Ok(Value::Reduced(Arc::new(a[0].clone())))
}

pub(super) fn is_reduced(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(matches!(a[0], Value::Reduced(_))))
}

pub(super) fn unreduced(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(match &a[0] {
        Value::Reduced(v) => (**v).clone(),
        other => other.clone(),
    })
}

pub(super) fn ensure_reduced(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(match &a[0] {
        Value::Reduced(_) => a[0].clone(),
        other => {
            interp.alloc(cost::REDUCED_BYTES)?;
            Value::Reduced(Arc::new(other.clone()))
        }
    })
}

/// The first truthy `(pred x)`, or nil.
fn first_truthy(interp: &mut Interp, fname: &str, pred: &Value, coll: &Value) -> Result<Value> {
    args::callable(fname, pred)?;
    let mut found = Value::Nil;
    interp.repeated(pred, |interp, pred| {
        for_each(interp, fname, coll, |interp, x| {
            let r = interp.call_again1(pred, x)?;
            if r.truthy() {
                found = r;
                return Ok(false);
            }
            Ok(true)
        })
    })?;
    Ok(found)
}

/// Whether `(pred x)` is truthy for every item.
fn all(interp: &mut Interp, fname: &str, pred: &Value, coll: &Value) -> Result<bool> {
    args::callable(fname, pred)?;
    let mut ok = true;
    interp.repeated(pred, |interp, pred| {
        for_each(interp, fname, coll, |interp, x| {
            ok = interp.call_again1(pred, x)?.into_truthy();
            Ok(ok)
        })
    })?;
    Ok(ok)
}

pub(super) fn some(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    first_truthy(interp, "some", &a[0], &a[1])
}

pub(super) fn every(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(all(interp, "every?", &a[0], &a[1])?))
}

pub(super) fn not_any(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        !first_truthy(interp, "not-any?", &a[0], &a[1])?.truthy(),
    ))
}

pub(super) fn not_every(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(!all(interp, "not-every?", &a[0], &a[1])?))
}

pub(super) fn pcalls(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    for f in a {
        args::callable("pcalls", f)?;
    }
    interp.alloc(cost::vector_bytes(a.len()))?;
    let out = interp.run_group(a.len(), &mut |interp, i| {
        interp.tick(1)?;
        interp.call(&a[i], &[])
    })?;
    Ok(Value::vector(Vector::from_vec(out)))
}
