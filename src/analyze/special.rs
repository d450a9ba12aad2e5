//! Special forms: `quote if do let loop recur fn def defn defonce letfn try
//! throw case and or for doseq var`.
//!
//! Each is checked for shape here (a `validation-error` with the form's span
//! when it is malformed) and compiled to its [`Expr`].

use std::sync::Arc;

use super::expr::{Bind, Case, Catch, CatchClass, Expr, For, ForClause, Loop, Recur, Slot, Try};
use super::Analyzer;
use crate::error::{Error, Result, Span};
use crate::reader::{form_to_value, Form, FormKind};
use crate::value::{Map, Value};

/// Compiles `items` if its head names a special form.
pub fn analyze(
    a: &mut Analyzer,
    name: &str,
    form: &Form,
    items: &[Form],
    tail: bool,
) -> Result<Option<Expr>> {
    let args = &items[1..];
    let span = form.span;
    let expr = match name {
        "quote" => {
            if args.len() != 1 {
                return Err(invalid(span, "quote expects exactly one form"));
            }
            Expr::Const(form_to_value(&args[0])?)
        }
        "if" => {
            if !(2..=3).contains(&args.len()) {
                return Err(invalid(
                    span,
                    format!("if expects a condition, a then-branch and an optional else-branch, got {} forms", args.len()),
                )
                .with_hint("use cond for several branches, or wrap several expressions in (do ...)"));
            }
            let c = a.analyze(&args[0], false)?;
            let t = a.analyze(&args[1], tail)?;
            let e = match args.get(2) {
                Some(f) => a.analyze(f, tail)?,
                None => Expr::Const(Value::Nil),
            };
            Expr::If(Box::new((c, t, e)))
        }
        "do" => a.body(args, tail)?,
        "and" | "or" => {
            if args.is_empty() {
                return Ok(Some(Expr::Const(if name == "and" {
                    Value::Bool(true)
                } else {
                    Value::Nil
                })));
            }
            let n = args.len();
            let mut exprs = Vec::with_capacity(n);
            for (i, f) in args.iter().enumerate() {
                exprs.push(a.analyze(f, tail && i + 1 == n)?);
            }
            if n == 1 {
                return Ok(exprs.pop());
            }
            if name == "and" {
                Expr::And(exprs)
            } else {
                Expr::Or(exprs)
            }
        }
        "let" => {
            let bindings = binding_vector(args, span, "let")?;
            let mark = a.mark();
            let mut binds = Vec::new();
            for pair in bindings.chunks(2) {
                a.bind(&pair[0], &pair[1], &mut binds)?;
            }
            let body = a.body(&args[1..], tail);
            a.restore(mark);
            let mut body = body?;
            if tail && a.cx.moves {
                // The frame ends with this `let`, or the loop's (or
                // function's) iteration does, after which `recur` may run
                // the body again: a local from the innermost loop's first
                // slot on that a binding's value reads for the last time is
                // moved, and so is a body that is such a local (MOVE-1 in
                // `moves.rs`). `(let [acc (conj acc x)] acc)` then adds to
                // the accumulator in place, and the binding's slot, which
                // outlives the call in a repeated frame, does not share it.
                // A slot below the loop (a parameter the loop reads) is
                // never moved here: the next iteration reads it again.
                let movable = super::moves::dead_after_iteration(a.scope().recur_base);
                if let Expr::Local(_) = body {
                    super::moves::mark(&mut body, &[], &movable);
                }
                for i in 0..binds.len() {
                    let (head, rest) = binds.split_at_mut(i + 1);
                    let mut later: Vec<&Expr> = rest.iter().map(|b| &b.value).collect();
                    later.push(&body);
                    super::moves::mark(&mut head[i].value, &later, &movable);
                }
            }
            Expr::Let(binds, Box::new(body))
        }
        "loop" => {
            let bindings = binding_vector(args, span, "loop")?;
            let mark = a.mark();
            let mut inits = Vec::new();
            let mut prologue = Vec::new();
            for pair in bindings.chunks(2) {
                let value = a.analyze(&pair[1], false)?;
                match &pair[0].kind {
                    FormKind::Symbol(n) => {
                        let slot = a.push_local(n);
                        inits.push(Bind { slot, value });
                    }
                    _ => {
                        let slot = a.temp_slot();
                        inits.push(Bind { slot, value });
                        a.destructure(&pair[0], slot, &mut prologue)?;
                    }
                }
            }
            let saved = (a.scope().recur_base, a.scope().tail_open);
            a.scope().recur_base = mark.1;
            a.scope().tail_open |= !tail;
            let params: Arc<[Slot]> = inits.iter().map(|b| b.slot).collect();
            let body = a.with_recur(Some(params), |a| a.body(&args[1..], true));
            (a.scope().recur_base, a.scope().tail_open) = saved;
            a.restore(mark);
            Expr::Loop(Box::new(Loop {
                inits,
                prologue,
                body: body?,
                compiled: Default::default(),
            }))
        }
        "recur" => {
            let Some(targets) = a.scope().recur_slots.clone() else {
                return Err(
                    invalid(span, "recur is only allowed in tail position of loop or fn")
                        .with_hint("recur must be the last thing evaluated in its loop or fn body"),
                );
            };
            if !tail {
                return Err(invalid(span, "recur is only allowed in tail position of loop or fn")
                    .with_hint("recur must be the last thing evaluated in its loop or fn body; its value cannot be used"));
            }
            let expected = targets.len();
            if args.len() != expected {
                return Err(Error::arity(format!(
                    "recur expects {expected} argument{} (one per loop binding or fn parameter), got {}",
                    if expected == 1 { "" } else { "s" },
                    args.len()
                ))
                .with_span(span));
            }
            let mut values = a.analyze_all(args)?;
            if a.cx.moves {
                let movable = super::moves::dead_after_iteration(a.scope().recur_base);
                super::moves::mark_args(&mut values, &[], &movable);
            }
            Expr::Recur(Box::new(Recur {
                args: values,
                slots: targets,
                span,
            }))
        }
        "fn" | "fn*" => {
            let (name, rest) = match args.first().map(|f| &f.kind) {
                Some(FormKind::Symbol(n)) => (Some(n.as_str()), &args[1..]),
                _ => (None, args),
            };
            a.function(name, None, rest, span, FnKind::Fn)?
        }
        "def" => a.def(args, span)?,
        "defonce" => {
            if let Some(FormKind::Symbol(n)) = args.first().map(|f| &f.kind) {
                if a.cx.globals.lookup(n).is_some() {
                    return Ok(Some(Expr::Const(Value::Var(n.as_str().into()))));
                }
            }
            a.def(args, span)?
        }
        "defn" | "defn-" => a.defn(args, span)?,
        "letfn" => a.letfn(args, span, tail)?,
        "require" => super::require::require(a, args, span)?,
        "instance?" if matches!(args.first().map(|f| &f.kind), Some(FormKind::Symbol(_))) => {
            super::require::instance(a, args, span)?
        }
        "ns" => super::require::ns(a, args, span)?,
        "try" => a.try_form(args)?,
        "lazy-seq" => {
            // (lazy-seq body…) → the lazy sequence of (fn [] body…), run when
            // realised (value/lazy.rs, "lazy-seq").
            let mut f = vec![
                Form {
                    kind: FormKind::Symbol("fn".into()),
                    span,
                },
                Form {
                    kind: FormKind::Vector(Vec::new()),
                    span,
                },
            ];
            f.extend_from_slice(args);
            let f = a.analyze(
                &Form {
                    kind: FormKind::List(f),
                    span,
                },
                false,
            )?;
            Expr::CallBuiltin(&crate::builtins::seq::LAZY_SEQ, vec![f], span)
        }
        "throw" => {
            if args.len() != 1 {
                return Err(invalid(
                    span,
                    "throw expects exactly one argument, e.g. (throw (ex-info \"msg\" {}))",
                ));
            }
            Expr::Throw(Box::new(a.analyze(&args[0], false)?), span)
        }
        "case" => a.case(args, span, tail)?,
        "for" | "doseq" => a.comprehension(args, span, name == "for")?,
        "with-out-str" => a.with_out_str(args, span)?,
        "doc" if a.cx.globals.id("doc").is_none() => super::doc::doc(a, args, span)?,
        "return" | "fail" => {
            if args.len() != 1 {
                let example = if name == "return" {
                    "(return {:answer 42})"
                } else {
                    "(fail \"reason\")"
                };
                return Err(invalid(
                    span,
                    format!("{name} expects exactly one argument, got {}", args.len()),
                )
                .with_hint(format!("write {example}")));
            }
            let b = crate::builtins::lookup_in(crate::builtins::Ns::Core, name)
                .ok_or_else(|| Error::internal(format!("builtin {name} is missing")))?;
            Expr::CallBuiltin(b, vec![a.analyze(&args[0], false)?], span)
        }
        "var" => match args.first().map(|f| &f.kind) {
            Some(FormKind::Symbol(n)) if args.len() == 1 => {
                Expr::Const(Value::Var(n.as_str().into()))
            }
            _ => return Err(invalid(span, "var expects a symbol")),
        },
        _ => return Ok(None),
    };
    Ok(Some(expr))
}

