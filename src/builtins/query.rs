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
//!   `nil` for none.

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
];

// ---------------------------------------------------------------------------
// where

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Truthy,
    Eq,
    NotEq,
    Gt,
    Lt,
    Ge,
    Le,
    Includes,
    In,
}

const OPS: &str = "= not= > < >= <= includes in";

fn show(v: &Value) -> String {
    crate::format::to_clojure_capped(v, Some(5), Some(40), Some(crate::value::DESCRIBE_BYTES)).0
}

fn parse_op(v: &Value) -> Option<Op> {
    let name: &str = match v {
        Value::Keyword(s) => s,
        Value::Symbol(s) => s,
        Value::Fn(Func::Builtin(b)) => b.name,
        _ => return None,
    };
    Some(match name {
        "=" | "==" => Op::Eq,
        "not=" | "!=" => Op::NotEq,
        ">" => Op::Gt,
        "<" => Op::Lt,
        ">=" => Op::Ge,
        "<=" => Op::Le,
        "includes" | "includes?" | "contains?" => Op::Includes,
        "in" => Op::In,
        _ => return None,
    })
}

/// An operator as the program wrote it (the analyzer passes `=` as `:=`).
fn op_text(v: &Value) -> String {
    match v {
        Value::Keyword(s) => s.to_string(),
        Value::Symbol(s) => s.to_string(),
        Value::Fn(f) => f.name().to_string(),
        other => show(other),
    }
}

const WHERE_FORMS: &str =
    "write (where :field op value) with op one of = not= > < >= <= includes in, (where [:a :b] op value) for nested fields, or (where :field) to test truthiness";

/// The field path of a `where`: a keyword, a string, or a non-empty vector
/// of keywords and strings.
fn parse_field(v: &Value) -> Result<Vec<Value>> {
    let ok = |k: &Value| matches!(k, Value::Keyword(_) | Value::Str(_));
    match v {
        Value::Keyword(_) | Value::Str(_) => Ok(vec![v.clone()]),
        Value::Vector(items) if !items.is_empty() && items.iter().all(ok) => {
            Ok(items.iter().cloned().collect())
        }
        Value::Vector(items) if items.is_empty() => Err(Error::validation(
            "where expects a non-empty field path, got []",
        )
        .with_hint(WHERE_FORMS)),
        Value::Vector(items) => {
            let bad = items.iter().find(|k| !ok(k)).cloned().unwrap_or(Value::Nil);
            Err(Error::validation(format!(
                "where expects a field path of keywords or strings, got {} in {}",
                bad.describe(),
                show(v)
            ))
            .with_hint(WHERE_FORMS))
        }
        _ => Err(Error::validation(format!(
            "where expects a field (keyword, string or vector path), got {}",
            v.describe()
        ))
        .with_hint(WHERE_FORMS)),
    }
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

/// Keywords compare as their names inside `where`.
fn norm(v: &Value) -> Value {
    match v {
        Value::Keyword(k) => Value::Str(k.to_arc()),
        other => other.clone(),
    }
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// `=` inside `where`: nil only equals nil, numbers compare numerically,
/// keywords equal their names.
fn where_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Nil, Value::Nil) => true,
        (Value::Nil, _) | (_, Value::Nil) => false,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            compare_values(a, b) == Some(Ordering::Equal)
                && as_f64(a).is_some_and(|x| !x.is_nan())
                && as_f64(b).is_some_and(|y| !y.is_nan())
        }
        _ => lisp_equal(&norm(a), &norm(b)),
    }
}

