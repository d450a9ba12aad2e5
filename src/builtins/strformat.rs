//! Builtin `format`: Java's `String.format` directives (`%s %d %f %e %g %x
//! %o %b %c %% %n`, flags `- + 0 , ( # space`, width, precision, `1$` and
//! `<` argument references), with Java's rounding and Java's strictness:
//! `%d` takes only integers and `%f %e %g` only floats (`(format "%d" 3.0)`
//! and `(format "%.2f" 3)` are `type-error`s, as in Clojure).

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
        let fits = format_one(&mut out, conv, &spec, arg, directive, room)?;
        if !fits || out.len() > room {
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
    room: usize,
) -> Result<bool> {
    // A width alone could ask for more than the budget: checked first.
    if spec.width.unwrap_or(0) > room.saturating_sub(out.len()) {
        return Ok(false);
    }
    let wrong = |expected: &str| {
        Error::type_error(format!(
            "format: {directive} expects {expected}, got {}",
            arg.describe()
        ))
    };
    match conv {
        's' | 'S' => {
            // Java's toString: nil is "null", as in Clojure.
            // Printing stops at the heap budget (a self-sharing value
            // could print forever).
            let mut s = match arg {
                Value::Nil => "null".to_string(),
                other => match format::display_within(other, format::Style::Str, room) {
                    Some(s) => s,
                    None => return Ok(false),
                },
            };
            if let Some(p) = spec.precision {
                s.truncate(byte_at(s.as_str(), p));
            }
            if conv == 'S' {
                s = s.to_uppercase();
            }
            pad(out, &s, spec, false);
        }
        'd' => {
            let n = match arg {
                Value::Int(n) => *n,
                // As Java: %d of any float (even 3.0) is an error.
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
                // As Java: %f of an integer is an error.
                Value::Float(f) => *f,
                Value::Int(_) => {
                    return Err(wrong("a float")
                        .with_hint("use %d for an integer, or (double x) to format it as a float"))
                }
                _ => return Err(wrong("a float")),
            };
            if !f.is_finite() {
                let body = if f.is_nan() {
                    "NaN".to_string()
                } else {
                    signed(f < 0.0, "Infinity", spec)
                };
                pad(out, &body, &Spec { zero: false, ..*spec }, false);
                return Ok(true);
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
                Value::Str(s) if crate::builtins::args::is_one_char(s) => s.to_string(),
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
    Ok(true)
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
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
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
