//! Regex matching: `re-find re-matches re-seq re-pattern` (and PTC-Lisp's
//! `re-split`), and a match shaped as Clojure gives it (also what `replace`
//! passes a function).

use super::*;

/// A regex argument: a regex, or (leniently) a string compiled as one.
fn pattern(fname: &str, v: &Value) -> Result<Arc<Pattern>> {
    match v {
        Value::Regex(re) => Ok(re.clone()),
        Value::Str(s) => compile_regex(s),
        other => Err(args::type_error(fname, "a regex such as #\"\\d+\"", other)),
    }
}

/// The string searched by a regex function; `nil` searches nothing.
fn subject<'a>(fname: &str, re_arg: &Value, v: &'a Value) -> Result<Option<&'a str>> {
    match v {
        Value::Str(s) => Ok(Some(s)),
        Value::Nil => Ok(None),
        Value::Regex(_) if matches!(re_arg, Value::Str(_)) => {
            Err(
                args::type_error(fname, "a string to search as its second argument", v)
                    .with_hint(format!("the regex comes first: ({fname} #\"pattern\" s)")),
            )
        }
        other => Err(args::type_error(fname, "a string to search", other)),
    }
}

/// A match as Clojure shapes it: the matched text, or `[whole g1 g2 …]`
/// (unmatched groups `nil`) when the regex has groups.
pub(super) fn match_value(re: &Regex, caps: &regex::Captures<'_>) -> Value {
    if re.captures_len() == 1 {
        return caps
            .get(0)
            .map_or(Value::Nil, |m| Value::string(m.as_str()));
    }
    Value::vector_from(
        caps.iter()
            .map(|g| g.map_or(Value::Nil, |m| Value::string(m.as_str()))),
    )
}

/// The heap charge of [`match_value`]'s result: each group matched is a
/// string of its own, in a vector of the groups when there are groups.
fn match_bytes(caps: &regex::Captures<'_>) -> u64 {
    let texts: u64 = caps
        .iter()
        .flatten()
        .map(|m| cost::string_bytes(m.len()))
        .sum();
    if caps.len() == 1 {
        texts
    } else {
        cost::vector_bytes(caps.len()) + texts
    }
}

pub(super) fn re_find(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let re = pattern("re-find", &args[0])?;
    let Some(s) = subject("re-find", &args[0], &args[1])? else {
        return Ok(Value::Nil);
    };
    interp.tick(scan_ticks(s.len()))?;
    Ok(match re.captures(s) {
        Some(caps) => match_value(&re, &caps),
        None => Value::Nil,
    })
}

pub(super) fn re_matches(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let re = pattern("re-matches", &args[0])?;
    let Some(s) = subject("re-matches", &args[0], &args[1])? else {
        return Ok(Value::Nil);
    };
    interp.tick(scan_ticks(s.len()))?;
    // Anchored at both ends, so that alternatives are tried for a full match
    // (`a|ab` matches "ab") as Java's matches() does.
    let anchored = compile_regex(&format!("\\A(?:{})\\z", re.as_str()))?;
    Ok(match anchored.captures(s) {
        Some(caps) => match_value(&anchored, &caps),
        None => Value::Nil,
    })
}

pub(super) fn re_seq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let re = pattern("re-seq", &args[0])?;
    let Some(s) = subject("re-seq", &args[0], &args[1])? else {
        return Ok(Value::Nil);
    };
    interp.tick(scan_ticks(s.len()))?;
    let mut out = Vector::new();
    for caps in re.captures_iter(s) {
        interp.tick(caps.len() as u64)?;
        interp.alloc(match_bytes(&caps) + cost::vector_push(out.len()))?;
        out.push_back(match_value(&re, &caps));
    }
    Ok(if out.is_empty() {
        Value::Nil
    } else {
        Value::vector(out)
    })
}

pub(super) fn re_pattern(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Regex(_) => Ok(args[0].clone()),
        Value::Str(s) => Ok(Value::Regex(compile_regex(s)?)),
        other => Err(args::type_error("re-pattern", "a string", other)),
    }
}

/// `(re-split re s)` (PTC-Lisp): `(clojure.string/split s re)`, the pieces
/// of `s` around the matches of the regex (a string is compiled as one),
/// trailing empty strings dropped.
pub(super) fn re_split(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let re = pattern("re-split", &args[0])?;
    if !matches!(&args[1], Value::Str(_)) {
        return Err(args::type_error(
            "re-split",
            "a string to split as its second argument",
            &args[1],
        )
        .with_hint("the regex comes first: (re-split #\",\\s*\" s)"));
    }
    split(interp, &[args[1].clone(), Value::Regex(re)])
}