/// Ordering inside `where`: two numbers or two strings/keywords; `None`
/// (the comparison is false) for anything else, nil and NaN included.
fn where_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    let (a, b) = (norm(a), norm(b));
    match (&a, &b) {
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            if as_f64(&a)?.is_nan() || as_f64(&b)?.is_nan() {
                None
            } else {
                compare_values(&a, &b)
            }
        }
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// Whether `coll` (a vector, set or map's keys) holds an item `where`-equal
/// to `x`.
fn member(interp: &mut Interp, coll: &Value, x: &Value) -> Result<bool> {
    match coll {
        Value::Vector(items) => {
            for item in items.iter() {
                interp.tick(1)?;
                if where_eq(item, x) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Set(s) => {
            if s.contains(x) {
                return Ok(true);
            }
            for item in s.iter() {
                interp.tick(1)?;
                if where_eq(item, x) {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Map(m) => Ok(lookup_in_map(m, x).is_some() || lookup_in_map(m, &norm(x)).is_some()),
        _ => Ok(false),
    }
}

fn test(interp: &mut Interp, op: Op, field: &Value, value: &Value) -> Result<bool> {
    Ok(match op {
        Op::Truthy => field.truthy(),
        Op::Eq => where_eq(field, value),
        Op::NotEq => !where_eq(field, value),
        Op::Gt => where_cmp(field, value) == Some(Ordering::Greater),
        Op::Lt => where_cmp(field, value) == Some(Ordering::Less),
        Op::Ge => matches!(
            where_cmp(field, value),
            Some(Ordering::Greater | Ordering::Equal)
        ),
        Op::Le => matches!(
            where_cmp(field, value),
            Some(Ordering::Less | Ordering::Equal)
        ),
        Op::Includes => match (field, norm(value)) {
            (Value::Str(s), Value::Str(sub)) => s.contains(&*sub),
            (Value::Str(_), _) => false,
            _ => member(interp, field, value)?,
        },
        Op::In => !field.is_nil() && member(interp, value, field)?,
    })
}

fn where_(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (path, op, value) = match args {
        [] => {
            return Err(
                Error::validation("where expects a field, got no arguments").with_hint(WHERE_FORMS)
            )
        }
        [field] => (parse_field(field)?, Op::Truthy, Value::Nil),
        [field, second] => {
            parse_field(field)?;
            return Err(if parse_op(second).is_some() {
                let op = op_text(second);
                Error::validation(format!(
                    "(where {} {op}) is missing the value to compare with",
                    show(field)
                ))
                .with_hint(format!("write (where {} {op} value)", show(field)))
            } else {
                Error::validation(format!(
                    "where expects an operator between the field and the value, got (where {} {})",
                    show(field),
                    show(second)
                ))
                .with_hint(format!(
                    "did you mean (where {} = {})? operators: {OPS}",
                    show(field),
                    show(second)
                ))
            });
        }
        [field, op, value] => {
            let path = parse_field(field)?;
            let Some(op) = parse_op(op) else {
                return Err(Error::validation(format!(
                    "where expects an operator ({OPS}), got {}",
                    op.describe()
                ))
                .with_hint(WHERE_FORMS));
            };
            (path, op, value.clone())
        }
        _ => {
            return Err(Error::validation(format!(
                "where expects 1 or 3 arguments, got {}",
                args.len()
            ))
            .with_hint(format!(
                "{WHERE_FORMS}; combine conditions with all-of / any-of"
            )))
        }
    };
    if op == Op::In {
        match &value {
            Value::Nil | Value::Vector(_) | Value::Set(_) | Value::Map(_) => {}
            Value::Lazy(_) => return Err(args::infinite("where ... in")),
            other => {
                return Err(args::type_error("where ... in", "a collection", other).with_hint(
                    "in tests membership, e.g. (where :status in [\"open\" \"pending\"]); for substrings use includes",
                ))
            }
        }
    }
    let path: Arc<[Value]> = path.into();
    Ok(Func::native("where", move |interp, args| {
        let [item] = args else {
            return Err(Error::arity(format!(
                "a where predicate expects 1 argument (an item), got {}",
                args.len()
            )));
        };
        let field = get_path(item, &path);
        Ok(Value::Bool(test(interp, op, &field, &value)?))
    }))
}

// ---------------------------------------------------------------------------
// Combinators

#[derive(Clone, Copy)]
enum Combine {
    All,
    Any,
    None,
}

fn combinator(fname: &'static str, args: &[Value], how: Combine) -> Result<Value> {
    for p in args {
        args::callable(fname, p)?;
    }
    let preds: Arc<[Value]> = args.to_vec().into();
    Ok(Func::native(fname, move |interp, xs| {
        for p in preds.iter() {
            let hit = interp.call(p, xs)?.truthy();
            match how {
                Combine::All if !hit => return Ok(Value::Bool(false)),
                Combine::Any if hit => return Ok(Value::Bool(true)),
                Combine::None if hit => return Ok(Value::Bool(false)),
                _ => {}
            }
        }
        Ok(Value::Bool(!matches!(how, Combine::Any)))
    }))
}

fn all_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("all-of", args, Combine::All)
}
fn any_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("any-of", args, Combine::Any)
}
fn none_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("none-of", args, Combine::None)
}

// ---------------------------------------------------------------------------
// Aggregators

/// How an aggregator gets a value out of an item.
enum Key {
    Path(Vec<Value>),
    Call(Value),
}

fn key_of(fname: &str, k: &Value) -> Result<Key> {
    match k {
        Value::Keyword(_) | Value::Str(_) | Value::Int(_) => Ok(Key::Path(vec![k.clone()])),
        Value::Vector(path) => Ok(Key::Path(path.iter().cloned().collect())),
        Value::Fn(_) | Value::Map(_) | Value::Set(_) => Ok(Key::Call(k.clone())),
        _ => Err(args::type_error(
            fname,
            "a key (keyword, string, vector path) or a function as its first argument",
            k,
        )
        .with_hint(format!("e.g. ({fname} :amount items)"))),
    }
}

fn extract(interp: &mut Interp, key: &Key, item: &Value) -> Result<Value> {
    match key {
        Key::Path(p) => Ok(get_path(item, p)),
        Key::Call(f) => interp.call(f, std::slice::from_ref(item)),
    }
}

fn coll_items(fname: &str, v: &Value) -> Result<Vector> {
    match v {
        Value::Str(_) | Value::Keyword(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            Err(
                args::type_error(fname, "a collection as its second argument", v).with_hint(
                    format!("the key comes first, then the collection: ({fname} :amount items)"),
                ),
            )
        }
        _ => args::items(fname, v),
    }
}

fn describe_key(k: &Value) -> String {
    match k {
        Value::Fn(_) => "the key function".to_string(),
        other => format!("key {}", show(other)),
    }
}

fn not_numeric(fname: &str, key: &Value, got: &Value) -> Error {
    Error::type_error(format!(
        "{fname} expects numbers (or nil) for {}, got {}",
        describe_key(key),
        got.describe()
    ))
    .with_hint(match got {
        Value::Str(_) => {
            format!("convert strings first, e.g. ({fname} #(parse-double (str (:amount %))) items)")
        }
        _ => "filter the items first, or pass a function that returns a number".to_string(),
    })
}

fn sum_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("sum-by", &args[0])?;
    let items = coll_items("sum-by", &args[1])?;
    let mut int_sum: i64 = 0;
    let mut float_sum: Option<f64> = None;
    for item in items.iter() {
        interp.tick(1)?;
        match extract(interp, &key, item)? {
            Value::Nil => {}
            Value::Int(i) => match &mut float_sum {
                Some(f) => *f += i as f64,
                None => {
                    int_sum = int_sum.checked_add(i).ok_or_else(|| {
                        Error::arithmetic("integer overflow in sum-by (integers are 64-bit)")
                            .with_hint(
                                "sum floats instead, e.g. (sum-by #(double (:amount %)) items)",
                            )
                    })?
                }
            },
            Value::Float(x) => {
                float_sum = Some(float_sum.unwrap_or(int_sum as f64) + x);
            }
            other => return Err(not_numeric("sum-by", &args[0], &other)),
        }
    }
    Ok(match float_sum {
        Some(f) => Value::Float(f),
        None => Value::Int(int_sum),
    })
}

fn avg_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("avg-by", &args[0])?;
    let items = coll_items("avg-by", &args[1])?;
    let mut sum = 0.0;
    let mut n = 0usize;
    for item in items.iter() {
        interp.tick(1)?;
        match extract(interp, &key, item)? {
            Value::Nil => {}
            Value::Int(i) => {
                sum += i as f64;
                n += 1;
            }
            Value::Float(x) => {
                sum += x;
                n += 1;
            }
            other => return Err(not_numeric("avg-by", &args[0], &other)),
        }
    }
    Ok(if n == 0 {
        Value::Nil
    } else {
        Value::Float(sum / n as f64)
    })
}

