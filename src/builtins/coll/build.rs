//! Building collections: `peek pop subvec vec vector list hash-map
//! hash-set sorted-map sorted-map-by sorted-set sorted-set-by subseq rseq
//! set disj` (the decisions, sorted-map-by's among them, are in the module
//! docs of `coll`).

use super::*;

pub(super) fn peek(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Vector(items) => Ok(items.back().cloned().unwrap_or(Value::Nil)),
        Value::Nil => Ok(Value::Nil),
        other => Err(args::type_error("peek", "a vector", other)),
    }
}

pub(super) fn pop(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Vector(items) => {
            if items.is_empty() {
                return Err(
                    Error::execution("pop cannot remove an item from an empty vector")
                        .with_hint("check (empty? v) first"),
                );
            }
            // Cut like `butlast`: a small vector copied, a large one shared.
            interp.alloc(cost::vector_slice_bytes(items.len() - 1))?;
            let mut items = items.clone();
            items.pop_back();
            Ok(Value::vector(items))
        }
        Value::Nil => Ok(Value::Nil),
        other => Err(args::type_error("pop", "a vector", other)),
    }
}

pub(super) fn subvec(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = match &a[0] {
        Value::Vector(items) => items,
        other => return Err(args::type_error("subvec", "a vector", other)),
    };
    let len = items.len() as i64;
    let start = args::index("subvec", &a[1])?;
    let end = match a.get(2) {
        Some(e) => args::index("subvec", e)?,
        None => len,
    };
    if start < 0 || end < start || end > len {
        return Err(Error::execution(format!(
            "subvec indexes {start} to {end} are out of bounds for a vector of {len} items"
        ))
        .with_hint("0 <= start <= end <= (count v); (take n (drop start v)) never fails"));
    }
    let (start, end) = (start as usize, end as usize);
    interp.alloc(cost::vector_slice_bytes(end - start))?;
    Ok(Value::vector(items.sub(start..end)))
}

pub(super) fn vec(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Vector(_) = &a[0] {
        return Ok(a[0].clone());
    }
    let items = args::items("vec", &a[0])?;
    interp.tick(n64(items.len()))?;
    interp.alloc(cost::vector_bytes(items.len()))?;
    Ok(Value::vector(items))
}

pub(super) fn vector(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.alloc(cost::vector_bytes(a.len()))?;
    Ok(Value::vector_from(a.iter().cloned()))
}

pub(super) fn list(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    vector(interp, a)
}

pub(super) fn hash_map(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    pairs_to_map(interp, "hash-map", Map::new(), a)
}

pub(super) fn sorted_map(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    pairs_to_map(interp, "sorted-map", Map::sorted(), a)
}

pub(super) fn hash_set(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.tick(n64(a.len()))?;
    Ok(Value::Set(charged_set(interp, a.iter().cloned())?))
}

/// `(sorted-map-by cmp k v …)`: the entries in `cmp`'s order, as an
/// insertion-ordered map (module doc: "sorted-map-by").
pub(super) fn sorted_map_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("sorted-map-by", &a[0])?;
    let kvs = &a[1..];
    if !kvs.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "sorted-map-by expects a comparator then an even number of arguments (key value pairs), got {}",
            kvs.len()
        )));
    }
    let keys: Vec<Value> = kvs.iter().step_by(2).cloned().collect();
    let order = crate::builtins::seq::comparator_order(interp, "sorted-map-by", &a[0], &keys)?;
    let mut ordered = Vec::with_capacity(kvs.len());
    let mut first = 0;
    for (i, same) in order {
        // Keys the comparator finds equal are one key: the first one
        // given, with the last value given (Clojure).
        if !same {
            first = i;
        }
        ordered.push(keys[first].clone());
        ordered.push(kvs[2 * i + 1].clone());
    }
    pairs_to_map(interp, "sorted-map-by", Map::new(), &ordered)
}

