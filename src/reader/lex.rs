//! Token lexers: whitespace and comments, string and character literals,
//! regex sources, `##` symbolic values, and the classification of bare
//! tokens into numbers, `nil`/`true`/`false`, keywords and symbols (numbers
//! with nom).
//!
//! Every lexer takes the input positioned at its first character and returns
//! the rest of the input with what it read. Nothing here nests: assembling
//! forms is [`super::build`]'s job.

use nom::bytes::complete::{tag_no_case, take_while_m_n};
use nom::character::complete::{char, digit0, digit1, hex_digit1, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::{pair, preceded, separated_pair, tuple};

use super::FormKind;
use crate::error::{Error, Result, Span};

/// The reader's input: the source not read yet, with its byte offset in
/// the whole source (spans are byte ranges; lines and columns are only
/// computed when an error is shown).
#[derive(Clone, Copy, Debug)]
pub(super) struct In<'a> {
    rest: &'a str,
    offset: usize,
}

impl<'a> In<'a> {
    /// All of `src`, from its start.
    pub(super) fn new(src: &'a str) -> In<'a> {
        In {
            rest: src,
            offset: 0,
        }
    }

    /// The text not read yet.
    #[inline]
    pub(super) fn fragment(&self) -> &'a str {
        self.rest
    }

    /// The byte offset of [`In::fragment`] in the whole source.
    #[inline]
    pub(super) fn location_offset(&self) -> usize {
        self.offset
    }

    /// `(rest, taken)`: the first `n` bytes (on a char boundary) split off.
    #[inline]
    fn take_split(self, n: usize) -> (In<'a>, In<'a>) {
        let (taken, rest) = self.rest.split_at(n);
        (
            In {
                rest,
                offset: self.offset + n,
            },
            In {
                rest: taken,
                offset: self.offset,
            },
        )
    }
}

