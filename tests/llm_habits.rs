//! Habits of LLM-written Clojure (issue 18) seen through sessions: programs
//! ending in a surplus `)` run, and the turn records a note that the
//! `turns` view and the replay JSON show. The fixture
//! `tests/fixtures/surplus-paren/*.clj` holds realistic model programs that
//! all end with one (or two) surplus `)`.

use std::path::PathBuf;

use ptc_lisp::render::turns_view;
use ptc_lisp::session::json::TurnJson;
use ptc_lisp::session::render_input;
use ptc_lisp::session::Session;

fn fenced(code: &str) -> String {
    format!("Here is the next step.\n```clojure\n{code}\n```\n")
}

#[test]
fn surplus_paren_turn_succeeds_with_a_note_in_turns_view_and_json() {
    let mut s = Session::builder("m").build().unwrap();
    let turn = s
        .run_turn(&fenced("(def total (+ 1 2))\n(println total)\nnil)"))
        .unwrap();
    assert!(turn.success, "{:?}", turn.result);
    assert_eq!(turn.prints, vec!["3".to_string()]);
    assert_eq!(turn.notes.len(), 1);
    assert!(
        turn.notes[0].contains("ignored 1 surplus closing bracket"),
        "{:?}",
        turn.notes
    );
    let json = serde_json::to_value(TurnJson::of(turn)).unwrap();
    assert_eq!(json["notes"][0].as_str(), Some(turn.notes[0].as_str()));
    let view = turns_view(&render_input(&s));
    assert!(view.contains("--- notes ---"), "{view}");
    assert!(view.contains("surplus closing bracket"), "{view}");
    assert!(s.memory().lookup("total").is_some());
}

#[test]
fn balanced_turn_has_no_notes_and_json_omits_them() {
    let mut s = Session::builder("m").build().unwrap();
    let turn = s.run_turn(&fenced("(+ 1 2)")).unwrap();
    assert!(turn.notes.is_empty());
    let json = serde_json::to_value(TurnJson::of(turn)).unwrap();
    assert!(json.get("notes").is_none(), "{json}");
    assert!(!turns_view(&render_input(&s)).contains("--- notes ---"));
}

#[test]
fn stray_paren_in_the_middle_still_fails_the_turn() {
    let mut s = Session::builder("m").build().unwrap();
    let turn = s.run_turn(&fenced("(def x 1))\n(println x)")).unwrap();
    assert!(!turn.success);
    assert_eq!(
        turn.error().unwrap().kind(),
        ptc_lisp::ErrorKind::Parse,
        "{:?}",
        turn.result
    );
    assert!(s.memory().lookup("x").is_none());
}

/// Every fixture program (realistic model output ending in a surplus `)`)
/// runs as a turn. Prints the share for the record.
#[test]
fn surplus_paren_fixture_programs_all_run() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/surplus-paren");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "clj"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "fixture has {} programs", files.len());
    let mut failed = Vec::new();
    for path in &files {
        let code = std::fs::read_to_string(path).unwrap();
        assert!(
            code.trim_end().ends_with(')'),
            "{} must end in a surplus )",
            path.display()
        );
        let mut s = Session::builder("m").build().unwrap();
        let turn = s.run_turn(&fenced(&code)).unwrap();
        if !turn.success || turn.notes.is_empty() {
            failed.push(format!("{}: {:?}", path.display(), turn.result));
        }
    }
    println!(
        "surplus-paren fixture: {} of {} programs run",
        files.len() - failed.len(),
        files.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Issue 18.2: a bare response (no fence) that starts with `;;` comment lines
/// is code, as `ptc run` would take it.
#[test]
fn bare_response_with_leading_comment_lines_runs() {
    let mut s = Session::builder("m").build().unwrap();
    let turn = s
        .run_turn(";; Step 1: add things up\n;; then return\n(def total (+ 1 2))\ntotal\n")
        .unwrap();
    assert!(turn.success, "{:?}", turn.result);
    assert_eq!(turn.result.as_ref().unwrap(), &ptc_lisp::Value::Int(3));
}

/// Issue 18.3: `memoize` caches within a turn; the next turn starts afresh
/// (a memoized function kept in user/ may call tools whose answers change).
#[test]
fn memoize_caches_within_a_turn_only() {
    let mut s = Session::builder("m").build().unwrap();
    let t1 = s
        .run_turn(&fenced(
            "(defn slow [x] (println \"computing\" x) (* x x))\n(def f (memoize slow))\n[(f 2) (f 2) (f 3)]",
        ))
        .unwrap();
    assert!(t1.success, "{:?}", t1.result);
    assert_eq!(t1.prints, vec!["computing 2", "computing 3"]);
    let t2 = s.run_turn(&fenced("[(f 2) (f 2)]")).unwrap();
    assert!(t2.success, "{:?}", t2.result);
    assert_eq!(t2.prints, vec!["computing 2"]);
}
