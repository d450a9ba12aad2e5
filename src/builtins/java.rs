//! Java interop shims models write (issue 18; `language.md` Principle 4):
//! a fixed list of names, each a builtin with the Java meaning — no
//! reflection, nothing beyond this table and the date helpers of
//! [`super::interop`].
//!
//! * String methods (more, and collection methods, in `java_methods.rs`)
//!   `.contains .startsWith` (optional offset) `.endsWith .toUpperCase
//!   .toLowerCase .trim .length .indexOf .substring .split .replace`: the
//!   receiver must be a string. Indices count characters. `.split` takes a
//!   regex and drops trailing empty strings; `.replace` is literal;
//!   `.indexOf` gives -1 when absent; `.substring` out of range is an
//!   `execution-error` (Java's `StringIndexOutOfBoundsException`).
//! * Exceptions: `(Exception. msg)`, `(RuntimeException. msg)`,
//!   `(IllegalArgumentException. msg)`, `(IllegalStateException. msg)`,
//!   `(ArithmeticException. msg)` build an error value `{:message msg
//!   :class "…"}`; `throw` raises it as an `execution-error` carrying its
//!   class, so `catch` matches it by class (`crate::analyze::expr::CatchClass`).
//!   `.getMessage` is `ex-message`.
//! * Statics (resolved by `analyze::names::java_static`):
//!   `Character/isLetter isDigit isWhitespace isUpperCase isLowerCase` on a
//!   one-character string, `Character/digit` (Java's: the digit's value in
//!   a radix, or -1); `Integer/parseInt`, `Long/parseLong` (an optional
//!   radix 2-36, as Java's), `Double/parseDouble` and `Float/parseFloat`
//!   (the same: floats are 64-bit) throw `NumberFormatException` (an
//!   `execution-error` catchable by that name, `IllegalArgumentException`,
//!   `RuntimeException`, `Exception`); `Boolean/parseBoolean` is true for
//!   `"true"` in any case, false for anything else (nil included);
//!   `Math/round` rounds halves up as Java (`(Math/round -2.5)` is -2);
//!   `Math/floor`, `Math/ceil` give floats.

