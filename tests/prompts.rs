//! The prompts a session produced (`Session::prompts`, `next_prompt`), and
//! `ptc prompt system` through the built binary.

mod common;

use common::{example_sessions, examples, Scratch};
use std::process::{Command, Output};

use ptc_lisp::render::system_prompt;
use ptc_lisp::session::{render_messages, Role, Session, SessionFile, View};

fn ptc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptc"))
        .args(args)
        .output()
        .expect("ptc runs")
}

fn session(compression: bool) -> Session {
    Session::builder("Count the orders")
        .data_json("orders", &serde_json::json!([{"id": 1}, {"id": 2}]))
        .compression(compression)
        .max_turns(3)
        .build()
        .unwrap()
}

#[test]
fn the_first_prompt_is_rendered_when_the_session_is_built() {
    for compression in [false, true] {
        let s = session(compression);
        assert_eq!(s.prompts().len(), 1);
        assert_eq!(s.next_prompt(), s.prompts()[0].as_slice());
        assert_eq!(s.next_prompt(), render_messages(&s, View::of(&s)));
        assert_eq!(s.next_prompt()[0].role, Role::System);
        assert!(s.next_prompt()[1].content.contains("data/orders"));
    }
}

#[test]
fn every_turn_stores_the_prompt_for_the_next_one() {
    let responses = [
        "(def n (count data/orders))",
        "(undefined-fn)",
        "(return n)",
    ];
    for compression in [false, true] {
        let mut s = session(compression);
        for (k, r) in responses.iter().enumerate() {
            let before = s.prompts().to_vec();
            s.run_turn(r).unwrap();
            // one more prompt; the earlier ones are exactly as they were
            assert_eq!(s.prompts().len(), k + 2);
            assert_eq!(&s.prompts()[..k + 1], before.as_slice());
            assert_eq!(s.next_prompt(), render_messages(&s, View::of(&s)));
        }
        // each stored prompt is what a fresh session sees after k turns
        for k in 0..=responses.len() {
            let mut fresh = session(compression);
            fresh.replay(&responses[..k]);
            assert_eq!(
                s.prompts()[k],
                fresh.next_prompt(),
                "compression {compression}, after {k} turns"
            );
        }
        // the session ended: no more turns, no more prompts
        assert!(s.run_turn("(return 1)").is_err());
        assert_eq!(s.prompts().len(), responses.len() + 1);
    }
}

#[test]
fn prompts_are_in_the_sessions_own_view() {
    let turns = ["(def a 1)", "(def b 2)"];
    let mut compressed = session(true);
    let mut uncompressed = session(false);
    compressed.replay(turns);
    uncompressed.replay(turns);
    // compressed: SYSTEM + one USER message every time
    for p in compressed.prompts() {
        assert_eq!(p.len(), 2);
    }
    assert_eq!(
        compressed.next_prompt(),
        render_messages(&compressed, View::Compressed)
    );
    // uncompressed: the whole conversation, growing turn by turn
    let lens: Vec<usize> = uncompressed.prompts().iter().map(Vec::len).collect();
    assert!(lens.windows(2).all(|w| w[0] < w[1]), "{lens:?}");
    assert_eq!(
        uncompressed.next_prompt(),
        render_messages(&uncompressed, View::Uncompressed)
    );
}

#[test]
fn loaded_sessions_carry_their_prompts() {
    for path in example_sessions() {
        let s = Session::load(&path).unwrap();
        assert_eq!(s.prompts().len(), s.turns().len() + 1, "{}", path.display());
        assert_eq!(s.next_prompt(), render_messages(&s, View::of(&s)));
    }
}

