//! Java methods and statics models reach for beyond `java.rs`'s string
//! methods (issue 27 item 1), each with its Java meaning over PTC-Lisp
//! values — no reflection; a method not in the registry is an
//! `undefined-error` listing the supported ones (`analyze::names`).
//!
//! * Collections (vectors, lists, sets, maps) and strings: `.size`,
//!   `.isEmpty`; `.contains` (a string: substring; a vector or set: an
//!   element equal to x); `.containsKey` (a map); `.indexOf` (a string:
//!   character index of the substring, from an optional start index; a
//!   vector: index of the first equal item; -1 when absent) and
//!   `.lastIndexOf` (the last one; for a string at or before an optional
//!   index), with Java's rules for the index; `.get` (a map: the value or
//!   nil; a vector: the item, out of range an `execution-error` of class
//!   `IndexOutOfBoundsException`).
//! * Strings: `.charAt` (the one-character string; out of range
//!   `StringIndexOutOfBoundsException`), `.isBlank`, `.equals`,
//!   `.equalsIgnoreCase`, `.toString` (`str`).
//! * Statics: `Integer/toString`, `Long/toString` (optional radix 2-36),
//!   `Integer/valueOf`, `Long/valueOf` (= `parseInt`/`parseLong`, radix
//!   included),
//!   `Double/valueOf`, `Double/isNaN`, `Double/isInfinite`, `Math/log`
//!   `log10` `exp` `hypot` `cbrt` `signum` `toRadians` `toDegrees` `sin`
//!   `cos` `tan` `atan` `atan2` (floats, as Java's double methods).
//! * `java.time` over the language's dates: a `LocalDate` is its ISO text
//!   (`interop.rs`). `(LocalDate/of y m d)`, `.plusDays` `.minusDays`
//!   `.plusWeeks` `.minusWeeks` `.plusMonths` `.minusMonths` (the day
//!   clamped to the month's end, as Java) give ISO text; `.getYear`
//!   `.getMonthValue` `.getDayOfMonth` `.getDayOfYear`; `.getDayOfWeek`
//!   gives the day's name as Java's enum prints (`"MONDAY"`); `.isBefore`
//!   `.isAfter` compare; `ChronoUnit/DAYS` and `ChronoUnit/WEEKS` are the
//!   strings `"DAYS"`/`"WEEKS"`, and `(.between ChronoUnit/DAYS a b)` the
//!   whole units from a to b.

