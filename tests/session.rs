//! Sessions through the library: transactional memory, `*1 *2 *3`, the
//! three kinds of tools (closure, scripted, command), statuses, program
//! extraction, session files and saving/loading.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ptc_lisp::session::json::TurnJson;
use ptc_lisp::session::{
    CommandTool, ScriptedTool, Session, SessionError, SessionFile, Status, ToolInfo,
};
use ptc_lisp::{ErrorKind, Limits, Value};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lisp-examples")
}

fn value_of(session: &Session, name: &str) -> Option<Value> {
    session.memory().lookup(name).map(|d| d.value.clone())
}

fn memory_names(session: &Session) -> Vec<String> {
    session
        .memory()
        .iter()
        .map(|(n, _)| n.to_string())
        .collect()
}

fn int_tool(name: &str, n: i64) -> ScriptedTool {
    ScriptedTool::returning(ToolInfo::new(name, "-> :int", None).unwrap(), Value::Int(n))
}

#[test]
fn memory_is_unchanged_after_every_kind_of_failed_turn() {
    let mut s = Session::builder("m")
        .tool(
            ScriptedTool::returning(ToolInfo::new("boom", "-> :nil", None).unwrap(), Value::Nil)
                .respond(vec![], Err("service down".into())),
        )
        .limits(Limits {
            max_steps: Some(10_000),
            ..Limits::default()
        })
        .max_turns(20)
        .build()
        .unwrap();
    assert!(
        s.run_turn("(def a 1) (defn f [x] (* 2 x))")
            .unwrap()
            .success
    );
    let before = memory_names(&s);
    let failing = [
        "(def a 2) (def b 3) (undefined-fn)", // undefined-error
        "(def a 2) (+ 1 \"x\")",              // type-error
        "(def a 2) (tool/boom)",              // tool-error
        "(def a 2) (loop [] (recur))",        // limit-exceeded
        "(def a 2) (fail \"give up\")",       // fail (ends the session)
    ];
    let kinds = [
        ErrorKind::Undefined,
        ErrorKind::Type,
        ErrorKind::Tool,
        ErrorKind::LimitExceeded,
    ];
    for (src, kind) in failing[..4].iter().zip(kinds) {
        let t = s.run_turn(src).unwrap();
        assert!(!t.success, "{src}");
        assert_eq!(t.error().map(|e| e.kind()), Some(kind), "{src}");
        assert_eq!(
            t.memory.lookup("a").map(|d| d.value.clone()),
            Some(Value::Int(1))
        );
        assert_eq!(value_of(&s, "a"), Some(Value::Int(1)), "{src}");
        assert_eq!(value_of(&s, "b"), None, "{src}");
        assert_eq!(memory_names(&s), before, "{src}");
    }
    // no code, and a parse error
    for src in ["Let me think.", "```clojure\n(def a 2) (def b\n```"] {
        let t = s.run_turn(src).unwrap();
        assert_eq!(t.error().map(|e| e.kind()), Some(ErrorKind::Parse), "{src}");
        assert_eq!(memory_names(&s), before);
    }
    // functions defined earlier still work
    let t = s.run_turn("(f a)").unwrap();
    assert_eq!(t.result.as_ref().ok(), Some(&Value::Int(2)));
    let t = s.run_turn(failing[4]).unwrap();
    assert_eq!(t.error().map(|e| e.kind()), Some(ErrorKind::Fail));
    assert_eq!(value_of(&s, "a"), Some(Value::Int(1)));
    assert_eq!(s.status(), &Status::Failed(Value::string("give up")));
}

