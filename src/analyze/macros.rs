//! Macros, expanded form → form before analysis: `when when-not if-not cond
//! condp -> ->> as-> some-> some->> cond-> cond->> doto when-let if-let
//! when-some if-some when-first dotimes comment declare`.
//!
//! Expansions keep the original spans, so errors point at what the program
//! wrote. Temporaries use names no program can write (they contain a space),
//! and builtins are referred to by qualified name (`clojure.core/nil?`) so a
//! user definition of the same name cannot capture them.

use super::Analyzer;
use crate::error::{Error, Result, Span};
use crate::reader::{Form, FormKind};

fn sym(name: &str, span: Span) -> Form {
    Form {
        kind: FormKind::Symbol(name.to_string()),
        span,
    }
}
fn list(items: Vec<Form>, span: Span) -> Form {
    Form {
        kind: FormKind::List(items),
        span,
    }
}
fn vector(items: Vec<Form>, span: Span) -> Form {
    Form {
        kind: FormKind::Vector(items),
        span,
    }
}
fn nil(span: Span) -> Form {
    Form {
        kind: FormKind::Nil,
        span,
    }
}
fn invalid(span: Span, msg: impl Into<String>) -> Error {
    Error::validation(msg).with_span(span)
}

fn do_body(body: &[Form], span: Span) -> Form {
    let mut items = vec![sym("do", span)];
    items.extend_from_slice(body);
    list(items, span)
}

