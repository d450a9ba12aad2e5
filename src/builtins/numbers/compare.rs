//! Comparison: `= not= ==`, the numbers-only `< <= > >=`, and Clojure's
//! `compare` (Java's `compareTo` values on strings, keywords and symbols).

use super::*;

/// The type error for a non-number given to an ordering comparison.
fn not_comparable(fname: &str, v: &Value) -> Error {
    let e = args::type_error(fname, "numbers", v);
    match v {
        Value::Str(_) | Value::Keyword(_) => e.with_hint(format!(
            "{fname} compares numbers only; for strings use compare, e.g. (neg? (compare a b)), or sort"
        )),
        Value::Nil => e.with_hint(
            "a value is nil: check the key name, or guard it, e.g. (and x (> x 10))",
        ),
        _ => e,
    }
}

pub(super) fn eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    Ok(Value::Bool(
        args.windows(2).all(|w| lisp_equal(&w[0], &w[1])),
    ))
}

pub(super) fn not_eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    Ok(Value::Bool(
        !args.windows(2).all(|w| lisp_equal(&w[0], &w[1])),
    ))
}

pub(super) fn num_eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let ns = nums(interp, "==", args)?;
    Ok(Value::Bool(
        ns.windows(2)
            .all(|w| num_cmp(w[0], w[1]) == Some(Ordering::Equal)),
    ))
}

fn chain(
    interp: &mut Interp,
    fname: &str,
    args: &[Value],
    ok: fn(Ordering) -> bool,
) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let as_num = |v: &Value| match v {
        Value::Int(i) => Ok(Num::I(*i)),
        Value::Float(f) => Ok(Num::F(*f)),
        _ => Err(not_comparable(fname, v)),
    };
    if let [a, b] = args {
        return Ok(Value::Bool(num_cmp(as_num(a)?, as_num(b)?).is_some_and(ok)));
    }
    for v in args {
        as_num(v)?;
    }
    let mut all = true;
    for w in args.windows(2) {
        all = all && num_cmp(as_num(&w[0])?, as_num(&w[1])?).is_some_and(ok);
    }
    Ok(Value::Bool(all))
}

pub(super) fn lt(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, "<", args, |o| o == Ordering::Less)
}
pub(super) fn le(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, "<=", args, |o| o != Ordering::Greater)
}
pub(super) fn gt(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, ">", args, |o| o == Ordering::Greater)
}
pub(super) fn ge(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, ">=", args, |o| o != Ordering::Less)
}

fn ord_int(o: Ordering) -> i64 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

/// Java's `String.compareTo`: the difference of the first differing UTF-16
/// code units, else the difference of the lengths.
fn java_str_cmp(a: &str, b: &str) -> i64 {
    let mut x = a.encode_utf16();
    let mut y = b.encode_utf16();
    loop {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p != q => return p as i64 - q as i64,
            (Some(_), Some(_)) => {}
            (Some(_), None) => return 1 + x.count() as i64,
            (None, Some(_)) => return -1 - y.count() as i64,
            (None, None) => return 0,
        }
    }
}

/// Clojure's `Symbol.compareTo` (keywords compare by their symbol).
fn java_sym_cmp(a: &str, b: &str) -> i64 {
    fn split(s: &str) -> (Option<&str>, &str) {
        match s.find('/') {
            Some(i) if s != "/" => (Some(&s[..i]), &s[i + 1..]),
            _ => (None, s),
        }
    }
    if a == b {
        return 0;
    }
    let ((ans, aname), (bns, bname)) = (split(a), split(b));
    match (ans, bns) {
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) if x != y => java_str_cmp(x, y),
        _ => java_str_cmp(aname, bname),
    }
}

/// Clojure's `compare`; `None` when the two cannot be compared.
fn clojure_compare(a: &Value, b: &Value) -> Option<i64> {
    clojure_compare_in(a, b, &mut Seen::default())
}

/// [`clojure_compare`], remembering shared parts found equal ([`Seen`]).
fn clojure_compare_in(a: &Value, b: &Value, seen: &mut Seen) -> Option<i64> {
    use Value::*;
    match (a, b) {
        (Int(_) | Float(_), Int(_) | Float(_)) => {
            let (x, y) = (num("compare", a).ok()?, num("compare", b).ok()?);
            // Comparisons with NaN are neither less nor greater: 0.
            Some(num_cmp(x, y).map_or(0, ord_int))
        }
        (Str(x), Str(y)) => Some(java_str_cmp(x, y)),
        (Keyword(x), Keyword(y)) => Some(java_sym_cmp(x, y)),
        (Symbol(x), Symbol(y)) => Some(java_sym_cmp(x, y)),
        (Bool(x), Bool(y)) => Some(ord_int(x.cmp(y))),
        (Nil, Nil) => Some(0),
        (Nil, _) => Some(-1),
        (_, Nil) => Some(1),
        (Vector(x), Vector(y)) => {
            if x.len() != y.len() {
                return Some(ord_int(x.len().cmp(&y.len())));
            }
            let pair = shared_pair(a, b);
            if x.ptr_eq(y) || seen.has(pair) {
                return Some(0);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                crate::eval::budget::charge_work(1);
                match clojure_compare_in(p, q, seen)? {
                    0 => {}
                    c => return Some(c),
                }
            }
            seen.note(pair, true);
            Some(0)
        }
        _ => compare_values(a, b).map(ord_int),
    }
}

pub(super) fn compare(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (&args[0], &args[1]);
    match clojure_compare(a, b) {
        Some(c) => Ok(Value::Int(c)),
        None => Err(Error::type_error(format!(
            "compare cannot compare {} with {}",
            a.describe(),
            b.describe()
        ))
        .with_hint(
            "compare works on two numbers, two strings, two keywords, two booleans or two vectors (nil is smallest)",
        )),
    }
}