/// Whitespace, commas included.
pub(super) fn is_ws(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// Characters that end a token (Clojure's whitespace and terminating macros).
pub(super) fn is_terminator(c: char) -> bool {
    is_ws(c)
        || matches!(
            c,
            '"' | ';' | '@' | '^' | '`' | '~' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
        )
}

/// For each ASCII byte: is it whitespace (a comma included)?
const ASCII_WS: [bool; 128] = ascii_table(b" \t\n\x0b\x0c\r,");
/// For each ASCII byte: does it end a token?
const ASCII_TERMINATOR: [bool; 128] = ascii_table(b" \t\n\x0b\x0c\r,\";@^`~()[]{}\\");

const fn ascii_table(members: &[u8]) -> [bool; 128] {
    let mut table = [false; 128];
    let mut i = 0;
    while i < members.len() {
        table[members[i] as usize] = true;
        i += 1;
    }
    table
}

/// Splits `n` bytes (on a char boundary) off the front: `(rest, taken)`.
pub(super) fn split(input: In<'_>, n: usize) -> (In<'_>, In<'_>) {
    input.take_split(n.min(input.fragment().len()))
}

/// `(rest, taken)`: the longest prefix whose characters all satisfy `keep`.
#[inline]
fn take_while(input: In<'_>, keep: impl Fn(char) -> bool) -> (In<'_>, In<'_>) {
    take_while_ascii(input, |b| keep(b as char), &keep)
}

/// [`take_while`] with `keep_ascii`, the same test on ASCII bytes (a
/// table lookup where the test on characters is longer).
#[inline]
fn take_while_ascii(
    input: In<'_>,
    keep_ascii: impl Fn(u8) -> bool,
    keep: impl Fn(char) -> bool,
) -> (In<'_>, In<'_>) {
    let text = input.fragment();
    // ASCII bytes are characters of their own; others are decoded.
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < bytes.len() {
        let b = bytes[at];
        if b < 0x80 {
            if !keep_ascii(b) {
                break;
            }
            at += 1;
        } else {
            let Some(c) = text[at..].chars().next() else {
                break;
            };
            if !keep(c) {
                break;
            }
            at += c.len_utf8();
        }
    }
    input.take_split(at)
}

/// `(rest, taken)`: the longest prefix without a character satisfying `stop`.
#[inline]
fn take_till(input: In<'_>, stop: impl Fn(char) -> bool) -> (In<'_>, In<'_>) {
    take_while(input, |c| !stop(c))
}

/// `(rest, taken)`: `min` to `max` characters satisfying `keep`, or `None`
/// when fewer than `min` do.
fn take_while_m_n_in(
    input: In<'_>,
    min: usize,
    max: usize,
    keep: impl Fn(char) -> bool,
) -> Option<(In<'_>, In<'_>)> {
    let mut n = 0;
    let mut end = 0;
    for (i, c) in input.fragment().char_indices() {
        if n == max || !keep(c) {
            break;
        }
        n += 1;
        end = i + c.len_utf8();
    }
    (n >= min).then(|| input.take_split(end))
}

/// Skips whitespace, commas, `;` comments and `#!` lines.
pub(super) fn skip_ws(mut input: In<'_>) -> In<'_> {
    loop {
        input = take_while_ascii(input, |b| ASCII_WS[b as usize], is_ws).0;
        let frag = input.fragment();
        if frag.starts_with(';') || frag.starts_with("#!") {
            input = take_till(input, |c| c == '\n').0;
            continue;
        }
        return input;
    }
}

/// A bare token: everything up to the next terminator (possibly empty).
pub(super) fn token(input: In<'_>) -> Result<(In<'_>, In<'_>)> {
    Ok(take_while_ascii(
        input,
        |b| !ASCII_TERMINATOR[b as usize],
        |c| !is_terminator(c),
    ))
}

fn parse_err(msg: impl Into<String>, start: usize, end: usize) -> Error {
    Error::parse(msg).with_span(Span::new(start, end))
}

/// A string literal; `input` starts at its `"`. Multi-line strings are
/// allowed; the input ending first is an incomplete parse error.
pub(super) fn string(input: In<'_>) -> Result<(In<'_>, String)> {
    let start = input.location_offset();
    let (mut rest, _) = split(input, 1);
    let mut out: Option<String> = None;
    loop {
        let (r, chunk) = take_till(rest, |c| c == '"' || c == '\\');
        rest = r;
        let next = rest.fragment().chars().next();
        if next == Some('"') && out.is_none() {
            // The common case: no escapes, one allocation.
            return Ok((split(rest, 1).0, chunk.fragment().to_string()));
        }
        let buf = out.get_or_insert_with(String::new);
        buf.push_str(chunk.fragment());
        match next {
            Some('"') => return Ok((split(rest, 1).0, out.unwrap_or_default())),
            Some(_) => rest = escape(rest, buf)?,
            None => {
                return Err(parse_err(
                    "unterminated string: the input ended inside it",
                    start,
                    start + 1,
                )
                .with_hint("close the string with \"")
                .incomplete())
            }
        }
    }
}

/// One escape sequence inside a string; `input` starts at the backslash.
fn escape<'a>(input: In<'a>, out: &mut String) -> Result<In<'a>> {
    let at = input.location_offset();
    let (rest, _) = split(input, 1);
    let Some(c) = rest.fragment().chars().next() else {
        return Err(
            parse_err("unterminated string: the input ended inside it", at, at + 1).incomplete(),
        );
    };
    let simple = match c {
        '"' => Some('"'),
        '\\' => Some('\\'),
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        _ => None,
    };
    if let Some(ch) = simple {
        out.push(ch);
        return Ok(split(rest, 1).0);
    }
    if c == 'u' {
        let (rest, ch) = unicode_escape(split(rest, 1).0, at)?;
        out.push(ch);
        return Ok(rest);
    }
    if let Some((after, digits)) = take_while_m_n_in(rest, 1, 3, |c: char| c.is_digit(8)) {
        let code = u32::from_str_radix(digits.fragment(), 8).unwrap_or(u32::MAX);
        if let Some(ch) = char::from_u32(code).filter(|_| code <= 0o377) {
            out.push(ch);
            return Ok(after);
        }
        return Err(parse_err(
            "octal escape must be between \\0 and \\377",
            at,
            after.location_offset(),
        ));
    }
    Err(parse_err(format!("unsupported escape \\{c} in string"), at, at + 1 + c.len_utf8()).with_hint(
        "strings allow \\\" \\\\ \\n \\t \\r \\uXXXX; write \\\\ for a backslash, or use a regex literal #\"\\d+\"",
    ))
}

/// The 4 hex digits after `\u` (a UTF-16 surrogate pair `\uD83D\uDE00` is
/// joined into one character).
fn unicode_escape(input: In<'_>, at: usize) -> Result<(In<'_>, char)> {
    fn four(i: In<'_>) -> Option<(In<'_>, u32)> {
        let (r, d) = take_while_m_n_in(i, 4, 4, |c: char| c.is_ascii_hexdigit())?;
        Some((r, u32::from_str_radix(d.fragment(), 16).ok()?))
    }
    let bad = |end: usize| {
        parse_err(
            "\\u must be followed by 4 hex digits naming a character",
            at,
            end,
        )
    };
    let Some((rest, hi)) = four(input) else {
        return Err(bad(input.location_offset()));
    };
    let high = (0xD800..0xDC00).contains(&hi) && rest.fragment().starts_with("\\u");
    let low = if high { four(split(rest, 2).0) } else { None };
    if let Some((r2, lo)) = low {
        if (0xDC00..0xE000).contains(&lo) {
            let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            if let Some(ch) = char::from_u32(code) {
                return Ok((r2, ch));
            }
        }
    }
    match char::from_u32(hi) {
        Some(ch) => Ok((rest, ch)),
        None => Err(bad(rest.location_offset())),
    }
}

