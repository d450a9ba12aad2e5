//! Compiling regexes written in Java/Clojure syntax with the `regex` crate
//! (linear time: no catastrophic backtracking, no lookaround or
//! backreferences). A pattern the crate rejects is retried after translating
//! the common Java-only forms (`\p{Alpha}`-style POSIX classes, `\Q…\E`, `\h`,
//! `\R`, `\Z`, possessive quantifiers, atomic groups). Compiled patterns are
//! cached per thread. Used by the reader for `#"…"` and by the regex builtins.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use regex::{Regex, RegexBuilder};

use crate::error::{Error, Result};

/// A compiled regex that remembers its source as written (what `#"…"`
/// prints); it dereferences to the compiled [`Regex`].
pub struct Pattern {
    regex: Regex,
    source: String,
    heap_bytes: u64,
}

impl Pattern {
    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The memory this compiled regex may hold, as charged to the heap
    /// budget when it was compiled (see [`compile_regex`]).
    pub fn heap_bytes(&self) -> u64 {
        self.heap_bytes
    }
}

impl std::ops::Deref for Pattern {
    type Target = Regex;
    fn deref(&self) -> &Regex {
        &self.regex
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#\"{}\"", self.source)
    }
}

/// Compiled regexes by source.
pub(crate) type RegexCache = HashMap<String, Arc<Pattern>>;

thread_local! {
    static REGEX_CACHE: RefCell<RegexCache> = RefCell::new(HashMap::new());
}

/// Puts `cache` in place of this thread's regex cache and returns the one
/// it replaces. A turn runs with a cache of its own, empty at its start
/// ([`crate::Interp::run_program`]), so what a program compiles is charged
/// the same whatever ran on the thread before it.
pub(crate) fn swap_regex_cache(cache: RegexCache) -> RegexCache {
    REGEX_CACHE.with(|c| std::mem::replace(&mut *c.borrow_mut(), cache))
}

const REGEX_CACHE_MAX: usize = 64;
/// Longer patterns are not cached (they are rare, and may be large).
const REGEX_CACHE_MAX_SRC: usize = 1000;
/// Compiled regexes charged more than this are not cached, so the cache of
/// a long-lived thread holds at most 64 × 48 KiB.
const REGEX_CACHE_MAX_BYTES: u64 = 48 << 10;
/// Compiled size limit of one regex's program (the crate's default is
/// 10 MB); a pattern past it is an `execution-error`.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// The first compiled size tried; each retry allows four times more, up to
/// [`REGEX_SIZE_LIMIT`]. The limit a pattern first fits under bounds its
/// size (within 4×) at little cost (a failed try stops at its limit).
const REGEX_FIRST_SIZE: usize = 4 << 10;

/// Compiles a regex written in Java/Clojure syntax (see the module docs),
/// with a per-thread cache. The error is an `execution-error` naming the
/// pattern. Used for `re-pattern`, string patterns, and `#"..."` literals
/// (at analysis).
///
/// A fresh compilation is charged to the running turn's heap budget
/// ([`crate::eval::budget::charge_heap`]) for what the regex may hold: its
/// program (compiled forward and reverse) and the lazy DFA's cache, each
/// bounded by the size limit it compiled under, so three times that limit
/// (at least 12 KiB). A cache hit is not charged again: the cache lives as
/// long as the turn ([`swap_regex_cache`]).
pub fn compile_regex(src: &str) -> Result<Arc<Pattern>> {
    if let Some(re) = REGEX_CACHE.with(|c| c.borrow().get(src).cloned()) {
        return Ok(re);
    }
    let (regex, size_bound) = compile_uncached(src)?;
    let heap_bytes = 3 * size_bound as u64;
    crate::eval::budget::charge_heap(heap_bytes);
    crate::eval::budget::charge_work(heap_bytes / 64);
    let re = Arc::new(Pattern {
        regex,
        source: src.to_string(),
        heap_bytes,
    });
    if src.len() > REGEX_CACHE_MAX_SRC || heap_bytes > REGEX_CACHE_MAX_BYTES {
        return Ok(re);
    }
    REGEX_CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= REGEX_CACHE_MAX {
            c.clear();
        }
        c.insert(src.to_string(), re.clone());
    });
    Ok(re)
}

