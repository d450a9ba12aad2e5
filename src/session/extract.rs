//! Getting the program out of an LLM response (rendering.md §6, R-70).
//!
//! A line-by-line parser, not a regex:
//! 1. fenced blocks (three or more backticks, optional tag) tagged `clojure`,
//!    `clj`, `lisp`, `ptc`, `ptc-lisp` or untagged are code; every code block,
//!    in order, joined by a newline, is the program; an unclosed fence runs to
//!    the end;
//! 2. otherwise a response whose trimmed text starts with `(` — after any
//!    leading `;` comment lines and blank lines — is the program (models
//!    often open with `;; Step 1: …`, as `ptc run` accepts);
//! 3. otherwise a response that is only code but does not start with `(`
//!    (issue 27 item 8: `[(count xs) (first xs)]`, `{:total 3}`,
//!    `data/orders`) is the program when the reader reads the whole
//!    trimmed response as forms and every top-level form is *code-shaped*:
//!    a list, a vector, map or set literal, or a symbol no prose word is:
//!    qualified by `data/`, `user/`, `tool/` or a namespace ptc provides
//!    (`data/orders`, `user/total`, `str/join`), or `*1` `*2` `*3`. Prose
//!    never runs: a response of plain or hyphenated words (`Done`,
//!    `I think so`, `well-known`, `and/or`), numbers, strings, keywords or
//!    booleans alone is not code, even though it reads as forms;
//! 4. otherwise there is no program ([`no_code_error`], a `parse-error`
//!    whose message names the fenced languages it skipped: "(found a
//!    `` ```python `` block, which is not run)");
//! 5. a program with nothing to run — a lone fence line, an empty block,
//!    only whitespace or `;` comments — is a failed turn too
//!    ([`empty_program_error`], a `parse-error` "your code block was
//!    empty"), never a successful `nil`.
//!
//! Before that, zero-width characters and byte-order marks are removed from
//! the response, and in the program typographic quotes outside strings and
//! comments become plain ones (`“x”` → `"x"`, `‘x` → `'x`).

use crate::error::Error;

/// Code fence tags whose blocks are PTC-Lisp.
pub const CODE_TAGS: &[&str] = &["clojure", "clj", "lisp", "ptc", "ptc-lisp"];

/// The program in `response`, cleaned, or `None` when it holds no code.
pub fn extract_program(response: &str) -> Option<String> {
    // Most responses hold no invisible characters: they are read in place.
    let cleaned;
    let response = if has_invisible(response) {
        cleaned = remove_invisible(response);
        cleaned.as_str()
    } else {
        response
    };
    let program = match code_blocks(response) {
        Some(blocks) => blocks.join("\n"),
        None if is_bare_code(response) || reads_as_code(response) => response.trim().to_string(),
        None => return None,
    };
    Some(if has_typographic_quotes(&program) {
        plain_quotes(&program)
    } else {
        program
    })
}

/// Whether a response without code blocks is code (R-70.2): its first line
/// that is neither blank nor a `;` comment starts with `(`.
fn is_bare_code(response: &str) -> bool {
    response
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with(';'))
        .is_some_and(|l| l.starts_with('('))
}

/// Whether a response without code blocks that does not start with `(` is
/// code all the same (rule 3 of the module docs).
fn reads_as_code(response: &str) -> bool {
    use crate::reader::FormKind;
    let text = response.trim();
    if text.is_empty() {
        return false;
    }
    let Ok(forms) = crate::reader::read_all(text) else {
        return false;
    };
    !forms.is_empty()
        && forms.iter().all(|f| match &f.kind {
            FormKind::List(_) | FormKind::Vector(_) | FormKind::Map(_) | FormKind::Set(_) => true,
            FormKind::Symbol(s) => {
                matches!(s.as_str(), "*1" | "*2" | "*3")
                    || s.split_once('/').is_some_and(|(ns, name)| {
                        !name.is_empty()
                            && (matches!(ns, "data" | "user" | "tool")
                                || crate::builtins::Ns::from_qualifier(ns).is_some())
                    })
            }
            _ => false,
        })
}

