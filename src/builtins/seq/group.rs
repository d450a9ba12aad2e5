//! Grouping and ordering: `partition`*, `sort`, `sort-by`, `distinct`,
//! `dedupe`, `flatten`, `frequencies`, `group-by`, `replace`, `tree-seq`.

use std::cmp::Ordering;

use super::keyfn::{key_fn, key_of};
use super::{built, count_arg, test, vskip, vtake, xf};
use crate::builtins::{args, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::hash::{value_hash, ValueTable};
use crate::value::map::same_key;
use crate::value::order::{cmp_text, compare_values, lisp_equal};
use crate::value::{cost, Value, Vector};

fn endless(fname: &str) -> Error {
    Error::limit(format!(
        "{fname} with a step (or size) of 0 or less would produce an endless sequence"
    ))
    .with_hint("use a positive size and step, e.g. (partition 2 coll)")
}

/// `(partition n coll)`, `(partition n step coll)`, `(partition n step pad coll)`.
pub(super) fn partition(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (n, step, pad, coll) = match a {
        [n, coll] => (n, n, None, coll),
        [n, step, coll] => (n, step, None, coll),
        [n, step, pad, coll, ..] => (n, step, Some(pad), coll),
        _ => return Err(Error::internal("partition called with too few arguments")),
    };
    let n = count_arg("partition", n)?;
    let step = count_arg("partition", step)?;
    let pad = match pad {
        Some(p) => Some(args::items("partition", p)?),
        None => None,
    };
    let items = args::items("partition", coll)?;
    if n < 0 || items.is_empty() {
        return built(interp, Vector::new());
    }
    let (nu, len) = (n as usize, items.len());
    if n == 0 || (step <= 0 && len >= nu) {
        return Err(endless("partition"));
    }
    let step = step.max(1) as usize;
    let mut out = Vector::new();
    let mut i = 0usize;
    while i < len {
        interp.tick(1)?;
        if i + nu <= len {
            interp.alloc(cost::vector_slice_bytes(nu) + cost::vector_push(out.len()))?;
            out.push_back(Value::vector(vtake(&vskip(&items, i), nu)));
        } else {
            if let Some(pad) = &pad {
                let mut last = vskip(&items, i);
                last.append(vtake(pad, nu - last.len()));
                interp.alloc(cost::vector_bytes(last.len()) + cost::vector_push(out.len()))?;
                out.push_back(Value::vector(last));
            }
            break;
        }
        i = i.saturating_add(step);
    }
    Ok(Value::vector(out))
}

/// `(partition-all n)` (transducer), `(partition-all n coll)`,
/// `(partition-all n step coll)`.
pub(super) fn partition_all(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("partition-all", &a[0])?;
    let (step, coll) = match a {
        [_] => return Ok(xf::partition_all(n)),
        [_, coll] => (n, coll),
        [_, step, coll, ..] => (count_arg("partition-all", step)?, coll),
        [] => return Err(Error::internal("partition-all called without arguments")),
    };
    let items = args::items("partition-all", coll)?;
    if items.is_empty() {
        return built(interp, Vector::new());
    }
    if step <= 0 {
        return Err(endless("partition-all"));
    }
    let (nu, step) = (n.max(0) as usize, step as usize);
    let mut out = Vector::new();
    let mut i = 0usize;
    while i < items.len() {
        interp.tick(1)?;
        let chunk = vtake(&vskip(&items, i), nu);
        interp.alloc(cost::vector_slice_bytes(chunk.len()) + cost::vector_push(out.len()))?;
        out.push_back(Value::vector(chunk));
        i = i.saturating_add(step);
    }
    Ok(Value::vector(out))
}

pub(super) fn partition_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("partition-by", f)?;
    let Some(coll) = a.get(1) else {
        return Ok(xf::partition_by(f.clone()));
    };
    let items = args::items("partition-by", coll)?;
    let mut out = Vector::new();
    let mut chunk = Vector::new();
    let mut prev: Option<Value> = None;
    let mut bytes = 0;
    for x in items {
        interp.tick(1)?;
        let k = interp.call(f, std::slice::from_ref(&x))?;
        if prev.as_ref().is_some_and(|p| !lisp_equal(p, &k)) {
            bytes += cost::vector_bytes(chunk.len());
            out.push_back(Value::vector(std::mem::take(&mut chunk)));
        }
        prev = Some(k);
        chunk.push_back(x);
    }
    if !chunk.is_empty() {
        bytes += cost::vector_bytes(chunk.len());
        out.push_back(Value::vector(chunk));
    }
    interp.alloc(bytes)?;
    built(interp, out)
}

