//! Issue 27: idioms real models write, where a conformance case cannot say
//! enough (hints, turns, the prompt). The language behaviour itself is in
//! `tests/conformance/local/27-idioms.jsonl`.

use ptc_lisp::{ErrorKind, Interp, Limits, StaticHost};

fn run_err(src: &str) -> ptc_lisp::Error {
    let mut interp = Interp::new(Box::new(StaticHost::default()), Limits::default());
    interp.run_program(src).result.expect_err(src)
}

/// Item 10: `atom`, `swap!`, `reset!`, `@x`, `deref` stay forbidden, and the
/// error teaches both rewrites (accumulator → reduce, counter → loop) with
/// an example.
#[test]
fn mutable_state_errors_teach_the_rewrite() {
    for src in [
        "(def acc (atom []))",
        "(swap! acc conj 1)",
        "(reset! acc [])",
        "(deref acc)",
        "(let [n 1] @n)",
    ] {
        let e = run_err(src);
        assert!(
            matches!(e.kind(), ErrorKind::Validation | ErrorKind::Parse),
            "{src}: {:?}",
            e.kind()
        );
        let hint = e.hint().unwrap_or_default();
        assert!(hint.contains("(reduce (fn [acc x]"), "{src}: {hint}");
        assert!(hint.contains("(loop [xs items n 0]"), "{src}: {hint}");
        assert!(hint.contains("def"), "{src}: {hint}");
    }
}

/// Item 8: a response that is only code but does not start with `(` is a
/// program in a turn too; prose that happens to read as forms never runs.
#[test]
fn code_only_responses_run_and_prose_does_not() {
    use ptc_lisp::session::Session;
    let mut s = Session::builder("m").build().unwrap();
    let turn = s.run_turn("{:total (+ 1 2)}").unwrap();
    assert!(turn.success, "{:?}", turn.result);
    assert_eq!(
        ptc_lisp::to_clojure(turn.result.as_ref().unwrap(), None, None).0,
        "{:total 3}"
    );
    let turn = s.run_turn("[(count [1 2]) (first [7])]").unwrap();
    assert!(turn.success, "{:?}", turn.result);
    for prose in ["Done", "I think so", "well-known"] {
        let turn = s.run_turn(prose).unwrap();
        assert!(!turn.success, "{prose:?} ran");
        let e = turn.result.as_ref().unwrap_err();
        assert!(
            e.message().contains("no PTC-Lisp code"),
            "{prose:?}: {}",
            e.message()
        );
    }
}