use super::args;
use super::{lookup_in, Arity, Builtin, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::{cost, Map, Value};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new(
        ".startsWith",
        Arity::range(2, 3),
        "Java String.startsWith: whether s begins with the prefix (at a character offset, if given).",
        starts_with,
    )
    .example("(.startsWith \"foobar\" \"bar\" 3) ;=> true"),
    Builtin::new(
        ".endsWith",
        Arity::exact(2),
        "Java String.endsWith.",
        ends_with,
    )
    .example("(.endsWith \"report.csv\" \".csv\") ;=> true"),
    Builtin::new(
        ".toUpperCase",
        Arity::exact(1),
        "Java String.toUpperCase.",
        to_upper,
    )
    .example("(.toUpperCase \"abc\") ;=> \"ABC\""),
    Builtin::new(
        ".toLowerCase",
        Arity::exact(1),
        "Java String.toLowerCase.",
        to_lower,
    )
    .example("(.toLowerCase \"ABC\") ;=> \"abc\""),
    Builtin::new(".trim", Arity::exact(1), "Java String.trim.", trim)
        .example("(.trim \"  a b  \") ;=> \"a b\""),
    Builtin::new(
        ".length",
        Arity::exact(1),
        "Java String.length: the number of characters.",
        length,
    )
    .example("(.length \"hello\") ;=> 5"),
    Builtin::new(
        ".substring",
        Arity::range(2, 3),
        "Java String.substring: characters from start (to end).",
        substring,
    )
    .example("(.substring \"hello\" 1 3) ;=> \"el\""),
    Builtin::new(
        ".split",
        Arity::range(2, 3),
        "Java String.split: pieces around a regex, trailing empty strings dropped (an optional limit as Java's).",
        split,
    )
    .example("(.split \"a,b,,c\" \",\") ;=> [\"a\" \"b\" \"\" \"c\"]"),
    Builtin::new(
        ".replace",
        Arity::exact(3),
        "Java String.replace: every occurrence of a literal substring replaced.",
        replace,
    )
    .example("(.replace \"a-b-c\" \"-\" \"+\") ;=> \"a+b+c\""),
    Builtin::new(
        ".getMessage",
        Arity::exact(1),
        "Java Throwable.getMessage: the message of a caught error (ex-message).",
        get_message,
    )
    .example("(try (throw (Exception. \"boom\")) (catch Exception e (.getMessage e))) ;=> \"boom\""),
    Builtin::new(
        "Exception.",
        Arity::range(0, 1),
        "A java.lang.Exception to throw: (throw (Exception. \"msg\")).",
        exception,
    )
    .example("(try (throw (Exception. \"boom\")) (catch Exception e (ex-message e))) ;=> \"boom\""),
    Builtin::new(
        "RuntimeException.",
        Arity::range(0, 1),
        "A java.lang.RuntimeException to throw.",
        runtime_exception,
    )
    .example("(try (throw (RuntimeException. \"boom\")) (catch RuntimeException e (ex-message e))) ;=> \"boom\""),
    Builtin::new(
        "IllegalArgumentException.",
        Arity::range(0, 1),
        "A java.lang.IllegalArgumentException to throw.",
        illegal_argument,
    )
    .example("(try (throw (IllegalArgumentException. \"bad id\")) (catch IllegalArgumentException e (ex-message e))) ;=> \"bad id\""),
    Builtin::new(
        "IllegalStateException.",
        Arity::range(0, 1),
        "A java.lang.IllegalStateException to throw.",
        illegal_state,
    )
    .example("(try (throw (IllegalStateException. \"closed\")) (catch IllegalStateException e (ex-message e))) ;=> \"closed\""),
    Builtin::new(
        "ArithmeticException.",
        Arity::range(0, 1),
        "A java.lang.ArithmeticException to throw.",
        arithmetic_exception,
    )
    .example("(try (throw (ArithmeticException. \"overflow\")) (catch ArithmeticException e (ex-message e))) ;=> \"overflow\""),
    Builtin::new(
        "Character/isLetter",
        Arity::exact(1),
        "Whether a one-character string is a letter.",
        is_letter,
    )
    .example("(Character/isLetter \"a\") ;=> true"),
    Builtin::new(
        "Character/isDigit",
        Arity::exact(1),
        "Whether a one-character string is a digit.",
        is_digit,
    )
    .example("(Character/isDigit \"7\") ;=> true"),
    Builtin::new(
        "Character/isWhitespace",
        Arity::exact(1),
        "Whether a one-character string is whitespace.",
        is_whitespace,
    )
    .example("(Character/isWhitespace \" \") ;=> true"),
    Builtin::new(
        "Character/isUpperCase",
        Arity::exact(1),
        "Whether a one-character string is an upper-case letter.",
        is_upper,
    )
    .example("(Character/isUpperCase \"A\") ;=> true"),
    Builtin::new(
        "Character/isLowerCase",
        Arity::exact(1),
        "Whether a one-character string is a lower-case letter.",
        is_lower,
    )
    .example("(Character/isLowerCase \"A\") ;=> false"),
    Builtin::new(
        "Character/digit",
        Arity::exact(2),
        "Java Character.digit: the value of a character as a digit of the radix (2-36), or -1.",
        character_digit,
    )
    .example("(Character/digit \\a 16) ;=> 10"),
    Builtin::new(
        "Integer/parseInt",
        Arity::range(1, 2),
        "Java Integer.parseInt: the 32-bit integer s holds, in an optional radix 2-36; throws NumberFormatException otherwise.",
        parse_int,
    )
    .example("(Integer/parseInt \"ff\" 16) ;=> 255"),
    Builtin::new(
        "Long/parseLong",
        Arity::range(1, 2),
        "Java Long.parseLong: the integer s holds, in an optional radix 2-36; throws NumberFormatException otherwise.",
        parse_long,
    )
    .example("(Long/parseLong \"123\") ;=> 123"),
    Builtin::new(
        "Boolean/parseBoolean",
        Arity::exact(1),
        "Java Boolean.parseBoolean: true when s is \"true\" in any case, false for any other string or nil.",
        parse_boolean,
    )
    .example("(Boolean/parseBoolean \"TRUE\") ;=> true"),
    Builtin::new(
        "Double/parseDouble",
        Arity::exact(1),
        "Java Double.parseDouble: throws NumberFormatException when s is not a number.",
        parse_double,
    )
    .example("(Double/parseDouble \"1.5\") ;=> 1.5"),
    Builtin::new(
        "Float/parseFloat",
        Arity::exact(1),
        "Java Float.parseFloat, as Double/parseDouble (floats are 64-bit): throws NumberFormatException when s is not a number.",
        parse_float,
    )
    .example("(Float/parseFloat \"0.25\") ;=> 0.25"),
    Builtin::new(
        "Math/round",
        Arity::exact(1),
        "Java Math.round: the nearest integer, halves rounded up ((Math/round -2.5) is -2).",
        math_round,
    )
    .example("(Math/round 2.5) ;=> 3"),
    Builtin::new(
        "Math/floor",
        Arity::exact(1),
        "Java Math.floor: the largest integral float not above x.",
        math_floor,
    )
    .example("(Math/floor 2.7) ;=> 2.0"),
    Builtin::new(
        "Math/ceil",
        Arity::exact(1),
        "Java Math.ceil: the smallest integral float not below x.",
        math_ceil,
    )
    .example("(Math/ceil 2.1) ;=> 3.0"),
];

