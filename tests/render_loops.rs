//! Loop detection: the same error ending turns in a row, and tool calls
//! repeated with the same arguments, are pointed out to the LLM in both
//! views (options on by default).

mod render_common;

use ptc_lisp::render::{to_messages, RenderOptions, Role, Strategy};
use ptc_lisp::Value;
use render_common::Sim;

const LOOP_NOTE: &str = "Repeating the same approach will not fix it: try a different approach.";

fn last_user(s: &Sim, o: &RenderOptions, strategy: Strategy) -> String {
    let r = to_messages(&s.input, o, strategy);
    let m = r.messages.last().unwrap();
    assert_eq!(m.role, Role::User);
    m.content.clone()
}

#[test]
fn the_same_error_twice_in_a_row_is_called_a_loop() {
    let mut s = Sim::new("m", 8);
    s.turn("(broken-thing 1)");
    let user = s.user();
    assert!(!user.contains(LOOP_NOTE), "one failure is no loop:\n{user}");
    s.turn("(broken-thing 2)");
    let user = s.user();
    assert!(
        user.contains(
            "Error: undefined symbol 'broken-thing'\nNote: this is the same error as in the previous turn (2 turns in a row). Repeating the same approach will not fix it: try a different approach.\n---"
        ),
        "{user}"
    );
    s.turn("(broken-thing 3)");
    assert!(
        s.user().contains("previous turns (3 turns in a row)"),
        "{}",
        s.user()
    );
    // Uncompressed: the feedback of turns 2 and 3 says so, turn 1's not.
    let r = to_messages(&s.input, &RenderOptions::default(), Strategy::Uncompressed);
    let feedback: Vec<bool> = r
        .messages
        .iter()
        .skip(2)
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.contains(LOOP_NOTE))
        .collect();
    assert_eq!(feedback, [false, true, true]);
    // Switched off: no note.
    let off = RenderOptions {
        note_error_loops: false,
        ..RenderOptions::default()
    };
    assert!(!s.user_with(&off).contains(LOOP_NOTE));
    assert!(!last_user(&s, &off, Strategy::Uncompressed).contains(LOOP_NOTE));
}

#[test]
fn a_different_error_or_a_success_ends_the_streak() {
    let mut s = Sim::new("m", 8);
    s.turn("(broken-thing 1)");
    s.turn("(other-thing 1)");
    assert!(!s.user().contains(LOOP_NOTE));
    s.turn("(other-thing 1)");
    assert!(s.user().contains(LOOP_NOTE));
    s.turn("(def ok 1)");
    s.turn("(other-thing 1)");
    assert!(!s.user().contains(LOOP_NOTE), "{}", s.user());
}

#[test]
fn a_repeated_successful_tool_call_is_noted_in_the_next_message() {
    let mut s = Sim::new("m", 8).tool(
        "search",
        &[("q", "string")],
        "string",
        None,
        Value::string("result"),
    );
    s.turn("(def a (tool/search \"laptops\"))");
    assert!(!s.user().contains("Repeated tool calls"));
    s.turn("(def b (tool/search \"laptops\")) (def c (tool/search \"phones\"))");
    let note = ";; Repeated tool calls: these already succeeded with the same arguments; keep a result with def and reuse it instead of calling again:\n;   search(\"laptops\")";
    let user = s.user();
    assert!(user.contains(&format!("{note}\n\n")), "{user}");
    let notes = &user[user.find(";; Repeated").unwrap()..];
    assert!(!notes.contains("phones"), "{user}");
    assert!(last_user(&s, &RenderOptions::default(), Strategy::Uncompressed).contains(note));
    // Only the next message: a turn without repeats clears it.
    s.turn("(def d 1)");
    assert!(!s.user().contains("Repeated tool calls"), "{}", s.user());
    // Within one turn too.
    s.turn("(tool/search \"x\") (tool/search \"x\")");
    assert!(s.user().contains(";   search(\"x\")"), "{}", s.user());
    let off = RenderOptions {
        note_repeated_tool_calls: false,
        ..RenderOptions::default()
    };
    assert!(!s.user_with(&off).contains("Repeated tool calls"));
}

/// Issue 27 item 11: a call made in a failed (rolled-back) turn is not a
/// result the model can keep — the compressed view lists no calls (R-31,
/// so repeating it is not noted, unless the failed turn's calls
/// are shown (`keep_failed_turn_calls`).
#[test]
fn a_call_from_a_failed_turn_is_not_called_a_repeat() {
    let mut s = Sim::new("m", 8).tool(
        "search",
        &[("q", "string")],
        "string",
        None,
        Value::string("result"),
    );
    s.turn("(def a (tool/search \"laptops\")) (count 5)");
    s.turn("(def a (tool/search \"laptops\"))");
    let user = s.user();
    assert!(
        user.contains(";;   search(\"laptops\")") || user.contains(";   search(\"laptops\")"),
        "{user}"
    );
    assert!(!user.contains("Repeated tool calls"), "{user}");
    assert!(
        !last_user(&s, &RenderOptions::default(), Strategy::Uncompressed)
            .contains("Repeated tool calls")
    );
    let shown = RenderOptions {
        keep_failed_turn_calls: true,
        ..RenderOptions::default()
    };
    assert!(
        s.user_with(&shown).contains("Repeated tool calls"),
        "{}",
        s.user_with(&shown)
    );
}
