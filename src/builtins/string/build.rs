//! Building strings: `str print-str println-str pr-str prn-str` (values
//! printed into one string within the heap room), `subs` and `char`.

use super::*;

fn concat(
    interp: &mut Interp,
    args: &[Value],
    style: Style,
    sep: &str,
    end: &str,
) -> Result<Value> {
    printed(interp, args.len(), |out, room| {
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            if !format::write_display(out, a, style, room) {
                return false;
            }
        }
        out.push_str(end);
        true
    })
}

/// A string of `parts` printed pieces, written by `write` into a buffer
/// (false when they outgrew the heap room it is given): `concat`'s steps
/// (one per part and one) and heap charge; what the compiled `str` of
/// texts and scalars runs too ([`printed_settled`]).
fn printed(
    interp: &mut Interp,
    parts: usize,
    write: impl FnOnce(&mut String, usize) -> bool,
) -> Result<Value> {
    printed_into(interp, parts, write, new_text)
}

/// [`printed`], the text written made a value by `then` (a new string, or
/// the pieces appended to an accumulator).
fn printed_into(
    interp: &mut Interp,
    parts: usize,
    write: impl FnOnce(&mut String, usize) -> bool,
    then: impl FnOnce(&mut Interp, &str) -> Result<Value>,
) -> Result<Value> {
    interp.tick(parts as u64 + 1)?;
    let room = heap_room(interp);
    in_text_buf_then(interp, |out| write(out, room), then)
}

/// [`printed`] right after the caller settled this thread's meter (the
/// compiled `str`, `eval/compile/call.rs`): the same steps, charged
/// without settling it again (nothing ran in between).
#[inline]
pub(crate) fn printed_settled(
    interp: &mut Interp,
    parts: usize,
    write: impl FnOnce(&mut String, usize) -> bool,
) -> Result<Value> {
    interp.budget.tick(parts as u64 + 1)?;
    let room = heap_room(interp);
    in_text_buf(interp, |out| write(out, room))
}

/// [`printed_settled`] of texts alone (the compiled `str` of texts,
/// strings, integers, booleans and nils, printed by its caller), `len`
/// bytes in all (`None`: past `usize`): written once into the string's
/// own allocation (no buffer, no copy out of it). The same steps and heap
/// charge, and the same error past the heap room.
#[inline]
pub(crate) fn texts_settled<'t>(
    interp: &mut Interp,
    parts: usize,
    len: Option<usize>,
    texts: impl Iterator<Item = &'t str>,
) -> Result<Value> {
    interp.budget.tick(parts as u64 + 1)?;
    super::exact::exact_in_room(interp, len, |out| texts.for_each(|t| out.push(t)))
}

/// A string written by `write` into the interpreter's buffer, then copied
/// into the string's own allocation (one allocation per string built, and
/// no growth of a new `String` on the way) and charged to the heap; `write`
/// says false when it outgrew the heap room (an out-of-room error).
pub(super) fn in_text_buf(
    interp: &mut Interp,
    write: impl FnOnce(&mut String) -> bool,
) -> Result<Value> {
    in_text_buf_then(interp, write, new_text)
}

/// The text written, charged to the heap and copied into a string.
fn new_text(interp: &mut Interp, out: &str) -> Result<Value> {
    interp.alloc(cost::string_bytes(out.len()))?;
    Ok(Value::string(out))
}

/// [`in_text_buf`], the text written made a value by `then`.
fn in_text_buf_then(
    interp: &mut Interp,
    write: impl FnOnce(&mut String) -> bool,
    then: impl FnOnce(&mut Interp, &str) -> Result<Value>,
) -> Result<Value> {
    let mut out = std::mem::take(&mut interp.text_buf);
    out.clear();
    let r = if write(&mut out) {
        then(interp, &out)
    } else {
        Err(out_of_room(interp))
    };
    // A buffer that grew past what strings usually need is not kept.
    if out.capacity() <= KEPT_BUFFER {
        interp.text_buf = out;
    }
    r
}

/// The largest buffer [`in_text_buf`] keeps for the next string.
const KEPT_BUFFER: usize = 64 * 1024;

pub(super) fn str_fn(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [Value::Str(s)] = args {
        interp.tick(1)?;
        return Ok(Value::Str(s.clone()));
    }
    concat(interp, args, Style::Str, "", "")
}

/// `str` taking its arguments: onto a first argument that is a text only
/// this call holds — `(str acc x ",")` with `acc` moved in at its last use
/// (MOVE-1, `analyze/moves.rs`) — the rest is appended in place
/// ([`append_settled`]); anything else is [`str_fn`].
pub(super) fn str_owned(interp: &mut Interp, args: &mut [Value]) -> Result<Value> {
    if let [acc @ Value::Str(_), rest @ ..] = args {
        let parts = rest.len() + 1;
        let rest = &*rest;
        let write = |out: &mut String, room: usize| {
            rest.iter()
                .all(|a| format::write_display(out, a, Style::Str, room))
        };
        if !rest.is_empty() && !rest.iter().any(|v| matches!(v, Value::Lazy(_))) {
            if let Some(r) = append_settled(interp, acc, parts, write) {
                return r;
            }
        }
    }
    str_fn(interp, args)
}

