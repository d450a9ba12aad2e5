//! `where` (its operators, field paths and nil-safe comparisons) and the
//! predicate combinators `all-of any-of none-of`.

use super::*;

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

/// The operators of `where`, as its messages list them.
pub(crate) const OPS: &str = "= not= > < >= <= includes in";

fn parse_op(v: &Value) -> Option<Op> {
    let name: &str = match v {
        Value::Keyword(s) => s,
        Value::Symbol(s) => s,
        Value::Fn(f) => f.as_builtin()?.name,
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

/// The hint of a malformed `where`: the forms it takes.
pub(crate) const WHERE_FORMS: &str =
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

/// Keywords compare as their names inside `where`.
fn norm(v: &Value) -> Value {
    match v {
        Value::Keyword(k) => Value::Str(k.to_text()),
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

pub(super) fn where_(_: &mut Interp, args: &[Value]) -> Result<Value> {
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

pub(super) fn all_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("all-of", args, Combine::All)
}
pub(super) fn any_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("any-of", args, Combine::Any)
}
pub(super) fn none_of(_: &mut Interp, args: &[Value]) -> Result<Value> {
    combinator("none-of", args, Combine::None)
}
