//! `(doc name)` in a program: prints (as `println` does, so it shows in
//! the turn's output) what the name is, and returns nil. The name is not
//! evaluated. Resolved at analysis (rule DOC-1):
//!
//! * `tool/NAME`, or a bare name that is a tool: the tool's signature and
//!   whole documentation, from the [`Host`](crate::eval::Host)
//!   (`Host::tool_doc`) — for an MCP tool the whole description and its
//!   schemas, which the prompt's listing cuts with "(more: (doc
//!   tool/NAME))". An unknown tool is an `undefined-error` listing the
//!   tools.
//! * a builtin (bare or qualified, `str/join`): its qualified name, arity,
//!   doc line and example; a special form: its usage line.
//! * anything else (locals, user/ definitions, data/) is a
//!   `validation-error` saying what `doc` documents.
//!
//! A user/ definition named `doc` is called instead (the special form
//! yields to it). The REPL answers a top-level `(doc …)` itself, with
//! user/ and data/ too (`repl/doc.rs`); both share these texts.

use super::expr::Expr;
use super::suggest::{suggest, Candidate};
use super::Analyzer;
use crate::builtins::{self, Ns};
use crate::error::{Error, Result, Span};
use crate::reader::{Form, FormKind};
use crate::value::Value;

/// One line about each special form and macro (the analyzer handles them,
/// so the builtin registry has no entry for them).
pub const SPECIAL_DOCS: &[(&str, &str)] = &[
    (
        "quote",
        "(quote form) or 'form: the form itself, unevaluated",
    ),
    (
        "if",
        "(if test then else?): then when test is truthy, else else (or nil)",
    ),
    ("do", "(do exprs...): evaluates in order, returns the last"),
    (
        "and",
        "(and exprs...): the first falsy value, or the last value",
    ),
    (
        "or",
        "(or exprs...): the first truthy value, or the last value",
    ),
    (
        "let",
        "(let [name value ...] body...): local bindings, with destructuring",
    ),
    (
        "loop",
        "(loop [name init ...] body...): a recur target with bindings",
    ),
    (
        "recur",
        "(recur args...): jumps back to the enclosing loop or fn (tail position only)",
    ),
    (
        "fn",
        "(fn name? [params] body...) or multi-arity (fn ([x] ...) ([x y] ...)): a function",
    ),
    (
        "def",
        "(def name doc? value): defines user/name, kept across turns",
    ),
    (
        "defonce",
        "(defonce name value): defines user/name unless it is defined",
    ),
    (
        "defn",
        "(defn name doc? [params] body...): defines a function in user/",
    ),
    ("defn-", "(defn- name [params] body...): as defn"),
    (
        "letfn",
        "(letfn [(f [x] ...) ...] body...): local functions that can call each other",
    ),
    (
        "try",
        "(try body... (catch _ e ...) (finally ...)): e is {:message :kind :data}",
    ),
    (
        "catch",
        "(catch _ e body...): inside try; e is {:message :kind :data}",
    ),
    (
        "finally",
        "(finally body...): inside try; runs whatever happens",
    ),
    (
        "throw",
        "(throw (ex-info msg data)): raises an execution-error",
    ),
    (
        "lazy-seq",
        "(lazy-seq body...): a sequence whose body runs only when its items are needed; the body gives (cons x more) or nil (the end), e.g. (defn fib [a b] (lazy-seq (cons a (fib b (+ a b)))))",
    ),
    (
        "case",
        "(case x v1 r1 (v2 v3) r2 default?): constant dispatch",
    ),
    (
        "for",
        "(for [x coll :let [...] :when test :while test] expr): a vector comprehension",
    ),
    (
        "doseq",
        "(doseq [x coll] body...): runs body for each item, returns nil",
    ),
    (
        "with-out-str",
        "(with-out-str body...): runs body and returns what it printed as a string",
    ),
    ("var", "(var name) or #'name: the var of a user/ definition"),
    (
        "return",
        "(return value): ends the turn and the session successfully with value",
    ),
    (
        "fail",
        "(fail reason): ends the session as failed with reason",
    ),
    (
        "when",
        "(when test body...): body when test is truthy, else nil",
    ),
    (
        "when-not",
        "(when-not test body...): body when test is falsy, else nil",
    ),
    (
        "if-not",
        "(if-not test then else?): if with the test negated",
    ),
    (
        "cond",
        "(cond test expr ... :else expr): the expr of the first truthy test",
    ),
    (
        "condp",
        "(condp pred x v1 r1 ... default?): the first r whose (pred v x) is truthy",
    ),
    (
        "->",
        "(-> x (f a) g): threads x as the first argument through the forms",
    ),
    (
        "->>",
        "(->> x (f a) g): threads x as the last argument through the forms",
    ),
    (
        "as->",
        "(as-> x name forms...): threads x through the forms bound to name",
    ),
    ("some->", "(some-> x forms...): as ->, stopping at nil"),
    ("some->>", "(some->> x forms...): as ->>, stopping at nil"),
    (
        "cond->",
        "(cond-> x test form ...): threads x (first argument) through forms whose test holds",
    ),
    (
        "cond->>",
        "(cond->> x test form ...): threads x (last argument) through forms whose test holds",
    ),
    (
        "doto",
        "(doto x forms...): x (there are no mutable objects; the forms are evaluated)",
    ),
    (
        "if-let",
        "(if-let [name test] then else?): binds name when test is truthy",
    ),
    (
        "when-let",
        "(when-let [name test] body...): body with name bound when test is truthy",
    ),
    (
        "if-some",
        "(if-some [name test] then else?): binds name when test is not nil",
    ),
    (
        "when-some",
        "(when-some [name test] body...): body with name bound when test is not nil",
    ),
    (
        "when-first",
        "(when-first [x coll] body...): body with x the first item of a non-empty coll",
    ),
    (
        "dotimes",
        "(dotimes [i n] body...): runs body for i from 0 to n-1, returns nil",
    ),
    ("comment", "(comment ...): ignored, nil"),
    (
        "require",
        "(require '[clojure.string :as s :refer [join]]): nil; makes the alias and referred names usable (clojure.string, clojure.set, clojure.walk, clojure.data.json, cheshire.core)",
    ),
    (
        "ns",
        "(ns name (:require [clojure.string :as s])): nil; only its :require clauses mean anything",
    ),
    (
        "assert",
        "(assert test message?): nil, or throws AssertionError \"Assert failed: …\" (caught by Throwable, not Exception)",
    ),
    (
        "declare",
        "(declare names...): names defined later (for mutual recursion)",
    ),
];

