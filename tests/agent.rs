//! `ptc agent` and `ptc eval` against a mock LLM server on loopback
//! (`tests/mock_llm/`): what is sent equals what `ptc replay` renders, in
//! both provider formats; retries with backoff; non-retryable errors fail
//! at once with the provider's message; the key never leaks; a killed or
//! interrupted run leaves a file that replays; `ptc eval` counts outcomes.

#![cfg(feature = "agent")]

mod mock_llm;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use mock_llm::{MockLlm, Reply};
use serde_json::Value as Json;

const KEY: &str = "sk-mock-secret-5f1d2c";
const KEY_ENV: &str = "PTC_TEST_MOCK_KEY";

const SESSION: &str = r#"{
  "mission": "Add up the numbers and notify the total",
  "max_turns": 5,
  "data": {"nums": [1, 2, 3, 4]},
  "tools": {"notify": {"signature": "(message :string) -> :nil", "description": "Sends a note", "returns": null}}
}"#;

/// A fresh directory holding the session file.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-agent-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("s.json"), SESSION).expect("session file");
    dir
}

fn ptc_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptc"));
    c.args(args)
        .env(KEY_ENV, KEY)
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy");
    c
}

fn ptc(args: &[&str]) -> Output {
    ptc_cmd(args).output().expect("ptc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `ptc agent DIR/s.json` against the mock, with small retry delays.
fn agent_args(dir: &Path, base: &str, extra: &[&str]) -> Vec<String> {
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

fn run_agent(dir: &Path, base: &str, extra: &[&str]) -> Output {
    let args = agent_args(dir, base, extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ptc(&refs)
}

/// `ptc replay RUN.json --after N --format json`'s messages.
fn replayed_messages(run: &Path, after: usize) -> Vec<Json> {
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

const TURNS: [&str; 3] = [
    "First I sum the numbers.\n```clojure\n(def total (reduce + data/nums))\n(tool/notify (str \"total \" total))\n```",
    "```clojure\n(undefined-helper total)\n```",
    "```clojure\n(return total)\n```",
];

fn assert_no_key(out: &Output, run: &Path) {
    assert!(!text(&out.stdout).contains(KEY), "key in stdout");
    assert!(!text(&out.stderr).contains(KEY), "key in stderr");
    if run.exists() {
        let saved = std::fs::read_to_string(run).expect("run file");
        assert!(!saved.contains(KEY), "key in the saved file");
    }
}

#[test]
fn openai_requests_are_the_replayed_prompts_in_both_views() {
    for view in ["compressed", "uncompressed"] {
        let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect());
        let dir = workdir(&format!("openai-{view}"));
        let out = run_agent(&dir, &mock.openai_base(), &["--view", view]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines[0].starts_with("turn 1  (def total (reduce + data/nums)) …  ok nil  tokens 100/"),
            "{stdout}"
        );
        assert!(lines[1].contains("error undefined"), "{stdout}");
        assert!(lines[2].contains("returned 10"), "{stdout}");
        assert!(
            lines[3].starts_with("returned after 3 of 5 turns, value 10"),
            "{stdout}"
        );
        let run = dir.join("run.json");
        assert_no_key(&out, &run);
        let requests = mock.requests();
        assert_eq!(requests.len(), 3);
        for (k, req) in requests.iter().enumerate() {
            assert_eq!(req.path, "/v1/chat/completions");
            assert_eq!(
                req.header("authorization"),
                Some(format!("Bearer {KEY}").as_str())
            );
            let body = req.json();
            assert_eq!(body["model"], "mock-model");
            let sent = body["messages"].as_array().expect("messages").clone();
            assert_eq!(
                sent,
                replayed_messages(&run, k),
                "{view}: request {}",
                k + 1
            );
        }
        // The saved file records the view and every turn's LLM information.
        let saved: Json = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
        assert_eq!(
            saved["compression"].as_bool().unwrap_or(false),
            view == "compressed"
        );
        assert_eq!(saved["turns"].as_array().unwrap().len(), 3);
        let llm = saved["llm"].as_array().expect("llm list");
        assert_eq!(llm[0]["model"], "mock-gpt");
        assert_eq!(llm[0]["usage"]["input_tokens"], 100);
        assert_eq!(llm[0]["finish_reason"], "stop");
    }
}

#[test]
fn anthropic_requests_carry_the_system_prompt_in_its_field() {
    let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect());
    let dir = workdir("anthropic");
    let out = run_agent(
        &dir,
        &mock.anthropic_base(),
        &[
            "--provider",
            "anthropic",
            "--max-tokens",
            "900",
            "--temperature",
            "0.2",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let run = dir.join("run.json");
    assert_no_key(&out, &run);
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    for (k, req) in requests.iter().enumerate() {
        assert_eq!(req.path, "/v1/messages");
        assert_eq!(req.header("x-api-key"), Some(KEY));
        assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(req.header("authorization"), None);
        let body = req.json();
        assert_eq!(body["max_tokens"], 900);
        assert_eq!(body["temperature"], 0.2);
        let replayed = replayed_messages(&run, k);
        let system: Vec<&str> = replayed
            .iter()
            .filter(|m| m["role"] == "system")
            .map(|m| m["content"].as_str().unwrap())
            .collect();
        assert!(!system.is_empty());
        assert_eq!(body["system"].as_str(), Some(system.join("\n\n").as_str()));
        let others: Vec<Json> = replayed
            .into_iter()
            .filter(|m| m["role"] != "system")
            .collect();
        assert_eq!(
            body["messages"].as_array().unwrap(),
            &others,
            "request {}",
            k + 1
        );
    }
    let saved = std::fs::read_to_string(&run).unwrap();
    assert!(saved.contains("\"end_turn\""), "{saved}");
}

#[test]
fn retries_with_backoff_honour_retry_after_then_succeed() {
    let mock = MockLlm::start(vec![
        Reply::rate_limited(1),
        Reply::status(500, r#"{"error": {"message": "overloaded"}}"#),
        Reply::Drop,
        Reply::slow(2000, Reply::text("(return 1)")),
        Reply::text("(return 2)"),
    ]);
    let dir = workdir("retries");
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &["--retries", "4", "--llm-timeout", "0.5"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("returned after 1 of 5 turns, value 2"),
        "{}",
        text(&out.stdout)
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 5);
    // Retry-After: 1 was waited; the other waits are the small backoff.
    assert!(requests[1].at - requests[0].at >= Duration::from_secs(1));
    assert!(requests[2].at - requests[1].at < Duration::from_millis(900));
    // Every attempt sent the same request.
    assert!(requests.iter().all(|r| r.body == requests[0].body));
    let saved: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert!(saved["llm"][0]["latency_ms"].as_u64().unwrap() >= 1500);
}

#[test]
fn retries_run_out_as_a_provider_error() {
    let mock = MockLlm::start(vec![
        Reply::text("(def x 1)"),
        Reply::status(503, r#"{"error": {"message": "try later"}}"#),
        Reply::status(503, r#"{"error": {"message": "try later"}}"#),
        Reply::status(503, r#"{"error": {"message": "still down"}}"#),
    ]);
    let dir = workdir("exhausted-retries");
    let out = run_agent(&dir, &mock.openai_base(), &["--retries", "2"]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "turn 2: the LLM failed: server-error (HTTP 503): still down (after 3 attempts)"
        ),
        "{err}"
    );
    assert_eq!(mock.requests().len(), 4);
    // The turn that ran is saved.
    assert!(text(&out.stdout).contains("stopped: running after 1 of 5 turns"));
    let saved: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(saved["turns"].as_array().unwrap().len(), 1);
}

#[test]
fn a_slow_answer_past_the_timeout_is_a_timeout_error() {
    let mock = MockLlm::start(vec![Reply::slow(3000, Reply::text("(return 1)"))]);
    let dir = workdir("timeout");
    let start = Instant::now();
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &["--retries", "0", "--llm-timeout", "0.3"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(start.elapsed() < Duration::from_millis(2500));
    assert!(
        text(&out.stderr).contains("timeout"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn non_retryable_errors_fail_at_once_with_the_providers_message() {
    for (code, kind) in [
        (401, "auth"),
        (403, "auth"),
        (400, "rejected"),
        (404, "rejected"),
    ] {
        let body = format!(
            r#"{{"error": {{"message": "Incorrect API key provided: {KEY}. Status {code}", "type": "invalid_request_error"}}}}"#
        );
        let mock = MockLlm::start(vec![Reply::status(code, &body), Reply::text("(return 1)")]);
        let dir = workdir(&format!("status-{code}"));
        let start = Instant::now();
        let out = run_agent(&dir, &mock.openai_base(), &["--retry-delay-ms", "2000"]);
        assert_eq!(out.status.code(), Some(3), "{code}");
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{code}: no retry wait"
        );
        assert_eq!(mock.requests().len(), 1, "{code}: one request");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(
                "{kind} (HTTP {code}): Incorrect API key provided: [redacted]. Status {code}"
            )),
            "{err}"
        );
        assert_no_key(&out, &dir.join("run.json"));
    }
    // Anthropic's error shape.
    let mock = MockLlm::start(vec![Reply::status(
        401,
        r#"{"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}"#,
    )]);
    let dir = workdir("anthropic-401");
    let out = run_agent(&dir, &mock.anthropic_base(), &["--provider", "anthropic"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stderr).contains("auth (HTTP 401): invalid x-api-key"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn malformed_and_empty_bodies_are_clear_errors() {
    for (provider, base_of) in [("openai", true), ("anthropic", false)] {
        for (body, says) in [
            ("{\"choices\": [", "the response body is not JSON"),
            ("", "the response body is empty"),
            ("{\"unexpected\": true}", "the response has no"),
        ] {
            let mock = MockLlm::start(vec![Reply::Raw(body.into())]);
            let dir = workdir(&format!("malformed-{provider}-{}", body.len()));
            let base = if base_of {
                mock.openai_base()
            } else {
                mock.anthropic_base()
            };
            let out = run_agent(&dir, &base, &["--provider", provider]);
            assert_eq!(out.status.code(), Some(3), "{provider} {body:?}");
            let err = text(&out.stderr);
            assert!(
                err.contains("bad-response") && err.contains(says),
                "{provider} {body:?}: {err}"
            );
            assert_eq!(mock.requests().len(), 1);
        }
    }
}

#[test]
fn a_missing_key_for_a_hosted_provider_is_bad_input() {
    let dir = workdir("no-key");
    let out = ptc_cmd(&[
        "agent",
        &dir.join("s.json").display().to_string(),
        "--model",
        "m",
        "--api-key-env",
        "PTC_TEST_UNSET_KEY_VAR",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("set the environment variable PTC_TEST_UNSET_KEY_VAR"));
}

/// Waits until the run file has `n` turns.
fn wait_for_turns(run: &Path, n: usize, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(t) = std::fs::read_to_string(run) {
            if let Ok(json) = serde_json::from_str::<Json>(&t) {
                if json["turns"].as_array().map_or(0, Vec::len) >= n {
                    return;
                }
            }
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the run file never reached {n} turns");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_run_leaves_a_file_that_replays() {
    let mock = MockLlm::start(vec![
        Reply::text(TURNS[0]),
        Reply::text(TURNS[1]),
        Reply::slow(30_000, Reply::text(TURNS[2])),
    ]);
    let dir = workdir("killed");
    let run = dir.join("run.json");
    let args = agent_args(&dir, &mock.openai_base(), &[]);
    let mut child = ptc_cmd(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_turns(&run, 2, &mut child);
    // The third request is under way when the process dies.
    while mock.requests().len() < 3 {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let out = ptc(&["replay", &run.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let sent = mock.requests()[2].json()["messages"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(sent, replayed_messages(&run, 2));
    // s.json, run.json, and at most a temp file of a write the kill cut short.
    assert!(std::fs::read_dir(&dir).unwrap().count() <= 3);
}

#[test]
fn ctrl_c_ends_after_the_current_turn_with_the_file_saved() {
    let mock = MockLlm::start(vec![
        Reply::text(TURNS[0]),
        Reply::slow(1500, Reply::text(TURNS[1])),
        Reply::text(TURNS[2]),
    ]);
    let dir = workdir("ctrl-c");
    let run = dir.join("run.json");
    let args = agent_args(&dir, &mock.openai_base(), &[]);
    let mut child = ptc_cmd(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_turns(&run, 1, &mut child);
    while mock.requests().len() < 2 {
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("interrupted: running after 2 of 5 turns"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(mock.requests().len(), 2, "no request after Ctrl-C");
    let saved: Json = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    assert_eq!(saved["turns"].as_array().unwrap().len(), 2);
}

#[test]
fn eval_counts_what_happened_per_view() {
    let mock = MockLlm::start(vec![
        // compressed: returned in 2 turns, then failed in 1
        Reply::text("(def x 1)"),
        Reply::text("(return x)"),
        Reply::text("(fail \"no data\")"),
        // uncompressed: exhausted after 2 turns, then returned in 1
        Reply::text("1"),
        Reply::text("(undefined-fn)"),
        Reply::text("(return 3)"),
    ]);
    let dir = workdir("eval");
    let out_dir = dir.join("runs");
    let out = ptc(&[
        "eval",
        &dir.join("s.json").display().to_string(),
        "--model",
        "m",
        "--base-url",
        &mock.openai_base(),
        "--api-key-env",
        KEY_ENV,
        "--runs",
        "2",
        "--max-turns",
        "2",
        "--view",
        "compressed",
        "--view",
        "uncompressed",
        "--out-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains(KEY));
    let row = |view: &str| -> Vec<String> {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("{view} ")) && !l.contains(" run "))
            .unwrap_or_else(|| panic!("no {view} row in {stdout}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    // view runs success returned failed exhausted errors turns prompt completion s
    let c = row("compressed");
    assert_eq!(
        &c[1..8],
        ["2", "50%", "1", "1", "0", "0", "1.50"],
        "{stdout}"
    );
    assert_eq!(c[8], "150.0"); // 3 requests × 100 prompt tokens / 2 runs
    let u = row("uncompressed");
    assert_eq!(
        &u[1..8],
        ["2", "50%", "1", "0", "1", "0", "1.50"],
        "{stdout}"
    );
    assert_eq!(mock.requests().len(), 6);
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "compressed-01.json",
            "compressed-02.json",
            "uncompressed-01.json",
            "uncompressed-02.json"
        ]
    );
    // Each run's file replays to its outcome.
    let replay = ptc(&[
        "replay",
        &out_dir.join("uncompressed-01.json").display().to_string(),
        "--format",
        "json",
    ]);
    let json: Json = serde_json::from_str(&text(&replay.stdout)).unwrap();
    assert_eq!(json["status"]["state"], "exhausted");
}

#[test]
fn continue_goes_on_from_a_saved_run() {
    let first = MockLlm::start(vec![
        Reply::text(TURNS[0]),
        Reply::status(400, r#"{"error": {"message": "context too long"}}"#),
    ]);
    let dir = workdir("continue");
    let out = run_agent(&dir, &first.openai_base(), &[]);
    assert_eq!(out.status.code(), Some(3));
    // Continue from run.json into run.json.
    let second = MockLlm::start(vec![Reply::text(TURNS[1]), Reply::text(TURNS[2])]);
    let run = dir.join("run.json");
    std::fs::copy(&run, dir.join("s.json")).unwrap();
    let out = run_agent(&dir, &second.openai_base(), &["--continue"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("turn 2  "),
        "{}",
        text(&out.stdout)
    );
    let requests = second.requests();
    assert_eq!(requests.len(), 2);
    for (k, req) in requests.iter().enumerate() {
        let sent = req.json()["messages"].as_array().unwrap().clone();
        assert_eq!(sent, replayed_messages(&run, k + 1));
    }
    // Without --continue, the file's recorded turns are left out.
    let third = MockLlm::start(vec![Reply::text(TURNS[2])]);
    let out = run_agent(&dir, &third.openai_base(), &["--max-turns", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).starts_with("turn 1  (return total)  error undefined"));
}