/// Calls the builtin `name` of `ns` (what a shim means in Clojure terms).
fn delegate(interp: &mut Interp, ns: Ns, name: &str, a: &[Value]) -> Result<Value> {
    let b =
        lookup_in(ns, name).ok_or_else(|| Error::internal(format!("builtin {name} is missing")))?;
    interp.call_builtin(b, a)
}

fn receiver<'a>(method: &str, v: &'a Value) -> Result<&'a str> {
    args::string(method, v)
}

fn starts_with(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let s = receiver(".startsWith", &a[0])?;
    let prefix = args::string(".startsWith", &a[1])?;
    let Some(offset) = a.get(2) else {
        return delegate(interp, Ns::String, "starts-with?", a);
    };
    let offset = args::int(".startsWith", offset)?;
    interp.tick(1 + s.len() as u64 / 64)?;
    // Java: false for an offset outside the string (negative included).
    let rest = usize::try_from(offset)
        .ok()
        .and_then(|k| char_offset(s, k))
        .map(|byte| &s[byte..]);
    Ok(Value::Bool(rest.is_some_and(|r| r.starts_with(prefix))))
}

/// The byte index of the `k`th character of `s` (`s.len()` for `k` equal
/// to its length); `None` beyond it.
pub(crate) fn char_offset(s: &str, k: usize) -> Option<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).nth(k)
}

fn ends_with(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".endsWith", &a[0])?;
    args::string(".endsWith", &a[1])?;
    delegate(interp, Ns::String, "ends-with?", a)
}

fn to_upper(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".toUpperCase", &a[0])?;
    delegate(interp, Ns::String, "upper-case", a)
}

fn to_lower(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".toLowerCase", &a[0])?;
    delegate(interp, Ns::String, "lower-case", a)
}

fn trim(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".trim", &a[0])?;
    delegate(interp, Ns::String, "trim", a)
}

fn length(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let s = receiver(".length", &a[0])?;
    interp.tick(1 + s.len() as u64 / 64)?;
    Ok(Value::Int(args::char_count(s) as i64))
}

