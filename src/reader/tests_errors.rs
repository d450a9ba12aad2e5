//! Reader error tests: the kinds the conformance cases expect, the
//! `incomplete` flag (input ended inside an open form) versus other syntax
//! errors, error spans and messages, and deep nesting that must fail cleanly
//! instead of overflowing the native stack.

use super::*;
use crate::error::{Error, ErrorKind, Span};
use proptest::prelude::*;

fn err(src: &str) -> Error {
    match read_all(src) {
        Ok(forms) => panic!("{src:?} should fail, read {forms:?}"),
        Err(e) => e,
    }
}

/// `src` fails with `kind`, incomplete or not as `incomplete` says.
fn check(src: &str, kind: ErrorKind, incomplete: bool) -> Error {
    let e = err(src);
    assert_eq!(e.kind(), kind, "{src:?}: {e:?}");
    assert_eq!(
        e.is_incomplete(),
        incomplete,
        "{src:?}: incomplete flag of {e:?}"
    );
    assert!(e.span().is_some(), "{src:?}: no span on {e:?}");
    e
}

fn incomplete(src: &str) -> Error {
    check(src, ErrorKind::Parse, true)
}

fn syntax(src: &str) -> Error {
    check(src, ErrorKind::Parse, false)
}

#[test]
fn conformance_parse_errors() {
    for src in [
        "\"hello",
        "#{1 2 3",
        "#'",
        "(invalid syntax!",
        "(missing closing paren",
        "(+ 1 2",
        "(filter (where :active data/users",
        "[1 2 3",
    ] {
        incomplete(src);
    }
    for src in [
        "# {1 2}",
        "[1 2 3]]]",
        "{:a 1}}}",
        "(+ 1 2))]}",
        "(defn f [x] x))) (f 1)",
        "1.0M",
        "{:a 1 :b}",
        "(let [a (atom 0)] (swap! a inc) @a)",
        "(+ 1 @invalid)",
    ] {
        syntax(src);
    }
}

#[test]
fn conformance_other_kinds() {
    let e = check("(#(#(+ % 1)) 1)", ErrorKind::Validation, false);
    assert!(e.message().contains("#()"), "{e:?}");
    check("(#(map #(+ % 1) %) [1 2])", ErrorKind::Validation, false);
    for src in ["%1", "%", "%&", "(+ % 1)"] {
        check(src, ErrorKind::Validation, false);
    }
    let e = check("12345678901234567890", ErrorKind::Arithmetic, false);
    assert!(e.message().contains("12345678901234567890"), "{e:?}");
    check("-9223372036854775809", ErrorKind::Arithmetic, false);
    check("[1 0x8000000000000000]", ErrorKind::Arithmetic, false);
}

#[test]
fn incomplete_inputs() {
    for src in [
        "(",
        "[",
        "{",
        "#{",
        "#(",
        "(foo [bar {:a #{1",
        "\"abc\\",
        "\"multi\nline",
        "#\"abc",
        "#\"abc\\",
        "'",
        "#_",
        "^:a",
        "^",
        "#",
        "\\",
        "[1 #_",
        "(defn f [x]\n  (+ x 1)",
    ] {
        let e = if src == "(quote ')" {
            syntax(src)
        } else {
            incomplete(src)
        };
        assert!(!e.message().is_empty());
    }
}

#[test]
fn incomplete_message_and_span() {
    let e = incomplete("(defn f [x]\n  (let [y 1]\n    (+ x y)");
    assert!(e.message().contains("line 2, column 3"), "{e:?}");
    assert_eq!(e.span(), Some(Span::new(14, 15)));
    assert!(e.hint().is_some_and(|h| h.contains("))")), "{e:?}");
    let e = incomplete("  \"abc");
    assert_eq!(e.span(), Some(Span::new(2, 3)));
    assert!(e.message().contains("unterminated string"), "{e:?}");
}

