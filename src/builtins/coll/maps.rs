//! Reading and writing maps and collections by key: `count get get-in
//! assoc assoc-in dissoc update update-in update-keys update-vals keys vals
//! key val merge merge-with select-keys zipmap find contains?` (the
//! decisions are in the module docs of `coll`; adding items, `conj into
//! empty`, in `adding.rs`).

use super::*;

pub(super) fn count(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Int(args::count("count", &a[0])? as i64))
}

pub(super) fn get(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let default = a.get(2).cloned().unwrap_or(Value::Nil);
    Ok(lookup(&a[0], &a[1]).unwrap_or(default))
}

pub(super) fn get_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let default = || a.get(2).cloned().unwrap_or(Value::Nil);
    let keys = match &a[1] {
        Value::Vector(keys) => {
            interp.tick(n64(keys.len()))?;
            if let Some(found) = get_in_by_ref(&a[0], keys) {
                return Ok(found.cloned().unwrap_or_else(default));
            }
            keys.clone()
        }
        other => {
            let keys = path("get-in", other)?;
            interp.tick(n64(keys.len()))?;
            keys
        }
    };
    let mut cur = a[0].clone();
    for k in keys.iter() {
        match lookup(&cur, k) {
            Some(v) => cur = v,
            None => return Ok(default()),
        }
    }
    Ok(cur)
}

/// `get-in` by reference (no copy of the path, no clone of the levels
/// passed): `Some(found)`, or `None` when a string is on the way (the
/// general lookup handles it).
pub(super) fn get_in_by_ref<'a>(m: &'a Value, keys: &Vector) -> Option<Option<&'a Value>> {
    let mut cur = m;
    for k in keys.iter() {
        if let Value::Str(_) = cur {
            return None;
        }
        match lookup_ref(cur, k) {
            Some(v) => cur = v,
            None => return Some(None),
        }
    }
    Some(Some(cur))
}

pub(super) fn assoc(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let kvs = &a[1..];
    if !kvs.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "assoc expects a collection followed by key value pairs, got {} arguments after the collection",
            kvs.len()
        )));
    }
    interp.tick(n64(kvs.len() / 2))?;
    let before = cost::collection_len(&a[0]);
    let mut coll = a[0].clone();
    for kv in kvs.chunks(2) {
        coll = assoc1("assoc", coll, kv[0].clone(), kv[1].clone())?;
    }
    interp.alloc(cost::growth_of(&coll, before))?;
    Ok(coll)
}

/// `assoc` taking its collection: updated in place when nothing else holds it.
pub(super) fn assoc_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let kvs = a.len() - 1;
    if !kvs.is_multiple_of(2) {
        return assoc(interp, a);
    }
    interp.tick(n64(kvs / 2))?;
    let (head, rest) = a.split_at_mut(1);
    let mut coll = Value::take(&mut head[0]);
    let before = cost::collection_len(&coll);
    for kv in rest.chunks_mut(2) {
        coll = assoc1(
            "assoc",
            coll,
            Value::take(&mut kv[0]),
            Value::take(&mut kv[1]),
        )?;
    }
    interp.alloc(cost::growth_of(&coll, before))?;
    Ok(coll)
}

pub(super) fn assoc_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let v = a[2].clone();
    update_path(interp, "assoc-in", a[0].clone(), &a[1], |_, _| Ok(v))
}

/// `assoc-in` taking its map (updated in place when unshared).
pub(super) fn assoc_in_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let (m, v) = (Value::take(&mut a[0]), Value::take(&mut a[2]));
    update_path(interp, "assoc-in", m, &a[1], |_, _| Ok(v))
}

pub(super) fn dissoc(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Ok(Value::Nil),
        Value::Map(m) => {
            interp.tick(n64(a.len() - 1))?;
            let mut m = m.clone();
            for k in &a[1..] {
                m.remove(k);
            }
            Ok(Value::Map(m))
        }
        other => Err(args::type_error("dissoc", "a map", other)),
    }
}

/// `dissoc` taking its map.
pub(super) fn dissoc_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    match Value::take(&mut a[0]) {
        Value::Map(mut m) => {
            interp.tick(n64(a.len() - 1))?;
            for k in &a[1..] {
                m.remove(k);
            }
            Ok(Value::Map(m))
        }
        other => {
            a[0] = other;
            dissoc(interp, a)
        }
    }
}

