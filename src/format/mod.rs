//! `to_clojure`: how values print for the LLM (`spec/format.md`).
//!
//! One printer serves everything the LLM reads: results, samples, tool call
//! arguments, `println`, `str`, `pr-str` and error previews.
//!
//! * **Syntax** (format.md table): `nil true false`, integers, floats per F-1
//!   (`format_float`), quoted strings with `\" \\ \n \t \r` escapes,
//!   `:kw`, symbols, `[a b]` for every sequential value, `{k v}` maps without
//!   commas, `#{a b}` sets, `#fn[params]`, `#"regex"`, `#'var`. Two values
//!   the spec does not list: an infinite sequence prints `#seq[infinite]` (its
//!   items cannot be known without realizing it), `(reduced x)` prints
//!   `#reduced[x]`.
//! * **Order** (F-2): maps iterate in the order their keys were first added
//!   (sorted maps in key order) and sets in the canonical order of
//!   [`crate::value::order`], so printing just iterates them.
//! * **Limits** (F-3): see [`to_clojure`].
//! * **Robustness**: printing is iterative (an explicit stack of pending
//!   work on the heap), so a 100,000-deep nested vector prints on an ordinary
//!   thread without touching the native stack; the cost is linear in the
//!   output, written into one `String`. Structurally shared values can print
//!   exponentially large (`[v v]` nested 40 times), so output can be capped:
//!   [`to_clojure_capped`] cuts the text at a byte budget (marking it
//!   truncated with a trailing `...`), and [`to_clojure`] applies
//!   [`LIMITED_OUTPUT_CAP`] whenever a limit is given (prompt text).
//! * **Time**: inside a program, printing and measuring poll the turn's
//!   deadline and interrupt flag every few thousand items
//!   ([`crate::eval::budget::should_stop`]) and give up as if the text had
//!   outgrown its room; the builtin that asked reports the `timeout`. A
//!   printer is bounded by the heap room in bytes, and by the clock too.

use std::fmt::Write as _;

use crate::eval::budget::{should_stop, STOP_POLL_EVERY};
use crate::value::{Func, Value};

mod size;
pub use size::printed_len_within;

/// The most bytes any printing produces, even "without limits"
/// ([`to_clojure`] with no limits, [`display`], `Display`): a last safety
/// net so that no path can print a self-sharing value forever. Values
/// leaving a turn are measured against a much smaller budget first
/// ([`printed_len_within`]), and printers inside a turn stop at the heap
/// budget, so real output never reaches it.
pub const HARD_OUTPUT_CAP: usize = 256 << 20;

/// The most bytes [`to_clojure`] produces when it is given a `limit` or a
/// `printable_limit` (text meant for a prompt). Without limits it prints
/// everything.
pub const LIMITED_OUTPUT_CAP: usize = 1 << 20;

/// Prints `v` in PTC-Lisp syntax, cut to `limit` items per collection and
/// `printable_limit` characters per string (format.md F-3); the flag says
/// whether anything, at any depth, was cut.
///
/// * Vectors and sets with more than `limit` items show the first ones, then
///   ` ...` and ` (N items, showing first M)` after the closing bracket.
/// * Maps show at most `limit` entries, further capped at
///   `max(printable_limit / 30, 1)` when a printable limit is set; inside a
///   map showing `k` entries, keys and values print with a printable limit of
///   `max((p - 10k) / k, 10)`.
/// * Strings longer than `printable_limit` characters show the first ones
///   followed by `...` inside the quotes.
///
/// When either limit is set, the whole text is also capped at
/// 1 MiB (`LIMITED_OUTPUT_CAP`).
pub fn to_clojure(
    v: &Value,
    limit: Option<usize>,
    printable_limit: Option<usize>,
) -> (String, bool) {
    let cap = if limit.is_some() || printable_limit.is_some() {
        Some(LIMITED_OUTPUT_CAP)
    } else {
        Some(HARD_OUTPUT_CAP)
    };
    to_clojure_capped(v, limit, printable_limit, cap)
}

/// [`to_clojure`] with an explicit cap on the output size: when the text
/// would exceed `max_bytes`, it is cut there (at a character boundary),
/// `...` is appended and the value counts as truncated. `None`: the
/// [`HARD_OUTPUT_CAP`].
pub fn to_clojure_capped(
    v: &Value,
    limit: Option<usize>,
    printable_limit: Option<usize>,
    max_bytes: Option<usize>,
) -> (String, bool) {
    let mut out = String::new();
    let cap = max_bytes.unwrap_or(HARD_OUTPUT_CAP);
    let outcome = print_into(&mut out, v, limit, printable_limit, cap);
    let mut truncated = outcome.truncated;
    if outcome.overflowed {
        let cut = floor_char_boundary(&out, cap);
        out.truncate(cut);
        out.push_str("...");
        truncated = true;
    }
    (out, truncated)
}

