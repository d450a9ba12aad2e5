use super::*;
use crate::session::Status;

fn repl() -> Repl {
    let session = Session::builder("Find the most expensive product")
        .data_json(
            "products",
            &serde_json::json!([{"name": "Laptop", "price": 1200}, {"name": "Mouse", "price": 25}]),
        )
        .tool_fn(
            "notify",
            "(message :string) -> :nil",
            "Sends a notification",
            |_| Ok(Value::Nil),
        )
        .build()
        .unwrap();
    Repl::new(session, ReplConfig::default())
}

fn plain(r: &mut Repl, entry: &str) -> String {
    r.eval_entry(entry).plain()
}

#[test]
fn entries_are_turns_with_prints_first_then_the_value() {
    let mut r = repl();
    assert_eq!(plain(&mut r, "(defn twice [x] (* 2 x))"), "#'twice\n");
    assert_eq!(plain(&mut r, "(println \"hi\")\n(twice 21)"), "hi\n42\n");
    assert_eq!(r.session().turns().len(), 2);
    assert_eq!(r.next_turn(), 3);
}

#[test]
fn bare_values_are_fenced_so_they_run() {
    let mut r = repl();
    assert_eq!(plain(&mut r, "42"), "42\n");
    assert_eq!(plain(&mut r, "(count data/products)"), "2\n");
    assert_eq!(plain(&mut r, "[*1 *2]"), "[2 42]\n");
    assert_eq!(r.session().turns()[0].raw_response, "```clojure\n42\n```");
    // a pasted response runs as it is
    assert_eq!(plain(&mut r, "Sure:\n```clojure\n(inc 1)\n```"), "2\n");
}

#[test]
fn errors_show_the_line_and_never_end_the_repl() {
    let mut r = repl();
    let out = r.eval_entry("(def x 1)\n(+ x\n   (count 5))");
    let e = out.error().unwrap();
    assert_eq!(e.kind(), crate::ErrorKind::Type);
    let text = out.plain();
    assert!(text.contains("(count 5))"), "{text}");
    assert!(text.contains("count expects a collection"), "{text}");
    // memory unchanged, the REPL goes on, *e is the error as a map
    assert!(r.session().memory().lookup("x").is_none());
    assert_eq!(
        plain(&mut r, "(:kind *e)"),
        ":type-error\n;; *e is REPL-only: evaluated outside the session (not a turn)\n"
    );
    assert_eq!(r.session().turns().len(), 1);
    assert_eq!(plain(&mut r, "(+ 1 1)"), "2\n");
}

#[test]
fn tool_calls_are_shown() {
    let mut r = repl();
    let text = plain(&mut r, "(tool/notify \"done\")");
    assert_eq!(text, ";; tool/notify [\"done\"] => nil\nnil\n");
}

#[test]
fn long_values_are_previews_until_full() {
    let mut r = repl();
    let text = plain(&mut r, "(range 200)");
    assert!(text.contains("(200 items, showing first 50)"), "{text}");
    assert!(text.contains(":full"), "{text}");
    let full = plain(&mut r, ":full");
    assert!(full.trim_end().ends_with("198 199]"), "{full}");
}

#[test]
fn doc_and_apropos_are_not_turns() {
    let mut r = repl();
    assert!(plain(&mut r, "(doc filter)").starts_with("clojure.core/filter"));
    assert!(plain(&mut r, "(apropos \"upper\")").contains("upper-case"));
    assert!(r.session().turns().is_empty());
}

#[test]
fn undo_reset_and_the_end_of_a_session() {
    let mut r = repl();
    plain(&mut r, "(def a 1)");
    plain(&mut r, "(def b 2)");
    let text = plain(&mut r, ":undo");
    assert!(text.starts_with(";; dropped turn 2"), "{text}");
    assert!(r.session().memory().lookup("b").is_none());
    let text = plain(&mut r, "(return a)");
    assert!(text.contains("the session returned 1"), "{text}");
    assert!(plain(&mut r, "(+ 1 1)").contains("the session has ended (returned)"));
    plain(&mut r, ":undo");
    assert_eq!(r.session().status(), &Status::Running);
    assert_eq!(plain(&mut r, "(+ a 1)"), "2\n");
    assert!(plain(&mut r, ":reset").contains("dropped 2 turns"));
    assert!(r.session().turns().is_empty());
    assert!(r.session().memory().is_empty());
}

