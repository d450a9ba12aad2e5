//! Every tool result recorded; replay is hermetic (issue 24), and saved
//! files keep working from where they are saved (issue 30, item 2).
//!
//! Library: a saved session carries each turn's tool calls with values that
//! round-trip exactly; loading replays them without running any tool
//! (closure tools become recorded-only and a failed turn stays failed);
//! a program whose calls differ from the recording is an error naming the
//! turn, the call and the difference. CLI: `ptc replay` of a recorded run
//! whose command-tool script was deleted prints the same bytes, `--live`
//! runs the script again, a changed program gives the mismatch error;
//! `ptc agent --out` and `ptc eval` into other folders write files that
//! replay.

#![cfg(feature = "agent")]

mod common;
mod mock_llm;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::Scratch;
use mock_llm::{MockLlm, Reply};
use ptc_lisp::session::{FnTool, ReplayTools, Session, SessionError, SessionFile, Tool};
use ptc_lisp::{read_value, Value};
use serde_json::Value as Json;

fn ptc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptc"))
        .args(args)
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy")
        .output()
        .expect("ptc runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A session whose closure tool counts its calls and answers values JSON
/// cannot hold (keywords, sets, characters) or an error.
fn counted_session(calls: Arc<AtomicUsize>) -> Session {
    Session::builder("Look things up")
        .tool_fn(
            "lookup",
            "(id :int) -> :any",
            "Looks an id up",
            move |args| {
                calls.fetch_add(1, Ordering::SeqCst);
                match args {
                    [Value::Int(1)] => {
                        Ok(read_value("{:tags #{:a :b}, :c \\x, \"k\" 1.5}").unwrap())
                    }
                    [Value::Int(2)] => Ok(read_value("{:lisp \"not a literal\"}").unwrap()),
                    _ => Err("no such id".into()),
                }
            },
        )
        .max_turns(6)
        .build()
        .unwrap()
}

fn counted() -> (Arc<AtomicUsize>, Session) {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut session = counted_session(calls.clone());
    session
        .run_turn("(def a (tool/lookup 1))\n(def b (tool/lookup 2))\n[a b]")
        .unwrap();
    // a failed turn: the tool's error ends it
    session.run_turn("(tool/lookup 7)").unwrap();
    // a call failing the signature is recorded too
    session.run_turn("(tool/lookup \"x\")").unwrap();
    (calls, session)
}

#[test]
fn saved_sessions_record_every_call_with_exact_values() {
    let (calls, session) = counted();
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    let dir = Scratch::dir("ptc-recording-exact");
    let path = dir.join("s.json");
    session.save(&path).unwrap();
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let recorded = json["tool_calls"].as_array().unwrap();
    assert_eq!(recorded.len(), 3);
    assert_eq!(recorded[0][0]["tool"], "lookup");
    assert_eq!(recorded[0][0]["args"], serde_json::json!([1]));
    // not JSON: a tagged literal
    assert!(recorded[0][0]["returns"]["lisp"]
        .as_str()
        .unwrap()
        .contains("#{:a :b}"));
    // JSON that would read as the tag is tagged too
    assert!(recorded[0][1]["returns"]["lisp"].is_string());
    assert_eq!(recorded[1][0]["error"], "no such id");
    assert!(recorded[2][0]["error"].as_str().unwrap().contains("lookup"));
    assert_eq!(json["tools"]["lookup"]["recorded_only"], true);

    let loaded = Session::load(&path).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 3, "no tool ran");
    for (a, b) in session.turns().iter().zip(loaded.turns()) {
        assert_eq!(a.result.as_ref().ok(), b.result.as_ref().ok());
        assert_eq!(a.success, b.success, "turn {}", a.number);
        assert_eq!(format!("{:?}", a.tool_calls), format!("{:?}", b.tool_calls));
    }
    assert!(!loaded.turns()[1].success, "the failed turn stays failed");
    assert_eq!(session.prompts(), loaded.prompts());
    // saving the replayed session writes the same file
    assert_eq!(
        loaded.to_file_at(&path).to_json() + "\n",
        std::fs::read_to_string(&path).unwrap()
    );
}

