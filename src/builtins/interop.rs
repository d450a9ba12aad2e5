//! Builtins: the only Java interop PTC-Lisp has — date helpers
//! (`language.md` Principle 4).
//!
//! Decision (the spec does not say how dates are represented): a
//! `java.util.Date` is a plain, self-describing map
//! `{:type :date :epoch-ms 1767882600000 :iso "2026-01-08T14:30:00Z"}`, so
//! an LLM reading it in a prompt understands it, `=` and sorting work, and no
//! new value kind is needed. A `java.time.LocalDate` is its ISO text
//! `"2023-10-27"` (what Clojure's `str` of one gives). `.getTime` accepts only
//! dates (`type-error` otherwise). The clock is the host's: without one,
//! `(java.util.Date.)` and `System/currentTimeMillis` are `execution-error`s.

use super::args::type_error;
use super::{Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::Value;

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("java.util.Date.", Arity::range(0, 1), "A date from epoch milliseconds or a date string (ISO 8601, RFC 2822); no argument: now (host clock).", date_new)
        .example("(.getTime (java.util.Date. \"2026-01-08\")) ;=> 1767830400000"),
    Builtin::new(".getTime", Arity::exact(1), "Epoch milliseconds of a date.", get_time)
        .example("(.getTime (java.util.Date. 1000)) ;=> 1000"),
    Builtin::new("current-time-millis", Arity::exact(0), "System/currentTimeMillis: the host's clock in epoch milliseconds.", current_time_millis)
        .example("(System/currentTimeMillis) ;=> 1767830400000"),
    Builtin::new("local-date-parse", Arity::exact(1), "java.time.LocalDate/parse: validates a YYYY-MM-DD date and returns it as a string.", local_date_parse)
        .example("(str (LocalDate/parse \"2023-10-27\")) ;=> \"2023-10-27\""),
];

/// The map that represents a date.
pub fn date_value(ms: i64) -> Value {
    Value::map_from([
        (Value::keyword("type"), Value::keyword("date")),
        (Value::keyword("epoch-ms"), Value::Int(ms)),
        (Value::keyword("iso"), Value::string(iso_string(ms))),
    ])
}

fn host_now(interp: &Interp, what: &str) -> Result<i64> {
    interp.host.current_time_millis().ok_or_else(|| {
        Error::execution(format!("{what} needs a clock, and this session has none"))
            .with_hint("programs are deterministic; take the time from data/ or a tool")
    })
}

fn date_new(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match args.first() {
        None => Ok(date_value(host_now(interp, "(java.util.Date.)")?)),
        Some(Value::Int(ms)) => Ok(date_value(*ms)),
        Some(Value::Str(s)) => parse_date_time(s).map(date_value).ok_or_else(|| {
            Error::type_error(format!("java.util.Date. cannot parse the date {s:?}"))
                .with_hint("use ISO 8601 (2026-01-08T14:30:00Z or 2026-01-08) or RFC 2822 (Wed, 8 Jan 2026 14:30:00 +0000)")
        }),
        Some(other) => Err(type_error("java.util.Date.", "epoch milliseconds or a date string", other)),
    }
}

fn get_time(_: &mut Interp, args: &[Value]) -> Result<Value> {
    if let Value::Map(m) = &args[0] {
        if m.get(&Value::keyword("type")) == Some(&Value::keyword("date")) {
            if let Some(ms @ Value::Int(_)) = m.get(&Value::keyword("epoch-ms")) {
                return Ok(ms.clone());
            }
        }
    }
    Err(type_error(
        ".getTime",
        "a date (from java.util.Date.)",
        &args[0],
    ))
}

fn current_time_millis(interp: &mut Interp, _: &[Value]) -> Result<Value> {
    Ok(Value::Int(host_now(interp, "System/currentTimeMillis")?))
}

fn local_date_parse(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = match &args[0] {
        Value::Str(s) => s,
        other => {
            return Err(type_error(
                "LocalDate/parse",
                "a date string like \"2023-10-27\"",
                other,
            ))
        }
    };
    match parse_ymd(s) {
        Some(_) if s.len() == 10 => Ok(Value::Str(s.clone())),
        _ => Err(Error::type_error(format!(
            "LocalDate/parse cannot parse {s:?}; expected YYYY-MM-DD"
        ))
        .with_class("DateTimeParseException")
        .with_hint("LocalDate/parse takes an ISO date like \"2024-01-31\"")),
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn iso_string(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, min, s, milli) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    if milli == 0 {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}Z")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
    }
}

pub(crate) fn parse_ymd(s: &str) -> Option<(i64, i64, i64)> {
    let mut parts = s.get(..10)?.split('-');
    let y = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    ((1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d)).then_some((y, m, d))
}

