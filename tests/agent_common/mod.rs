//! Helpers of the `ptc agent` tests: a session file in a fresh directory,
//! the built `ptc` with the mock key in its environment, `ptc replay`'s
//! messages, and the key-leak check. A test binary using it also declares
//! `mod common;` (the [`Scratch`] directories).
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value as Json;

use crate::common::Scratch;

pub const KEY: &str = "sk-mock-secret-5f1d2c";
pub const KEY_ENV: &str = "PTC_TEST_MOCK_KEY";

pub const SESSION: &str = r#"{
  "mission": "Add up the numbers and notify the total",
  "max_turns": 5,
  "data": {"nums": [1, 2, 3, 4]},
  "tools": {"notify": {"signature": "(message :string) -> :nil", "description": "Sends a note", "returns": null}}
}"#;

/// A fresh directory holding the session file, removed when dropped.
pub fn workdir(name: &str) -> Scratch {
    let dir = Scratch::dir(&format!("ptc-agent-{name}"));
    std::fs::write(dir.join("s.json"), SESSION).expect("session file");
    dir
}

pub fn ptc_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptc"));
    c.args(args)
        .env(KEY_ENV, KEY)
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy");
    c
}

pub fn ptc(args: &[&str]) -> Output {
    ptc_cmd(args).output().expect("ptc runs")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `ptc agent DIR/s.json` against the mock, with small retry delays.
pub fn agent_args(dir: &Path, base: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "agent".into(),
        dir.join("s.json").display().to_string(),
        "--model".into(),
        "mock-model".into(),
        "--base-url".into(),
        base.into(),
        "--api-key-env".into(),
        KEY_ENV.into(),
        "--out".into(),
        dir.join("run.json").display().to_string(),
    ];
    if !extra.contains(&"--retry-delay-ms") {
        args.extend(["--retry-delay-ms".into(), "10".into()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

pub fn run_agent(dir: &Path, base: &str, extra: &[&str]) -> Output {
    let args = agent_args(dir, base, extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ptc(&refs)
}

/// `ptc replay RUN.json --after N --format json`'s messages.
pub fn replayed_messages(run: &Path, after: usize) -> Vec<Json> {
    let out = ptc(&[
        "replay",
        &run.display().to_string(),
        "--after",
        &after.to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: Json = serde_json::from_str(&text(&out.stdout)).expect("replay JSON");
    json["messages"].as_array().expect("messages").clone()
}

pub const TURNS: [&str; 3] = [
    "First I sum the numbers.\n```clojure\n(def total (reduce + data/nums))\n(tool/notify (str \"total \" total))\n```",
    "```clojure\n(undefined-helper total)\n```",
    "```clojure\n(return total)\n```",
];

pub fn assert_no_key(out: &Output, run: &Path) {
    assert!(!text(&out.stdout).contains(KEY), "key in stdout");
    assert!(!text(&out.stderr).contains(KEY), "key in stderr");
    if run.exists() {
        let saved = std::fs::read_to_string(run).expect("run file");
        assert!(!saved.contains(KEY), "key in the saved file");
    }
}