use super::args;
use super::interop::{civil_from_days, days_from_civil, days_in_month, parse_ymd};
use super::{Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::{cost, Value};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("AssertionError.", Arity::range(0, 1), "A java.lang.AssertionError to throw (what a failed assert throws; Exception does not catch it).", assertion_error)
        .example("(try (throw (AssertionError. \"bad\")) (catch AssertionError e (ex-message e))) ;=> \"bad\""),
    Builtin::new("printf", Arity::at_least(1), "Prints (format fmt args…) without a newline; returns nil.", printf)
        .example("(printf \"%d items%n\" 3) ;; prints 3 items"),
    Builtin::new("instance?", Arity::exact(2), "(instance? Class x): whether x is of a class ptc knows (String Long Integer Double Number Boolean Keyword Symbol Map Set Vector List Fn Pattern, and the exception classes).", instance)
        .example("(instance? String \"a\") ;=> true"),
    Builtin::new(".size", Arity::exact(1), "Java .size: the number of items of a collection (characters of a string).", size)
        .example("(.size [1 2 3]) ;=> 3"),
    Builtin::new(".isEmpty", Arity::exact(1), "Java .isEmpty: whether a collection or string has no items.", is_empty)
        .example("(.isEmpty \"\") ;=> true"),
    Builtin::new(".contains", Arity::exact(2), "Java .contains: a string contains the substring, or a vector/set an equal item.", contains)
        .example("(.contains \"hello\" \"ell\") ;=> true"),
    Builtin::new(".containsKey", Arity::exact(2), "Java Map.containsKey.", contains_key)
        .example("(.containsKey {:a 1} :a) ;=> true"),
    Builtin::new(".indexOf", Arity::range(2, 3), "Java .indexOf: the index of a substring in a string (searched from an optional start) or of an item in a vector, or -1.", index_of)
        .example("(.indexOf \"abcabc\" \"c\" 3) ;=> 5"),
    Builtin::new(".lastIndexOf", Arity::range(2, 3), "Java .lastIndexOf: the index of the last occurrence of a substring in a string (at or before an optional index) or of an item in a vector, or -1.", last_index_of)
        .example("(.lastIndexOf \"abcabc\" \"b\") ;=> 4"),
    Builtin::new(".get", Arity::exact(2), "Java .get: a map's value for a key (nil if absent) or a vector's item at an index.", get)
        .example("(.get [10 20 30] 1) ;=> 20"),
    Builtin::new(".charAt", Arity::exact(2), "Java String.charAt: the character (a one-character string) at an index.", char_at)
        .example("(.charAt \"abc\" 1) ;=> \"b\""),
    Builtin::new(".isBlank", Arity::exact(1), "Java String.isBlank: empty or only whitespace.", is_blank)
        .example("(.isBlank \"  \") ;=> true"),
    Builtin::new(".equals", Arity::exact(2), "Java .equals: value equality (=).", equals)
        .example("(.equals [1 2] [1 2]) ;=> true"),
    Builtin::new(".equalsIgnoreCase", Arity::exact(2), "Java String.equalsIgnoreCase.", equals_ignore_case)
        .example("(.equalsIgnoreCase \"Yes\" \"YES\") ;=> true"),
    Builtin::new(".toString", Arity::exact(1), "Java .toString: the string form (str).", to_string)
        .example("(.toString 42) ;=> \"42\""),
    Builtin::new("Integer/toString", Arity::range(1, 2), "Java Integer.toString: an integer's digits, in an optional radix 2-36.", integer_to_string)
        .example("(Integer/toString 255 16) ;=> \"ff\""),
    Builtin::new("Integer/valueOf", Arity::range(1, 2), "Java Integer.valueOf: Integer/parseInt of a string (optional radix), an integer unchanged.", integer_value_of)
        .example("(Integer/valueOf \"42\") ;=> 42"),
    Builtin::new("Long/valueOf", Arity::range(1, 2), "Java Long.valueOf: Long/parseLong of a string (optional radix), an integer unchanged.", long_value_of)
        .example("(Long/valueOf \"-7\") ;=> -7"),
    Builtin::new("Double/valueOf", Arity::exact(1), "Java Double.valueOf: Double/parseDouble of a string, a number as a float.", double_value_of)
        .example("(Double/valueOf \"2.5\") ;=> 2.5"),
    Builtin::new("Double/isNaN", Arity::exact(1), "Java Double.isNaN.", double_is_nan)
        .example("(Double/isNaN (/ 0 0)) ;=> true"),
    Builtin::new("Double/isInfinite", Arity::exact(1), "Java Double.isInfinite.", double_is_infinite)
        .example("(Double/isInfinite (/ 1 0)) ;=> true"),
    Builtin::new("Math/log", Arity::exact(1), "Java Math.log: the natural logarithm, a float.", math_log)
        .example("(Math/log 1) ;=> 0.0"),
    Builtin::new("Math/log10", Arity::exact(1), "Java Math.log10.", math_log10)
        .example("(Math/log10 1000) ;=> 3.0"),
    Builtin::new("Math/exp", Arity::exact(1), "Java Math.exp.", math_exp)
        .example("(Math/exp 0) ;=> 1.0"),
    Builtin::new("Math/hypot", Arity::exact(2), "Java Math.hypot: sqrt(x² + y²).", math_hypot)
        .example("(Math/hypot 3 4) ;=> 5.0"),
    Builtin::new("Math/cbrt", Arity::exact(1), "Java Math.cbrt: the cube root.", math_cbrt)
        .example("(Math/cbrt 27) ;=> 3.0"),
    Builtin::new("Math/signum", Arity::exact(1), "Java Math.signum: -1.0, 0.0 or 1.0.", math_signum)
        .example("(Math/signum -4.2) ;=> -1.0"),
    Builtin::new("Math/toRadians", Arity::exact(1), "Java Math.toRadians.", math_to_radians)
        .example("(Math/toRadians 180) ;=> 3.1415926536"),
    Builtin::new("Math/toDegrees", Arity::exact(1), "Java Math.toDegrees.", math_to_degrees)
        .example("(Math/toDegrees Math/PI) ;=> 180.0"),
    Builtin::new("Math/sin", Arity::exact(1), "Java Math.sin.", math_sin)
        .example("(Math/sin 0) ;=> 0.0"),
    Builtin::new("Math/cos", Arity::exact(1), "Java Math.cos.", math_cos)
        .example("(Math/cos 0) ;=> 1.0"),
    Builtin::new("Math/tan", Arity::exact(1), "Java Math.tan.", math_tan)
        .example("(Math/tan 0) ;=> 0.0"),
    Builtin::new("Math/atan", Arity::exact(1), "Java Math.atan.", math_atan)
        .example("(Math/atan 0) ;=> 0.0"),
    Builtin::new("Math/atan2", Arity::exact(2), "Java Math.atan2.", math_atan2)
        .example("(Math/atan2 0 1) ;=> 0.0"),
    Builtin::new("LocalDate/of", Arity::exact(3), "java.time.LocalDate/of: the ISO date text of year, month, day.", local_date_of)
        .example("(LocalDate/of 2024 2 29) ;=> \"2024-02-29\""),
    Builtin::new(".plusDays", Arity::exact(2), "java.time LocalDate.plusDays on an ISO date: the ISO date n days later.", plus_days)
        .example("(.plusDays (LocalDate/parse \"2024-02-28\") 2) ;=> \"2024-03-01\""),
    Builtin::new(".minusDays", Arity::exact(2), "java.time LocalDate.minusDays on an ISO date.", minus_days)
        .example("(.minusDays \"2024-03-01\" 1) ;=> \"2024-02-29\""),
    Builtin::new(".plusWeeks", Arity::exact(2), "java.time LocalDate.plusWeeks on an ISO date.", plus_weeks)
        .example("(.plusWeeks \"2024-01-01\" 2) ;=> \"2024-01-15\""),
    Builtin::new(".minusWeeks", Arity::exact(2), "java.time LocalDate.minusWeeks on an ISO date.", minus_weeks)
        .example("(.minusWeeks \"2024-01-15\" 2) ;=> \"2024-01-01\""),
    Builtin::new(".plusMonths", Arity::exact(2), "java.time LocalDate.plusMonths on an ISO date (day clamped to the month's end).", plus_months)
        .example("(.plusMonths \"2024-01-31\" 1) ;=> \"2024-02-29\""),
    Builtin::new(".minusMonths", Arity::exact(2), "java.time LocalDate.minusMonths on an ISO date.", minus_months)
        .example("(.minusMonths \"2024-03-31\" 1) ;=> \"2024-02-29\""),
    Builtin::new(".getYear", Arity::exact(1), "java.time LocalDate.getYear of an ISO date.", get_year)
        .example("(.getYear \"2024-03-05\") ;=> 2024"),
    Builtin::new(".getMonthValue", Arity::exact(1), "java.time LocalDate.getMonthValue (1-12) of an ISO date.", get_month_value)
        .example("(.getMonthValue \"2024-03-05\") ;=> 3"),
    Builtin::new(".getDayOfMonth", Arity::exact(1), "java.time LocalDate.getDayOfMonth of an ISO date.", get_day_of_month)
        .example("(.getDayOfMonth \"2024-03-05\") ;=> 5"),
    Builtin::new(".getDayOfYear", Arity::exact(1), "java.time LocalDate.getDayOfYear of an ISO date.", get_day_of_year)
        .example("(.getDayOfYear \"2024-03-05\") ;=> 65"),
    Builtin::new(".getDayOfWeek", Arity::exact(1), "java.time LocalDate.getDayOfWeek of an ISO date, as its name (\"MONDAY\").", get_day_of_week)
        .example("(str (.getDayOfWeek \"2024-03-05\")) ;=> \"TUESDAY\""),
    Builtin::new(".isBefore", Arity::exact(2), "java.time LocalDate.isBefore on ISO dates.", is_before)
        .example("(.isBefore \"2024-01-01\" \"2024-06-30\") ;=> true"),
    Builtin::new(".isAfter", Arity::exact(2), "java.time LocalDate.isAfter on ISO dates.", is_after)
        .example("(.isAfter \"2024-01-01\" \"2024-06-30\") ;=> false"),
    Builtin::new(".between", Arity::exact(3), "java.time (.between ChronoUnit/DAYS a b): whole days (or WEEKS) from date a to date b.", between)
        .example("(.between ChronoUnit/DAYS (LocalDate/parse \"2024-01-01\") (LocalDate/parse \"2024-03-01\")) ;=> 60"),
];

