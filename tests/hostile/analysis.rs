//! Class 5 of issue 17: analysis and macro expansion are charged like
//! evaluation, and the deadline covers the whole turn from reading on.

use super::*;

fn endless() -> [ErrorKind; 2] {
    [ErrorKind::LimitExceeded, ErrorKind::Timeout]
}

#[test]
fn long_macro_chains_end_in_a_limit_error() {
    let clauses = 110_000;
    let cond_thread = format!("(cond-> 1 {})", "true inc ".repeat(clauses));
    expect_any(&endless(), &cond_thread);
    let some_thread = format!("(some-> 1 {})", "inc ".repeat(clauses));
    expect_any(&endless(), &some_thread);
    let thread = format!("(-> 1 {})", "inc ".repeat(clauses));
    expect_any(&endless(), &thread);
    let cond = format!("(cond {} :else 0)", "false 1 ".repeat(clauses));
    expect_any(&endless(), &cond);
}

#[test]
fn macro_nesting_deeper_than_the_analyzer_allows_is_a_limit_error() {
    let mut i = interp_with(Limits {
        timeout_ms: Some(60_000),
        ..Limits::default()
    });
    // Refused before expanding: the chain is longer than any expansion
    // may nest.
    let src = format!("(-> 1 {})", "inc ".repeat(10_000));
    let e = i.run_program(&src).result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{}", e.message());
    assert!(e.message().contains("10000 clauses"), "{}", e.message());
    // Each chain is short enough, but together they nest too deep.
    let inner = format!("(some-> 1 {})", "inc ".repeat(3_000));
    let src = format!("(some-> {inner} {})", "inc ".repeat(3_000));
    let e = i.run_program(&src).result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{}", e.message());
    assert!(e.message().contains("nests more than"), "{}", e.message());
    // A chain of a few hundred is fine.
    let src = format!("(-> 1 {})", "inc ".repeat(500));
    assert_eq!(i.run_program(&src).result.unwrap(), Value::Int(501));
}

#[test]
fn a_letfn_of_50000_functions_ends_in_a_limit_error() {
    let fns: String = (0..50_000).map(|i| format!("(f{i} [x] (inc x))")).collect();
    let src = format!("(letfn [{fns}] (f1 1))");
    expect_any(&endless(), &src);
}

#[test]
fn analysis_is_charged_to_the_step_limit() {
    let limits = Limits {
        max_steps: Some(2_000),
        ..Limits::default()
    };
    let fns: String = (0..1_000).map(|i| format!("(f{i} [x] (inc x))")).collect();
    let letfn = format!("(letfn [{fns}] 1)");
    expect_in(
        interp_with(limits.clone()),
        &[ErrorKind::LimitExceeded],
        &letfn,
    );
    let unused_fn = format!("(fn [] {})", "(inc 1) ".repeat(3_000));
    expect_in(interp_with(limits), &[ErrorKind::LimitExceeded], &unused_fn);
}

#[test]
fn the_deadline_covers_reading_and_analysis() {
    let limits = Limits {
        timeout_ms: Some(1),
        max_steps: None,
        ..Limits::default()
    };
    // Never evaluated: the function is only analyzed.
    let src = format!("(fn [] [{}])", "(inc 1) ".repeat(100_000));
    expect_in(interp_with(limits), &[ErrorKind::Timeout], &src);
}

#[test]
fn a_huge_unknown_name_gets_its_error_at_once() {
    // Found by the `deadline` fuzz target: "did you mean" compared a 16k
    // character name with every builtin (2.5 s past a 250 ms deadline).
    let name = format!("freq{}uencies", "λ".repeat(200_000));
    expect_any(&[ErrorKind::Undefined], &format!("({name} [1 2])"));
}
