//! Builtins: query — the PTC-Lisp extensions for filtering and aggregating
//! lists of maps (`language.md`, Principles 2).
//!
//! * `(where :field op value)`, `(where [:path :to] op value)` and
//!   `(where :field)` (truthy) return a one-argument predicate. The operators
//!   are `= not= > < >= <= includes in`; the analyzer passes a bare operator
//!   symbol as a keyword (`:=`, `:includes` …), and the builtin functions
//!   `= not= > < >= <=` are accepted too. Field lookup uses `get` semantics
//!   (the keyword ⇄ string key fallback) at every path level; a missing field
//!   is `nil`.
//! * Comparisons are nil-safe and never fail: `=` treats keywords as their
//!   names (`(where :status = :active)` matches `"active"`), numbers
//!   numerically (`100` matches `100.0`), and never coerces booleans
//!   (`true` does not match `"true"`); the ordering operators compare two
//!   numbers or two strings/keywords, and anything else (nil, a type
//!   mismatch) is false. `includes`: the field (a vector, set, map keys, or a
//!   string for substrings) contains the value. `in`: the field's value is an
//!   item of the given collection (vector, set, or map keys); a nil field is
//!   never in anything.
//! * A malformed `where` — no field, a field that is not a keyword, string or
//!   path of those, a missing or unknown operator — is a `validation-error`.
//! * `all-of` `any-of` `none-of` combine predicates (`(all-of)` and
//!   `(none-of)` are always true, `(any-of)` always false).
//! * `sum-by avg-by min-by max-by pluck` take a key — keyword, string, vector
//!   path (`[]` is the item itself) or function — and a collection. nil and
//!   missing values are skipped; other non-numbers are a `type-error` for
//!   `sum-by`/`avg-by`. `sum-by` of integers is an integer (checked),
//!   `avg-by` is a float, `nil` when nothing was counted. `min-by`/`max-by`
//!   return the item (the first one on ties; keys compare as `compare` does),
//!   `nil` for none. `sum` and `avg` are `sum-by` and `avg-by` of the
//!   items themselves (`(sum [])` is 0, `(avg [])` nil). `distinct-by`
//!   takes the same keys and keeps, in order, the first item of each
//!   distinct key (compared with `=`), as a vector.
//!
//! This file holds the table and what both halves use (reading a field
//! path, showing a value in a message); `filter` has `where` and the
//! combinators, `aggregate` the aggregators.

mod aggregate;
mod filter;
#[cfg(test)]
mod tests;

use aggregate::*;
use filter::*;

/// For the analyzer's error about an unknown `where` operator.
pub(crate) use filter::{OPS as WHERE_OPERATORS, WHERE_FORMS};

use std::cmp::Ordering;
use std::sync::Arc;

use super::{args, Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::{lookup, lookup_in_map, Interp};
use crate::value::order::{compare_values, lisp_equal};
use crate::value::{Func, Value, Vector};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new(
        "where",
        Arity::at_least(0),
        "A predicate on maps: (where :field op value) with op one of = not= > < >= <= includes in, (where [:a :b] op value) for a path, (where :field) for truthy (PTC-Lisp).",
        where_,
    )
    .example("(filter (where :age >= 18) [{:age 20} {:age 5}]) ;=> [{:age 20}]"),
    Builtin::new(
        "all-of",
        Arity::at_least(0),
        "A predicate true when every given predicate is true (PTC-Lisp; use instead of and).",
        all_of,
    )
    .example("(filter (all-of (where :a = 1) (where :b = 2)) [{:a 1 :b 2} {:a 1}]) ;=> [{:a 1 :b 2}]"),
    Builtin::new(
        "any-of",
        Arity::at_least(0),
        "A predicate true when at least one given predicate is true (PTC-Lisp; use instead of or).",
        any_of,
    )
    .example("(filter (any-of (where :a = 1) (where :a = 2)) [{:a 1} {:a 3}]) ;=> [{:a 1}]"),
    Builtin::new(
        "none-of",
        Arity::at_least(0),
        "A predicate true when no given predicate is true (PTC-Lisp).",
        none_of,
    )
    .example("(filter (none-of (where :flagged)) [{:flagged true} {:id 2}]) ;=> [{:id 2}]"),
    Builtin::new(
        "sum-by",
        Arity::exact(2),
        "Sum of (key item) over the items, skipping nil; key is a keyword, string, path vector or function (PTC-Lisp).",
        sum_by,
    )
    .example("(sum-by :amount [{:amount 10} {:amount 5}]) ;=> 15"),
    Builtin::new(
        "avg-by",
        Arity::exact(2),
        "Average (a float) of (key item) over the items, skipping nil; nil when there are none (PTC-Lisp).",
        avg_by,
    )
    .example("(avg-by :score [{:score 10} {:score 20}]) ;=> 15.0"),
    Builtin::new(
        "min-by",
        Arity::exact(2),
        "The item whose (key item) is smallest, skipping nil keys; nil when there are none (PTC-Lisp).",
        min_by,
    )
    .example("(min-by :price [{:price 3} {:price 1}]) ;=> {:price 1}"),
    Builtin::new(
        "max-by",
        Arity::exact(2),
        "The item whose (key item) is largest, skipping nil keys; nil when there are none (PTC-Lisp).",
        max_by,
    )
    .example("(max-by :price [{:price 3} {:price 1}]) ;=> {:price 3}"),
    Builtin::new(
        "pluck",
        Arity::exact(2),
        "The value of key (keyword, string, path vector or function) in every item (PTC-Lisp).",
        pluck,
    )
    .example("(pluck :name [{:name \"A\"} {:name \"B\"}]) ;=> [\"A\" \"B\"]"),
    Builtin::new(
        "sum",
        Arity::exact(1),
        "Sum of the numbers in a collection, skipping nil; an integer unless one is a float, 0 when empty (PTC-Lisp).",
        sum,
    )
    .example("(sum [1 2 3]) ;=> 6"),
    Builtin::new(
        "avg",
        Arity::exact(1),
        "Average (a float) of the numbers in a collection, skipping nil; nil when there are none (PTC-Lisp).",
        avg,
    )
    .example("(avg [1 2 3 4]) ;=> 2.5"),
    Builtin::new(
        "distinct-by",
        Arity::exact(2),
        "The items in order, keeping the first item for each distinct (key item); key is a keyword, string, path vector or function (PTC-Lisp).",
        distinct_by,
    )
    .example("(distinct-by :id [{:id 1 :v :a} {:id 1 :v :b} {:id 2 :v :c}]) ;=> [{:id 1 :v :a} {:id 2 :v :c}]"),
];

// ---------------------------------------------------------------------------
// Shared helpers

fn show(v: &Value) -> String {
    crate::format::to_clojure_capped(v, Some(5), Some(40), Some(crate::value::DESCRIBE_BYTES)).0
}

/// Walks `path` with `get` semantics; nil as soon as a level is missing.
fn get_path(item: &Value, path: &[Value]) -> Value {
    let mut cur = item.clone();
    for k in path {
        match lookup(&cur, k) {
            Some(v) => cur = v,
            None => return Value::Nil,
        }
    }
    cur
}
