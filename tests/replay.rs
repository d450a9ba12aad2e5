//! `ptc replay` through the built binary: every example session in
//! `lisp-examples/` replays to its expected status; the JSON output has the
//! shape of `session.md`; bad input exits 2 naming the file. Also runs every
//! standalone example program with `ptc run`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Scratch;
use serde_json::Value as Json;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lisp-examples")
}

fn ptc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptc"))
        .args(args)
        .output()
        .expect("ptc runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn replay_json(file: &Path, extra: &[&str]) -> Json {
    let path = file.to_string_lossy().into_owned();
    let mut args = vec!["replay", path.as_str(), "--format", "json"];
    args.extend_from_slice(extra);
    let out = ptc(&args);
    assert_eq!(out.status.code(), Some(0), "{}: {}", path, stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Session files (JSON with a `mission`) and data files in lisp-examples/.
fn example_files() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut sessions = Vec::new();
    let mut data = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(examples())
        .expect("lisp-examples/ exists")
        .map(|e| e.expect("readable entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let json: Json = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        if json.get("mission").is_some() {
            sessions.push(p);
        } else {
            data.push(p);
        }
    }
    (sessions, data)
}

/// What each example session ends with: state, and the value or reason.
fn expected() -> BTreeMap<&'static str, (&'static str, Option<&'static str>)> {
    BTreeMap::from([
        (
            "products-in-stock.json",
            ("returned", Some("[{:name \"Laptop\" :price 1200}]")),
        ),
        (
            "renewal-emails.json",
            ("returned", Some("[\"ada@example.com\" \"grace@example.com\"]")),
        ),
        (
            "sales-by-region.json",
            ("returned", Some("{:quarter :q3 :regions [{:region \"west\" :revenue 3170.0 :best-seller \"gizmo\"} {:region \"south\" :revenue 1542.0 :best-seller \"widget\"} {:region \"east\" :revenue 1067.5 :best-seller \"widget\"} {:region \"north\" :revenue 900.0 :best-seller \"widget\"}] :total 6679.5 :all-regions-reported true}")),
        ),
        (
            "recovering-after-errors.json",
            ("returned", Some("{:customer \"initech\" :total 310.25}")),
        ),
        (
            "warmest-office.json",
            ("returned", Some("{:warmest \"Madrid\" :temp_c 24.5 :skipped [\"Reykjavik\"]}")),
        ),
        ("missing-data-fails.json", ("failed", None)),
        ("turns-run-out.json", ("exhausted", None)),
        ("single-shot.json", ("returned", Some("[\"Laptop\" \"Desk\" \"Monitor\"]"))),
        ("refunds.json", ("running", None)),
    ])
}

#[test]
fn every_example_session_replays_to_its_expected_status() {
    let (sessions, _) = example_files();
    let expected = expected();
    assert!(sessions.len() >= 6, "at least six example sessions");
    for path in &sessions {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some((state, value)) = expected.get(name.as_str()) else {
            panic!("{name}: add the example's expected outcome to tests/replay.rs");
        };
        let json = replay_json(path, &[]);
        let status = &json["status"];
        assert_eq!(status["state"], *state, "{name}: {status}");
        if let Some(v) = value {
            assert_eq!(status["value"], *v, "{name}");
        }
        // every turn of the file ran
        let file: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let n = file["turns"].as_array().map_or(0, Vec::len);
        assert_eq!(json["turns"].as_array().unwrap().len(), n, "{name}");
        assert_eq!(status["turns"], n, "{name}");
    }
}

