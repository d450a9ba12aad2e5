//! `(count (keys m))`, `(count (vals m))`, `(empty? (keys m))` and
//! `(empty? (vals m))` answered from the map: the analyser
//! ([`of_entries`], with optimisations on) calls one of the builtins here
//! with `m` in place of the two calls. `keys` builds a vector of the map's
//! keys (a step and 16 bytes per key), so the plain pair in a loop test
//! made the loop quadratic; a map knows its size.
//!
//! Why it is the same program: a map (or `nil`) has as many keys and vals
//! as entries, and counting them cannot fail; any other value takes
//! `keys`/`vals` and then `count`/`empty?` as the plain calls would, with
//! their errors, steps and charges. The result is a number or a boolean
//! that nothing marks as hidden (`count`'s never is, `empty?`'s is a
//! boolean). The reference run (`eval/reference.rs`) analyses without
//! optimisations and keeps the two calls, so the oracle test compares
//! both.

use super::{keys, vals, Arity, Builtin};
use crate::builtins::args;
use crate::error::Result;
use crate::eval::Interp;
use crate::value::Value;

/// The question asked of the keys or vals.
#[derive(Clone, Copy)]
enum Ask {
    Count,
    Empty,
}

/// The answer for `n` entries.
fn answer(ask: Ask, n: usize) -> Value {
    match ask {
        Ask::Count => Value::Int(n as i64),
        Ask::Empty => Value::Bool(n == 0),
    }
}

/// The map's size for a map or `nil`, else `keys`/`vals` (named `part`)
/// and then the question, as the plain calls.
fn entries(interp: &mut Interp, a: &[Value], part: &str, ask: Ask) -> Result<Value> {
    interp.tick(1)?;
    match &a[0] {
        Value::Map(m) => Ok(answer(ask, m.len())),
        Value::Nil => Ok(answer(ask, 0)),
        _ => {
            let parts = if part == "keys" {
                keys(interp, a)
            } else {
                vals(interp, a)
            }?;
            interp.tick(1)?;
            match ask {
                Ask::Count => args::count("count", &parts).map(|n| answer(ask, n)),
                Ask::Empty => crate::builtins::predicates::is_empty(interp, &[parts]),
            }
        }
    }
}

macro_rules! entry_builtin {
    ($id:ident, $name:literal, $part:literal, $ask:expr) => {
        /// See the module docs.
        pub(crate) static $id: Builtin = Builtin::new(
            $name,
            Arity::exact(1),
            concat!(
                "(",
                $name,
                " m) stands for the plain pair of calls on a map"
            ),
            |interp, a| entries(interp, a, $part, $ask),
        );
    };
}

entry_builtin!(COUNT_KEYS, "count-of-keys", "keys", Ask::Count);
entry_builtin!(COUNT_VALS, "count-of-vals", "vals", Ask::Count);
entry_builtin!(EMPTY_KEYS, "empty-keys?", "keys", Ask::Empty);
entry_builtin!(EMPTY_VALS, "empty-vals?", "vals", Ask::Empty);

/// The builtin answering `(outer (inner m))` from the map, when `outer` is
/// clojure.core's `count` or `empty?` and `inner` its `keys` or `vals`.
pub(crate) fn of_entries(outer: &Builtin, inner: &Builtin) -> Option<&'static Builtin> {
    use crate::builtins::Ns::Core;
    if outer.ns != Core || inner.ns != Core || outer.owned.is_some() || inner.owned.is_some() {
        return None;
    }
    Some(match (outer.name, inner.name) {
        ("count", "keys") => &COUNT_KEYS,
        ("count", "vals") => &COUNT_VALS,
        ("empty?", "keys") => &EMPTY_KEYS,
        ("empty?", "vals") => &EMPTY_VALS,
        _ => return None,
    })
}
