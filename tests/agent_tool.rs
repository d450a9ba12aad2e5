//! Issue 26 against the mock LLM (`tests/mock_llm/`, strict about tool
//! histories): the tool protocol in both provider formats (native pairs a
//! strict provider accepts, exactly what `ptc replay --wire` prints, saved
//! runs replaying the same), protocol failures, cut-off and empty replies
//! as failed turns, a byte-stable request prefix, cost, `ptc eval --jobs`
//! and failure causes.

#![cfg(feature = "agent")]

mod agent_common;
mod common;
mod mock_llm;

use std::path::Path;

use agent_common::*;
use mock_llm::{MockLlm, Reply};
use ptc_lisp::agent::http::{ClientConfig, HttpLlm, Provider};
use ptc_lisp::agent::{Llm, LlmErrorKind};
use ptc_lisp::session::{Message, Protocol};
use serde_json::Value as Json;

fn tool_script() -> Vec<Reply> {
    vec![
        Reply::call(
            "I'll sum first.",
            "(def total (reduce + data/nums))\n(tool/notify (str \"total \" total))",
        ),
        // prose only: no call
        Reply::text("I think the total is 10."),
        // several calls: none runs
        Reply::calls(
            "",
            &[
                ("run_ptc_lisp", r#"{"program": "(def a 1)"}"#),
                ("run_ptc_lisp", r#"{"program": "(def b 2)"}"#),
            ],
        ),
        // bad arguments
        Reply::calls("", &[("run_ptc_lisp", r#"{"code": "(return 1)"}"#)]),
        Reply::call("", "(return total)"),
    ]
}

fn wire(run: &Path, after: usize, provider: &str) -> Json {
    let out = ptc(&[
        "replay",
        &run.display().to_string(),
        "--after",
        &after.to_string(),
        "--wire",
        provider,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).expect("wire JSON")
}

#[test]
fn tool_protocol_sends_native_pairs_a_strict_provider_accepts() {
    for provider in ["openai", "anthropic"] {
        let mock = MockLlm::start(tool_script());
        let dir = workdir(&format!("tool-{provider}"));
        let base = if provider == "openai" {
            mock.openai_base()
        } else {
            mock.anthropic_base()
        };
        let out = run_agent(
            &dir,
            &base,
            &[
                "--provider",
                provider,
                "--protocol",
                "tool",
                "--view",
                "uncompressed",
            ],
        );
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{provider}: {stdout}{}",
            text(&out.stderr)
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(lines[0].contains("ok nil"), "{stdout}");
        assert!(lines[1].contains("(no code)  error protocol"), "{stdout}");
        assert!(lines[2].contains("error protocol"), "{stdout}");
        assert!(lines[3].contains("error protocol"), "{stdout}");
        assert!(lines[4].contains("returned 10"), "{stdout}");
        let run = dir.join("run.json");
        assert_no_key(&out, &run);
        let requests = mock.requests();
        assert_eq!(requests.len(), 5, "{provider}");
        for (k, req) in requests.iter().enumerate() {
            let body = req.json();
            // One tool, its call required.
            assert_eq!(body["tools"].as_array().map(Vec::len), Some(1));
            if provider == "openai" {
                assert_eq!(body["tools"][0]["function"]["name"], "run_ptc_lisp");
                assert_eq!(body["tool_choice"], "required");
            } else {
                assert_eq!(body["tools"][0]["name"], "run_ptc_lisp");
                assert_eq!(
                    body["tool_choice"],
                    serde_json::json!({"type": "tool", "name": "run_ptc_lisp"})
                );
            }
            // Exactly what `ptc replay --wire` prints for that point.
            let replayed = wire(&run, k, provider);
            assert_eq!(
                body["messages"],
                replayed["messages"],
                "{provider} request {}",
                k + 1
            );
            assert_eq!(body["tools"], replayed["tools"]);
        }
        // The SYSTEM prompt asks for the call, not a code block.
        let first = &requests[0].body;
        assert!(first.contains("Reply by calling the run_ptc_lisp tool once"));
        assert!(!first.contains("Reply with one ```clojure code block"));
        // Turn 1 is a native pair in the history of request 2.
        let second = requests[1].json();
        let m = second["messages"].as_array().unwrap();
        if provider == "openai" {
            assert_eq!(m[2]["role"], "assistant");
            assert_eq!(m[2]["content"], "I'll sum first.");
            assert_eq!(m[2]["tool_calls"][0]["id"], "ptc_turn_1");
            assert_eq!(m[3]["role"], "tool");
            assert_eq!(m[3]["tool_call_id"], "ptc_turn_1");
            assert!(m[3]["content"].as_str().unwrap().starts_with("Result: nil"));
        } else {
            assert_eq!(m[1]["content"][0]["text"], "I'll sum first.");
            assert_eq!(m[1]["content"][1]["type"], "tool_use");
            assert_eq!(m[2]["content"][0]["type"], "tool_result");
        }
        // The feedback of the protocol failures reaches the model.
        let last = requests[4].body.clone();
        assert!(last.contains("no run_ptc_lisp call"), "{last}");
        assert!(last.contains("2 tool calls"), "{last}");
        assert!(last.contains("must be an object"), "{last}");
        // The saved run records the protocol and the calls, and replays
        // to the same turns.
        let saved: Json = serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
        assert_eq!(saved["protocol"], "tool");
        let calls = saved["calls"].as_array().expect("calls");
        assert_eq!(calls.len(), 5);
        assert_eq!(calls[1], serde_json::json!([]));
        assert_eq!(calls[2].as_array().unwrap().len(), 2);
        let out = ptc(&["replay", &run.display().to_string(), "--format", "json"]);
        let replay: Json = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(replay["status"]["state"], "returned");
        assert_eq!(replay["status"]["value"], "10");
        let turns = replay["turns"].as_array().unwrap();
        assert_eq!(
            turns[0]["program"],
            "(def total (reduce + data/nums))\n(tool/notify (str \"total \" total))"
        );
        assert_eq!(turns[0]["raw_response"], "I'll sum first.");
        assert!(turns[3]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("must be an object"));
    }
}

fn client(mock: &MockLlm, provider: Provider) -> HttpLlm {
    let mut c = ClientConfig::new(provider, "m");
    c.base_url = match provider {
        Provider::OpenAi => mock.openai_base(),
        Provider::Anthropic => mock.anthropic_base(),
    };
    c.api_key_env = "PTC_TEST_NO_SUCH_KEY".into();
    c.protocol = Protocol::Tool;
    c.retry.max_retries = 0;
    HttpLlm::new(c).unwrap()
}

#[test]
fn the_mock_rejects_what_a_strict_provider_rejects() {
    let base = vec![Message::system("S".into()), Message::user("U".into())];
    let orphan_result = {
        let mut m = base.clone();
        m.push(Message::assistant("text".into()));
        m.push(Message::tool_result(
            "ptc_turn_1".into(),
            "Result: 1".into(),
        ));
        m
    };
    let call_without_result = {
        let mut m = base.clone();
        m.push(Message::program_call(
            String::new(),
            "ptc_turn_1".into(),
            "1".into(),
        ));
        m.push(Message::user("Result: 1".into()));
        m
    };
    let good = {
        let mut m = base.clone();
        m.push(Message::program_call(
            String::new(),
            "ptc_turn_1".into(),
            "1".into(),
        ));
        m.push(Message::tool_result(
            "ptc_turn_1".into(),
            "Result: 1".into(),
        ));
        m
    };
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let mock = MockLlm::start(vec![Reply::call("", "1")]);
        let mut llm = client(&mock, provider);
        for bad in [&orphan_result, &call_without_result] {
            let e = llm.complete(bad).unwrap_err();
            assert_eq!(e.kind, LlmErrorKind::Rejected, "{provider:?}: {e}");
            assert_eq!(e.status, Some(400));
        }
        let r = llm.complete(&good).unwrap();
        assert_eq!(r.calls.as_ref().map(Vec::len), Some(1), "{provider:?}");
    }
}

#[test]
fn cut_off_and_empty_replies_are_failed_turns_not_provider_errors() {
    for provider in ["openai", "anthropic"] {
        for protocol in ["text", "tool"] {
            let finish = if protocol == "tool" {
                Reply::call("", "(return 1)")
            } else {
                Reply::text("(return 1)")
            };
            let mock = MockLlm::start(vec![
                Reply::cut("(def x (reduce + (map inc"),
                Reply::empty(),
                finish,
            ]);
            let dir = workdir(&format!("cut-{provider}-{protocol}"));
            let base = if provider == "openai" {
                mock.openai_base()
            } else {
                mock.anthropic_base()
            };
            let out = run_agent(
                &dir,
                &base,
                &["--provider", provider, "--protocol", protocol],
            );
            let stdout = text(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{provider}/{protocol}: {stdout}{}",
                text(&out.stderr)
            );
            assert!(
                stdout.lines().next().unwrap().contains("error cut-off"),
                "{stdout}"
            );
            assert!(
                stdout.lines().nth(1).unwrap().contains("error empty"),
                "{stdout}"
            );
            let requests = mock.requests();
            let second = &requests[1].body;
            assert!(
                second.contains("your response was cut off at 7 tokens; write a shorter program"),
                "{second}"
            );
            assert!(requests[2].body.contains("the reply was empty"));
            // The saved run replays to the same failed turns.
            let run = dir.join("run.json");
            let out = ptc(&["replay", &run.display().to_string(), "--format", "json"]);
            let replay: Json = serde_json::from_str(&text(&out.stdout)).unwrap();
            assert_eq!(
                replay["status"]["state"], "returned",
                "{provider}/{protocol}"
            );
            assert!(replay["turns"][0]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("cut off"));
        }
    }
}

/// Length of the common start of two strings, in bytes.
fn shared(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[test]
fn requests_share_a_byte_stable_prefix_through_the_system_prompt() {
    for provider in ["openai", "anthropic"] {
        for protocol in ["text", "tool"] {
            for view in ["compressed", "uncompressed"] {
                let script: Vec<Reply> = TURNS
                    .iter()
                    .map(|t| {
                        if protocol == "tool" {
                            let p = t
                                .split("```clojure\n")
                                .nth(1)
                                .unwrap()
                                .trim_end_matches("```");
                            Reply::call("", p)
                        } else {
                            Reply::text(t)
                        }
                    })
                    .collect();
                let mock = MockLlm::start(script);
                let dir = workdir(&format!("prefix-{provider}-{protocol}-{view}"));
                let base = if provider == "openai" {
                    mock.openai_base()
                } else {
                    mock.anthropic_base()
                };
                let out = run_agent(
                    &dir,
                    &base,
                    &[
                        "--provider",
                        provider,
                        "--protocol",
                        protocol,
                        "--view",
                        view,
                    ],
                );
                assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
                let bodies: Vec<String> = mock.requests().iter().map(|r| r.body.clone()).collect();
                assert_eq!(bodies.len(), 3);
                let system = ptc_lisp::render::system_prompt_for(if protocol == "tool" {
                    Protocol::Tool
                } else {
                    Protocol::Text
                });
                let escaped = serde_json::to_string(&system).unwrap();
                let k = bodies[0].find(&escaped).expect("SYSTEM in the body") + escaped.len();
                for b in &bodies[1..] {
                    assert!(
                        shared(&bodies[0], b) >= k,
                        "{provider}/{protocol}/{view}: {} < {k}",
                        shared(&bodies[0], b)
                    );
                }
            }
        }
    }
}

#[test]
fn prices_put_a_cost_on_turns_and_runs() {
    let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect());
    let dir = workdir("cost");
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &[
            "--price-in",
            "3",
            "--price-out",
            "15",
            "--price-cached",
            "0.3",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    let stdout = text(&out.stdout);
    for (k, info) in saved["llm"].as_array().unwrap().iter().enumerate() {
        let u = &info["usage"];
        let input = u["input_tokens"].as_f64().unwrap();
        let cached = u["cached_input_tokens"].as_f64().unwrap_or(0.0);
        let output = u["output_tokens"].as_f64().unwrap();
        let want = ((input - cached) * 3.0 + cached * 0.3 + output * 15.0) / 1e6;
        let cost = info["cost_usd"].as_f64().unwrap();
        assert!((cost - want).abs() < 1e-12, "turn {}: {cost} {want}", k + 1);
        let line = stdout.lines().nth(k).unwrap();
        assert!(line.contains(&format!("${cost:.4}")), "{line}");
    }
    let total: f64 = saved["llm"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["cost_usd"].as_f64().unwrap())
        .sum();
    // The run's cost is in the file too.
    let run_cost = saved["cost_usd"].as_f64().expect("the run's cost_usd");
    assert!((run_cost - total).abs() < 1e-12, "{run_cost} {total}");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .contains(&format!("cost ${total:.4}")),
        "{stdout}"
    );
    // Only one of the pair is an input error.
    let out = run_agent(&dir, &mock.openai_base(), &["--price-in", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--price-in and --price-out go together"));
}

/// `ptc eval` of the uncompressed view with a mock that answers by turn
/// (the number of assistant messages in the request), so that runs made
/// at once get the same answers as runs made one by one.
fn eval_with_jobs(jobs: &str, name: &str) -> (String, Vec<Json>) {
    let mock = MockLlm::start_routed(|req| {
        let body: Json = serde_json::from_str(&req.body).unwrap();
        let turn = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "assistant")
            .count();
        match turn {
            0 => Reply::text("(def x (reduce + data/nums))"),
            1 => Reply::text("Let me think about it."),
            2 => Reply::text("(undefined-thing x)"),
            _ => Reply::text("(return x)"),
        }
    });
    let dir = workdir(name);
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
        "4",
        "--view",
        "uncompressed",
        "--jobs",
        jobs,
        "--price-in",
        "1",
        "--price-out",
        "2",
        "--out-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let table: Vec<String> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("view "))
        .filter(|l| !l.starts_with("session files"))
        .map(|l| {
            // without the seconds column
            let mut w: Vec<&str> = l.split_whitespace().collect();
            if l.starts_with("uncompressed ") {
                w.pop();
            }
            w.join(" ")
        })
        .collect();
    let mut files = Vec::new();
    for k in 1..=4 {
        let f: Json = serde_json::from_str(
            &std::fs::read_to_string(out_dir.join(format!("uncompressed-{k:02}.json"))).unwrap(),
        )
        .unwrap();
        files.push(serde_json::json!([
            f["turns"],
            f["llm"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["cost_usd"].clone())
                .collect::<Vec<_>>()
        ]));
    }
    (table.join("\n"), files)
}

#[test]
fn eval_jobs_give_the_same_table_and_files_and_count_failure_causes() {
    let (one, files_one) = eval_with_jobs("1", "eval-jobs-1");
    let (three, files_three) = eval_with_jobs("3", "eval-jobs-3");
    assert_eq!(one, three);
    assert_eq!(files_one, files_three);
    assert!(
        one.contains("failed turns (uncompressed): no-code 4, undefined-error 4"),
        "{one}"
    );
    let row: Vec<&str> = one
        .lines()
        .find(|l| l.starts_with("uncompressed "))
        .unwrap()
        .split_whitespace()
        .collect();
    // view runs success returned failed exhausted errors turns
    assert_eq!(
        &row[1..8],
        ["4", "100%", "4", "0", "0", "0", "4.00"],
        "{one}"
    );
    assert_ne!(row[11], "-", "cost column: {one}");
}
