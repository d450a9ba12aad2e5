//! Builtins: strings, regexes and `format`.
//!
//! * clojure.string ([`Ns::String`]): `blank? capitalize ends-with? escape
//!   includes? index-of join last-index-of lower-case replace replace-first
//!   reverse split split-lines starts-with? trim trim-newline triml trimr
//!   upper-case`, plus the PTC-Lisp aliases `upcase` and `downcase`. Bare
//!   names fall back to clojure.string in the registry, so `(join ", " xs)`
//!   works without a qualifier; `replace` and `reverse` exist in clojure.core,
//!   whose versions route string arguments here.
//! * clojure.core: `str subs format re-find re-matches re-seq re-pattern char
//!   print-str println-str pr-str prn-str name namespace keyword symbol`.
//!
//! Characters are one-character strings, and every index is counted in
//! characters (Unicode scalar values), as `count` and `nth` count them.
//!
//! Regexes use the `regex` crate (linear time, no lookaround or
//! backreferences). [`compile_regex`] (in `value::regex`) accepts Java syntax: a pattern the
//! crate rejects is retried after translating the common Java-only forms
//! (`\p{Alpha}`-style POSIX classes, `\Q…\E`, `\h`, `\R`, `\Z`, possessive
//! quantifiers, atomic groups). Compiled patterns are cached per thread.
//!
//! Strings built here are charged to the heap budget (`interp.alloc`), and
//! printing values into a string stops at the remaining heap budget, so
//! doubling a string or printing a hugely shared value ends in
//! `memory-exceeded` instead of exhausting the machine.

use std::sync::Arc;

use regex::Regex;