#[test]
fn example_sessions_show_what_they_are_about() {
    // the recovery session fails three ways, then succeeds
    let json = replay_json(&examples().join("recovering-after-errors.json"), &[]);
    let turns = json["turns"].as_array().unwrap();
    let kinds: Vec<&str> = turns
        .iter()
        .map(|t| t["error"]["kind"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        kinds,
        [
            "undefined-error",
            "undefined-error",
            "parse-error",
            "ok",
            "ok"
        ]
    );
    assert_eq!(turns[0]["error"]["hint"], "did you mean filter?");
    assert_eq!(turns[2]["program"], Json::Null);

    // the email session records the bounced call and goes on
    let json = replay_json(&examples().join("renewal-emails.json"), &[]);
    let calls = json["turns"][1]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 3);
    assert!(calls[2]["error"]
        .as_str()
        .unwrap()
        .contains("550 mailbox unavailable"));
    assert_eq!(json["stats"]["tool_calls_total"], 4);

    // the command tool's failure is recorded with the script's stderr
    let json = replay_json(&examples().join("warmest-office.json"), &[]);
    let calls = json["turns"][0]["tool_calls"].as_array().unwrap();
    assert_eq!(calls[3]["args"], "[\"Reykjavik\"]");
    assert!(calls[3]["error"]
        .as_str()
        .unwrap()
        .contains("no weather station"));

    // the failing session carries its reason
    let json = replay_json(&examples().join("missing-data-fails.json"), &[]);
    assert!(json["status"]["reason"]
        .as_str()
        .unwrap()
        .contains("no :country"));
}

#[test]
fn json_output_has_the_documented_shape() {
    let json = replay_json(
        &examples().join("products-in-stock.json"),
        &["--after", "1"],
    );
    let keys = |v: &Json| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&json), ["messages", "stats", "status", "turns"]);
    assert_eq!(
        json["status"],
        serde_json::json!({"state": "running", "turns": 1, "max_turns": 5})
    );
    for m in json["messages"].as_array().unwrap() {
        assert_eq!(keys(m), ["content", "role"]);
    }
    assert_eq!(json["messages"][0]["role"], "system");
    assert_eq!(json["messages"][1]["role"], "user");
    let user = json["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.starts_with("Find well-reviewed products in stock"),
        "{user}"
    );
    assert!(user.ends_with("Turns left: 4"), "{user}");
    let t = &json["turns"][0];
    assert_eq!(
        keys(t),
        [
            "defined",
            "number",
            "prints",
            "program",
            "raw_response",
            "result",
            "success",
            "tool_calls"
        ]
    );
    assert_eq!(t["number"], 1);
    assert_eq!(t["success"], true);
    assert_eq!(t["result"], "#'reviews");
    assert_eq!(t["defined"], serde_json::json!(["electronics", "reviews"]));
    assert_eq!(
        t["tool_calls"][0],
        serde_json::json!({"name": "search-reviews", "args": "[\"Electronics\"]",
            "args_json": ["Electronics"],
            "result": "\"Customer Review Summary for Electronics: Laptop 4.8/5, Monitor 4.6/5, Keyboard 4.1/5, Headphones 3.2/5\"",
            "result_json": "Customer Review Summary for Electronics: Laptop 4.8/5, Monitor 4.6/5, Keyboard 4.1/5, Headphones 3.2/5"})
    );
    assert_eq!(json["stats"]["tool_calls_total"], 1);
    assert_eq!(json["stats"]["tool_calls_shown"], 1);

    // a failed turn has an error object instead of a result
    let json = replay_json(
        &examples().join("recovering-after-errors.json"),
        &["--after", "1"],
    );
    let t = &json["turns"][0];
    assert_eq!(
        keys(t),
        [
            "defined",
            "error",
            "number",
            "prints",
            "program",
            "raw_response",
            "success",
            "tool_calls"
        ]
    );
    assert_eq!(
        keys(&t["error"]),
        ["column", "hint", "kind", "line", "message"]
    );
    assert_eq!(t["error"]["message"], "undefined symbol 'filter-by'");
    assert_eq!(t["error"]["line"], 1);
    assert_eq!(t["error"]["column"], 15);
}

