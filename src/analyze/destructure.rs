//! Destructuring: binding patterns → [`Bind`] steps.
//!
//! A pattern is matched against a value already stored in a slot. Vector
//! patterns (`[a b & rest :as all]`) read items by position; map patterns
//! (`{:keys [a] :strs [b] :syms [c] :or {a 1} :as m, x :key}`) read keys, with
//! the keyword ⇄ string fallback of every map lookup. Patterns nest.

use super::expr::{Bind, Expr, Slot};
use super::Analyzer;
use crate::error::{Error, Result};
use crate::reader::{form_to_value, Form, FormKind};
use crate::value::Value;

impl Analyzer<'_> {
    /// Binds `pattern` to the value in slot `src`.
    pub(super) fn destructure(
        &mut self,
        pattern: &Form,
        src: Slot,
        binds: &mut Vec<Bind>,
    ) -> Result<()> {
        match &pattern.kind {
            FormKind::Symbol(name) => {
                let slot = self.push_local(name);
                binds.push(Bind {
                    slot,
                    value: Expr::Local(src),
                });
                Ok(())
            }
            FormKind::Vector(items) => self.destructure_vector(items, src, binds),
            FormKind::Map(items) => self.destructure_map(pattern, items, src, binds),
            _ => Err(Error::validation(format!(
                "cannot bind to {}: a binding must be a name, a vector pattern or a map pattern",
                crate::format::to_clojure(
                    &form_to_value(pattern).unwrap_or(Value::Nil),
                    None,
                    None
                )
                .0
            ))
            .with_span(pattern.span)),
        }
    }

    /// Binds `pattern` to the value `value` computes.
    fn bind_expr(&mut self, pattern: &Form, value: Expr, binds: &mut Vec<Bind>) -> Result<()> {
        match &pattern.kind {
            FormKind::Symbol(name) => {
                let slot = self.push_local(name);
                binds.push(Bind { slot, value });
                Ok(())
            }
            _ => {
                let slot = self.temp_slot();
                binds.push(Bind { slot, value });
                self.destructure(pattern, slot, binds)
            }
        }
    }

    fn destructure_vector(
        &mut self,
        items: &[Form],
        src: Slot,
        binds: &mut Vec<Bind>,
    ) -> Result<()> {
        let mut i = 0;
        let mut pos = 0;
        while i < items.len() {
            let item = &items[i];
            match &item.kind {
                FormKind::Symbol(s) if s == "&" => {
                    let Some(rest) = items.get(i + 1) else {
                        return Err(Error::validation(
                            "& in a binding vector must be followed by a name, e.g. [x & more]",
                        )
                        .with_span(item.span));
                    };
                    let value = Expr::NthRest(src, pos, item.span);
                    if let FormKind::Map(_) = rest.kind {
                        // `& {:keys [a]}`: keyword arguments.
                        let seq = self.temp_slot();
                        binds.push(Bind { slot: seq, value });
                        let map = self.temp_slot();
                        binds.push(Bind {
                            slot: map,
                            value: Expr::SeqToMap(seq),
                        });
                        self.destructure(rest, map, binds)?;
                    } else {
                        self.bind_expr(rest, value, binds)?;
                    }
                    i += 2;
                    // Clojure allows only `:as name` after the rest binding.
                    match items.get(i).map(|f| &f.kind) {
                        None => {}
                        Some(FormKind::Keyword(k)) if k == "as" => {}
                        Some(_) => {
                            return Err(Error::validation(
                                "after & name a binding vector may only have :as name, e.g. [x & more :as all]",
                            )
                            .with_span(items[i].span)
                            .with_hint("[a & more extra] binds nothing to extra; take it from more, e.g. (let [[a & more] xs extra (last more)] ...)"));
                        }
                    }
                }
                FormKind::Keyword(k) if k == "as" => {
                    match items.get(i + 1).map(|f| &f.kind) {
                        Some(FormKind::Symbol(name)) => {
                            let slot = self.push_local(name);
                            binds.push(Bind {
                                slot,
                                value: Expr::Local(src),
                            });
                        }
                        _ => {
                            return Err(Error::validation(":as must be followed by a name")
                                .with_span(item.span))
                        }
                    }
                    i += 2;
                }
                _ => {
                    self.bind_expr(item, Expr::Nth(src, pos, item.span), binds)?;
                    pos += 1;
                    i += 1;
                }
            }
        }
        Ok(())
    }

    fn destructure_map(
        &mut self,
        pattern: &Form,
        items: &[Form],
        src: Slot,
        binds: &mut Vec<Bind>,
    ) -> Result<()> {
        // Defaults first: `:or {name default}`.
        let mut defaults: Vec<(String, &Form)> = Vec::new();
        for pair in items.chunks(2) {
            if let (FormKind::Keyword(k), Some(v)) = (&pair[0].kind, pair.get(1)) {
                if k == "or" {
                    let FormKind::Map(entries) = &v.kind else {
                        return Err(Error::validation(
                            ":or expects a map of names to defaults, e.g. {:or {x 0}}",
                        )
                        .with_span(v.span));
                    };
                    for e in entries.chunks(2) {
                        match (&e[0].kind, e.get(1)) {
                            (FormKind::Symbol(name), Some(d)) => defaults.push((name.clone(), d)),
                            _ => {
                                return Err(Error::validation(
                                    ":or keys must be the bound names as symbols, e.g. {:or {x 10}}, not keywords or strings",
                                )
                                .with_span(e[0].span))
                            }
                        }
                    }
                }
            }
        }
        let default_for = |this: &mut Self, name: &str| -> Result<Option<Box<Expr>>> {
            match defaults.iter().find(|(n, _)| n == name) {
                Some((_, form)) => Ok(Some(Box::new(this.analyze(form, false)?))),
                None => Ok(None),
            }
        };
        for pair in items.chunks(2) {
            let Some(value_form) = pair.get(1) else {
                return Err(
                    Error::validation("map binding pattern needs an even number of forms")
                        .with_span(pattern.span),
                );
            };
            match &pair[0].kind {
                FormKind::Keyword(k) if k == "or" => {}
                FormKind::Keyword(k) if k == "as" => {
                    let FormKind::Symbol(name) = &value_form.kind else {
                        return Err(Error::validation(":as must be followed by a name")
                            .with_span(value_form.span));
                    };
                    let slot = self.push_local(name);
                    binds.push(Bind {
                        slot,
                        value: Expr::Local(src),
                    });
                }
                FormKind::Keyword(k)
                    if k == "keys" || k == "strs" || k == "syms" || k.ends_with("/keys") =>
                {
                    let FormKind::Vector(names) = &value_form.kind else {
                        return Err(Error::validation(format!(
                            ":{k} expects a vector of names, e.g. {{:{k} [a b]}}"
                        ))
                        .with_span(value_form.span));
                    };
                    let ns = k.strip_suffix("/keys");
                    for n in names {
                        let full = match &n.kind {
                            FormKind::Symbol(s) | FormKind::Keyword(s) => s.clone(),
                            _ => {
                                return Err(Error::validation(format!(
                                    ":{k} names must be symbols"
                                ))
                                .with_span(n.span))
                            }
                        };
                        let local = Value::keyword_name(&full).to_string();
                        let key = match (k.as_str(), ns) {
                            (_, Some(ns)) => Value::keyword_interned(&format!("{ns}/{local}")),
                            ("strs", _) => Value::string(full.as_str()),
                            ("syms", _) => Value::symbol(full.as_str()),
                            _ => Value::keyword_interned(&full),
                        };
                        let default = default_for(self, &local)?;
                        let slot = self.push_local(&local);
                        binds.push(Bind {
                            slot,
                            value: Expr::Key(src, key, default, n.span),
                        });
                    }
                }
                _ => {
                    let key = form_to_value(value_form)?;
                    let default = match &pair[0].kind {
                        FormKind::Symbol(name) => default_for(self, name)?,
                        _ => None,
                    };
                    self.bind_expr(&pair[0], Expr::Key(src, key, default, pair[0].span), binds)?;
                }
            }
        }
        Ok(())
    }
}