fn substring(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let s = receiver(".substring", &a[0])?;
    let n = args::char_count(s) as i64;
    interp.tick(1 + s.len() as u64 / 64)?;
    let start = args::int(".substring", &a[1])?;
    let end = match a.get(2) {
        Some(e) => args::int(".substring", e)?,
        None => n,
    };
    if start < 0 || end > n || start > end {
        return Err(Error::execution(format!(
            ".substring: begin {start}, end {end}, length {n} is out of range"
        ))
        .with_hint("(subs s start end) takes character indices within the string"));
    }
    let out: String = s
        .chars()
        .skip(start as usize)
        .take((end - start) as usize)
        .collect();
    interp.alloc(cost::string_bytes(out.len()))?;
    Ok(Value::string(out))
}

fn split(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".split", &a[0])?;
    let pattern = args::string(".split", &a[1])?;
    let re = crate::value::regex::compile_regex(pattern)?;
    let mut call = vec![a[0].clone(), Value::Regex(re)];
    if let Some(limit) = a.get(2) {
        args::int(".split", limit)?;
        call.push(limit.clone());
    }
    delegate(interp, Ns::String, "split", &call)
}

fn replace(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    receiver(".replace", &a[0])?;
    args::string(".replace", &a[1])?;
    args::string(".replace", &a[2])?;
    delegate(interp, Ns::String, "replace", a)
}

fn get_message(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    delegate(interp, Ns::Core, "ex-message", a)
}

/// `{:message msg :class class}`: what `throw` raises as a `class` error.
fn exception_value(interp: &mut Interp, class: &str, a: &[Value]) -> Result<Value> {
    let message = match a.first() {
        None | Some(Value::Nil) => Value::Nil,
        Some(Value::Str(s)) => Value::Str(s.clone()),
        // Printed within the heap budget and charged, as `ex-info` does.
        Some(other) => Value::string(super::core::shown_within_heap(interp, other)?),
    };
    interp.alloc(cost::map_bytes(2) + cost::string_bytes(class.len()))?;
    let mut m = Map::new();
    m.insert(Value::keyword("message"), message);
    m.insert(Value::keyword("class"), Value::string(class));
    Ok(Value::Map(m))
}

fn exception(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    exception_value(interp, "Exception", a)
}
fn runtime_exception(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    exception_value(interp, "RuntimeException", a)
}
fn illegal_argument(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    exception_value(interp, "IllegalArgumentException", a)
}
fn illegal_state(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    exception_value(interp, "IllegalStateException", a)
}
fn arithmetic_exception(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    exception_value(interp, "ArithmeticException", a)
}

/// The one character of `v` (characters are one-character strings).
fn character(fname: &str, v: &Value) -> Result<char> {
    let s = args::string(fname, v)?;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(args::type_error(
            fname,
            "a character (a one-character string)",
            v,
        )),
    }
}

fn is_letter(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        character("Character/isLetter", &a[0])?.is_alphabetic(),
    ))
}
fn is_digit(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        character("Character/isDigit", &a[0])?.is_numeric(),
    ))
}
fn is_whitespace(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        character("Character/isWhitespace", &a[0])?.is_whitespace(),
    ))
}
fn is_upper(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        character("Character/isUpperCase", &a[0])?.is_uppercase(),
    ))
}
fn is_lower(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        character("Character/isLowerCase", &a[0])?.is_lowercase(),
    ))
}

fn number_format(fname: &str, s: &str) -> Error {
    let s = crate::value::describe_text(s);
    Error::execution(format!("For input string: \"{s}\""))
        .with_class("NumberFormatException")
        .with_hint(format!(
            "{fname} threw NumberFormatException; catch it, or use parse-long / parse-double, which give nil"
        ))
}

