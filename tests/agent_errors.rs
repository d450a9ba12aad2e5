//! `ptc agent`'s provider failures against the mock LLM server: retries
//! with backoff (429 + Retry-After, 500, dropped connection, slow answer)
//! then success; retries running out; timeouts; 400/401/403/404 failing at
//! once with the provider's message (key redacted); malformed and empty
//! bodies; a missing key.

#![cfg(feature = "agent")]

mod agent_common;
mod common;
mod mock_llm;

use std::time::{Duration, Instant};

use agent_common::*;
use mock_llm::{MockLlm, Reply};
use serde_json::Value as Json;

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
    // The mock is local: retrying its timeouts is asked for explicitly.
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &[
            "--retries",
            "4",
            "--llm-timeout",
            "0.5",
            "--retry-local-timeouts",
        ],
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

#[test]
fn a_base_url_that_misses_the_api_paths_is_a_404_that_says_where_to_look() {
    // The mock answers 404 off the API's paths, as a real server does.
    let mock = MockLlm::start(vec![Reply::text("(return 1)")]);
    let dir = workdir("base-url-without-v1");
    let bare = mock.anthropic_base(); // http://127.0.0.1:PORT, no /v1
    let out = run_agent(&dir, &bare, &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("HTTP 404"), "{err}");
    assert!(
        err.contains(&format!("the request went to {bare}/chat/completions"))
            && err.contains("check that --base-url ends where the API's paths begin (…/v1"),
        "{err}"
    );
    // Anthropic with a base URL that already has /v1: …/v1/v1/messages.
    let out = run_agent(&dir, &mock.openai_base(), &["--provider", "anthropic"]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains("check that --base-url is the API's root, without /v1"),
        "{err}"
    );
    // Neither request consumed the script; the right base URL still works.
    let out = run_agent(&dir, &mock.openai_base(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// A local server computes a request the client gave up on: with retries
/// left, a timeout against 127.0.0.1 still fails at once (one request, not
/// three piling up), naming the flag and its value.
#[test]
fn a_timeout_against_a_local_server_is_not_retried() {
    let mock = MockLlm::start(vec![
        Reply::slow(1500, Reply::text("(return 1)")),
        Reply::text("(return 2)"),
    ]);
    let dir = workdir("local-timeout");
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &["--retries", "2", "--llm-timeout", "0.3"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(mock.requests().len(), 1, "no retry of a local timeout");
    let err = text(&out.stderr);
    assert!(err.contains("--llm-timeout 0.3 s"), "{err}");
    assert!(
        err.contains("not retried") && err.contains("--retry-local-timeouts"),
        "{err}"
    );
}

#[test]
fn a_refused_local_connection_names_the_url_and_fails_at_once() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}/v1");
    let dir = workdir("refused");
    let start = Instant::now();
    let out = run_agent(&dir, &base, &[]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "nothing is listening at {base}/chat/completions (connection refused)"
        )) && err.contains("--base-url"),
        "{err}"
    );
    // Not retried: one attempt, no backoff.
    assert!(!err.contains("attempts"), "{err}");
    assert!(took < Duration::from_secs(3), "{took:?}: {err}");
}