fn size(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = match &a[0] {
        Value::Str(s) => {
            interp.tick(1 + s.len() as u64 / 64)?;
            args::char_count(s)
        }
        Value::Vector(v) => v.len(),
        Value::Map(m) => m.len(),
        Value::Set(s) => s.len(),
        Value::Nil => return Err(npe(".size")),
        other => return Err(args::type_error(".size", "a collection or a string", other)),
    };
    Ok(Value::Int(n as i64))
}

fn is_empty(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(match &a[0] {
        Value::Str(s) => s.is_empty(),
        Value::Vector(v) => v.is_empty(),
        Value::Map(m) => m.is_empty(),
        Value::Set(s) => s.is_empty(),
        Value::Nil => return Err(npe(".isEmpty")),
        other => {
            return Err(args::type_error(
                ".isEmpty",
                "a collection or a string",
                other,
            ))
        }
    }))
}

/// A method called on nil: Java's `NullPointerException`.
fn npe(method: &str) -> Error {
    Error::type_error(format!("{method} called on nil"))
        .with_class("NullPointerException")
        .with_hint("the receiver is nil; check it with (some? x) or use the Clojure function (count, empty?, get)")
}

fn contains(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Str(s) => {
            let sub = args::string(".contains", &a[1])?;
            interp.tick(1 + s.len() as u64 / 64)?;
            Ok(Value::Bool(s.contains(sub)))
        }
        Value::Vector(v) => {
            interp.tick(1 + v.len() as u64 / 8)?;
            Ok(Value::Bool(v.iter().any(|x| x == &a[1])))
        }
        Value::Set(s) => Ok(Value::Bool(s.contains(&a[1]))),
        Value::Map(_) => Err(
            args::type_error(".contains", "a string, vector or set", &a[0])
                .with_hint("for a map use (.containsKey m k) or (contains? m k)"),
        ),
        Value::Nil => Err(npe(".contains")),
        other => Err(args::type_error(
            ".contains",
            "a string, vector or set",
            other,
        )),
    }
}