#[test]
fn snapshots_are_per_turn_and_keep_first_definition_order() {
    let mut s = Session::builder("m").build().unwrap();
    s.run_turn("(def big (vec (range 100000))) (def x 1)")
        .unwrap();
    s.run_turn("(def y 2) (def x 3)").unwrap();
    let t1 = &s.turns()[0];
    let t2 = &s.turns()[1];
    assert_eq!(
        t1.memory.lookup("x").map(|d| d.value.clone()),
        Some(Value::Int(1))
    );
    assert!(t1.memory.lookup("y").is_none());
    assert_eq!(
        t2.memory.lookup("x").map(|d| d.value.clone()),
        Some(Value::Int(3))
    );
    let names: Vec<_> = t2.memory.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, ["big", "x", "y"]);
    // the big vector is shared between snapshots, not copied
    match (
        &t1.memory.lookup("big").unwrap().value,
        &t2.memory.lookup("big").unwrap().value,
    ) {
        (Value::Vector(a), Value::Vector(b)) => assert!(a.ptr_eq(b)),
        other => panic!("expected vectors, got {other:?}"),
    }
    assert_eq!(t2.defined, ["x", "y"]);
}

#[test]
fn star_variables_are_previous_turn_results() {
    let mut s = Session::builder("m").max_turns(10).build().unwrap();
    s.run_turn("(+ 1 0)").unwrap();
    s.run_turn("(+ 1 1)").unwrap();
    s.run_turn("(nope)").unwrap();
    s.run_turn("(+ 1 2)").unwrap();
    let t = s.run_turn("(do [*1 *2 *3])").unwrap();
    assert_eq!(
        t.result.as_ref().ok(),
        Some(&Value::vector_from([
            Value::Int(3),
            Value::Int(2),
            Value::Int(1)
        ]))
    );
    // failed turns leave no result behind
    assert_eq!(s.interp().turn_history.len(), 4);
}

#[test]
fn closure_tools_keep_state_and_every_call_is_recorded() {
    let sent = Arc::new(Mutex::new(Vec::<Value>::new()));
    let log = sent.clone();
    let mut s = Session::builder("Notify the admins")
        .data_json("admins", &serde_json::json!(["ann", "bob", "cy"]))
        .tool_fn(
            "notify",
            "(user :string) -> :nil",
            "Sends a notification",
            move |args| {
                if args[0] == Value::string("bob") {
                    return Err("bob has notifications turned off".into());
                }
                log.lock().unwrap().push(args[0].clone());
                Ok(Value::Nil)
            },
        )
        .build()
        .unwrap();
    let t = s
        .run_turn("(doseq [a data/admins] (try (tool/notify a) (catch Exception e (println (ex-message e)))))")
        .unwrap();
    assert!(t.success);
    assert_eq!(t.tool_calls.len(), 3);
    assert_eq!(t.tool_calls[1].args, [Value::string("bob")]);
    assert_eq!(
        t.tool_calls[1].result,
        Err("bob has notifications turned off".to_string())
    );
    assert_eq!(
        t.prints,
        ["tool/notify failed: bob has notifications turned off"]
    );
    assert_eq!(
        *sent.lock().unwrap(),
        [Value::string("ann"), Value::string("cy")]
    );

    // uncaught, the failure is a tool-error naming the tool; the call is recorded
    let t = s.run_turn("(def x 1) (tool/notify \"bob\")").unwrap();
    let e = t.error().unwrap();
    assert_eq!(e.kind(), ErrorKind::Tool);
    assert!(e.message().contains("notify"), "{}", e.message());
    assert_eq!(t.tool_calls.len(), 1);
    assert!(s.memory().lookup("x").is_none());
    assert_eq!(s.tools()[0].signature.display(), "user:string -> nil");
}

#[test]
fn scripted_tools_answer_responses_then_returns() {
    let lookup = ScriptedTool::returning(
        ToolInfo::new("lookup", "(id :int) -> :map", Some("Finds a user")).unwrap(),
        Value::Nil,
    )
    .respond(vec![Value::Int(1)], Ok(Value::string("ann")))
    .respond(vec![Value::Int(2)], Err("not found".into()));
    let mut s = Session::builder("m")
        .tool(lookup)
        .tool(int_tool("answer", 42))
        .build()
        .unwrap();
    let t = s
        .run_turn("(vector (tool/lookup 1) (tool/lookup 3) (tool/answer) (try (tool/lookup 2) (catch Exception e (ex-message e))))")
        .unwrap();
    assert_eq!(
        t.result.as_ref().ok(),
        Some(&Value::vector_from([
            Value::string("ann"),
            Value::Nil,
            Value::Int(42),
            Value::string("tool/lookup failed: not found"),
        ]))
    );
    assert_eq!(t.tool_calls.len(), 4);
}

