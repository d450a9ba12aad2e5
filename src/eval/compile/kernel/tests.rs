//! The kernel against the reference run (every optimisation off): the
//! value or the whole error (kind, message, hint, place), the prints and
//! the steps charged are the same (rule KERNEL-1), for programs that stay
//! in the kernel and for those it gives up on (overflow, division by zero,
//! step and depth limits met at many points).

use super::run::KERNEL_RUNS;
use crate::eval::{reference, Interp, Limits, StaticHost};

/// What a run shows: its value or whole error, its prints, its steps.
#[derive(Debug, PartialEq)]
struct Seen {
    result: String,
    prints: Vec<String>,
    steps: u64,
}

fn run(src: &str, limits: &Limits, as_reference: bool) -> Seen {
    reference::scope(as_reference, || {
        let mut interp = Interp::new(Box::new(StaticHost::default()), limits.clone());
        let out = interp.run_program(src);
        let result = match out.result {
            Ok(v) => v.to_string(),
            Err(e) => format!(
                "{:?}: {} (hint {:?}) at {:?}",
                e.kind(),
                e.message(),
                e.hint(),
                e.line_col()
            ),
        };
        Seen {
            result,
            prints: interp.prints.clone(),
            steps: interp.budget.steps(),
        }
    })
}

fn limits(max_steps: Option<u64>, max_depth: Option<usize>) -> Limits {
    Limits {
        max_steps,
        max_depth,
        timeout_ms: None,
        ..Limits::default()
    }
}

/// Runs `src` both ways and returns what the optimised run showed, and
/// how many times the kernel started in it.
fn agree(src: &str, limits: &Limits) -> (Seen, u64) {
    let before = KERNEL_RUNS.with(|n| n.get());
    let optimised = run(src, limits, false);
    let runs = KERNEL_RUNS.with(|n| n.get()) - before;
    let reference = run(src, limits, true);
    assert_eq!(optimised, reference, "{src}");
    (optimised, runs)
}

const FIB: &str = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n";
const LOOP: &str =
    "(loop [i 0 acc 0]\n  (if (< i N)\n    (recur (inc i) (+ acc (mod (* i i) 7)))\n    acc))";

#[test]
fn integer_code_runs_in_the_kernel_with_the_reference_steps() {
    let l = limits(Some(10_000_000), None);
    let (seen, runs) = agree(&format!("{FIB}(fib 20)"), &l);
    assert_eq!(seen.result, "6765");
    assert!(runs >= 1, "the kernel did not run fib");
    let (seen, runs) = agree(&LOOP.replace('N', "10000"), &l);
    assert_eq!(seen.result, "19999");
    assert!(runs >= 1, "the kernel did not run the loop");
    for src in [
        // fn-level recur, zero?/even?, and/or, let, nested loops, captures.
        "(defn sum-to [i acc] (if (zero? i) acc (recur (dec i) (+ acc i)))) (sum-to 5000 0)",
        "(loop [i 0 n 0] (if (and (< i 300) (or (even? i) (< i 10))) (recur (inc i) (let [k (* i 3)] (+ n (rem k 11)))) n))",
        "(loop [i 0 t 0] (if (< i 40) (recur (inc i) (+ t (loop [j 0 s 0] (if (< j i) (recur (inc j) (+ s (quot (* i j) 3))) s)))) t))",
        "(let [k 7 f (fn [n] (loop [i 0 a 0] (if (< i n) (recur (inc i) (+ a (mod (- 0 i) k))) a)))] (f 500))",
        "(defn gcd [a b] (if (zero? b) a (gcd b (mod a b)))) [(gcd 1071 462) (gcd -48 18)]",
        "(defn ack [m n] (if (zero? m) (inc n) (if (zero? n) (ack (dec m) 1) (ack (dec m) (ack m (dec n)))))) (ack 2 3)",
        "(def n 50) (loop [i 0 a 1] (if (< i n) (recur (inc i) (mod (* a 31) 1000003)) a))",
        "(mapv (fn [x] (loop [i 0 a 0] (if (< i x) (recur (inc i) (+ a i)) a))) [0 1 5 10])",
        "(str \"x\" (loop [i 3] (if (pos? i) (recur (dec i)) i)))",
    ] {
        let (_, runs) = agree(src, &l);
        assert!(runs >= 1, "the kernel did not run: {src}");
    }
}