fn contains_key(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Map(m) => Ok(Value::Bool(m.contains_key(&a[1]))),
        Value::Nil => Err(npe(".containsKey")),
        other => Err(args::type_error(".containsKey", "a map", other)),
    }
}

fn index_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Str(s) => {
            let sub = args::string(".indexOf", &a[1])?;
            interp.tick(1 + s.len() as u64 / 64)?;
            // Java: a start below 0 is 0, one past the end finds only "".
            let from = match a.get(2) {
                Some(f) => args::int(".indexOf", f)?.max(0),
                None => 0,
            };
            let from = usize::try_from(from).unwrap_or(usize::MAX);
            let (from, byte) = match super::java::char_offset(s, from) {
                Some(byte) => (from, byte),
                None => (args::char_count(s), s.len()),
            };
            Ok(Value::Int(match s[byte..].find(sub) {
                Some(at) => (from + s[byte..byte + at].chars().count()) as i64,
                None => -1,
            }))
        }
        Value::Vector(v) => {
            no_start(".indexOf", a)?;
            interp.tick(1 + v.len() as u64 / 8)?;
            Ok(Value::Int(
                v.iter().position(|x| x == &a[1]).map_or(-1, |i| i as i64),
            ))
        }
        Value::Nil => Err(npe(".indexOf")),
        other => Err(args::type_error(".indexOf", "a string or a vector", other)),
    }
}

/// Java's `List.indexOf`/`lastIndexOf` take no start index.
fn no_start(method: &str, a: &[Value]) -> Result<()> {
    match a.get(2) {
        None => Ok(()),
        Some(_) => Err(Error::type_error(format!(
            "{method} on a vector takes the item only, got a start index too"
        ))
        .with_hint(
            "a start index is for strings; for a vector search (subvec v start) and add start",
        )),
    }
}