use super::args;
use super::{Arity, Builtin, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::format::{self, Style};
use crate::value::regex::{compile_regex, Pattern};
use crate::value::{Value, Vector};

pub const BUILTINS: &[Builtin] = &[
    // clojure.core
    Builtin::new(
        "str",
        Arity::at_least(0),
        "Concatenates its arguments: strings as they are, nil as nothing, other values printed",
        str_fn,
    )
    .example("(str \"a\" 1 nil :k [1 \"b\"]) ;=> \"a1:k[1 \\\"b\\\"]\""),
    Builtin::new(
        "subs",
        Arity::range(2, 3),
        "Substring from start (inclusive) to end (exclusive), in characters; out-of-range indices are clamped",
        subs,
    )
    .example("(subs \"hello\" 1 3) ;=> \"el\""),
    Builtin::new(
        "format",
        Arity::at_least(1),
        "Java-style formatting: %s %d %f %.2f %5d %-5s %05d %,d %x %e %b %c %% %n",
        super::strformat::format_fn,
    )
    .example("(format \"%s has %d items (%.1f%%)\" \"cart\" 3 42.56) ;=> \"cart has 3 items (42.6%)\""),
    Builtin::new(
        "re-find",
        Arity::exact(2),
        "First match of a regex in a string: the match, or [match group1 ...] when the regex has groups; nil if none",
        re_find,
    )
    .example("(re-find #\"(\\d+)-(\\d+)\" \"range 10-20\") ;=> [\"10-20\" \"10\" \"20\"]"),
    Builtin::new(
        "re-matches",
        Arity::exact(2),
        "Matches a regex against the whole string: the match (or [match groups...]), or nil",
        re_matches,
    )
    .example("(re-matches #\"\\d+\" \"123\") ;=> \"123\""),
    Builtin::new(
        "re-seq",
        Arity::exact(2),
        "All matches of a regex in a string, as a vector (nil if none)",
        re_seq,
    )
    .example("(re-seq #\"\\d+\" \"a1 b22 c333\") ;=> [\"1\" \"22\" \"333\"]"),
    Builtin::new(
        "re-pattern",
        Arity::exact(1),
        "Compiles a string into a regex",
        re_pattern,
    )
    .example("(re-find (re-pattern \"[a-z]+\") \"123abc\") ;=> \"abc\""),
    Builtin::new(
        "char",
        Arity::exact(1),
        "The character (a one-character string) with the given code point",
        char_fn,
    )
    .example("(char 97) ;=> \"a\""),
    Builtin::new(
        "print-str",
        Arity::at_least(0),
        "What print would print, as a string: arguments separated by spaces, strings raw",
        print_str,
    )
    .example("(print-str \"a\" 1 nil) ;=> \"a 1 nil\""),
    Builtin::new(
        "println-str",
        Arity::at_least(0),
        "What println would print, as a string (with the final newline)",
        println_str,
    )
    .example("(println-str \"a\" 1) ;=> \"a 1\\n\""),
    Builtin::new(
        "pr-str",
        Arity::at_least(0),
        "Values printed readably (strings quoted), separated by spaces",
        pr_str,
    )
    .example("(pr-str \"a\" [1 \"b\"]) ;=> \"\\\"a\\\" [1 \\\"b\\\"]\""),
    Builtin::new(
        "prn-str",
        Arity::at_least(0),
        "Like pr-str, followed by a newline",
        prn_str,
    )
    .example("(prn-str :a) ;=> \":a\\n\""),
    Builtin::new(
        "name",
        Arity::exact(1),
        "The name of a keyword or symbol without its namespace; a string is returned as is",
        name_fn,
    )
    .example("(name :user/id) ;=> \"id\""),
    Builtin::new(
        "namespace",
        Arity::exact(1),
        "The namespace of a qualified keyword or symbol, or nil",
        namespace_fn,
    )
    .example("(namespace :user/id) ;=> \"user\""),
    Builtin::new(
        "keyword",
        Arity::range(1, 2),
        "Makes a keyword from a string (or symbol, keyword); (keyword ns name) makes :ns/name",
        keyword_fn,
    )
    .example("(keyword \"status\") ;=> :status"),
    Builtin::new(
        "symbol",
        Arity::range(1, 2),
        "Makes a symbol from a string (or keyword, symbol); (symbol ns name) makes ns/name",
        symbol_fn,
    )
    .example("(symbol \"x\") ;=> x"),
    // clojure.string
    Builtin::new(
        "blank?",
        Arity::exact(1),
        "True if the string is nil, empty or only whitespace",
        blank,
    )
    .ns(Ns::String)
    .example("(blank? \"  \") ;=> true"),
    Builtin::new(
        "capitalize",
        Arity::exact(1),
        "First character upper-case, the rest lower-case",
        capitalize,
    )
    .ns(Ns::String)
    .example("(capitalize \"hELLO\") ;=> \"Hello\""),
    Builtin::new(
        "ends-with?",
        Arity::exact(2),
        "True if the string ends with the suffix",
        ends_with,
    )
    .ns(Ns::String)
    .example("(ends-with? \"hello\" \"lo\") ;=> true"),
    Builtin::new(
        "escape",
        Arity::exact(2),
        "Replaces each character c by (cmap c) when that is not nil; cmap is a map or function",
        escape,
    )
    .ns(Ns::String)
    .example("(escape \"a<b\" {\"<\" \"&lt;\"}) ;=> \"a&lt;b\""),
    Builtin::new(
        "includes?",
        Arity::exact(2),
        "True if the string contains the substring",
        includes,
    )
    .ns(Ns::String)
    .example("(includes? \"hello\" \"ll\") ;=> true"),
    Builtin::new(
        "index-of",
        Arity::range(2, 3),
        "Character index of the first occurrence of a substring (from an optional index), or nil",
        index_of,
    )
    .ns(Ns::String)
    .example("(index-of \"hello\" \"l\") ;=> 2"),
    Builtin::new(
        "last-index-of",
        Arity::range(2, 3),
        "Character index of the last occurrence of a substring (at or before an optional index), or nil",
        last_index_of,
    )
    .ns(Ns::String)
    .example("(last-index-of \"hello\" \"l\") ;=> 3"),
    Builtin::new(
        "join",
        Arity::range(1, 2),
        "Joins the items of a collection into a string, with an optional separator first",
        join,
    )
    .ns(Ns::String)
    .example("(join \", \" [\"a\" \"b\" 3]) ;=> \"a, b, 3\""),
    Builtin::new(
        "lower-case",
        Arity::exact(1),
        "The string in lower case",
        lower_case,
    )
    .ns(Ns::String)
    .example("(lower-case \"HeLLo\") ;=> \"hello\""),
    Builtin::new(
        "downcase",
        Arity::exact(1),
        "The string in lower case (alias of lower-case)",
        lower_case,
    )
    .ns(Ns::String)
    .example("(downcase \"HeLLo\") ;=> \"hello\""),
    Builtin::new(
        "upper-case",
        Arity::exact(1),
        "The string in upper case",
        upper_case,
    )
    .ns(Ns::String)
    .example("(upper-case \"hello\") ;=> \"HELLO\""),
    Builtin::new(
        "upcase",
        Arity::exact(1),
        "The string in upper case (alias of upper-case)",
        upper_case,
    )
    .ns(Ns::String)
    .example("(upcase \"hello\") ;=> \"HELLO\""),
    Builtin::new(
        "replace",
        Arity::exact(3),
        "Replaces every match of a string or regex; with a regex the replacement may use $1 or be a function of the match",
        replace,
    )
    .ns(Ns::String)
    .example("(clojure.string/replace \"a-b-c\" \"-\" \"+\") ;=> \"a+b+c\""),
    Builtin::new(
        "replace-first",
        Arity::exact(3),
        "Replaces the first match of a string or regex",
        replace_first,
    )
    .ns(Ns::String)
    .example("(replace-first \"a-b-c\" \"-\" \"+\") ;=> \"a+b-c\""),
    Builtin::new(
        "reverse",
        Arity::exact(1),
        "The string with its characters in reverse order",
        reverse,
    )
    .ns(Ns::String)
    .example("(clojure.string/reverse \"abc\") ;=> \"cba\""),
    Builtin::new(
        "split",
        Arity::range(2, 3),
        "Splits a string on a separator (string or regex) into a vector; trailing empty strings are dropped",
        split,
    )
    .ns(Ns::String)
    .example("(split \"a,b,,c\" \",\") ;=> [\"a\" \"b\" \"\" \"c\"]"),
    Builtin::new(
        "split-lines",
        Arity::exact(1),
        "Splits a string into lines (on \\n or \\r\\n); trailing empty lines are dropped",
        split_lines,
    )
    .ns(Ns::String)
    .example("(split-lines \"a\\nb\") ;=> [\"a\" \"b\"]"),
    Builtin::new(
        "starts-with?",
        Arity::exact(2),
        "True if the string starts with the prefix",
        starts_with,
    )
    .ns(Ns::String)
    .example("(starts-with? \"hello\" \"he\") ;=> true"),
    Builtin::new(
        "trim",
        Arity::exact(1),
        "The string without leading and trailing whitespace",
        trim,
    )
    .ns(Ns::String)
    .example("(trim \"  hi \") ;=> \"hi\""),
    Builtin::new(
        "triml",
        Arity::exact(1),
        "The string without leading whitespace",
        triml,
    )
    .ns(Ns::String)
    .example("(triml \"  hi \") ;=> \"hi \""),
    Builtin::new(
        "trimr",
        Arity::exact(1),
        "The string without trailing whitespace",
        trimr,
    )
    .ns(Ns::String)
    .example("(trimr \"  hi \") ;=> \"  hi\""),
    Builtin::new(
        "trim-newline",
        Arity::exact(1),
        "The string without trailing newline and carriage-return characters",
        trim_newline,
    )
    .ns(Ns::String)
    .example("(trim-newline \"hi\\r\\n\") ;=> \"hi\""),
];

// ---------------------------------------------------------------------------
// Shared helpers

/// Bytes the program may still build before hitting the heap limit.
pub(super) fn heap_room(interp: &Interp) -> usize {
    match interp.budget.limits.max_heap_bytes {
        Some(max) => {
            usize::try_from(max.saturating_sub(interp.budget.heap_bytes())).unwrap_or(usize::MAX)
        }
        None => usize::MAX,
    }
}

/// The memory error for a string that outgrew [`heap_room`]. A printer that gave up because the turn's time ran out
/// (`format`'s deadline polls) reports the `timeout` instead.
pub(super) fn out_of_room(interp: &mut Interp) -> Error {
    if let Err(timeout) = interp.budget.check_clock() {
        return timeout;
    }
    let room = heap_room(interp) as u64;
    match interp.alloc(room.saturating_add(1)) {
        Err(e) => e,
        Ok(()) => Error::internal("string outgrew the heap budget without an error"),
    }
}

/// Charges a built string to the heap budget and returns it as a value.
pub(super) fn built(interp: &mut Interp, s: String) -> Result<Value> {
    interp.alloc(s.len() as u64)?;
    Ok(Value::string(s))
}

/// Steps for scanning a string of `len` bytes.
pub(super) fn scan_ticks(len: usize) -> u64 {
    1 + (len as u64) / crate::eval::budget::BYTES_PER_STEP
}

/// A string argument; `char` values are one-character strings already.
fn text<'a>(fname: &str, v: &'a Value) -> Result<&'a str> {
    args::string(fname, v)
}

