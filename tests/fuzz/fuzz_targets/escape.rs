//! Fuzz what happens to values after a turn: every result, `return` value
//! and error's data is printed (unbounded and limited), converted to JSON,
//! compared, hashed and dropped on a small (2 MiB) thread, as a host
//! embedding ptc would. Nothing may panic or overflow that stack.
#![no_main]

use std::hash::{Hash, Hasher};

use libfuzzer_sys::fuzz_target;
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{display, to_clojure};
use ptc_lisp::to_json_within;
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

fn inspect(v: Value) {
    let _ = to_clojure(&v, None, None);
    let _ = to_clojure(&v, Some(5), Some(100));
    let _ = display(&v);
    let _ = v.describe();
    // As hosts do (`ptc replay`'s `_json`; `to_json`'s docs): JSON of
    // values printing to at most 1 MiB (a shared value expands in full).
    let _ = to_json_within(&v, 1 << 20).map(|j| serde_json::to_string(&j));
    let copy = v.clone();
    assert!(v == copy);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    let _ = h.finish();
    drop(copy);
    drop(v);
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut host = StaticHost::default();
    host.data.insert("items".into(), Value::vector_from([Value::Int(1), Value::string("a")]));
    host.tools.insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let limits = Limits {
        max_steps: Some(100_000),
        timeout_ms: Some(300),
        ..Limits::default()
    };
    let mut interp = Interp::new(Box::new(host), limits);
    let out = interp.run_program(src);
    let (value, error) = match out.result {
        Ok(v) => (Some(v), None),
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{src:?}: {}", e.message());
            (e.data().cloned(), Some(e))
        }
    };
    let defs: Vec<Value> = interp.globals.iter().map(|(_, d)| d.value.clone()).collect();
    drop(interp);
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            if let Some(e) = &error {
                let _ = e.to_string();
                let _ = format!("{:?}", e.diagnostic());
            }
            drop(error);
            if let Some(v) = value {
                inspect(v);
            }
            for d in defs {
                inspect(d);
            }
        })
        .unwrap()
        .join()
        .unwrap();
});