/// `(sorted-set-by cmp x …)`: the elements, those `cmp` finds equal kept
/// once (the first given); a set, in the canonical order of every set
/// (module doc: "sorted-map-by").
pub(super) fn sorted_set_by(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("sorted-set-by", &a[0])?;
    let items = &a[1..];
    let order = crate::builtins::seq::comparator_order(interp, "sorted-set-by", &a[0], items)?;
    let kept: Vec<Value> = order
        .into_iter()
        .filter(|&(_, same)| !same)
        .map(|(i, _)| items[i].clone())
        .collect();
    hash_set(interp, &kept)
}

/// Whether `(test (compare k bound) 0)` holds.
pub(super) fn bound_holds(
    interp: &mut Interp,
    test: &Value,
    k: &Value,
    bound: &Value,
) -> Result<bool> {
    let ord = compare_values(k, bound).ok_or_else(|| {
        Error::type_error(format!(
            "subseq cannot compare {} with {}",
            k.describe(),
            bound.describe()
        ))
    })?;
    let c = match ord {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    };
    Ok(interp.call(test, &[Value::Int(c), Value::Int(0)])?.truthy())
}

pub(super) fn subseq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if a.len() == 4 {
        return Err(Error::arity(
            "subseq expects 3 or 5 arguments: (subseq coll test k) or (subseq coll start-test start-k end-test end-k), got 4",
        ));
    }
    let items: Vec<(Value, Value)> = match &a[0] {
        Value::Map(m) => m
            .iter()
            .map(|(k, v)| (k.clone(), Value::entry(k.clone(), v.clone())))
            .collect(),
        Value::Set(s) => s.iter().map(|x| (x.clone(), x.clone())).collect(),
        other => return Err(args::type_error("subseq", "a sorted map or set", other)),
    };
    let bounds: Vec<(&Value, &Value)> = a[1..].chunks(2).map(|c| (&c[0], &c[1])).collect();
    for (test, _) in &bounds {
        args::callable("subseq", test)?;
    }
    let mut out = Vector::new();
    'items: for (k, item) in items {
        interp.tick(1)?;
        for (test, bound) in &bounds {
            if !bound_holds(interp, test, &k, bound)? {
                continue 'items;
            }
        }
        out.push_back(item);
    }
    interp.alloc(cost::vector_bytes(out.len()))?;
    Ok(Value::vector(out))
}

pub(super) fn rseq(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let items = match &a[0] {
        Value::Vector(_) | Value::Map(_) | Value::Set(_) => args::items("rseq", &a[0])?,
        Value::Nil => Vector::new(),
        other => return Err(args::type_error("rseq", "a vector, map or set", other)),
    };
    if items.is_empty() {
        return Ok(Value::Nil);
    }
    interp.tick(n64(items.len()))?;
    interp.alloc(cost::vector_bytes(items.len()))?;
    Ok(Value::vector_from(items.into_iter().rev()))
}

pub(super) fn set(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    if let Value::Set(_) = &a[0] {
        return Ok(a[0].clone());
    }
    // A vector's items go straight into the set (no copy of them first).
    if let Value::Vector(v) = &a[0] {
        interp.tick(n64(v.len()))?;
        return Ok(Value::Set(charged_set(interp, v.iter().cloned())?));
    }
    let items = args::to_vec("set", &a[0])?;
    interp.tick(n64(items.len()))?;
    Ok(Value::Set(charged_set(interp, items)?))
}

pub(super) fn disj(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    disj_parts(interp, a[0].clone(), &a[1..])
}

/// `disj` taking its set (changed in place when unshared).
pub(super) fn disj_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let (set, xs) = a.split_at_mut(1);
    disj_parts(interp, Value::take(&mut set[0]), xs)
}

/// `(disj set xs…)`, `set` taken.
fn disj_parts(interp: &mut Interp, set: Value, xs: &[Value]) -> Result<Value> {
    match set {
        Value::Nil => Ok(Value::Nil),
        Value::Set(mut s) => {
            interp.tick(n64(xs.len()))?;
            for x in xs {
                s.remove(x);
            }
            Ok(Value::Set(s))
        }
        other => Err(args::type_error("disj", "a set", &other)),
    }
}