/// What `str` shows for one argument: strings raw, `nil` as the empty
/// string (`(str nil)` is `""`), infinite and NaN floats as Java's
/// `Infinity`, `-Infinity`, `NaN` (as Clojure's `str` does), everything else
/// as [`to_clojure`] without limits. Nested values keep their printed form: `(str [nil "a"])` is
/// `[nil "a"]`.
/// Cut at 256 MiB (`HARD_OUTPUT_CAP`); printers inside a turn use
/// `display_within`, bounded by the print budget.
pub fn display(v: &Value) -> String {
    capped_display(v, Style::Str)
}

/// What `println` (and `print`, `print-str`) show for one argument: like
/// [`display`], except that `nil` prints as `nil`. Uncharged: code in a
/// turn prints within the heap budget ([`display_within`]) instead.
#[cfg(test)]
pub fn display_println(v: &Value) -> String {
    capped_display(v, Style::Println)
}

fn capped_display(v: &Value, style: Style) -> String {
    let mut out = String::new();
    if !write_display(&mut out, v, style, HARD_OUTPUT_CAP) {
        out.truncate(floor_char_boundary(&out, HARD_OUTPUT_CAP));
        out.push_str("...");
    }
    out
}

/// `v` shown in `style`, or `None` when the text would be longer than
/// `max_bytes` (printing stops there: a self-sharing value costs at most
/// `max_bytes` of work). Printers inside a turn pass the room left in the
/// heap budget and report a memory error on `None`.
pub fn display_within(v: &Value, style: Style, max_bytes: usize) -> Option<String> {
    let mut out = String::new();
    write_display(&mut out, v, style, max_bytes).then_some(out)
}

/// How a top-level argument is shown by [`write_display`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `str`: strings raw, `nil` empty, top-level `##Inf` as `Infinity`.
    Str,
    /// `println`, `print-str`: strings raw, `nil` as `nil`.
    Println,
    /// `pr-str`, `prn`: exactly [`to_clojure`] (strings quoted).
    Readable,
}

/// Appends `v` shown in `style` to `out`, without limits. Returns `false`
/// (leaving `out` partly written) as soon as `out` grows beyond `max_bytes`:
/// callers building strings for a program pass the remaining heap budget and
/// report a memory error, so that printing a hugely shared value cannot run
/// away.
pub fn write_display(out: &mut String, v: &Value, style: Style, max_bytes: usize) -> bool {
    match (v, style) {
        (Value::Str(s), Style::Str | Style::Println) => {
            out.push_str(s);
            out.len() <= max_bytes
        }
        (Value::Nil, Style::Str) => true,
        (Value::Int(i), _) => {
            push_int(out, *i);
            out.len() <= max_bytes
        }
        // `(str ##Inf)` is Java's "Infinity" (conformance
        // up-runtime_special_values-26); nested ones print `##Inf`.
        (Value::Float(f), Style::Str) if !f.is_finite() => {
            out.push_str(if f.is_nan() {
                "NaN"
            } else if *f > 0.0 {
                "Infinity"
            } else {
                "-Infinity"
            });
            out.len() <= max_bytes
        }
        // Measured first (each shared part once): a value that shares its
        // parts is refused at once instead of printed up to the budget.
        _ => {
            let room = max_bytes.saturating_sub(out.len());
            printed_len_within(v, room).is_some()
                && !print_into(out, v, None, None, max_bytes).overflowed
        }
    }
}

/// The text `str` prints for a string, `nil`, an integer or a boolean
/// (an integer formatted in `digits`): what [`write_display`] writes for
/// them in [`Style::Str`]; `None` for anything else. The compiled `str`
/// measures its pieces with it before writing them.
#[inline]
pub fn str_text<'a>(v: &'a Value, digits: &'a mut itoa::Buffer) -> Option<&'a str> {
    match v {
        Value::Str(s) => Some(s),
        Value::Int(i) => Some(digits.format(*i)),
        Value::Nil => Some(""),
        Value::Bool(b) => Some(if *b { "true" } else { "false" }),
        _ => None,
    }
}

