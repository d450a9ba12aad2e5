//! The token budget against a provider that counts tokens its own way
//! (issue 30 item 3): the mock LLM reports each prompt's tokens as the real
//! llama.cpp server did (a real BPE, 1.135x cl100k, plus its chat template:
//! `mock_llm::server_prompt_tokens`). Before a turn has reported anything
//! the budget can only trust its own count, and the provider's count is
//! over it; from the second request on, the calibration learnt from the
//! reports keeps every prompt within the budget in the provider's count,
//! and a replay of the saved run renders the same prompts.

#![cfg(all(feature = "agent", feature = "tokens"))]

mod agent_common;
mod common;
mod mock_llm;

use agent_common::*;
use mock_llm::{server_prompt_tokens, MockLlm, Reply};
use ptc_lisp::render::Tokenizer;
use ptc_lisp::session::{render_messages, SessionFile, View};
use serde_json::{json, Value as Json};

/// Data whose samples the budget can cut.
fn session_file() -> String {
    let rows: Vec<Json> = (0..40)
        .map(|i| json!({"id": i, "city": format!("City number {i} of the northern region"), "note": "a fairly long note about this row ".repeat(3)}))
        .collect();
    let mut data = serde_json::Map::new();
    for i in 0..16 {
        data.insert(format!("table-{i}"), Json::Array(rows.clone()));
    }
    json!({
        "mission": "Summarise the orders by city",
        "max_turns": 6,
        "compression": true,
        "data": data,
    })
    .to_string()
}

const TURNS: [&str; 4] = [
    "```clojure\n(def by-city (group-by :city data/table-0))\n(println \"cities\" (count by-city))\n```",
    "```clojure\n(def notes (mapv :note data/table-0))\n(def ids (mapv :id data/table-1))\n(println (first notes))\n```",
    "```clojure\n(def summary (into {} (map (fn [[k v]] [k (count v)]) by-city)))\n(println (take 3 summary))\n```",
    "```clojure\n(return (count summary))\n```",
];

