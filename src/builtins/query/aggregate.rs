//! The aggregators `sum-by avg-by min-by max-by pluck`: a key (keyword,
//! string, vector path or function) read from every item of a collection.

use super::*;

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

pub(super) fn sum_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

pub(super) fn avg_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

pub(super) fn min_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_by(interp, "min-by", args, Ordering::Less)
}
pub(super) fn max_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_by(interp, "max-by", args, Ordering::Greater)
}

pub(super) fn pluck(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("pluck", &args[0])?;
    let items = coll_items("pluck", &args[1])?;
    interp.alloc(crate::value::cost::vector_bytes(items.len()))?;
    let mut out = Vector::new();
    for item in items.iter() {
        interp.tick(1)?;
        out.push_back(extract(interp, &key, item)?);
    }
    Ok(Value::vector(out))
}
