//! Tools keep their contract (issue 15): arguments are checked against the
//! tool's signature before it runs, a mission's declared result shape is
//! enforced on `(return v)`, a panicking tool is a `tool-error`, and tools
//! are bounded by the turn's deadline.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::Scratch;
use ptc_lisp::session::{Session, SessionFile, Status};
use ptc_lisp::{ErrorKind, Limits, Value};

fn counting_session(calls: Arc<AtomicUsize>) -> Session {
    Session::builder("m")
        .tool_fn(
            "search",
            "(query :string, limit :int) -> [:string]",
            "Searches",
            move |_| {
                calls.fetch_add(1, Ordering::SeqCst);
                Ok(Value::vector_from([Value::string("hit")]))
            },
        )
        .max_turns(10)
        .build()
        .unwrap()
}

#[test]
fn arguments_of_the_wrong_type_fail_the_call_and_the_tool_does_not_run() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut s = counting_session(calls.clone());
    let t = s.run_turn("(tool/search \"laptops\" \"3\")").unwrap();
    assert!(!t.success);
    let e = t.error().unwrap();
    assert_eq!(e.kind(), ErrorKind::Type);
    for part in ["tool/search", "limit", "int", "string \"3\""] {
        assert!(e.message().contains(part), "{part}: {}", e.message());
    }
    assert_eq!(t.tool_calls.len(), 1, "the failed call is recorded");
    assert!(t.tool_calls[0].result.is_err());
    assert_eq!(calls.load(Ordering::SeqCst), 0, "the tool was not called");

    let t = s.run_turn("(tool/search \"laptops\")").unwrap();
    assert_eq!(t.error().unwrap().kind(), ErrorKind::Arity);
    assert!(t
        .error()
        .unwrap()
        .message()
        .contains("expects 2 arguments, got 1"));
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    let t = s
        .run_turn("(tool/search {:query \"laptops\" :limit 3})")
        .unwrap();
    assert!(t.success, "{:?}", t.error());
    let t = s.run_turn("(tool/search \"laptops\" 3)").unwrap();
    assert!(t.success);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn a_return_that_does_not_match_the_declared_shape_is_a_failed_turn() {
    let mut s = Session::builder("m")
        .returns("{total :int, items [:string]}")
        .max_turns(5)
        .build()
        .unwrap();
    let t = s
        .run_turn("(def n 2) (return {:total n :items [\"a\" 3]})")
        .unwrap();
    assert!(!t.success);
    let e = t.error().unwrap();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(e.message().contains(":items 1"), "{}", e.message());
    assert!(
        e.message().contains("expected string, got integer 3"),
        "{}",
        e.message()
    );
    assert!(s.status().is_running());
    assert!(
        s.memory().lookup("n").is_none(),
        "a failed turn changes nothing"
    );
    let t = s
        .run_turn("(return {:total 2 :items [\"a\" \"b\"]})")
        .unwrap();
    assert!(t.success);
    assert!(matches!(s.status(), Status::Returned(_)));

    assert!(Session::builder("m")
        .returns("{total int}")
        .build()
        .is_err());
}

#[test]
fn the_session_file_declares_the_result_shape_and_saves_it() {
    let text = r#"{"mission": "m", "returns": "[:int]", "turns": ["(return [1 \"x\"])"]}"#;
    let file = SessionFile::parse(text, "s.json".as_ref()).unwrap();
    let mut s = file.session("s.json".as_ref(), Some(text), None).unwrap();
    s.replay(&file.turns);
    assert!(!s.turns()[0].success);
    assert_eq!(s.to_file().returns.as_deref(), Some("[:int]"));
    let bad = r#"{"mission": "m", "returns": "[:int"}"#;
    let e = SessionFile::parse(bad, "s.json".as_ref())
        .unwrap()
        .session("s.json".as_ref(), Some(bad), None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("returns: bad result shape"), "{e}");
}

#[test]
fn a_panicking_tool_is_a_tool_error_with_its_message_and_nothing_on_stderr() {
    // In a child process, so that stderr can be inspected.
    if std::env::var_os("PTC_PANIC_CHILD").is_some() {
        let mut s = Session::builder("m")
            .tool_fn("boom", "-> :nil", "Panics", |_| {
                panic!("index out of range")
            })
            .build()
            .unwrap();
        let t = s.run_turn("(tool/boom)").unwrap();
        let e = t.error().unwrap();
        assert_eq!(e.kind(), ErrorKind::Tool);
        assert!(
            e.message().contains("index out of range"),
            "{}",
            e.message()
        );
        assert_eq!(t.tool_calls.len(), 1);
        println!("CHILD-OK");
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "a_panicking_tool_is_a_tool_error_with_its_message_and_nothing_on_stderr",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("PTC_PANIC_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("CHILD-OK"), "{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stdout.contains("panicked"), "{stdout}");
}

#[test]
fn a_host_tool_that_answers_after_the_deadline_ends_the_turn_in_timeout() {
    let mut s = Session::builder("m")
        .tool_fn("slow", "-> :int", "Slow", |_| {
            std::thread::sleep(Duration::from_millis(300));
            Ok(Value::Int(1))
        })
        .limits(Limits {
            timeout_ms: Some(100),
            ..Limits::default()
        })
        .build()
        .unwrap();
    let t = s.run_turn("(def x (tool/slow))").unwrap();
    assert_eq!(t.error().unwrap().kind(), ErrorKind::Timeout);
    assert!(t.error().unwrap().message().contains("tool/slow"));
    assert!(s.memory().lookup("x").is_none());
}

#[test]
fn a_command_tool_is_killed_at_the_turn_deadline() {
    let dir = Scratch::dir("ptc-contract");
    let path: PathBuf = dir.join("s.json");
    let text = r#"{"mission": "m",
      "tools": {"slow": {"signature": "-> :int", "command": ["sh", "-c", "sleep 10; echo 1"]}},
      "limits": {"timeout_ms": 200}}"#;
    std::fs::write(&path, text).unwrap();
    let mut s = Session::load(&path).unwrap();
    let started = Instant::now();
    let t = s.run_turn("(tool/slow)").unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(!t.success);
    assert!(
        matches!(
            t.error().unwrap().kind(),
            ErrorKind::Tool | ErrorKind::Timeout
        ),
        "{:?}",
        t.error()
    );
}

#[test]
fn the_session_guide_example_replays_to_its_return() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/sessions.md")).unwrap();
    let section = &readme[readme.find("## Session files").expect("the section")..];
    let start = section.find("```json\n").unwrap() + "```json\n".len();
    let end = start + section[start..].find("\n```\n").unwrap();
    let dir = Scratch::dir("ptc-readme");
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::copy(
        root.join("lisp-examples/tools/weather.py"),
        dir.join("tools/weather.py"),
    )
    .unwrap();
    std::fs::write(dir.join("s.json"), &section[start..end]).unwrap();
    let s = Session::load(&dir.join("s.json")).unwrap();
    assert!(s.turns().iter().all(|t| t.success), "{:?}", s.turns());
    let Status::Returned(v) = s.status() else {
        panic!("{:?}", s.status())
    };
    assert_eq!(
        v.as_map().unwrap().get(&Value::keyword("warmest")),
        Some(&Value::string("Lisbon"))
    );
}