#[test]
fn prompt_system_prints_the_static_system_prompt() {
    let a = ptc(&["prompt", "system"]);
    let b = ptc(&["prompt", "system"]);
    assert_eq!(a.status.code(), Some(0));
    assert!(!a.stdout.is_empty());
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    assert_eq!(text.trim_end(), system_prompt().trim_end());

    // the SYSTEM message of every example session is that text, and it names
    // none of their tools or data
    for path in example_sessions() {
        let src = std::fs::read_to_string(&path).unwrap();
        let file = SessionFile::parse(&src, &path).unwrap();
        let s = file.session(&path, Some(&src), None).unwrap();
        let system = &s.next_prompt()[0];
        assert_eq!(system.role, Role::System);
        assert_eq!(system.content.trim_end(), text.trim_end());
        for t in s.tools() {
            assert!(
                !text.contains(&t.name),
                "{}: tool {} in the system prompt",
                path.display(),
                t.name
            );
        }
        for name in s.data().keys() {
            // `(count data/orders)` is the prompt's own generic example
            if name == "orders" {
                continue;
            }
            assert!(
                !text.contains(&format!("data/{name}")),
                "{}: data/{name} in the system prompt",
                path.display()
            );
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn replay_snapshot_writes_what_replay_after_k_prints() {
    let dir = Scratch::path("ptc-prompts-snapshot");
    let session = examples().join("renewal-emails.json");
    let (session, d) = (session.to_str().unwrap(), dir.to_str().unwrap());
    let out = ptc(&["replay", session, "--snapshot", d]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["turn-00.txt", "turn-01.txt", "turn-02.txt", "turn-03.txt"]
    );
    for k in 0..=3 {
        let printed = ptc(&["replay", session, "--after", &k.to_string()]);
        let file = std::fs::read(dir.join(format!("turn-{k:02}.txt"))).unwrap();
        assert_eq!(text(&file), text(&printed.stdout), "after {k}");
    }

    // another view, fewer turns: stale files go
    let out = ptc(&[
        "replay",
        session,
        "--snapshot",
        d,
        "--view",
        "compressed",
        "--after",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!dir.join("turn-02.txt").exists());
    let printed = ptc(&["replay", session, "--after", "1", "--view", "compressed"]);
    let file = std::fs::read(dir.join("turn-01.txt")).unwrap();
    assert_eq!(text(&file), text(&printed.stdout));
}

#[test]
fn replay_check_passes_then_fails_with_a_unified_diff() {
    for path in example_sessions() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = Scratch::path(&format!("ptc-prompts-check-{name}"));
        let (session, d) = (path.to_str().unwrap(), dir.to_str().unwrap());
        let out = ptc(&["replay", session, "--snapshot", d]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let out = ptc(&["replay", session, "--check", d]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stdout));
        assert!(text(&out.stdout).starts_with("ok: "), "{name}");
    }

    let dir = Scratch::path("ptc-prompts-check-edit");
    let session = examples().join("products-in-stock.json");
    let (session, d) = (session.to_str().unwrap(), dir.to_str().unwrap());
    assert_eq!(
        ptc(&["replay", session, "--snapshot", d]).status.code(),
        Some(0)
    );
    // an edited file
    let one = dir.join("turn-01.txt");
    let edited = std::fs::read_to_string(&one)
        .unwrap()
        .replace("Turns left: 4", "Turns left: 40");
    std::fs::write(&one, edited).unwrap();
    let out = ptc(&["replay", session, "--check", d]);
    assert_eq!(out.status.code(), Some(1));
    let diff = text(&out.stdout);
    let header = format!("--- {} (snapshot)", one.display());
    assert!(diff.contains(&header), "{diff}");
    assert!(diff.contains(&format!("+++ {} (rendered now)", one.display())));
    assert!(diff.contains("@@ "), "{diff}");
    assert!(diff.contains("-Turns left: 40\n+Turns left: 4\n"), "{diff}");
    assert!(
        !diff.contains("turn-00.txt"),
        "only the edited file: {diff}"
    );
    assert!(text(&out.stderr).contains("1 of 4 snapshot files"));

    // a missing file and an extra one
    std::fs::remove_file(dir.join("turn-00.txt")).unwrap();
    std::fs::write(dir.join("turn-09.txt"), "stale\n").unwrap();
    let out = ptc(&["replay", session, "--check", d]);
    assert_eq!(out.status.code(), Some(1));
    let diff = text(&out.stdout);
    assert!(diff.contains("turn-00.txt (missing)"), "{diff}");
    assert!(diff.contains("turn-09.txt (extra"), "{diff}");
    assert!(diff.contains("-stale"), "{diff}");

    // rewriting makes it pass again
    ptc(&["replay", session, "--snapshot", d]);
    assert_eq!(
        ptc(&["replay", session, "--check", d]).status.code(),
        Some(0)
    );
}

#[test]
fn replay_check_without_snapshots_is_an_input_error() {
    let session = examples().join("single-shot.json");
    let session = session.to_str().unwrap();
    let missing = Scratch::path("ptc-prompts-missing");
    let out = ptc(&["replay", session, "--check", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no such snapshot directory"), "{err}");
    assert!(err.contains(missing.to_str().unwrap()), "{err}");

    let empty = Scratch::path("ptc-prompts-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = ptc(&["replay", session, "--check", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--snapshot"));

    // --snapshot and --check together make no sense
    let out = ptc(&["replay", session, "--snapshot", "a", "--check", "b"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Prompts are rendered when asked for (`session/prompts.rs`): a session
/// whose prompts are read only at the end holds the same prompts, byte for
/// byte, as one whose next prompt was read after every turn, also when
/// what they show changed in between — a function's last return value,
/// values derived from hidden data, the protocol, a token budget, turns
/// undone.
#[test]
fn prompts_read_late_are_the_prompts_read_at_once() {
    let turns = [
        "(defn twice [x] (* 2 x)) (twice 1)",
        "(def k (str \"key-\" data/_secret)) (println \"key:\" k)",
        "(twice 21)",
        "(undefined-fn)",
        "(def n (count data/orders)) (twice n)",
        "(return n)",
    ];
    let build = |compression: bool| {
        Session::builder("Count the orders")
            .data_json("orders", &serde_json::json!([{"id": 1}, {"id": 2}]))
            .data_json("_secret", &serde_json::json!("s3cr3t-value"))
            .compression(compression)
            .max_turns(8)
            .build()
            .unwrap()
    };
    for compression in [false, true] {
        let mut eager = build(compression);
        let mut late = build(compression);
        let mut read = vec![eager.next_prompt().to_vec()];
        for (k, r) in turns.iter().enumerate() {
            if k == 2 {
                for s in [&mut eager, &mut late] {
                    s.set_protocol(ptc_lisp::session::Protocol::Tool);
                }
                read.pop();
                read.push(eager.next_prompt().to_vec());
            }
            if k == 4 {
                for s in [&mut eager, &mut late] {
                    s.set_budget_tokens(Some(100_000));
                }
                read.pop();
                read.push(eager.next_prompt().to_vec());
            }
            eager.run_turn(r).unwrap();
            late.run_turn(r).unwrap();
            read.push(eager.next_prompt().to_vec());
        }
        assert_eq!(late.prompts(), read.as_slice(), "compression {compression}");
        assert_eq!(eager.prompts(), read.as_slice());
        assert_eq!(late.next_prompt(), read.last().unwrap().as_slice());
        // the hidden value is in no prompt, the function's returns are
        let all = format!("{:?}", late.prompts());
        assert!(!all.contains("s3cr3t-value"));
        assert!(read[1].iter().any(|m| m.content.contains("twice")));

        // undoing turns keeps the earlier prompts as they were
        late.truncate_turns(2);
        assert_eq!(late.prompts(), &read[..3]);
        late.run_turn(turns[2]).unwrap();
        assert_eq!(&late.prompts()[..3], &read[..3]);
        assert_eq!(late.prompts().len(), 4);
    }
}