/// The days of month `m` (1-12) of year `y` (proleptic Gregorian).
pub(crate) fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `HH:MM[:SS[.fff]]` → milliseconds.
fn parse_hms(s: &str) -> Option<i64> {
    let (hms, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut parts = hms.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let sec: i64 = parts.next().map_or(Some(0), |p| p.parse().ok())?;
    // Fractions are ASCII digits: anything else (`.12é`) is not a time,
    // and is never sliced inside a character.
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let milli: i64 = if frac.is_empty() {
        0
    } else {
        format!("{:0<3}", &frac[..frac.len().min(3)]).parse().ok()?
    };
    let in_range = (0..24).contains(&h) && (0..60).contains(&m) && (0..61).contains(&sec);
    in_range.then(|| ((h * 60 + m) * 60 + sec) * 1000 + milli)
}

/// `Z`, `+0000`, `+00:00`, `-05:00` → offset in milliseconds.
fn parse_offset(s: &str) -> Option<i64> {
    if s == "Z" || s == "GMT" || s == "UTC" || s.is_empty() {
        return Some(0);
    }
    let sign = match s.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = s[1..].chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i64 = digits[..2].parse().ok()?;
    let m: i64 = digits[2..].parse().ok()?;
    Some(sign * (h * 60 + m) * 60_000)
}

/// ISO 8601 (`2026-01-08`, `2026-01-08T14:30:00Z`, with offsets and
/// fractions) or RFC 2822 (`Wed, 8 Jan 2026 14:30:00 +0000`).
pub fn parse_date_time(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some((y, m, d)) = parse_ymd(s) {
        let day_ms = days_from_civil(y, m, d) * 86_400_000;
        let rest = &s[10..];
        if rest.is_empty() {
            return Some(day_ms);
        }
        let rest = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '))?;
        let split = rest.find(['Z', '+', '-']).unwrap_or(rest.len());
        let time = parse_hms(&rest[..split])?;
        let offset = parse_offset(&rest[split..])?;
        return Some(day_ms + time - offset);
    }
    parse_rfc2822(s)
}

/// The years a date may have (Java's `Instant` range, about): the
/// millisecond arithmetic cannot overflow inside it.
const YEARS: std::ops::RangeInclusive<i64> = -999_999..=999_999;

fn parse_rfc2822(s: &str) -> Option<i64> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let s = s.split_once(',').map_or(s, |(_, rest)| rest).trim();
    let mut parts = s.split_whitespace();
    let d: i64 = parts.next()?.parse().ok()?;
    let mon = parts.next()?.to_ascii_lowercase();
    let m = MONTHS.iter().position(|x| mon.starts_with(x))? as i64 + 1;
    let y: i64 = parts.next()?.parse().ok()?;
    if !(1..=31).contains(&d) || !YEARS.contains(&y) {
        return None;
    }
    let time = parts.next().map_or(Some(0), parse_hms)?;
    let offset = parts.next().map_or(Some(0), parse_offset)?;
    Some(days_from_civil(y, m, d) * 86_400_000 + time - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_formats() {
        assert_eq!(
            parse_date_time("2026-01-08T14:30:00Z"),
            Some(1_767_882_600_000)
        );
        assert_eq!(parse_date_time("2026-01-08"), Some(1_767_830_400_000));
        assert_eq!(
            parse_date_time("Wed, 8 Jan 2026 14:30:00 +0000"),
            Some(1_767_882_600_000)
        );
        assert_eq!(
            parse_date_time("2026-01-08T15:30:00+01:00"),
            Some(1_767_882_600_000)
        );
        assert_eq!(parse_date_time("yesterday"), None);
    }

    #[test]
    fn malformed_text_is_not_a_date() {
        for s in [
            "2026-01-08T14:30:00.12é",
            "2026-01-08T14:30:00.é",
            "2026-01-08T14:30:00+1é2",
            "2026-01-08T14:30:00+é:12",
            "2026-01-08Té",
            "2026-01-0é",
            "é026-01-08",
            "8 Jan 2026 14:30:00.9é",
            "8 Jan 99999999999999999",
            "99999999999999 Jan 2026",
            "2026-01-08T9999999999999999:00",
        ] {
            assert_eq!(parse_date_time(s), None, "{s}");
        }
    }

    #[test]
    fn iso_round_trips() {
        assert_eq!(iso_string(1_767_882_600_000), "2026-01-08T14:30:00Z");
        assert_eq!(iso_string(-1000), "1969-12-31T23:59:59Z");
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    }
}