/// How two items are ordered.
enum Cmp {
    Asc,
    Desc,
    Fn(Value),
}

fn comparator(fname: &str, v: &Value) -> Result<Cmp> {
    match v {
        Value::Keyword(k) if &**k == "asc" => Ok(Cmp::Asc),
        Value::Keyword(k) if &**k == "desc" => Ok(Cmp::Desc),
        Value::Fn(_) => Ok(Cmp::Fn(v.clone())),
        _ => Err(args::type_error(fname, "a comparator function or :asc/:desc", v).with_hint(
            format!("write ({fname} > coll), ({fname} :desc coll) or ({fname} compare coll); the collection comes last"),
        )),
    }
}

/// `compare`, with a type-error naming `fname` for incomparable values.
fn natural(fname: &str, a: &Value, b: &Value) -> Result<Ordering> {
    compare_values(a, b).ok_or_else(|| {
        Error::type_error(format!(
            "{fname} cannot compare {} with {}",
            a.describe(),
            b.describe()
        ))
        .with_hint("sort values of one kind, or sort by a key: (sort-by :name coll)")
    })
}

fn compare_with(
    interp: &mut Interp,
    fname: &str,
    cmp: &Cmp,
    a: &Value,
    b: &Value,
) -> Result<Ordering> {
    interp.tick(1)?;
    match cmp {
        Cmp::Asc => natural(fname, a, b),
        Cmp::Desc => natural(fname, b, a),
        Cmp::Fn(f) => {
            // Clojure's fn-as-Comparator: a number's sign, or a boolean
            // "a comes first" asked both ways.
            match interp.call(f, &[a.clone(), b.clone()])? {
                Value::Int(i) => Ok(i.cmp(&0)),
                Value::Float(x) => Ok(if x < 0.0 {
                    Ordering::Less
                } else if x > 0.0 {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                }),
                Value::Bool(true) => Ok(Ordering::Less),
                Value::Bool(false) | Value::Nil => {
                    if interp.call(f, &[b.clone(), a.clone()])?.truthy() {
                        Ok(Ordering::Greater)
                    } else {
                        Ok(Ordering::Equal)
                    }
                }
                other => Err(Error::type_error(format!(
                    "{fname} expects its comparator to return a number or a boolean, got {}",
                    other.describe()
                ))),
            }
        }
    }
}

/// `keys` in the order of the program's comparator `f` (`sorted-map-by`,
/// `sorted-set-by`): a boolean "comes first" (`<`, `>`) or a number
/// (`compare`), as [`compare_with`] reads it; a stable merge sort, each
/// comparison a step, errors (a comparator that throws or answers
/// something else) propagate. Each index comes with whether the comparator
/// finds its key equal to the one before (the same key, for a sorted
/// collection: one more comparison per key).
pub(crate) fn comparator_order(
    interp: &mut Interp,
    fname: &str,
    f: &Value,
    keys: &[Value],
) -> Result<Vec<(usize, bool)>> {
    let cmp = Cmp::Fn(f.clone());
    let order = sorted_order(interp, fname, &cmp, keys)?;
    let mut out: Vec<(usize, bool)> = Vec::with_capacity(order.len());
    for (n, &i) in order.iter().enumerate() {
        let same = match n.checked_sub(1).map(|p| order[p]) {
            Some(prev) => {
                compare_with(interp, fname, &cmp, &keys[prev], &keys[i])? == Ordering::Equal
            }
            None => false,
        };
        out.push((i, same));
    }
    Ok(out)
}

