//! Hostile programs end in typed errors, never in a crash or a hang, and
//! leave memory as it was; the interpreter keeps working afterwards.
//!
//! Each program runs under the default limits. The only time check is a
//! liveness guard (a run must end at all, well within 30 s): the limits
//! themselves (1 s timeout, 10M steps) are what end it quickly.

mod common;

// One test binary; the classes of issue 17 live in `tests/hostile/`.
#[path = "hostile/analysis.rs"]
mod analysis;
#[path = "hostile/leaks.rs"]
mod leaks;
#[path = "hostile/memory.rs"]
mod memory;
#[path = "hostile/steps.rs"]
mod steps;

use std::time::{Duration, Instant};

use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

fn interp() -> Interp {
    interp_with(Limits::default())
}

/// An interpreter with `limits` and the `echo` tool, holding `keep`.
fn interp_with(limits: Limits) -> Interp {
    let mut host = StaticHost::default();
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Nil));
    on_host(Box::new(host), limits)
}

/// An interpreter on `host` with `limits`, holding `keep`.
fn on_host(host: Box<dyn ptc_lisp::Host>, limits: Limits) -> Interp {
    let mut i = Interp::new(host, limits);
    assert!(i.run_program("(def keep [1 2 3])").is_ok());
    i
}

/// Runs `src`, expects an error of `kind`, and checks that memory is intact
/// and the interpreter still works.
fn expect(kind: ErrorKind, src: &str) {
    expect_any(&[kind], src)
}

/// Like [`expect`], for programs that may hit one of several limits first
/// (a debug build reaches the timeout before the step limit).
fn expect_any(kinds: &[ErrorKind], src: &str) {
    expect_in(interp(), kinds, src)
}

/// Like [`expect_any`], on a given interpreter (other limits or host); it
/// must have run `(def keep [1 2 3])` and nothing else.
fn expect_in(mut i: Interp, kinds: &[ErrorKind], src: &str) {
    let started = Instant::now();
    let out = i.run_program(src);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "no hang: {src}"
    );
    match out.result {
        Err(e) => assert!(
            kinds.contains(&e.kind()),
            "{src}: {}: {}",
            e.kind(),
            e.message()
        ),
        Ok(v) => panic!("{src}: expected {kinds:?}, got {v}"),
    }
    assert_eq!(
        i.globals.lookup("keep").map(|d| d.value.to_string()),
        Some("[1 2 3]".into())
    );
    assert!(
        i.globals.iter().count() == 1,
        "{src}: a failed turn defined something"
    );
    assert_eq!(i.run_program("(count keep)").result.unwrap(), Value::Int(3));
}

#[test]
fn infinite_loops() {
    let endless = [ErrorKind::LimitExceeded, ErrorKind::Timeout];
    expect_any(&endless, "(def x 1) (loop [] (recur))");
    expect_any(&endless, "(loop [i 0] (recur (inc i)))");
    expect_any(&endless, "(some #(> % 10) (repeat 1))");
    expect_any(&endless, "(doseq [x (range)] x)");
}

#[test]
fn unbounded_and_mutual_recursion() {
    expect(ErrorKind::LimitExceeded, "(defn f [n] (f (inc n))) (f 0)");
    expect(ErrorKind::LimitExceeded, "(defn f [n] (+ 1 (f n))) (f 0)");
    expect(
        ErrorKind::LimitExceeded,
        "(declare b) (defn a [n] (b n)) (defn b [n] (a n)) (a 1)",
    );
    expect(
        ErrorKind::LimitExceeded,
        "(letfn [(a [n] (b n)) (b [n] (a n))] (a 1))",
    );
    expect(ErrorKind::LimitExceeded, "((fn f [x] (f [x])) 1)");
}

/// Like [`expect`], with no clock: the heap or step limit decides, never
/// the machine's speed (a debug build on a busy machine reached the 1 s
/// default before the heap limit).
fn expect_untimed(kind: ErrorKind, src: &str) {
    let limits = Limits {
        timeout_ms: None,
        ..Limits::default()
    };
    expect_in(interp_with(limits), &[kind], src)
}