/// Builds `p` under the smallest size limit it fits (see
/// [`REGEX_FIRST_SIZE`]); returns the regex and that limit.
fn build_sized(p: &str) -> std::result::Result<(Regex, usize), regex::Error> {
    let mut limit = REGEX_FIRST_SIZE;
    loop {
        match RegexBuilder::new(p)
            .size_limit(limit)
            .dfa_size_limit(limit)
            .build()
        {
            Ok(re) => return Ok((re, limit)),
            Err(regex::Error::CompiledTooBig(_)) if limit < REGEX_SIZE_LIMIT => {
                limit = (limit * 4).min(REGEX_SIZE_LIMIT)
            }
            Err(e) => return Err(e),
        }
    }
}

fn compile_uncached(src: &str) -> Result<(Regex, usize)> {
    let build = build_sized;
    // Java's meaning first (ASCII \w \d \s \b, POSIX-style properties …),
    // then the pattern as the regex crate reads it.
    if let Some(translated) = translate_java_regex(src) {
        if let Ok(re) = build(&translated) {
            return Ok(re);
        }
    }
    let first_err = match build(src) {
        Ok(re) => return Ok(re),
        Err(e) => e,
    };
    let detail = regex_error_line(&first_err);
    let err = Error::execution(format!("invalid regex #\"{src}\": {detail}"));
    Err(if matches!(first_err, regex::Error::CompiledTooBig(_)) {
        err.with_hint(format!(
            "a compiled regex may take at most {REGEX_SIZE_LIMIT} bytes; use smaller repetition counts (e.g. \\w+ instead of \\w{{1,12000}}) and check lengths with count"
        ))
    } else if uses_unsupported_regex_features(src) {
        err.with_hint(
            "lookahead, lookbehind and backreferences are not supported (the regex engine runs in linear time); match more broadly and filter the results",
        )
    } else {
        err
    })
}

/// The one informative line of a `regex` crate error.
fn regex_error_line(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| {
            l.trim()
                .strip_prefix("error:")
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| text.lines().last().unwrap_or("").trim().to_string())
}

fn uses_unsupported_regex_features(src: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!", "\\k<"]
        .iter()
        .any(|p| src.contains(p))
        || src
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0')
}

/// Rewrites the Java-only regex forms into `regex` crate syntax. `None`
/// when the pattern ends inside an escape.
/// The ASCII members of Java's `\w`, `\d`, `\s`, for use inside `[...]`.
fn ascii_class_body(class: char) -> &'static str {
    match class {
        'w' => "0-9A-Za-z_",
        'd' => "0-9",
        _ => " \\t\\n\\x0B\\f\\r",
    }
}