/// A stable merge sort of `0..keys.len()` by `keys` (a comparator from
/// the program may be inconsistent or fail: no panics, errors propagate).
fn sorted_order(interp: &mut Interp, fname: &str, cmp: &Cmp, keys: &[Value]) -> Result<Vec<usize>> {
    let n = keys.len();
    if let Some(order) = direct_order(cmp, keys) {
        // What the merge sort below would charge, about one step per comparison.
        let rounds = usize::BITS - n.leading_zeros();
        interp.tick(n as u64 * u64::from(rounds))?;
        return Ok(order);
    }
    let mut src: Vec<usize> = (0..n).collect();
    let mut width = 1;
    while width < n {
        let mut dst = Vec::with_capacity(n);
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            while i < mid && j < hi {
                if compare_with(interp, fname, cmp, &keys[src[i]], &keys[src[j]])?
                    != Ordering::Greater
                {
                    dst.push(src[i]);
                    i += 1;
                } else {
                    dst.push(src[j]);
                    j += 1;
                }
            }
            dst.extend_from_slice(&src[i..mid]);
            dst.extend_from_slice(&src[j..hi]);
            lo = hi;
        }
        src = dst;
        width *= 2;
    }
    Ok(src)
}

/// The same order as [`sorted_order`]'s merge sort, computed without the
/// interpreter when that cannot change the outcome: every key an integer
/// (natural order, `compare`, or one of the builtins `<` `<=` `>` `>=`,
/// whose boolean answers order integers exactly so), or every key a string
/// (natural order or `compare`). Both sorts are stable. `None` otherwise.
fn direct_order(cmp: &Cmp, keys: &[Value]) -> Option<Vec<usize>> {
    let (desc, numeric_only) = match cmp {
        Cmp::Asc => (false, false),
        Cmp::Desc => (true, false),
        Cmp::Fn(f) => match f.as_builtin() {
            Some(b) if b.ns == Ns::Core => match b.name {
                "compare" => (false, false),
                "<" | "<=" => (false, true),
                ">" | ">=" => (true, true),
                _ => return None,
            },
            _ => return None,
        },
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let ints: Option<Vec<i64>> = keys
        .iter()
        .map(|k| match k {
            Value::Int(i) => Some(*i),
            _ => None,
        })
        .collect();
    if let Some(ints) = ints {
        if desc {
            order.sort_by(|&a, &b| ints[b].cmp(&ints[a]));
        } else {
            order.sort_by_key(|&i| ints[i]);
        }
        return Some(order);
    }
    if numeric_only {
        return None;
    }
    let texts: Option<Vec<&str>> = keys
        .iter()
        .map(|k| match k {
            Value::Str(s) => Some(&**s),
            _ => None,
        })
        .collect();
    let texts = texts?;
    if desc {
        order.sort_by(|&a, &b| cmp_text(texts[b], texts[a]));
    } else {
        order.sort_by(|&a, &b| cmp_text(texts[a], texts[b]));
    }
    Some(order)
}

/// `(sort coll)` / `(sort comparator coll)`; comparator may be `:asc`/`:desc`.
pub(super) fn sort(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (cmp, coll) = match a {
        [coll] => (Cmp::Asc, coll),
        [c, coll, ..] => (comparator("sort", c)?, coll),
        [] => return Err(Error::internal("sort called without arguments")),
    };
    let items = args::to_vec("sort", coll)?;
    let order = sorted_order(interp, "sort", &cmp, &items)?;
    built(
        interp,
        order.into_iter().map(|i| items[i].clone()).collect(),
    )
}

/// `(sort-by keyfn coll)` / `(sort-by keyfn comparator coll)`.
pub(super) fn sort_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (kf, cmp, coll) = match a {
        [k, coll] => (key_fn("sort-by", k)?, Cmp::Asc, coll),
        [k, c, coll, ..] => (key_fn("sort-by", k)?, comparator("sort-by", c)?, coll),
        _ => return Err(Error::internal("sort-by called with too few arguments")),
    };
    let items = args::to_vec("sort-by", coll)?;
    let mut keys = Vec::with_capacity(items.len());
    interp.repeated(&kf.callee(), |interp, f| {
        for x in &items {
            interp.tick(1)?;
            keys.push(key_of(interp, &kf, f, x)?);
        }
        Ok(())
    })?;
    let order = sorted_order(interp, "sort-by", &cmp, &keys)?;
    built(
        interp,
        order.into_iter().map(|i| items[i].clone()).collect(),
    )
}

