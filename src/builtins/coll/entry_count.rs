//! `(count (keys m))`, `(count (vals m))`, `(empty? (keys m))` and
//! `(empty? (vals m))` answered from the map: the analyser
//! ([`of_entries`], with optimisations on) calls one of the builtins here
//! in place of the inner `keys`/`vals`, leaving the outer `count`/`empty?`
//! as written. `keys` builds a vector of the map's keys, so the plain pair
//! in a loop test did that work on every iteration; a map knows its size.
//!
//! Why it is the same program: for a map of `n > 0` entries the builtin
//! hands the map itself (a handle, no walk) to the outer call, which
//! counts it or tests it for emptiness as it would the vector of `n` keys
//! or vals: the same answer. Every other value (`nil`, an empty map, a
//! vector of entries, anything `keys` refuses) takes `keys`/`vals` itself.
//! The map is nothing the program can read: the outer call is the
//! rewritten call's only reader, and its result is a number or a boolean
//! that nothing marks as hidden (`count`'s never is, `empty?`'s is a
//! boolean).
//!
//! Why it is charged the same (rule EVAL-STEPS-1): the rewritten call is
//! an ordinary call of a builtin, at the inner call's place, so its step
//! (the call's, settling the thread's meter) and its errors, with the
//! inner call's span, are those of `keys`/`vals`; then it charges, as a
//! number, what `keys`/`vals` charge for the vector of `n` they build (`n`
//! steps through `interp.tick`, then the vector's bytes through
//! `interp.alloc`, in that order); and the outer call is the plain
//! `count`/`empty?`, with its own step and span, on a map as on a vector
//! (neither walks). The steps a loop over the pair charges are therefore
//! the reference's, a step per key per test; only the time is constant.
//! The reference run (`eval/reference.rs`) analyses without optimisations
//! and keeps the two plain calls, so the oracle tests compare both.

use super::{keys, vals, Arity, Builtin};
use crate::error::Result;
use crate::eval::Interp;
use crate::value::{cost, Value};

/// `keys` (`index` 0) or `vals` (1) for a count or an emptiness test: a
/// map of `n > 0` entries itself, charged as the vector of `n` parts
/// `keys`/`vals` would build; anything else as `keys`/`vals`.
fn parts_for_count(interp: &mut Interp, a: &[Value], index: usize) -> Result<Value> {
    match &a[0] {
        Value::Map(m) if !m.is_empty() => {
            let n = m.len();
            interp.tick(n as u64)?;
            interp.alloc(cost::vector_bytes(n))?;
            Ok(a[0].clone())
        }
        _ if index == 0 => keys(interp, a),
        _ => vals(interp, a),
    }
}

/// `(keys m)` whose only reader counts it or tests it for emptiness (see
/// the module docs): named `keys`, so its errors and its handling of a
/// `lazy-seq` are `keys`'s.
pub(crate) static KEYS_FOR_COUNT: Builtin = Builtin::new(
    "keys",
    Arity::exact(1),
    "(keys m) read only by count or empty?: the map itself when it has entries",
    |interp, a| parts_for_count(interp, a, 0),
);

/// `(vals m)` whose only reader counts it or tests it for emptiness.
pub(crate) static VALS_FOR_COUNT: Builtin = Builtin::new(
    "vals",
    Arity::exact(1),
    "(vals m) read only by count or empty?: the map itself when it has entries",
    |interp, a| parts_for_count(interp, a, 1),
);

/// The builtin to call in place of `inner` in `(outer (inner m))`, when
/// `outer` is clojure.core's `count` or `empty?` and `inner` its `keys`
/// or `vals`.
pub(crate) fn of_entries(outer: &Builtin, inner: &Builtin) -> Option<&'static Builtin> {
    use crate::builtins::Ns::Core;
    if outer.ns != Core || inner.ns != Core || outer.owned.is_some() || inner.owned.is_some() {
        return None;
    }
    if !matches!(outer.name, "count" | "empty?") {
        return None;
    }
    Some(match inner.name {
        "keys" => &KEYS_FOR_COUNT,
        "vals" => &VALS_FOR_COUNT,
        _ => return None,
    })
}