fn last_index_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Str(s) => {
            let sub = args::string(".lastIndexOf", &a[1])?;
            interp.tick(1 + s.len() as u64 / 64)?;
            let Some(from) = a.get(2) else {
                return Ok(Value::Int(match s.rfind(sub) {
                    Some(at) => s[..at].chars().count() as i64,
                    None => -1,
                }));
            };
            // Java: the last occurrence starting at or before `from`
            // (clamped to the last place the substring fits); -1 below 0.
            let from = args::int(".lastIndexOf", from)?;
            let fits = args::char_count(s) as i64 - args::char_count(sub) as i64;
            let k = from.min(fits);
            let Ok(k) = usize::try_from(k) else {
                return Ok(Value::Int(-1));
            };
            let start = super::java::char_offset(s, k).unwrap_or(s.len());
            let mut end = (start + sub.len()).min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            Ok(Value::Int(match s[..end].rfind(sub) {
                Some(at) => s[..at].chars().count() as i64,
                None => -1,
            }))
        }
        Value::Vector(v) => {
            no_start(".lastIndexOf", a)?;
            interp.tick(1 + v.len() as u64 / 8)?;
            Ok(Value::Int(
                v.iter().rposition(|x| x == &a[1]).map_or(-1, |i| i as i64),
            ))
        }
        Value::Nil => Err(npe(".lastIndexOf")),
        other => Err(args::type_error(
            ".lastIndexOf",
            "a string or a vector",
            other,
        )),
    }
}

fn out_of_bounds(method: &str, class: &'static str, i: i64, n: usize) -> Error {
    Error::execution(format!("{method}: index {i} out of bounds for length {n}"))
        .with_class(class)
        .with_hint("indices run from 0 to (dec (count x)); (get v i) gives nil instead of failing")
}

fn get(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Map(m) => Ok(m.get(&a[1]).cloned().unwrap_or(Value::Nil)),
        Value::Vector(v) => {
            let i = args::int(".get", &a[1])?;
            usize::try_from(i)
                .ok()
                .and_then(|u| v.get(u))
                .cloned()
                .ok_or_else(|| out_of_bounds(".get", "IndexOutOfBoundsException", i, v.len()))
        }
        Value::Nil => Err(npe(".get")),
        other => Err(args::type_error(".get", "a map or a vector", other)),
    }
}

fn char_at(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let s = args::string(".charAt", &a[0])?;
    let i = args::int(".charAt", &a[1])?;
    interp.tick(1 + s.len() as u64 / 64)?;
    match usize::try_from(i).ok().and_then(|u| s.chars().nth(u)) {
        Some(c) => Ok(Value::string(c.to_string())),
        None => Err(out_of_bounds(
            ".charAt",
            "StringIndexOutOfBoundsException",
            i,
            s.chars().count(),
        )),
    }
}

fn is_blank(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        args::string(".isBlank", &a[0])?.trim().is_empty(),
    ))
}

fn equals(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(a[0] == a[1]))
}

fn equals_ignore_case(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let x = args::string(".equalsIgnoreCase", &a[0])?;
    Ok(Value::Bool(match &a[1] {
        Value::Str(y) => x.to_lowercase() == y.to_lowercase(),
        _ => false,
    }))
}

fn to_string(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Err(npe(".toString")),
        Value::Str(s) => Ok(Value::Str(s.clone())),
        // Printed within the heap budget and charged (issue 23 H1).
        other => Ok(Value::string(super::core::shown_within_heap(
            interp, other,
        )?)),
    }
}

fn integer_to_string(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = args::int("Integer/toString", &a[0])?;
    let radix = match a.get(1) {
        Some(r) => args::int("Integer/toString", r)?,
        None => 10,
    };
    // Java falls back to radix 10 outside 2..=36.
    let radix = if (2..=36).contains(&radix) {
        radix as u32
    } else {
        10
    };
    // At most 64 binary digits and a sign.
    interp.alloc(cost::string_bytes(65))?;
    let mut digits = Vec::new();
    let mut m = n.unsigned_abs();
    loop {
        digits.push(std::char::from_digit((m % u64::from(radix)) as u32, radix).unwrap_or('?'));
        m /= u64::from(radix);
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        digits.push('-');
    }
    Ok(Value::string(digits.iter().rev().collect::<String>()))
}

fn integer_value_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [Value::Int(n)] => Ok(Value::Int(*n)),
        _ => call(interp, "Integer/parseInt", a),
    }
}

fn long_value_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [Value::Int(n)] => Ok(Value::Int(*n)),
        _ => call(interp, "Long/parseLong", a),
    }
}

fn double_value_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Int(n) => Ok(Value::Float(*n as f64)),
        Value::Float(f) => Ok(Value::Float(*f)),
        _ => call(interp, "Double/parseDouble", a),
    }
}