#[test]
fn command_tools_run_a_process_per_call() {
    let info = ToolInfo::new("weather", "(city :string) -> :map", None).unwrap();
    let tool = CommandTool::new(info, vec!["python3".into(), "tools/weather.py".into()])
        .current_dir(examples());
    let mut s = Session::builder("m").tool(tool).build().unwrap();
    let t = s.run_turn("(:temp_c (tool/weather \"Lisbon\"))").unwrap();
    assert_eq!(t.result.as_ref().ok(), Some(&Value::Float(22.0)));
    let t = s.run_turn("(tool/weather \"Atlantis\")").unwrap();
    let e = t.error().unwrap();
    assert_eq!(e.kind(), ErrorKind::Tool);
    assert!(e.message().contains("weather"), "{}", e.message());
    assert!(
        e.message().contains("no weather station for 'Atlantis'"),
        "{}",
        e.message()
    );
    assert!(t.tool_calls[0].result.is_err());
}

#[test]
fn command_tools_are_killed_at_the_session_timeout() {
    let info = ToolInfo::new("slow", "-> :int", None).unwrap();
    let tool = CommandTool::new(
        info,
        vec!["sh".into(), "-c".into(), "sleep 10; echo 1".into()],
    );
    let mut s = Session::builder("m")
        .tool(tool)
        .limits(Limits {
            timeout_ms: Some(200),
            ..Limits::default()
        })
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let t = s.run_turn("(tool/slow)").unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let e = t.error().unwrap();
    assert!(
        matches!(e.kind(), ErrorKind::Tool | ErrorKind::Timeout),
        "{e:?}"
    );
    assert_eq!(t.tool_calls.len(), 1);
    let msg = t.tool_calls[0].result.clone().unwrap_err();
    // Stopped by the per-call limit, or by the turn's deadline (a little
    // earlier: the turn started before the call).
    assert!(
        msg.contains("within 200 ms") || msg.contains("ms left of the turn"),
        "{msg}"
    );
}

#[test]
fn statuses_and_turns_after_the_end() {
    let mut s = Session::builder("m").max_turns(2).build().unwrap();
    s.run_turn("(def x 1)").unwrap();
    assert_eq!(s.turns_left(), 1);
    s.run_turn("(inc x)").unwrap();
    assert_eq!(s.status(), &Status::Exhausted);
    assert_eq!(
        s.run_turn("(return 1)").unwrap_err(),
        SessionError::Ended(Status::Exhausted)
    );

    let mut s = Session::builder("m").build().unwrap();
    let t = s
        .run_turn("(def x 41) (return (inc x)) (def never 1)")
        .unwrap();
    assert!(t.success && t.returned);
    assert_eq!(s.status(), &Status::Returned(Value::Int(42)));
    assert_eq!(value_of(&s, "x"), Some(Value::Int(41)));
    assert!(s.memory().lookup("never").is_none());
}

#[test]
fn programs_are_extracted_from_messy_responses() {
    let mut s = Session::builder("m").build().unwrap();
    let raw = "Sure! First the helper:\n\n```clojure\n(defn sq [x] (* x x))\n```\n\nAnd an example of the data:\n```json\n{\"x\": 1}\n```\nThen:\n```clj\n(println \u{201C}squares\u{201D})\n(map sq [1 2 3])\n```";
    let t = s.run_turn(raw).unwrap();
    assert_eq!(
        t.program.as_deref(),
        Some("(defn sq [x] (* x x))\n(println \"squares\")\n(map sq [1 2 3])")
    );
    assert_eq!(t.raw_response, raw);
    assert_eq!(t.prints, ["squares"]);
    assert_eq!(
        t.result.as_ref().ok(),
        Some(&Value::vector_from([1, 4, 9].map(Value::Int)))
    );
}

