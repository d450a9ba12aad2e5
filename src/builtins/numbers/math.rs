//! Rounding and math (PTC-Lisp extensions): `floor ceil round trunc` give
//! integers for finite arguments, `sqrt pow` floats; and the numeric
//! predicates `zero? pos? neg? even? odd? NaN? infinite?`.

use super::*;

/// Applies `f` to a float and returns an integer when the result fits;
/// integers come back unchanged, NaN and infinities unchanged as floats.
fn to_integral(fname: &str, v: &Value, f: fn(f64) -> f64) -> Result<Value> {
    match num(fname, v)? {
        Num::I(i) => Ok(Value::Int(i)),
        Num::F(x) if !x.is_finite() => Ok(Value::Float(x)),
        Num::F(x) => {
            let r = f(x);
            if (-TWO_63..TWO_63).contains(&r) {
                Ok(Value::Int(r as i64))
            } else {
                Ok(Value::Float(r))
            }
        }
    }
}

pub(super) fn floor(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("floor", &args[0], f64::floor)
}
pub(super) fn ceil(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("ceil", &args[0], f64::ceil)
}
pub(super) fn round(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("round", &args[0], f64::round)
}
pub(super) fn trunc(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("trunc", &args[0], f64::trunc)
}

pub(super) fn sqrt(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Float(num("sqrt", &args[0])?.f().sqrt()))
}

/// `pow` and `Math/pow`: Java's `Math.pow`, which differs from C's (and
/// Rust's `powf`) in two special cases: a NaN exponent gives NaN even for a
/// base of 1 (`(pow 1 ##NaN)` is `##NaN`), and a base of ±1 to an infinite
/// power is NaN. A zero exponent still gives 1.0, whatever the base.
pub(super) fn pow(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (x, y) = (num("pow", &args[0])?.f(), num("pow", &args[1])?.f());
    let r = if y.is_nan() || (x.abs() == 1.0 && y.is_infinite()) {
        f64::NAN
    } else {
        x.powf(y)
    };
    // No negative zero: (pow ##-Inf -1) is 0.0.
    Ok(Value::Float(if r == 0.0 { 0.0 } else { r }))
}

fn sign_test(fname: &str, v: &Value, ok: fn(Ordering) -> bool) -> Result<Value> {
    let n = num(fname, v)?;
    Ok(Value::Bool(num_cmp(n, Num::I(0)).is_some_and(ok)))
}

pub(super) fn is_zero(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("zero?", &args[0], |o| o == Ordering::Equal)
}
pub(super) fn is_pos(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("pos?", &args[0], |o| o == Ordering::Greater)
}
pub(super) fn is_neg(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("neg?", &args[0], |o| o == Ordering::Less)
}

/// The answer of clojure.core's `zero?`, `pos?`, `neg?`, `even?` or
/// `odd?` (`b`) for an integer, what the builtin gives it: compiled calls
/// and repeated calls of these predicates answer an integer argument
/// in place (with the builtin's one step), anything else calls `b`.
pub(crate) fn int_test(b: &Builtin) -> Option<fn(i64) -> bool> {
    if b.ns != crate::builtins::Ns::Core || b.owned.is_some() {
        return None;
    }
    Some(match b.name {
        "zero?" => |i| i == 0,
        "pos?" => |i| i > 0,
        "neg?" => |i| i < 0,
        "even?" => |i| i.rem_euclid(2) == 0,
        "odd?" => |i| i.rem_euclid(2) == 1,
        _ => return None,
    })
}

fn parity(fname: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(i.rem_euclid(2)),
        _ => Err(args::type_error(fname, "an integer", v)),
    }
}

pub(super) fn is_even(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(parity("even?", &args[0])? == 0))
}
pub(super) fn is_odd(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(parity("odd?", &args[0])? == 1))
}

pub(super) fn is_nan(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(num("NaN?", &args[0])?.is_nan()))
}
pub(super) fn is_infinite(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        matches!(num("infinite?", &args[0])?, Num::F(f) if f.is_infinite()),
    ))
}
