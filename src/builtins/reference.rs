//! `docs/reference.md`, generated from the registry: the special forms
//! (`analyze::doc::SPECIAL_DOCS`), then every builtin by area — name, arity,
//! doc and example. The tests check that the file is what the registry
//! makes (`UPDATE_DOCS=1 cargo test --lib reference` writes it) and run
//! every example in it: `EXPR ;=> VALUE` must print VALUE, `EXPR ;; prints
//! TEXT` must print TEXT, and `(return …)`/`(fail …)` must end the program so.

use std::fmt::Write as _;

use super::{tables, Builtin, Ns};
use crate::analyze::doc::SPECIAL_DOCS;
use crate::{Host, Interp, Limits, Value};

/// Each area's title, in the order of [`tables`].
const AREAS: [&str; 13] = [
    "Core: functions, printing, errors, control",
    "Numbers",
    "Predicates",
    "Sequences",
    "Collections and maps",
    "Strings and regular expressions",
    "clojure.set",
    "clojure.walk",
    "Queries and aggregators (PTC-Lisp)",
    "Dates",
    "Java interop: strings and statics",
    "Java interop: methods",
    "JSON",
];

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md");

/// The name as a program writes it: bare for clojure.core, else with the
/// short qualifier models use.
fn written(b: &Builtin) -> String {
    match b.ns {
        Ns::Core => b.name.to_string(),
        Ns::String => format!("str/{}", b.name),
        Ns::Set => format!("set/{}", b.name),
        Ns::Walk => format!("walk/{}", b.name),
        Ns::Json => format!("json/{}", b.name),
    }
}

/// Text for a table cell: `|` escaped, on one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Inline code for a table cell (a backtick inside gets a longer fence).
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {} ``", cell(text))
    } else {
        format!("`{}`", cell(text))
    }
}

/// The whole of `docs/reference.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "# PTC-Lisp reference\n\n\
         <!-- Generated from the builtin registry (src/builtins/) and the special forms' docs\n     \
         (src/analyze/doc.rs): do not edit. `UPDATE_DOCS=1 cargo test --lib reference` writes it;\n     \
         `cargo test` runs every example. -->\n\n\
         Every special form and builtin `ptc` knows. A bare name is looked up in clojure.core,\n\
         then clojure.string, clojure.set, clojure.walk; `str/`, `string/` and `clojure.string/`\n\
         (likewise `set/`, `walk/`, `json/`) name one namespace. Examples show the value as\n\
         `ptc` prints it after `;=>` (run by the tests, with a host clock at 2026-01-08T00:00Z).\n\
         [language.md](language.md) says where PTC-Lisp differs\n\
         from Clojure.\n\n",
    );
    let total: usize = tables().iter().map(|t| t.len()).sum();
    let _ = writeln!(
        out,
        "{} special forms and macros, {total} builtins.\n",
        SPECIAL_DOCS.len()
    );
    out.push_str("## Contents\n\n- [Special forms and macros](#special-forms-and-macros)\n");
    for area in AREAS {
        let _ = writeln!(out, "- [{area}](#{})", anchor(area));
    }
    out.push_str("\n## Special forms and macros\n\n| form | what it does |\n|---|---|\n");
    for (_, doc) in SPECIAL_DOCS {
        let (usage, what) = doc.split_once("): ").map_or((*doc, ""), |(u, w)| (u, w));
        let usage = if what.is_empty() {
            usage.to_string()
        } else {
            format!("{usage})")
        };
        let _ = writeln!(out, "| {} | {} |", code(&usage), cell(what));
    }
    for (area, table) in AREAS.iter().zip(tables()) {
        let mut rows: Vec<&Builtin> = table.iter().collect();
        rows.sort_by_key(|b| (b.ns as u8, b.name));
        let _ = write!(
            out,
            "\n## {area}\n\n| name | arguments | what it does | example |\n|---|---|---|---|\n"
        );
        for b in rows {
            let example = if b.example.is_empty() {
                String::new()
            } else {
                code(b.example)
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {example} |",
                code(&written(b)),
                b.arity.describe(),
                cell(b.doc)
            );
        }
    }
    out
}

/// GitHub's anchor of a heading.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The examples' host: no data, no tools, a clock stopped at
/// 2026-01-08T00:00:00Z.
struct Examples;

impl Host for Examples {
    fn data(&self, _: &str) -> Option<Value> {
        None
    }
    fn data_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn has_tool(&self, _: &str) -> bool {
        false
    }
    fn tool_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn call_tool(&mut self, name: &str, _: &[Value]) -> Result<Value, String> {
        Err(format!("no tool {name}"))
    }
    fn current_time_millis(&self) -> Option<i64> {
        Some(1_767_830_400_000)
    }
}

/// What running `example` shows against what it says; `None` when they
/// agree.
fn check_example(example: &str) -> Option<String> {
    let mut interp = Interp::new(Box::new(Examples), Limits::default());
    if let Some((expr, expected)) = example.split_once(" ;=> ") {
        let outcome = interp.run_program(expr);
        let got = match &outcome.result {
            Ok(v) => crate::format::to_clojure(v, None, None).0,
            Err(e) => format!("{}: {}", e.kind(), e.message()),
        };
        return (got != expected.trim()).then(|| format!("{example}\n    gives {got}"));
    }
    if let Some((expr, printed)) = example.split_once(" ;; prints ") {
        let outcome = interp.run_program(expr);
        let prints = interp.prints.concat();
        if outcome.is_ok() && prints.trim_end() == printed {
            return None;
        }
        return Some(format!(
            "{example}\n    printed {prints:?}, {:?}",
            outcome.result
        ));
    }
    let outcome = interp.run_program(example);
    let ends = outcome.returned
        || outcome
            .result
            .as_ref()
            .is_err_and(|e| e.kind() == crate::ErrorKind::Fail);
    (!ends).then(|| format!("{example}\n    neither says its value nor ends the program"))
}

#[test]
fn the_reference_is_what_the_registry_makes() {
    let made = markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(PATH, &made).expect("docs/reference.md is writable");
        return;
    }
    let file = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        file == made,
        "docs/reference.md is out of date: UPDATE_DOCS=1 cargo test --lib reference"
    );
}

#[test]
fn every_example_in_the_reference_runs_as_it_says() {
    let mut wrong = Vec::new();
    let mut ran = 0;
    for table in tables() {
        for b in table.iter().filter(|b| !b.example.is_empty()) {
            ran += 1;
            if let Some(why) = check_example(b.example) {
                wrong.push(format!("{}: {why}", b.qualified_name()));
            }
        }
    }
    assert!(ran > 300, "only {ran} examples");
    assert!(
        wrong.is_empty(),
        "{} of {ran} examples do not do what they say:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