#[test]
fn huge_allocations() {
    expect_untimed(ErrorKind::MemoryExceeded, "(count (range 200000000))");
    expect_untimed(
        ErrorKind::MemoryExceeded,
        "(loop [s \"ab\"] (recur (str s s)))",
    );
    expect_untimed(
        ErrorKind::MemoryExceeded,
        "(loop [v [1]] (recur (into v v)))",
    );
    expect_untimed(ErrorKind::MemoryExceeded, "(vec (repeat 100000000 1))");
    expect_untimed(ErrorKind::LimitExceeded, "(count (range))");
    expect_untimed(ErrorKind::LimitExceeded, "(last (iterate inc 0))");
}

#[test]
fn print_floods() {
    expect(
        ErrorKind::LimitExceeded,
        "(dotimes [i 1000000] (println i))",
    );
    expect(
        ErrorKind::LimitExceeded,
        "(println (apply str (repeat 100000 \"xxxxxxxxxx\")))",
    );
}

#[test]
fn deep_nesting_in_source() {
    let deep_vec = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    expect(ErrorKind::Parse, &deep_vec);
    let deep_call = format!("{}1{}", "(inc ".repeat(100_000), ")".repeat(100_000));
    expect(ErrorKind::Parse, &deep_call);
    let deep_quote = format!("{}x", "'".repeat(100_000));
    expect(ErrorKind::Parse, &deep_quote);
}

#[test]
fn deep_nesting_in_data() {
    expect(
        ErrorKind::LimitExceeded,
        "(reduce (fn [acc _] [acc]) [] (range 100000))",
    );
    expect(
        ErrorKind::LimitExceeded,
        "(def deep (reduce (fn [acc _] {:next acc}) {} (range 50000)))",
    );
    // Deep data that does not leave the turn is fine, and so is printing it.
    let mut i = interp();
    let out = i.run_program("(count (str (reduce (fn [acc _] [acc]) [] (range 20000))))");
    assert_eq!(out.result.unwrap(), Value::Int(2 * 20_001));
}

#[test]
fn catastrophic_regexes_run_in_linear_time() {
    let mut i = interp();
    let subject = format!("{}!", "a".repeat(50_000));
    for pattern in [
        "(a+)+$",
        "(a|aa)+$",
        "(a*)*b",
        "^(([a-z])+.)+[A-Z]([a-z])+$",
    ] {
        let src = format!("(re-find (re-pattern {pattern:?}) {subject:?})");
        let started = Instant::now();
        let out = i.run_program(&src);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no hang: {pattern}"
        );
        assert!(out.result.is_ok(), "{pattern}: {:?}", out.result);
    }
    expect(ErrorKind::Execution, "(re-find #\"(a)\\1\" \"aa\")");
}

#[test]
fn integer_overflow_is_an_error_not_a_wrap() {
    expect(ErrorKind::Arithmetic, "(+ 9223372036854775807 1)");
    expect(ErrorKind::Arithmetic, "(* 9223372036854775807 2)");
    expect(ErrorKind::Arithmetic, "(- -9223372036854775808 1)");
    expect(ErrorKind::Arithmetic, "(reduce * (range 1 100))");
    expect(ErrorKind::Arithmetic, "(inc 9223372036854775807)");
    expect(ErrorKind::Arithmetic, "(quot 1 0)");
    expect(ErrorKind::Arithmetic, "9223372036854775808");
}

#[test]
fn oversized_programs_are_refused() {
    let big = format!("[{}]", "1 ".repeat(600_000));
    expect(ErrorKind::LimitExceeded, &big);
}

#[test]
fn forbidden_clojure_is_a_validation_error_with_a_hint() {
    for src in [
        "(eval '(+ 1 2))",
        "(slurp \"/etc/passwd\")",
        "(spit \"x\" 1)",
        "(atom 0)",
        "(System/exit 0)",
        "(ns evil)",
        "(require 'clojure.java.shell)",
    ] {
        let mut i = interp();
        let e = i.run_program(src).result.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation, "{src}");
        assert!(e.hint().is_some(), "{src} has a hint");
    }
}

