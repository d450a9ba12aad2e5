use super::*;

fn session() -> Session {
    Session::builder("test")
        .data_json("nums", &serde_json::json!([1, 2, 3]))
        .max_turns(4)
        .build()
        .unwrap()
}

#[test]
fn failed_turns_leave_memory_alone() {
    let mut s = session();
    assert!(s.run_turn("(def x 1)").unwrap().success);
    let t = s.run_turn("(def x 2)\n(def y 3)\n(/ 1 nil)").unwrap();
    assert!(!t.success);
    assert!(t.defined.is_empty());
    assert_eq!(
        s.memory().lookup("x").map(|d| d.value.clone()),
        Some(Value::Int(1))
    );
    assert!(s.memory().lookup("y").is_none());
    assert_eq!(
        s.turns()[1].memory.lookup("x").map(|d| d.value.clone()),
        Some(Value::Int(1))
    );
}

#[test]
fn no_code_is_a_failed_turn_with_a_parse_error() {
    let mut s = session();
    let t = s.run_turn("I will think about it.").unwrap();
    assert!(!t.success);
    assert_eq!(t.program, None);
    assert_eq!(t.error().map(|e| e.kind()), Some(ErrorKind::Parse));
    assert!(s.status().is_running());
}

#[test]
fn star_vars_see_previous_successful_results() {
    let mut s = session();
    s.run_turn("(+ 5 5)").unwrap();
    s.run_turn("(undefined-thing)").unwrap();
    s.run_turn("```clojure\n20\n```").unwrap();
    let t = s.run_turn("```\n[*1 *2 *3]\n```").unwrap();
    assert_eq!(
        t.result.as_ref().ok(),
        Some(&Value::vector_from([
            Value::Int(20),
            Value::Int(10),
            Value::Nil
        ]))
    );
}

#[test]
fn statuses() {
    let mut s = session();
    s.run_turn("(return 5)").unwrap();
    assert_eq!(s.status(), &Status::Returned(Value::Int(5)));
    assert!(matches!(s.run_turn("1"), Err(SessionError::Ended(_))));

    let mut s = session();
    let t = s.run_turn("(fail \"no data\")").unwrap();
    assert!(!t.success);
    assert_eq!(s.status(), &Status::Failed(Value::string("no data")));

    let mut s = session();
    assert_eq!(
        s.replay(["(inc 1)", "(inc 2)", "(inc 3)", "4", "(inc 5)"]),
        4
    );
    assert_eq!(s.status(), &Status::Exhausted);
    assert_eq!(s.turns().len(), 4);
}

#[test]
fn defined_lists_new_and_redefined_names_in_memory_order() {
    let mut s = session();
    assert_eq!(
        s.run_turn("(def a 1) (defn f [x] x) (def b 2)")
            .unwrap()
            .defined,
        ["a", "f", "b"]
    );
    assert_eq!(
        s.run_turn("(def b 2) (do (def c 3)) 7").unwrap().defined,
        ["b", "c"]
    );
    assert!(s.run_turn("(+ a b)").unwrap().defined.is_empty());
}

#[test]
fn truncating_turns_restores_memory_history_and_status() {
    let mut s = session();
    s.set_stop_at_max_turns(false);
    s.run_turn("(def a 1) 10").unwrap();
    s.run_turn("(def b 2) 20").unwrap();
    s.run_turn("(return 30)").unwrap();
    assert_eq!(s.status(), &Status::Returned(Value::Int(30)));
    let dropped = s.truncate_turns(2);
    assert_eq!(dropped.len(), 1);
    assert!(s.status().is_running());
    assert_eq!(
        s.run_turn("(vector *1 *2)").unwrap().result.as_ref().ok(),
        Some(&Value::vector_from([Value::Int(20), Value::Int(10)]))
    );
    s.truncate_turns(1);
    assert!(s.memory().lookup("b").is_none());
    assert!(s.memory().lookup("a").is_some());
    assert_eq!(s.prompts().len(), 2);
    s.truncate_turns(0);
    assert_eq!(s.prompts().len(), 1);
    assert!(s.memory().is_empty());
    assert!(s.turns().is_empty());
    assert!(s.interp().turn_history.is_empty());
}

#[test]
fn without_stopping_at_max_turns_only_return_and_fail_end_the_session() {
    let mut s = session();
    s.set_stop_at_max_turns(false);
    for i in 0..10 {
        s.run_turn(&format!("(+ {i} 1)")).unwrap();
    }
    assert!(s.status().is_running());
    assert_eq!(s.turns_left(), 0);
    s.run_turn("(fail \"done\")").unwrap();
    assert_eq!(s.status(), &Status::Failed(Value::string("done")));
}

#[test]
fn open_ended_sessions_never_end_and_run_programs_as_written() {
    let mut s = Session::builder("m")
        .max_turns(1)
        .open_ended()
        .build()
        .unwrap();
    assert!(s.prompts().is_empty());
    s.run_program("(def x 1)").unwrap();
    let t = s.run_program("x").unwrap();
    assert_eq!(t.result.as_ref().ok(), Some(&Value::Int(1)));
    assert_eq!(t.raw_response, "```clojure\nx\n```");
    assert_eq!(
        s.run_program("(return 5)").unwrap().result.as_ref().ok(),
        Some(&Value::Int(5))
    );
    let t = s.run_program("(def x 2) (fail \"no\")").unwrap();
    assert!(!t.success);
    assert!(s.status().is_running());
    assert_eq!(
        s.memory().lookup("x").map(|d| d.value.clone()),
        Some(Value::Int(1))
    );
    assert!(s.prompts().is_empty());
    // The recorded responses replay to the same programs.
    let replayed: Vec<Option<String>> = s
        .turns()
        .iter()
        .map(|t| extract_program(&t.raw_response))
        .collect();
    let programs: Vec<Option<String>> = s.turns().iter().map(|t| t.program.clone()).collect();
    assert_eq!(replayed, programs);
}

#[test]
fn builder_reports_every_problem() {
    let e = Session::builder("m")
        .data("x", Value::Nil)
        .data("x", Value::Nil)
        .data_lisp("y", "{:a")
        .tool_fn("t", "(q string) -> :string", "", |_| Ok(Value::Nil))
        .max_turns(0)
        .build()
        .err()
        .unwrap()
        .to_string();
    for part in [
        "data/x is defined twice",
        "data/y",
        "tool/t: bad signature",
        "max_turns",
    ] {
        assert!(e.contains(part), "{e}");
    }
}
