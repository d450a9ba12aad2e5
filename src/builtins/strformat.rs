//! Builtin `format`: Java's `String.format` directives (`%s %d %f %e %g %x
//! %o %b %c %% %n`, flags `- + 0 , ( # space`, width, precision, `1$` and
//! `<` argument references), with Java's rounding.

use std::fmt::Write as _;

use super::args;
use super::string::{built, byte_at, heap_room, out_of_room, scan_ticks};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::format;
use crate::value::Value;

/// The largest width or precision `format` accepts.
const MAX_FORMAT_WIDTH: usize = 1 << 20;

/// One parsed `%` directive.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    group: bool,
    paren: bool,
    alt: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

pub fn format_fn(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let fmt = match &args[0] {
        Value::Str(s) => s.clone(),
        other => {
            return Err(args::type_error("format", "a format string", other)
                .with_hint("(format \"%s: %d\" name n) — the format string comes first"))
        }
    };
    let vals = &args[1..];
    interp.tick(vals.len() as u64 + scan_ticks(fmt.len()))?;
    let room = heap_room(interp);
    let mut out = String::with_capacity(fmt.len() + 16);
    let mut next_arg = 0usize;
    let mut last_arg: Option<usize> = None;
    let bytes = fmt.as_bytes();
    let mut i = 0;
    let mut lit_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        out.push_str(&fmt[lit_start..i]);
        let directive_start = i;
        i += 1;
        // Argument index `n$` or `<`.
        let mut explicit: Option<usize> = None;
        let mut relative = false;
        let digits_end = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |p| p + i);
        if digits_end > i && bytes.get(digits_end) == Some(&b'$') {
            explicit = fmt[i..digits_end].parse().ok();
            i = digits_end + 1;
        } else if bytes.get(i) == Some(&b'<') {
            relative = true;
            i += 1;
        }
        let mut spec = Spec::default();
        while let Some(&b) = bytes.get(i) {
            match b {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'0' => spec.zero = true,
                b',' => spec.group = true,
                b'(' => spec.paren = true,
                b'#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        let w_end = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |p| p + i);
        if w_end > i {
            spec.width = fmt[i..w_end].parse().ok();
            i = w_end;
        }
        if bytes.get(i) == Some(&b'.') {
            let p_end = bytes[i + 1..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(bytes.len(), |p| p + i + 1);
            spec.precision = Some(fmt[i + 1..p_end].parse().unwrap_or(0));
            i = p_end;
        }
        let asked = spec.width.unwrap_or(0).max(spec.precision.unwrap_or(0));
        if asked > room.min(MAX_FORMAT_WIDTH) {
            return Err(Error::execution(format!(
                "format: the width or precision {asked} in {} is too large",
                &fmt[directive_start..i.min(fmt.len())]
            )));
        }
        let Some(conv) = fmt[i..].chars().next() else {
            return Err(Error::execution(format!(
                "format: the format string ends inside the directive \"{}\"",
                &fmt[directive_start..]
            ))
            .with_hint("write %% for a literal percent sign"));
        };
        i += conv.len_utf8();
        lit_start = i;
        let directive = &fmt[directive_start..i];
        if conv == '%' {
            pad(&mut out, "%", &spec, false);
            continue;
        }
        if conv == 'n' {
            out.push('\n');
            continue;
        }
        let idx = if relative {
            last_arg.ok_or_else(|| {
                Error::execution(format!(
                    "format: {directive} refers to a previous argument, but there is none"
                ))
            })?
        } else if let Some(n) = explicit {
            n.checked_sub(1).ok_or_else(|| {
                Error::execution(format!(
                    "format: argument index 0 in {directive}; indices start at 1"
                ))
            })?
        } else {
            next_arg += 1;
            next_arg - 1
        };
        let Some(arg) = vals.get(idx) else {
            return Err(Error::execution(format!(
                "format: {directive} needs argument {} but only {} {} given",
                idx + 1,
                vals.len(),
                if vals.len() == 1 { "was" } else { "were" }
            )));
        };
        last_arg = Some(idx);
        format_one(&mut out, conv, &spec, arg, directive)?;
        if out.len() > room {
            return Err(out_of_room(interp));
        }
    }
    out.push_str(&fmt[lit_start..]);
    built(interp, out)
}

/// Pads `body` to the spec's width (spaces, or zeros after the sign for
/// numbers with the `0` flag).
fn pad(out: &mut String, body: &str, spec: &Spec, numeric: bool) {
    let len = body.chars().count();
    let width = spec.width.unwrap_or(0);
    if len >= width {
        out.push_str(body);
        return;
    }
    let fill = width - len;
    if spec.left {
        out.push_str(body);
        out.push_str(&" ".repeat(fill));
    } else if spec.zero && numeric {
        let sign_len = body
            .chars()
            .take_while(|c| matches!(c, '-' | '+' | ' ' | '('))
            .count();
        let (sign, digits) = body.split_at(sign_len);
        out.push_str(sign);
        out.push_str(&"0".repeat(fill));
        out.push_str(digits);
    } else {
        out.push_str(&" ".repeat(fill));
        out.push_str(body);
    }
}

fn format_one(
    out: &mut String,
    conv: char,
    spec: &Spec,
    arg: &Value,
    directive: &str,
) -> Result<()> {
    let wrong = |expected: &str| {
        Error::type_error(format!(
            "format: {directive} expects {expected}, got {}",
            arg.describe()
        ))
    };
    match conv {
        's' | 'S' => {
            // Java's toString, except that nil shows as nil.
            let mut s = match arg {
                Value::Nil => "nil".to_string(),
                other => format::display(other),
            };
            if let Some(p) = spec.precision {
                s.truncate(byte_at(&s, p));
            }
            if conv == 'S' {
                s = s.to_uppercase();
            }
            pad(out, &s, spec, false);
        }
        'd' => {
            let n = match arg {
                Value::Int(n) => *n,
                Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => *f as i64,
                Value::Float(_) => {
                    return Err(wrong("an integer").with_hint(
                        "use %.0f or %.2f for a float, or (long x) to drop the fraction",
                    ))
                }
                _ => return Err(wrong("an integer")),
            };
            let digits = n.unsigned_abs().to_string();
            let digits = if spec.group { group3(&digits) } else { digits };
            let body = signed(n < 0, &digits, spec);
            pad(out, &body, spec, true);
        }
        'x' | 'X' | 'o' => {
            let n = match arg {
                Value::Int(n) => *n,
                _ => return Err(wrong("an integer")),
            };
            let mut body = match conv {
                'o' => format!("{:o}", n as u64),
                _ => format!("{:x}", n as u64),
            };
            if spec.alt {
                body.insert_str(0, if conv == 'o' { "0" } else { "0x" });
            }
            if conv == 'X' {
                body = body.to_uppercase();
            }
            pad(out, &body, spec, true);
        }
        'f' | 'e' | 'E' | 'g' | 'G' => {
            let f = match arg {
                Value::Int(n) => *n as f64,
                Value::Float(f) => *f,
                _ => return Err(wrong("a number")),
            };
            if !f.is_finite() {
                let body = if f.is_nan() {
                    "NaN".to_string()
                } else {
                    signed(f < 0.0, "Infinity", spec)
                };
                pad(out, &body, &Spec { zero: false, ..*spec }, false);
                return Ok(());
            }
            let prec = spec.precision.unwrap_or(6);
            let mut digits = match conv {
                'f' => fixed(f.abs(), prec),
                'e' | 'E' => scientific(f.abs(), prec),
                _ => general(f.abs(), prec),
            };
            if spec.group && !digits.contains('e') {
                let int_end = digits.find('.').unwrap_or(digits.len());
                digits = format!("{}{}", group3(&digits[..int_end]), &digits[int_end..]);
            }
            if conv.is_ascii_uppercase() {
                digits = digits.to_uppercase();
            }
            let negative = f < 0.0 || (f == 0.0 && f.is_sign_negative());
            let body = signed(negative, &digits, spec);
            pad(out, &body, spec, true);
        }
        'b' | 'B' => {
            let b = match arg {
                Value::Nil => false,
                Value::Bool(b) => *b,
                _ => true,
            };
            let mut s = b.to_string();
            if let Some(p) = spec.precision {
                s.truncate(p);
            }
            if conv == 'B' {
                s = s.to_uppercase();
            }
            pad(out, &s, spec, false);
        }
        'c' | 'C' => {
            let c = match arg {
                Value::Str(s) if s.chars().count() == 1 => s.to_string(),
                Value::Int(n) => u32::try_from(*n)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
                    .ok_or_else(|| wrong("a character or code point"))?,
                _ => return Err(wrong("a character")),
            };
            let c = if conv == 'C' { c.to_uppercase() } else { c };
            pad(out, &c, spec, false);
        }
        other => {
            return Err(Error::execution(format!(
                "format: unsupported conversion %{other} in {directive}"
            ))
            .with_hint("supported: %s %d %f %e %g %x %o %b %c %% %n, with flags - + 0 , and width/precision like %-10s %08.2f"))
        }
    }
    Ok(())
}

fn signed(negative: bool, digits: &str, spec: &Spec) -> String {
    if negative {
        if spec.paren {
            format!("({digits})")
        } else {
            format!("-{digits}")
        }
    } else if spec.plus {
        format!("+{digits}")
    } else if spec.space {
        format!(" {digits}")
    } else {
        digits.to_string()
    }
}

/// `1234567` → `1,234,567`.
fn group3(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The shortest round-trip decimal digits of a finite `f >= 0` and the
/// position of the decimal point: `12.5` → (`"125"`, 2), `0.05` → (`"5"`, -1).
fn shortest_digits(f: f64) -> (Vec<u8>, i64) {
    let s = format!("{f:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    (digits, exp + 1)
}

/// Keeps the first `keep` digits, rounding half up on the next one (as
/// Java's Formatter does on the shortest representation: `%.2f` of 2.675 is
/// `2.68`). Returns the digits and the (possibly moved) point.
fn round_digits(digits: &[u8], point: i64, keep: i64) -> (Vec<u8>, i64) {
    if keep < 0 {
        return (Vec::new(), point);
    }
    let keep = keep as usize;
    let mut kept: Vec<u8> = digits.iter().copied().take(keep).collect();
    kept.resize(keep, 0);
    let round_up = digits.get(keep).is_some_and(|&d| d >= 5);
    let mut point = point;
    if round_up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                point += 1;
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    (kept, point)
}

/// `%.Nf` of `f >= 0`.
fn fixed(f: f64, prec: usize) -> String {
    let (digits, point) = shortest_digits(f);
    let (kept, _) = round_digits(&digits, point, point + prec as i64);
    // kept = value × 10^prec as digits (when a carry prepends a digit, it is
    // still value × 10^prec).
    let mut scaled: String = kept.iter().map(|d| (b'0' + d) as char).collect();
    let scaled_trim = scaled.trim_start_matches('0');
    scaled = if scaled_trim.is_empty() {
        "0".to_string()
    } else {
        scaled_trim.to_string()
    };
    if scaled.len() <= prec {
        scaled = format!("{}{}", "0".repeat(prec + 1 - scaled.len()), scaled);
    }
    if prec == 0 {
        return scaled;
    }
    let split = scaled.len() - prec;
    format!("{}.{}", &scaled[..split], &scaled[split..])
}

/// `%.Ne` of `f >= 0`: `1.234568e+04`.
fn scientific(f: f64, prec: usize) -> String {
    let (digits, point) = if f == 0.0 {
        (vec![0], 1)
    } else {
        shortest_digits(f)
    };
    let (kept, point) = round_digits(&digits, point, 1 + prec as i64);
    let exp = if f == 0.0 { 0 } else { point - 1 };
    let mut s = String::new();
    s.push((b'0' + kept[0]) as char);
    if prec > 0 {
        s.push('.');
        s.extend(kept[1..=prec].iter().map(|d| (b'0' + d) as char));
    }
    let _ = write!(s, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    s
}

/// `%.Ng` of `f >= 0`: N significant digits, fixed notation when the
/// rounded value is in [1e-4, 10^N), scientific otherwise.
fn general(f: f64, prec: usize) -> String {
    let prec = prec.max(1);
    if f == 0.0 {
        return fixed(0.0, prec - 1);
    }
    let (digits, point) = shortest_digits(f);
    let (_, rounded_point) = round_digits(&digits, point, prec as i64);
    let exp = rounded_point - 1;
    if exp >= -4 && exp < prec as i64 {
        fixed(f, (prec as i64 - 1 - exp).max(0) as usize)
    } else {
        scientific(f, prec - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::value::Func;

    fn s(x: &str) -> Value {
        Value::from(x)
    }
    fn strs(xs: &[&str]) -> Value {
        Value::vector_from(xs.iter().map(|x| Value::from(*x)))
    }
    fn re(src: &str) -> Value {
        Value::Regex(compile_regex(src).unwrap())
    }
    fn call(f: super::super::BuiltinFn, args: &[Value]) -> Result<Value> {
        let mut interp = Interp::standalone();
        f(&mut interp, args)
    }
    fn ok(f: super::super::BuiltinFn, args: &[Value]) -> String {
        match call(f, args) {
            Ok(v) => format::to_clojure(&v, None, None).0,
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    fn err(f: super::super::BuiltinFn, args: &[Value]) -> ErrorKind {
        match call(f, args) {
            Ok(v) => panic!("expected an error, got {v}"),
            Err(e) => e.kind(),
        }
    }

    #[test]
    fn registry_names() {
        for name in [
            "blank?",
            "capitalize",
            "ends-with?",
            "escape",
            "includes?",
            "index-of",
            "join",
            "last-index-of",
            "lower-case",
            "replace",
            "replace-first",
            "reverse",
            "split",
            "split-lines",
            "starts-with?",
            "trim",
            "trim-newline",
            "triml",
            "trimr",
            "upper-case",
            "upcase",
            "downcase",
        ] {
            assert!(
                super::super::lookup_in(Ns::String, name).is_some(),
                "{name}"
            );
        }
        for name in [
            "str",
            "subs",
            "format",
            "re-find",
            "re-matches",
            "re-seq",
            "re-pattern",
            "char",
            "print-str",
            "pr-str",
            "prn-str",
            "name",
            "namespace",
            "keyword",
            "symbol",
        ] {
            assert!(super::super::lookup_in(Ns::Core, name).is_some(), "{name}");
        }
        assert!(super::super::lookup_in(Ns::Core, "join").is_none());
    }

    #[test]
    fn str_concatenates_displays() {
        assert_eq!(ok(str_fn, &[]), "\"\"");
        assert_eq!(ok(str_fn, &[Value::Int(42)]), "\"42\"");
        assert_eq!(ok(str_fn, &[Value::Float(2.25)]), "\"2.25\"");
        assert_eq!(ok(str_fn, &[Value::Bool(false)]), "\"false\"");
        assert_eq!(ok(str_fn, &[Value::Nil, s("x")]), "\"x\"");
        assert_eq!(ok(str_fn, &[Value::Nil]), "\"\"");
        assert_eq!(
            ok(str_fn, &[Value::Float(0.1), Value::Float(0.2)]),
            "\"0.10.2\""
        );
        assert_eq!(
            ok(str_fn, &[Value::vector_from([Value::Int(1), s("a")])]),
            r#""[1 \"a\"]""#
        );
        assert_eq!(ok(str_fn, &[Value::keyword("k")]), "\":k\"");
        assert_eq!(ok(str_fn, &[s("count: "), Value::Int(42)]), "\"count: 42\"");
    }

    #[test]
    fn str_doubling_hits_the_heap_limit() {
        let mut interp = Interp::standalone();
        let mut v = s("xxxxxxxxxxxxxxxx");
        let mut result = Ok(());
        for _ in 0..40 {
            match str_fn(&mut interp, &[v.clone(), v.clone()]) {
                Ok(n) => v = n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        assert_eq!(result.map_err(|e| e.kind()), Err(ErrorKind::MemoryExceeded));
        // A hugely shared value cannot be printed into a string either.
        let mut interp = Interp::standalone();
        let mut big = Value::Int(1);
        for _ in 0..60 {
            big = Value::vector_from([big.clone(), big]);
        }
        let e = str_fn(&mut interp, &[big]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MemoryExceeded);
    }

    #[test]
    fn printing_to_strings() {
        assert_eq!(
            ok(print_str, &[s("a"), Value::Int(1), Value::Nil]),
            "\"a 1 nil\""
        );
        assert_eq!(ok(println_str, &[s("a")]), "\"a\\n\"");
        assert_eq!(ok(pr_str, &[s("a"), strs(&["b"])]), r#""\"a\" [\"b\"]""#);
        assert_eq!(ok(prn_str, &[Value::keyword("a")]), "\":a\\n\"");
        assert_eq!(ok(pr_str, &[Value::Nil]), "\"nil\"");
    }

    #[test]
    fn subs_clamps() {
        assert_eq!(ok(subs, &[s("hello"), Value::Int(1)]), "\"ello\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(0), Value::Int(0)]),
            "\"\""
        );
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(1), Value::Int(3)]),
            "\"el\""
        );
        assert_eq!(ok(subs, &[s("hello"), Value::Int(-1)]), "\"hello\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(-10), Value::Int(2)]),
            "\"he\""
        );
        assert_eq!(ok(subs, &[s("hello"), Value::Int(10)]), "\"\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(3), Value::Int(10)]),
            "\"lo\""
        );
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(4), Value::Int(2)]),
            "\"\""
        );
        assert_eq!(
            ok(subs, &[s("λμνξ"), Value::Int(1), Value::Int(3)]),
            "\"μν\""
        );
        assert_eq!(err(subs, &[Value::Nil, Value::Int(1)]), ErrorKind::Type);
    }

    #[test]
    fn split_like_java() {
        assert_eq!(ok(split, &[s("hello"), s("")]), r#"["h" "e" "l" "l" "o"]"#);
        assert_eq!(ok(split, &[s("a,,b"), s(",")]), r#"["a" "" "b"]"#);
        assert_eq!(ok(split, &[s("a,b,,"), s(",")]), r#"["a" "b"]"#);
        assert_eq!(ok(split, &[s(",a"), s(",")]), r#"["" "a"]"#);
        assert_eq!(ok(split, &[s(""), s(",")]), r#"[""]"#);
        assert_eq!(ok(split, &[s("a b  c"), re(" +")]), r#"["a" "b" "c"]"#);
        assert_eq!(ok(split, &[s("a b"), re(" ")]), r#"["a" "b"]"#);
        assert_eq!(
            ok(split, &[s("a,b,c"), s(","), Value::Int(2)]),
            r#"["a" "b,c"]"#
        );
        assert_eq!(
            ok(split, &[s("a,b,,"), s(","), Value::Int(-1)]),
            r#"["a" "b" "" ""]"#
        );
        assert_eq!(ok(split, &[s("abc"), re("")]), r#"["a" "b" "c"]"#);
    }

    #[test]
    fn split_lines_cases() {
        assert_eq!(ok(split_lines, &[s("a\nb\r\nc")]), r#"["a" "b" "c"]"#);
        assert_eq!(
            ok(split_lines, &[s("line1\nline2\n\n\n")]),
            r#"["line1" "line2"]"#
        );
        assert_eq!(
            ok(split_lines, &[s("line1\n\nline3")]),
            r#"["line1" "" "line3"]"#
        );
        assert_eq!(ok(split_lines, &[s("\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\n\n\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\r\n\r\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\nline1")]), r#"["" "line1"]"#);
        assert_eq!(ok(split_lines, &[s("\r")]), r#"["\r"]"#);
        assert_eq!(ok(split_lines, &[s("a\rb")]), r#"["a\rb"]"#);
        assert_eq!(ok(split_lines, &[s("")]), r#"[""]"#);
    }

    #[test]
    fn join_cases() {
        assert_eq!(ok(join, &[s(", "), strs(&["a", "b", "c"])]), "\"a, b, c\"");
        assert_eq!(
            ok(
                join,
                &[s("-"), Value::vector_from([1, 2, 3].map(Value::Int))]
            ),
            "\"1-2-3\""
        );
        assert_eq!(ok(join, &[strs(&["a", "b", "c"])]), "\"abc\"");
        assert_eq!(ok(join, &[s(","), Value::empty_vector()]), "\"\"");
        assert_eq!(
            ok(
                join,
                &[s(","), Value::vector_from([s("a"), Value::Nil, s("b")])]
            ),
            "\"a,,b\""
        );
        assert_eq!(ok(join, &[s(""), s("cba")]), "\"cba\"");
        assert_eq!(ok(join, &[s(","), Value::Nil]), "\"\"");
        assert_eq!(err(join, &[strs(&["a"]), s(",")]), ErrorKind::Type);
    }

    #[test]
    fn trims_and_cases() {
        assert_eq!(ok(trim, &[s("\n\tworld\r\n")]), "\"world\"");
        assert_eq!(ok(trim, &[s("  hi  ")]), "\"hi\"");
        assert_eq!(ok(triml, &[s("  hi  ")]), "\"hi  \"");
        assert_eq!(ok(trimr, &[s("  hi  ")]), "\"  hi\"");
        assert_eq!(ok(trim_newline, &[s("hi\r\n\n")]), "\"hi\"");
        assert_eq!(ok(upper_case, &[s("HeLLo")]), "\"HELLO\"");
        assert_eq!(ok(lower_case, &[s("WORLD")]), "\"world\"");
        assert_eq!(ok(capitalize, &[s("hELLO")]), "\"Hello\"");
        assert_eq!(ok(capitalize, &[s("")]), "\"\"");
        assert_eq!(ok(reverse, &[s("abc")]), "\"cba\"");
        assert_eq!(ok(blank, &[Value::Nil]), "true");
        assert_eq!(ok(blank, &[s(" \t\n")]), "true");
        assert_eq!(ok(blank, &[s(" a ")]), "false");
        assert_eq!(err(upper_case, &[Value::Nil]), ErrorKind::Type);
    }

    #[test]
    fn predicates_and_indices() {
        assert_eq!(ok(starts_with, &[s("hello"), s("he")]), "true");
        assert_eq!(ok(starts_with, &[s("hello"), s("lo")]), "false");
        assert_eq!(ok(ends_with, &[s("hello"), s("lo")]), "true");
        assert_eq!(ok(ends_with, &[s("hello"), s("")]), "true");
        assert_eq!(ok(includes, &[s("hello"), s("ll")]), "true");
        assert_eq!(ok(includes, &[s("hello"), s("x")]), "false");
        assert_eq!(ok(includes, &[s("hello"), s("")]), "true");
        assert_eq!(ok(index_of, &[s("hello"), s("l")]), "2");
        assert_eq!(ok(index_of, &[s("hello"), s("l"), Value::Int(3)]), "3");
        assert_eq!(ok(index_of, &[s("hello"), s("z")]), "nil");
        assert_eq!(ok(index_of, &[s("λλx"), s("x")]), "2");
        assert_eq!(ok(last_index_of, &[s("hello"), s("l")]), "3");
        assert_eq!(ok(last_index_of, &[s("hello"), s("l"), Value::Int(2)]), "2");
        assert_eq!(
            ok(last_index_of, &[s("hello"), s("l"), Value::Int(1)]),
            "nil"
        );
        assert_eq!(ok(last_index_of, &[s("λλxλx"), s("x")]), "4");
    }

    #[test]
    fn replace_cases() {
        assert_eq!(ok(replace, &[s("hello"), s("l"), s("L")]), "\"heLLo\"");
        assert_eq!(ok(replace, &[s("aaa"), s("a"), s("b")]), "\"bbb\"");
        assert_eq!(ok(replace, &[s("aXb"), s("X"), s("$1")]), "\"a$1b\"");
        assert_eq!(ok(replace, &[s("a1b22"), re("\\d+"), s("#")]), "\"a#b#\"");
        assert_eq!(
            ok(
                replace,
                &[s("john smith"), re("(\\w+) (\\w+)"), s("$2, $1")]
            ),
            "\"smith, john\""
        );
        assert_eq!(ok(replace, &[s("a.b"), re("\\."), s("\\$")]), "\"a$b\"");
        assert_eq!(
            err(replace, &[s("ab"), re("(a)"), s("$2")]),
            ErrorKind::Execution
        );
        let up = Func::native("up", |_, args| {
            Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase()))
        });
        assert_eq!(ok(replace, &[s("a b"), re("[a-z]"), up.clone()]), "\"A B\"");
        let first_group = Func::native("g", |_, args| {
            Ok(args[0]
                .as_vector()
                .and_then(|v| v.get(1).cloned())
                .unwrap_or(Value::Nil))
        });
        assert_eq!(
            ok(replace, &[s("x1 y2"), re("[a-z](\\d)"), first_group]),
            "\"1 2\""
        );
        assert_eq!(
            ok(replace_first, &[s("a-b-c"), s("-"), s("+")]),
            "\"a+b-c\""
        );
        assert_eq!(
            ok(replace_first, &[s("a1b2"), re("\\d"), s("<$0>")]),
            "\"a<1>b2\""
        );
        let bang = Func::native("bang", |_, _| Ok(Value::from("!")));
        assert_eq!(ok(replace, &[s("a.b.c"), s("."), bang]), "\"a!b!c\"");
        assert_eq!(ok(replace, &[s("ab"), re("[a-z]"), up]), "\"AB\"");
    }

    #[test]
    fn regex_functions() {
        assert_eq!(ok(re_find, &[re("\\d+"), s("v1")]), "\"1\"");
        assert_eq!(ok(re_find, &[re("\\d+"), s("abc")]), "nil");
        assert_eq!(
            ok(re_find, &[re("(\\d+)-(\\d+)"), s("range: 10-20")]),
            r#"["10-20" "10" "20"]"#
        );
        assert_eq!(ok(re_find, &[re("(a)|(b)"), s("b")]), r#"["b" nil "b"]"#);
        assert_eq!(ok(re_matches, &[re("\\d+"), s("123")]), "\"123\"");
        assert_eq!(ok(re_matches, &[re("(\\d+)"), s("x1")]), "nil");
        assert_eq!(
            ok(re_matches, &[re("(\\w+)@(\\w+)"), s("bob@host")]),
            r#"["bob@host" "bob" "host"]"#
        );
        assert_eq!(ok(re_matches, &[re("a|ab"), s("ab")]), "\"ab\"");
        assert_eq!(
            ok(re_seq, &[re("\\d+"), s("a1 b22 c333")]),
            r#"["1" "22" "333"]"#
        );
        assert_eq!(ok(re_seq, &[re("\\d+"), s("abc")]), "nil");
        assert_eq!(
            ok(re_seq, &[re("(\\w)(\\d)"), s("a1 b2")]),
            r#"[["a1" "a" "1"] ["b2" "b" "2"]]"#
        );
        assert_eq!(ok(re_find, &[re("x"), Value::Nil]), "nil");
        let long = format!("{}last", "λ".repeat(5000));
        assert_eq!(ok(re_find, &[re("last"), s(&long)]), "\"last\"");
        assert_eq!(ok(re_pattern, &[s("\\d+")]), r#"#"\d+""#);
        assert_eq!(err(re_pattern, &[s("[")]), ErrorKind::Execution);
        let e = call(re_pattern, &[s("a(?=b)")]).unwrap_err();
        assert!(e.hint().is_some_and(|h| h.contains("lookahead")));
    }

    #[test]
    fn java_regex_syntax_is_translated() {
        let m = |src: &str, text: &str| ok(re_find, &[re(src), s(text)]);
        assert_eq!(m("\\p{Alpha}+", "12abc3"), "\"abc\"");
        assert_eq!(m("\\p{Punct}", "ab!c"), "\"!\"");
        assert_eq!(m("\\Qa.b\\E", "axb a.b"), "\"a.b\"");
        assert_eq!(m("a++b", "aaab"), "\"aaab\"");
        assert_eq!(m("(?>ab)c", "abc"), "\"abc\"");
        assert_eq!(m("\\p{IsAlphabetic}+", "1ab"), "\"ab\"");
        assert_eq!(m("x\\h+y", "x \t y"), "\"x \\t y\"");
    }

    #[test]
    fn format_directives() {
        let f = |args: &[Value]| ok(format_fn, args);
        assert_eq!(f(&[s("%s-%s"), s("a"), Value::Int(1)]), "\"a-1\"");
        assert_eq!(f(&[s("%d items"), Value::Int(3)]), "\"3 items\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(1.23456)]), "\"1.23\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(2.675)]), "\"2.68\"");
        assert_eq!(f(&[s("%.2f"), Value::Int(3)]), "\"3.00\"");
        assert_eq!(f(&[s("%f"), Value::Float(1.5)]), "\"1.500000\"");
        assert_eq!(f(&[s("%.0f"), Value::Float(2.5)]), "\"3\"");
        assert_eq!(f(&[s("%.1f"), Value::Float(0.05)]), "\"0.1\"");
        assert_eq!(f(&[s("%.1f"), Value::Float(9.96)]), "\"10.0\"");
        assert_eq!(f(&[s("%.3f"), Value::Float(0.0004)]), "\"0.000\"");
        assert_eq!(f(&[s("%.3f"), Value::Float(0.0005)]), "\"0.001\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(-1.005)]), "\"-1.01\"");
        assert_eq!(f(&[s("%5d|"), Value::Int(42)]), "\"   42|\"");
        assert_eq!(f(&[s("%-5s|"), s("ab")]), "\"ab   |\"");
        assert_eq!(f(&[s("%05d"), Value::Int(-42)]), "\"-0042\"");
        assert_eq!(f(&[s("%,d"), Value::Int(1234567)]), "\"1,234,567\"");
        assert_eq!(
            f(&[s("%,.2f"), Value::Float(1234567.891)]),
            "\"1,234,567.89\""
        );
        assert_eq!(f(&[s("%+d"), Value::Int(5)]), "\"+5\"");
        assert_eq!(
            f(&[s("%x %X"), Value::Int(255), Value::Int(255)]),
            "\"ff FF\""
        );
        assert_eq!(f(&[s("100%%%n")]), "\"100%\\n\"");
        assert_eq!(f(&[s("%e"), Value::Float(12345.678)]), "\"1.234568e+04\"");
        assert_eq!(f(&[s("%.2e"), Value::Float(0.000123)]), "\"1.23e-04\"");
        assert_eq!(f(&[s("%g"), Value::Float(0.0001)]), "\"0.000100000\"");
        assert_eq!(f(&[s("%g"), Value::Float(123456789.0)]), "\"1.23457e+08\"");
        assert_eq!(
            f(&[s("%b %b"), Value::Nil, Value::Int(0)]),
            "\"false true\""
        );
        assert_eq!(f(&[s("%c%c"), s("a"), Value::Int(98)]), "\"ab\"");
        assert_eq!(f(&[s("%2$s %1$s"), s("a"), s("b")]), "\"b a\"");
        assert_eq!(f(&[s("%s"), Value::Nil]), "\"nil\"");
        assert_eq!(
            f(&[
                s("%s"),
                Value::map_from([(Value::keyword("a"), Value::Int(1))])
            ]),
            "\"{:a 1}\""
        );
        assert_eq!(f(&[s("%.3s"), s("abcdef")]), "\"abc\"");
        assert_eq!(f(&[s("%d"), Value::Float(5.0)]), "\"5\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(0.0)]), "\"0.00\"");
        assert_eq!(
            f(&[s("%.1f"), Value::Float(1e20)]),
            "\"100000000000000000000.0\""
        );
        assert_eq!(
            err(format_fn, &[s("%d"), Value::Float(1.5)]),
            ErrorKind::Type
        );
        assert_eq!(err(format_fn, &[s("%d")]), ErrorKind::Execution);
        assert_eq!(
            err(format_fn, &[s("%q"), Value::Int(1)]),
            ErrorKind::Execution
        );
        assert_eq!(err(format_fn, &[s("50%")]), ErrorKind::Execution);
        assert_eq!(
            err(format_fn, &[s("%99999999999s"), s("x")]),
            ErrorKind::Execution
        );
        assert_eq!(
            err(format_fn, &[s("%.99999999999f"), Value::Float(1.0)]),
            ErrorKind::Execution
        );
    }

    #[test]
    fn names_and_keywords() {
        assert_eq!(ok(name_fn, &[Value::keyword("user/id")]), "\"id\"");
        assert_eq!(ok(name_fn, &[Value::keyword("id")]), "\"id\"");
        assert_eq!(ok(name_fn, &[s("a/b")]), "\"a/b\"");
        assert_eq!(ok(name_fn, &[Value::symbol("x")]), "\"x\"");
        assert_eq!(err(name_fn, &[Value::Nil]), ErrorKind::Type);
        assert_eq!(ok(namespace_fn, &[Value::keyword("user/id")]), "\"user\"");
        assert_eq!(ok(namespace_fn, &[Value::keyword("id")]), "nil");
        assert_eq!(ok(keyword_fn, &[s("status")]), ":status");
        assert_eq!(ok(keyword_fn, &[Value::keyword("a")]), ":a");
        assert_eq!(ok(keyword_fn, &[Value::Nil]), "nil");
        assert_eq!(ok(keyword_fn, &[Value::Int(1)]), "nil");
        assert_eq!(ok(keyword_fn, &[s("ns"), s("n")]), ":ns/n");
        assert_eq!(ok(keyword_fn, &[Value::Nil, s("n")]), ":n");
        assert_eq!(ok(symbol_fn, &[s("x")]), "x");
        assert_eq!(ok(symbol_fn, &[s("ns"), s("x")]), "ns/x");
        assert_eq!(ok(char_fn, &[Value::Int(97)]), "\"a\"");
        assert_eq!(ok(char_fn, &[s("a")]), "\"a\"");
        assert_eq!(err(char_fn, &[Value::Int(-1)]), ErrorKind::Execution);
    }

    #[test]
    fn escape_with_map_and_fn() {
        let m = Value::map_from([(s("<"), s("&lt;")), (s(">"), s("&gt;"))]);
        assert_eq!(ok(escape, &[s("a<b>"), m]), "\"a&lt;b&gt;\"");
        let f = Func::native("f", |_, args| {
            Ok(if args[0].as_str() == Some("a") {
                Value::Int(1)
            } else {
                Value::Nil
            })
        });
        assert_eq!(ok(escape, &[s("abc"), f]), "\"1bc\"");
    }
}