/// Java's `Character.digit(ch, radix)`: the value of `c` as a digit of
/// `radix` (2 to 36), or `None` (Java's -1) when it is not one or the radix
/// is out of range. Digits are the Unicode decimal digits (category Nd, so
/// `"٣"` is 3), then the Latin letters in either case and their fullwidth
/// forms for 10 to 35.
pub(crate) fn java_digit(c: char, radix: i64) -> Option<u32> {
    if !(2..=36).contains(&radix) {
        return None;
    }
    let v = match c {
        '0'..='9' => c as u32 - '0' as u32,
        'a'..='z' => c as u32 - 'a' as u32 + 10,
        'A'..='Z' => c as u32 - 'A' as u32 + 10,
        '\u{FF21}'..='\u{FF3A}' => c as u32 - 0xFF21 + 10,
        '\u{FF41}'..='\u{FF5A}' => c as u32 - 0xFF41 + 10,
        c if !c.is_ascii() => unicode_decimal(c)?,
        _ => return None,
    };
    (i64::from(v) < radix).then_some(v)
}

/// The value of a Unicode decimal digit (category Nd). Unicode keeps every
/// Nd run contiguous and in whole tens, 0 to 9 in order, so the value is
/// the distance from the start of the run, modulo 10.
fn unicode_decimal(c: char) -> Option<u32> {
    static ND: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let nd = ND
        .get_or_init(|| regex::Regex::new(r"^\p{Nd}$").ok())
        .as_ref()?;
    let is_nd = |c: char| {
        let mut buf = [0u8; 4];
        nd.is_match(c.encode_utf8(&mut buf))
    };
    if !is_nd(c) {
        return None;
    }
    let mut start = c as u32;
    while let Some(p) = start.checked_sub(1).and_then(char::from_u32) {
        if !is_nd(p) {
            break;
        }
        start -= 1;
    }
    Some((c as u32 - start) % 10)
}

/// Java's `NumberFormatException` for a text that is not an integer of
/// `radix`: `For input string: "s"`, with ` under radix 16` outside
/// radix 10, as Java 11+ words it.
fn bad_integer(fname: &str, s: &str, radix: i64) -> Error {
    if radix == 10 {
        return number_format(fname, s);
    }
    let shown = crate::value::describe_text(s);
    Error::execution(format!("For input string: \"{shown}\" under radix {radix}"))
        .with_class("NumberFormatException")
        .with_hint(format!(
            "{fname} threw NumberFormatException: digits of radix {radix} are 0-9 then a-z, with an optional sign; catch it to handle bad input"
        ))
}

/// Java's `Integer.parseInt(s, radix)` / `Long.parseLong(s, radix)`: an
/// optional `+` or `-`, then one or more digits of the radix
/// ([`java_digit`]), nothing else (no spaces, no `0x`), within
/// `min..=max`. A radix outside 2 to 36, nil, or a bad text throws
/// `NumberFormatException`.
fn parse_java_int(fname: &str, a: &[Value], min: i64, max: i64) -> Result<Value> {
    let radix = match a.get(1) {
        Some(r) => args::int(fname, r)?,
        None => 10,
    };
    if !(2..=36).contains(&radix) {
        let bound = if radix < 2 {
            "less than Character.MIN_RADIX"
        } else {
            "greater than Character.MAX_RADIX"
        };
        return Err(Error::execution(format!("radix {radix} {bound}"))
            .with_class("NumberFormatException")
            .with_hint("the radix runs from 2 to 36"));
    }
    let s = match &a[0] {
        Value::Nil => {
            return Err(Error::execution("Cannot parse null string")
                .with_class("NumberFormatException")
                .with_hint(format!(
                "{fname} was given nil; check the value first, or use parse-long, which gives nil"
            )))
        }
        v => args::string(fname, v)?,
    };
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(bad_integer(fname, s, radix));
    }
    // Accumulated as a magnitude in i128: no overflow before the range
    // check, MIN_VALUE's magnitude included.
    let limit = i128::from(max) + 1;
    let mut n: i128 = 0;
    for c in digits.chars() {
        let Some(d) = java_digit(c, radix) else {
            return Err(bad_integer(fname, s, radix));
        };
        n = n * i128::from(radix) + i128::from(d);
        if n > limit {
            return Err(bad_integer(fname, s, radix));
        }
    }
    let n = if negative { -n } else { n };
    match i64::try_from(n) {
        Ok(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
        _ => Err(bad_integer(fname, s, radix)),
    }
}

