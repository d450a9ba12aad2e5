//! Issue 23, H1, H4 and tool answers: values on their way out of the
//! evaluator (exception messages, tool arguments, tool answers) cost memory
//! bounded by the heap limit, before the memory is taken.

use super::*;

fn patient_on(host: StaticHost) -> Interp {
    on_host(
        Box::new(host),
        Limits {
            timeout_ms: Some(60_000),
            ..Limits::default()
        },
    )
}

fn with_echo() -> StaticHost {
    let mut host = StaticHost::default();
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Nil));
    host
}

/// A vector of 2^22 ones that shares its halves: 22 small vectors in memory,
/// 8 MB printed, far more converted to JSON.
const SHARED: &str = "(def ss (reduce (fn [a _] [a a]) [1] (range 22)))";

/// H1: `(Exception. x)` printed `x` uncharged (149 s, 2.4 GB for 20 of
/// them over a 24-level `ss`).
#[test]
fn exception_messages_are_printed_within_the_heap() {
    let mut i = patient_on(with_echo());
    assert!(i.run_program(SHARED).result.is_ok());
    for class in [
        "Exception.",
        "RuntimeException.",
        "IllegalArgumentException.",
        "IllegalStateException.",
        "ArithmeticException.",
        "AssertionError.",
        ".toString",
    ] {
        let src = format!("(count (mapv (fn [i] ({class} ss)) (range 20)))");
        let e = i.run_program(&src).result.unwrap_err();
        assert_eq!(
            e.kind(),
            ErrorKind::MemoryExceeded,
            "{src}: {}",
            e.message()
        );
    }
    // Each message quotes the last: the text doubles every round.
    let e = i
        .run_program("(loop [e {} i 0] (if (< i 100) (recur (Exception. e) (inc i)) :done))")
        .result
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MemoryExceeded, "{}", e.message());
    // Small messages still print as before.
    let out = i.run_program("(ex-message (Exception. [1 \"a\" nil]))");
    assert_eq!(out.result.unwrap(), Value::string("[1 \"a\" nil]"));
}

/// H4: a self-sharing argument is refused before any tool converts it
/// (2.85 GB of JSON for a 22-level map); the call is not made.
#[test]
fn tool_arguments_are_checked_against_the_heap_room() {
    for src in [
        "(tool/echo (reduce (fn [a _] [a a]) [1] (range 22)))",
        "(tool/echo (reduce (fn [a _] {:l a :r a}) {} (range 20)))",
        "(tool/echo 1 (reduce (fn [a _] #{a [a]}) #{} (range 20)))",
    ] {
        let mut i = patient_on(with_echo());
        let e = i.run_program(src).result.unwrap_err();
        assert_eq!(
            e.kind(),
            ErrorKind::MemoryExceeded,
            "{src}: {}",
            e.message()
        );
        assert!(e.message().contains("tool/echo"), "{}", e.message());
        assert!(i.tool_calls.is_empty(), "{src}: the tool ran");
    }
    // Ordinary arguments pass, as many times as wanted.
    let mut i = patient_on(with_echo());
    let out = i.run_program(
        "(def big (vec (range 20000))) (dotimes [_ 200] (tool/echo {:items big})) :ok",
    );
    assert_eq!(out.result.unwrap(), Value::keyword("ok"));
}

/// A command tool's answer is parsed whole: it is read only up to a tenth
/// of the heap room left (a JSON tree takes up to ~40 times its text), and
/// a longer one is a tool error naming the size (a 15 MB JSON array was
/// parsed to 1.16 GB before being charged).
#[test]
fn command_tool_answers_are_read_within_the_heap_room() {
    use ptc_lisp::session::{CommandTool, Session, ToolInfo};
    let big = "import json; print(json.dumps([1] * 3000000))";
    let info = ToolInfo::new("big", "-> :any", None).unwrap();
    let tool = CommandTool::new(info, vec!["python3".into(), "-c".into(), big.into()]);
    let small = "print('[1, 2, 3]')";
    let info = ToolInfo::new("small", "-> :any", None).unwrap();
    let small = CommandTool::new(info, vec!["python3".into(), "-c".into(), small.into()]);
    let mut s = Session::builder("m")
        .tool(tool)
        .tool(small)
        .limits(Limits {
            timeout_ms: Some(60_000),
            ..Limits::default()
        })
        .build()
        .unwrap();
    let t = s.run_turn("(count (tool/big))").unwrap();
    let e = t.error().unwrap();
    assert_eq!(e.kind(), ErrorKind::Tool, "{}", e.message());
    assert!(
        e.message().contains("answered more than"),
        "{}",
        e.message()
    );
    assert!(e.message().contains("max_heap_bytes"), "{}", e.message());
    let t = s.run_turn("(count (tool/small))").unwrap();
    assert_eq!(t.result.as_ref().ok(), Some(&Value::Int(3)));
}
