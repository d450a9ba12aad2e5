//! Runs every public conformance file (`../shared/conformance/public/`)
//! through the same code as `ptc check`, against the checked-in list of known
//! failures (`tests/conformance/known-failures.txt`, one `id  reason` per
//! line). The list may only shrink: a test fails when an unlisted case fails
//! *or* a listed case passes (then delete its line).
//!
//! Project-local cases in the same format live in `tests/conformance/local/`
//! (every `.jsonl` there is run by `local_files`): behaviour this project
//! decided that the shared public files don't cover yet.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ptc_lisp::check::run_file;

/// `../shared/conformance/public`; a missing folder fails the calling test
/// with one line saying where it should be (the other tests still run).
fn shared_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/public");
    assert!(
        dir.is_dir(),
        "../shared/conformance not found ({}): the project's shared folder must sit beside this checkout (docs/contributing.md, \"What the tests need\")",
        dir.display()
    );
    dir
}

fn known_failures() -> BTreeMap<String, String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/known-failures.txt");
    let text = std::fs::read_to_string(&path).expect("known-failures.txt is readable");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (id, reason) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            assert!(
                !reason.trim().is_empty(),
                "known failure {id} needs a reason"
            );
            (id.to_string(), reason.trim().to_string())
        })
        .collect()
}

fn local_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/local")
}

fn check_file(name: &str) {
    check_path(name, &shared_dir().join(name));
}

#[test]
fn local_files() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(local_dir())
        .expect("tests/conformance/local exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no local conformance files");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        check_path(&name, &path);
    }
}

fn check_path(name: &str, path: &std::path::Path) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let ids: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("case is JSON")["id"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let report = run_file(&text).expect("cases parse");
    let known = known_failures();
    let failed: BTreeMap<&str, &str> = report
        .failures
        .iter()
        .map(|(id, why)| (id.as_str(), why.as_str()))
        .collect();
    let mut problems = Vec::new();
    for (id, why) in &failed {
        if !known.contains_key(*id) {
            problems.push(format!("FAIL (not a known failure) {id}: {why}"));
        }
    }
    for id in &ids {
        if known.contains_key(id) && !failed.contains_key(id.as_str()) {
            problems.push(format!(
                "PASS (listed as known failure; remove it from known-failures.txt) {id}"
            ));
        }
    }
    println!(
        "{name}: {} passed, {} failed ({} known)",
        report.passed,
        failed.len(),
        failed.len() - problems.iter().filter(|p| p.starts_with("FAIL")).count()
    );
    assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
}

macro_rules! conformance_files {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(#[test] fn $test() { check_file($file); })*

        #[test]
        fn every_public_file_is_tested() {
            let mut listed = vec![$($file),*];
            listed.sort();
            let mut present: Vec<String> = std::fs::read_dir(shared_dir())
                .expect("shared conformance directory exists")
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n.ends_with(".jsonl"))
                .collect();
            present.sort();
            assert_eq!(listed, present, "add every conformance file to tests/conformance.rs");
        }
    };
}

conformance_files! {
    reader => "01-reader.jsonl",
    special_forms => "02-special-forms.jsonl",
    destructuring => "03-destructuring.jsonl",
    collections => "04-collections.jsonl",
    maps => "05-maps.jsonl",
    strings => "06-strings.jsonl",
    numbers => "07-numbers.jsonl",
    predicates => "08-predicates.jsonl",
    where_queries => "09-where.jsonl",
    functions => "10-functions.jsonl",
    namespaces_tools => "11-namespaces-tools.jsonl",
    errors => "12-errors.jsonl",
    memory_turns => "13-memory-turns.jsonl",
    println => "14-println.jsonl",
}

/// Every listed known failure names a case that exists (public or local):
/// a case renamed or removed upstream leaves no stale line behind.
#[test]
fn every_known_failure_names_a_case() {
    let mut ids = std::collections::BTreeSet::new();
    for dir in [shared_dir(), local_dir()] {
        for entry in std::fs::read_dir(&dir).expect("conformance directory exists") {
            let path = entry.expect("readable entry").path();
            if path.extension().is_some_and(|x| x == "jsonl") {
                let text = std::fs::read_to_string(&path).expect("readable case file");
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let case: serde_json::Value = serde_json::from_str(line).expect("case is JSON");
                    ids.insert(case["id"].as_str().unwrap_or("").to_string());
                }
            }
        }
    }
    let stale: Vec<String> = known_failures()
        .into_keys()
        .filter(|id| !ids.contains(id))
        .collect();
    assert!(
        stale.is_empty(),
        "known-failures.txt lists cases no file has (remove their lines): {stale:?}"
    );
}
