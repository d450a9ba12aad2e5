//! Helpers shared by the integration tests: where the example sessions are.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value as Json;

/// The `lisp-examples/` directory.
pub fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lisp-examples")
}

/// The example session files (JSON objects with a `mission`), sorted.
pub fn example_sessions() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(examples())
        .expect("lisp-examples/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json"))
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("readable example");
            serde_json::from_str::<Json>(&text).is_ok_and(|json| json.get("mission").is_some())
        })
        .collect();
    out.sort();
    out
}