/// Compiles `(doc name)` to a `println` of the name's documentation.
pub(super) fn doc(a: &mut Analyzer, args: &[Form], span: Span) -> Result<Expr> {
    let name = match args {
        [Form {
            kind: FormKind::Symbol(n),
            ..
        }] => n.as_str(),
        _ => {
            return Err(Error::validation(format!(
                "doc expects one name (not evaluated), got {} form{}",
                args.len(),
                if args.len() == 1 {
                    " that is not a name"
                } else {
                    "s"
                }
            ))
            .with_hint("write (doc tool/NAME) for a tool, (doc map) for a builtin")
            .with_span(span))
        }
    };
    let text = doc_text(a, name)?.ok_or_else(|| not_documented(a, name).with_span(span))?;
    let println = builtins::lookup_in(Ns::Core, "println")
        .ok_or_else(|| Error::internal("builtin println is missing"))?;
    Ok(Expr::CallBuiltin(
        println,
        vec![Expr::Const(Value::from(text.as_str()))],
        span,
    ))
}

fn doc_text(a: &mut Analyzer, name: &str) -> Result<Option<String>> {
    if let Some(tool) = name.strip_prefix("tool/") {
        return match a.cx.host.tool_doc(tool) {
            Some(text) => Ok(Some(text)),
            None => Err(unknown_tool(a, tool)),
        };
    }
    if let Some(i) = name.find('/').filter(|&i| i > 0 && i + 1 < name.len()) {
        let (ns, bare) = (&name[..i], &name[i + 1..]);
        let found =
            a.cx.globals
                .alias(ns)
                .or_else(|| Ns::from_qualifier(ns))
                .and_then(|n| builtins::lookup_in(n, bare).or_else(|| builtins::lookup(bare)));
        return Ok(found.map(|b| b.doc_text()));
    }
    if a.resolve_local(a.scopes.len() - 1, name).is_some() || a.cx.globals.id(name).is_some() {
        return Ok(None);
    }
    if let Some((_, d)) = SPECIAL_DOCS.iter().find(|(n, _)| *n == name) {
        return Ok(Some(format!("{name}\n  special form\n  {d}")));
    }
    let builtin =
        a.cx.globals
            .refer(name)
            .and_then(|ns| builtins::lookup_in(ns, name))
            .or_else(|| builtins::lookup(name));
    if let Some(b) = builtin {
        return Ok(Some(b.doc_text()));
    }
    Ok(a.cx.host.tool_doc(name))
}