fn translate_java_regex(src: &str) -> Option<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len() + 16);
    let mut i = 0;
    let mut class_depth = 0usize;
    // Whether the previous element was a quantifier (for possessive `+`).
    let mut after_quantifier = false;
    while i < chars.len() {
        let c = chars[i];
        let was_quantifier = after_quantifier;
        after_quantifier = false;
        match c {
            '\\' => {
                let next = *chars.get(i + 1)?;
                i += 2;
                match next {
                    'Q' => {
                        let mut lit = String::new();
                        while i < chars.len() {
                            if chars[i] == '\\' && chars.get(i + 1) == Some(&'E') {
                                i += 2;
                                break;
                            }
                            lit.push(chars[i]);
                            i += 1;
                        }
                        out.push_str(&regex::escape(&lit));
                    }
                    'p' | 'P' if chars.get(i) == Some(&'{') => {
                        let close = chars[i..].iter().position(|&c| c == '}')? + i;
                        let name: String = chars[i + 1..close].iter().collect();
                        i = close + 1;
                        out.push_str(&java_property(&name, next == 'P'));
                    }
                    'h' => out.push_str(H_SPACE),
                    'H' => out.push_str(&H_SPACE.replacen('[', "[^", 1)),
                    'R' if class_depth == 0 => {
                        out.push_str("(?:\\r\\n|[\\n\\x0B\\x0C\\r\\x{85}\\x{2028}\\x{2029}])")
                    }
                    'Z' => out.push_str("\\z"),
                    'e' => out.push_str("\\x1B"),
                    'c' => {
                        let ctl = *chars.get(i)?;
                        i += 1;
                        let _ = write!(out, "\\x{{{:X}}}", (ctl as u32) ^ 0x40);
                    }
                    '0' => {
                        let mut code = 0u32;
                        let mut n = 0;
                        while n < 3 {
                            match chars.get(i).and_then(|d| d.to_digit(8)) {
                                Some(d) if code * 8 + d <= 0o377 => {
                                    code = code * 8 + d;
                                    i += 1;
                                    n += 1;
                                }
                                _ => break,
                            }
                        }
                        let _ = write!(out, "\\x{{{code:X}}}");
                    }
                    // Java's \w \d \s \b are ASCII-only; the regex crate's
                    // are Unicode-aware.
                    'w' | 'd' | 's' if class_depth > 0 => out.push_str(ascii_class_body(next)),
                    'w' | 'd' | 's' => {
                        out.push('[');
                        out.push_str(ascii_class_body(next));
                        out.push(']');
                    }
                    'W' | 'D' | 'S' if class_depth == 0 => {
                        out.push_str("[^");
                        out.push_str(ascii_class_body(next.to_ascii_lowercase()));
                        out.push(']');
                    }
                    'b' | 'B' if class_depth == 0 => {
                        out.push_str("(?-u:\\");
                        out.push(next);
                        out.push(')');
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
                continue;
            }
            '[' => {
                class_depth += 1;
                out.push(c);
                // A `]` or `^]` right after the opening is literal.
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
            }
            ']' if class_depth > 0 => {
                class_depth -= 1;
                out.push(c);
                after_quantifier = false;
            }
            '(' if class_depth == 0
                && chars.get(i + 1) == Some(&'?')
                && chars.get(i + 2) == Some(&'>') =>
            {
                // Atomic group: no backtracking to undo in a DFA; plain group.
                out.push_str("(?:");
                i += 3;
                continue;
            }
            '*' | '+' | '?' if class_depth == 0 => {
                if c == '+' && was_quantifier {
                    // Possessive quantifier: drop the `+`.
                } else {
                    out.push(c);
                    after_quantifier = c != '?' || !was_quantifier;
                }
            }
            '}' if class_depth == 0 => {
                out.push(c);
                after_quantifier = true;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Some(out)
}

const H_SPACE: &str = "[ \\t\\xA0\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}]";

/// `\p{Name}` in Java terms, as `regex` crate syntax.
fn java_property(name: &str, negated: bool) -> String {
    let class = match name {
        "Lower" => Some("a-z"),
        "Upper" => Some("A-Z"),
        "ASCII" => Some("\\x00-\\x7F"),
        "Alpha" => Some("a-zA-Z"),
        "Digit" => Some("0-9"),
        "Alnum" => Some("a-zA-Z0-9"),
        "Punct" => Some("!-/:-@\\[-`{-~"),
        "Graph" => Some("!-~"),
        "Print" => Some(" -~"),
        "Blank" => Some(" \\t"),
        "Cntrl" => Some("\\x00-\\x1F\\x7F"),
        "XDigit" => Some("0-9a-fA-F"),
        "Space" => Some(" \\t\\n\\x0B\\f\\r"),
        "javaWhitespace" => Some("\\s"),
        "javaDigit" => Some("\\d"),
        "javaLetter" => Some("\\p{L}"),
        "javaLetterOrDigit" => Some("\\p{L}\\p{Nd}"),
        "javaLowerCase" => Some("\\p{Lowercase}"),
        "javaUpperCase" => Some("\\p{Uppercase}"),
        _ => None,
    };
    if let Some(class) = class {
        return format!("[{}{}]", if negated { "^" } else { "" }, class);
    }
    let prop = name
        .strip_prefix("Is")
        .or_else(|| name.strip_prefix("In"))
        .unwrap_or(name);
    format!("\\{}{{{}}}", if negated { 'P' } else { 'p' }, prop)
}
