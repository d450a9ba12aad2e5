//! `ptc agent` against a malicious or broken provider (issue 23): redirects
//! are not followed (the key must not go to another host, an OpenAI POST
//! must not become a GET whose answer runs), the key is redacted from
//! everything the provider echoes (text, `model`, `usage`, error bodies cut
//! in the middle of it), a `Retry-After` longer than the time budget does
//! not hold the run, and control characters in the model's text do not
//! reach the terminal raw.

#![cfg(feature = "agent")]

mod agent_common;
mod common;
mod mock_llm;

use std::time::{Duration, Instant};

use agent_common::*;
use mock_llm::{MockLlm, Reply};

fn redirect_to(location: &str) -> Reply {
    Reply::Status {
        code: 302,
        headers: vec![("Location".into(), location.into())],
        body: String::new(),
    }
}

/// No piece of the key of 8 characters or more in the output or the file.
fn assert_no_key_piece(out: &std::process::Output, run: &std::path::Path) {
    let saved = std::fs::read_to_string(run).unwrap_or_default();
    let all = format!("{}{}{saved}", text(&out.stdout), text(&out.stderr));
    for i in 0..=KEY.len() - 8 {
        let piece = &KEY[i..i + 8];
        assert!(!all.contains(piece), "{piece:?} of the key leaked:\n{all}");
    }
}

#[test]
fn redirects_are_a_provider_error_naming_the_location() {
    for provider in ["openai", "anthropic"] {
        let other = MockLlm::start(vec![Reply::text("(return \"from the other host\")")]);
        let location = format!("{}/stolen", other.anthropic_base());
        let mock = MockLlm::start(vec![redirect_to(&location)]);
        let base = if provider == "openai" {
            mock.openai_base()
        } else {
            mock.anthropic_base()
        };
        let dir = workdir(&format!("redirect-{provider}"));
        let out = run_agent(&dir, &base, &["--provider", provider]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{provider}: {err}");
        assert!(
            err.contains("HTTP 302") && err.contains(&location) && err.contains("redirect"),
            "{provider}: {err}"
        );
        assert_eq!(
            other.requests().len(),
            0,
            "{provider}: the redirect was followed"
        );
        assert_eq!(mock.requests().len(), 1, "{provider}: retried a redirect");
        assert!(!text(&out.stdout).contains("from the other host"));
    }
}

#[test]
fn the_key_echoed_in_text_model_or_usage_is_redacted() {
    let body = serde_json::json!({
        "model": format!("gpt-{KEY}"),
        "choices": [{"index": 0, "message": {"role": "assistant",
            "content": format!("Your key is {KEY}.\n```clojure\n(return \"{KEY}\")\n```")},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "note": KEY}
    });
    let mock = MockLlm::start(vec![Reply::Raw(body.to_string())]);
    let dir = workdir("echo-key");
    let out = run_agent(&dir, &mock.openai_base(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_no_key(&out, &dir.join("run.json"));
    assert_no_key_piece(&out, &dir.join("run.json"));
}

#[test]
fn error_bodies_cut_inside_the_key_show_no_piece_of_it() {
    for (code, pad) in [(400, 490), (400, 195), (200, 190)] {
        // Not JSON: the body itself is quoted, cut at 500 (errors) or 200
        // (a 2xx that is not JSON) characters.
        let body = format!("{}{KEY}{KEY}", "x".repeat(pad));
        let reply = if code == 200 {
            Reply::Raw(body)
        } else {
            Reply::status(code, &body)
        };
        let mock = MockLlm::start(vec![reply]);
        let dir = workdir(&format!("cut-key-{code}-{pad}"));
        let out = run_agent(&dir, &mock.openai_base(), &[]);
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
        assert_no_key_piece(&out, &dir.join("run.json"));
    }
}

#[test]
fn a_retry_after_longer_than_the_time_budget_is_not_waited() {
    let mock = MockLlm::start(vec![Reply::rate_limited(120), Reply::text("(return 1)")]);
    let dir = workdir("retry-after-budget");
    let start = Instant::now();
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &["--retries", "1", "--llm-timeout", "1"],
    );
    let err = text(&out.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "waited {:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("rate-limited") && err.contains("time budget"),
        "{err}"
    );
    assert_eq!(mock.requests().len(), 1);
}

#[test]
fn control_characters_from_the_model_are_escaped_in_turn_lines() {
    let mock = MockLlm::start(vec![Reply::text(
        "(def x 1) ;; \u{1b}]0;owned\u{7}\u{1b}[2J\r\n(return \"\u{1b}[31mred\u{9b}\")",
    )]);
    let dir = workdir("control-chars");
    let out = run_agent(&dir, &mock.openai_base(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}') && !stdout.contains('\u{9b}'),
        "{stdout:?}"
    );
    assert!(stdout.contains("\\u{1b}"), "{stdout:?}");
}