fn call(interp: &mut Interp, name: &str, a: &[Value]) -> Result<Value> {
    let b = super::lookup_in(super::Ns::Core, name)
        .ok_or_else(|| Error::internal(format!("builtin {name} is missing")))?;
    interp.call_builtin(b, a)
}

fn double_is_nan(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(args::number("Double/isNaN", &a[0])?.is_nan()))
}

fn double_is_infinite(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        args::number("Double/isInfinite", &a[0])?.is_infinite(),
    ))
}

macro_rules! unary_math {
    ($($f:ident $name:literal $op:expr;)*) => {$(
        fn $f(_: &mut Interp, a: &[Value]) -> Result<Value> {
            let x = args::number($name, &a[0])?;
            let op: fn(f64) -> f64 = $op;
            Ok(Value::Float(op(x)))
        }
    )*};
}

unary_math! {
    math_log "Math/log" f64::ln;
    math_log10 "Math/log10" f64::log10;
    math_exp "Math/exp" f64::exp;
    math_cbrt "Math/cbrt" f64::cbrt;
    math_to_radians "Math/toRadians" f64::to_radians;
    math_to_degrees "Math/toDegrees" f64::to_degrees;
    math_sin "Math/sin" f64::sin;
    math_cos "Math/cos" f64::cos;
    math_tan "Math/tan" f64::tan;
    math_atan "Math/atan" f64::atan;
    math_signum "Math/signum" |x| if x.is_nan() || x == 0.0 { x } else { x.signum() };
}

fn math_hypot(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let x = args::number("Math/hypot", &a[0])?;
    let y = args::number("Math/hypot", &a[1])?;
    Ok(Value::Float(x.hypot(y)))
}

fn math_atan2(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let y = args::number("Math/atan2", &a[0])?;
    let x = args::number("Math/atan2", &a[1])?;
    Ok(Value::Float(y.atan2(x)))
}

// ---------------------------------------------------------------------------
// java.time over ISO date text

/// The (year, month, day) of an ISO date string, or a `type-error` naming it.
fn date(method: &str, v: &Value) -> Result<(i64, i64, i64)> {
    let s = match v {
        Value::Str(s) => s,
        Value::Nil => return Err(npe(method)),
        other => {
            return Err(args::type_error(
                method,
                "a date (ISO text from LocalDate/parse)",
                other,
            ))
        }
    };
    match parse_ymd(s) {
        Some(ymd) if s.len() == 10 => Ok(ymd),
        _ => Err(Error::type_error(format!(
            "{method} expects a date like \"2024-01-31\", got {s:?}"
        ))
        .with_class("DateTimeParseException")),
    }
}

fn iso(interp: &mut Interp, (y, m, d): (i64, i64, i64)) -> Result<Value> {
    if !(-999_999..=999_999).contains(&y) {
        return Err(
            Error::execution(format!("year {y} is out of range")).with_class("DateTimeException")
        );
    }
    let text = if (0..=9999).contains(&y) {
        format!("{y:04}-{m:02}-{d:02}")
    } else {
        format!("{y:+}-{m:02}-{d:02}")
    };
    interp.alloc(cost::string_bytes(text.len()))?;
    Ok(Value::string(text))
}

fn epoch_day(ymd: (i64, i64, i64)) -> i64 {
    days_from_civil(ymd.0, ymd.1, ymd.2)
}

fn add_days(interp: &mut Interp, method: &str, a: &[Value], sign: i64, unit: i64) -> Result<Value> {
    let ymd = date(method, &a[0])?;
    let n = args::int(method, &a[1])?;
    let delta = n
        .checked_mul(sign * unit)
        .filter(|d| d.abs() < 400_000_000)
        .ok_or_else(|| Error::execution(format!("{method}: {n} is out of range")))?;
    iso(interp, civil_from_days(epoch_day(ymd) + delta))
}

fn add_months(interp: &mut Interp, method: &str, a: &[Value], sign: i64) -> Result<Value> {
    let (y, m, d) = date(method, &a[0])?;
    let n = args::int(method, &a[1])?;
    let total = n
        .checked_mul(sign)
        .filter(|d| d.abs() < 12_000_000)
        .ok_or_else(|| Error::execution(format!("{method}: {n} is out of range")))?
        + (y * 12 + m - 1);
    let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    iso(interp, (ny, nm, d.min(days_in_month(ny, nm))))
}