/// What kind of function is being compiled: how its own name resolves.
pub(super) enum FnKind {
    /// `(fn name? ...)`: the name is the closure itself.
    Fn,
    /// `defn`: the name resolves to the user/ definition `id`.
    Defn(super::expr::GlobalId),
    /// A `letfn` function: every sibling name resolves through the group.
    Letfn(Vec<Arc<str>>),
}

pub(super) fn invalid(span: Span, msg: impl Into<String>) -> Error {
    Error::validation(msg).with_span(span)
}

/// The binding vector of `let`/`loop`/…: a vector with an even number of forms.
fn binding_vector<'f>(args: &'f [Form], span: Span, what: &str) -> Result<&'f [Form]> {
    match args.first().map(|f| &f.kind) {
        Some(FormKind::Vector(items)) if items.len() % 2 == 0 => Ok(items),
        Some(FormKind::Vector(_)) => Err(invalid(
            args[0].span,
            format!(
                "{what} requires an even number of forms in its binding vector (name value pairs)"
            ),
        )),
        _ => Err(invalid(
            span,
            format!("{what} expects a binding vector, e.g. ({what} [x 1] ...)"),
        )),
    }
}

impl Analyzer<'_> {
    /// `pattern value`: evaluates `value` and binds the pattern, adding the
    /// names to the current scope.
    pub(super) fn bind(
        &mut self,
        pattern: &Form,
        value: &Form,
        binds: &mut Vec<Bind>,
    ) -> Result<()> {
        let value = self.analyze(value, false)?;
        match &pattern.kind {
            FormKind::Symbol(n) => {
                check_binding_name(n, pattern.span)?;
                let slot = self.push_local(n);
                binds.push(Bind { slot, value });
            }
            _ => {
                let slot = self.temp_slot();
                binds.push(Bind { slot, value });
                self.destructure(pattern, slot, binds)?;
            }
        }
        Ok(())
    }

    fn try_form(&mut self, args: &[Form]) -> Result<Expr> {
        let mut body_forms = Vec::new();
        let mut catch_forms = Vec::new();
        let mut finally = None;
        for f in args {
            if let FormKind::List(items) = &f.kind {
                match items.first().map(|h| &h.kind) {
                    Some(FormKind::Symbol(s)) if s == "catch" && finally.is_none() => {
                        let class = match items.get(1).map(|c| &c.kind) {
                            Some(FormKind::Symbol(c)) => c.as_str(),
                            Some(FormKind::Keyword(k)) if k == "default" => "Throwable",
                            _ => "",
                        };
                        let name = match items.get(2).map(|n| &n.kind) {
                            Some(FormKind::Symbol(n)) if !class.is_empty() => n.clone(),
                            _ => return Err(invalid(
                                f.span,
                                "catch expects a class and a name, e.g. (catch Exception e ...)",
                            )),
                        };
                        let class = CatchClass::of(class).map_err(|e| e.with_span(f.span))?;
                        catch_forms.push((class, name, &items[3..]));
                        continue;
                    }
                    Some(FormKind::Symbol(s)) if s == "finally" && finally.is_none() => {
                        finally = Some(&items[1..]);
                        continue;
                    }
                    _ => {}
                }
            }
            if !catch_forms.is_empty() || finally.is_some() {
                return Err(invalid(f.span, "catch and finally must come last in try"));
            }
            body_forms.push(f.clone());
        }

        let body = self.with_recur(None, |a| a.body(&body_forms, false))?;
        let mut catches = Vec::with_capacity(catch_forms.len());
        for (class, name, handler) in catch_forms {
            let mark = self.mark();
            let slot = self.push_local(&name);
            let h = self.with_recur(None, |a| a.body(handler, false));
            self.restore(mark);
            catches.push(Catch {
                class,
                slot,
                body: h?,
            });
        }
        let finally = match finally {
            Some(forms) => Some(self.with_recur(None, |a| a.body(forms, false))?),
            None => None,
        };
        Ok(Expr::Try(Box::new(Try {
            body,
            catches,
            finally,
        })))
    }

    fn case(&mut self, args: &[Form], span: Span, tail: bool) -> Result<Expr> {
        let Some(value_form) = args.first() else {
            return Err(invalid(
                span,
                "case expects an expression and test/result pairs",
            ));
        };
        let value = self.analyze(value_form, false)?;
        let clauses = &args[1..];
        let (pairs, default) = if clauses.len() % 2 == 1 {
            (&clauses[..clauses.len() - 1], clauses.last())
        } else {
            (clauses, None)
        };
        let mut table = Map::new();
        let mut branches = Vec::new();
        for pair in pairs.chunks(2) {
            let idx = Value::Int(branches.len() as i64);
            match &pair[0].kind {
                FormKind::List(alts) => {
                    for alt in alts {
                        table.entry(form_to_value(alt)?).or_insert(idx.clone());
                    }
                }
                _ => {
                    table.entry(form_to_value(&pair[0])?).or_insert(idx);
                }
            }
            branches.push(self.analyze(&pair[1], tail)?);
        }
        let default = match default {
            Some(d) => Some(self.analyze(d, tail)?),
            None => None,
        };
        Ok(Expr::Case(Box::new(Case {
            value,
            table,
            branches,
            default,
            span,
        })))
    }

    fn comprehension(&mut self, args: &[Form], span: Span, collect: bool) -> Result<Expr> {
        let what = if collect { "for" } else { "doseq" };
        let Some(FormKind::Vector(bindings)) = args.first().map(|f| &f.kind) else {
            return Err(invalid(
                span,
                format!("{what} expects a binding vector, e.g. ({what} [x xs] ...)"),
            ));
        };
        if bindings.len() % 2 != 0 {
            return Err(invalid(
                args[0].span,
                format!("{what} requires an even number of forms in its binding vector"),
            ));
        }
        let mark = self.mark();
        let result = (|| {
            let mut clauses = Vec::new();
            for pair in bindings.chunks(2) {
                match &pair[0].kind {
                    FormKind::Keyword(k) if k == "let" => {
                        let FormKind::Vector(lets) = &pair[1].kind else {
                            return Err(invalid(pair[1].span, ":let expects a binding vector"));
                        };
                        if lets.len() % 2 != 0 {
                            return Err(invalid(
                                pair[1].span,
                                ":let requires an even number of forms",
                            ));
                        }
                        let mut binds = Vec::new();
                        for p in lets.chunks(2) {
                            self.bind(&p[0], &p[1], &mut binds)?;
                        }
                        clauses.push(ForClause::Let(binds));
                    }
                    FormKind::Keyword(k) if k == "when" => {
                        clauses.push(ForClause::When(self.analyze(&pair[1], false)?))
                    }
                    FormKind::Keyword(k) if k == "while" => {
                        clauses.push(ForClause::While(self.analyze(&pair[1], false)?))
                    }
                    FormKind::Keyword(k) => {
                        return Err(invalid(
                            pair[0].span,
                            format!("{what} does not support :{k}; use :let, :when or :while"),
                        ))
                    }
                    _ => {
                        let coll = self.analyze(&pair[1], false)?;
                        let mut prologue = Vec::new();
                        let slot = match &pair[0].kind {
                            FormKind::Symbol(n) => {
                                check_binding_name(n, pair[0].span)?;
                                self.push_local(n)
                            }
                            _ => {
                                let slot = self.temp_slot();
                                self.destructure(&pair[0], slot, &mut prologue)?;
                                slot
                            }
                        };
                        clauses.push(ForClause::Each {
                            slot,
                            coll,
                            prologue,
                        });
                    }
                }
            }
            let body = self.with_recur(None, |a| a.body(&args[1..], false))?;
            Ok(Expr::For(Arc::new(For {
                clauses,
                body,
                collect,
                span,
            })))
        })();
        self.restore(mark);
        result
    }
}

pub(super) fn check_binding_name(name: &str, span: Span) -> Result<()> {
    if name.contains('/') && name != "/" {
        return Err(invalid(
            span,
            format!("cannot bind the qualified name {name}; local names have no namespace"),
        ));
    }
    Ok(())
}
