//! Class 3 of issue 17: deep chains of any wrapper (`reduced`, vectors,
//! maps, closures) never leave a turn deeper than the nesting bound,
//! whichever way they leave (result, `return`, `fail`, `throw`, `ex-info`
//! data, a tool's arguments, a function's recorded return), so the host can
//! drop, compare, hash and print what it gets on an ordinary thread.
//! Chains of lazy links (`(repeat (repeat …))`, a realised `lazy-seq`) may
//! leave at any length: no host operation descends through a link and
//! their drop is iterative (`value/depth.rs`), which
//! `whatever_leaves_a_turn_can_be_used_on_a_small_stack` checks.

use std::hash::Hash;

use super::{expect_any, finishes, interp};
use ptc_lisp::to_clojure;
use ptc_lisp::to_json;
use ptc_lisp::{ErrorKind, Value};

/// `(wrap a)` applied `n` times to 1.
fn chain(wrap: &str, n: usize) -> String {
    format!("(loop [a 1 i 0] (if (< i {n}) (recur {wrap} (inc i)) a))")
}

const WRAPPERS: [&str; 6] = [
    "(reduced a)",
    "[a]",
    "{:a a}",
    "(fn [] a)",
    "(repeat a)",
    "(iterate identity a)",
];

/// The wrappers that nest (the lazy ones chain instead).
const NESTING: [&str; 4] = ["(reduced a)", "[a]", "{:a a}", "(fn [] a)"];

/// Everything a host does with a value, on a small (2 MiB) thread.
fn use_on_small_stack(v: Value) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let _ = to_clojure(&v, None, None);
            let _ = to_json(&v);
            // serde: the lossless JSON text, or an error for what has none.
            let _ = serde_json::to_string(&v);
            assert!(v == v.clone());
            let mut h = std::collections::hash_map::DefaultHasher::new();
            v.hash(&mut h);
            drop(v);
        })
        .unwrap()
        .join()
        .expect("the host could not handle the value on a 2 MiB stack");
}

#[test]
fn failing_with_a_deep_chain_is_a_limit_error_not_a_crash() {
    finishes(|| {
        for w in NESTING {
            let c = chain(w, 50_000);
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(fail {c})"),
            );
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(throw (ex-info \"deep\" {{:chain {c}}}))"),
            );
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(throw {c})"),
            );
        }
    });
}

#[test]
fn returning_a_deep_chain_is_a_limit_error() {
    finishes(|| {
        for w in NESTING {
            let c = chain(w, 50_000);
            expect_any(&[ErrorKind::LimitExceeded, ErrorKind::Timeout], &c);
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(return {c})"),
            );
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(ex-data (ex-info \"x\" {{:a {c}}}))"),
            );
        }
    });
}

#[test]
fn a_deep_chain_cannot_be_kept_in_a_definition_or_sent_to_a_tool() {
    finishes(|| {
        for w in NESTING {
            let c = chain(w, 50_000);
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(def kept {c})"),
            );
            expect_any(
                &[ErrorKind::LimitExceeded, ErrorKind::Timeout],
                &format!("(tool/echo {c})"),
            );
        }
    });
}

#[test]
fn whatever_leaves_a_turn_can_be_used_on_a_small_stack() {
    finishes(|| {
        for w in WRAPPERS {
            let c = chain(w, 20_000);
            for src in [
                c.clone(),
                format!("(fail {c})"),
                format!("(throw (ex-info \"x\" {{:a {c}}}))"),
                format!("(defn f [] {c}) (f) 1"),
                chain(w, 900),
                format!("(fail {})", chain(w, 900)),
            ] {
                let mut i = interp();
                let out = i.run_program(&src);
                let value = match out.result {
                    Ok(v) => Some(v),
                    Err(e) => {
                        assert_ne!(e.kind(), ErrorKind::Internal, "{src}");
                        e.data().cloned()
                    }
                };
                if let Some(v) = value {
                    use_on_small_stack(v);
                }
                // The interpreter (with everything it recorded) too.
                std::thread::Builder::new()
                    .stack_size(2 << 20)
                    .spawn(move || drop(i))
                    .unwrap()
                    .join()
                    .expect("dropping the interpreter overflowed a 2 MiB stack");
            }
        }
    });
}

/// A chain of 50,000 lazy links, or a `lazy-seq` realised 10,000 items
/// deep, is kept, returned and used by the host like any value.
#[test]
fn lazy_chains_leave_at_any_length() {
    finishes(|| {
        for src in [
            chain("(repeat a)", 50_000),
            chain("(iterate identity a)", 50_000),
            "(do (defn nums [n] (lazy-seq (cons n (nums (inc n))))) (def xs (nums 0)) (nth xs 10000) xs)"
                .to_string(),
        ] {
            let mut i = interp();
            let out = i.run_program(&format!("(def kept {src}) 1"));
            out.result.unwrap_or_else(|e| panic!("{src}: {}", e.message()));
            let v = i.globals.lookup("kept").expect("kept").value.clone();
            use_on_small_stack(v);
            assert!(i.run_program("(first kept)").result.is_ok());
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || drop(i))
                .unwrap()
                .join()
                .expect("dropping the interpreter overflowed a 2 MiB stack");
        }
    });
}
