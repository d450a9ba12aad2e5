//! Surplus closing brackets after the last top-level form (issue 18, item
//! 1): [`read_program`] drops and reports them; anywhere else, and in
//! [`read_all`], a stray closer stays a parse error.

use super::*;
use crate::error::ErrorKind;

fn surplus(src: &str) -> (usize, SurplusClosers) {
    match read_program(src) {
        Ok((forms, Some(s))) => (forms.len(), s),
        other => panic!("{src:?} should read with surplus closers, got {other:?}"),
    }
}

#[test]
fn one_surplus_paren_after_final_nil_is_dropped_and_reported() {
    let src = "(def x 1)\n(println x)\nnil)";
    let (n, s) = surplus(src);
    assert_eq!(n, 3);
    assert_eq!(s.brackets, ")");
    assert_eq!(s.start, src.len() - 1);
    assert_eq!(
        s.note(src),
        "ignored 1 surplus closing bracket \")\" at the end of the program (line 3, column 4)"
    );
}

#[test]
fn several_parens_with_whitespace_and_comments_between() {
    let src = "(+ 1 2))\n ) ; trailing\n)\n";
    let (n, s) = surplus(src);
    assert_eq!(n, 1);
    assert_eq!(s.brackets, ")))");
    assert!(s
        .note(src)
        .starts_with("ignored 3 surplus closing brackets"));
}

#[test]
fn surplus_square_and_curly_brackets_stay_parse_errors() {
    for src in ["[1 2 3]]]", "{:a 1}}}", "(+ 1 2))]}", "(+ 1 2)]"] {
        let e = read_program(src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse, "{src:?}");
    }
}

#[test]
fn balanced_program_has_no_note() {
    let (forms, s) = read_program("(+ 1 2) ; done\n").unwrap();
    assert_eq!(forms.len(), 1);
    assert_eq!(s, None);
}

#[test]
fn stray_closer_before_more_code_stays_a_parse_error() {
    for src in ["(+ 1 2)) (+ 3 4)", ") 1", "(def x 1)) x", "[1 2]] :a"] {
        let e = read_program(src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse, "{src:?}");
    }
}

#[test]
fn mismatched_or_unclosed_forms_stay_errors() {
    // A wrong closer inside an open form is not surplus.
    assert_eq!(
        read_program("(let [x 1) x)").unwrap_err().kind(),
        ErrorKind::Parse
    );
    // An unclosed form is still incomplete.
    assert!(read_program("(+ 1 2").unwrap_err().is_incomplete());
}

#[test]
fn read_all_keeps_rejecting_surplus_closers() {
    assert_eq!(read_all("nil)").unwrap_err().kind(), ErrorKind::Parse);
}