/// Appends the decimal digits of `i` (what `{i}` formats, without the
/// formatting machinery: `str` of a number is on hot paths).
pub fn push_int(out: &mut String, i: i64) {
    out.push_str(itoa::Buffer::new().format(i));
}

/// Prints a float per format.md F-1: `0` and `1e-4 <= |f| < 1e15` rounded to
/// 10 decimals, as the shortest decimal that reads back as that rounded
/// value (one digit kept after the point: `3.0`, `0.3`, `3.3333333333`,
/// `1234567.89`); other magnitudes as the shortest
/// round-trip digits in Clojure's exponent style (`1.0E20`, `1.5E-7`);
/// `##Inf`, `##-Inf`, `##NaN`.
#[cfg(test)]
pub fn format_float(f: f64) -> String {
    let mut out = String::new();
    write_float(&mut out, f);
    out
}

fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("##NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "##Inf" } else { "##-Inf" });
        return;
    }
    let a = f.abs();
    if a == 0.0 || (1e-4..1e15).contains(&a) {
        // Rounded to 10 decimals, then the shortest decimal that reads back
        // as that rounded double: `{:.10}` of 1234567.89 is
        // 1234567.8899999999, which reads back as the double nearest
        // 1234567.89, printed shortest as 1234567.89 (Clojure's text); 1/3
        // stays 0.3333333333. The shortest digits never need more than the
        // 10 decimals they came from. Rust's `{}` of a float in this range
        // has no exponent.
        let rounded: f64 = format!("{f:.10}").parse().unwrap_or(f);
        let start = out.len();
        let _ = write!(out, "{rounded}");
        if !out[start..].contains('.') {
            out.push_str(".0");
        }
    } else {
        // Shortest round-trip digits: `1e20`, `1.5e-7`, `-1.2345e20`.
        let s = format!("{f:e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        out.push_str(mantissa);
        if !mantissa.contains('.') {
            out.push_str(".0");
        }
        out.push('E');
        out.push_str(exponent);
    }
}

/// Appends the printed form of a string: quoted, escaped, cut after
/// `printable_limit` characters. Returns whether it was cut.
fn write_string(out: &mut String, s: &str, printable_limit: Option<usize>) -> bool {
    let (shown, cut) = match printable_limit {
        Some(n) => match s.char_indices().nth(n) {
            Some((i, _)) => (&s[..i], true),
            None => (s, false),
        },
        None => (s, false),
    };
    out.reserve(shown.len() + 2);
    out.push('"');
    let mut plain = 0;
    for (i, b) in shown.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\t' => "\\t",
            b'\r' => "\\r",
            _ => continue,
        };
        out.push_str(&shown[plain..i]);
        out.push_str(esc);
        plain = i + 1;
    }
    out.push_str(&shown[plain..]);
    if cut {
        out.push_str("...");
    }
    out.push('"');
    cut
}

fn write_fn(out: &mut String, f: &Func) {
    out.push_str("#fn[");
    out.push_str(&f.display_params());
    out.push(']');
}