#[test]
fn recorded_only_tools_say_how_to_attach_one_and_attached_tools_serve_new_turns() {
    let (_, session) = counted();
    let dir = Scratch::dir("ptc-recording-attach");
    let path = dir.join("s.json");
    std::fs::write(&path, session.to_file().to_json()).unwrap();

    let mut loaded = Session::load(&path).unwrap();
    let turn = loaded.run_turn("(tool/lookup 1)").unwrap();
    let e = turn.error().unwrap().message().to_string();
    assert!(e.contains("tool/lookup has no live implementation"), "{e}");
    assert!(
        e.contains("tools=[...]") && e.contains("attach_tool"),
        "{e}"
    );

    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let tool = FnTool::new("lookup", "(id :int) -> :any", "Looks an id up", move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
        Ok(Value::Int(42))
    })
    .unwrap();
    let mut attached = Session::load_with(
        &path,
        vec![Box::new(tool) as Box<dyn Tool>],
        ReplayTools::Recorded,
    )
    .unwrap();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "recorded turns did not call it"
    );
    let turn = attached.run_turn("(tool/lookup 9)").unwrap();
    assert_eq!(turn.result.as_ref().ok(), Some(&Value::Int(42)));
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // --live: the recorded turns call the attached tool again
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let tool = FnTool::new("lookup", "(id :int) -> :any", "", move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
        Ok(Value::Nil)
    })
    .unwrap();
    Session::load_with(
        &path,
        vec![Box::new(tool) as Box<dyn Tool>],
        ReplayTools::Live,
    )
    .unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

fn mismatch(path: &Path, turn0: &str) -> String {
    let mut file = SessionFile::load(path).unwrap();
    file.turns[0] = turn0.to_string();
    let changed = path.with_file_name("changed.json");
    std::fs::write(&changed, file.to_json()).unwrap();
    match Session::load(&changed) {
        Err(e @ SessionError::Recording { .. }) => e.to_string(),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("{turn0}: replayed"),
    }
}

#[test]
fn a_program_that_no_longer_matches_its_recording_is_an_error() {
    let (_, session) = counted();
    let dir = Scratch::dir("ptc-recording-mismatch");
    let path = dir.join("s.json");
    std::fs::write(&path, session.to_file().to_json()).unwrap();

    let e = mismatch(
        &path,
        "(def a (tool/lookup 1))\n(def b (tool/lookup 3))\n[a b]",
    );
    assert!(e.starts_with("turn 1, call 2 (tool/lookup): the recording no longer matches: argument 1 differs: recorded 2, now 3"), "{e}");
    // more calls than recorded
    let e = mismatch(&path, "(tool/lookup 1) (tool/lookup 2) (tool/lookup 1)");
    assert!(e.contains("call 3 (tool/lookup): the recording no longer matches: the recording has only 2 tool calls"), "{e}");
    // fewer
    let e = mismatch(&path, "(tool/lookup 1)");
    assert!(
        e.contains(
            "the turn made 1 tool call, the recording has 2; the first not made: (tool/lookup 2)"
        ),
        "{e}"
    );
    // a recorded turn that now fails its signature check
    let e = mismatch(&path, "(tool/lookup \"y\")");
    assert!(
        e.contains("argument 1 differs: recorded 1, now \"y\""),
        "{e}"
    );
}

/// A folder with a command tool writing a log line per call, a session
/// file using it, and its turns.
fn command_example(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::write(
        dir.join("tools/temp.sh"),
        "#!/bin/sh\nread req\necho call >> calls.log\ncase \"$req\" in\n  *Oslo*) echo '{\"temp\": 6.5, \"tags\": [\"cold\"]}' ;;\n  *) echo \"no station\" >&2; exit 3 ;;\nesac\n",
    )
    .unwrap();
    let session = serde_json::json!({
        "mission": "Find the temperature",
        "max_turns": 4,
        "tools": {"temp": {"signature": "(city :string) -> :map", "command": ["sh", "tools/temp.sh"]}},
        "turns": [
            "```clojure\n(def t (tool/temp \"Oslo\"))\n(:temp t)\n```",
            "```clojure\n(tool/temp \"Atlantis\")\n```"
        ]
    });
    let path = dir.join("weather.json");
    std::fs::write(&path, serde_json::to_string_pretty(&session).unwrap()).unwrap();
    path
}

