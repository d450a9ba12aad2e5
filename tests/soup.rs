//! Property test: random token soup never panics, crashes or hangs the
//! reader or the evaluator; every failure is a typed error (never an
//! internal error) with a span, and a failed program leaves memory as it was.

use proptest::prelude::*;
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "#{",
    "#(",
    "'",
    "#_",
    "^:m",
    "\"s\"",
    "\"",
    "\\a",
    "#\"a+\"",
    "%",
    "%1",
    "%&",
    "1",
    "-7",
    "2.5",
    "1e3",
    "##NaN",
    "##Inf",
    "9223372036854775807",
    "nil",
    "true",
    ":k",
    ":a/b",
    "x",
    "y",
    "f",
    "&",
    "_",
    "def",
    "defn",
    "fn",
    "let",
    "loop",
    "recur",
    "if",
    "do",
    "when",
    "cond",
    "case",
    "for",
    "doseq",
    "try",
    "catch",
    "throw",
    "->",
    "->>",
    "letfn",
    "quote",
    "return",
    "fail",
    "+",
    "-",
    "*",
    "/",
    "<",
    "=",
    "inc",
    "map",
    "filter",
    "reduce",
    "range",
    "iterate",
    "repeat",
    "take",
    "str",
    "count",
    "first",
    "conj",
    "assoc",
    "get",
    "sort-by",
    "group-by",
    "where",
    "sum-by",
    "println",
    "apply",
    "partial",
    "comp",
    "keys",
    "into",
    "data/items",
    "tool/echo",
    "items",
    "echo",
    "*1",
    ":keys",
    ":or",
    ":as",
    ":let",
    ":when",
    ":while",
    ",",
    "\n",
    ";c\n",
];

fn interp() -> Interp {
    let mut host = StaticHost::default();
    host.data.insert(
        "items".into(),
        Value::vector_from([Value::Int(1), Value::Int(2)]),
    );
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let limits = Limits {
        max_steps: Some(20_000),
        timeout_ms: Some(500),
        ..Limits::default()
    };
    Interp::new(Box::new(host), limits)
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|toks| toks.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn soup_never_crashes_and_errors_are_typed(src in soup()) {
        let mut i = interp();
        prop_assert!(i.run_program("(def kept 1)").is_ok());
        let out = i.run_program(&src);
        if let Err(e) = &out.result {
            prop_assert_ne!(e.kind(), ErrorKind::Internal, "{}: {}", src, e.message());
            prop_assert!(!e.message().is_empty());
            if e.kind() != ErrorKind::Timeout && e.kind() != ErrorKind::LimitExceeded && e.kind() != ErrorKind::MemoryExceeded {
                prop_assert!(e.span().is_some(), "{} has no span: {}", src, e.message());
            }
            prop_assert_eq!(i.globals.lookup("kept").map(|d| d.value.clone()), Some(Value::Int(1)));
        }
        prop_assert!(i.run_program("kept").is_ok());
    }

    #[test]
    fn arbitrary_bytes_never_crash_the_reader(src in "\\PC{0,200}") {
        let mut i = interp();
        let out = i.run_program(&src);
        if let Err(e) = out.result {
            prop_assert_ne!(e.kind(), ErrorKind::Internal, "{}: {}", src, e.message());
        }
    }
}
