//! Every var of `../shared/spec/clojure-vars.tsv` resolves: special forms and
//! macros in the analyzer, functions in the builtin registry under their
//! namespace, and every builtin has a doc line.

use std::path::PathBuf;

use crate::analyze::SPECIAL_NAMES;
use crate::builtins::{self, Ns};

#[test]
fn every_target_var_resolves() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/clojure-vars.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "../shared/spec/clojure-vars.tsv not found ({e}): the project's shared folder must sit beside this checkout (docs/contributing.md, \"What the tests need\")"
        )
    });
    let mut missing = Vec::new();
    let mut count = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let mut cols = line.split('\t');
        let (name, ns) = (cols.next().unwrap_or(""), cols.next().unwrap_or(""));
        count += 1;
        let ns = Ns::from_qualifier(ns).unwrap_or_else(|| panic!("unknown namespace {ns}"));
        let found = builtins::lookup_in(ns, name).is_some()
            || (ns == Ns::Core && SPECIAL_NAMES.contains(&name));
        if !found {
            missing.push(format!("{}/{name}", ns.name()));
        }
    }
    assert!(count >= 300, "expected the whole table, read {count} vars");
    assert!(
        missing.is_empty(),
        "{} vars do not resolve: {}",
        missing.len(),
        missing.join(" ")
    );
}

#[test]
fn every_builtin_is_documented() {
    for b in builtins::all() {
        assert!(
            !b.doc.trim().is_empty(),
            "{} has no doc line",
            b.qualified_name()
        );
        assert!(
            !b.doc.contains('\n'),
            "{}'s doc is more than one line",
            b.qualified_name()
        );
    }
}
