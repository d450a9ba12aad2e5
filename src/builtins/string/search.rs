//! clojure.string's substring tests and searches: `starts-with? ends-with?
//! includes? index-of last-index-of` (indices in characters).

use super::*;

fn two_strings<'a>(fname: &str, args: &'a [Value]) -> Result<(&'a str, &'a str)> {
    Ok((text(fname, &args[0])?, text(fname, &args[1])?))
}

pub(super) fn starts_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("starts-with?", args)?;
    interp.tick(1)?;
    Ok(Value::Bool(s.starts_with(p)))
}

pub(super) fn ends_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("ends-with?", args)?;
    interp.tick(1)?;
    Ok(Value::Bool(s.ends_with(p)))
}

pub(super) fn includes(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("includes?", args)?;
    interp.tick(scan_ticks(s.len()))?;
    // memchr's searcher: the std one sets up a two-way search per call,
    // most of the work on the short strings programs test.
    Ok(Value::Bool(
        memchr::memmem::find(s.as_bytes(), p.as_bytes()).is_some(),
    ))
}

pub(super) fn index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("index-of", args)?;
    interp.tick(scan_ticks(s.len()))?;
    let from = match args.get(2) {
        Some(f) => args::index("index-of", f)?.max(0) as usize,
        None => 0,
    };
    let n = char_count(s);
    if from > n {
        return Ok(if p.is_empty() {
            Value::Int(n as i64)
        } else {
            Value::Nil
        });
    }
    let b0 = byte_at(s, from);
    Ok(match s[b0..].find(p) {
        Some(b) => Value::Int((from + char_count(&s[b0..b0 + b])) as i64),
        None => Value::Nil,
    })
}

pub(super) fn last_index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("last-index-of", args)?;
    interp.tick(scan_ticks(s.len()))?;
    let end = match args.get(2) {
        Some(f) => {
            let from = args::index("last-index-of", f)?;
            if from < 0 {
                return Ok(Value::Nil);
            }
            // A match starting at or before `from` ends by from + len(p).
            let end_char = (from as usize).saturating_add(char_count(p));
            byte_at(s, end_char)
        }
        None => s.len(),
    };
    Ok(match s[..end].rfind(p) {
        Some(b) => Value::Int(char_count(&s[..b]) as i64),
        None => Value::Nil,
    })
}