/// A character literal (`\a`, `\newline`, `\u00e9`); `input` starts at the
/// backslash. Characters read as one-character strings.
pub(super) fn character(input: In<'_>) -> Result<(In<'_>, String)> {
    let at = input.location_offset();
    let after_slash = split(input, 1).0;
    let Some(first) = after_slash.fragment().chars().next() else {
        return Err(
            parse_err("the input ended after \\ (a character literal)", at, at + 1).incomplete(),
        );
    };
    let (rest, more) = token(split(after_slash, first.len_utf8()).0)?;
    if more.fragment().is_empty() {
        return Ok((rest, first.to_string()));
    }
    let end = rest.location_offset();
    let name = &after_slash.fragment()[..end - at - 1];
    let named = match name {
        "newline" => Some('\n'),
        "space" => Some(' '),
        "tab" => Some('\t'),
        "return" => Some('\r'),
        "backspace" => Some('\u{8}'),
        "formfeed" => Some('\u{c}'),
        _ => None,
    };
    let coded = || -> Option<char> {
        if let Some(hex) = name.strip_prefix('u') {
            let ok = all_consuming(take_while_m_n::<_, _, ()>(4, 4, |c: char| {
                c.is_ascii_hexdigit()
            }))(hex);
            return ok
                .ok()
                .and_then(|_| char::from_u32(u32::from_str_radix(hex, 16).ok()?));
        }
        let oct = name.strip_prefix('o')?;
        let ok = all_consuming(take_while_m_n::<_, _, ()>(1, 3, |c: char| c.is_digit(8)))(oct);
        let code = ok.ok().and_then(|_| u32::from_str_radix(oct, 8).ok())?;
        char::from_u32(code).filter(|_| code <= 0o377)
    };
    match named.or_else(coded) {
        Some(ch) => Ok((rest, ch.to_string())),
        None => Err(parse_err(format!("unsupported character literal \\{name}"), at, end).with_hint(
            "characters are written \\a, \\newline, \\space, \\tab, \\u00e9; for text use a string \"...\"",
        )),
    }
}

/// A regex literal `#"…"`; `input` starts at the `#`. The pattern source is
/// kept as written: a backslash only protects the next character.
pub(super) fn regex(input: In<'_>) -> Result<(In<'_>, String)> {
    let start = input.location_offset();
    let body = split(input, 2).0;
    let mut rest = body;
    loop {
        let (r, _) = take_till(rest, |c| c == '"' || c == '\\');
        rest = r;
        let mut chars = rest.fragment().chars();
        match (chars.next(), chars.next()) {
            (Some('"'), _) => {
                let len = rest.location_offset() - body.location_offset();
                return Ok((split(rest, 1).0, body.fragment()[..len].to_string()));
            }
            (Some('\\'), Some(c)) => rest = split(rest, 1 + c.len_utf8()).0,
            _ => {
                return Err(parse_err(
                    "unterminated regex: the input ended inside #\"...\"",
                    start,
                    start + 2,
                )
                .with_hint("close the regex with \"")
                .incomplete())
            }
        }
    }
}

/// `##Inf`, `##-Inf`, `##NaN`; `input` starts at the first `#`.
pub(super) fn symbolic(input: In<'_>) -> Result<(In<'_>, f64)> {
    let at = input.location_offset();
    let (rest, name) = token(split(input, 2).0)?;
    match name.fragment() {
        "Inf" => Ok((rest, f64::INFINITY)),
        "-Inf" => Ok((rest, f64::NEG_INFINITY)),
        "NaN" => Ok((rest, f64::NAN)),
        other => Err(parse_err(
            format!("unknown symbolic value ##{other}"),
            at,
            rest.location_offset(),
        )
        .with_hint("the symbolic values are ##Inf, ##-Inf and ##NaN")),
    }
}

/// Classifies a bare token: number, `nil`/`true`/`false`, keyword or
/// symbol. `%` argument symbols are left to the caller.
pub(super) fn atom(text: &str, span: Span) -> Result<FormKind> {
    let first = text.chars().next().unwrap_or(' ');
    let second = text.chars().nth(1);
    if first.is_ascii_digit()
        || (matches!(first, '+' | '-') && second.is_some_and(|c| c.is_ascii_digit()))
    {
        return number(text, span);
    }
    match text {
        "nil" => return Ok(FormKind::Nil),
        "true" => return Ok(FormKind::Bool(true)),
        "false" => return Ok(FormKind::Bool(false)),
        _ => {}
    }
    if let Some(name) = text.strip_prefix(':') {
        return keyword(name, span);
    }
    if text.len() > 1 && text.ends_with(':') {
        return Err(Error::parse(format!("invalid symbol {text}"))
            .with_span(span)
            .with_hint(format!(
                "keywords are written with a leading colon: :{}",
                &text[..text.len() - 1]
            )));
    }
    Ok(FormKind::Symbol(text.to_string()))
}

