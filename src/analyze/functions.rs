//! Special forms that make functions and definitions: `def`, `defonce`,
//! `defn`/`defn-`, `fn` (its arities and parameters) and `letfn`, checked
//! for shape and compiled to their [`Expr`]s ([`super::special`] dispatches
//! to them).

use std::sync::Arc;

use super::expr::{Bind, Def, Expr, FnArity, FnProto, Letfn, Slot};
use super::{Analyzer, Scope};
use crate::error::{Error, Result, Span};
use crate::reader::{Form, FormKind};
use crate::value::Value;

use super::special::{check_binding_name, invalid, FnKind};

impl Analyzer<'_> {
    pub(super) fn def(&mut self, args: &[Form], span: Span) -> Result<Expr> {
        let Some(FormKind::Symbol(name)) = args.first().map(|f| &f.kind) else {
            return Err(invalid(span, "def expects a name, e.g. (def total 42)"));
        };
        check_def_name(name, args[0].span)?;
        let (doc, value) = match &args[1..] {
            [] => (None, None),
            [v] => (None, Some(v)),
            [Form {
                kind: FormKind::Str(doc),
                ..
            }, v] => (Some(doc.as_str()), Some(v)),
            _ => {
                return Err(invalid(
                    span,
                    "def expects a name, an optional docstring and one value",
                )
                .with_hint("(def name value) or (def name \"doc\" value)"))
            }
        };
        let id = self.intern_global(name);
        let value = match value {
            Some(v) => self.analyze(v, false)?,
            None => Expr::Const(Value::Nil),
        };
        Ok(Expr::Def(Box::new(Def {
            id,
            // user/'s own copy of the name (the var a turn ends with shares it)
            name: self.cx.globals.name(id).clone(),
            doc: doc.map(Arc::from),
            value,
        })))
    }

    pub(super) fn defn(&mut self, args: &[Form], span: Span) -> Result<Expr> {
        let Some(FormKind::Symbol(name)) = args.first().map(|f| &f.kind) else {
            return Err(invalid(
                span,
                "defn expects a name, e.g. (defn add [a b] (+ a b))",
            ));
        };
        check_def_name(name, args[0].span)?;
        let mut rest = &args[1..];
        let mut doc = None;
        if let [Form {
            kind: FormKind::Str(d),
            ..
        }, more @ ..] = rest
        {
            if !more.is_empty() {
                doc = Some(d.as_str());
                rest = more;
            }
        }
        if let [Form {
            kind: FormKind::Map(_),
            ..
        }, more @ ..] = rest
        {
            rest = more;
        }
        if rest.is_empty() {
            return Err(invalid(
                span,
                format!("defn {name} needs a parameter vector and a body"),
            )
            .with_hint(format!("(defn {name} [x] ...)")));
        }
        let id = self.intern_global(name);
        let f = self.function(Some(name), doc, rest, span, FnKind::Defn(id))?;
        Ok(Expr::Def(Box::new(Def {
            id,
            name: self.cx.globals.name(id).clone(),
            doc: None,
            value: f,
        })))
    }

    /// Compiles `fn`'s arities (`[params] body…` or `([params] body…)…`).
    /// `defn` functions do not bind their own name locally: it resolves to
    /// the user/ definition, as in Clojure.
    pub(super) fn function(
        &mut self,
        name: Option<&str>,
        doc: Option<&str>,
        rest: &[Form],
        span: Span,
        kind: FnKind,
    ) -> Result<Expr> {
        let is_defn = matches!(kind, FnKind::Defn(_));
        let global = match kind {
            FnKind::Defn(id) => Some(id),
            _ => None,
        };
        let arity_forms: Vec<(&[Form], &[Form])> = match rest.first().map(|f| &f.kind) {
            Some(FormKind::Vector(params)) => vec![(params.as_slice(), &rest[1..])],
            Some(FormKind::List(_)) => {
                let mut out = Vec::new();
                for f in rest {
                    match &f.kind {
                        FormKind::List(items) => match items.first().map(|p| &p.kind) {
                            Some(FormKind::Vector(params)) => out.push((params.as_slice(), &items[1..])),
                            _ => return Err(invalid(f.span, "each arity of a multi-arity fn must start with a parameter vector, e.g. ([x] ...)")),
                        },
                        _ => return Err(invalid(f.span, "expected an arity like ([x] body) in a multi-arity fn")),
                    }
                }
                out
            }
            _ => {
                let what = if is_defn { "defn" } else { "fn" };
                return Err(invalid(
                    span,
                    format!("{what} expects a parameter vector, e.g. [x y]"),
                )
                .with_hint("parameters go in square brackets: (fn [x] ...), not (fn (x) ...)"));
            }
        };
        let scope = match kind {
            FnKind::Fn => Scope {
                self_name: name.map(Arc::from),
                ..Scope::default()
            },
            FnKind::Defn(_) => Scope::default(),
            FnKind::Letfn(siblings) => Scope {
                siblings,
                ..Scope::default()
            },
        };
        self.scopes.push(scope);
        let result = self.arities(&arity_forms, span);
        let scope = self.scopes.pop().unwrap_or_default();
        let arities = result?;
        let source_params = arity_forms
            .iter()
            .map(|(params, _)| source_text(&self.cx.source, params))
            .collect::<Vec<_>>()
            .join(" ");
        let proto = FnProto {
            name: name.map(Arc::from),
            display_params: display_params(arity_forms[0].0),
            source_params,
            docstring: doc.map(Arc::from),
            source: self.cx.source.clone(),
            global,
            arities,
        };
        let captures = scope.captures.into_iter().map(|(_, e)| e).collect();
        Ok(Expr::MakeFn(Arc::new(proto), captures))
    }

    fn arities(&mut self, forms: &[(&[Form], &[Form])], span: Span) -> Result<Vec<FnArity>> {
        let mut out: Vec<FnArity> = Vec::new();
        for (params, body) in forms {
            let arity = self.arity(params, body)?;
            if out
                .iter()
                .any(|a| a.fixed == arity.fixed && a.variadic == arity.variadic)
            {
                return Err(invalid(
                    span,
                    format!("fn has two arities with {} parameters", arity.fixed),
                ));
            }
            out.push(arity);
        }
        if out.iter().filter(|a| a.variadic).count() > 1 {
            return Err(invalid(span, "fn can have only one variadic arity"));
        }
        Ok(out)
    }

    fn arity(&mut self, params: &[Form], body: &[Form]) -> Result<FnArity> {
        let mark = self.mark();
        let mut fixed_patterns = Vec::new();
        let mut rest_pattern = None;
        let mut i = 0;
        while i < params.len() {
            match &params[i].kind {
                FormKind::Symbol(s) if s == "&" => {
                    match params.get(i + 1) {
                        Some(p) if i + 2 == params.len() => rest_pattern = Some(p),
                        _ => return Err(invalid(params[i].span, "& in a parameter vector must be followed by exactly one name, e.g. [x & more]")),
                    }
                    break;
                }
                _ => fixed_patterns.push(&params[i]),
            }
            i += 1;
        }
        // Parameters take slots 0..n in order; destructured ones are unpacked
        // by the prologue.
        let mut slots = Vec::new();
        for p in fixed_patterns.iter().chain(rest_pattern.iter()) {
            match &p.kind {
                FormKind::Symbol(n) => {
                    check_binding_name(n, p.span)?;
                    slots.push((self.push_local(n), None));
                }
                _ => slots.push((self.temp_slot(), Some(*p))),
            }
        }
        let mut prologue = Vec::new();
        let rest_index = rest_pattern.map(|_| slots.len() - 1);
        for (i, (slot, pattern)) in slots.iter().enumerate() {
            let Some(p) = pattern else { continue };
            if Some(i) == rest_index && matches!(p.kind, FormKind::Map(_)) {
                // `& {:keys [a]}`: keyword arguments become a map first.
                let map = self.temp_slot();
                prologue.push(Bind {
                    slot: map,
                    value: Expr::SeqToMap(*slot),
                });
                self.destructure(p, map, &mut prologue)?;
            } else {
                self.destructure(p, *slot, &mut prologue)?;
            }
        }
        let params: Arc<[Slot]> = slots.iter().map(|(slot, _)| *slot).collect();
        let body = self.with_recur(Some(params.clone()), |a| a.body(body, true));
        // Each `(recur …)` back to this arity holds the parameters' slots.
        let recurs = Arc::strong_count(&params) > 1;
        let frame_size = self.scope().frame_size as usize;
        self.restore(mark);
        Ok(FnArity {
            fixed: fixed_patterns.len(),
            variadic: rest_pattern.is_some(),
            frame_size,
            recurs,
            prologue,
            body: body?,
            compiled: Default::default(),
        })
    }

    pub(super) fn letfn(&mut self, args: &[Form], span: Span, tail: bool) -> Result<Expr> {
        let Some(FormKind::Vector(fns)) = args.first().map(|f| &f.kind) else {
            return Err(invalid(
                span,
                "letfn expects a vector of function definitions, e.g. (letfn [(f [x] ...)] ...)",
            ));
        };
        let mut defs = Vec::new();
        for f in fns {
            match &f.kind {
                FormKind::List(items) => match items.first().map(|i| &i.kind) {
                    Some(FormKind::Symbol(n)) => defs.push((n.as_str(), &items[1..], f.span)),
                    _ => {
                        return Err(invalid(
                            f.span,
                            "each letfn binding is (name [params] body...)",
                        ))
                    }
                },
                _ => {
                    return Err(invalid(
                        f.span,
                        "each letfn binding is (name [params] body...)",
                    ))
                }
            }
        }
        let siblings: Vec<Arc<str>> = defs.iter().map(|(n, _, _)| Arc::from(*n)).collect();
        let mut compiled = Vec::new();
        for (name, rest, fspan) in &defs {
            match self.function(
                Some(name),
                None,
                rest,
                *fspan,
                FnKind::Letfn(siblings.clone()),
            )? {
                Expr::MakeFn(proto, captures) => compiled.push((proto, captures)),
                _ => return Err(Error::internal("letfn function did not compile to a fn")),
            }
        }
        let mark = self.mark();
        let slots: Vec<_> = defs.iter().map(|(n, _, _)| self.push_local(n)).collect();
        let body = self.body(&args[1..], tail);
        self.restore(mark);
        Ok(Expr::Letfn(Box::new(Letfn {
            slots,
            fns: compiled,
            body: body?,
        })))
    }
}

fn check_def_name(name: &str, span: Span) -> Result<()> {
    if name.contains('/') && name != "/" {
        return Err(invalid(span, format!("def takes a plain name, got {name}")));
    }
    Ok(())
}

/// The source text covering `forms` (parameter vectors as written).
fn source_text(src: &str, forms: &[Form]) -> String {
    let text = forms
        .iter()
        .map(|f| match &f.kind {
            // Names as written (also for `#(...)`, whose `%1` parameters the
            // reader made up and which have no text of their own).
            FormKind::Symbol(s) => s.clone(),
            _ => src
                .get(f.span.start as usize..f.span.end as usize)
                .unwrap_or("_")
                .to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    format!("[{}]", collapse_whitespace(&text))
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `#fn[x y]`: parameter names; destructured parameters are `_`, the rest
/// parameter `& xs`.
pub(super) fn display_params(params: &[Form]) -> String {
    params
        .iter()
        .map(|p| match &p.kind {
            FormKind::Symbol(s) => s.clone(),
            _ => "_".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