#[test]
fn session_files_load_and_replay() {
    let s = Session::load(&examples().join("products-in-stock.json")).unwrap();
    assert_eq!(s.mission(), "Find well-reviewed products in stock");
    assert!(s.compression());
    assert_eq!(s.turns().len(), 3);
    assert!(matches!(s.status(), Status::Returned(_)));
    let names: Vec<_> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get-inventory", "search-reviews"]);
    assert_eq!(s.tools()[1].signature.display(), "query:string -> string");
    // as in rendering.md's example: no descriptions
    assert_eq!(s.tools()[1].description, None);
    let renewal = Session::load(&examples().join("renewal-emails.json")).unwrap();
    assert_eq!(
        renewal.tools()[1].signature.display(),
        "opts:{to string, subject string, body string} -> nil"
    );
    assert_eq!(
        renewal.tools()[1].description.as_deref(),
        Some("Sends an email; fails when the address bounces")
    );
}

#[test]
fn a_saved_session_replays_to_the_same_turns() {
    let original = Session::load(&examples().join("sales-by-region.json")).unwrap();
    let text = original.to_file().to_json();
    let path = Path::new("saved.json");
    let file = SessionFile::parse(&text, path).unwrap();
    let mut copy = file.session(path, Some(&text), None).unwrap();
    copy.replay(&file.turns);
    let a: Vec<TurnJson> = original.turns().iter().map(TurnJson::of).collect();
    let b: Vec<TurnJson> = copy.turns().iter().map(TurnJson::of).collect();
    assert_eq!(a, b);
    assert_eq!(original.status(), copy.status());
    assert_eq!(original.data(), copy.data());
    // data that JSON cannot hold exactly is written as a PTC-Lisp literal
    assert!(file.data_lisp.contains_key("target_regions"));
    assert!(file.data.contains_key("sales"));

    // turns serialize to JSON and read back
    let json = serde_json::to_string(&a).unwrap();
    let back: Vec<TurnJson> = serde_json::from_str(&json).unwrap();
    assert_eq!(a, back);
}

#[test]
fn bad_session_files_name_the_file_the_key_and_the_place() {
    let path = Path::new("broken.json");
    let cases = [
        (
            "{\"mission\": \"m\", \"turn\": []}",
            "broken.json:1:",
            "unknown field `turn`",
        ),
        ("{\"mission\": \"m\",", "broken.json:1:", "invalid JSON"),
        (
            "{\"mission\": \"m\",\n\"tools\": {\"t\": {\"signature\": \"(a) -> :int\"}}}",
            "broken.json:2:",
            "tools.t.signature: bad signature",
        ),
        (
            "{\"mission\": \"m\",\n\"tools\": {\"t\": {\"command\": [\"./no-such-tool.sh\"]}}}",
            "broken.json:2:",
            "tools.t.command: program \"./no-such-tool.sh\" not found",
        ),
    ];
    for (text, place, what) in cases {
        let err = SessionFile::parse(text, path)
            .and_then(|f| f.session(path, Some(text), None).map(|_| ()))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(place), "{err}");
        assert!(err.contains(what), "{err}");
    }
    let missing = SessionFile::load(Path::new("/no/such/session.json")).unwrap_err();
    assert!(missing
        .to_string()
        .starts_with("/no/such/session.json: cannot read"));
}

