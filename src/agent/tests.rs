//! The runner with a scripted model, and turns' LLM information in
//! session files.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::session::{Session, SessionFile, Status, Turn};
use crate::value::Value;

fn session(max_turns: usize) -> Session {
    Session::builder("Add the numbers")
        .data_json("nums", &serde_json::json!([1, 2, 3]))
        .max_turns(max_turns)
        .build()
        .unwrap()
}

fn go_on(_: &Session, _: &Turn) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

#[test]
fn the_runner_sends_each_stored_prompt_and_records_the_llm_side() {
    let mut s = session(5);
    let mut llm = ScriptedLlm::new(["(def t (reduce + data/nums))", "(oops)", "(return t)"]);
    let mut lines = Vec::new();
    let end = run(&mut s, &mut llm, &mut |_: &Session, t: &Turn| {
        lines.push(turn_line(t));
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(end, RunEnd::Ended);
    assert_eq!(s.status(), &Status::Returned(Value::Int(6)));
    assert_eq!(llm.requests(), &s.prompts()[..3]);
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with("turn 1  (def t (reduce + data/nums))  ok #'t  tokens "),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("error undefined"), "{}", lines[1]);
    assert!(lines[2].contains("returned 6"), "{}", lines[2]);
    let info = s.turns()[0].llm.as_ref().unwrap();
    assert_eq!(info.model, "scripted");
    assert_eq!(info.finish_reason.as_deref(), Some("stop"));
    assert!(info.usage.input_tokens.unwrap() > 100);
}

#[test]
fn exhausted_failed_and_stopped_runs() {
    let mut s = session(2);
    let end = run(&mut s, &mut ScriptedLlm::new(["1", "2", "3"]), &mut go_on).unwrap();
    assert_eq!((end, s.status()), (RunEnd::Ended, &Status::Exhausted));

    let mut s = session(5);
    run(&mut s, &mut ScriptedLlm::new(["(fail \"no\")"]), &mut go_on).unwrap();
    assert_eq!(s.status(), &Status::Failed(Value::string("no")));
    // An ended session cannot run again.
    assert!(matches!(
        run(&mut s, &mut ScriptedLlm::new(["1"]), &mut go_on),
        Err(AgentError::Session(_))
    ));

    // The observer stops after the turn it saw.
    let mut s = session(5);
    let mut llm = ScriptedLlm::new(["1", "2", "3"]);
    let end = run(&mut s, &mut llm, &mut |_: &Session, _: &Turn| {
        ControlFlow::Break(())
    })
    .unwrap();
    assert_eq!(
        (end, s.turns().len(), llm.remaining()),
        (RunEnd::Stopped, 1, 2)
    );

    // A set stop flag stops before any call.
    let mut s = session(5);
    let mut llm = ScriptedLlm::new(["1"]);
    let end = run_with_stop(&mut s, &mut llm, &mut go_on, &AtomicBool::new(true)).unwrap();
    assert_eq!(
        (end, s.turns().len(), llm.requests().len()),
        (RunEnd::Stopped, 0, 0)
    );
}

#[test]
fn an_llm_error_names_the_turn_and_keeps_the_turns_before() {
    let mut s = session(5);
    let e = run(&mut s, &mut ScriptedLlm::new(["(def x 1)"]), &mut go_on).unwrap_err();
    match &e {
        AgentError::Llm { turn, error } => {
            assert_eq!(*turn, 2);
            assert_eq!(error.kind, LlmErrorKind::ScriptEnded);
            assert!(!error.kind.is_retryable());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "turn 2: the LLM failed: script-ended: the scripted LLM has no responses left"
    );
    assert_eq!(s.turns().len(), 1);
    assert!(s.status().is_running());
}

#[test]
fn session_files_keep_llm_information_and_old_files_stay_the_same() {
    // A session run from plain text writes no `llm` key.
    let mut s = session(5);
    s.run_turn("(def x 1)").unwrap();
    let plain = s.to_file().to_json();
    assert!(!plain.contains("\"llm\""), "{plain}");
    let reread = SessionFile::parse(&plain, Path::new("s.json")).unwrap();
    assert!(reread.llm.is_empty());

    // A run's file lists each turn's model, usage and latency, and reads
    // back to the same turns with the same information.
    let mut s = session(5);
    run(
        &mut s,
        &mut ScriptedLlm::new(["(def x 1)", "(return x)"]),
        &mut go_on,
    )
    .unwrap();
    let text = s.to_file().to_json();
    let file = SessionFile::parse(&text, Path::new("run.json")).unwrap();
    assert_eq!(file.llm.len(), 2);
    assert_eq!(file.llm[1].as_ref().unwrap().model, "scripted");
    let mut again = file
        .session(Path::new("run.json"), Some(&text), None)
        .unwrap();
    assert_eq!(
        file.run_turns(&mut again, crate::session::ReplayTools::Recorded),
        Ok(2)
    );
    assert_eq!(again.turns()[1].llm, s.turns()[1].llm);
    assert_eq!(again.prompts(), s.prompts());
    assert_eq!(again.to_file().to_json(), text);
}