fn keyword(name: &str, span: Span) -> Result<FormKind> {
    let (name, auto) = match name.strip_prefix(':') {
        Some(n) => (n, true),
        None => (name, false),
    };
    if name.is_empty() || name.starts_with(':') || name.ends_with(':') {
        return Err(Error::parse(format!(
            "invalid keyword :{}{name}",
            if auto { ":" } else { "" }
        ))
        .with_span(span)
        .with_hint("a keyword is a colon followed by a name: :id, :user/id"));
    }
    Ok(FormKind::Keyword(if auto {
        format!("user/{name}")
    } else {
        name.to_string()
    }))
}

type StrResult<'a, O> = nom::IResult<&'a str, O, ()>;

fn sign(s: &str) -> StrResult<'_, Option<char>> {
    opt(one_of("+-"))(s)
}

fn float_text(s: &str) -> StrResult<'_, &str> {
    let exponent = tuple((one_of("eE"), sign, digit1));
    recognize(tuple((
        sign,
        digit1,
        opt(pair(char('.'), digit0)),
        opt(exponent),
    )))(s)
}

fn hex_text(s: &str) -> StrResult<'_, (Option<char>, &str)> {
    pair(sign, preceded(tag_no_case("0x"), hex_digit1))(s)
}

/// A numeric token (starts with a digit, or a sign and a digit).
fn number(text: &str, span: Span) -> Result<FormKind> {
    let invalid = |hint: &str| {
        Error::parse(format!("invalid number {text}"))
            .with_span(span)
            .with_hint(hint.to_string())
    };
    let too_big = || {
        Error::arithmetic(format!("integer literal {text} does not fit in 64 bits"))
            .with_span(span)
            .with_hint("integers are 64-bit (-9223372036854775808 to 9223372036854775807); write a float like 1.0E19 if an approximation will do")
    };
    if let Ok((_, (sg, digits))) = all_consuming(pair(sign, digit1))(text) {
        let negative = sg == Some('-');
        let (radix, digits) = if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        return int_from(digits, radix, negative).ok_or_else(|| {
            if radix == 8 && digits.contains(['8', '9']) {
                invalid("a number with a leading 0 is octal (Clojure); drop the leading zeros")
            } else {
                too_big()
            }
        });
    }
    if let Ok((_, (sg, digits))) = all_consuming(hex_text)(text) {
        return int_from(digits, 16, sg == Some('-')).ok_or_else(too_big);
    }
    if let Ok((_, (sg, (num, den)))) =
        all_consuming(pair(sign, separated_pair(digit1, char('/'), digit1)))(text)
    {
        // A ratio literal reads as the float it denotes (issue 27 item 5,
        // language.md: `/` gives floats, so `9/5` means what `(/ 9 5)` does).
        if den.bytes().all(|b| b == b'0') {
            return Err(
                Error::arithmetic(format!("Divide by zero in the ratio {text}"))
                    .with_span(span)
                    .with_hint("a ratio's denominator cannot be 0"),
            );
        }
        return match (num.parse::<f64>(), den.parse::<f64>()) {
            (Ok(n), Ok(d)) => Ok(FormKind::Float(if sg == Some('-') {
                -n / d
            } else {
                n / d
            })),
            _ => Err(invalid("write ratios like 9/5")),
        };
    }
    if all_consuming(float_text)(text).is_ok() {
        return text
            .parse::<f64>()
            .map(FormKind::Float)
            .map_err(|_| invalid("write floats like 1.5, -2.0, 1e3"));
    }
    Err(if text.ends_with('M') || text.ends_with('N') {
        invalid("big numbers (M and N suffixes) are not supported: integers are 64-bit, floats are doubles; drop the suffix")
    } else if text.contains('/') {
        invalid("a ratio is two integers around /, like 9/5 (read as the float 1.8)")
    } else {
        invalid("numbers are written like 42, -7, 1.5, 2.5E-3, 0xFF")
    })
}

/// `digits` in `radix`, negated if `negative`; `None` on overflow.
fn int_from(digits: &str, radix: u32, negative: bool) -> Option<FormKind> {
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    let value = if negative {
        0i64.checked_sub_unsigned(magnitude)?
    } else {
        i64::try_from(magnitude).ok()?
    };
    Some(FormKind::Int(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_tables_agree_with_the_character_tests() {
        for b in 0u8..128 {
            let c = b as char;
            assert_eq!(ASCII_WS[b as usize], is_ws(c), "{b:#x}");
            assert_eq!(ASCII_TERMINATOR[b as usize], is_terminator(c), "{b:#x}");
        }
    }
}