#[test]
fn closer_errors() {
    let e = syntax(")");
    assert_eq!(e.message(), "unexpected ) — no list is open");
    assert_eq!(e.span(), Some(Span::new(0, 1)));
    let e = syntax("[1 2 3]]");
    assert!(e.message().contains("no vector is open"), "{e:?}");
    assert_eq!(e.span(), Some(Span::new(7, 8)));
    let e = syntax("{:a 1}}");
    assert!(e.message().contains("no map or set is open"), "{e:?}");
    let e = syntax("(let [x 1) x)");
    assert!(
        e.message()
            .contains("expected ] to close the vector opened at line 1, column 6, found )"),
        "{e:?}"
    );
    assert_eq!(e.span(), Some(Span::new(9, 10)));
    let e = syntax("(foo ')");
    assert!(
        e.message().contains("' must be followed by a form"),
        "{e:?}"
    );
    syntax("[#_]");
    syntax("(^:a)");
}

#[test]
fn malformed_tokens() {
    for src in [
        "{:a 1 :b}",
        "1/2/3",
        "12N",
        "1.5M",
        "08",
        "1abc",
        "1.2.3",
        "1e",
        "0x",
        "0xZZ",
        "##Foo",
        "##",
        ":",
        "::",
        "b:",
        "\\foo",
        "\\u12",
        "\"bad \\d escape\"",
        "\"\\u12\"",
        "\"\\uD800x\"",
        "#inst \"2020\"",
        "#?(:clj 1)",
        "#:a{:b 1}",
        "`x",
        "~x",
        "@x",
        "#'1",
        "#'[a]",
        "#(%foo)",
        "#(%0)",
        "#(%21)",
    ] {
        let e = syntax(src);
        assert!(!e.message().is_empty(), "{src:?}");
    }
    let e = syntax("{:a 1 :b}");
    assert_eq!(
        e.message(),
        "map literal needs an even number of forms, got 3"
    );
    assert_eq!(e.span(), Some(Span::new(0, 9)));
    assert!(syntax("\"\\d+\"").hint().is_some_and(|h| h.contains("#\"")));
    assert!(syntax("@a").hint().is_some());
    assert_eq!(syntax("  1.0M").span(), Some(Span::new(2, 6)));
}

#[test]
fn nesting_limit_is_enforced() {
    let ok = format!("{}{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert!(read_all(&ok).is_ok());
    let too_deep = format!(
        "{}{}",
        "(".repeat(MAX_NESTING + 1),
        ")".repeat(MAX_NESTING + 1)
    );
    let e = syntax(&too_deep);
    assert!(e.message().contains("1000"), "{e:?}");
    assert_eq!(e.span(), Some(Span::new(MAX_NESTING, MAX_NESTING + 1)));
}

/// 100,000 levels on an ordinary test thread: a parse error, never a crash.
#[test]
fn very_deep_nesting_does_not_overflow() {
    for open in ["[", "(", "{", "#{", "#_", "'", "^:m ", "#'"] {
        let src = open.repeat(100_000);
        let e = syntax(&src);
        assert!(e.message().contains("nested"), "{open}: {e:?}");
    }
    let balanced = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    syntax(&balanced);
    let mixed = "([{#{".repeat(25_000);
    syntax(&mixed);
}

proptest! {
    /// Any input reads or fails with an error; it never panics.
    #[test]
    fn arbitrary_input_never_panics(src in "\\PC*") {
        let _ = read_all(&src);
    }

    #[test]
    fn reader_alphabet_never_panics(src in r#"([()\[\]{}#_'^@%&\\"; :,.\-+0-9eExuNMaé€😀\n]|\\u[0-9a-fA-F]{0,4}){0,40}"#) {
        if let Err(e) = read_all(&src) {
            prop_assert!(e.span().is_some(), "no span: {:?}", e);
            prop_assert!(e.kind() != ErrorKind::Internal, "internal: {:?}", e);
        }
        if let Ok(forms) = read_all(&src) {
            for f in &forms {
                let _ = form_to_value(f);
            }
        }
    }
}