fn parse_int(_: &mut Interp, a: &[Value]) -> Result<Value> {
    parse_java_int("Integer/parseInt", a, i32::MIN.into(), i32::MAX.into())
}

fn parse_long(_: &mut Interp, a: &[Value]) -> Result<Value> {
    parse_java_int("Long/parseLong", a, i64::MIN, i64::MAX)
}

/// Java's `Character.digit(ch, radix)`: the digit's value, or -1.
fn character_digit(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let c = match &a[0] {
        // A code point, as Java's `digit(int, int)`.
        Value::Int(cp) => u32::try_from(*cp).ok().and_then(char::from_u32),
        v => Some(character("Character/digit", v)?),
    };
    let radix = args::int("Character/digit", &a[1])?;
    Ok(Value::Int(
        c.and_then(|c| java_digit(c, radix)).map_or(-1, i64::from),
    ))
}

/// Java's `Boolean.parseBoolean`: `"true"` ignoring case; any other
/// string and nil (Java's null) are false. Another value is a `type-error`
/// (Clojure casts the argument to `String`: `ClassCastException`).
fn parse_boolean(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Nil => Ok(Value::Bool(false)),
        Value::Str(s) => Ok(Value::Bool(s.eq_ignore_ascii_case("true"))),
        other => Err(args::type_error("Boolean/parseBoolean", "a string", other)),
    }
}

fn parse_double(_: &mut Interp, a: &[Value]) -> Result<Value> {
    parse_java_double("Double/parseDouble", a)
}

/// `Float/parseFloat`: `Double/parseDouble`, floats being 64-bit here
/// (`language.md`: `float` is the double).
fn parse_float(_: &mut Interp, a: &[Value]) -> Result<Value> {
    parse_java_double("Float/parseFloat", a)
}

fn parse_java_double(fname: &str, a: &[Value]) -> Result<Value> {
    let s = args::string(fname, &a[0])?;
    let t = s.trim();
    let ok = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    match t.parse::<f64>() {
        Ok(f) if ok => Ok(Value::Float(f)),
        _ => match t {
            "NaN" => Ok(Value::Float(f64::NAN)),
            "Infinity" | "+Infinity" => Ok(Value::Float(f64::INFINITY)),
            "-Infinity" => Ok(Value::Float(f64::NEG_INFINITY)),
            _ => Err(number_format(fname, s)),
        },
    }
}

fn math_round(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Int(n) => Ok(Value::Int(*n)),
        Value::Float(f) if f.is_nan() => Ok(Value::Int(0)),
        Value::Float(f) => {
            // Java: the closest long, halves rounded up, saturating at the
            // long range. `(f + 0.5).floor()` would round
            // 0.49999999999999994 up (the sum rounds to 1.0); the fraction
            // is exact instead.
            let fl = f.floor();
            let r = if f - fl >= 0.5 { fl + 1.0 } else { fl };
            Ok(Value::Int(if r >= 9.223372036854776e18 {
                i64::MAX
            } else if r <= -9.223372036854776e18 {
                i64::MIN
            } else {
                r as i64
            }))
        }
        other => Err(args::type_error("Math/round", "a number", other)),
    }
}

fn math_floor(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Float(args::number("Math/floor", &a[0])?.floor()))
}

fn math_ceil(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::Float(args::number("Math/ceil", &a[0])?.ceil()))
}