/// Expands `items` if its head names a macro.
pub fn expand(a: &mut Analyzer, name: &str, form: &Form, items: &[Form]) -> Result<Option<Form>> {
    let args = &items[1..];
    let span = form.span;
    check_chain_length(name, args, span)?;
    let out = match name {
        "when" | "when-not" => {
            let Some(test) = args.first() else {
                return Err(invalid(
                    span,
                    format!("{name} expects a condition and a body"),
                ));
            };
            let body = do_body(&args[1..], span);
            if name == "when" {
                list(vec![sym("if", span), test.clone(), body], span)
            } else {
                list(vec![sym("if", span), test.clone(), nil(span), body], span)
            }
        }
        "assert" => {
            // (assert x msg?) → (if x nil (throw (AssertionError. "Assert failed: …"))),
            // Clojure's message: "Assert failed: msg\nform" or "Assert failed: form".
            let (Some(test), 1..=2) = (args.first(), args.len()) else {
                return Err(invalid(
                    span,
                    "assert expects a condition and an optional message",
                ));
            };
            let text =
                a.cx.source
                    .get(test.span.start as usize..test.span.end as usize)
                    .unwrap_or("?")
                    .to_string();
            let message = match args.get(1) {
                None => Form {
                    kind: FormKind::Str(format!("Assert failed: {text}")),
                    span,
                },
                Some(msg) => list(
                    vec![
                        sym("clojure.core/str", span),
                        Form {
                            kind: FormKind::Str("Assert failed: ".into()),
                            span,
                        },
                        msg.clone(),
                        Form {
                            kind: FormKind::Str(format!("\n{text}")),
                            span,
                        },
                    ],
                    span,
                ),
            };
            let throw = list(
                vec![
                    sym("throw", span),
                    list(vec![sym("AssertionError.", span), message], span),
                ],
                span,
            );
            list(vec![sym("if", span), test.clone(), nil(span), throw], span)
        }
        "if-not" => {
            if !(2..=3).contains(&args.len()) {
                return Err(invalid(
                    span,
                    "if-not expects a condition, a then-branch and an optional else-branch",
                ));
            }
            let else_ = args.get(2).cloned().unwrap_or_else(|| nil(span));
            list(
                vec![sym("if", span), args[0].clone(), else_, args[1].clone()],
                span,
            )
        }
        "cond" => {
            if !args.len().is_multiple_of(2) {
                return Err(invalid(span, "cond requires an even number of forms (test/expression pairs)")
                    .with_hint("use :else as the last test for a default, e.g. (cond (> x 0) :pos :else :other)"));
            }
            let mut out = nil(span);
            for pair in args.chunks(2).rev() {
                out = list(
                    vec![sym("if", span), pair[0].clone(), pair[1].clone(), out],
                    span,
                );
            }
            out
        }
        "condp" => condp(a, args, span)?,
        "->" | "->>" => {
            let Some(first) = args.first() else {
                return Err(invalid(
                    span,
                    format!("{name} expects a value to thread, e.g. ({name} x (f))"),
                ));
            };
            let mut acc = first.clone();
            for step in &args[1..] {
                acc = thread(step, acc, name == "->");
            }
            acc
        }
        "as->" => {
            let (
                Some(init),
                Some(
                    bound @ Form {
                        kind: FormKind::Symbol(_),
                        ..
                    },
                ),
            ) = (args.first(), args.get(1))
            else {
                return Err(invalid(
                    span,
                    "as-> expects a value and a name, e.g. (as-> x v (f v))",
                ));
            };
            let mut bindings = vec![bound.clone(), init.clone()];
            for step in &args[2..] {
                bindings.push(bound.clone());
                bindings.push(step.clone());
            }
            list(
                vec![sym("let", span), vector(bindings, span), bound.clone()],
                span,
            )
        }
        "some->" | "some->>" => {
            let Some(first) = args.first() else {
                return Err(invalid(span, format!("{name} expects a value to thread")));
            };
            let mut acc = first.clone();
            for step in &args[1..] {
                let t = sym(&a.gensym("some"), span);
                let stepped = thread(step, t.clone(), name == "some->");
                acc = list(
                    vec![
                        sym("let", span),
                        vector(vec![t.clone(), acc], span),
                        list(
                            vec![
                                sym("if", span),
                                list(vec![sym("clojure.core/nil?", span), t], span),
                                nil(span),
                                stepped,
                            ],
                            span,
                        ),
                    ],
                    span,
                );
            }
            acc
        }
        "cond->" | "cond->>" => {
            let Some(first) = args.first() else {
                return Err(invalid(
                    span,
                    format!("{name} expects a value and test/form pairs"),
                ));
            };
            if !(args.len() - 1).is_multiple_of(2) {
                return Err(invalid(
                    span,
                    format!("{name} requires an even number of test/form pairs"),
                ));
            }
            let g = sym(&a.gensym("cond"), span);
            let mut bindings = vec![g.clone(), first.clone()];
            for pair in args[1..].chunks(2) {
                let stepped = thread(&pair[1], g.clone(), name == "cond->");
                bindings.push(g.clone());
                bindings.push(list(
                    vec![sym("if", span), pair[0].clone(), stepped, g.clone()],
                    span,
                ));
            }
            list(vec![sym("let", span), vector(bindings, span), g], span)
        }
        "doto" => {
            let Some(first) = args.first() else {
                return Err(invalid(span, "doto expects a value"));
            };
            let t = sym(&a.gensym("doto"), span);
            let mut items = vec![
                sym("let", span),
                vector(vec![t.clone(), first.clone()], span),
            ];
            for step in &args[1..] {
                items.push(thread(step, t.clone(), true));
            }
            items.push(t);
            list(items, span)
        }
        "if-let" | "when-let" | "if-some" | "when-some" => {
            let (pattern, init) = single_binding(name, args, span)?;
            let is_if = name.starts_with("if");
            if is_if && !(2..=3).contains(&args.len()) {
                return Err(invalid(span, format!("{name} expects a binding vector, a then-branch and an optional else-branch")));
            }
            let t = sym(&a.gensym("t"), span);
            let then_body = if is_if {
                args[1].clone()
            } else {
                do_body(&args[1..], span)
            };
            let else_ = if is_if {
                args.get(2).cloned().unwrap_or_else(|| nil(span))
            } else {
                nil(span)
            };
            let test = if name.ends_with("some") {
                list(vec![sym("clojure.core/some?", span), t.clone()], span)
            } else {
                t.clone()
            };
            let inner = list(
                vec![
                    sym("let", span),
                    vector(vec![pattern.clone(), t.clone()], span),
                    then_body,
                ],
                span,
            );
            list(
                vec![
                    sym("let", span),
                    vector(vec![t, init.clone()], span),
                    list(vec![sym("if", span), test, inner, else_], span),
                ],
                span,
            )
        }
        "when-first" => {
            let (pattern, init) = single_binding(name, args, span)?;
            let t = sym(&a.gensym("t"), span);
            let inner = list(
                vec![
                    sym("let", span),
                    vector(
                        vec![
                            pattern.clone(),
                            list(vec![sym("clojure.core/first", span), t.clone()], span),
                        ],
                        span,
                    ),
                    do_body(&args[1..], span),
                ],
                span,
            );
            list(
                vec![
                    sym("let", span),
                    vector(vec![t.clone(), init.clone()], span),
                    list(
                        vec![
                            sym("if", span),
                            list(vec![sym("clojure.core/seq", span), t], span),
                            inner,
                            nil(span),
                        ],
                        span,
                    ),
                ],
                span,
            )
        }
        "dotimes" => {
            // A counting loop, not a realized range.
            let (pattern, n) = single_binding(name, args, span)?;
            let limit = sym(&a.gensym("n"), span);
            let step = list(vec![sym("clojure.core/inc", span), pattern.clone()], span);
            let mut body = vec![sym("do", span)];
            body.extend_from_slice(&args[1..]);
            body.push(list(vec![sym("recur", span), step], span));
            let test = list(
                vec![sym("clojure.core/<", span), pattern.clone(), limit.clone()],
                span,
            );
            list(
                vec![
                    sym("let", span),
                    vector(vec![limit, n.clone()], span),
                    list(
                        vec![
                            sym("loop", span),
                            vector(
                                vec![
                                    pattern.clone(),
                                    Form {
                                        kind: FormKind::Int(0),
                                        span,
                                    },
                                ],
                                span,
                            ),
                            list(
                                vec![sym("if", span), test, list(body, span), nil(span)],
                                span,
                            ),
                        ],
                        span,
                    ),
                ],
                span,
            )
        }
        "comment" => nil(span),
        "declare" => {
            for f in args {
                if let FormKind::Symbol(n) = &f.kind {
                    a.intern_global(n);
                }
            }
            nil(span)
        }
        _ => return Ok(None),
    };
    // The expansion built about one form per argument.
    a.cx.budget.tick_settled(items.len() as u64)?;
    Ok(Some(out))
}

