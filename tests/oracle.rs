//! The oracle over every corpus of the repository (issue 58): each program
//! runs optimised and as the reference (every optimisation off,
//! `ptc_lisp::reference`), and the two must agree (rule ORACLE-1 in
//! `src/oracle.rs`: value or error kind, return, prints, tool calls,
//! definitions). The corpora: the public and local conformance cases, the
//! differential programs (`tests/differential/programs/`), the hostile
//! fuzz seeds (`tests/fuzz/seeds/`), `lisp-examples/` (its programs over
//! its data, and its sessions replayed: the next prompt must be the same),
//! the benchmark programs (`../shared/bench/programs/`) and the real-model
//! programs of `../shared/real-llm/`, each run's programs as turns of one
//! interpreter.
//!
//! Generated programs are checked the same way in `tests/generated.rs`.

mod common;
#[path = "common/real_llm.rs"]
mod corpus;

use std::path::{Path, PathBuf};

use ptc_lisp::oracle::{run_pair, run_turns_pair, Observed, Verdict};
use ptc_lisp::session::{render_messages, Session, View};
use ptc_lisp::{reference, Interp, Limits, StaticHost, Value};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir` ending in `ext`, sorted; a missing folder fails with
/// one line saying where it should be.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| {
            panic!(
                "{} not found ({e}): the project's shared folder must sit beside this checkout (docs/contributing.md, \"What the tests need\")",
                dir.display()
            )
        })
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// Tallies of one corpus; fails the test with every disagreement.
#[derive(Default)]
struct Tally {
    same: usize,
    inconclusive: usize,
    differ: Vec<String>,
}

impl Tally {
    fn add(&mut self, name: &str, verdict: Verdict) {
        match verdict {
            Verdict::Same => self.same += 1,
            Verdict::Inconclusive(_) => self.inconclusive += 1,
            Verdict::Differ(why) => self.differ.push(format!("{name}: {why}")),
        }
    }

    /// Prints the tally and fails on a disagreement, on fewer than `min`
    /// programs compared, or when more than one in 20 was inconclusive.
    fn finish(self, corpus: &str, min: usize) {
        println!(
            "{corpus}: {} agree, {} inconclusive, {} disagree",
            self.same,
            self.inconclusive,
            self.differ.len()
        );
        assert!(
            self.differ.is_empty(),
            "{corpus}: optimised and reference runs disagree:\n{}",
            self.differ.join("\n")
        );
        assert!(
            self.same >= min,
            "{corpus}: only {} programs compared (expected at least {min})",
            self.same
        );
        assert!(
            self.inconclusive * 20 <= self.same,
            "{corpus}: {} of {} inconclusive",
            self.inconclusive,
            self.same + self.inconclusive
        );
    }
}

/// One program over `data`, under `limits`, both ways.
fn program_pair(src: &str, data: &[(String, Value)], limits: &Limits) -> Verdict {
    run_pair(limits, |limits| {
        let mut host = StaticHost::default();
        for (name, v) in data {
            host.data.insert(name.clone(), v.clone());
        }
        let mut interp = Interp::new(Box::new(host), limits);
        let outcome = interp.run_program(src);
        Observed::of(&interp, &outcome)
    })
    .0
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn conformance_cases_agree_with_the_reference() {
    let mut tally = Tally::default();
    let public = root().join("../shared/conformance/public");
    let local = root().join("tests/conformance/local");
    for path in files(&public, "jsonl")
        .into_iter()
        .chain(files(&local, "jsonl"))
    {
        let report = ptc_lisp::check::oracle_file(&read(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        tally.same += report.same;
        tally.inconclusive += report.inconclusive;
        for (id, why) in report.differ {
            tally.differ.push(format!("{id}: {why}"));
        }
    }
    tally.finish("conformance", 1700);
}

#[test]
fn differential_programs_and_fuzz_seeds_agree_with_the_reference() {
    let mut tally = Tally::default();
    let dirs = [
        root().join("tests/differential/programs"),
        root().join("tests/fuzz/seeds"),
    ];
    for dir in &dirs {
        for path in files(dir, "clj") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            tally.add(&name, program_pair(&read(&path), &[], &Limits::default()));
        }
    }
    tally.finish("differential programs and fuzz seeds", 950);
}

#[test]
fn examples_agree_with_the_reference() {
    let dir = common::examples();
    let sessions = common::example_sessions();
    // Data files: the JSON files that are not sessions, by file stem.
    let data: Vec<(String, Value)> = files(&dir, "json")
        .into_iter()
        .filter(|p| !sessions.contains(p))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            let json: serde_json::Value = serde_json::from_str(&read(&p)).expect("data is JSON");
            (stem, ptc_lisp::from_json(&json))
        })
        .collect();
    let mut tally = Tally::default();
    for path in files(&dir, "clj") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        tally.add(&name, program_pair(&read(&path), &data, &Limits::default()));
    }
    // Sessions: replayed from their recordings both ways, the next prompt
    // the same (every turn's outcome shows in it).
    for path in &sessions {
        let prompt = |reference: bool| {
            reference::scope(reference, || {
                let session =
                    Session::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let text: Vec<String> = render_messages(&session, View::Compressed)
                    .iter()
                    .map(|m| m.content.clone())
                    .collect();
                text.join("\n---\n")
            })
        };
        let (optimised, reference) = (prompt(false), prompt(true));
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        tally.add(
            &name,
            if optimised == reference {
                Verdict::Same
            } else {
                Verdict::Differ(format!(
                    "the next prompt differs:\n{optimised}\n--- reference:\n{reference}"
                ))
            },
        );
    }
    tally.finish("lisp-examples", 10);
}

/// A benchmark program at a fiftieth of its size: every integer literal of
/// five digits or more divided by 50. The reference run copies a
/// collection at every write the optimised run makes in place, so at full
/// size a debug build takes minutes per program; the shapes are the same.
fn scaled_down(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        match digits.parse::<u64>() {
            Ok(n) if digits.len() >= 5 => out.push_str(&(n / 50).to_string()),
            _ => out.push_str(digits),
        }
        digits.clear();
    };
    let mut prev = ' ';
    for c in src.chars() {
        let starts = digits.is_empty() && !(prev.is_alphanumeric() || prev == '-' || prev == '.');
        if c.is_ascii_digit() && (starts || !digits.is_empty()) {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
        prev = c;
    }
    flush(&mut digits, &mut out);
    out
}

#[test]
fn benchmark_programs_agree_with_the_reference() {
    assert_eq!(
        scaled_down("(range 100000) (mod x 1000) a12345 (* i 50000)"),
        "(range 2000) (mod x 1000) a12345 (* i 1000)"
    );
    let mut tally = Tally::default();
    // The benchmarks run without limits; the oracle bounds them by steps.
    let limits = Limits {
        max_steps: Some(100_000_000),
        ..Limits::none()
    };
    for path in files(&root().join("../shared/bench/programs"), "clj") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        tally.add(
            &name,
            program_pair(&scaled_down(&read(&path)), &[], &limits),
        );
    }
    tally.finish("benchmark programs", 10);
}

#[test]
fn real_model_programs_agree_with_the_reference() {
    let runs = corpus::lines("runs.jsonl");
    let programs = corpus::lines("programs.jsonl");
    let answers = corpus::answers_by_incident();
    let mut tally = Tally::default();
    for run in &runs {
        let run_id = run["run"].as_str().unwrap();
        let incident = run["incident"].as_str().unwrap();
        let mine = corpus::programs_of(&programs, run_id);
        let sources: Vec<String> = std::iter::once(corpus::PRELUDE.to_string())
            .chain(
                mine.iter()
                    .map(|p| corpus::rewrite(p["source"].as_str().unwrap())),
            )
            .collect();
        let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
        let verdicts = run_turns_pair(&sources, &Limits::default(), |limits| {
            let host = corpus::Recorded {
                calls: answers.get(incident).cloned().unwrap_or_default(),
            };
            Interp::new(Box::new(host), limits)
        });
        for (k, v) in verdicts.into_iter().enumerate() {
            let name = match k {
                0 => format!("{run_id} (prelude)"),
                _ => mine[k - 1]["id"].as_str().unwrap().to_string(),
            };
            tally.add(&name, v);
        }
    }
    tally.finish("real-model programs", 390);
}
