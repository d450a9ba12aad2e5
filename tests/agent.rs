//! `ptc agent` and `ptc eval` against a mock LLM server on loopback
//! (`tests/mock_llm/`): what is sent equals what `ptc replay` renders, in
//! both provider formats; the key never leaks; a killed or interrupted run
//! leaves a file that replays; `--continue`; `ptc eval` counts outcomes;
//! the HTTP client used from Rust. Failures: `tests/agent_errors.rs`.

#![cfg(feature = "agent")]

mod agent_common;
mod common;
mod mock_llm;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use agent_common::*;
use mock_llm::{MockLlm, Reply};
use serde_json::Value as Json;

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
        // Prompt caching is on by default: SYSTEM is one marked text block.
        assert_eq!(
            body["system"],
            serde_json::json!([{"type": "text", "text": system.join("\n\n"), "cache_control": {"type": "ephemeral"}}])
        );
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
    // The mock reports a cache write for the first request and reads for
    // the next ones; they are recorded and shown in the turn lines.
    let saved: Json = serde_json::from_str(&saved).unwrap();
    let llm = saved["llm"].as_array().unwrap();
    assert!(llm[0]["usage"]["cache_write_tokens"].as_u64().unwrap() > 1000);
    assert_eq!(
        llm[0]["usage"].get("cached_input_tokens"),
        Some(&Json::from(0))
    );
    let read = llm[1]["usage"]["cached_input_tokens"].as_u64().unwrap();
    assert_eq!(
        read,
        llm[0]["usage"]["cache_write_tokens"].as_u64().unwrap()
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .nth(1)
            .unwrap()
            .contains(&format!("cached {read}")),
        "{stdout}"
    );

    // --prompt-cache off: SYSTEM is a plain string, nothing is cached.
    let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect());
    let dir = workdir("anthropic-nocache");
    let out = run_agent(
        &dir,
        &mock.anthropic_base(),
        &["--provider", "anthropic", "--prompt-cache", "off"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for req in mock.requests() {
        assert!(req.json()["system"].is_string());
    }
    assert!(
        !text(&out.stdout).contains("cached"),
        "{}",
        text(&out.stdout)
    );
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

#[test]
fn the_http_client_in_rust_without_a_key_for_a_local_server() {
    use ptc_lisp::agent::http::{ClientConfig, HttpLlm, Provider};
    use ptc_lisp::agent::{self as agent_lib, Llm, LlmErrorKind};
    use ptc_lisp::session::Session;

    let mock = MockLlm::start(vec![
        Reply::text("(def n (count data/nums))"),
        Reply::text("(return n)"),
    ]);
    let mut config = ClientConfig::new(Provider::OpenAi, "local-model");
    config.base_url = mock.openai_base();
    config.api_key_env = "PTC_TEST_NO_SUCH_KEY_VARIABLE".into();
    let mut llm = HttpLlm::new(config.clone()).expect("a local server needs no key");
    assert!(!format!("{llm:?}").contains("Bearer"));
    let mut session = Session::builder("Count")
        .data_json("nums", &serde_json::json!([1, 2, 3]))
        .build()
        .unwrap();
    let end = agent_lib::run(&mut session, &mut llm, &mut |_: &Session, _: &_| {
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, agent_lib::RunEnd::Ended);
    assert_eq!(session.status().state(), "returned");
    let requests = mock.requests();
    assert_eq!(requests[0].header("authorization"), None);
    let info = session.turns()[1].llm.clone().unwrap();
    assert_eq!(info.model, "mock-gpt");
    assert_eq!(info.usage.input_tokens, Some(100));
    assert_eq!(info.usage.provider.unwrap()["total_tokens"], 103);

    // A URL without a scheme is a configuration error before any request.
    config.base_url = "127.0.0.1:1".into();
    let e = HttpLlm::new(config).unwrap_err();
    assert_eq!(e.kind, LlmErrorKind::Config);
    // A refused connection to this machine is not retried (nothing is
    // listening there): a connection error naming the URL, at once.
    let mut config = ClientConfig::new(Provider::Anthropic, "m");
    config.base_url = "http://127.0.0.1:1".into();
    config.retry.max_retries = 1;
    config.retry.base_delay = Duration::from_millis(1);
    let e = HttpLlm::new(config)
        .unwrap()
        .complete(session.next_prompt())
        .unwrap_err();
    assert_eq!((e.kind, e.attempts), (LlmErrorKind::Connection, 1), "{e}");
    assert!(e.refused, "{e}");
    assert!(
        e.message
            .contains("nothing is listening at http://127.0.0.1:1/v1/messages"),
        "{e}"
    );
}

/// A write awaiting approval (`"approval": "writes"`, issue 61): without a
/// terminal `ptc agent` saves the run and exits 4; `ptc resume` approves
/// it, and `ptc agent --continue` goes on from there.
#[test]
fn a_paused_turn_stops_the_agent_with_code_4_and_resumes() {
    let dir = workdir("paused");
    let mut session: Json = serde_json::from_str(SESSION).unwrap();
    session["approval"] = "writes".into();
    session["tools"]["notify"]["effect"] = "write".into();
    std::fs::write(dir.join("s.json"), session.to_string()).unwrap();
    let mock = MockLlm::start(vec![Reply::text(
        "```clojure\n(def total (reduce + data/nums))\n(tool/notify (str \"total \" total))\ntotal\n```",
    )]);
    let out = run_agent(&dir, &mock.openai_base(), &[]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("paused: awaiting approval"));
    assert!(
        text(&out.stderr).contains("[0] tool/notify"),
        "{}",
        text(&out.stderr)
    );
    let run = dir.join("run.json");
    let saved: Json = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    assert_eq!(saved["resume"]["pending"][0]["tool"], "notify");
    assert_eq!(
        saved["turns"].as_array().map(Vec::len),
        None,
        "no turn ended"
    );
    let out = ptc(&["resume", run.to_str().unwrap(), "--approve", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "10\n");
    let saved: Json = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    assert!(saved.get("resume").is_none());
    assert_eq!(saved["tool_calls"][0][0]["args"][0], "total 10");
    // The model's next turn sees the resumed one.
    std::fs::copy(&run, dir.join("s.json")).unwrap();
    let next = MockLlm::start(vec![Reply::text("```clojure\n(return total)\n```")]);
    let out = run_agent(&dir, &next.openai_base(), &["--continue"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("returned 10"),
        "{}",
        text(&out.stdout)
    );
}