/// `str` of `acc` and `parts - 1` more pieces (written by `write` into a
/// buffer of at most the room it is given, as [`printed`] writes them),
/// when `acc` is a text no other handle holds and no hidden data is about
/// (the builtin's own path marks results): the pieces are appended to
/// `acc` in place (rule TEXT-APPEND-1, `value/text.rs`) and `acc` taken as
/// the result, so a `reduce` or `loop` building a string is linear. The
/// same steps as `str` (one per part and one, the meter settled by the
/// caller); the heap is charged the bytes added (the text's size after
/// less its size before, as a collection added to is charged), and the
/// same error past the heap room. `None`, with nothing charged or
/// changed, when `acc` is not such a text.
#[inline]
pub(crate) fn append_settled(
    interp: &mut Interp,
    acc: &mut Value,
    parts: usize,
    write: impl FnOnce(&mut String, usize) -> bool,
) -> Option<Result<Value>> {
    let Value::Str(t) = acc else { return None };
    if t.strong_count() != 1 || t.is_empty() || interp.hidden.active() {
        return None;
    }
    Some(append_here(interp, acc, parts, write))
}

/// [`append_settled`] of a text it has found only this call holds.
fn append_here(
    interp: &mut Interp,
    acc: &mut Value,
    parts: usize,
    write: impl FnOnce(&mut String, usize) -> bool,
) -> Result<Value> {
    printed_into(interp, parts, write, |interp, out| {
        append_written(interp, acc, out)
    })
}

/// `acc` (a text) with `out` appended in place, charged the bytes added.
fn append_written(interp: &mut Interp, acc: &mut Value, out: &str) -> Result<Value> {
    let Value::Str(t) = acc else {
        unreachable!("append_settled checked the text")
    };
    let before = cost::string_bytes(t.len());
    let after = cost::string_bytes(t.len().saturating_add(out.len()));
    interp.alloc(after - before)?;
    if !t.push_unique(out) {
        // Unreachable: nothing ran since the count was one.
        *t = Text::from(format!("{t}{out}"));
    }
    Ok(Value::take(acc))
}

pub(super) fn print_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Println, " ", "")
}

pub(super) fn println_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Println, " ", "\n")
}

pub(super) fn pr_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Readable, " ", "")
}

pub(super) fn prn_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Readable, " ", "\n")
}

/// `subs`: O(1) in the string's length for an ASCII text (it knows it is
/// one: `value/text.rs`), and charged the bytes it copies (and for any
/// other text the bytes walked to its end index), so `(subs s i (inc i))`
/// walking a string is linear in steps and in time.
pub(super) fn subs(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let Value::Str(s) = &args[0] else {
        text("subs", &args[0])?;
        return Err(Error::internal(
            "subs: a string argument that is not a text",
        ));
    };
    let start = args::index("subs", &args[1])?;
    let n = char_count(s) as i64;
    let end = match args.get(2) {
        Some(e) => args::index("subs", e)?,
        None => n,
    };
    // Indices are clamped to the string (conformance up-runtime_collection-81,
    // -82), but an end before the start (once clamped) is an error, as in
    // Clojure (StringIndexOutOfBoundsException), not an empty string.
    let (start, end) = (start.clamp(0, n), end.clamp(0, n));
    if start > end {
        return Err(Error::execution(format!(
            "subs: end {end} is before start {start} (StringIndexOutOfBoundsException)"
        ))
        .with_hint("(subs s start end) needs start <= end; (subs s start) runs to the end"));
    }
    let (start, end) = (start as usize, end as usize);
    if start >= end {
        interp.tick(1)?;
        return Ok(Value::string(""));
    }
    // Characters are bytes in an ASCII text (which knows it is one).
    let (b0, b1) = if s.is_ascii() {
        (start, end)
    } else {
        let b0 = byte_at(s, start);
        (b0, b0 + byte_at(&s[b0..], end - start))
    };
    interp.tick(scan_ticks(if s.is_ascii() { b1 - b0 } else { b1 }))?;
    built(interp, s[b0..b1].to_string())
}

pub(super) fn char_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Str(s) if crate::builtins::args::is_one_char(s) => Ok(args[0].clone()),
        v @ (Value::Int(_) | Value::Float(_)) => {
            let code = args::index("char", v)?;
            u32::try_from(code)
                .ok()
                .and_then(char::from_u32)
                .map(|c| Value::string(c.to_string()))
                .ok_or_else(|| {
                    Error::execution(format!(
                        "char expects a valid Unicode code point, got {}",
                        v.describe()
                    ))
                })
        }
        other => Err(args::type_error(
            "char",
            "an integer code point or a one-character string",
            other,
        )),
    }
}