#[test]
fn what_the_kernel_gives_up_on_ends_as_the_reference_ends() {
    let l = limits(Some(10_000_000), None);
    for src in [
        // Overflow, late and early; division by zero on a late iteration.
        "(loop [i 0 a 2] (if (< i 100) (recur (inc i) (* a a)) a))",
        "(loop [i 0 a 0] (if (< i 10) (recur (inc i) (+ a 9223372036854775000)) a))",
        "(loop [i 5 a 0] (if (< i 100) (recur (inc i) (+ a (quot 100 (- 50 i)))) a))",
        "(loop [i -5 a 0] (if (< i 100) (recur (inc i) (+ a (mod 100 i))) a))",
        "(println \"before\") (defn f [n] (if (< n 1) (quot 1 n) (f (dec n)))) (f 30)",
        "(loop [i 9223372036854775800] (if (> i 0) (recur (inc i)) i))",
        // Inputs that are not integers: the general path.
        "(let [x 1.5] (loop [i 0 a x] (if (< i 3) (recur (inc i) (* a 2)) a)))",
        "(let [n nil] (loop [i 0] (if (< i n) (recur (inc i)) i)))",
        "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 2.0)",
    ] {
        agree(src, &l);
    }
}

#[test]
fn limits_met_in_the_kernel_end_as_the_reference_ends() {
    let src = format!("(println \"start\")\n{}", LOOP.replace('N', "100000"));
    for max in [
        10,
        1000,
        4095,
        4096,
        4097,
        4096 * 3 + 5,
        99_999,
        123_457,
        599_998,
    ] {
        let (seen, _) = agree(&src, &limits(Some(max), None));
        assert!(
            seen.result.starts_with("LimitExceeded"),
            "{max}: {}",
            seen.result
        );
    }
    let fib = format!("{FIB}(fib 20)");
    for max in [5, 100, 4096, 4099, 20_000, 40_321] {
        let (seen, _) = agree(&fib, &limits(Some(max), None));
        assert!(
            seen.result.starts_with("LimitExceeded"),
            "{max}: {}",
            seen.result
        );
    }
    // The depth limit: deep recursion and endless recursion.
    agree(
        &format!("{FIB}(fib 30)"),
        &limits(Some(100_000_000), Some(12)),
    );
    agree(
        "(defn down [n] (+ 1 (down (inc n)))) (down 0)",
        &limits(Some(10_000_000), Some(300)),
    );
    let (seen, _) = agree(
        &format!("{FIB}(fib 12)"),
        &limits(Some(10_000_000), Some(12)),
    );
    assert_eq!(seen.result, "144");
}

#[test]
fn a_redefined_name_is_not_the_function_the_kernel_calls() {
    let l = limits(Some(10_000_000), None);
    // `fib` calls whatever `fib` names when it calls: after the name is
    // given to another function, the old closure's kernel must not start.
    let src = format!("{FIB}(def old fib)\n(defn fib [n] (* n 100))\n[(old 10) (fib 10)]");
    let (seen, _) = agree(&src, &l);
    assert_eq!(seen.result, "[1700 1000]");
}

/// Steps charged by block (rule KERNEL-2): under every step limit from 1
/// to past the end, programs whose blocks are of different sizes — `and`
/// and `or` items after the first, branches of nested `if`s, a nested
/// loop, calls — end as the reference ends (the same value or error at the
/// same place, the same prints and steps).
#[test]
fn every_step_limit_ends_as_the_reference_ends() {
    let programs = [
        "(println \"x\") (loop [i 0 n 0] (if (and (< i 30) (or (even? i) (< i 7) (zero? (mod i 5)))) (recur (inc i) (if (> n 40) (- n (* i 2)) (+ n (rem (* i 3) 11)))) n))",
        "(loop [i 0 t 0] (if (< i 6) (recur (inc i) (+ t (loop [j 0 s 0] (if (< j i) (recur (inc j) (+ s (quot (* i j) 3))) s)))) t))",
        "(defn f [n] (if (<= n 1) 1 (+ (f (dec n)) (if (odd? n) (f (- n 2)) 0)))) (f 9)",
        "(loop [a 0 b 1 k 0] (if (< k 12) (recur b (+ a b) (inc k)) (mod a 7)))",
    ];
    for src in programs {
        let (free, runs) = agree(src, &limits(None, None));
        assert!(runs > 0, "the kernel did not run: {src}");
        assert!(!free.result.starts_with("LimitExceeded"), "{src}");
        for max in 1..=free.steps + 1 {
            agree(src, &limits(Some(max), None));
        }
    }
}