#[test]
fn the_repl_never_runs_out_of_turns_unless_asked() {
    let mut r = repl();
    for i in 0..8 {
        assert_eq!(plain(&mut r, &format!("(+ {i} 0)")), format!("{i}\n"));
    }
    assert!(r.session().status().is_running());

    let mut r = Repl::empty(
        "m",
        ReplConfig {
            max_turns: Some(2),
            ..ReplConfig::default()
        },
    )
    .unwrap();
    plain(&mut r, "1");
    assert!(plain(&mut r, "2").contains("max_turns (2) reached"));
    assert!(plain(&mut r, "3").contains("has ended (exhausted)"));
}

#[test]
fn prompt_shows_the_next_prompt_after_system() {
    use crate::session::{render_messages, Role, View};
    let mut r = repl();
    let first = plain(&mut r, ":prompt");
    assert!(first.contains("Find the most expensive product"), "{first}");
    plain(&mut r, "(def top (first (sort-by :price > data/products)))");
    // Compressed: the one USER message, as it is.
    let compressed = render_messages(r.session(), View::Compressed);
    assert_eq!(compressed.len(), 2);
    assert_eq!(
        plain(&mut r, ":prompt compressed"),
        format!("{}\n", compressed[1].content.trim_end())
    );
    // Uncompressed: every message after SYSTEM, each under its role.
    let messages = render_messages(r.session(), View::Uncompressed);
    assert!(messages.len() > 2, "a turn makes the history longer");
    let expected: Vec<String> = messages
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| {
            format!(
                "[{}]\n{}",
                m.role.name().to_uppercase(),
                m.content.trim_end()
            )
        })
        .collect();
    assert_eq!(
        plain(&mut r, ":prompt uncompressed"),
        format!("{}\n", expected.join("\n\n"))
    );
    assert!(plain(&mut r, ":prompt sideways").contains("unknown view"));
    assert!(!plain(&mut r, ":system").is_empty());
}