fn plus_days(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_days(i, ".plusDays", a, 1, 1)
}
fn minus_days(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_days(i, ".minusDays", a, -1, 1)
}
fn plus_weeks(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_days(i, ".plusWeeks", a, 1, 7)
}
fn minus_weeks(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_days(i, ".minusWeeks", a, -1, 7)
}
fn plus_months(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_months(i, ".plusMonths", a, 1)
}
fn minus_months(i: &mut Interp, a: &[Value]) -> Result<Value> {
    add_months(i, ".minusMonths", a, -1)
}

fn local_date_of(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let y = args::int("LocalDate/of", &a[0])?;
    let m = args::int("LocalDate/of", &a[1])?;
    let d = args::int("LocalDate/of", &a[2])?;
    if !(1..=12).contains(&m)
        || !(-999_999..=999_999).contains(&y)
        || d < 1
        || d > days_in_month(y, m)
    {
        return Err(
            Error::execution(format!("LocalDate/of: invalid date {y}-{m}-{d}"))
                .with_class("DateTimeException")
                .with_hint("months run 1-12 and days 1 to the month's length"),
        );
    }
    iso(interp, (y, m, d))
}

fn get_year(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Int(date(".getYear", &a[0])?.0))
}
fn get_month_value(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Int(date(".getMonthValue", &a[0])?.1))
}
fn get_day_of_month(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Int(date(".getDayOfMonth", &a[0])?.2))
}
fn get_day_of_year(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let (y, m, d) = date(".getDayOfYear", &a[0])?;
    Ok(Value::Int(
        days_from_civil(y, m, d) - days_from_civil(y, 1, 1) + 1,
    ))
}

fn get_day_of_week(_: &mut Interp, a: &[Value]) -> Result<Value> {
    const NAMES: [&str; 7] = [
        "MONDAY",
        "TUESDAY",
        "WEDNESDAY",
        "THURSDAY",
        "FRIDAY",
        "SATURDAY",
        "SUNDAY",
    ];
    // 1970-01-01 was a Thursday.
    let day = epoch_day(date(".getDayOfWeek", &a[0])?);
    Ok(Value::string(NAMES[(day + 3).rem_euclid(7) as usize]))
}

fn is_before(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        epoch_day(date(".isBefore", &a[0])?) < epoch_day(date(".isBefore", &a[1])?),
    ))
}
fn is_after(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        epoch_day(date(".isAfter", &a[0])?) > epoch_day(date(".isAfter", &a[1])?),
    ))
}

fn between(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let unit = match &a[0] {
        Value::Str(u) if &**u == "DAYS" => 1,
        Value::Str(u) if &**u == "WEEKS" => 7,
        other => {
            return Err(args::type_error(
                ".between",
                "ChronoUnit/DAYS or ChronoUnit/WEEKS",
                other,
            ))
        }
    };
    let days = epoch_day(date(".between", &a[2])?) - epoch_day(date(".between", &a[1])?);
    Ok(Value::Int(days / unit))
}

fn assertion_error(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let message = match a.first() {
        None | Some(Value::Nil) => Value::Nil,
        Some(Value::Str(s)) => Value::Str(s.clone()),
        Some(other) => Value::string(super::core::shown_within_heap(interp, other)?),
    };
    interp.alloc(cost::map_bytes(2) + cost::string_bytes("AssertionError".len()))?;
    let mut m = crate::value::Map::new();
    m.insert(Value::keyword("message"), message);
    m.insert(Value::keyword("class"), Value::string("AssertionError"));
    Ok(Value::Map(m))
}

fn printf(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let text = {
        let b = super::lookup_in(super::Ns::String, "format")
            .or_else(|| super::lookup_in(super::Ns::Core, "format"))
            .ok_or_else(|| Error::internal("builtin format is missing"))?;
        interp.call_builtin(b, a)?
    };
    call(interp, "print", &[text])
}

/// `(instance? C x)`: the analyzer passes the class as its simple name (a
/// string) after checking ptc knows it (`analyze::special`).
fn instance(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let class = args::string("instance?", &a[0])?;
    Ok(Value::Bool(is_instance(class, &a[1])))
}