/// Byte offset of character index `i` (clamped to the end).
pub(super) fn byte_at(s: &str, i: usize) -> usize {
    s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)
}

fn char_count(s: &str) -> usize {
    s.chars().count()
}

/// `Character.isWhitespace` (what Clojure's trim and blank? use).
fn is_java_whitespace(c: char) -> bool {
    match c {
        '\u{1C}'..='\u{1F}' => true,
        '\u{85}' | '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        _ => c.is_whitespace(),
    }
}

// ---------------------------------------------------------------------------
// str and printing to strings

fn concat(
    interp: &mut Interp,
    args: &[Value],
    style: Style,
    sep: &str,
    end: &str,
) -> Result<Value> {
    interp.tick(args.len() as u64 + 1)?;
    let room = heap_room(interp);
    let guess: usize = args
        .iter()
        .map(|a| match a {
            Value::Str(s) => s.len(),
            _ => 8,
        })
        .sum();
    let mut out = String::with_capacity(guess.min(room) + end.len());
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        if !format::write_display(&mut out, a, style, room) {
            return Err(out_of_room(interp));
        }
    }
    out.push_str(end);
    built(interp, out)
}

fn str_fn(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [Value::Str(s)] = args {
        interp.tick(1)?;
        return Ok(Value::Str(s.clone()));
    }
    concat(interp, args, Style::Str, "", "")
}

fn print_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Println, " ", "")
}

fn println_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Println, " ", "\n")
}

fn pr_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Readable, " ", "")
}

fn prn_str(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    concat(interp, args, Style::Readable, " ", "\n")
}

// ---------------------------------------------------------------------------
// subs, char, name, namespace, keyword, symbol

fn subs(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("subs", &args[0])?;
    let start = args::index("subs", &args[1])?;
    let n = char_count(s) as i64;
    let end = match args.get(2) {
        Some(e) => args::index("subs", e)?,
        None => n,
    };
    interp.tick(scan_ticks(s.len()))?;
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
        return Ok(Value::string(""));
    }
    let b0 = byte_at(s, start);
    let b1 = b0 + byte_at(&s[b0..], end - start);
    built(interp, s[b0..b1].to_string())
}

fn char_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Str(s) if s.chars().count() == 1 => Ok(args[0].clone()),
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

/// `ns/name` split of a qualified keyword or symbol name.
fn split_qualified(s: &str) -> (Option<&str>, &str) {
    match s.find('/') {
        Some(i) if i > 0 && i + 1 < s.len() => (Some(&s[..i]), &s[i + 1..]),
        _ => (None, s),
    }
}

fn name_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Str(_) => Ok(args[0].clone()),
        Value::Keyword(k) => Ok(Value::string(split_qualified(k).1)),
        Value::Symbol(k) => Ok(Value::string(split_qualified(k).1)),
        other => Err(args::type_error(
            "name",
            "a keyword, symbol or string",
            other,
        )),
    }
}

fn namespace_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Keyword(k) => Ok(split_qualified(k).0.map_or(Value::Nil, Value::string)),
        Value::Symbol(k) => Ok(split_qualified(k).0.map_or(Value::Nil, Value::string)),
        other => Err(args::type_error("namespace", "a keyword or symbol", other)),
    }
}

/// The name of a keyword/symbol to build from `(keyword x)`/`(symbol x)`.
fn ident_name(fname: &str, v: &Value) -> Result<Option<Arc<str>>> {
    match v {
        Value::Str(s) | Value::Symbol(s) => Ok(Some(s.clone())),
        Value::Keyword(k) => Ok(Some(k.to_arc())),
        Value::Nil => Ok(None),
        other => Err(args::type_error(
            fname,
            "a string, keyword or symbol",
            other,
        )),
    }
}

