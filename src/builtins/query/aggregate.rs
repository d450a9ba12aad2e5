//! The aggregators `sum-by avg-by min-by max-by pluck`: a key (keyword,
//! string, vector path or function) read from every item of a collection;
//! `sum` and `avg` of the items themselves, with `sum-by`'s and `avg-by`'s
//! number conventions; `distinct-by`, the first item per distinct key.

use super::*;
use crate::value::cost;
use crate::value::hash::value_hash;
use crate::value::map::same_key;

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

/// What `sum`/`sum-by`… was given a non-number for: the items themselves
/// (`sum`, `avg`) or a key.
enum Of<'a> {
    Items,
    Key(&'a Value),
}

fn not_numeric(fname: &str, of: &Of, got: &Value) -> Error {
    let what = match of {
        Of::Items => "numbers (or nil) as items".to_string(),
        Of::Key(key) => format!("numbers (or nil) for {}", describe_key(key)),
    };
    Error::type_error(format!("{fname} expects {what}, got {}", got.describe())).with_hint(
        match (got, of) {
            (Value::Str(_), Of::Items) => {
                format!("convert strings first, e.g. ({fname} (keep parse-double xs))")
            }
            (Value::Str(_), Of::Key(_)) => format!(
                "convert strings first, e.g. ({fname} #(parse-double (str (:amount %))) items)"
            ),
            (_, Of::Items) => {
                "filter the items first, or use sum-by / avg-by with a key".to_string()
            }
            (_, Of::Key(_)) => {
                "filter the items first, or pass a function that returns a number".to_string()
            }
        },
    )
}

/// The sum of the values `next` gives, nil skipped: an integer while every
/// value is one (overflow an `arithmetic-error`), else a float.
fn sum_values(
    interp: &mut Interp,
    fname: &str,
    of: &Of,
    items: &Vector,
    mut value: impl FnMut(&mut Interp, &Value) -> Result<Value>,
) -> Result<Value> {
    let mut int_sum: i64 = 0;
    let mut float_sum: Option<f64> = None;
    for item in items.iter() {
        interp.tick(1)?;
        match value(interp, item)? {
            Value::Nil => {}
            Value::Int(i) => match &mut float_sum {
                Some(f) => *f += i as f64,
                None => {
                    int_sum = int_sum.checked_add(i).ok_or_else(|| {
                        Error::arithmetic(format!(
                            "integer overflow in {fname} (integers are 64-bit)"
                        ))
                        .with_hint(match of {
                            Of::Items => "sum floats instead, e.g. (sum (map double xs))",
                            Of::Key(_) => {
                                "sum floats instead, e.g. (sum-by #(double (:amount %)) items)"
                            }
                        })
                    })?
                }
            },
            Value::Float(x) => {
                float_sum = Some(float_sum.unwrap_or(int_sum as f64) + x);
            }
            other => return Err(not_numeric(fname, of, &other)),
        }
    }
    Ok(match float_sum {
        Some(f) => Value::Float(f),
        None => Value::Int(int_sum),
    })
}

/// The mean of the values `value` gives, nil skipped, as a float; nil when
/// there are none.
fn avg_values(
    interp: &mut Interp,
    fname: &str,
    of: &Of,
    items: &Vector,
    mut value: impl FnMut(&mut Interp, &Value) -> Result<Value>,
) -> Result<Value> {
    let mut sum = 0.0;
    let mut n = 0usize;
    for item in items.iter() {
        interp.tick(1)?;
        match value(interp, item)? {
            Value::Nil => {}
            Value::Int(i) => {
                sum += i as f64;
                n += 1;
            }
            Value::Float(x) => {
                sum += x;
                n += 1;
            }
            other => return Err(not_numeric(fname, of, &other)),
        }
    }
    Ok(if n == 0 {
        Value::Nil
    } else {
        Value::Float(sum / n as f64)
    })
}

pub(super) fn sum_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("sum-by", &args[0])?;
    let items = coll_items("sum-by", &args[1])?;
    sum_values(interp, "sum-by", &Of::Key(&args[0]), &items, |i, item| {
        extract(i, &key, item)
    })
}

pub(super) fn avg_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("avg-by", &args[0])?;
    let items = coll_items("avg-by", &args[1])?;
    avg_values(interp, "avg-by", &Of::Key(&args[0]), &items, |i, item| {
        extract(i, &key, item)
    })
}

/// `(sum xs)`: `sum-by` of the items themselves; 0 for none.
pub(super) fn sum(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let items = items_of("sum", &args[0])?;
    sum_values(interp, "sum", &Of::Items, &items, |_, x| Ok(x.clone()))
}

/// `(avg xs)`: `avg-by` of the items themselves; nil for none.
pub(super) fn avg(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let items = items_of("avg", &args[0])?;
    avg_values(interp, "avg", &Of::Items, &items, |_, x| Ok(x.clone()))
}

/// The items of `sum`'s or `avg`'s collection.
fn items_of(fname: &str, v: &Value) -> Result<Vector> {
    match v {
        Value::Str(_) | Value::Keyword(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            Err(
                args::type_error(fname, "a collection of numbers", v).with_hint(format!(
                    "e.g. ({fname} [1 2 3]); for a field of maps use {fname}-by"
                )),
            )
        }
        _ => args::items(fname, v),
    }
}

/// `(distinct-by key coll)`: the items in order, each kept only when its
/// key (`sum-by`'s keys: keyword, string, path vector or function) was
/// not seen on an earlier item; keys compare with `=`, as `distinct`'s
/// items do.
pub(super) fn distinct_by(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let key = key_of("distinct-by", &args[0])?;
    let items = coll_items("distinct-by", &args[1])?;
    let mut seen: hashbrown::HashTable<(u64, Value)> = hashbrown::HashTable::new();
    let mut out = Vector::new();
    for item in items.iter() {
        interp.tick(1)?;
        let k = extract(interp, &key, item)?;
        let h = value_hash(&k);
        if seen
            .find(h, |(eh, y)| *eh == h && same_key(y, &k))
            .is_none()
        {
            seen.insert_unique(h, (h, k), |(eh, _)| *eh);
            out.push_back(item.clone());
        }
    }
    // The table of keys seen, as big as a set of them, and the result.
    interp.alloc(cost::set_bytes(out.len()) + cost::vector_bytes(out.len()))?;
    Ok(Value::vector(out))
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
