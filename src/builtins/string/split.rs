//! clojure.string's `split split-lines` (Java's `String.split` rules) and
//! `join`.

use super::*;

pub(super) fn join(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (sep, coll) = match args {
        [coll] => (String::new(), coll),
        [sep, coll] => {
            if matches!(coll, Value::Str(_))
                && matches!(sep, Value::Vector(_) | Value::Set(_) | Value::Lazy(_))
            {
                return Err(args::type_error("join", "a collection to join", coll)
                    .with_hint("the separator comes first: (join \", \" coll)"));
            }
            match format::display_within(sep, Style::Str, heap_room(interp)) {
                Some(sep) => (sep, coll),
                None => return Err(out_of_room(interp)),
            }
        }
        _ => return Err(Error::internal("join: arity")),
    };
    let items = args::items("join", coll)?;
    interp.tick(items.len() as u64 + 1)?;
    if let Some(len) = texts_len(&items, sep.len()) {
        // Strings alone (nearly every join): the length first, then the
        // text written once into its own allocation.
        return super::exact::exact_in_room(interp, Some(len), |out| {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(&sep);
                }
                if let Value::Str(s) = item {
                    out.push(s);
                }
            }
        });
    }
    let room = heap_room(interp);
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(&sep);
        }
        if !format::write_display(&mut out, item, Style::Str, room) {
            return Err(out_of_room(interp));
        }
    }
    built(interp, out)
}

/// The length of `items` joined by a separator of `sep` bytes when they
/// are all strings (`None` when one is not, or on overflow).
fn texts_len(items: &Vector, sep: usize) -> Option<usize> {
    let seps = sep.checked_mul(items.len().saturating_sub(1))?;
    items.iter().try_fold(seps, |len, item| match item {
        Value::Str(s) => len.checked_add(s.len()),
        _ => None,
    })
}

/// Java's `String.split` over the given match ranges: a zero-width match at
/// the start makes no leading empty piece, `limit > 0` caps the number of
/// pieces, `limit == 0` drops trailing empty pieces.
fn java_split(s: &str, matches: impl Iterator<Item = (usize, usize)>, limit: i64) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut index = 0;
    let mut matched = false;
    for (start, end) in matches {
        if limit > 0 && pieces.len() as i64 >= limit - 1 {
            break;
        }
        if start == 0 && end == 0 {
            continue;
        }
        matched = true;
        pieces.push(&s[index..start]);
        index = end;
    }
    if !matched {
        return vec![s];
    }
    pieces.push(&s[index..]);
    if limit == 0 {
        while pieces.last().is_some_and(|p| p.is_empty()) {
            pieces.pop();
        }
    }
    pieces
}

fn pieces_value(interp: &mut Interp, pieces: Vec<&str>) -> Result<Value> {
    interp.tick(pieces.len() as u64)?;
    let texts: u64 = pieces.iter().map(|p| cost::string_bytes(p.len())).sum();
    interp.alloc(cost::vector_bytes(pieces.len()) + texts)?;
    Ok(Value::vector_from(pieces.into_iter().map(Value::string)))
}

pub(super) fn split(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("split", &args[0])?;
    let limit = match args.get(2) {
        Some(l) => args::int("split", l)?,
        None => 0,
    };
    interp.tick(scan_ticks(s.len()))?;
    let pieces = match &args[1] {
        Value::Str(sep) if sep.is_empty() => {
            let bounds = s.char_indices().map(|(i, _)| i).chain([s.len()]);
            java_split(s, bounds.map(|i| (i, i)), limit)
        }
        // memchr's searcher (memchr itself for a one-byte separator): many
        // matches in one text without the std searcher's per-match set-up.
        Value::Str(sep) => java_split(
            s,
            memchr::memmem::find_iter(s.as_bytes(), sep.as_bytes()).map(|i| (i, i + sep.len())),
            limit,
        ),
        Value::Regex(re) => java_split(s, re.find_iter(s).map(|m| (m.start(), m.end())), limit),
        other => {
            return Err(args::type_error(
                "split",
                "a string or regex separator",
                other,
            ))
        }
    };
    pieces_value(interp, pieces)
}

pub(super) fn split_lines(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("split-lines", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    let bytes = s.as_bytes();
    let breaks = memchr::memchr_iter(b'\n', bytes).map(|i| {
        if i > 0 && bytes[i - 1] == b'\r' {
            (i - 1, i + 1)
        } else {
            (i, i + 1)
        }
    });
    let pieces = java_split(s, breaks, 0);
    pieces_value(interp, pieces)
}
