//! `require` and `ns` (issue 27 item 3): accepted as no-ops for the
//! namespaces ptc provides, honouring `:as` aliases and `:refer` of their
//! vars; anything else is a `validation-error` naming what is available.
//!
//! Rules (decided here):
//! * `(require 'clojure.string)`, `(require '[clojure.string :as s])`,
//!   `(require '[clojure.set :refer [union]])` (several specs allowed), and
//!   `(ns name "doc"? (:require spec…) (:import …) (:refer-clojure …))`
//!   evaluate to nil. The namespaces: clojure.core, clojure.string,
//!   clojure.set, clojure.walk, clojure.data.json and cheshire.core.
//! * An alias (`:as s`) makes `s/name` mean that namespace's `name` for the
//!   rest of the program and later turns (like a definition, it is dropped
//!   when the turn fails). `:refer [a b]` makes bare `a`, `b` name that
//!   namespace's functions (each must exist there); `:refer :all` is
//!   accepted (bare names already reach every provided namespace).
//! * An `ns` without a `(:require …)` clause stays a `validation-error`
//!   (there are no namespaces to declare; `language.md`).
//! * `(:import …)` is accepted and ignored: the Java names ptc knows work
//!   without it. `use`, `import` outside `ns`, and unknown namespaces or
//!   options stay errors.

use super::Analyzer;
use crate::builtins::{self, Ns};
use crate::error::{Error, Result, Span};
use crate::reader::{Form, FormKind};
use crate::value::Value;

use super::expr::Expr;

const AVAILABLE: &str = "the namespaces ptc provides: clojure.string (str/), clojure.set (set/), clojure.walk (walk/), clojure.data.json and cheshire.core (json/), clojure.core; they work without require";

/// `(require spec …)`.
pub fn require(a: &mut Analyzer, args: &[Form], span: Span) -> Result<Expr> {
    if args.is_empty() {
        return Err(invalid(
            span,
            "require expects a namespace, e.g. (require '[clojure.string :as str])",
        ));
    }
    for arg in args {
        let spec = unquote(arg).ok_or_else(|| {
            invalid(
                arg.span,
                "require expects a quoted spec, e.g. (require '[clojure.string :as str])",
            )
        })?;
        lib_spec(a, spec)?;
    }
    Ok(Expr::Const(Value::Nil))
}

/// `(ns name docstring? attr-map? clauses…)`.
pub fn ns(a: &mut Analyzer, args: &[Form], span: Span) -> Result<Expr> {
    let Some(FormKind::Symbol(_)) = args.first().map(|f| &f.kind) else {
        return Err(invalid(
            span,
            "ns expects a name, e.g. (ns report (:require [clojure.string :as str]))",
        ));
    };
    let requires = args[1..].iter().any(|c| match &c.kind {
        FormKind::List(items) => {
            matches!(items.first().map(|f| &f.kind), Some(FormKind::Keyword(k)) if k == "require")
        }
        _ => false,
    });
    if !requires {
        return Err(invalid(span, "ns is not available in PTC-Lisp: there are no namespaces to declare; just def and defn")
            .with_hint("(ns name (:require [clojure.string :as str])) is accepted for its requires; the namespaces work without it"));
    }
    for clause in &args[1..] {
        match &clause.kind {
            FormKind::Str(_) | FormKind::Map(_) => {}
            FormKind::List(items) => match items.first().map(|f| &f.kind) {
                Some(FormKind::Keyword(k)) if k == "require" => {
                    for spec in &items[1..] {
                        lib_spec(a, unquote(spec).unwrap_or(spec))?;
                    }
                }
                Some(FormKind::Keyword(k)) if k == "import" || k == "refer-clojure" => {}
                _ => {
                    return Err(invalid(
                        clause.span,
                        "ns accepts (:require …), (:import …) and (:refer-clojure …) clauses",
                    )
                    .with_hint(AVAILABLE))
                }
            },
            _ => {
                return Err(invalid(
                    clause.span,
                    "ns accepts (:require …), (:import …) and (:refer-clojure …) clauses",
                )
                .with_hint(AVAILABLE))
            }
        }
    }
    Ok(Expr::Const(Value::Nil))
}

/// `'x` → x.
fn unquote(f: &Form) -> Option<&Form> {
    match &f.kind {
        FormKind::List(items) if items.len() == 2 => match &items[0].kind {
            FormKind::Symbol(q) if q == "quote" => Some(&items[1]),
            _ => None,
        },
        _ => None,
    }
}