/// `(distinct coll)`: the items seen kept in a table with their hashes,
/// an item already there looked up without a copy.
pub(super) fn distinct(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let Some(coll) = a.first() else {
        return Ok(xf::distinct());
    };
    let mut seen: hashbrown::HashTable<(u64, Value)> = hashbrown::HashTable::new();
    let mut out = Vector::new();
    args::each("distinct", coll, |x| {
        interp.tick(1)?;
        let h = value_hash(x);
        if seen.find(h, |(eh, y)| *eh == h && same_key(y, x)).is_none() {
            seen.insert_unique(h, (h, x.clone()), |(eh, _)| *eh);
            out.push_back(x.clone());
        }
        Ok(())
    })?;
    // The table of items seen, as big as a set of them.
    interp.alloc(cost::set_bytes(out.len()))?;
    built(interp, out)
}

pub(super) fn dedupe(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let Some(coll) = a.first() else {
        return Ok(xf::dedupe());
    };
    let items = args::items("dedupe", coll)?;
    let mut out: Vector = Vector::new();
    for x in items {
        interp.tick(1)?;
        if out.back().is_some_and(|p| lisp_equal(p, &x)) {
            continue;
        }
        out.push_back(x);
    }
    built(interp, out)
}

/// Clojure's flatten: the non-sequential leaves of nested vectors; anything
/// that is not a vector (a map, a string, nil …) flattens to `[]`.
pub(super) fn flatten(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let root = match &a[0] {
        Value::Vector(v) => v.clone(),
        v @ Value::Lazy(_) => return Err(args::whole("flatten", v)),
        _ => return built(interp, Vector::new()),
    };
    let mut out = Vector::new();
    let mut stack: Vec<(Vector, usize)> = vec![(root, 0)];
    while let Some((items, pos)) = stack.last_mut() {
        let Some(x) = items.get(*pos).cloned() else {
            stack.pop();
            continue;
        };
        *pos += 1;
        interp.tick(1)?;
        match x {
            Value::Vector(v) => stack.push((v, 0)),
            v @ Value::Lazy(_) => return Err(args::whole("flatten", &v)),
            leaf => out.push_back(leaf),
        }
    }
    built(interp, out)
}

/// Counts in a map, keys in the order first seen (counted in a hash
/// table beside a vector, then built into the map once).
pub(super) fn frequencies(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    // Each key's hash and position in `counts`.
    let mut index: hashbrown::HashTable<(u64, usize)> = hashbrown::HashTable::new();
    let mut counts: Vec<(Value, i64)> = Vec::new();
    args::each("frequencies", &a[0], |x| {
        interp.tick(1)?;
        let h = value_hash(x);
        match index.find(h, |&(eh, i)| eh == h && same_key(&counts[i].0, x)) {
            Some(&(_, i)) => counts[i].1 += 1,
            None => {
                interp.alloc(cost::map_insert(counts.len()))?;
                index.insert_unique(h, (h, counts.len()), |&(eh, _)| eh);
                counts.push((x.clone(), 1));
            }
        }
        Ok(())
    })?;
    Ok(Value::Map(
        counts
            .into_iter()
            .map(|(k, n)| (k, Value::Int(n)))
            .collect(),
    ))
}