#[test]
fn a_calibrated_budget_holds_in_the_providers_own_count() {
    let dir = workdir("budget-calibration");
    std::fs::write(dir.join("s.json"), session_file()).unwrap();

    // The first prompt as ptc counts it (cl100k for this model, framing
    // included) and as the provider will: a budget between the two.
    let file = SessionFile::load(&dir.join("s.json")).unwrap();
    let session = file.session(&dir.join("s.json"), None, None).unwrap();
    let first = render_messages(&session, View::Compressed);
    let ours = Tokenizer::for_model("mock-model").count(&first);
    assert_eq!(Tokenizer::for_model("mock-model"), Tokenizer::Cl100kBase);
    let body = json!({"messages": first.iter().map(|m| json!({"role": m.role.name(), "content": m.content})).collect::<Vec<_>>()});
    let theirs = server_prompt_tokens(&body.to_string());
    let budget = ours + (theirs as usize - ours) / 4;
    assert!(
        ours < budget && (budget as u64) < theirs,
        "{ours} {budget} {theirs}"
    );

    let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect()).count_prompt_tokens();
    let out = run_agent(
        &dir,
        &mock.openai_base(),
        &["--budget-tokens", &budget.to_string()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let run: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(
        run["render"]["tokenizer"], "cl100k_base",
        "the tokenizer is saved"
    );
    let reported: Vec<u64> = run["llm"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["usage"]["input_tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(reported.len(), TURNS.len());
    // Before calibration: over the budget in the provider's count (what the
    // real server showed: 2,702 for a budget of 2,250).
    assert!(reported[0] > budget as u64, "{reported:?} budget {budget}");
    // After: within it, every time.
    for (k, n) in reported.iter().enumerate().skip(1) {
        assert!(
            *n <= budget as u64,
            "request {}: {n} > {budget} ({reported:?})",
            k + 1
        );
    }
    // The mock saw exactly what a replay of the saved run renders.
    let requests = mock.requests();
    for (k, request) in requests.iter().enumerate() {
        let sent = request.json()["messages"].clone();
        let replayed = Json::Array(replayed_messages(&dir.join("run.json"), k));
        assert_eq!(sent, replayed, "request {}", k + 1);
    }
    // Every prompt fitted the budget as ptc counted it (calibrated), so the
    // provider's count is what the calibration predicted, not luck.
    for k in 0..TURNS.len() {
        let out = ptc(&[
            "replay",
            &dir.join("run.json").display().to_string(),
            "--after",
            &k.to_string(),
            "--stats",
        ]);
        let stats = text(&out.stdout);
        assert!(
            !stats.contains("tokens over\n"),
            "after turn {k}: over the budget\n{stats}"
        );
    }
    // --stats shows the count, the calibration and what was reported.
    let stats = ptc(&[
        "replay",
        &dir.join("run.json").display().to_string(),
        "--after",
        "2",
        "--stats",
    ]);
    let stats = text(&stats.stdout);
    assert!(
        stats.contains("budget count:")
            && stats.contains("calibrated by recent turns' reports (x 1."),
        "{stats}"
    );
    assert!(stats.contains("reported"), "{stats}");
}

/// The recorded runs of `lisp-examples/` (their turns as written), each
/// replayed against a provider that counts as the real server did: with
/// any budget, once a turn has reported its prompt tokens, every prompt
/// that fits the budget in ptc's calibrated count fits it in the
/// provider's own count too.
mod calibrated_budgets_hold_on_recorded_runs {
    use super::*;
    use proptest::prelude::*;
    use ptc_lisp::session::{render, LlmInfo, Usage};

    fn provider_count(messages: &[ptc_lisp::session::Message]) -> u64 {
        let body = json!({"messages": messages.iter().map(|m| json!({"role": m.role.name(), "content": m.content})).collect::<Vec<_>>()});
        server_prompt_tokens(&body.to_string())
    }

    /// The example session files with at least two recorded turns.
    fn recorded_runs() -> Vec<(std::path::PathBuf, SessionFile)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lisp-examples");
        let mut runs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|p| SessionFile::load(&p).ok().map(|f| (p, f)))
            .filter(|(_, f)| f.turns.len() >= 2)
            .collect();
        runs.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(runs.len() >= 3, "the examples have recorded runs");
        runs
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
        #[test]
        fn fits(run in 0usize..64, fraction in 0.80f64..1.15) {
            let runs = recorded_runs();
            let (path, file) = &runs[run % runs.len()];
            let mut file = file.clone();
            file.compression = true;
            file.max_turns = file.max_turns.max(file.turns.len() + 1);
            let mut session = file.session(path, None, None).unwrap();
            let first = Tokenizer::Cl100kBase.count(session.next_prompt());
            let budget = (first as f64 * fraction) as usize;
            session.set_budget_tokens(Some(budget));
            session.set_token_model("a-local-model");
            for (k, response) in file.turns.iter().enumerate() {
                let sent = session.next_prompt().to_vec();
                let reported = provider_count(&sent);
                if k > 0 {
                    let fitted = render(&session, View::Compressed).stats.over_budget_by.is_none();
                    prop_assert!(
                        !fitted || reported <= budget as u64,
                        "{}: turn {}: the provider counted {reported} > budget {budget}",
                        path.display(),
                        k + 1
                    );
                }
                let llm = LlmInfo {
                    model: "a-local-model".into(),
                    usage: Usage { input_tokens: Some(reported), ..Usage::default() },
                    ..LlmInfo::default()
                };
                if session.run_llm_turn(response, Some(llm)).is_err() || !session.status().is_running() {
                    break;
                }
            }
        }
    }
}

/// `ptc eval` shows, per view, the provider's prompt tokens against the
/// chars/4 estimate and the budget's calibration.
#[test]
fn eval_shows_the_reported_count_against_the_estimate_and_the_calibration() {
    let dir = workdir("budget-eval");
    std::fs::write(dir.join("s.json"), session_file()).unwrap();
    let mock = MockLlm::start(TURNS.iter().map(|t| Reply::text(t)).collect()).count_prompt_tokens();
    let out = ptc(&[
        "eval",
        &dir.join("s.json").display().to_string(),
        "--model",
        "mock-model",
        "--base-url",
        &mock.openai_base(),
        "--api-key-env",
        KEY_ENV,
        "--runs",
        "1",
        "--view",
        "compressed",
        "--budget-tokens",
        "3200",
        "--out-dir",
        &dir.join("runs").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("prompt tokens (compressed): the provider reported "))
        .unwrap_or_else(|| panic!("no prompt-token line in {stdout}"));
    // The mock counts 1.135 x cl100k plus its template: more than chars/4.
    let ratio: f64 = line
        .split("reported ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(ratio > 1.0 && ratio < 1.6, "{line}");
    assert!(line.contains("; token budget calibrated x 1."), "{line}");
}
