//! Fuzz the evaluator with small step and time limits: any program ends in a
//! value or a typed error (never an internal error, panic or crash), a
//! failed program leaves memory as it was, and printing the result works.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::to_clojure;
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut host = StaticHost::default();
    host.data.insert("items".into(), Value::vector_from([Value::Int(1), Value::string("a")]));
    host.tools.insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let limits = Limits {
        max_steps: Some(50_000),
        timeout_ms: Some(200),
        max_heap_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let mut interp = Interp::new(Box::new(host), limits);
    assert!(interp.run_program("(def kept 1)").is_ok());
    let out = interp.run_program(src);
    match out.result {
        Ok(v) => {
            let _ = to_clojure(&v, Some(5), Some(100));
        }
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{src:?}: {}", e.message());
            assert_eq!(interp.globals.lookup("kept").map(|d| d.value.clone()), Some(Value::Int(1)));
        }
    }
});