/// `(f ns name)`: ns is a string (or nil), name a string.
fn qualified(fname: &str, ns: &Value, name: &Value) -> Result<Arc<str>> {
    let name = match name {
        Value::Str(s) | Value::Symbol(s) => s.clone(),
        Value::Keyword(k) => k.to_arc(),
        other => return Err(args::type_error(fname, "a string name", other)),
    };
    match ns {
        Value::Nil => Ok(name),
        Value::Str(n) | Value::Symbol(n) => Ok(format!("{n}/{name}").into()),
        Value::Keyword(n) => Ok(format!("{n}/{name}").into()),
        other => Err(args::type_error(fname, "a string namespace", other)),
    }
}

fn keyword_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [ns, name] = args {
        return Ok(Value::keyword(qualified("keyword", ns, name)?));
    }
    match &args[0] {
        Value::Keyword(_) => Ok(args[0].clone()),
        // Like Clojure, anything that is not a name makes no keyword.
        Value::Str(_) | Value::Symbol(_) => {
            Ok(ident_name("keyword", &args[0])?.map_or(Value::Nil, Value::keyword))
        }
        _ => Ok(Value::Nil),
    }
}

fn symbol_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [ns, name] = args {
        return Ok(Value::Symbol(qualified("symbol", ns, name)?));
    }
    match ident_name("symbol", &args[0])? {
        Some(s) => Ok(Value::Symbol(s)),
        None => Err(args::type_error(
            "symbol",
            "a string, keyword or symbol",
            &args[0],
        )),
    }
}

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
fn match_value(re: &Regex, caps: &regex::Captures<'_>) -> Value {
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

/// The heap charge of [`match_value`]'s result: a vector slot per group
/// plus each group's text (every group is a string of its own).
fn match_bytes(caps: &regex::Captures<'_>) -> u64 {
    let texts: usize = caps.iter().flatten().map(|m| m.len()).sum();
    32 + 40 * caps.len() as u64 + texts as u64
}

fn re_find(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn re_matches(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn re_seq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let re = pattern("re-seq", &args[0])?;
    let Some(s) = subject("re-seq", &args[0], &args[1])? else {
        return Ok(Value::Nil);
    };
    interp.tick(scan_ticks(s.len()))?;
    let mut out = Vector::new();
    for caps in re.captures_iter(s) {
        interp.tick(caps.len() as u64)?;
        interp.alloc(match_bytes(&caps))?;
        out.push_back(match_value(&re, &caps));
    }
    Ok(if out.is_empty() {
        Value::Nil
    } else {
        Value::vector(out)
    })
}

fn re_pattern(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Regex(_) => Ok(args[0].clone()),
        Value::Str(s) => Ok(Value::Regex(compile_regex(s)?)),
        other => Err(args::type_error("re-pattern", "a string", other)),
    }
}

// ---------------------------------------------------------------------------
// clojure.string

fn blank(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Nil => Ok(Value::Bool(true)),
        Value::Str(s) => {
            interp.tick(scan_ticks(s.len()))?;
            Ok(Value::Bool(s.chars().all(is_java_whitespace)))
        }
        other => Err(args::type_error("blank?", "a string or nil", other)),
    }
}

fn capitalize(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn two_strings<'a>(fname: &str, args: &'a [Value]) -> Result<(&'a str, &'a str)> {
    Ok((text(fname, &args[0])?, text(fname, &args[1])?))
}

fn starts_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("starts-with?", args)?;
    interp.tick(1)?;
    Ok(Value::Bool(s.starts_with(p)))
}

fn ends_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("ends-with?", args)?;
    interp.tick(1)?;
    Ok(Value::Bool(s.ends_with(p)))
}

fn includes(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("includes?", args)?;
    interp.tick(scan_ticks(s.len()))?;
    Ok(Value::Bool(s.contains(p)))
}