/// `(group-by f coll)`; f may also be a string key or a vector path. Groups
/// in the order their keys are first seen (gathered in a hash table beside
/// a vector, then built into the map once).
// The interior mutability clippy sees (a compiled regex's match cache) is
// not part of any hash: regexes hash by source, functions by name and address.
#[allow(clippy::mutable_key_type)]
pub(super) fn group_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let kf = key_fn("group-by", &a[0])?;
    let mut index: ValueTable<usize> = ValueTable::default();
    let mut groups: Vec<(Value, Vector)> = Vec::new();
    let callee = kf.callee();
    interp.repeated(&callee, |interp, f| {
        args::each("group-by", &a[1], |x| {
            interp.tick(1)?;
            let k = key_of(interp, &kf, f, x)?;
            match index.get(&k) {
                Some(&i) => {
                    interp.alloc(cost::vector_push(groups[i].1.len()))?;
                    groups[i].1.push_back(x.clone());
                }
                None => {
                    interp.alloc(cost::map_insert(groups.len()) + cost::vector_bytes(1))?;
                    index.insert(k.clone(), groups.len());
                    groups.push((k, Vector::unit(x.clone())));
                }
            }
            Ok(())
        })
    })?;
    Ok(Value::Map(
        groups
            .into_iter()
            .map(|(k, g)| (k, Value::vector(g)))
            .collect(),
    ))
}

/// `x` replaced by its value in `smap` (a map, or a vector indexed by
/// position), if it has one.
pub(super) fn replace_one(smap: &Value, x: Value) -> Value {
    match smap {
        Value::Map(m) => m.get(&x).cloned().unwrap_or(x),
        Value::Vector(v) => match x {
            Value::Int(i) if i >= 0 && (i as usize) < v.len() => v[i as usize].clone(),
            other => other,
        },
        _ => x,
    }
}

/// `(replace smap coll)` (clojure.core), `(replace smap)` (transducer), or —
/// when the first argument is a string — clojure.string/replace, which is
/// what a bare `(replace "abc" "a" "b")` means in LLM-written code.
pub(super) fn replace(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Str(_) = &a[0] {
        let b = crate::builtins::lookup_in(Ns::String, "replace")
            .ok_or_else(|| Error::internal("clojure.string/replace is not registered"))?;
        return interp.call_builtin(b, a);
    }
    let smap = &a[0];
    if !matches!(smap, Value::Map(_) | Value::Vector(_) | Value::Nil) {
        return Err(args::type_error(
            "replace",
            "a map of replacements (or a string, as clojure.string/replace)",
            smap,
        ));
    }
    match a {
        [_] => Ok(xf::replace(smap.clone())),
        [_, coll] => {
            let items = args::items("replace", coll)?;
            interp.tick(items.len() as u64)?;
            let out: Vector = items.into_iter().map(|x| replace_one(smap, x)).collect();
            built(interp, out)
        }
        _ => Err(args::type_error(
            "replace",
            "a string first when called with 3 arguments (clojure.string/replace)",
            smap,
        )),
    }
}

/// `(tree-seq branch? children root)`: depth-first, pre-order.
pub(super) fn tree_seq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (branch, children, root) = (&a[0], &a[1], &a[2]);
    args::callable("tree-seq", branch)?;
    args::callable("tree-seq", children)?;
    let mut out = Vector::new();
    let mut stack: Vec<(Vector, usize)> = Vec::new();
    let mut node = Some(root.clone());
    loop {
        if let Some(n) = node.take() {
            interp.tick(1)?;
            interp.alloc(cost::vector_push(out.len()))?;
            out.push_back(n.clone());
            if test(interp, branch, &n)? {
                let kids = interp.call(children, std::slice::from_ref(&n))?;
                stack.push((args::items("tree-seq", &kids)?, 0));
            }
        }
        let Some((kids, pos)) = stack.last_mut() else {
            break;
        };
        match kids.get(*pos).cloned() {
            Some(k) => {
                *pos += 1;
                node = Some(k);
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(Value::vector(out))
}
