//! Fuzz the turn's deadline under realistic limits (the defaults, with a
//! shorter timeout): a program must end — in a value or a typed error —
//! within its timeout plus a small grace; a turn running past it (a builtin
//! or printer that never checks the clock) is reported as a crash.
//!
//! The result is then printed and converted to JSON as a host would. That
//! is the host's time, not the turn's: a value leaving a turn prints to at
//! most four times the heap limit (`eval/leaving.rs`), so printing it whole
//! is bounded by that text (40 MB at the default 10 MiB: well under a
//! second optimized, several seconds in this instrumented build on a
//! loaded machine). It gets its own, larger bound, which still catches a
//! hang.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::to_clojure;
use ptc_lisp::to_json_within;
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

const TIMEOUT_MS: u64 = 250;
/// Reading, the end-of-turn checks and printing the result may take a
/// little past the deadline; anything beyond this is a hang.
const GRACE_MS: u64 = 1_500;
/// The host's printing and conversion of what the turn left.
const HOST_MS: u64 = 15_000;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut host = StaticHost::default();
    host.data.insert("items".into(), Value::vector_from((0..100).map(Value::Int)));
    host.tools.insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let limits = Limits {
        timeout_ms: Some(TIMEOUT_MS),
        ..Limits::default()
    };
    let mut interp = Interp::new(Box::new(host), limits);
    let started = Instant::now();
    let out = interp.run_program(src);
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(TIMEOUT_MS + GRACE_MS),
        "turn ran {} ms past a {TIMEOUT_MS} ms deadline: {src:?}",
        took.as_millis()
    );
    let started = Instant::now();
    match &out.result {
        Ok(v) => {
            let _ = to_clojure(v, None, None);
            // As hosts do (`ptc replay`'s `_json`): JSON of values printing
            // to at most 1 MiB.
            let _ = to_json_within(v, 1 << 20);
        }
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{src:?}: {}", e.message());
            let _ = e.to_string();
            if let Some(d) = e.data() {
                let _ = to_clojure(d, None, None);
            }
        }
    }
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(HOST_MS),
        "printing what the turn left took {} ms: {src:?}",
        took.as_millis()
    );
});