fn escape(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn last_index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn join(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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

fn lower_case(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("lower-case", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.to_lowercase())
}

fn upper_case(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("upper-case", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.to_uppercase())
}

fn reverse(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("reverse", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.chars().rev().collect())
}

fn trim(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trim", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_matches(is_java_whitespace).to_string())
}

fn triml(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("triml", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_start_matches(is_java_whitespace).to_string())
}

fn trimr(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trimr", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    built(interp, s.trim_end_matches(is_java_whitespace).to_string())
}

fn trim_newline(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("trim-newline", &args[0])?;
    interp.tick(1)?;
    built(interp, s.trim_end_matches(['\n', '\r']).to_string())
}

// --- replace

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
                    s.replace(&**m, r)
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

fn replace(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    replace_impl(interp, args, "replace", false)
}

fn replace_first(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    replace_impl(interp, args, "replace-first", true)
}

// --- split

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
    let bytes: usize = pieces.iter().map(|p| p.len() + 16).sum();
    interp.alloc(bytes as u64)?;
    Ok(Value::vector_from(pieces.into_iter().map(Value::string)))
}

fn split(interp: &mut Interp, args: &[Value]) -> Result<Value> {
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
        Value::Str(sep) => java_split(
            s,
            s.match_indices(&**sep).map(|(i, m)| (i, i + m.len())),
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

fn split_lines(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let s = text("split-lines", &args[0])?;
    interp.tick(scan_ticks(s.len()))?;
    let bytes = s.as_bytes();
    let breaks = s.match_indices('\n').map(|(i, _)| {
        if i > 0 && bytes[i - 1] == b'\r' {
            (i - 1, i + 1)
        } else {
            (i, i + 1)
        }
    });
    let pieces = java_split(s, breaks, 0);
    pieces_value(interp, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::strformat::format_fn;
    use crate::error::ErrorKind;
    use crate::value::Func;

    fn s(x: &str) -> Value {
        Value::from(x)
    }
    fn strs(xs: &[&str]) -> Value {
        Value::vector_from(xs.iter().map(|x| Value::from(*x)))
    }
    fn re(src: &str) -> Value {
        Value::Regex(compile_regex(src).unwrap())
    }
    fn call(f: super::super::BuiltinFn, args: &[Value]) -> Result<Value> {
        let mut interp = Interp::standalone();
        f(&mut interp, args)
    }
    fn ok(f: super::super::BuiltinFn, args: &[Value]) -> String {
        match call(f, args) {
            Ok(v) => format::to_clojure(&v, None, None).0,
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    fn err(f: super::super::BuiltinFn, args: &[Value]) -> ErrorKind {
        match call(f, args) {
            Ok(v) => panic!("expected an error, got {v}"),
            Err(e) => e.kind(),
        }
    }

    #[test]
    fn registry_names() {
        for name in [
            "blank?",
            "capitalize",
            "ends-with?",
            "escape",
            "includes?",
            "index-of",
            "join",
            "last-index-of",
            "lower-case",
            "replace",
            "replace-first",
            "reverse",
            "split",
            "split-lines",
            "starts-with?",
            "trim",
            "trim-newline",
            "triml",
            "trimr",
            "upper-case",
            "upcase",
            "downcase",
        ] {
            assert!(
                super::super::lookup_in(Ns::String, name).is_some(),
                "{name}"
            );
        }
        for name in [
            "str",
            "subs",
            "format",
            "re-find",
            "re-matches",
            "re-seq",
            "re-pattern",
            "char",
            "print-str",
            "pr-str",
            "prn-str",
            "name",
            "namespace",
            "keyword",
            "symbol",
        ] {
            assert!(super::super::lookup_in(Ns::Core, name).is_some(), "{name}");
        }
        assert!(super::super::lookup_in(Ns::Core, "join").is_none());
    }

    #[test]
    fn str_concatenates_displays() {
        assert_eq!(ok(str_fn, &[]), "\"\"");
        assert_eq!(ok(str_fn, &[Value::Int(42)]), "\"42\"");
        assert_eq!(ok(str_fn, &[Value::Float(2.25)]), "\"2.25\"");
        assert_eq!(ok(str_fn, &[Value::Bool(false)]), "\"false\"");
        assert_eq!(ok(str_fn, &[Value::Nil, s("x")]), "\"x\"");
        assert_eq!(ok(str_fn, &[Value::Nil]), "\"\"");
        assert_eq!(
            ok(str_fn, &[Value::Float(0.1), Value::Float(0.2)]),
            "\"0.10.2\""
        );
        assert_eq!(
            ok(str_fn, &[Value::vector_from([Value::Int(1), s("a")])]),
            r#""[1 \"a\"]""#
        );
        assert_eq!(ok(str_fn, &[Value::keyword("k")]), "\":k\"");
        assert_eq!(ok(str_fn, &[s("count: "), Value::Int(42)]), "\"count: 42\"");
    }

    #[test]
    fn str_doubling_hits_the_heap_limit() {
        let mut interp = Interp::standalone();
        let mut v = s("xxxxxxxxxxxxxxxx");
        let mut result = Ok(());
        for _ in 0..40 {
            match str_fn(&mut interp, &[v.clone(), v.clone()]) {
                Ok(n) => v = n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        assert_eq!(result.map_err(|e| e.kind()), Err(ErrorKind::MemoryExceeded));
        // A hugely shared value cannot be printed into a string either.
        let mut interp = Interp::standalone();
        let mut big = Value::Int(1);
        for _ in 0..60 {
            big = Value::vector_from([big.clone(), big]);
        }
        let e = str_fn(&mut interp, &[big]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MemoryExceeded);
    }

    #[test]
    fn printing_to_strings() {
        assert_eq!(
            ok(print_str, &[s("a"), Value::Int(1), Value::Nil]),
            "\"a 1 nil\""
        );
        assert_eq!(ok(println_str, &[s("a")]), "\"a\\n\"");
        assert_eq!(ok(pr_str, &[s("a"), strs(&["b"])]), r#""\"a\" [\"b\"]""#);
        assert_eq!(ok(prn_str, &[Value::keyword("a")]), "\":a\\n\"");
        assert_eq!(ok(pr_str, &[Value::Nil]), "\"nil\"");
    }

    #[test]
    fn subs_clamps() {
        assert_eq!(ok(subs, &[s("hello"), Value::Int(1)]), "\"ello\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(0), Value::Int(0)]),
            "\"\""
        );
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(1), Value::Int(3)]),
            "\"el\""
        );
        assert_eq!(ok(subs, &[s("hello"), Value::Int(-1)]), "\"hello\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(-10), Value::Int(2)]),
            "\"he\""
        );
        assert_eq!(ok(subs, &[s("hello"), Value::Int(10)]), "\"\"");
        assert_eq!(
            ok(subs, &[s("hello"), Value::Int(3), Value::Int(10)]),
            "\"lo\""
        );
        // An end before the start throws (issue 23), as in Clojure.
        assert_eq!(
            err(subs, &[s("hello"), Value::Int(4), Value::Int(2)]),
            ErrorKind::Execution
        );
        assert_eq!(
            ok(subs, &[s("λμνξ"), Value::Int(1), Value::Int(3)]),
            "\"μν\""
        );
        assert_eq!(err(subs, &[Value::Nil, Value::Int(1)]), ErrorKind::Type);
    }

    #[test]
    fn split_like_java() {
        assert_eq!(ok(split, &[s("hello"), s("")]), r#"["h" "e" "l" "l" "o"]"#);
        assert_eq!(ok(split, &[s("a,,b"), s(",")]), r#"["a" "" "b"]"#);
        assert_eq!(ok(split, &[s("a,b,,"), s(",")]), r#"["a" "b"]"#);
        assert_eq!(ok(split, &[s(",a"), s(",")]), r#"["" "a"]"#);
        assert_eq!(ok(split, &[s(""), s(",")]), r#"[""]"#);
        assert_eq!(ok(split, &[s("a b  c"), re(" +")]), r#"["a" "b" "c"]"#);
        assert_eq!(ok(split, &[s("a b"), re(" ")]), r#"["a" "b"]"#);
        assert_eq!(
            ok(split, &[s("a,b,c"), s(","), Value::Int(2)]),
            r#"["a" "b,c"]"#
        );
        assert_eq!(
            ok(split, &[s("a,b,,"), s(","), Value::Int(-1)]),
            r#"["a" "b" "" ""]"#
        );
        assert_eq!(ok(split, &[s("abc"), re("")]), r#"["a" "b" "c"]"#);
    }

    #[test]
    fn split_lines_cases() {
        assert_eq!(ok(split_lines, &[s("a\nb\r\nc")]), r#"["a" "b" "c"]"#);
        assert_eq!(
            ok(split_lines, &[s("line1\nline2\n\n\n")]),
            r#"["line1" "line2"]"#
        );
        assert_eq!(
            ok(split_lines, &[s("line1\n\nline3")]),
            r#"["line1" "" "line3"]"#
        );
        assert_eq!(ok(split_lines, &[s("\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\n\n\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\r\n\r\n")]), "[]");
        assert_eq!(ok(split_lines, &[s("\nline1")]), r#"["" "line1"]"#);
        assert_eq!(ok(split_lines, &[s("\r")]), r#"["\r"]"#);
        assert_eq!(ok(split_lines, &[s("a\rb")]), r#"["a\rb"]"#);
        assert_eq!(ok(split_lines, &[s("")]), r#"[""]"#);
    }

    #[test]
    fn join_cases() {
        assert_eq!(ok(join, &[s(", "), strs(&["a", "b", "c"])]), "\"a, b, c\"");
        assert_eq!(
            ok(
                join,
                &[s("-"), Value::vector_from([1, 2, 3].map(Value::Int))]
            ),
            "\"1-2-3\""
        );
        assert_eq!(ok(join, &[strs(&["a", "b", "c"])]), "\"abc\"");
        assert_eq!(ok(join, &[s(","), Value::empty_vector()]), "\"\"");
        assert_eq!(
            ok(
                join,
                &[s(","), Value::vector_from([s("a"), Value::Nil, s("b")])]
            ),
            "\"a,,b\""
        );
        assert_eq!(ok(join, &[s(""), s("cba")]), "\"cba\"");
        assert_eq!(ok(join, &[s(","), Value::Nil]), "\"\"");
        assert_eq!(err(join, &[strs(&["a"]), s(",")]), ErrorKind::Type);
    }

    #[test]
    fn trims_and_cases() {
        assert_eq!(ok(trim, &[s("\n\tworld\r\n")]), "\"world\"");
        assert_eq!(ok(trim, &[s("  hi  ")]), "\"hi\"");
        assert_eq!(ok(triml, &[s("  hi  ")]), "\"hi  \"");
        assert_eq!(ok(trimr, &[s("  hi  ")]), "\"  hi\"");
        assert_eq!(ok(trim_newline, &[s("hi\r\n\n")]), "\"hi\"");
        assert_eq!(ok(upper_case, &[s("HeLLo")]), "\"HELLO\"");
        assert_eq!(ok(lower_case, &[s("WORLD")]), "\"world\"");
        assert_eq!(ok(capitalize, &[s("hELLO")]), "\"Hello\"");
        assert_eq!(ok(capitalize, &[s("")]), "\"\"");
        assert_eq!(ok(reverse, &[s("abc")]), "\"cba\"");
        assert_eq!(ok(blank, &[Value::Nil]), "true");
        assert_eq!(ok(blank, &[s(" \t\n")]), "true");
        assert_eq!(ok(blank, &[s(" a ")]), "false");
        assert_eq!(err(upper_case, &[Value::Nil]), ErrorKind::Type);
    }

    #[test]
    fn predicates_and_indices() {
        assert_eq!(ok(starts_with, &[s("hello"), s("he")]), "true");
        assert_eq!(ok(starts_with, &[s("hello"), s("lo")]), "false");
        assert_eq!(ok(ends_with, &[s("hello"), s("lo")]), "true");
        assert_eq!(ok(ends_with, &[s("hello"), s("")]), "true");
        assert_eq!(ok(includes, &[s("hello"), s("ll")]), "true");
        assert_eq!(ok(includes, &[s("hello"), s("x")]), "false");
        assert_eq!(ok(includes, &[s("hello"), s("")]), "true");
        assert_eq!(ok(index_of, &[s("hello"), s("l")]), "2");
        assert_eq!(ok(index_of, &[s("hello"), s("l"), Value::Int(3)]), "3");
        assert_eq!(ok(index_of, &[s("hello"), s("z")]), "nil");
        assert_eq!(ok(index_of, &[s("λλx"), s("x")]), "2");
        assert_eq!(ok(last_index_of, &[s("hello"), s("l")]), "3");
        assert_eq!(ok(last_index_of, &[s("hello"), s("l"), Value::Int(2)]), "2");
        assert_eq!(
            ok(last_index_of, &[s("hello"), s("l"), Value::Int(1)]),
            "nil"
        );
        assert_eq!(ok(last_index_of, &[s("λλxλx"), s("x")]), "4");
    }

    #[test]
    fn replace_cases() {
        assert_eq!(ok(replace, &[s("hello"), s("l"), s("L")]), "\"heLLo\"");
        assert_eq!(ok(replace, &[s("aaa"), s("a"), s("b")]), "\"bbb\"");
        assert_eq!(ok(replace, &[s("aXb"), s("X"), s("$1")]), "\"a$1b\"");
        assert_eq!(ok(replace, &[s("a1b22"), re("\\d+"), s("#")]), "\"a#b#\"");
        assert_eq!(
            ok(
                replace,
                &[s("john smith"), re("(\\w+) (\\w+)"), s("$2, $1")]
            ),
            "\"smith, john\""
        );
        assert_eq!(ok(replace, &[s("a.b"), re("\\."), s("\\$")]), "\"a$b\"");
        assert_eq!(
            err(replace, &[s("ab"), re("(a)"), s("$2")]),
            ErrorKind::Execution
        );
        let up = Func::native("up", |_, args| {
            Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase()))
        });
        assert_eq!(ok(replace, &[s("a b"), re("[a-z]"), up.clone()]), "\"A B\"");
        let first_group = Func::native("g", |_, args| {
            Ok(args[0]
                .as_vector()
                .and_then(|v| v.get(1).cloned())
                .unwrap_or(Value::Nil))
        });
        assert_eq!(
            ok(replace, &[s("x1 y2"), re("[a-z](\\d)"), first_group]),
            "\"1 2\""
        );
        assert_eq!(
            ok(replace_first, &[s("a-b-c"), s("-"), s("+")]),
            "\"a+b-c\""
        );
        assert_eq!(
            ok(replace_first, &[s("a1b2"), re("\\d"), s("<$0>")]),
            "\"a<1>b2\""
        );
        let bang = Func::native("bang", |_, _| Ok(Value::from("!")));
        assert_eq!(ok(replace, &[s("a.b.c"), s("."), bang]), "\"a!b!c\"");
        assert_eq!(ok(replace, &[s("ab"), re("[a-z]"), up]), "\"AB\"");
    }

    #[test]
    fn regex_functions() {
        assert_eq!(ok(re_find, &[re("\\d+"), s("v1")]), "\"1\"");
        assert_eq!(ok(re_find, &[re("\\d+"), s("abc")]), "nil");
        assert_eq!(
            ok(re_find, &[re("(\\d+)-(\\d+)"), s("range: 10-20")]),
            r#"["10-20" "10" "20"]"#
        );
        assert_eq!(ok(re_find, &[re("(a)|(b)"), s("b")]), r#"["b" nil "b"]"#);
        assert_eq!(ok(re_matches, &[re("\\d+"), s("123")]), "\"123\"");
        assert_eq!(ok(re_matches, &[re("(\\d+)"), s("x1")]), "nil");
        assert_eq!(
            ok(re_matches, &[re("(\\w+)@(\\w+)"), s("bob@host")]),
            r#"["bob@host" "bob" "host"]"#
        );
        assert_eq!(ok(re_matches, &[re("a|ab"), s("ab")]), "\"ab\"");
        assert_eq!(
            ok(re_seq, &[re("\\d+"), s("a1 b22 c333")]),
            r#"["1" "22" "333"]"#
        );
        assert_eq!(ok(re_seq, &[re("\\d+"), s("abc")]), "nil");
        assert_eq!(
            ok(re_seq, &[re("(\\w)(\\d)"), s("a1 b2")]),
            r#"[["a1" "a" "1"] ["b2" "b" "2"]]"#
        );
        assert_eq!(ok(re_find, &[re("x"), Value::Nil]), "nil");
        let long = format!("{}last", "λ".repeat(5000));
        assert_eq!(ok(re_find, &[re("last"), s(&long)]), "\"last\"");
        assert_eq!(ok(re_pattern, &[s("\\d+")]), r#"#"\d+""#);
        assert_eq!(err(re_pattern, &[s("[")]), ErrorKind::Execution);
        let e = call(re_pattern, &[s("a(?=b)")]).unwrap_err();
        assert!(e.hint().is_some_and(|h| h.contains("lookahead")));
    }

    #[test]
    fn java_regex_syntax_is_translated() {
        let m = |src: &str, text: &str| ok(re_find, &[re(src), s(text)]);
        assert_eq!(m("\\p{Alpha}+", "12abc3"), "\"abc\"");
        assert_eq!(m("\\p{Punct}", "ab!c"), "\"!\"");
        assert_eq!(m("\\Qa.b\\E", "axb a.b"), "\"a.b\"");
        assert_eq!(m("a++b", "aaab"), "\"aaab\"");
        assert_eq!(m("(?>ab)c", "abc"), "\"abc\"");
        assert_eq!(m("\\p{IsAlphabetic}+", "1ab"), "\"ab\"");
        assert_eq!(m("x\\h+y", "x \t y"), "\"x \\t y\"");
    }

    #[test]
    fn format_directives() {
        let f = |args: &[Value]| ok(format_fn, args);
        assert_eq!(f(&[s("%s-%s"), s("a"), Value::Int(1)]), "\"a-1\"");
        assert_eq!(f(&[s("%d items"), Value::Int(3)]), "\"3 items\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(1.23456)]), "\"1.23\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(2.675)]), "\"2.68\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(3.0)]), "\"3.00\"");
        assert_eq!(f(&[s("%f"), Value::Float(1.5)]), "\"1.500000\"");
        assert_eq!(f(&[s("%.0f"), Value::Float(2.5)]), "\"3\"");
        assert_eq!(f(&[s("%.1f"), Value::Float(0.05)]), "\"0.1\"");
        assert_eq!(f(&[s("%.1f"), Value::Float(9.96)]), "\"10.0\"");
        assert_eq!(f(&[s("%.3f"), Value::Float(0.0004)]), "\"0.000\"");
        assert_eq!(f(&[s("%.3f"), Value::Float(0.0005)]), "\"0.001\"");
        assert_eq!(f(&[s("%.2f"), Value::Float(-1.005)]), "\"-1.01\"");
        assert_eq!(f(&[s("%5d|"), Value::Int(42)]), "\"   42|\"");
        assert_eq!(f(&[s("%-5s|"), s("ab")]), "\"ab   |\"");
        assert_eq!(f(&[s("%05d"), Value::Int(-42)]), "\"-0042\"");
        assert_eq!(f(&[s("%,d"), Value::Int(1234567)]), "\"1,234,567\"");
        assert_eq!(
            f(&[s("%,.2f"), Value::Float(1234567.891)]),
            "\"1,234,567.89\""
        );
        assert_eq!(f(&[s("%+d"), Value::Int(5)]), "\"+5\"");
        assert_eq!(
            f(&[s("%x %X"), Value::Int(255), Value::Int(255)]),
            "\"ff FF\""
        );
        assert_eq!(f(&[s("100%%%n")]), "\"100%\\n\"");
        assert_eq!(f(&[s("%e"), Value::Float(12345.678)]), "\"1.234568e+04\"");
        assert_eq!(f(&[s("%.2e"), Value::Float(0.000123)]), "\"1.23e-04\"");
        assert_eq!(f(&[s("%g"), Value::Float(0.0001)]), "\"0.000100000\"");
        assert_eq!(f(&[s("%g"), Value::Float(123456789.0)]), "\"1.23457e+08\"");
        assert_eq!(
            f(&[s("%b %b"), Value::Nil, Value::Int(0)]),
            "\"false true\""
        );
        assert_eq!(f(&[s("%c%c"), s("a"), Value::Int(98)]), "\"ab\"");
        assert_eq!(f(&[s("%2$s %1$s"), s("a"), s("b")]), "\"b a\"");
        assert_eq!(f(&[s("%s"), Value::Nil]), "\"null\"");
        assert_eq!(
            f(&[
                s("%s"),
                Value::map_from([(Value::keyword("a"), Value::Int(1))])
            ]),
            "\"{:a 1}\""
        );
        assert_eq!(f(&[s("%.3s"), s("abcdef")]), "\"abc\"");
        // Java: %d of a float, even an integral one, is an error.
        assert_eq!(
            err(format_fn, &[s("%d"), Value::Float(5.0)]),
            ErrorKind::Type
        );
        assert_eq!(err(format_fn, &[s("%.2f"), Value::Int(3)]), ErrorKind::Type);
        assert_eq!(f(&[s("%.2f"), Value::Float(0.0)]), "\"0.00\"");
        assert_eq!(
            f(&[s("%.1f"), Value::Float(1e20)]),
            "\"100000000000000000000.0\""
        );
        assert_eq!(
            err(format_fn, &[s("%d"), Value::Float(1.5)]),
            ErrorKind::Type
        );
        assert_eq!(err(format_fn, &[s("%d")]), ErrorKind::Execution);
        assert_eq!(
            err(format_fn, &[s("%q"), Value::Int(1)]),
            ErrorKind::Execution
        );
        assert_eq!(err(format_fn, &[s("50%")]), ErrorKind::Execution);
        assert_eq!(
            err(format_fn, &[s("%99999999999s"), s("x")]),
            ErrorKind::Execution
        );
        assert_eq!(
            err(format_fn, &[s("%.99999999999f"), Value::Float(1.0)]),
            ErrorKind::Execution
        );
    }

    #[test]
    fn names_and_keywords() {
        assert_eq!(ok(name_fn, &[Value::keyword("user/id")]), "\"id\"");
        assert_eq!(ok(name_fn, &[Value::keyword("id")]), "\"id\"");
        assert_eq!(ok(name_fn, &[s("a/b")]), "\"a/b\"");
        assert_eq!(ok(name_fn, &[Value::symbol("x")]), "\"x\"");
        assert_eq!(err(name_fn, &[Value::Nil]), ErrorKind::Type);
        assert_eq!(ok(namespace_fn, &[Value::keyword("user/id")]), "\"user\"");
        assert_eq!(ok(namespace_fn, &[Value::keyword("id")]), "nil");
        assert_eq!(ok(keyword_fn, &[s("status")]), ":status");
        assert_eq!(ok(keyword_fn, &[Value::keyword("a")]), ":a");
        assert_eq!(ok(keyword_fn, &[Value::Nil]), "nil");
        assert_eq!(ok(keyword_fn, &[Value::Int(1)]), "nil");
        assert_eq!(ok(keyword_fn, &[s("ns"), s("n")]), ":ns/n");
        assert_eq!(ok(keyword_fn, &[Value::Nil, s("n")]), ":n");
        assert_eq!(ok(symbol_fn, &[s("x")]), "x");
        assert_eq!(ok(symbol_fn, &[s("ns"), s("x")]), "ns/x");
        assert_eq!(ok(char_fn, &[Value::Int(97)]), "\"a\"");
        assert_eq!(ok(char_fn, &[s("a")]), "\"a\"");
        assert_eq!(err(char_fn, &[Value::Int(-1)]), ErrorKind::Execution);
    }

    #[test]
    fn escape_with_map_and_fn() {
        let m = Value::map_from([(s("<"), s("&lt;")), (s(">"), s("&gt;"))]);
        assert_eq!(ok(escape, &[s("a<b>"), m]), "\"a&lt;b&gt;\"");
        let f = Func::native("f", |_, args| {
            Ok(if args[0].as_str() == Some("a") {
                Value::Int(1)
            } else {
                Value::Nil
            })
        });
        assert_eq!(ok(escape, &[s("abc"), f]), "\"1bc\"");
    }
}