/// The error of a turn whose response holds no code (R-70.4). When the
/// response had fenced blocks in other languages, the message names them
/// (models write Python, JSON … blocks), so the model sees what was
/// skipped: "no PTC-Lisp code found in the response (found a ```python
/// block, which is not run)".
pub fn no_code_error(response: &str) -> Error {
    let skipped = skipped_languages(response);
    let message = match skipped.as_slice() {
        [] => "no PTC-Lisp code found in the response".to_string(),
        [one] => format!(
            "no PTC-Lisp code found in the response (found a ```{one} block, which is not run)"
        ),
        many => format!(
            "no PTC-Lisp code found in the response (found blocks in {}, which are not run)",
            many.iter()
                .map(|l| format!("```{l}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let hint = if skipped.is_empty() {
        "answer with the program in a ```clojure code block"
    } else {
        "write PTC-Lisp (Clojure syntax) in a ```clojure code block; only that language runs"
    };
    Error::parse(message).with_hint(hint)
}

/// The error of a turn whose code block holds nothing to run (only
/// whitespace or comments): a failed turn, never `nil` (R-70.5).
pub fn empty_program_error() -> Error {
    Error::parse("your code block was empty: there was no program to run")
        .with_hint("write the program inside the ```clojure block, not after it")
}

/// Whether an extracted program has nothing to run: blank, or only `;`
/// comments (a program that does not read is not empty: its parse error
/// is the turn's error).
pub fn is_empty_program(program: &str) -> bool {
    if program.trim_start().starts_with('(') {
        return false;
    }
    program
        .lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with(';'))
}

/// The distinct tags of fenced blocks that are not code (`python`, `json`
/// …), in order of appearance, at most 3, each at most 20 characters.
fn skipped_languages(response: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut fence: Option<usize> = None;
    for line in response.lines() {
        let trimmed = line.trim();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        match fence {
            None if ticks >= 3 => {
                fence = Some(ticks);
                let tag = trimmed[ticks..].split_whitespace().next().unwrap_or("");
                let tag: String = tag
                    .chars()
                    .filter(|c| c.is_alphanumeric() || "+-#_.".contains(*c))
                    .take(20)
                    .collect::<String>()
                    .to_lowercase();
                if !tag.is_empty()
                    && !CODE_TAGS.contains(&tag.as_str())
                    && !found.contains(&tag)
                    && found.len() < 3
                {
                    found.push(tag);
                }
            }
            Some(f) if ticks >= f && ticks == trimmed.len() => fence = None,
            _ => {}
        }
    }
    found
}

/// The code blocks of a response, or `None` when it has none.
fn code_blocks(response: &str) -> Option<Vec<String>> {
    // A fence line holds three backticks: without them, no line is one.
    if !has_three_backticks(response) {
        return None;
    }
    let mut blocks = Vec::new();
    // (fence length, is code, lines so far)
    let mut open: Option<(usize, bool, Vec<&str>)> = None;
    for line in response.lines() {
        let trimmed = line.trim();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        match &mut open {
            None => {
                if ticks >= 3 {
                    let tag = trimmed[ticks..].trim();
                    let tag = tag.split_whitespace().next().unwrap_or("").to_lowercase();
                    let is_code = tag.is_empty() || CODE_TAGS.contains(&tag.as_str());
                    open = Some((ticks, is_code, Vec::new()));
                }
            }
            Some((fence, is_code, lines)) => {
                if ticks >= *fence && ticks == trimmed.len() {
                    if *is_code {
                        blocks.push(lines.join("\n"));
                    }
                    open = None;
                } else {
                    lines.push(line);
                }
            }
        }
    }
    if let Some((_, true, lines)) = open {
        blocks.push(lines.join("\n"));
    }
    if blocks.is_empty() {
        None
    } else {
        Some(blocks)
    }
}

/// Whether "```" occurs in `text` (found by its first backtick: most
/// responses hold none, and a substring search costs more to set up than
/// this scan).
fn has_three_backticks(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find('`') {
        if rest[i..].starts_with("```") {
            return true;
        }
        rest = &rest[i + 1..];
    }
    false
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
    )
}

/// Whether `text` holds a character [`remove_invisible`] removes (all of
/// them are outside ASCII).
fn has_invisible(text: &str) -> bool {
    !text.is_ascii() && text.contains(is_invisible)
}

/// Whether [`plain_quotes`] would change `program`: it holds a
/// typographic quote (none is ASCII).
fn has_typographic_quotes(program: &str) -> bool {
    !program.is_ascii() && program.contains(['\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}'])
}

/// Removes zero-width characters and byte-order marks.
pub fn remove_invisible(text: &str) -> String {
    text.chars().filter(|&c| !is_invisible(c)).collect()
}

/// Typographic quotes outside strings and comments become plain quotes; a
/// string opened by `“` is closed by `”` (or `“`). Inside a string opened by
/// `"`, and in comments, every character is kept.
pub fn plain_quotes(program: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        Code,
        Str,
        TypoStr,
        Comment,
    }
    let mut out = String::with_capacity(program.len());
    let mut state = State::Code;
    let mut chars = program.chars();
    while let Some(c) = chars.next() {
        match state {
            State::Code => match c {
                '"' => {
                    out.push('"');
                    state = State::Str;
                }
                '\u{201C}' | '\u{201D}' => {
                    out.push('"');
                    state = State::TypoStr;
                }
                '\u{2018}' | '\u{2019}' => out.push('\''),
                ';' => {
                    out.push(';');
                    state = State::Comment;
                }
                '\\' => {
                    out.push('\\');
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                _ => out.push(c),
            },
            State::Str | State::TypoStr => match c {
                '\\' => {
                    out.push('\\');
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '"' => {
                    out.push('"');
                    state = State::Code;
                }
                '\u{201C}' | '\u{201D}' if state == State::TypoStr => {
                    out.push('"');
                    state = State::Code;
                }
                _ => out.push(c),
            },
            State::Comment => {
                out.push(c);
                if c == '\n' {
                    state = State::Code;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(s: &str) -> Option<String> {
        extract_program(s)
    }

    #[test]
    fn one_fenced_block_with_prose_around() {
        let r = "Let me look at the data first.\n\n```clojure\n(def x 1)\n(println x)\n```\n\nThat defines x.";
        assert_eq!(ex(r).as_deref(), Some("(def x 1)\n(println x)"));
    }

    #[test]
    fn every_code_tag_and_untagged_blocks_are_code() {
        for tag in ["clojure", "clj", "lisp", "ptc", "ptc-lisp", "", "Clojure"] {
            let r = format!("```{tag}\n(+ 1 2)\n```");
            assert_eq!(ex(&r).as_deref(), Some("(+ 1 2)"), "tag {tag:?}");
        }
    }

    #[test]
    fn other_tags_are_not_code() {
        let r = "```json\n{\"a\": 1}\n```\n```clojure\n(:a data/x)\n```";
        assert_eq!(ex(r).as_deref(), Some("(:a data/x)"));
        assert_eq!(ex("```python\nprint(1)\n```"), None);
    }

    #[test]
    fn several_blocks_are_joined_in_order() {
        let r = "First:\n```clojure\n(def a 1)\n```\nthen\n```clj\n(def b 2)\n```\n";
        assert_eq!(ex(r).as_deref(), Some("(def a 1)\n(def b 2)"));
    }

    #[test]
    fn longer_fences_and_unclosed_fences() {
        let r = "````clojure\n(str \"```\")\n````";
        assert_eq!(ex(r).as_deref(), Some("(str \"```\")"));
        assert_eq!(
            ex("```clojure\n(def x 1)\n(+ x 1)").as_deref(),
            Some("(def x 1)\n(+ x 1)")
        );
        assert_eq!(
            ex("  ```clojure\n  (inc 1)\n  ```").as_deref(),
            Some("  (inc 1)")
        );
    }

    #[test]
    fn bare_parenthesised_response() {
        assert_eq!(ex("  (return 42)\n").as_deref(), Some("(return 42)"));
        assert_eq!(ex("I think the answer is (return 42)"), None);
        assert_eq!(ex(""), None);
    }

    #[test]
    fn bare_response_after_leading_comment_lines_is_code() {
        let r = ";; Step 1: count the orders
;; then print them

(def n (count data/orders))
(println n)
";
        assert_eq!(
            ex(r).as_deref(),
            Some(";; Step 1: count the orders\n;; then print them\n\n(def n (count data/orders))\n(println n)")
        );
        assert_eq!(
            ex("  ; one comment\n  (return 42)").as_deref(),
            Some("; one comment\n  (return 42)")
        );
        // Comments alone, or comments before prose, are not code.
        assert_eq!(ex(";; nothing to do yet\n"), None);
        assert_eq!(ex(";; thinking\nThe answer is (return 42)"), None);
    }

    /// Issue 27 item 8: only code, not starting with `(`.
    #[test]
    fn code_that_does_not_start_with_a_paren() {
        for code in [
            "[(count data/xs) (first data/xs)]",
            "{:total 3}",
            "#{1 2}",
            "data/orders",
            "user/total",
            "*1",
            ";; the totals\n{:total (count data/orders)}",
            "[1 2]\n(println 3)",
            "'(1 2)",
        ] {
            assert_eq!(ex(code).as_deref(), Some(code.trim()), "{code:?}");
        }
    }

    /// Prose that happens to read as forms never runs.
    #[test]
    fn prose_that_reads_as_forms_stays_prose() {
        for prose in [
            "Done",
            "done.",
            "OK",
            "I think so",
            "Hello world.",
            "42",
            "\"finished\"",
            ":done",
            "true",
            "nil",
            "See data/orders",
            "The answer: [1 2]",
            "[1 2] is the answer",
            "well-known",
            "total-count",
            "and/or",
            "Thanks! [see above]",
        ] {
            assert_eq!(ex(prose), None, "{prose:?} must stay prose");
        }
    }

    #[test]
    fn no_code_error_is_a_parse_error_with_a_hint() {
        let e = no_code_error("The answer is 42.");
        assert_eq!(e.kind(), crate::error::ErrorKind::Parse);
        assert_eq!(e.message(), "no PTC-Lisp code found in the response");
        assert!(e.hint().unwrap_or("").contains("```clojure"));
    }

    #[test]
    fn no_code_error_names_the_languages_it_skipped() {
        let r = "Here:\n```python\nprint(1)\n```\nand\n```json\n{\"a\": 1}\n```\n```python\nx\n```";
        assert_eq!(ex(r), None);
        let e = no_code_error(r);
        assert_eq!(
            e.message(),
            "no PTC-Lisp code found in the response (found blocks in ```python, ```json, which are not run)"
        );
        assert!(e.hint().unwrap().contains("PTC-Lisp (Clojure syntax)"));
        let e = no_code_error("```C#\nvar x = 1;\n```");
        assert_eq!(
            e.message(),
            "no PTC-Lisp code found in the response (found a ```c# block, which is not run)"
        );
    }

    #[test]
    fn empty_programs() {
        // A lone fence line, an empty block, whitespace, comments only.
        for r in [
            "This is prose, not code.\n```",
            "```clojure\n```",
            "```clojure\n   \n\n```",
            "```clojure\n;; I will think first\n```",
        ] {
            let p = ex(r).unwrap_or_else(|| panic!("{r:?} has a (empty) code block"));
            assert!(is_empty_program(&p), "{r:?} -> {p:?}");
        }
        assert!(!is_empty_program("(+ 1 2)"));
        assert!(!is_empty_program(";; sum\n(+ 1 2)"));
        assert!(!is_empty_program("#_(+ 1 2) )"));
    }

    #[test]
    fn typographic_quotes_and_invisible_characters() {
        assert_eq!(
            ex("\u{FEFF}(println \u{201C}hello\u{201D})").as_deref(),
            Some("(println \"hello\")")
        );
        assert_eq!(
            ex("(def\u{200B} x \u{2018}sym)").as_deref(),
            Some("(def x 'sym)")
        );
        // inside a plain string, typographic quotes are text
        assert_eq!(
            ex("(str \"she said \u{201C}hi\u{201D}\")").as_deref(),
            Some("(str \"she said \u{201C}hi\u{201D}\")")
        );
        // comments are left alone; escapes and char literals are respected
        assert_eq!(
            plain_quotes("; it\u{2019}s \"open\n(str \\\" \u{201C}a\\\"b\u{201D})"),
            "; it\u{2019}s \"open\n(str \\\" \"a\\\"b\")"
        );
        assert_eq!(
            ex("\u{200B}```clojure\n(inc 1)\n```").as_deref(),
            Some("(inc 1)")
        );
        // other text outside ASCII is kept as written, fenced or bare
        assert_eq!(
            ex("(str \"h\u{e9}llo \u{2014} \u{1F600}\")").as_deref(),
            Some("(str \"h\u{e9}llo \u{2014} \u{1F600}\")")
        );
        assert_eq!(
            ex("Voil\u{e0}:\n```clojure\n(count \"\u{e9}t\u{e9}\")\n```").as_deref(),
            Some("(count \"\u{e9}t\u{e9}\")")
        );
        // a response that mentions backticks but has no fence line
        assert_eq!(
            ex("(str \"``\" \"`\")").as_deref(),
            Some("(str \"``\" \"`\")")
        );
    }
}