/// `(f old & extra)`, handing `old` to `f`: a record taken out of an
/// unshared map reaches `f` unshared, so `(assoc v …)` there writes in
/// place instead of copying it.
pub(super) fn call_with_extra(
    interp: &mut Interp,
    f: &Value,
    old: Value,
    extra: &[Value],
) -> Result<Value> {
    if extra.is_empty() {
        return interp.call_mut1(f, old);
    }
    let mut call_args = Vec::with_capacity(1 + extra.len());
    call_args.push(old);
    call_args.extend_from_slice(extra);
    interp.call_mut(f, &mut call_args)
}

pub(super) fn update(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("update", &a[2])?;
    let old = get_exact(&a[0], &a[1]);
    let new = call_with_extra(interp, &a[2], old, &a[3..])?;
    let before = cost::collection_len(&a[0]);
    let out = assoc1("update", a[0].clone(), a[1].clone(), new)?;
    interp.alloc(cost::growth_of(&out, before))?;
    Ok(out)
}

/// `update` taking its collection (the old value is handed to `f`).
pub(super) fn update_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let (coll, k) = (Value::take(&mut a[0]), Value::take(&mut a[1]));
    update_parts(interp, coll, k, &a[2], &a[3..])
}

/// `(update coll k f extra…)` of its parts, the collection and key taken
/// (what compiled code with `f` built once calls, lending `f`).
pub(crate) fn update_parts(
    interp: &mut Interp,
    mut coll: Value,
    k: Value,
    f: &Value,
    extra: &[Value],
) -> Result<Value> {
    args::callable("update", f)?;
    if let Value::Map(m) = &mut coll {
        // An existing key is updated where it is: one search, not two.
        if let Some(done) = m.update_value(&k, |old| call_with_extra(interp, f, old, extra)) {
            done?;
            return Ok(coll);
        }
    }
    let old = take_exact(&mut coll, &k);
    let new = call_with_extra(interp, f, old, extra)?;
    let before = cost::collection_len(&coll);
    let out = assoc1("update", coll, k, new)?;
    interp.alloc(cost::growth_of(&out, before))?;
    Ok(out)
}

pub(super) fn update_in(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("update-in", &a[2])?;
    let f = a[2].clone();
    let extra = &a[3..];
    update_path(interp, "update-in", a[0].clone(), &a[1], |interp, old| {
        call_with_extra(interp, &f, old, extra)
    })
}

/// `update-in` taking its map (updated in place when unshared).
pub(super) fn update_in_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("update-in", &a[2])?;
    let m = Value::take(&mut a[0]);
    let (f, extra) = (&a[2], &a[3..]);
    update_path(interp, "update-in", m, &a[1], |interp, old| {
        call_with_extra(interp, f, old, extra)
    })
}

pub(super) fn update_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = map_arg("update-keys", &a[0], &a[1])?;
    args::callable("update-keys", &a[1])?;
    interp.alloc(cost::map_bytes(m.len()))?;
    let mut out = Map::new();
    for (k, v) in m {
        interp.tick(1)?;
        let nk = interp.call(&a[1], std::slice::from_ref(&k))?;
        out.insert(nk, v);
    }
    Ok(Value::Map(out))
}

pub(super) fn update_vals(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = map_arg("update-vals", &a[0], &a[1])?;
    args::callable("update-vals", &a[1])?;
    interp.alloc(cost::map_bytes(m.len()))?;
    let mut out = Map::new();
    interp.repeated(&a[1], |interp, f| {
        for (k, v) in m {
            let nv = interp.tick_call_again1(f, v)?;
            out.insert(k, nv);
        }
        Ok(())
    })?;
    Ok(Value::Map(out))
}

pub(super) fn keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let r = entry_parts("keys", &a[0], 0)?;
    charge_vector(interp, &r)?;
    Ok(r)
}

pub(super) fn vals(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let r = entry_parts("vals", &a[0], 1)?;
    charge_vector(interp, &r)?;
    Ok(r)
}

pub(super) fn charge_vector(interp: &mut Interp, v: &Value) -> Result<()> {
    if let Value::Vector(items) = v {
        interp.tick(n64(items.len()))?;
        interp.alloc(cost::vector_bytes(items.len()))?;
    }
    Ok(())
}

pub(super) fn entry_part(fname: &str, v: &Value, index: usize) -> Result<Value> {
    match v {
        Value::Vector(e) if e.len() == 2 => Ok(e[index].clone()),
        other => Err(args::type_error(fname, "a map entry [key value]", other)),
    }
}