fn log_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("calls.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[test]
fn ptc_replay_is_hermetic_and_live_runs_the_tools() {
    let dir = Scratch::dir("ptc-recording-cli");
    let original = command_example(&dir);
    // A hand-written file has no recording: its tools run.
    let first = ptc(&["replay", &s(&original)]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(log_lines(&dir), 2);
    // Recorded (saved elsewhere through the library, as :save/--out do).
    let saved_dir = dir.join("saved");
    std::fs::create_dir_all(&saved_dir).unwrap();
    let saved = saved_dir.join("run.json");
    let session = Session::load(&original).unwrap();
    assert_eq!(log_lines(&dir), 4);
    std::fs::write(&saved, session.to_file_at(&saved).to_json()).unwrap();
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["tools"]["temp"]["cwd"], "..");
    assert_eq!(
        json["tool_calls"][1][0]["error"],
        "no station (exit code 3)"
    );

    let live = ptc(&["replay", &s(&saved), "--live"]);
    assert_eq!(live.status.code(), Some(0), "{}", text(&live.stderr));
    assert_eq!(
        log_lines(&dir),
        6,
        "--live ran the script (in its own folder)"
    );
    assert_eq!(live.stdout, first.stdout);

    std::fs::remove_file(dir.join("tools/temp.sh")).unwrap();
    for args in [
        vec!["replay", s(&saved).as_str()],
        vec!["replay", s(&saved).as_str(), "--format", "json"],
    ] {
        let out = ptc(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        if args.len() == 2 {
            assert_eq!(out.stdout, first.stdout, "byte for byte without the script");
        }
    }
    let snap = dir.join("snap");
    let out = ptc(&["replay", &s(&saved), "--snapshot", &s(&snap)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ptc(&["replay", &s(&saved), "--check", &s(&snap)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(log_lines(&dir), 6, "no tool ran");
    // `ptc run --session`: recorded turns replay, the new one runs live
    let prog = dir.join("p.clj");
    std::fs::write(&prog, "(inc (:temp t))").unwrap();
    let out = ptc(&["run", &s(&prog), "--session", &s(&saved)]);
    assert_eq!(text(&out.stdout).trim(), "7.5", "{}", text(&out.stderr));
    // --live needs the script
    let out = ptc(&["replay", &s(&saved), "--live"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("script \"tools/temp.sh\" not found"));

    // A changed program no longer matches.
    let mut file = SessionFile::load(&saved).unwrap();
    file.turns[0] = file.turns[0].replace("Oslo", "Bergen");
    std::fs::write(&saved, file.to_json()).unwrap();
    let out = ptc(&["replay", &s(&saved)]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("turn 1, call 1 (tool/temp): the recording no longer matches: argument 1 differs: recorded \"Oslo\", now \"Bergen\""),
        "{e}"
    );
}

#[test]
fn agent_out_and_eval_write_files_that_replay_from_their_folder() {
    let dir = Scratch::dir("ptc-recording-agent");
    let original = command_example(&dir);
    let mock = MockLlm::start(vec![
        Reply::text("```clojure\n(def t (tool/temp \"Oslo\"))\n(:temp t)\n```"),
        Reply::text("```clojure\n(return (:temp t))\n```"),
        Reply::text("```clojure\n(return (:temp (tool/temp \"Oslo\")))\n```"),
    ]);
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let run = out_dir.join("run.json");
    let out = ptc(&[
        "agent",
        &s(&original),
        "--model",
        "m",
        "--base-url",
        &mock.openai_base(),
        "--out",
        &s(&run),
        "--retry-delay-ms",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Another folder, which `ptc eval` makes.
    let eval_dir = Scratch::path("ptc-recording-eval");
    let out = ptc(&[
        "eval",
        &s(&original),
        "--model",
        "m",
        "--base-url",
        &mock.openai_base(),
        "--runs",
        "1",
        "--view",
        "compressed",
        "--out-dir",
        &s(&eval_dir),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let evaluated = eval_dir.join("compressed-01.json");
    for file in [&run, &evaluated] {
        for live in [false, true] {
            let mut args = vec!["replay".to_string(), s(file)];
            if live {
                args.push("--live".into());
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = ptc(&refs);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                s(file),
                text(&out.stderr)
            );
        }
        let json: Json = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert!(
            json["tool_calls"][0][0]["returns"]["temp"].is_number(),
            "{json}"
        );
    }
}