/// `tool/NAME` names no tool: the tools there are.
fn unknown_tool(a: &Analyzer, name: &str) -> Error {
    let tools = a.cx.host.tool_names();
    let shown = crate::value::describe_text(name);
    let err = if tools.is_empty() {
        Error::undefined(format!("(doc tool/{shown}): there are no tools"))
    } else {
        let listed: Vec<String> = tools.iter().map(|t| format!("tool/{t}")).collect();
        Error::undefined(format!(
            "(doc tool/{shown}): tool/{shown} is not defined; available: {}",
            listed.join(", ")
        ))
    };
    let candidates = tools.iter().map(|t| Candidate { name: t, tier: 0 });
    match suggest(name, candidates) {
        Some(best) => err.with_hint(format!("did you mean (doc tool/{best})?")),
        None => err,
    }
}

/// A name `doc` does not document.
fn not_documented(a: &Analyzer, name: &str) -> Error {
    let shown = crate::value::describe_text(name);
    let what = if name.starts_with("data/") || a.cx.host.data(name).is_some() {
        "a data/ value: print it, e.g. (println (take 3 data/NAME))"
    } else if a.cx.globals.id(name).is_some() {
        "your own definition: its source is in your earlier programs"
    } else {
        "not a name doc knows"
    };
    Error::validation(format!(
        "(doc {shown}): doc in a program documents tools, builtins and special forms; {shown} is {what}"
    ))
    .with_hint("e.g. (doc tool/NAME) or (doc map)")
}

#[cfg(test)]
mod tests {
    use crate::eval::{CannedTool, Interp, Limits, StaticHost};
    use crate::value::Value;

    /// Runs `src` with one canned tool `search`: the prints, or the error.
    fn run(src: &str) -> Result<(Vec<String>, Value), String> {
        let mut host = StaticHost::default();
        host.tools
            .insert("search".into(), CannedTool::Returns(Value::Nil));
        let mut interp = Interp::new(Box::new(host), Limits::default());
        let outcome = interp.run_program(src);
        let prints = interp.prints.drain(..).collect();
        outcome
            .result
            .map(|v| (prints, v))
            .map_err(|e| format!("{}: {} (hint: {:?})", e.kind(), e.message(), e.hint()))
    }

    #[test]
    fn doc_prints_tools_builtins_and_special_forms_and_returns_nil() {
        let (prints, v) = run("(doc tool/search)").unwrap();
        assert_eq!((prints, v), (vec!["tool/search".to_string()], Value::Nil));
        let (prints, _) = run("(doc search) (doc str/join) (doc map) (doc let)").unwrap();
        let all = prints.join("\n");
        assert!(
            all.starts_with("tool/search\nclojure.string/join\n  "),
            "{all}"
        );
        assert!(all.contains("\nclojure.core/map\n  "), "{all}");
        assert!(all.contains("\nlet\n  special form\n  (let ["), "{all}");
        // inside with-out-str, as println is
        let (_, v) = run("(with-out-str (doc tool/search))").unwrap();
        assert_eq!(v, Value::from("tool/search\n"));
    }

    #[test]
    fn doc_of_what_it_does_not_know_is_a_clear_error() {
        let e = run("(doc tool/serch)").unwrap_err();
        assert!(
            e.starts_with("undefined-error: (doc tool/serch): tool/serch is not defined; available: tool/search")
                && e.contains("did you mean (doc tool/search)?"),
            "{e}"
        );
        let e = run("(def x 1) (doc x)").unwrap_err();
        assert!(
            e.contains("documents tools, builtins and special forms"),
            "{e}"
        );
        let e = run("(doc nosuch)").unwrap_err();
        assert!(e.contains("not a name doc knows"), "{e}");
        let e = run("(doc \"search\")").unwrap_err();
        assert!(
            e.starts_with("validation-error: doc expects one name"),
            "{e}"
        );
        let e = run("(doc)").unwrap_err();
        assert!(e.contains("got 0 forms"), "{e}");
    }

    #[test]
    fn a_user_definition_named_doc_is_called() {
        let (_, v) = run("(defn doc [x] (* 2 x)) (doc 21)").unwrap();
        assert_eq!(v, Value::Int(42));
    }
}