pub(super) fn key(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    entry_part("key", &a[0], 0)
}

pub(super) fn val(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    entry_part("val", &a[0], 1)
}

pub(super) fn merge(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a.split_first() {
        None => Ok(Value::Nil),
        Some((first, rest)) => merge_parts(interp, first.clone(), rest),
    }
}

/// `merge` taking its first map (merged into in place when unshared:
/// `(reduce merge {} ms)`).
pub(super) fn merge_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    match a.split_first_mut() {
        None => Ok(Value::Nil),
        Some((first, rest)) => merge_parts(interp, Value::take(first), rest),
    }
}

/// `(merge first rest…)`, `first` taken.
fn merge_parts(interp: &mut Interp, first: Value, rest: &[Value]) -> Result<Value> {
    if first.is_nil() && rest.iter().all(Value::is_nil) {
        return Ok(Value::Nil);
    }
    if rest.is_empty() {
        return Ok(first);
    }
    let mut acc = match first {
        Value::Nil => Acc::Map(Map::new()),
        Value::Map(_) | Value::Vector(_) | Value::Set(_) => Acc::owned("merge", first)?,
        other => return Err(args::type_error("merge", "maps", &other)),
    };
    let mut bytes = 0;
    for m in rest {
        match m {
            Value::Map(_) | Value::Nil | Value::Vector(_) => {}
            other => return Err(args::type_error("merge", "maps", other)),
        }
        if let Value::Map(mm) = m {
            interp.tick(n64(mm.len()))?;
        }
        bytes += acc.add("merge", m.clone())?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

pub(super) fn merge_with(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("merge-with", &a[0])?;
    merge_with_parts(interp, &a[0], None, &a[1..])
}

/// `merge-with` taking its first map, which the others are merged into in
/// place when unshared (`(reduce #(merge-with + %1 %2) {} ms)`), instead of
/// a new map built from all of them.
pub(super) fn merge_with_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    args::callable("merge-with", &a[0])?;
    let (f, maps) = a.split_at_mut(1);
    if let Some((first, rest)) = maps.split_first_mut() {
        match Value::take(first) {
            // A sorted map stays one when merged into; the plain path
            // builds an insertion-ordered map.
            Value::Map(m) if !m.is_sorted() => {
                charge_entries_copied(interp, m.len())?;
                return merge_with_parts(interp, &f[0], Some(m), rest);
            }
            other => *first = other,
        }
    }
    merge_with_parts(interp, &f[0], None, maps)
}

/// The steps [`merge_with_parts`] charges for the `n` entries of its
/// first map when it copies them into a new map (one each: no key
/// repeats, so `f` is never called), charged as a number by the in-place
/// path that does not copy them (EVAL-STEPS-1; a step limit inside them
/// fires here as in the copy, with the same error). The copy's bytes are
/// not charged: they are what merging in place saves (`eval/reference.rs`:
/// the reference run pays for the copies the optimisations avoid), and a
/// first map another value shares is charged its copy on write anyway.
fn charge_entries_copied(interp: &mut Interp, n: usize) -> Result<()> {
    interp.tick(n64(n))
}

/// `(merge-with f start maps…)`: `maps` merged into `start` (none: into a
/// new map, or nil when every one is nil).
fn merge_with_parts(
    interp: &mut Interp,
    f: &Value,
    start: Option<Map>,
    maps: &[Value],
) -> Result<Value> {
    if start.is_none() && maps.iter().all(Value::is_nil) {
        return Ok(Value::Nil);
    }
    let mut acc = start;
    for m in maps {
        let m = match m {
            Value::Nil => {
                acc.get_or_insert_with(Map::new);
                continue;
            }
            Value::Map(m) => m,
            other => return Err(args::type_error("merge-with", "maps", other)),
        };
        let out = acc.get_or_insert_with(Map::new);
        for (k, v) in m.iter() {
            interp.tick(1)?;
            let nv = match out.get(k) {
                Some(old) => interp.call(f, &[old.clone(), v.clone()])?,
                None => {
                    interp.alloc(cost::map_insert(out.len()))?;
                    v.clone()
                }
            };
            out.insert(k.clone(), nv);
        }
    }
    Ok(acc.map_or(Value::Nil, Value::Map))
}

pub(super) fn select_keys(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let ks = args::items("select-keys", &a[1])?;
    let mut out = Map::new();
    for k in ks {
        interp.tick(1)?;
        match &a[0] {
            Value::Map(m) => {
                if let Some(v) = m.get(&k) {
                    out.insert(k, v.clone());
                }
            }
            Value::Vector(items) => {
                if let Value::Int(i) = k {
                    if i >= 0 && (i as u64) < n64(items.len()) {
                        out.insert(k, items[i as usize].clone());
                    }
                }
            }
            Value::Nil => {}
            other => return Err(args::type_error("select-keys", "a map", other)),
        }
    }
    interp.alloc(cost::map_bytes(out.len()))?;
    Ok(Value::Map(out))
}

pub(super) fn zip(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut xs = SeqIter::new("zip", &a[0])?;
    let mut ys = SeqIter::new("zip", &a[1])?;
    if xs.is_infinite() && ys.is_infinite() {
        return Err(args::whole(
            "zip",
            a.iter().find(|x| x.may_end()).unwrap_or(&a[0]),
        ));
    }
    let mut out = Vector::new();
    while let (Some(x), Some(y)) = (xs.next(interp)?, ys.next(interp)?) {
        interp.tick(1)?;
        interp.alloc(cost::entry_bytes() + cost::vector_push(out.len()))?;
        out.push_back(Value::entry(x, y));
    }
    Ok(Value::vector(out))
}

pub(super) fn entries(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let m = args::map_or_nil("entries", &a[0])?;
    interp.tick(m.len() as u64)?;
    interp.alloc(cost::vector_bytes(m.len()) + n64(m.len()) * cost::entry_bytes())?;
    // In key order, as upstream's `entries` (unlike `seq`, which follows
    // the map's insertion order).
    let mut pairs: Vec<(&Value, &Value)> = m.iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    Ok(Value::vector_from(
        pairs
            .into_iter()
            .map(|(k, v)| Value::entry(k.clone(), v.clone())),
    ))
}

pub(super) fn zipmap(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut ks = SeqIter::new("zipmap", &a[0])?;
    let mut vs = SeqIter::new("zipmap", &a[1])?;
    if ks.is_infinite() && vs.is_infinite() {
        return Err(args::whole(
            "zipmap",
            a.iter().find(|x| x.may_end()).unwrap_or(&a[0]),
        ));
    }
    let mut out = Map::new();
    loop {
        interp.tick(1)?;
        let Some(k) = ks.next(interp)? else { break };
        let Some(v) = vs.next(interp)? else { break };
        interp.alloc(cost::map_insert(out.len()))?;
        out.insert(k, v);
    }
    Ok(Value::Map(out))
}

pub(super) fn find(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match (&a[0], &a[1]) {
        (Value::Map(m), k) => Ok(match m.get(k) {
            Some(v) => Value::entry(k.clone(), v.clone()),
            None => Value::Nil,
        }),
        (Value::Nil, _) => Ok(Value::Nil),
        (Value::Vector(items), Value::Int(i)) => Ok(if *i >= 0 && (*i as u64) < n64(items.len()) {
            Value::entry(Value::Int(*i), items[*i as usize].clone())
        } else {
            Value::Nil
        }),
        (pred, coll) => {
            args::callable("find", pred).map_err(|e| {
                e.with_hint("use (find map key) for a map entry, or (find pred coll) for the first matching item")
            })?;
            let mut it = SeqIter::new("find", coll)?;
            while let Some(x) = it.next(interp)? {
                interp.tick(1)?;
                if interp.call(pred, std::slice::from_ref(&x))?.truthy() {
                    return Ok(x);
                }
            }
            Ok(Value::Nil)
        }
    }
}

pub(super) fn contains(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let k = &a[1];
    let found = match &a[0] {
        Value::Map(m) => m.contains_key(k),
        Value::Set(s) => s.contains(k),
        Value::Nil => false,
        Value::Vector(items) => {
            let mut found = false;
            for x in items.iter() {
                interp.tick(1)?;
                if lisp_equal(x, k) {
                    found = true;
                    break;
                }
            }
            found
        }
        Value::Str(s) => match k {
            Value::Int(i) => *i >= 0 && (*i as u64) < n64(args::char_count(s)),
            _ => false,
        },
        v @ Value::Lazy(_) => return Err(args::whole("contains?", v)),
        other => {
            return Err(args::type_error("contains?", "a map, set or vector", other)
                .with_hint("the collection comes first: (contains? coll x)"))
        }
    };
    Ok(Value::Bool(found))
}