#[test]
fn tool_call_limit() {
    let mut host = StaticHost::default();
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Nil));
    let limits = Limits {
        max_tool_calls: Some(3),
        ..Limits::default()
    };
    let mut i = Interp::new(Box::new(host), limits);
    let e = i
        .run_program("(dotimes [_ 10] (tool/echo))")
        .result
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    assert!(e.message().contains('3'), "{}", e.message());
    assert_eq!(i.tool_calls.len(), 3);
}

#[test]
fn limit_messages_name_the_limit_its_value_and_how_to_raise_it() {
    let mut i = Interp::new(
        Box::new(StaticHost::default()),
        Limits {
            max_steps: Some(5000),
            ..Limits::default()
        },
    );
    let e = i.run_program("(loop [] (recur))").result.unwrap_err();
    assert!(e.message().contains("5000"), "{}", e.message());
    assert!(e.hint().unwrap_or("").contains("max_steps"));
}

/// A value that shares its parts (`[a a]` nested 64 times) is built in a few
/// steps but has 2^64 paths: checking its depth as it leaves the turn and
/// hashing it (frequencies, distinct, group-by) must visit each part once.
#[test]
fn self_sharing_values_are_not_walked_path_by_path() {
    let mut i = interp();
    let started = Instant::now();
    let out = i.run_program(
        "(def x (reduce (fn [a _] [a a]) [] (range 64)))
         [(count (frequencies [x x [x]])) (count (distinct [x x])) (count (group-by count [x x]))]",
    );
    assert!(started.elapsed() < Duration::from_secs(30), "no hang");
    let v = out.result.expect("the program runs");
    assert_eq!(ptc_lisp::to_clojure(&v, None, None).0, "[2 1 1]");
    // Comparing it with an equal value built separately: each shared part once.
    let out = i.run_program(
        "(let [y (reduce (fn [a _] [a a]) [] (range 64))]
           [(= x y) (compare x y) (compare [x] [y]) (count (sort [x y])) (contains? #{x} y) (= {:a x} {:a y})])",
    );
    let v = out.result.expect("comparisons run");
    assert_eq!(
        ptc_lisp::to_clojure(&v, None, None).0,
        "[true 0 0 2 true true]"
    );
    // Printing it stops at the print limit instead of writing 2^64 items.
    let out = i.run_program("(println x)");
    assert_eq!(
        out.result.map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::LimitExceeded)
    );
    let out = i.run_program("(prn 1 x)");
    assert_eq!(
        out.result.map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::LimitExceeded)
    );
    // One big part held 20,000 times: scanned once, not 20,000 times.
    let out = i.run_program(
        "(def big (vec (range 300000))) (def wide (vec (repeat 20000 big))) (count wide)",
    );
    assert_eq!(
        out.result
            .map_err(|e| e.kind())
            .map(|v| ptc_lisp::to_clojure(&v, None, None).0),
        Ok("20000".to_string())
    );
    // Too deep to keep is still caught, however shared.
    let out = i.run_program("(def y (reduce (fn [a _] [a a]) [] (range 1200)))");
    assert_eq!(
        out.result.map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::LimitExceeded)
    );
}

#[path = "hostile/hashing.rs"]
mod hashing;

/// Runs `f` on its own thread and fails the test if it has not finished
/// within two minutes (a hang fails instead of blocking the suite; the
/// limits themselves end a hostile program in about a second).
fn finishes(f: impl FnOnce() + Send + 'static) {
    let (done, wait) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        f();
        let _ = done.send(());
    });
    match wait.recv_timeout(Duration::from_secs(120)) {
        Ok(()) => worker.join().unwrap(),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!("hung for two minutes"),
    }
}

#[path = "hostile/deep.rs"]
mod deep;
#[path = "hostile/lazy.rs"]
mod lazy;
#[path = "hostile/outward.rs"]
mod outward;
#[path = "hostile/printing.rs"]
mod printing;
#[path = "hostile/text.rs"]
mod text;
