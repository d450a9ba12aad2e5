//! Arithmetic: `+ - * /` and the primed `+' -' *'`, `inc dec` (and primed),
//! `quot rem mod abs`, `max min max-key min-key`; integer overflow is an
//! `arithmetic-error`.

use super::*;

fn overflow(fname: &str) -> Error {
    Error::arithmetic(format!("integer overflow in {fname} (integers are 64-bit)"))
        .with_hint("for very large values use floats, e.g. (* 1.0 x y)")
}

fn div_by_zero(fname: &str) -> Error {
    Error::arithmetic(format!("{fname} cannot divide by zero")).with_hint(
        "check the divisor first, e.g. (if (zero? d) 0 (quot n d)); / gives ##Inf instead",
    )
}

fn add2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_add(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() + b.f())),
    }
}

fn sub2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_sub(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() - b.f())),
    }
}

fn mul2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_mul(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() * b.f())),
    }
}

fn add_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let mut acc = Num::I(0);
    for v in args {
        acc = add2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

fn sub_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let first = num(fname, &args[0])?;
    if args.len() == 1 {
        return Ok(match first {
            Num::I(i) => Value::Int(i.checked_neg().ok_or_else(|| overflow(fname))?),
            Num::F(f) => Value::Float(-f),
        });
    }
    let mut acc = first;
    for v in &args[1..] {
        acc = sub2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

fn mul_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let mut acc = Num::I(1);
    for v in args {
        acc = mul2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

pub(super) fn add(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    add_impl(interp, "+", args)
}
pub(super) fn add_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    add_impl(interp, "+'", args)
}
pub(super) fn sub(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    sub_impl(interp, "-", args)
}
pub(super) fn sub_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    sub_impl(interp, "-'", args)
}
pub(super) fn mul(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    mul_impl(interp, "*", args)
}
pub(super) fn mul_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    mul_impl(interp, "*'", args)
}

pub(super) fn div(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let ns = nums(interp, "/", args)?;
    if ns.len() == 1 {
        return Ok(Value::Float(1.0 / ns[0].f()));
    }
    let mut acc = ns[0].f();
    for n in &ns[1..] {
        acc /= n.f();
    }
    Ok(Value::Float(acc))
}

fn step(fname: &str, v: &Value, delta: i64) -> Result<Value> {
    match num(fname, v)? {
        Num::I(i) => i
            .checked_add(delta)
            .map(Value::Int)
            .ok_or_else(|| overflow(fname)),
        Num::F(f) => Ok(Value::Float(f + delta as f64)),
    }
}

pub(super) fn inc(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("inc", &args[0], 1)
}
pub(super) fn inc_p(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("inc'", &args[0], 1)
}
pub(super) fn dec(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("dec", &args[0], -1)
}
pub(super) fn dec_p(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("dec'", &args[0], -1)
}

pub(super) fn quot(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("quot", &args[0])?, num("quot", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("quot")),
        (Num::I(x), Num::I(y)) => x
            .checked_div(y)
            .map(Value::Int)
            .ok_or_else(|| overflow("quot")),
        _ if b.f() == 0.0 => Err(div_by_zero("quot")),
        _ => Ok(Value::Float((a.f() / b.f()).trunc())),
    }
}

pub(super) fn rem(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("rem", &args[0])?, num("rem", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("rem")),
        // Only i64::MIN % -1 fails, and its remainder is 0.
        (Num::I(x), Num::I(y)) => Ok(Value::Int(x.checked_rem(y).unwrap_or(0))),
        _ if b.f() == 0.0 => Err(div_by_zero("rem")),
        _ => Ok(Value::Float(a.f() % b.f())),
    }
}

pub(super) fn modulo(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("mod", &args[0])?, num("mod", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("mod")),
        (Num::I(x), Num::I(y)) => {
            let m = x.checked_rem(y).unwrap_or(0);
            Ok(Value::Int(if m != 0 && ((m < 0) != (y < 0)) {
                m + y
            } else {
                m
            }))
        }
        _ if b.f() == 0.0 => Err(div_by_zero("mod")),
        _ => {
            let (x, y) = (a.f(), b.f());
            let m = x % y;
            Ok(Value::Float(if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                m + y
            } else {
                m
            }))
        }
    }
}

pub(super) fn abs(_: &mut Interp, args: &[Value]) -> Result<Value> {
    match num("abs", &args[0])? {
        Num::I(i) => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| overflow("abs")),
        Num::F(f) => Ok(Value::Float(f.abs())),
    }
}

fn extreme(interp: &mut Interp, fname: &str, args: &[Value], want: Ordering) -> Result<Value> {
    let ns = nums(interp, fname, args)?;
    if ns.iter().any(|n| n.is_nan()) {
        return Ok(Value::Float(f64::NAN));
    }
    let mut best = 0;
    // On ties the later argument wins, as in Clojure: (max 1 1.0) is 1.0.
    for (i, n) in ns.iter().enumerate().skip(1) {
        if num_cmp(*n, ns[best]).is_some_and(|o| o == want || o == Ordering::Equal) {
            best = i;
        }
    }
    Ok(args[best].clone())
}

pub(super) fn max(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme(interp, "max", args, Ordering::Greater)
}
pub(super) fn min(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme(interp, "min", args, Ordering::Less)
}

/// `max-key` / `min-key`, as Clojure: the last of equal keys wins.
fn extreme_key(interp: &mut Interp, fname: &str, args: &[Value], want: Ordering) -> Result<Value> {
    let k = &args[0];
    args::callable(fname, k)?;
    let xs = &args[1..];
    if xs.len() == 1 {
        return Ok(xs[0].clone());
    }
    let key = |interp: &mut Interp, x: &Value| -> Result<Num> {
        let kv = interp.call(k, std::slice::from_ref(x))?;
        match kv {
            Value::Int(i) => Ok(Num::I(i)),
            Value::Float(f) => Ok(Num::F(f)),
            other => Err(Error::type_error(format!(
                "{fname} expects the key function to return numbers, got {}",
                other.describe()
            ))
            .with_hint("to pick by a non-numeric key use (first (sort-by k xs))")),
        }
    };
    let mut best = 0;
    let mut best_key = key(interp, &xs[0])?;
    for (i, x) in xs.iter().enumerate().skip(1) {
        interp.tick(1)?;
        let kx = key(interp, x)?;
        let take = match num_cmp(kx, best_key) {
            Some(o) if o == want => true,
            // The first pair picks y unless x is strictly better; later ties
            // move to the later item.
            Some(Ordering::Equal) => true,
            _ => false,
        };
        if take {
            best = i;
            best_key = kx;
        }
    }
    Ok(xs[best].clone())
}

pub(super) fn max_key(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_key(interp, "max-key", args, Ordering::Greater)
}
pub(super) fn min_key(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_key(interp, "min-key", args, Ordering::Less)
}