#[test]
fn a_session_serializes_as_its_replay_json_with_every_turn() {
    let mut s = Session::builder("Sum the prices")
        .data_json("prices", &serde_json::json!([3, 4]))
        .max_turns(5)
        .build()
        .unwrap();
    assert!(
        s.run_turn("(def total (reduce + data/prices))")
            .unwrap()
            .success
    );
    assert!(s.run_turn("(return {:total total})").unwrap().success);

    let json = serde_json::to_value(&s).unwrap();
    let turns = json["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0]["program"], "(def total (reduce + data/prices))");
    assert_eq!(turns[0]["result"], "#'total");
    assert_eq!(turns[1]["program"], "(return {:total total})");
    assert_eq!(turns[1]["result"], "{:total 7}");
    assert_eq!(turns[1]["result_json"], serde_json::json!({"total": 7}));
    assert_eq!(json["status"]["state"], "returned");
    assert_eq!(
        json["status"]["value_json"],
        serde_json::json!({"total": 7})
    );

    // The same shape `ptc replay --format json` writes, and it reads back.
    let replay = ptc_lisp::session::json::ReplayJson::of(&s, ptc_lisp::session::View::of(&s));
    assert_eq!(json, serde_json::to_value(&replay).unwrap());
    let back: ptc_lisp::session::json::ReplayJson = serde_json::from_value(json).unwrap();
    assert_eq!(back, replay);

    // A turn serializes as its TurnJson.
    let turn = &s.turns()[0];
    assert_eq!(
        serde_json::to_value(turn).unwrap(),
        serde_json::to_value(TurnJson::of(turn)).unwrap()
    );
}

/// Replies a real model sent that hold nothing to run: a lone closing fence
/// after prose, an empty block, comments only. Each is a failed turn whose
/// error says the block was empty (it used to be "ok, nil"), and the next
/// prompt shows it; memory is unchanged.
#[test]
fn an_empty_program_is_a_failed_turn_with_a_hint() {
    for reply in [
        "This is prose, not code.\n```",
        "```clojure\n```",
        "```clojure\n  \n```",
        "```clojure\n;; let me think\n```",
    ] {
        let mut s = Session::builder("m").max_turns(3).build().unwrap();
        s.run_turn("(def a 1)").unwrap();
        let turn = s.run_turn(reply).unwrap();
        assert!(!turn.success, "{reply:?}");
        let e = turn.error().unwrap();
        assert_eq!(e.kind(), ErrorKind::Parse, "{reply:?}");
        assert!(
            e.message().contains("your code block was empty"),
            "{reply:?}"
        );
        assert!(e.hint().unwrap().contains("inside the ```clojure block"));
        assert_eq!(memory_names(&s), ["a"]);
        let prompt = &s.next_prompt().last().unwrap().content;
        assert!(
            prompt.contains("Error: your code block was empty"),
            "{prompt}"
        );
    }
}

/// "No code found" names the fenced languages the model wrote instead.
#[test]
fn no_code_names_the_language_that_was_skipped() {
    let mut s = Session::builder("m").max_turns(3).build().unwrap();
    let turn = s
        .run_turn("Sure:\n```python\nprint(sum([1, 2]))\n```")
        .unwrap();
    assert!(!turn.success);
    assert_eq!(
        turn.error().unwrap().message(),
        "no PTC-Lisp code found in the response (found a ```python block, which is not run)"
    );
    // The compressed view quotes the reply, not wrapped in a clojure fence.
    let messages = ptc_lisp::session::render_messages(&s, ptc_lisp::session::View::Compressed);
    let prompt = &messages.last().unwrap().content;
    assert!(
        prompt.contains("began:\n> Sure:\n> ```python\n"),
        "{prompt}"
    );
    assert!(!prompt.contains("```clojure\nSure:"), "{prompt}");
}

#[test]
fn doc_in_a_program_prints_a_tools_signature_and_whole_doc() {
    let description = "Finds documents.\n\nSecond paragraph: ranking rules.";
    let mut s = Session::builder("find")
        .tool_fn(
            "search",
            "(query :string) -> [:string]",
            description,
            |_| panic!("(doc tool/search) must not call the tool"),
        )
        .build()
        .unwrap();
    let t = s
        .run_turn("```clojure\n(doc tool/search)\n```")
        .unwrap()
        .clone();
    assert!(matches!(t.result, Ok(Value::Nil)), "{:?}", t.result);
    assert_eq!(
        t.prints,
        vec![format!(
            "tool/search\n  (query :string) -> [:string]\n  {description}"
        )]
    );
    assert!(t.tool_calls.is_empty());
    // the turn's output carries it into the next prompt
    let prompt = format!("{:?}", s.next_prompt());
    assert!(
        prompt.contains("Second paragraph: ranking rules."),
        "{prompt}"
    );
    // an unknown tool: a failed turn naming the tools there are
    let t = s.run_turn("```clojure\n(doc tool/serch)\n```").unwrap();
    let e = t.result.as_ref().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Undefined);
    assert!(
        e.message()
            .contains("tool/serch is not defined; available: tool/search"),
        "{}",
        e.message()
    );
}
