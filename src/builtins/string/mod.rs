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
//!   print-str println-str pr-str prn-str name namespace keyword symbol`,
//!   and PTC-Lisp's `re-split` (`clojure.string/split` with the regex
//!   first).
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
//!
//! This file holds the table and the helpers the others share (heap room,
//! built strings, character indices); the functions are in `build`,
//! `names`, `re`, `case_trim`, `search`, `split` and `replace` (strings
//! of a length known beforehand are written in place by `exact`), and
//! `format` in `strformat`.

mod build;
mod case_trim;
mod exact;
mod names;
mod re;
mod replace;
mod search;
mod split;
#[cfg(test)]
mod tests;

use build::*;
pub(crate) use build::{append_settled, printed_settled, texts_settled};
use case_trim::*;
use names::*;
use re::*;
use replace::*;
use search::*;
pub(crate) use search::{text_test, TextTest};
use split::*;

use crate::value::Text;
use std::sync::Arc;

use regex::Regex;

use super::args;
use super::{Arity, Builtin, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::format::{self, Style};
use crate::value::regex::{compile_regex, Pattern};
use crate::value::{cost, Value, Vector};

pub const BUILTINS: &[Builtin] = &[
    // clojure.core
    Builtin::new(
        "str",
        Arity::at_least(0),
        "Concatenates its arguments: strings as they are, nil as nothing, other values printed",
        str_fn,
    )
    .owned(str_owned)
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
        "re-split",
        Arity::exact(2),
        "Splits a string around the matches of a regex, as clojure.string/split; trailing empty strings are dropped (PTC-Lisp).",
        re_split,
    )
    .example("(re-split #\"\\s*,\\s*\" \"a , b,c\") ;=> [\"a\" \"b\" \"c\"]"),
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
    interp.alloc(cost::string_bytes(s.len()))?;
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

pub(super) use args::{byte_at, char_count};

/// `Character.isWhitespace` (what Clojure's trim and blank? use).
fn is_java_whitespace(c: char) -> bool {
    match c {
        '\u{1C}'..='\u{1F}' => true,
        '\u{85}' | '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        _ => c.is_whitespace(),
    }
}
