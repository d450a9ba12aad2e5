//! Class 0 of issue 17: every path is bounded by the step limit and the
//! clock. The step limit is exact (not read every 4,096 steps), and work a
//! builtin does per item (comparing, hashing) is charged.

use super::*;

fn steps(max: u64) -> Limits {
    Limits {
        max_steps: Some(max),
        ..Limits::default()
    }
}

#[test]
fn the_step_limit_is_exact() {
    for (max, iterations) in [(100, 1300), (1000, 1300), (5000, 4000)] {
        let src = format!("(loop [i 0] (if (< i {iterations}) (recur (inc i)) i))");
        expect_in(interp_with(steps(max)), &[ErrorKind::LimitExceeded], &src);
    }
    expect_in(
        interp_with(steps(100)),
        &[ErrorKind::LimitExceeded],
        "(reduce + (range 1000))",
    );
    expect_in(
        interp_with(steps(50)),
        &[ErrorKind::LimitExceeded],
        "(dotimes [i 60] i)",
    );
}

#[test]
fn small_programs_fit_a_small_step_limit() {
    let mut i = Interp::new(Box::new(StaticHost::default()), steps(100));
    let out = i.run_program("(loop [i 0] (if (< i 10) (recur (inc i)) i))");
    assert_eq!(out.result.unwrap(), Value::Int(10));
}

/// Comparing two equal big values built separately walks every item: 20,000
/// comparisons of 50,000 items are 10^9 item comparisons in a few steps.
#[test]
fn comparisons_are_charged_per_item() {
    let limits = || Limits {
        timeout_ms: Some(60_000),
        max_steps: Some(1_000_000),
        ..Limits::default()
    };
    let prelude = "(def a (vec (range 50000))) (def b (vec (range 50000)))";
    for op in [
        "(= a b)",
        "(compare a b)",
        "(= [a] [b])",
        "(= {:k a} {:k b})",
    ] {
        let src = format!("{prelude} (dotimes [_ 20000] {op})");
        expect_in(interp_with(limits()), &[ErrorKind::LimitExceeded], &src);
    }
}

#[test]
fn sorting_big_values_is_charged_per_comparison() {
    let limits = Limits {
        timeout_ms: Some(60_000),
        max_steps: Some(2_000_000),
        ..Limits::default()
    };
    // 2,000 rows sharing a 2,000-item prefix: each comparison walks it.
    let src = "(def p (vec (range 2000)))
               (count (sort (map #(conj p %) (range 2000))))";
    expect_in(interp_with(limits), &[ErrorKind::LimitExceeded], src);
}
