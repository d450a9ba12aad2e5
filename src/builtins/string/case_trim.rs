//! clojure.string's whole-string rewrites: `blank? capitalize lower-case
//! upper-case` (and `upcase`/`downcase`) `reverse trim triml trimr
//! trim-newline escape`.

use super::*;

pub(super) fn blank(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Nil => Ok(Value::Bool(true)),
        Value::Str(s) => {
            interp.tick(scan_ticks(s.len()))?;
            Ok(Value::Bool(s.chars().all(is_java_whitespace)))
        }
        other => Err(args::type_error("blank?", "a string or nil", other)),
    }
}

pub(super) fn capitalize(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("capitalize", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    let mut chars = s.chars();
    let mut out = String::with_capacity(s.len());
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
        out.push_str(&chars.as_str().to_lowercase());
    }
    built(interp, out)
}

pub(super) fn escape(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("escape", &args[0])?;
    let cmap = &args[1];
    args::callable("escape", cmap)?;
    let room = heap_room(interp);
    let mut out = String::with_capacity(s.len());
    let mut buf = [0u8; 4];
    for c in s.chars() {
        interp.tick(1)?;
        let ch = Value::string(&*c.encode_utf8(&mut buf));
        match interp.call(cmap, &[ch])? {
            Value::Nil => out.push(c),
            r => {
                if !format::write_display(&mut out, &r, Style::Str, room) {
                    return Err(out_of_room(interp));
                }
            }
        }
    }
    built(interp, out)
}

pub(super) fn lower_case(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("lower-case", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    if s.is_ascii() {
        return ascii_mapped(interp, s, b'A'..=b'Z');
    }
    built(interp, s.to_lowercase())
}

pub(super) fn upper_case(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("upper-case", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    if s.is_ascii() {
        return ascii_mapped(interp, s, b'a'..=b'z');
    }
    built(interp, s.to_uppercase())
}

/// An ASCII text's case changed (the same answer
/// `to_uppercase`/`to_lowercase` give ASCII), written straight into its
/// own allocation: the letters in `letters` (`a..=z` to upper-case them,
/// `A..=Z` to lower-case them) flipped eight bytes at a time
/// ([`flip_case`]).
fn ascii_mapped(
    interp: &mut Interp,
    s: &str,
    letters: std::ops::RangeInclusive<u8>,
) -> Result<Value> {
    super::exact::exact_value(interp, s.len(), |out| {
        out.push(s);
        // SAFETY: `s` is ASCII; flipping the case bit of ASCII letters
        // leaves ASCII.
        flip_case(unsafe { out.written_mut() }, letters);
    })
}

/// The case bit (0x20) of every byte of `bytes` (all ASCII) within
/// `letters` flipped, eight bytes at a time ([`map_words`]): adding
/// `0x80 - lo` to a byte below 0x80 sets its high bit exactly when it is
/// at least `lo`, and no sum carries into the next byte. A letter already
/// changed is outside `letters`, so a word seen twice is not changed back.
///
/// [`map_words`]: super::exact::map_words
fn flip_case(bytes: &mut [u8], letters: std::ops::RangeInclusive<u8>) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let (lo, hi) = (*letters.start(), *letters.end());
    let at_least = |b: u8| u64::from_le_bytes([0x80 - b; 8]);
    let (from, past) = (at_least(lo), at_least(hi + 1));
    super::exact::map_words(bytes, |x| {
        let inside = (x + from) & !(x + past) & HIGH;
        x ^ (inside >> 2)
    });
}

pub(super) fn reverse(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("reverse", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.chars().rev().collect())
}

pub(super) fn trim(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trim", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_matches(is_java_whitespace).to_string())
}

pub(super) fn triml(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("triml", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_start_matches(is_java_whitespace).to_string())
}

pub(super) fn trimr(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trimr", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_end_matches(is_java_whitespace).to_string())
}

pub(super) fn trim_newline(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trim-newline", &args[0])?;
    interp.tick(1)?;
    built(interp, s.trim_end_matches(['\n', '\r']).to_string())
}
