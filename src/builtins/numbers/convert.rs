//! Coercions and parsing: `int long double float num boolean` and
//! `parse-long parse-double parse-boolean` (exactly what Java's parsers
//! accept, `nil` for anything else).

use super::*;

fn integer_of(fname: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Float(f) if f.is_nan() => Err(Error::arithmetic(format!(
            "{fname} cannot convert ##NaN to an integer"
        ))
        .with_hint("check with NaN? first")),
        Value::Float(f) if !f.is_finite() => Err(Error::arithmetic(format!(
            "{fname} cannot convert {} to an integer",
            if *f > 0.0 { "##Inf" } else { "##-Inf" }
        ))
        .with_hint("check with infinite? first; (/ x 0) gives ##Inf")),
        Value::Float(f) => {
            let t = f.trunc();
            if (-TWO_63..TWO_63).contains(&t) {
                Ok(Value::Int(t as i64))
            } else {
                Err(Error::arithmetic(format!(
                    "{fname} cannot convert {} to a 64-bit integer: out of range",
                    v.describe()
                )))
            }
        }
        Value::Str(s) => {
            let mut cs = s.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Ok(Value::Int(c as i64)),
                _ => Err(args::type_error(fname, "a number or a character", v)
                    .with_hint("to read a number from a string use parse-long or parse-double")),
            }
        }
        _ => Err(args::type_error(fname, "a number", v)),
    }
}

/// `int` range-checks to 32 bits as Clojure does (`(int 1e10)` throws
/// "Value out of range for int"): an `arithmetic-error` of class
/// `IllegalArgumentException`.
pub(super) fn to_int(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let v = integer_of("int", &args[0])?;
    match v {
        Value::Int(i) if i32::try_from(i).is_err() => Err(Error::arithmetic(format!(
            "Value out of range for int: {}",
            crate::format::to_clojure(&args[0], None, None).0
        ))
        .with_class("IllegalArgumentException")
        .with_hint("int is 32-bit (-2147483648 to 2147483647); use long for 64-bit integers")),
        v => Ok(v),
    }
}
pub(super) fn to_long(_: &mut Interp, args: &[Value]) -> Result<Value> {
    integer_of("long", &args[0])
}

fn float_of(fname: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Int(i) => Ok(Value::Float(*i as f64)),
        Value::Float(f) => Ok(Value::Float(*f)),
        Value::Str(_) => Err(args::type_error(fname, "a number", v)
            .with_hint("to read a number from a string use parse-double")),
        _ => Err(args::type_error(fname, "a number", v)),
    }
}

pub(super) fn to_double(_: &mut Interp, args: &[Value]) -> Result<Value> {
    float_of("double", &args[0])
}
pub(super) fn to_float(_: &mut Interp, args: &[Value]) -> Result<Value> {
    float_of("float", &args[0])
}

pub(super) fn to_num(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(num("num", &args[0])?.value())
}

pub(super) fn to_boolean(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(args[0].truthy()))
}

/// An optional sign followed by ASCII digits only.
fn parse_long_str(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// What Java's `Double.parseDouble` accepts, without surrounding
/// whitespace or type suffixes: `[+-]` then `Infinity`, `NaN`, or digits
/// with an optional fraction and exponent.
fn parse_double_str(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    match body {
        "Infinity" => return Some(sign * f64::INFINITY),
        "NaN" => return Some(f64::NAN),
        _ => {}
    }
    let b = body.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}

pub(super) fn parse_long(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match &args[0] {
        Value::Str(s) => parse_long_str(s).map_or(Value::Nil, Value::Int),
        _ => Value::Nil,
    })
}

pub(super) fn parse_double(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match &args[0] {
        Value::Str(s) => parse_double_str(s).map_or(Value::Nil, Value::Float),
        _ => Value::Nil,
    })
}

pub(super) fn parse_boolean(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match args[0].as_str() {
        Some("true") => Value::Bool(true),
        Some("false") => Value::Bool(false),
        _ => Value::Nil,
    })
}
