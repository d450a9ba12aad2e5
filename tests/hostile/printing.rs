//! Class 2 of issue 17: self-sharing values (tiny in memory, 2^60 items
//! printed) end every printer and converter in a typed error within the
//! timeout: the result, `return`, `fail`, `throw`/`ex-info`, `str`,
//! `pr-str`, `format`, `str/join`, type errors, tool arguments, the CLI.

use super::{expect_any, finishes, interp};
use ptc_lisp::ErrorKind;

/// 2^60 leaves when printed, 61 vectors in memory.
const HUGE: &str = "(reduce (fn [a _] [a a]) [1] (range 60))";

fn huge(template: &str) -> String {
    template.replace("HUGE", HUGE)
}

const STOPPED: [ErrorKind; 2] = [ErrorKind::LimitExceeded, ErrorKind::MemoryExceeded];

#[test]
fn a_self_sharing_result_or_return_is_a_limit_error() {
    finishes(|| {
        expect_any(&[ErrorKind::LimitExceeded], &huge("HUGE"));
        expect_any(&[ErrorKind::LimitExceeded], &huge("(return HUGE)"));
        expect_any(
            &[ErrorKind::LimitExceeded],
            &huge("(def x 1) (return {:a HUGE})"),
        );
        expect_any(&[ErrorKind::LimitExceeded], &huge("(let [h HUGE] #{h 1})"));
    });
}

#[test]
fn errors_carrying_a_self_sharing_value_stop() {
    finishes(|| {
        expect_any(&STOPPED, &huge("(fail HUGE)"));
        expect_any(&STOPPED, &huge("(throw HUGE)"));
        expect_any(&STOPPED, &huge("(throw (ex-info \"boom\" {:big HUGE}))"));
        expect_any(&STOPPED, &huge("(ex-info HUGE {})"));
        expect_any(&STOPPED, &huge("(ex-message (ex-info HUGE {}))"));
    });
}

#[test]
fn string_builders_stop_at_the_heap_budget() {
    finishes(|| {
        expect_any(&STOPPED, &huge("(format \"%s\" HUGE)"));
        expect_any(&STOPPED, &huge("(format \"%S|%s\" 1 HUGE)"));
        expect_any(&STOPPED, &huge("(clojure.string/join HUGE [1 2])"));
        expect_any(&STOPPED, &huge("(clojure.string/join \",\" [HUGE])"));
        expect_any(&STOPPED, &huge("(str HUGE)"));
        expect_any(&STOPPED, &huge("(pr-str HUGE)"));
    });
}

#[test]
fn a_type_error_shows_a_short_preview_of_the_value() {
    finishes(|| {
        for src in ["(+ 1 HUGE)", "(subs HUGE 1)", "(inc HUGE)", "(name HUGE)"] {
            let out = interp().run_program(&huge(src));
            let e = out.result.expect_err(src);
            assert!(
                e.message().len() < 2_000,
                "{src}: a {} byte message",
                e.message().len()
            );
        }
    });
}

#[test]
fn a_tool_called_with_a_self_sharing_value_is_refused() {
    finishes(|| {
        expect_any(&[ErrorKind::LimitExceeded], &huge("(tool/echo HUGE)"));
        expect_any(&[ErrorKind::LimitExceeded], &huge("(tool/echo {:q HUGE})"));
    });
}

#[test]
fn ptc_run_prints_a_limit_error_not_the_whole_value() {
    finishes(|| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptc"))
            .args(["run", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(huge("HUGE").as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(text.contains("limit-exceeded"), "{text}");
        assert!(text.len() < 10_000, "{} bytes printed", text.len());
    });
}

/// With no heap limit a printer's only bound is the clock: `str` of a
/// value printing to 2^60 items stops at the turn's deadline with a
/// `timeout` (before, it printed until the process ran out of memory).
#[test]
fn printers_stop_at_the_deadline_when_the_heap_is_unlimited() {
    finishes(|| {
        let limits = ptc_lisp::Limits {
            timeout_ms: Some(300),
            max_heap_bytes: None,
            max_print_bytes: None,
            max_steps: None,
            ..ptc_lisp::Limits::default()
        };
        for template in [
            "(str HUGE)",
            "(pr-str HUGE)",
            "(println HUGE)",
            "(prn HUGE)",
            "(format \"%s\" HUGE)",
            "(clojure.string/join \",\" [1 HUGE])",
            "(clojure.string/replace \"abc\" #\"b\" (fn [_] HUGE))",
            "(ex-info HUGE {})",
            "(Exception. HUGE)",
            "(with-out-str (print HUGE))",
            "(apply str (repeat 3 HUGE))",
        ] {
            super::expect_in(
                super::interp_with(limits.clone()),
                &[ErrorKind::Timeout],
                &huge(template),
            );
        }
    });
}