/// The macros whose expansion nests one level per clause (`->` per step,
/// `cond` per pair) are refused before expanding when the result could not
/// be analyzed anyway ([`super::MAX_EXPANDED_NESTING`]): building a 100,000-
/// level expansion first would take time and memory outside the budget.
fn check_chain_length(name: &str, args: &[Form], span: Span) -> Result<()> {
    let levels = match name {
        "->" | "->>" | "some->" | "some->>" => args.len().saturating_sub(1),
        "cond" => args.len() / 2,
        _ => return Ok(()),
    };
    if levels <= super::MAX_EXPANDED_NESTING {
        return Ok(());
    }
    Err(Error::limit(format!(
        "{name} has {levels} clauses; it nests one level per clause, more than the {} levels a program may nest once its macros are expanded",
        super::MAX_EXPANDED_NESTING
    ))
    .with_hint("split the chain into functions, or reduce over a vector of steps")
    .with_span(span))
}

/// The one `[pattern value]` binding of `if-let`, `when-let`, `dotimes` …
fn single_binding<'f>(name: &str, args: &'f [Form], span: Span) -> Result<(&'f Form, &'f Form)> {
    match args.first().map(|f| &f.kind) {
        Some(FormKind::Vector(b)) if b.len() == 2 => Ok((&b[0], &b[1])),
        Some(FormKind::Vector(_)) => Err(invalid(
            args[0].span,
            format!("{name} requires exactly one binding pair, e.g. ({name} [x expr] ...)"),
        )),
        _ => Err(invalid(
            span,
            format!("{name} expects a binding vector, e.g. ({name} [x expr] ...)"),
        )),
    }
}

/// Inserts `value` into `step` as first (`->`) or last (`->>`) argument.
fn thread(step: &Form, value: Form, first: bool) -> Form {
    match &step.kind {
        FormKind::List(items) if !items.is_empty() => {
            let mut items = items.clone();
            if first {
                items.insert(1, value);
            } else {
                items.push(value);
            }
            list(items, step.span)
        }
        _ => list(vec![step.clone(), value], step.span),
    }
}

fn condp(a: &mut Analyzer, args: &[Form], span: Span) -> Result<Form> {
    if args.len() < 2 {
        return Err(invalid(
            span,
            "condp expects a predicate, an expression and test/result clauses",
        ));
    }
    let p = sym(&a.gensym("pred"), span);
    let e = sym(&a.gensym("expr"), span);
    let clauses = &args[2..];
    // Build from the end: the default (odd trailing form) or an error.
    let mut i = 0;
    let mut parts: Vec<(Form, Option<Form>, Form)> = Vec::new();
    let mut default = None;
    while i < clauses.len() {
        let rest = clauses.len() - i;
        if rest == 1 {
            default = Some(clauses[i].clone());
            break;
        }
        if let Some(Form {
            kind: FormKind::Keyword(k),
            ..
        }) = clauses.get(i + 1)
        {
            if k == ">>" && rest >= 3 {
                parts.push((clauses[i].clone(), Some(clauses[i + 2].clone()), nil(span)));
                i += 3;
                continue;
            }
        }
        parts.push((clauses[i].clone(), None, clauses[i + 1].clone()));
        i += 2;
    }
    let mut out = default.unwrap_or_else(|| {
        list(
            vec![
                sym("throw", span),
                list(
                    vec![
                        sym("clojure.core/str", span),
                        Form {
                            kind: FormKind::Str("condp: no matching clause for ".into()),
                            span,
                        },
                        list(vec![sym("clojure.core/pr-str", span), e.clone()], span),
                    ],
                    span,
                ),
            ],
            span,
        )
    });
    for (test, arrow, result) in parts.into_iter().rev() {
        let call = list(vec![p.clone(), test, e.clone()], span);
        out = match arrow {
            Some(f) => {
                let r = sym(&a.gensym("r"), span);
                list(
                    vec![
                        sym("let", span),
                        vector(vec![r.clone(), call], span),
                        list(
                            vec![sym("if", span), r.clone(), list(vec![f, r], span), out],
                            span,
                        ),
                    ],
                    span,
                )
            }
            None => list(vec![sym("if", span), call, result, out], span),
        };
    }
    Ok(list(
        vec![
            sym("let", span),
            vector(vec![p, args[0].clone(), e, args[1].clone()], span),
            out,
        ],
        span,
    ))
}
