//! clojure.string's `replace replace-first`: a literal string, a Java
//! replacement template (`$1`, `${name}`, `\$`) or a function of the match.

use super::*;

/// One piece of a Java replacement template (`"$1-${name}\\$"`).
enum Piece {
    Lit(String),
    Group(usize),
    Named(String),
}

/// Parses a Java `Matcher.replaceAll` template against `re`'s groups.
fn parse_template(fname: &str, tpl: &str, re: &Regex) -> Result<Vec<Piece>> {
    let groups = re.captures_len() - 1;
    let bad = |msg: String| {
        Error::execution(format!("{fname}: {msg} in the replacement \"{tpl}\""))
            .with_hint("$1, $2 … insert regex groups; write \\$ for a literal dollar sign")
    };
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut chars = tpl.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) => lit.push(e),
                None => return Err(bad("a trailing backslash".into())),
            },
            '$' => {
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                match chars.next() {
                    Some('{') => {
                        let mut name = String::new();
                        loop {
                            match chars.next() {
                                Some('}') => break,
                                Some(ch) => name.push(ch),
                                None => return Err(bad("an unclosed ${".into())),
                            }
                        }
                        if !re.capture_names().any(|n| n == Some(name.as_str())) {
                            return Err(bad(format!("no group named {name}")));
                        }
                        pieces.push(Piece::Named(name));
                    }
                    Some(d) if d.is_ascii_digit() => {
                        let mut n = d.to_digit(10).unwrap_or(0) as usize;
                        if n > groups {
                            return Err(bad(format!(
                                "group ${n} does not exist (the regex has {groups} group{})",
                                if groups == 1 { "" } else { "s" }
                            )));
                        }
                        while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                            let m = n * 10 + next as usize;
                            if m > groups {
                                break;
                            }
                            n = m;
                            chars.next();
                        }
                        pieces.push(Piece::Group(n));
                    }
                    _ => return Err(bad("a $ not followed by a group number".into())),
                }
            }
            other => lit.push(other),
        }
    }
    if !lit.is_empty() {
        pieces.push(Piece::Lit(lit));
    }
    Ok(pieces)
}

fn expand(out: &mut String, pieces: &[Piece], caps: &regex::Captures<'_>) {
    for p in pieces {
        match p {
            Piece::Lit(s) => out.push_str(s),
            Piece::Group(n) => out.push_str(caps.get(*n).map_or("", |m| m.as_str())),
            Piece::Named(n) => out.push_str(caps.name(n).map_or("", |m| m.as_str())),
        }
    }
}

/// What to replace each match with.
enum Replacement<'a> {
    Template(Vec<Piece>),
    Literal(&'a str),
    Function(&'a Value),
}

fn replace_impl(
    interp: &mut Interp,
    args: &[Value],
    fname: &str,
    first_only: bool,
) -> Result<Value> {
    let s = text(fname, &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    let room = heap_room(interp);
    let re: Arc<Pattern> = match &args[1] {
        Value::Regex(re) => re.clone(),
        Value::Str(m) => {
            // A literal match: Clojure inserts the replacement literally too.
            if let Value::Str(r) = &args[2] {
                if !first_only && !m.is_empty() && r.len() > m.len() {
                    let count = s.matches(&**m).count();
                    let grown = s.len() + count * (r.len() - m.len());
                    if grown > room {
                        return Err(out_of_room(interp));
                    }
                }
                if let ([from], [to], false) = (m.as_bytes(), r.as_bytes(), first_only) {
                    // One ASCII byte for another: the text's length.
                    return super::exact::exact_value(interp, s.len(), |out| {
                        out.push(s);
                        // SAFETY: a one-byte UTF-8 text is an ASCII byte,
                        // which occurs in UTF-8 only as that character;
                        // swapping it for another ASCII byte leaves the
                        // text valid UTF-8.
                        super::exact::swap_byte(unsafe { out.written_mut() }, *from, *to);
                    });
                }
                return super::build::in_text_buf(interp, |out| {
                    replace_into(out, s, m, r, first_only);
                    true
                });
            }
            compile_regex(&regex::escape(m))?
        }
        other => return Err(args::type_error(fname, "a string or regex to match", other)),
    };
    let replacement = match &args[2] {
        Value::Str(r) if matches!(args[1], Value::Regex(_)) => {
            Replacement::Template(parse_template(fname, r, &re)?)
        }
        Value::Str(r) => Replacement::Literal(r),
        f @ Value::Fn(_) => Replacement::Function(f),
        other => {
            return Err(args::type_error(
                fname,
                "a replacement string or function",
                other,
            ))
        }
    };
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for caps in re.captures_iter(s) {
        interp.tick(1)?;
        let Some(whole) = caps.get(0) else { continue };
        out.push_str(&s[last..whole.start()]);
        match &replacement {
            Replacement::Template(pieces) => expand(&mut out, pieces, &caps),
            Replacement::Literal(r) => out.push_str(r),
            Replacement::Function(f) => {
                let arg = match_value(&re, &caps);
                let r = interp.call(f, &[arg])?;
                if !format::write_display(&mut out, &r, Style::Str, room) {
                    return Err(out_of_room(interp));
                }
            }
        }
        last = whole.end();
        if out.len() > room {
            return Err(out_of_room(interp));
        }
        if first_only {
            break;
        }
    }
    out.push_str(&s[last..]);
    built(interp, out)
}

pub(super) fn replace(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    replace_impl(interp, args, "replace", false)
}

pub(super) fn replace_first(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    replace_impl(interp, args, "replace-first", true)
}

/// `s` with `m` replaced by `r` (every `m`, or the first only), written
/// to `out`; the result is built in the interpreter's buffer and copied
/// once into its own allocation ([`in_text_buf`]; one ASCII character
/// replaced by another everywhere, `"-"` → `"_"`, is a byte swap written
/// straight into the new text instead, in `replace_impl`). A one-byte
/// `m` is found by a scan of the bytes (memchr on longer texts); anything
/// longer is searched as a string (an empty `m` matches at every
/// character boundary, as `str::replace` has it).
///
/// [`in_text_buf`]: super::build::in_text_buf
fn replace_into(out: &mut String, s: &str, m: &str, r: &str, first_only: bool) {
    let n = if first_only { 1 } else { usize::MAX };
    match m.as_bytes() {
        [b] if s.len() > SHORT_SCAN => {
            splice(out, s, 1, r, memchr::memchr_iter(*b, s.as_bytes()).take(n));
        }
        [b] => {
            let at = s.bytes().enumerate().filter(|&(_, c)| c == *b);
            splice(out, s, 1, r, at.map(|(i, _)| i).take(n));
        }
        _ => {
            let at = s.match_indices(m).map(|(i, _)| i);
            splice(out, s, m.len(), r, at.take(n));
        }
    }
}

/// `s` written to `out` with the `len` bytes at each of `starts` (in
/// order, not overlapping) replaced by `r`.
fn splice(out: &mut String, s: &str, len: usize, r: &str, starts: impl Iterator<Item = usize>) {
    let mut last = 0;
    for start in starts {
        out.push_str(&s[last..start]);
        out.push_str(r);
        last = start + len;
    }
    out.push_str(&s[last..]);
}

/// The longest text [`replace_into`] scans byte by byte for a one-byte
/// match (memchr's setup costs more than the scan below it).
const SHORT_SCAN: usize = 64;