#[test]
fn after_and_views() {
    let file = examples().join("recovering-after-errors.json");
    let f = file.to_string_lossy();
    let json = replay_json(&file, &["--after", "0"]);
    assert_eq!(json["turns"].as_array().unwrap().len(), 0);
    assert_eq!(json["status"]["state"], "running");
    assert_eq!(
        json["messages"][1]["content"]
            .as_str()
            .unwrap()
            .lines()
            .last(),
        Some("Turns left: 6")
    );

    // uncompressed: mission, then each turn's response and feedback
    let json = replay_json(&file, &["--after", "2", "--view", "uncompressed"]);
    let roles: Vec<&str> = json["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "user", "assistant", "user"]
    );
    let last = json["messages"][5]["content"].as_str().unwrap();
    assert!(
        last.starts_with("Error: data/order is not defined"),
        "{last}"
    );
    assert!(last.ends_with("Turns left: 4"), "{last}");

    let json = replay_json(&file, &["--after", "2", "--view", "compressed"]);
    assert_eq!(json["messages"].as_array().unwrap().len(), 2);

    // text views
    let out = ptc(&["replay", &f, "--view", "turns"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("=== Turn 1 of 6: failed ==="), "{text}");
    assert!(
        text.contains("[undefined-error] undefined symbol 'filter-by'"),
        "{text}"
    );
    assert!(text.contains("--- memory ---"), "{text}");
    assert!(
        text.contains("status: returned after 5 of 6 turns"),
        "{text}"
    );

    let out = ptc(&["replay", &f, "--after", "1", "--stats"]);
    let text = stdout(&out);
    assert!(text.starts_with("[SYSTEM]\n"), "{text}");
    assert!(text.contains("\n[USER]\nWhich customer"), "{text}");
    assert!(text.contains("--- stats ---"), "{text}");
    assert!(text.contains("turns: 1 (0 ok, 1 failed)"), "{text}");
}

#[test]
fn turns_after_the_end_are_reported_not_run() {
    let dir = Scratch::dir("ptc-replay-test-after-end");
    let path = dir.join("s.json");
    std::fs::write(
        &path,
        r#"{"mission": "m", "turns": ["(return 1)", "(return 2)"]}"#,
    )
    .unwrap();
    let out = ptc(&["replay", &path.to_string_lossy(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("the session ended after turn 1 (returned)"));
    let json: Json = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["status"]["value"], "1");
    assert_eq!(json["turns"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_input_exits_2_and_names_the_file() {
    let dir = Scratch::dir("ptc-replay-test-bad");
    let cases = [
        ("unknown-key.json", "{\"mission\": \"m\",\n  \"max_turn\": 3}", "unknown-key.json:2:", "unknown field `max_turn`"),
        ("bad-json.json", "{\"mission\": \"m\" \"turns\": []}", "bad-json.json:1:", "invalid JSON"),
        (
            "bad-signature.json",
            "{\"mission\": \"m\",\n \"tools\": {\"search\": {\n   \"signature\": \"(query string) -> :string\"}}}",
            "bad-signature.json:3:",
            "tools.search.signature: bad signature",
        ),
        (
            "missing-command.json",
            "{\"mission\": \"m\", \"tools\": {\"w\": {\"command\": [\"python3\", \"tools/nope.py\"]}}}",
            "missing-command.json:1:",
            "tools.w.command: script \"tools/nope.py\" not found",
        ),
        (
            "bad-literal.json",
            "{\"mission\": \"m\", \"data_lisp\": {\"s\": \"#{:a\"}}",
            "bad-literal.json:1:",
            "data_lisp.s: not a PTC-Lisp literal",
        ),
        (
            "nested-unknown.json",
            "{\"mission\": \"m\", \"tools\": {\"t\": {\"returns\": 1, \"descripton\": \"x\"}}}",
            "nested-unknown.json:1:",
            "tools.t.descripton: unknown field `descripton`",
        ),
    ];
    for (name, text, place, what) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = ptc(&["replay", &path.to_string_lossy()]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(place), "{name}: {err}");
        assert!(err.contains(what), "{name}: {err}");
        assert!(stdout(&out).is_empty(), "{name}");
    }
    let out = ptc(&["replay", "/no/such/session.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/no/such/session.json"));

    let f = examples().join("single-shot.json");
    let out = ptc(&["replay", &f.to_string_lossy(), "--after", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("single-shot.json: --after 5, but the session file has 1 turn"));

    let out = ptc(&["replay", &f.to_string_lossy(), "--view", "sideways"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn limit_flags_override_the_session_file() {
    let f = examples().join("single-shot.json");
    let json = replay_json(&f, &["--max-heap-bytes", "100"]);
    assert_eq!(json["status"]["state"], "exhausted");
    assert_eq!(json["turns"][0]["error"]["kind"], "memory-exceeded");
    // the file's own limits apply otherwise: turns-run-out.json sets max_steps
    let json = replay_json(&examples().join("turns-run-out.json"), &["--after", "1"]);
    assert!(json["turns"][0]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("step limit of 200000"));
}

#[test]
fn every_standalone_example_program_runs() {
    let (_, data) = example_files();
    let mut data_args = Vec::new();
    for d in &data {
        let name = d.file_stem().unwrap().to_string_lossy().into_owned();
        data_args.push("--data".to_string());
        data_args.push(format!("{name}={}", d.display()));
    }
    let mut programs: Vec<PathBuf> = std::fs::read_dir(examples())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("clj"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 4);
    for p in &programs {
        let mut args = vec!["run".to_string(), p.to_string_lossy().into_owned()];
        // A program with a session file of its name runs in it, as a
        // preview (no tool that writes runs).
        let session = p.with_extension("json");
        if session.is_file() {
            args.extend(["--session".into(), session.display().to_string()]);
            args.push("--preview".into());
        } else {
            args.extend(data_args.iter().cloned());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ptc(&refs);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            p.display(),
            stderr(&out)
        );
        assert!(!stdout(&out).trim().is_empty(), "{}", p.display());
    }
}

#[test]
fn run_with_a_session_uses_its_data_and_tools() {
    let dir = Scratch::dir("ptc-run-session");
    let program = dir.join("p.clj");
    std::fs::write(
        &program,
        ";; a comment first\n(println (count data/products))\n(tool/get-inventory)\n",
    )
    .unwrap();
    // The example's first turn only (the file's last turn returns).
    let example = examples().join("products-in-stock.json");
    let mut json: Json = serde_json::from_str(&std::fs::read_to_string(&example).unwrap()).unwrap();
    json["turns"].as_array_mut().unwrap().truncate(1);
    let session_path = dir.join("s.json");
    std::fs::write(&session_path, json.to_string()).unwrap();
    let session = session_path.to_str().unwrap().to_string();
    let out = ptc(&["run", program.to_str().unwrap(), "--session", &session]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("7"));
    assert!(lines.next().is_some_and(|l| l.starts_with('{')), "{text}");
    let out = ptc(&[
        "run",
        program.to_str().unwrap(),
        "--session",
        "missing.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_with_a_session_replays_its_turns_first_and_refuses_an_ended_one() {
    let dir = Scratch::dir("ptc-run-replays");
    let program = dir.join("p.clj");
    std::fs::write(&program, "(map :name electronics)\n").unwrap();
    let example = examples().join("products-in-stock.json");
    let mut json: Json = serde_json::from_str(&std::fs::read_to_string(&example).unwrap()).unwrap();
    json["turns"].as_array_mut().unwrap().truncate(1);
    let running = dir.join("running.json");
    std::fs::write(&running, json.to_string()).unwrap();
    let out = ptc(&[
        "run",
        program.to_str().unwrap(),
        "--session",
        running.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"Laptop\""), "{}", stdout(&out));

    // The full example returns in its last turn: nothing more can run.
    let out = ptc(&[
        "run",
        program.to_str().unwrap(),
        "--session",
        example.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("products-in-stock.json"), "{err}");
    assert!(err.contains("already ended (returned"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn json_gives_raw_responses_and_values_as_json_beside_their_text() {
    let json = replay_json(&examples().join("renewal-emails.json"), &[]);
    let turns = json["turns"].as_array().unwrap();
    let file: Json = serde_json::from_str(
        &std::fs::read_to_string(examples().join("renewal-emails.json")).unwrap(),
    )
    .unwrap();
    // Each turn's raw response, exactly as the LLM wrote it.
    for (t, raw) in turns.iter().zip(file["turns"].as_array().unwrap()) {
        assert_eq!(&t["raw_response"], raw);
    }
    // nil is JSON null (present), a vector of strings an array.
    assert_eq!(turns[0]["result"], "nil");
    assert!(turns[0].as_object().unwrap().contains_key("result_json"));
    assert_eq!(turns[0]["result_json"], Json::Null);
    assert_eq!(
        turns[2]["result_json"],
        serde_json::json!(["ada@example.com", "grace@example.com"])
    );
    assert_eq!(
        json["status"]["value_json"],
        serde_json::json!(["ada@example.com", "grace@example.com"])
    );
    let call = &turns[1]["tool_calls"][0];
    assert_eq!(call["args_json"][0]["to"], "ada@example.com");
    assert!(call["args"]
        .as_str()
        .unwrap()
        .starts_with("[{:to \"ada@example.com\""));
    // The shape reads back with serde, nil results included.
    let back: ptc_lisp::session::json::ReplayJson = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
}

#[test]
fn values_that_would_lose_information_have_no_json() {
    let dir = Scratch::dir("ptc-json");
    let file = dir.join("s.json");
    std::fs::write(
        &file,
        r#"{"mission": "m", "turns": ["(def a 1) {:k #{1} \"s\" :kw}", "(identity [1 2.5 \"x\" {:a nil}])"]}"#,
    )
    .unwrap();
    let json = replay_json(&file, &[]);
    let turns = json["turns"].as_array().unwrap();
    assert!(turns[0]["result"].as_str().unwrap().contains("#{1}"));
    assert!(!turns[0].as_object().unwrap().contains_key("result_json"));
    assert_eq!(
        turns[1]["result_json"],
        serde_json::json!([1, 2.5, "x", {"a": null}])
    );
}

#[test]
fn budget_tokens_degrades_the_compressed_view_or_fails_by_how_much() {
    let file = examples().join("products-in-stock.json");
    let path = file.to_string_lossy().into_owned();
    let full = ptc(&["replay", &path, "--stats"]);
    assert_eq!(full.status.code(), Some(0));
    assert!(!stdout(&full).contains("token budget"));
    let roomy = ptc(&["replay", &path, "--stats", "--budget-tokens", "100000"]);
    assert!(stdout(&roomy).contains("token budget: 100000; degraded: nothing"));
    let json = replay_json(&file, &["--budget-tokens", "100000"]);
    assert_eq!(json["stats"]["budget_tokens"], 100000);
    let tight = ptc(&["replay", &path, "--stats", "--budget-tokens", "10"]);
    assert_eq!(tight.status.code(), Some(1));
    assert!(stdout(&tight).contains("degraded: shorter samples, shortest samples"));
    assert!(
        stderr(&tight)
            .contains("limit-exceeded: the prompt, even with every degradation step, needs"),
        "{}",
        stderr(&tight)
    );
}

/// Wrong inputs a new user tries first: each message names the way forward.
#[test]
fn wrong_inputs_point_the_way() {
    let session = examples().join("sales-by-region.json");
    let session = session.to_string_lossy();
    // A session file given to `ptc run`.
    let out = ptc(&["run", &session]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("looks like a session file, not a program")
            && err.contains(&format!("ptc replay {session}"))
            && err.contains("--session")
            && err.contains("ptc agent"),
        "{err}"
    );
    // A flag's bad value is the flag's error, not the session file's.
    for cmd in [
        vec!["agent", &*session, "--model", "m", "--max-turns", "0"],
        vec![
            "eval",
            &*session,
            "--model",
            "m",
            "--runs",
            "1",
            "--max-turns",
            "0",
        ],
        vec!["repl", &*session, "--max-turns", "0"],
    ] {
        let out = ptc(&cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let err = stderr(&out);
        assert!(
            err.contains("--max-turns") && err.contains("must be at least 1"),
            "{cmd:?}: {err}"
        );
        assert!(!err.contains("sales-by-region.json:"), "{cmd:?}: {err}");
    }
    // `ptc check` on a file that is not JSONL: the line and the expected shape.
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let out = ptc(&["check", &readme.to_string_lossy()]);
    assert_ne!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(
        err.contains("line 1: not a conformance case")
            && err.contains("one JSON object per line")
            && err.contains("\"program\""),
        "{err}"
    );
}

#[test]
fn a_tool_call_under_plain_run_says_where_tools_come_from() {
    let dir = Scratch::dir("ptc-run-tool");
    let program = dir.join("p.clj");
    std::fs::write(&program, "(tool/search {:q \"x\"})").unwrap();
    let out = ptc(&["run", &program.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("tool/search is not defined") && err.contains("--session S.json"),
        "{err}"
    );
}

/// A result that repeats shared parts prints within the turn's bound but
/// would expand to a JSON tree many times its text (2.9 GB of memory and
/// 1 GB of output for a 21-level `[a a]` before): past 1 MiB of text the
/// `_json` form is omitted and the text stays.
#[test]
fn values_printing_past_a_mebibyte_have_text_but_no_json() {
    let dir = Scratch::dir("ptc-replay-test-json-form");
    let file = dir.join("s.json");
    std::fs::write(
        &file,
        r#"{"mission": "m", "turns": ["(reduce (fn [a _] [a a]) [1] (range 19))", "(return (reduce (fn [a _] [a a]) [1] (range 12)))"]}"#,
    )
    .unwrap();
    let json = replay_json(&file, &[]);
    let turns = json["turns"].as_array().unwrap();
    let big = turns[0]["result"].as_str().unwrap();
    assert!(big.len() > 1 << 20, "{}", big.len());
    assert!(
        big.starts_with("[[[[[[[[[[[[[[[[[[[[1] [1]]"),
        "{}",
        &big[..40]
    );
    assert!(!turns[0].as_object().unwrap().contains_key("result_json"));
    // A smaller one keeps both.
    assert!(turns[1]["result_json"].is_array());
    assert_eq!(json["status"]["value_json"], turns[1]["result_json"]);
}

/// Issue 59: with a token budget, a replay counts each message once, with
/// the tokenizer in use, and a long one in part: a 4 MB reply made a
/// 3-turn replay take 35 s (every render encoded every message with both
/// tokenizers).
#[test]
fn a_budgeted_replay_of_a_long_reply_counts_it_once() {
    let dir = Scratch::dir("ptc-replay-budget59").canonical();
    let big = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(72_000);
    let turns = [
        format!("Here is my plan. {big}\n```clojure\n(def a 1)\n```"),
        "```clojure\n(def b 2)\n```".to_string(),
        "```clojure\n(return (+ a b))\n```".to_string(),
    ];
    let llm: Vec<Json> = (0..3)
        .map(|i| serde_json::json!({"model": "m", "usage": {"input_tokens": 1_000_000 + i}, "latency_ms": 1}))
        .collect();
    let file = serde_json::json!({
        "mission": "m",
        "max_turns": 5,
        "render": {"budget_tokens": 4_000_000, "tokenizer": "cl100k_base"},
        "turns": turns,
        "llm": llm,
        "tool_calls": [[], [], []],
    });
    let path = dir.join("budget.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let t0 = std::time::Instant::now();
    let out = ptc(&["replay", path.to_str().unwrap()]);
    let took = t0.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Result: 3"));
    assert!(took < std::time::Duration::from_secs(15), "{took:?}");
}
