//! Fuzz values on their way out (issue 23): lazy chains and self-sharing
//! values, built by a fixed prelude and by the fuzzed program, are passed
//! to a tool (a canned host tool), the printers (`str`, `pr-str`,
//! `println` under `with-out-str`), the exception constructors, `ex-info`,
//! and realised (`first`, `take`, `drop`); what comes out of each turn is
//! converted to JSON and printed on a 2 MiB thread, as a host would.
//! Nothing may crash, overflow a stack, end in an internal error, or run
//! more than a grace past the turn's deadline.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use ptc_lisp::{to_clojure, to_json_within};
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

const TIMEOUT_MS: u64 = 250;
const GRACE_MS: u64 = 1_500;

/// Self-sharing values and lazy chains for the program to use.
const PRELUDE: &str = "(def ss (reduce (fn [a _] [a a]) [1] (range 20)))
(def sm (reduce (fn [a _] {:l a :r a}) {} (range 18)))
(def lz (nth (iterate #(map inc %) (range)) 300))
(def lf (nth (iterate #(filter odd? %) (iterate #(+ % 2) 1)) 200))";

/// What each turn's value `v` is then handed to.
const OUTWARD: [&str; 12] = [
    "(str v)",
    "(pr-str v)",
    "(count (with-out-str (println v)))",
    "(Exception. v)",
    "(RuntimeException. v)",
    "(ex-info v {:v v})",
    "(tool/echo v)",
    "(tool/echo {:a v :b [v v]})",
    "(first v)",
    "(take 3 v)",
    "(drop 2 v)",
    "(nth (iterate #(map identity %) v) 2000)",
];

fn check(interp: &mut Interp, src: &str) -> Option<Value> {
    let started = Instant::now();
    let out = interp.run_program(src);
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(TIMEOUT_MS + GRACE_MS),
        "turn ran {} ms past a {TIMEOUT_MS} ms deadline: {src:?}",
        took.as_millis()
    );
    match out.result {
        Ok(v) => Some(v),
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{src:?}: {}", e.message());
            let _ = e.to_string();
            e.data().cloned()
        }
    }
}

/// What a host does with a value: JSON, printing, drop, on a small thread.
fn host_side(v: Value) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            // As hosts do (`ptc replay`'s `_json`): JSON of values printing
            // to at most 1 MiB.
            let _ = to_json_within(&v, 1 << 20).map(|j| serde_json::to_string(&j));
            let _ = to_clojure(&v, Some(5), Some(200));
            drop(v);
        })
        .unwrap()
        .join()
        .unwrap();
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut host = StaticHost::default();
    host.tools.insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let limits = Limits {
        timeout_ms: Some(TIMEOUT_MS),
        ..Limits::default()
    };
    let mut interp = Interp::new(Box::new(host), limits);
    assert!(interp.run_program(PRELUDE).result.is_ok());
    let defined = check(&mut interp, &format!("(def v (do {src}\n))"));
    if let Some(v) = defined {
        host_side(v);
    }
    if interp.globals.lookup("v").is_none() {
        // The program failed: hand out the prelude's values instead.
        assert!(interp.run_program("(def v lz)").result.is_ok());
    }
    for w in OUTWARD {
        if let Some(v) = check(&mut interp, w) {
            host_side(v);
        }
    }
});
