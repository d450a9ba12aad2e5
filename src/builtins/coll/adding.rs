//! Adding items to a collection: `conj into empty` (the decisions are in
//! the module docs of `coll`). The owned entries add in place to a
//! collection nothing else holds; `(into [] v)` of a vector hands `v` on,
//! charged as the copy.

use super::*;

pub(super) fn conj(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let Some((coll, items)) = a.split_first() else {
        return Ok(Value::empty_vector());
    };
    if items.is_empty() {
        return Ok(coll.clone());
    }
    if coll.may_end() {
        // Realised, then added to as a vector (eval/realise.rs).
        return Err(args::whole("conj", coll));
    }
    let mut acc = Acc::new("conj", coll)?;
    let mut bytes = 0;
    for x in items {
        interp.tick(1)?;
        bytes += acc.add("conj", x.clone())?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

/// `conj` taking its collection.
pub(super) fn conj_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    if a.len() < 2 {
        return conj(interp, a);
    }
    let (head, items) = a.split_at_mut(1);
    let mut acc = Acc::owned("conj", Value::take(&mut head[0]))?;
    let mut bytes = 0;
    for x in items.iter_mut() {
        interp.tick(1)?;
        bytes += acc.add("conj", Value::take(x))?;
    }
    interp.alloc(bytes)?;
    Ok(acc.value())
}

pub(super) fn into(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [] => Ok(Value::empty_vector()),
        [to] => Ok(to.clone()),
        [to, rest @ ..] => into_parts(interp, to.clone(), rest),
    }
}

/// `into` taking its collection (added to in place when unshared:
/// `(reduce (fn [acc x] (into acc (f x))) [] xs)`).
pub(super) fn into_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    match a {
        // `(into [] v)`: `v` itself, charged the steps and heap of adding
        // its items one by one, as the plain entry does (`(into [] (concat
        // acc [x]))` in a loop copied the whole accumulator every step).
        // When the steps would pass the limit, the items go one by one, so
        // the limit fires where it always would.
        [Value::Vector(to), Value::Vector(from)]
            if to.is_empty() && interp.budget.tick_if_room(from.len() as u64)? =>
        {
            interp.alloc(cost::vector_pushes(0, from.len()))?;
            Ok(Value::Vector(std::mem::take(from)))
        }
        [to, rest @ ..] if !rest.is_empty() => into_parts(interp, Value::take(to), rest),
        _ => into(interp, a),
    }
}

/// `(into to from)` or `(into to xform from)`, `to` taken.
fn into_parts(interp: &mut Interp, to: Value, rest: &[Value]) -> Result<Value> {
    match rest {
        [xform, from] => {
            let conj = crate::builtins::lookup_in(crate::builtins::Ns::Core, "conj")
                .map(|b| Value::Fn(crate::value::Func::builtin(b)))
                .ok_or_else(|| {
                    crate::error::Error::internal("conj is missing from the registry")
                })?;
            crate::builtins::seq::transduce_with(interp, "into", xform, &conj, to, from)
        }
        [from, ..] => {
            let mut acc = Acc::owned("into", to)?;
            let items = args::items("into", from)?;
            let mut bytes = 0;
            for x in items {
                interp.tick(1)?;
                bytes += acc.add("into", x)?;
            }
            interp.alloc(bytes)?;
            Ok(acc.value())
        }
        [] => Ok(to),
    }
}

pub(super) fn empty(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(match &a[0] {
        Value::Vector(_) | Value::Lazy(_) => Value::empty_vector(),
        Value::Map(m) => Value::Map(m.empty_like()),
        Value::Set(_) => Value::Set(Set::new()),
        _ => Value::Nil,
    })
}
