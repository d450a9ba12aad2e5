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
                let out = if first_only {
                    s.replacen(&**m, r, 1)
                } else {
                    if !m.is_empty() && r.len() > m.len() {
                        let count = s.matches(&**m).count();
                        let grown = s.len() + count * (r.len() - m.len());
                        if grown > room {
                            return Err(out_of_room(interp));
                        }
                    }
                    replace_all(s, m, r)
                };
                return built(interp, out);
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

/// `s` with every `m` replaced by `r`: a one-character `m` (`"-"`) is
/// searched as a character (memchr), anything longer as a string.
fn replace_all(s: &str, m: &str, r: &str) -> String {
    let mut chars = m.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => s.replace(c, r),
        _ => s.replace(m, r),
    }
}
