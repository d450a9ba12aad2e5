//! `(count (keys m))`, `(count (vals m))`, `(empty? (keys m))` and
//! `(empty? (vals m))` answered from the map: the analyser
//! ([`of_entries`], in every run) calls one of the builtins here
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
//! What it costs (rule COST-ENTRIES-1): `(count (keys m))`, `(count
//! (vals m))`, `(empty? (keys m))` and `(empty? (vals m))` of a map build
//! nothing, so they charge no step per entry and no bytes: the inner
//! call's one step (an ordinary builtin call at the inner call's place:
//! its step settles the thread's meter, its errors carry the inner call's
//! span) and the outer call's. The rule is the language's, not an
//! optimisation's: the analyser rewrites the pair in the reference run
//! too (`eval/reference.rs`), so both runs charge the same (EVAL-STEPS-1)
//! and a loop testing `(count (keys m))` is charged linearly, as it runs.
//! Everything else `keys`/`vals` is given (a vector of entries, `nil`,
//! values it refuses) is charged as `keys`/`vals`.

use super::{keys, vals, Arity, Builtin};
use crate::error::Result;
use crate::eval::Interp;
use crate::value::Value;

/// `keys` (`index` 0) or `vals` (1) for a count or an emptiness test: a
/// map of `n > 0` entries itself (rule COST-ENTRIES-1: nothing built,
/// nothing more charged); anything else as `keys`/`vals`.
fn parts_for_count(interp: &mut Interp, a: &[Value], index: usize) -> Result<Value> {
    match &a[0] {
        Value::Map(m) if !m.is_empty() => Ok(a[0].clone()),
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