#[test]
fn save_and_load_round_trip() {
    let dir = std::env::temp_dir().join(format!("ptc-repl-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    let mut r = repl();
    plain(&mut r, "(def a 20)");
    plain(&mut r, "(count 5)");
    plain(&mut r, "(+ a 1)");
    let text = plain(&mut r, &format!(":save {}", path.display()));
    assert!(text.contains("saved 3 turns"), "{text}");
    let prompt = plain(&mut r, ":prompt");

    let mut r2 = Repl::empty("other", ReplConfig::default()).unwrap();
    let text = plain(&mut r2, &format!(":load {}", path.display()));
    assert!(text.contains("3 turns replayed, status running"), "{text}");
    assert_eq!(plain(&mut r2, ":prompt"), prompt);
    // closure tools are saved as signature and description only
    assert!(plain(&mut r2, ":tools").contains("tool/notify (message :string) -> :nil"));
    assert_eq!(plain(&mut r2, "*1"), "21\n");
    assert_eq!(r2.path(), Some(path.as_path()));
    assert!(plain(&mut r2, ":load /nonexistent/x.json").contains("cannot load"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_keeps_the_files_limits_not_the_command_line_flags() {
    let dir = std::env::temp_dir().join(format!("ptc-repl-test-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    let original = r#"{"mission": "m", "limits": {"max_steps": 5000}, "data": {"b": 1, "a": 2}}"#;
    std::fs::write(&path, original).unwrap();
    let config = ReplConfig {
        limits: Some(Arc::new(|mut l: Limits| {
            l.timeout_ms = Some(9999);
            l
        })),
        ..ReplConfig::default()
    };
    let mut r = Repl::open(&path, config).unwrap();
    assert_eq!(r.session().limits().timeout_ms, Some(9999));
    assert_eq!(r.session().limits().max_steps, Some(5000));
    plain(&mut r, "(def a 1)");
    // A bare :save never overwrites the file the REPL was opened on.
    let text = plain(&mut r, ":save");
    let saved_path = dir.join("s-1.json");
    assert!(text.contains("s-1.json"), "{text}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    let saved = SessionFile::load(&saved_path).unwrap();
    assert_eq!(saved.limits.unwrap().timeout_ms, Some(1000));
    assert_eq!(saved.turns.len(), 1);
    // The file's keys keep their order, its limits stay as written.
    let written = std::fs::read_to_string(&saved_path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&written).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["mission", "limits", "data", "turns"]);
    assert_eq!(json["limits"], serde_json::json!({"max_steps": 5000}));
    let data_keys: Vec<&String> = json["data"].as_object().unwrap().keys().collect();
    assert_eq!(data_keys, ["b", "a"]);
    // The next bare :save writes to the new file again, not to s-2.json.
    plain(&mut r, "(def b 2)");
    assert!(plain(&mut r, ":save").contains("s-1.json"));
    assert_eq!(SessionFile::load(&saved_path).unwrap().turns.len(), 2);
    assert!(!dir.join("s-2.json").exists());

    let mut r = Repl::empty("m", ReplConfig::default()).unwrap();
    plain(&mut r, &format!(":save {}", path.display()));
    assert_eq!(SessionFile::load(&path).unwrap().limits, None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saving_more_turns_than_max_turns_raises_it() {
    let dir = std::env::temp_dir().join(format!("ptc-repl-test-max-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    let mut r = repl();
    for i in 0..7 {
        plain(&mut r, &format!("(+ {i} 0)"));
    }
    let text = plain(&mut r, &format!(":save {}", path.display()));
    assert!(text.contains("max_turns raised from 5 to 7"), "{text}");
    let s = Session::load(&path).unwrap();
    assert_eq!(s.turns().len(), 7);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn informational_commands() {
    let mut r = repl();
    assert!(plain(&mut r, ":help").contains(":prompt [compressed|uncompressed]"));
    assert!(plain(&mut r, ":data").contains("data/products (vector)"));
    assert!(plain(&mut r, ":memory").contains("user/ is empty"));
    plain(&mut r, "(defn f \"Adds one.\" [x] (inc x))");
    assert!(plain(&mut r, ":memory").contains("f = "));
    assert!(plain(&mut r, ":memory").contains("Adds one."));
    let turns = plain(&mut r, ":turns");
    assert!(turns.contains("[1] ok"), "{turns}");
    let stats = plain(&mut r, ":stats");
    assert!(
        stats.contains("session: running, 1 turn (1 ok, 0 failed)"),
        "{stats}"
    );
    assert!(stats.contains("last turn:"), "{stats}");
    assert!(plain(&mut r, ":nope").contains("unknown command :nope"));
    assert!(r.eval_entry(":quit").quit);
    assert!(r.eval_entry(":repl/quit").quit);
    assert_eq!(plain(&mut r, "  "), "");
    assert_eq!(plain(&mut r, "; only a comment"), "");
    assert_eq!(r.session().turns().len(), 1);
}

#[test]
fn completion_names_cover_everything() {
    let mut r = repl();
    plain(&mut r, "(def my-thing 1)");
    let names = r.completion_names();
    for n in [
        "map",
        "clojure.string/join",
        "let",
        "doc",
        "my-thing",
        "tool/notify",
        "data/products",
        "*e",
    ] {
        assert!(names.iter().any(|x| x == n), "{n} missing");
    }
}

#[test]
fn scripts_run_one_entry_per_form() {
    let mut r = repl();
    let script =
        "(def a 1) (def b\n  2)\n(+ a b)\n:turns\n(count 5)\n(str \"done\")\n:quit\n(+ 1 1)\n";
    let mut out = Vec::new();
    terminal::run_script(&mut r, script.as_bytes(), &mut out, Style::Plain).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("#'a\n#'b\n3\n[1] ok"), "{text}");
    assert!(text.contains("type-error"), "{text}");
    assert!(text.trim_end().ends_with("\"done\""), "{text}");
    assert_eq!(r.session().turns().len(), 5);
}

#[test]
fn an_interrupted_entry_fails_and_is_taken_back() {
    let mut r = Repl::empty(
        "m",
        ReplConfig {
            limits: Some(Arc::new(|_| Limits::none())),
            ..ReplConfig::default()
        },
    )
    .unwrap();
    plain(&mut r, "(def x 1)");
    let flag = r.interrupt_flag();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::SeqCst);
    });
    let text = plain(&mut r, "(def x (loop [i 0] (recur (inc i))))");
    setter.join().unwrap();
    assert!(text.contains("interrupted"), "{text}");
    assert_eq!(r.session().turns().len(), 1);
    assert_eq!(plain(&mut r, "x"), "1\n");
    // the flag is cleared: the next entry runs
    assert_eq!(r.session().turns().len(), 2);
    let text = plain(&mut r, "(+ x (count *e))");
    assert!(!text.contains("interrupted"), "{text}");
}

#[test]
fn completion_knows_the_short_qualifiers() {
    let names = repl().completion_names();
    for n in [
        "str/upper-case",
        "string/join",
        "set/union",
        "walk/keywordize-keys",
        "clojure.string/join",
        "source",
        "dir",
        "pst",
    ] {
        assert!(names.iter().any(|x| x == n), "{n}");
    }
}

#[test]
fn budget_tokens_applies_to_the_session_and_stats_say_what_was_degraded() {
    let config = ReplConfig {
        budget_tokens: Some(1),
        ..ReplConfig::default()
    };
    let mut r = Repl::empty("m", config).unwrap();
    assert_eq!(r.session().render_options().budget_tokens, Some(1));
    plain(&mut r, "(def xs (range 50))");
    let stats = plain(&mut r, ":stats");
    assert!(
        stats.contains("token budget: 1 (chars/4); degraded: "),
        "{stats}"
    );
    assert!(stats.contains("tokens over"), "{stats}");
}

#[test]
fn save_elsewhere_keeps_command_tools_working_and_records_their_calls() {
    let dir = std::env::temp_dir().join(format!("ptc-repl-test-cwd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::create_dir_all(dir.join("saved")).unwrap();
    std::fs::write(
        dir.join("tools/n.sh"),
        "#!/bin/sh\ncat >/dev/null\necho 41\n",
    )
    .unwrap();
    let path = dir.join("s.json");
    std::fs::write(
        &path,
        r#"{"mission": "m", "tools": {"n": {"signature": "-> :int", "command": ["sh", "tools/n.sh"]}}}"#,
    )
    .unwrap();
    let mut r = Repl::open(&path, ReplConfig::default()).unwrap();
    assert!(plain(&mut r, "(inc (tool/n))").ends_with("42\n"));
    let saved = dir.join("saved/run.json");
    plain(&mut r, &format!(":save {}", saved.display()));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(json["tools"]["n"]["cwd"], "..");
    assert_eq!(
        json["tool_calls"],
        serde_json::json!([[{"tool": "n", "args": [], "returns": 41}]])
    );
    // Live from the new folder, then replayed with the script gone.
    let mut live = Repl::open(
        &saved,
        ReplConfig {
            live: true,
            ..ReplConfig::default()
        },
    )
    .unwrap();
    assert_eq!(plain(&mut live, "*1"), "42\n");
    std::fs::remove_file(dir.join("tools/n.sh")).unwrap();
    let mut r2 = Repl::open(&saved, ReplConfig::default()).unwrap();
    assert_eq!(plain(&mut r2, "*1"), "42\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