/// The value classes `instance?` knows, besides the exception classes.
pub const VALUE_CLASSES: &[&str] = &[
    "Object",
    "String",
    "CharSequence",
    "Character",
    "Long",
    "Integer",
    "Double",
    "Float",
    "Number",
    "Boolean",
    "Keyword",
    "Symbol",
    "Map",
    "IPersistentMap",
    "APersistentMap",
    "PersistentArrayMap",
    "PersistentHashMap",
    "Set",
    "IPersistentSet",
    "PersistentHashSet",
    "Vector",
    "IPersistentVector",
    "PersistentVector",
    "List",
    "IPersistentList",
    "PersistentList",
    "Collection",
    "IPersistentCollection",
    "Sequential",
    "ISeq",
    "Seqable",
    "Fn",
    "IFn",
    "AFn",
    "Pattern",
];

fn is_instance(class: &str, x: &Value) -> bool {
    use crate::builtins::classes;
    if classes::known(class).is_some() {
        let Value::Map(m) = x else { return false };
        return error_classes(m).iter().any(|c| classes::is_a(c, class));
    }
    match class {
        "Object" => !matches!(x, Value::Nil),
        "String" | "CharSequence" => matches!(x, Value::Str(_)),
        "Character" => matches!(x, Value::Str(s) if crate::builtins::args::is_one_char(s)),
        "Long" | "Integer" => matches!(x, Value::Int(_)),
        "Double" | "Float" => matches!(x, Value::Float(_)),
        "Number" => matches!(x, Value::Int(_) | Value::Float(_)),
        "Boolean" => matches!(x, Value::Bool(_)),
        "Keyword" => matches!(x, Value::Keyword(_)),
        "Symbol" => matches!(x, Value::Symbol(_)),
        "Map" | "IPersistentMap" | "APersistentMap" | "PersistentArrayMap"
        | "PersistentHashMap" => {
            matches!(x, Value::Map(_))
        }
        "Set" | "IPersistentSet" | "PersistentHashSet" => matches!(x, Value::Set(_)),
        "Vector" | "IPersistentVector" | "PersistentVector" | "List" | "IPersistentList"
        | "PersistentList" | "Sequential" | "ISeq" => {
            matches!(x, Value::Vector(_) | Value::Lazy(_))
        }
        "Collection" | "IPersistentCollection" | "Seqable" => {
            matches!(
                x,
                Value::Vector(_) | Value::Lazy(_) | Value::Map(_) | Value::Set(_)
            )
        }
        "Fn" | "IFn" | "AFn" => matches!(x, Value::Fn(_)),
        "Pattern" => matches!(x, Value::Regex(_)),
        _ => false,
    }
}

/// The exception classes of an error value, most specific first; none for
/// a map that is not one. Error values are maps: what `catch` binds
/// (`:message`, `:kind`, and `:data` or `:class`), what `ex-info` builds
/// (`{:message m :data d}`, an `ExceptionInfo` as in Clojure, where it
/// extends `RuntimeException`) and what a Java exception constructor
/// builds (`{:message m :class "IllegalStateException"}`), so that
/// `(instance? Exception (ex-info "x" {}))` is true before it is thrown too.
fn error_classes(m: &crate::value::Map) -> &'static [&'static str] {
    use crate::builtins::classes;
    let message = m.get(&Value::keyword("message"));
    let kind = match m.get(&Value::keyword("kind")) {
        Some(Value::Keyword(k)) => Some(k),
        _ => None,
    };
    if kind.is_none() && (m.len() != 2 || message.is_none()) {
        return &[];
    }
    match m.get(&Value::keyword("class")) {
        Some(Value::Str(c)) => match classes::known(c) {
            Some(k) => {
                return classes::CLASSES
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map_or(&[], |(n, _)| std::slice::from_ref(n))
            }
            None if kind.is_some() => return &["RuntimeException"],
            None => return &[],
        },
        Some(_) => return &[],
        None => {}
    }
    if m.contains_key(&Value::keyword("data")) {
        // A caught ex-info, or an ex-info value not yet thrown (its message
        // is always a string).
        return match (kind, message) {
            (Some(_), _) | (None, Some(Value::Str(_))) => &["ExceptionInfo"],
            _ => &[],
        };
    }
    match kind.map(|k| &**k) {
        Some("arithmetic-error") => &["ArithmeticException"],
        Some("arity-error") => &["ArityException"],
        Some("type-error") => &[
            "ClassCastException",
            "IllegalArgumentException",
            "NullPointerException",
        ],
        Some(_) => &["RuntimeException"],
        None => &[],
    }
}
