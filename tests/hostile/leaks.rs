//! Issue 23, text that flows into the next prompt: a tool's failure text
//! (a command's stderr, a Python exception) and the names or strings an
//! error message quotes are cut at the README's 1 KB of a value.

use super::{interp, on_host};
use ptc_lisp::{CannedTool, Limits, StaticHost};

/// What an error message may hold around a 1 KB quotation.
const MESSAGE_BOUND: usize = 1024 + 512;

#[test]
fn names_and_strings_quoted_in_error_messages_are_cut_at_1_kb() {
    let big = "x".repeat(300_000);
    for src in [
        format!("(Integer/parseInt \"{big}\")"),
        format!("(Long/parseLong \"{big}\")"),
        format!("(Double/parseDouble \"{big}\")"),
        format!("({big} 1)"),
        format!("(inc user/{big})"),
        format!("(.{big} \"s\")"),
    ] {
        let e = interp().run_program(&src).result.expect_err("fails");
        let shown = &src[..40];
        assert!(
            e.message().len() <= MESSAGE_BOUND,
            "{shown}: message of {} bytes",
            e.message().len()
        );
        let hint = e.hint().unwrap_or("");
        assert!(
            hint.len() <= MESSAGE_BOUND,
            "{shown}: hint of {} bytes",
            hint.len()
        );
        assert!(e.message().contains("xxxx"), "{shown}: {}", e.message());
    }
}

#[test]
fn a_tools_failure_text_is_cut_at_1_kb() {
    let mut host = StaticHost::default();
    host.tools.insert(
        "boom".into(),
        CannedTool::Error(format!("Traceback {}", "y".repeat(16_000_000))),
    );
    let mut i = on_host(Box::new(host), Limits::default());
    let e = i.run_program("(tool/boom 1)").result.expect_err("fails");
    assert!(
        e.message().len() <= MESSAGE_BOUND,
        "{} bytes",
        e.message().len()
    );
    assert!(
        e.message().contains("Traceback yyy"),
        "{}",
        &e.message()[..60]
    );
    let recorded = i.tool_calls[0].result.as_ref().expect_err("failed call");
    assert!(recorded.len() <= MESSAGE_BOUND, "{} bytes", recorded.len());
    // Caught, the message is as short.
    let v = i
        .run_program("(try (tool/boom 1) (catch Exception e (count (ex-message e))))")
        .result
        .expect("caught");
    assert!(v.as_int().unwrap() <= MESSAGE_BOUND as i64, "{v}");
}

#[test]
fn a_million_surplus_closers_are_counted_not_repeated() {
    let src = format!("(+ 1 2){}", ")".repeat(1_000_000));
    let out = interp().run_program(&src);
    assert_eq!(out.result.expect("runs").as_int(), Some(3));
    let note = out.notes.join("\n");
    assert!(
        note.contains("1000000 surplus closing brackets"),
        "{}",
        &note[..note.len().min(200)]
    );
    assert!(note.len() < 300, "a note of {} bytes", note.len());
}