fn namespace(name: &str, span: Span) -> Result<Ns> {
    match name {
        "clojure.core" | "clojure.string" | "clojure.set" | "clojure.walk"
        | "clojure.data.json" | "cheshire.core" => {
            Ns::from_qualifier(name).ok_or_else(|| Error::internal("namespace table"))
        }
        _ => Err(
            Error::validation(format!("cannot require {name}: ptc has no such namespace"))
                .with_hint(AVAILABLE)
                .with_span(span),
        ),
    }
}

/// `clojure.string` or `[clojure.string :as s :refer [a b]]`.
fn lib_spec(a: &mut Analyzer, spec: &Form) -> Result<()> {
    match &spec.kind {
        FormKind::Symbol(name) => {
            namespace(name, spec.span)?;
            Ok(())
        }
        FormKind::Vector(items) => {
            let Some(FormKind::Symbol(name)) = items.first().map(|f| &f.kind) else {
                return Err(invalid(
                    spec.span,
                    "a require spec starts with the namespace, e.g. [clojure.string :as str]",
                ));
            };
            let ns = namespace(name, items[0].span)?;
            let mut rest = &items[1..];
            while let [opt, value, tail @ ..] = rest {
                match (&opt.kind, &value.kind) {
                    (FormKind::Keyword(k), FormKind::Symbol(alias))
                        if k == "as" || k == "as-alias" =>
                    {
                        a.cx.globals.add_alias(alias, ns);
                    }
                    (FormKind::Keyword(k), FormKind::Keyword(all))
                        if k == "refer" && all == "all" => {}
                    (FormKind::Keyword(k), FormKind::Vector(names)) if k == "refer" => {
                        for n in names {
                            let FormKind::Symbol(n) = &n.kind else {
                                return Err(invalid(n.span, ":refer takes a vector of names"));
                            };
                            if builtins::lookup_in(ns, n).is_none() {
                                return Err(Error::validation(format!(
                                    "cannot refer {n}: {} has no such function in ptc",
                                    ns.name()
                                ))
                                .with_span(value.span));
                            }
                            a.cx.globals.add_refer(n, ns);
                        }
                    }
                    _ => {
                        return Err(invalid(
                            opt.span,
                            "a require spec takes :as alias and :refer [names]",
                        )
                        .with_hint(AVAILABLE))
                    }
                }
                rest = tail;
            }
            if !rest.is_empty() {
                return Err(invalid(
                    rest[0].span,
                    "a require spec takes :as alias and :refer [names]",
                ));
            }
            Ok(())
        }
        _ => Err(invalid(
            spec.span,
            "require expects a namespace symbol or vector, e.g. '[clojure.string :as str]",
        )
        .with_hint(AVAILABLE)),
    }
}

fn invalid(span: Span, msg: impl Into<String>) -> Error {
    Error::validation(msg).with_span(span)
}

/// `(instance? Class x)` (issue 27 item 2): the class symbol is not
/// evaluated; it must be a value class or an exception class ptc knows.
pub fn instance(a: &mut Analyzer, args: &[Form], span: Span) -> Result<Expr> {
    let [class, x] = args else {
        return Err(
            Error::arity(format!("instance? expects 2 arguments, got {}", args.len()))
                .with_span(span),
        );
    };
    let FormKind::Symbol(name) = &class.kind else {
        return Err(invalid(class.span, "instance? expects a class name first"));
    };
    let simple = name.rsplit('.').next().unwrap_or(name);
    let known = crate::builtins::java_methods::VALUE_CLASSES.contains(&simple)
        || crate::builtins::classes::known(simple).is_some();
    if !known {
        return Err(Error::validation(format!("instance? does not know the class {name}"))
            .with_hint(format!(
                "known: {} and the exception classes; or use a predicate such as string?, number?, map?",
                crate::builtins::java_methods::VALUE_CLASSES.join(" ")
            ))
            .with_span(class.span));
    }
    let b = builtins::lookup_in(Ns::Core, "instance?")
        .ok_or_else(|| Error::internal("builtin instance? is missing"))?;
    let x = a.analyze(x, false)?;
    Ok(Expr::CallBuiltin(
        b,
        vec![Expr::Const(Value::string(simple)), x],
        span,
    ))
}