/// The items of a collection being printed.
enum Items<'a> {
    Vector(crate::value::vector::Iter<'a>),
    Set(crate::value::set::Iter<'a>),
    Map(crate::value::map::Iter<'a>),
}

/// A collection whose items are being printed.
struct Coll<'a> {
    items: Items<'a>,
    /// Items still to show.
    left: usize,
    first: bool,
    /// Printable limit of the items.
    plim: Option<usize>,
    close: &'static str,
    /// `(total, shown, noun)` when items are cut.
    cut: Option<(usize, usize, &'static str)>,
}

/// Pending printing work. The printer pops jobs until none is left.
enum Job<'a> {
    Value(&'a Value, Option<usize>),
    Text(&'static str),
    Coll(Coll<'a>),
}

#[derive(Default)]
struct Outcome {
    truncated: bool,
    overflowed: bool,
}

/// Appends `v` to `out` with the limits of [`to_clojure`]; stops as soon as
/// `out` is longer than `cap` bytes (`overflowed`).
fn print_into(
    out: &mut String,
    v: &Value,
    limit: Option<usize>,
    plim: Option<usize>,
    cap: usize,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut stack: Vec<Job<'_>> = vec![Job::Value(v, plim)];
    let mut poll = STOP_POLL_EVERY;
    while let Some(job) = stack.pop() {
        if out.len() > cap {
            outcome.overflowed = true;
            break;
        }
        poll -= 1;
        if poll == 0 {
            poll = STOP_POLL_EVERY;
            // Past the running turn's deadline: give up as on overflow
            // (the caller reports the timeout).
            if should_stop() {
                outcome.overflowed = true;
                return outcome;
            }
        }
        match job {
            Job::Text(t) => out.push_str(t),
            Job::Value(v, plim) => {
                if let Some(coll) = write_atom_or_open(out, v, limit, plim, &mut stack) {
                    stack.push(Job::Coll(coll));
                } else if let Value::Str(s) = v {
                    outcome.truncated |= write_string(out, s, plim);
                }
            }
            Job::Coll(mut c) => {
                if c.left > 0 {
                    let plim = c.plim;
                    let sep = !c.first;
                    let next = match &mut c.items {
                        Items::Vector(it) => it.next().map(|x| (None, x)),
                        Items::Set(it) => it.next().map(|x| (None, x)),
                        Items::Map(it) => it.next().map(|(k, x)| (Some(k), x)),
                    };
                    if let Some((key, item)) = next {
                        if sep {
                            out.push(' ');
                        }
                        c.first = false;
                        c.left -= 1;
                        stack.push(Job::Coll(c));
                        stack.push(Job::Value(item, plim));
                        if let Some(k) = key {
                            stack.push(Job::Text(" "));
                            stack.push(Job::Value(k, plim));
                        }
                        continue;
                    }
                }
                match c.cut {
                    Some((total, shown, noun)) => {
                        out.push_str(if shown > 0 { " ..." } else { "..." });
                        out.push_str(c.close);
                        let _ = write!(out, " ({total} {noun}, showing first {shown})");
                        outcome.truncated = true;
                    }
                    None => out.push_str(c.close),
                }
            }
        }
    }
    if out.len() > cap {
        outcome.overflowed = true;
    }
    outcome
}

/// Writes a value that needs no further work, or the opening of a
/// collection (returned, to be printed item by item). Strings are left to
/// the caller (they may be truncated). `(reduced x)` pushes its parts.
fn write_atom_or_open<'a>(
    out: &mut String,
    v: &'a Value,
    limit: Option<usize>,
    plim: Option<usize>,
    stack: &mut Vec<Job<'a>>,
) -> Option<Coll<'a>> {
    match v {
        Value::Nil => out.push_str("nil"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => write_float(out, *f),
        Value::Str(_) => {}
        Value::Keyword(k) => {
            out.push(':');
            out.push_str(k);
        }
        Value::Symbol(s) => out.push_str(s),
        Value::Fn(f) => write_fn(out, f),
        Value::Regex(r) => {
            out.push_str("#\"");
            out.push_str(r.as_str());
            out.push('"');
        }
        Value::Var(name) => {
            out.push_str("#'");
            out.push_str(name);
        }
        Value::Lazy(_) => out.push_str("#seq[infinite]"),
        Value::Reduced(inner) => {
            out.push_str("#reduced[");
            stack.push(Job::Text("]"));
            stack.push(Job::Value(inner, plim));
        }
        Value::Vector(vec) => {
            out.push('[');
            let (left, cut) = shown(vec.len(), limit, "items");
            return Some(Coll {
                items: Items::Vector(vec.iter()),
                left,
                first: true,
                plim,
                close: "]",
                cut,
            });
        }
        Value::Set(set) => {
            out.push_str("#{");
            let (left, cut) = shown(set.len(), limit, "items");
            return Some(Coll {
                items: Items::Set(set.iter()),
                left,
                first: true,
                plim,
                close: "}",
                cut,
            });
        }
        Value::Map(map) => {
            out.push('{');
            let entry_limit = match (limit, plim) {
                (Some(l), Some(p)) => Some(l.min((p / 30).max(1))),
                (None, Some(p)) => Some((p / 30).max(1)),
                (l, None) => l,
            };
            let (left, cut) = shown(map.len(), entry_limit, "entries");
            let item_plim = match plim {
                Some(p) if left > 0 => Some((p.saturating_sub(10 * left) / left).max(10)),
                other => other,
            };
            return Some(Coll {
                items: Items::Map(map.iter()),
                left,
                first: true,
                plim: item_plim,
                close: "}",
                cut,
            });
        }
    }
    None
}

/// How many of `total` items to show under `limit`, and the cut, if any.
fn shown(
    total: usize,
    limit: Option<usize>,
    noun: &'static str,
) -> (usize, Option<(usize, usize, &'static str)>) {
    match limit {
        Some(m) if total > m => (m, Some((total, m, noun))),
        _ => (total, None),
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests;
