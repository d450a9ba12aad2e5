//! Every example session in `lisp-examples/` as insta snapshots under the
//! top-level `snapshots/` directory: the messages for the next turn after
//! every turn (before the first one too), compressed and uncompressed, and
//! the turns view at the end. Named `{example}__after_{k}__{view}`; a new
//! example file gets its snapshots on the next `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test example_snapshots`). CI (CI=true)
//! fails on a missing or changed snapshot instead of writing it.
//!
//! The SYSTEM prompt is the same static text in every prompt (checked
//! here); it is shown as one placeholder line, so a change to it does not
//! touch every snapshot (`ptc prompt system` prints it).

mod common;

use common::example_sessions;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use ptc_lisp::render::system_prompt;
use ptc_lisp::session::turns_text;
use ptc_lisp::session::{render_messages, Message, Role, Session, SessionFile, Status, View};

const SYSTEM_PLACEHOLDER: &str = "(the static system prompt: `ptc prompt system`)";

/// Messages as `ptc replay` prints them (`[ROLE]` lines, a blank line
/// between messages), with the SYSTEM prompt as a placeholder.
fn messages_text(messages: &[Message]) -> String {
    let mut out = String::new();
    for (i, m) in messages.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("[{}]\n", m.role.name().to_uppercase()));
        let content = if m.role == Role::System {
            assert_eq!(
                m.content,
                system_prompt(),
                "the SYSTEM message is the static prompt"
            );
            SYSTEM_PLACEHOLDER
        } else {
            m.content.as_str()
        };
        out.push_str(content);
        if !content.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn status_text(session: &Session) -> String {
    match session.status() {
        Status::Returned(v) => format!("status: returned {v}\n"),
        Status::Failed(v) => format!("status: failed {v}\n"),
        s => format!("status: {s}\n"),
    }
}

/// Every snapshot of one example: (name, text).
fn snapshots_of(path: &Path) -> Vec<(String, String)> {
    let example = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a file name");
    let text = std::fs::read_to_string(path).expect("readable example");
    let file = SessionFile::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
    let mut session = file
        .session(path, Some(&text), None)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    let point = |session: &Session, k: usize, out: &mut Vec<(String, String)>| {
        // what the session sent is what its own view renders
        assert_eq!(
            session.prompts()[k],
            render_messages(session, View::of(session)),
            "{example} after {k}"
        );
        for (view, name) in [
            (View::Compressed, "compressed"),
            (View::Uncompressed, "uncompressed"),
        ] {
            out.push((
                format!("{example}__after_{k}__{name}"),
                messages_text(&render_messages(session, view)),
            ));
        }
    };
    point(&session, 0, &mut out);
    let mut k = 0;
    for response in &file.turns {
        if session.run_turn(response).is_err() {
            break;
        }
        k += 1;
        point(&session, k, &mut out);
    }
    out.push((
        format!("{example}__after_{k}__turns"),
        format!("{}{}", turns_text(&session), status_text(&session)),
    ));
    out
}

#[test]
fn every_example_after_every_turn() {
    let sessions = example_sessions();
    assert!(sessions.len() >= 6, "the example sessions are found");
    // Every snapshot is checked even when an earlier one differs, so one
    // `cargo insta review` shows every change.
    let mut failed = Vec::new();
    let mut count = 0;
    for path in &sessions {
        for (name, text) in snapshots_of(path) {
            count += 1;
            let ok = catch_unwind(AssertUnwindSafe(|| {
                insta::with_settings!({
                    snapshot_path => "../snapshots",
                    prepend_module_to_snapshot => false,
                    omit_expression => true,
                }, {
                    insta::assert_snapshot!(name.as_str(), text);
                })
            }));
            if ok.is_err() {
                failed.push(name);
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {count} example snapshots differ or are missing (review with `cargo insta review`): {}",
        failed.len(),
        failed.join(", ")
    );
}
