//! `(source name)`, `(dir ns)` and `(pst)`: REPL-level forms that answer
//! like `doc` ([`super::doc`]) and are not turns.
//!
//! * `(source name)`: the text of the top-level `def`/`defn` form that last
//!   defined a user/ name, taken from the session's successful turns; for a
//!   builtin, a tool or data, what is known instead (they have no PTC-Lisp
//!   source).
//! * `(dir ns)`: the names in a namespace, sorted: `clojure.core`,
//!   `clojure.string` (or `str`, `string`, `s`), `clojure.set` (`set`),
//!   `clojure.walk` (`walk`), `user`, `tool`, `data`.
//! * `(pst)`: the last error again (`*e`), with its kind, source line and
//!   hint.

use crate::builtins::{self, Ns};
use crate::error::Error;
use crate::reader::{read_all, Form, FormKind};
use crate::session::Session;

use super::{Item, Output};

/// The forms this module answers, for completion and help.
pub const INSPECT_FORMS: &[&str] = &["source", "dir", "pst"];

/// Answers `form` if it is `(source …)`, `(dir …)` or `(pst)`.
pub fn repl_form(session: &Session, last_error: Option<&Error>, form: &Form) -> Option<Output> {
    let FormKind::List(items) = &form.kind else {
        return None;
    };
    let Some(FormKind::Symbol(head)) = items.first().map(|f| &f.kind) else {
        return None;
    };
    let arg = match items.get(1).map(|f| &f.kind) {
        Some(FormKind::Symbol(s)) | Some(FormKind::Str(s)) if items.len() == 2 => Some(s.clone()),
        _ => None,
    };
    match (head.as_str(), arg) {
        ("source", Some(name)) => Some(source(session, &name)),
        ("dir", Some(ns)) => Some(dir(session, &ns)),
        ("pst", None) if items.len() == 1 => Some(match last_error {
            Some(e) => {
                let mut out = Output::default();
                out.items.push(Item::Error(e.clone()));
                out
            }
            None => Output::note("no error yet (*e is nil)"),
        }),
        ("source", None) => Some(Output::note("usage: (source name), e.g. (source top)")),
        ("dir", None) => Some(Output::note(
            "usage: (dir ns): clojure.core, clojure.string (str), clojure.set, clojure.walk, user, tool or data",
        )),
        ("pst", Some(_)) => Some(Output::note("usage: (pst): the last error again")),
        _ => None,
    }
}

/// `(source name)`.
pub fn source(session: &Session, name: &str) -> Output {
    let bare = name.strip_prefix("user/").unwrap_or(name);
    if session.memory().lookup(bare).is_some() {
        if let Some(text) = user_source(session, bare) {
            return Output::text(text);
        }
    }
    if let Some(tool) = name
        .strip_prefix("tool/")
        .and_then(|t| session.tools().iter().find(|i| i.name == t))
    {
        return Output::text(format!(
            "tool/{} is a host tool (no PTC-Lisp source)\n  {}",
            tool.name, tool.signature
        ));
    }
    if let Some(d) = name.strip_prefix("data/") {
        if session.data().contains_key(d) {
            return Output::text(format!(
                "data/{d} is a data value (no source): (doc {name})"
            ));
        }
    }
    let builtin = match name.split_once('/') {
        Some((q, b)) => Ns::from_qualifier(q).and_then(|ns| builtins::lookup_in(ns, b)),
        None => builtins::lookup(name),
    };
    match builtin {
        Some(b) => Output::text(format!(
            "{} is built into the interpreter (no PTC-Lisp source): (doc {name})",
            b.qualified_name()
        )),
        None => Output::note(format!("no source for {name}: it is not defined")),
    }
}

/// The text of the last successful top-level form defining `name`.
fn user_source(session: &Session, name: &str) -> Option<String> {
    session
        .turns()
        .iter()
        .rev()
        .filter(|t| t.success && t.defined.iter().any(|d| d == name))
        .find_map(|t| {
            let program = t.program.as_deref()?;
            let forms = read_all(program).ok()?;
            forms
                .iter()
                .rev()
                .find(|f| defines(f, name))
                .map(|f| program[f.span.start as usize..f.span.end as usize].to_string())
        })
}

/// Whether `form` is `(def name …)`, `(defn name …)` or the like.
fn defines(form: &Form, name: &str) -> bool {
    let FormKind::List(items) = &form.kind else {
        return false;
    };
    matches!(
        (items.first().map(|f| &f.kind), items.get(1).map(|f| &f.kind)),
        (Some(FormKind::Symbol(head)), Some(FormKind::Symbol(n)))
            if head.starts_with("def") && n == name
    )
}

/// `(dir ns)`.
pub fn dir(session: &Session, ns: &str) -> Output {
    let names: Vec<String> = match ns {
        "user" => session.memory().iter().map(|(n, _)| n.to_string()).collect(),
        "tool" => session.tools().iter().map(|t| t.name.clone()).collect(),
        "data" => session.data().keys().cloned().collect(),
        q => match Ns::from_qualifier(q) {
            Some(ns) => builtins::all()
                .iter()
                .filter(|b| b.ns == ns)
                .map(|b| b.name.to_string())
                .collect(),
            None => {
                return Output::note(format!(
                    "no namespace {ns}: try clojure.core, clojure.string (str), clojure.set, clojure.walk, user, tool or data"
                ))
            }
        },
    };
    let mut names = names;
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Output::note(format!("{ns} is empty"));
    }
    Output::text(names.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(s: &Session, last: Option<&Error>, text: &str) -> Option<String> {
        let forms = read_all(text).unwrap();
        repl_form(s, last, &forms[0]).map(|o| o.plain())
    }

    #[test]
    fn source_dir_and_pst() {
        let mut s = Session::builder("m")
            .data_json("nums", &serde_json::json!([1]))
            .tool_fn("search", "(q :string) -> :string", "", |_| {
                Ok(crate::Value::Nil)
            })
            .max_turns(10)
            .build()
            .unwrap();
        s.run_turn("(def a 1)\n(defn top [ps]\n  (first ps))")
            .unwrap();
        s.run_turn("(defn top [ps] (last ps)) (bad)").unwrap(); // failed: not the source
        assert_eq!(
            answer(&s, None, "(source top)").unwrap(),
            "(defn top [ps]\n  (first ps))\n"
        );
        assert!(answer(&s, None, "(source map)")
            .unwrap()
            .contains("built into"));
        assert!(answer(&s, None, "(source tool/search)")
            .unwrap()
            .contains("(q :string)"));
        assert!(answer(&s, None, "(source nope)")
            .unwrap()
            .contains("not defined"));
        let upper = answer(&s, None, "(dir str)").unwrap();
        assert!(upper.lines().any(|l| l == "upper-case"), "{upper}");
        assert_eq!(answer(&s, None, "(dir user)").unwrap(), "a\ntop\n");
        assert!(answer(&s, None, "(dir nope)")
            .unwrap()
            .contains("no namespace"));
        assert!(answer(&s, None, "(pst)").unwrap().contains("no error"));
        let e = s.turns()[1].error().unwrap().clone();
        assert!(answer(&s, Some(&e), "(pst)").unwrap().contains("bad"));
        assert_eq!(answer(&s, None, "(count [1])"), None);
    }
}