fn extreme_by(interp: &mut Interp, fname: &str, args: &[Value], want: Ordering) -> Result<Value> {
    let key = key_of(fname, &args[0])?;
    let items = coll_items(fname, &args[1])?;
    let mut best: Option<(Value, Value)> = None;
    for item in items.iter() {
        interp.tick(1)?;
        let k = extract(interp, &key, item)?;
        if k.is_nil() {
            continue;
        }
        match &best {
            None => best = Some((item.clone(), k)),
            Some((_, bk)) => match compare_values(&k, bk) {
                Some(o) if o == want => best = Some((item.clone(), k)),
                Some(_) => {}
                None => {
                    return Err(Error::type_error(format!(
                        "{fname} cannot compare {} with {} (values of {})",
                        k.describe(),
                        bk.describe(),
                        describe_key(&args[0])
                    ))
                    .with_hint("the key values must all be numbers, or all strings"))
                }
            },
        }
    }
    Ok(best.map_or(Value::Nil, |(item, _)| item))
}

fn min_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_by(interp, "min-by", args, Ordering::Less)
}
fn max_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_by(interp, "max-by", args, Ordering::Greater)
}

fn pluck(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("pluck", &args[0])?;
    let items = coll_items("pluck", &args[1])?;
    interp.alloc(16 * items.len() as u64)?;
    let mut out = Vector::new();
    for item in items.iter() {
        interp.tick(1)?;
        out.push_back(extract(interp, &key, item)?);
    }
    Ok(Value::vector(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{i, kw, s};
    use crate::error::ErrorKind;

    fn builtin(name: &str) -> &'static Builtin {
        BUILTINS
            .iter()
            .find(|b| b.name == name)
            .unwrap_or_else(|| panic!("no builtin {name}"))
    }

    fn call(interp: &mut Interp, name: &str, args: &[Value]) -> Result<Value> {
        let b = builtin(name);
        assert!(b.arity.accepts(args.len()), "{name} arity");
        (b.f)(interp, args)
    }

    fn run(name: &str, args: &[Value]) -> Result<Value> {
        call(&mut Interp::standalone(), name, args)
    }

    fn ok(name: &str, args: &[Value]) -> Value {
        run(name, args).unwrap_or_else(|e| panic!("({name} {args:?}) failed: {e}"))
    }

    fn vecv(items: &[Value]) -> Value {
        Value::vector_from(items.iter().cloned())
    }
    /// A map from (key, value) pairs; keys given as `:k` become keywords,
    /// others strings.
    fn m(pairs: &[(&str, Value)]) -> Value {
        Value::map_from(pairs.iter().map(|(k, v)| {
            let key = match k.strip_prefix(':') {
                Some(name) => kw(name),
                None => s(k),
            };
            (key, v.clone())
        }))
    }

    /// `(where ...)` applied to each item: which items match.
    fn matches(where_args: &[Value], items: &[Value]) -> Vec<bool> {
        let mut interp = Interp::standalone();
        let pred = call(&mut interp, "where", where_args)
            .unwrap_or_else(|e| panic!("(where {where_args:?}) failed: {e}"));
        items
            .iter()
            .map(
                |item| match interp.call(&pred, std::slice::from_ref(item)) {
                    Ok(Value::Bool(b)) => b,
                    other => panic!("predicate gave {other:?}"),
                },
            )
            .collect()
    }

    fn op(name: &str) -> Value {
        kw(name)
    }

    #[test]
    fn where_basic_operators() {
        let xs = [m(&[(":x", i(1))]), m(&[(":x", i(2))]), m(&[(":x", i(3))])];
        assert_eq!(
            matches(&[kw("x"), op("="), i(1)], &xs),
            [true, false, false]
        );
        assert_eq!(matches(&[kw("x"), op(">"), i(1)], &xs), [false, true, true]);
        assert_eq!(
            matches(&[kw("x"), op("not="), i(2)], &xs),
            [true, false, true]
        );
        assert_eq!(
            matches(&[kw("x"), op("<="), i(2)], &xs),
            [true, true, false]
        );
        assert_eq!(
            matches(&[kw("x"), op(">="), i(2)], &xs),
            [false, true, true]
        );
        assert_eq!(
            matches(&[kw("x"), op("<"), i(2)], &xs),
            [true, false, false]
        );
        // Builtin function values as operators.
        let gt = Value::Fn(Func::Builtin(
            crate::builtins::numbers::BUILTINS
                .iter()
                .find(|b| b.name == ">")
                .expect("> is a builtin"),
        ));
        assert_eq!(matches(&[kw("x"), gt, i(1)], &xs), [false, true, true]);
        // Numbers compare numerically.
        assert_eq!(
            matches(&[kw("x"), op("="), Value::Float(2.0)], &xs),
            [false, true, false]
        );
    }

    #[test]
    fn where_nil_safety() {
        let xs = [
            m(&[(":a", i(1))]),
            m(&[(":missing", i(2))]),
            m(&[(":missing", Value::Nil)]),
        ];
        assert_eq!(
            matches(&[kw("missing"), op("="), Value::Nil], &xs),
            [true, false, true]
        );
        assert_eq!(
            matches(&[kw("missing"), op(">"), i(0)], &xs),
            [false, true, false]
        );
        assert_eq!(
            matches(&[kw("missing"), op("not="), Value::Nil], &xs),
            [false, true, false]
        );
        assert_eq!(
            matches(&[kw("missing"), op("<"), i(30)], &xs),
            [false, true, false]
        );
        // Strings never compare with numbers.
        assert_eq!(
            matches(
                &[kw("x"), op(">"), i(1)],
                &[m(&[(":x", s("5"))]), m(&[(":x", i(2))])]
            ),
            [false, true]
        );
        // Not-a-map items just don't match.
        assert_eq!(
            matches(&[kw("x"), op("="), i(1)], &[i(1), Value::Nil]),
            [false, false]
        );
    }

    #[test]
    fn where_truthy() {
        let xs = [
            m(&[(":active", Value::Bool(true))]),
            m(&[(":active", Value::Bool(false))]),
            m(&[(":active", i(0))]),
            m(&[]),
            m(&[(":active", Value::Nil)]),
        ];
        assert_eq!(
            matches(&[kw("active")], &xs),
            [true, false, true, false, false]
        );
        let acc = |p: Value| m(&[(":user", m(&[(":premium", p)]))]);
        assert_eq!(
            matches(
                &[vecv(&[kw("user"), kw("premium")])],
                &[
                    acc(Value::Bool(true)),
                    acc(Value::Bool(false)),
                    m(&[(":user", m(&[]))])
                ]
            ),
            [true, false, false]
        );
    }

    #[test]
    fn where_paths_and_flexible_keys() {
        let path = vecv(&[kw("user"), kw("email")]);
        let xs = [
            m(&[(":user", m(&[("email", s("alice@example.com"))]))]),
            m(&[("user", m(&[(":email", s("alice@example.com"))]))]),
            m(&[(":user", m(&[(":email", s("bob@example.com"))]))]),
            m(&[("user", m(&[("email", s("alice@example.com"))]))]),
        ];
        assert_eq!(
            matches(&[path, op("="), s("alice@example.com")], &xs),
            [true, true, false, true]
        );
        // The keyword key wins when both exist, even when falsy.
        assert_eq!(
            matches(
                &[kw("enabled"), op("="), Value::Bool(false)],
                &[
                    m(&[
                        (":enabled", Value::Bool(false)),
                        ("enabled", Value::Bool(true))
                    ]),
                    m(&[
                        (":enabled", Value::Bool(true)),
                        ("enabled", Value::Bool(false))
                    ]),
                ]
            ),
            [true, false]
        );
        assert_eq!(
            matches(
                &[kw("category"), op("="), s("priority")],
                &[m(&[
                    (":category", s("priority")),
                    ("category", s("ignored"))
                ])]
            ),
            [true]
        );
        let ages = [
            m(&[(":user", m(&[(":age", i(30))]))]),
            m(&[(":user", m(&[(":age", i(12))]))]),
            m(&[(":user", m(&[]))]),
            m(&[]),
        ];
        assert_eq!(
            matches(&[vecv(&[kw("user"), kw("age")]), op(">"), i(18)], &ages),
            [true, false, false, false]
        );
    }

    #[test]
    fn where_coercion() {
        let xs = [m(&[(":s", s("a"))]), m(&[(":s", s("b"))])];
        assert_eq!(matches(&[kw("s"), op("="), kw("a")], &xs), [true, false]);
        assert_eq!(matches(&[kw("s"), op("not="), kw("a")], &xs), [false, true]);
        assert_eq!(
            matches(&[kw("s"), op("="), s("a")], &[m(&[(":s", kw("a"))])]),
            [true]
        );
        // Booleans are not coerced.
        let flags = [
            m(&[(":flag", s("true"))]),
            m(&[(":flag", Value::Bool(true))]),
        ];
        assert_eq!(
            matches(&[kw("flag"), op("="), Value::Bool(true)], &flags),
            [false, true]
        );
        let role = |r: &str| m(&[(":user", m(&[(":role", s(r))]))]);
        assert_eq!(
            matches(
                &[vecv(&[kw("user"), kw("role")]), op("="), kw("admin")],
                &[role("admin"), role("dev")]
            ),
            [true, false]
        );
    }

    #[test]
    fn where_in_and_includes() {
        let xs = [m(&[(":s", s("a"))]), m(&[(":s", s("c"))]), m(&[])];
        assert_eq!(
            matches(&[kw("s"), op("in"), vecv(&[kw("a"), kw("b")])], &xs),
            [true, false, false]
        );
        assert_eq!(
            matches(
                &[kw("n"), op("in"), vecv(&[i(1), i(2)])],
                &[m(&[(":n", i(1))]), m(&[(":n", i(3))])]
            ),
            [true, false]
        );
        let set = Value::set_from([s("a"), s("b"), s("c")]);
        assert_eq!(
            matches(
                &[kw("val"), op("in"), set.clone()],
                &[
                    m(&[(":val", s("a"))]),
                    m(&[(":val", s("d"))]),
                    m(&[(":val", kw("a"))])
                ]
            ),
            [true, false, true]
        );
        let tickets = [
            m(&[(":tags", vecv(&[s("urgent"), s("bug")]))]),
            m(&[(":tags", vecv(&[s("bug")]))]),
            m(&[(":tags", vecv(&[]))]),
            m(&[]),
        ];
        assert_eq!(
            matches(&[kw("tags"), op("includes"), s("urgent")], &tickets),
            [true, false, false, false]
        );
        assert_eq!(
            matches(&[kw("tags"), op("includes"), kw("urgent")], &tickets),
            [true, false, false, false]
        );
        assert_eq!(
            matches(
                &[kw("val"), op("includes"), s("a")],
                &[
                    m(&[(":val", set)]),
                    m(&[(":val", Value::set_from([s("b")]))])
                ]
            ),
            [true, false]
        );
        assert_eq!(
            matches(
                &[kw("name"), op("includes"), s("li")],
                &[m(&[(":name", s("alice"))]), m(&[(":name", s("bob"))])]
            ),
            [true, false]
        );
        // nil collection: nothing is in it.
        assert_eq!(
            matches(&[kw("s"), op("in"), Value::Nil], &xs),
            [false, false, false]
        );
        assert_eq!(
            run("where", &[kw("s"), op("in"), i(5)]).unwrap_err().kind(),
            ErrorKind::Type
        );
    }

    #[test]
    fn where_validation() {
        let kind = |args: &[Value]| run("where", args).unwrap_err().kind();
        assert_eq!(kind(&[i(42)]), ErrorKind::Validation);
        assert_eq!(kind(&[]), ErrorKind::Validation);
        assert_eq!(
            kind(&[vecv(&[i(123)]), op("="), i(1)]),
            ErrorKind::Validation
        );
        assert_eq!(kind(&[vecv(&[])]), ErrorKind::Validation);
        let e = run("where", &[kw("status"), s("active")]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.hint().unwrap_or("").contains("="), "{e:?}");
        assert_eq!(kind(&[kw("x"), op("like"), i(1)]), ErrorKind::Validation);
        assert_eq!(kind(&[kw("x"), op("="), i(1), i(2)]), ErrorKind::Validation);
        // The predicate takes exactly one item.
        let mut interp = Interp::standalone();
        let p = call(&mut interp, "where", &[kw("x")]).expect("where");
        assert_eq!(interp.call(&p, &[]).unwrap_err().kind(), ErrorKind::Arity);
    }

    #[test]
    fn combinators() {
        let mut interp = Interp::standalone();
        let w = |interp: &mut Interp, k: &str, v: i64| {
            call(interp, "where", &[kw(k), op("="), i(v)]).expect("where")
        };
        let a1 = w(&mut interp, "a", 1);
        let b2 = w(&mut interp, "b", 2);
        let all = call(&mut interp, "all-of", &[a1.clone(), b2.clone()]).expect("all-of");
        let any = call(&mut interp, "any-of", &[a1.clone(), b2]).expect("any-of");
        let none = call(&mut interp, "none-of", &[a1]).expect("none-of");
        let empty_all = call(&mut interp, "all-of", &[]).expect("all-of");
        let empty_any = call(&mut interp, "any-of", &[]).expect("any-of");
        let empty_none = call(&mut interp, "none-of", &[]).expect("none-of");
        let items = [
            m(&[(":a", i(1)), (":b", i(2))]),
            m(&[(":a", i(1)), (":b", i(3))]),
            m(&[(":a", i(2))]),
        ];
        let mut apply = |p: &Value| -> Vec<bool> {
            items
                .iter()
                .map(|x| {
                    interp
                        .call(p, std::slice::from_ref(x))
                        .expect("call")
                        .truthy()
                })
                .collect()
        };
        assert_eq!(apply(&all), [true, false, false]);
        assert_eq!(apply(&any), [true, true, false]);
        assert_eq!(apply(&none), [false, false, true]);
        assert_eq!(apply(&empty_all), [true, true, true]);
        assert_eq!(apply(&empty_any), [false, false, false]);
        assert_eq!(apply(&empty_none), [true, true, true]);
        assert_eq!(run("all-of", &[i(1)]).unwrap_err().kind(), ErrorKind::Type);
    }

    fn amounts(vals: &[Value]) -> Value {
        vecv(
            &vals
                .iter()
                .map(|v| m(&[(":amount", v.clone())]))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn sum_and_avg() {
        assert_eq!(
            ok(
                "sum-by",
                &[
                    kw("amount"),
                    amounts(&[i(45), i(80), i(500), i(30), i(1200)])
                ]
            ),
            i(1855)
        );
        let with_nil = vecv(&[
            m(&[(":amount", i(10))]),
            m(&[(":amount", Value::Nil)]),
            m(&[(":other", i(5))]),
        ]);
        assert_eq!(ok("sum-by", &[kw("amount"), with_nil]), i(10));
        assert!(matches!(
            ok("sum-by", &[kw("amount"), amounts(&[i(1), Value::Float(0.5)])]),
            Value::Float(x) if x == 1.5
        ));
        assert_eq!(ok("sum-by", &[kw("x"), vecv(&[])]), i(0));
        assert_eq!(ok("sum-by", &[kw("x"), Value::Nil]), i(0));
        assert_eq!(
            run("sum-by", &[kw("amount"), amounts(&[s("10"), i(20)])])
                .unwrap_err()
                .kind(),
            ErrorKind::Type
        );
        assert_eq!(
            run("sum-by", &[kw("amount"), s("not a list")])
                .unwrap_err()
                .kind(),
            ErrorKind::Type
        );
        assert_eq!(
            run("sum-by", &[kw("amount"), amounts(&[i(i64::MAX), i(1)])])
                .unwrap_err()
                .kind(),
            ErrorKind::Arithmetic
        );
        // String key on keyword data, keyword key preferred.
        let pairs = vecv(&[
            m(&[(":value", i(10)), ("value", i(100))]),
            m(&[("value", i(20))]),
        ]);
        assert_eq!(ok("sum-by", &[s("value"), pairs.clone()]), i(120));
        assert_eq!(ok("sum-by", &[kw("value"), pairs]), i(30));

        let avg = ok(
            "avg-by",
            &[kw("amount"), amounts(&[i(10), Value::Nil, i(20)])],
        );
        assert!(matches!(avg, Value::Float(x) if x == 15.0), "{avg:?}");
        let avg = ok(
            "avg-by",
            &[kw("amount"), amounts(&[i(1200), i(25), i(300)])],
        );
        assert!(
            matches!(avg, Value::Float(x) if x == 508.333_333_333_333_3),
            "{avg:?}"
        );
        assert_eq!(ok("avg-by", &[kw("x"), vecv(&[])]), Value::Nil);
        assert_eq!(
            ok("avg-by", &[kw("amount"), amounts(&[Value::Nil])]),
            Value::Nil
        );
        assert_eq!(
            ok("avg-by", &[vecv(&[kw("salary")]), Value::Nil]),
            Value::Nil
        );
        assert_eq!(
            run("avg-by", &[kw("amount"), amounts(&[m(&[(":x", i(1))])])])
                .unwrap_err()
                .kind(),
            ErrorKind::Type
        );
    }

    #[test]
    fn sum_by_function_key() {
        let second = Func::native("second", |_, a| {
            Ok(lookup(&a[0], &Value::Int(1)).unwrap_or(Value::Nil))
        });
        let pairs = vecv(&[vecv(&[s("a"), i(2)]), vecv(&[s("b"), i(3)])]);
        assert_eq!(ok("sum-by", &[second.clone(), pairs.clone()]), i(5));
        assert!(matches!(ok("avg-by", &[second, pairs]), Value::Float(x) if x == 2.5));
    }

    #[test]
    fn min_and_max() {
        let p = |n: Option<i64>| m(&[(":price", n.map_or(Value::Nil, Value::Int))]);
        let items = vecv(&[p(None), p(Some(10)), p(Some(5))]);
        assert_eq!(ok("max-by", &[kw("price"), items.clone()]), p(Some(10)));
        assert_eq!(ok("min-by", &[kw("price"), items]), p(Some(5)));
        assert_eq!(ok("max-by", &[kw("x"), vecv(&[])]), Value::Nil);
        assert_eq!(
            ok("min-by", &[kw("price"), vecv(&[p(None), p(None)])]),
            Value::Nil
        );
        // Ties: the first one.
        let t = vecv(&[
            m(&[(":v", i(1)), (":id", i(1))]),
            m(&[(":v", i(1)), (":id", i(2))]),
        ]);
        assert_eq!(
            ok("max-by", &[kw("v"), t.clone()]),
            m(&[(":v", i(1)), (":id", i(1))])
        );
        assert_eq!(
            ok("min-by", &[kw("v"), t]),
            m(&[(":v", i(1)), (":id", i(1))])
        );
        // Mixed key types and string keys.
        let scores = vecv(&[
            m(&[(":score", i(30))]),
            m(&[("score", i(10))]),
            m(&[("score", i(999)), (":score", i(20))]),
        ]);
        assert_eq!(
            ok("min-by", &[kw("score"), scores.clone()]),
            m(&[("score", i(10))])
        );
        assert_eq!(
            ok("max-by", &[kw("score"), scores]),
            m(&[(":score", i(30))])
        );
        // Function key on strings.
        let first = Func::native("first", |_, a| {
            Ok(lookup(&a[0], &Value::Int(0)).unwrap_or(Value::Nil))
        });
        let pairs = vecv(&[vecv(&[s("b"), i(2)]), vecv(&[s("a"), i(1)])]);
        assert_eq!(ok("min-by", &[first, pairs]), vecv(&[s("a"), i(1)]));
        // Path keys.
        let vals = vecv(&[
            m(&[(":val", i(30))]),
            m(&[(":val", i(10))]),
            m(&[(":val", i(20))]),
        ]);
        assert_eq!(
            ok("min-by", &[vecv(&[kw("val")]), vals.clone()]),
            m(&[(":val", i(10))])
        );
        assert_eq!(
            ok("max-by", &[vecv(&[kw("val")]), vals]),
            m(&[(":val", i(30))])
        );
        // Incomparable keys.
        let mixed = vecv(&[m(&[(":v", i(1))]), m(&[(":v", m(&[]))])]);
        assert_eq!(
            run("max-by", &[kw("v"), mixed]).unwrap_err().kind(),
            ErrorKind::Type
        );
    }

    #[test]
    fn pluck_values() {
        assert_eq!(
            ok(
                "pluck",
                &[
                    kw("missing"),
                    vecv(&[m(&[(":a", i(1))]), m(&[(":missing", i(2))])])
                ]
            ),
            vecv(&[Value::Nil, i(2)])
        );
        assert_eq!(
            ok(
                "pluck",
                &[
                    s("name"),
                    vecv(&[m(&[(":name", s("A"))]), m(&[("name", s("B"))])])
                ]
            ),
            vecv(&[s("A"), s("B")])
        );
        let sal = vecv(&[m(&[(":salary", i(100))]), m(&[(":salary", i(200))])]);
        assert_eq!(
            ok("pluck", &[vecv(&[kw("salary")]), sal.clone()]),
            vecv(&[i(100), i(200)])
        );
        assert_eq!(ok("pluck", &[vecv(&[]), sal.clone()]), sal);
        let addr = |c: &str| m(&[("address", m(&[(":city", s(c))]))]);
        assert_eq!(
            ok(
                "pluck",
                &[
                    vecv(&[s("address"), kw("city")]),
                    vecv(&[addr("Oslo"), addr("Bergen")])
                ]
            ),
            vecv(&[s("Oslo"), s("Bergen")])
        );
        let e = run("pluck", &[vecv(&[m(&[])]), kw("name")]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.hint().unwrap_or("").contains("key comes first"), "{e:?}");
    }
}
