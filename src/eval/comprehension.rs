//! `for` and `doseq`: nested bindings with `:let`, `:when` and `:while`,
//! each collection walked item by item ([`iter::SeqIter`]), so an infinite
//! one ends under `:while`.
//!
//! A `for` runs eagerly until a binding's collection is lazy (infinite,
//! or a `lazy-seq`) with no `:while` on that binding to end it: from there
//! it gives a lazy sequence ([`LazySeq::Concat`] over that collection,
//! after the items collected so far): for each item taken, the rest of the
//! clauses and the body run in a copy of the frame as it was when the
//! binding was reached, lazily again if a later binding is lazy. Nothing
//! after that binding's items is reached (the outer bindings' next items
//! never come, as in Clojure when the inner sequence is infinite), so
//! `(take 3 (for [x (range)] (* x x)))` and
//! `(take 3 (for [x (range) y (range)] [x y]))` work as in Clojure. With a
//! `:while` on the binding it runs eagerly and ends on its own.

use std::sync::Arc;

use super::{iter, Frame, Interp};
use crate::analyze::expr::{For, ForClause};
use crate::error::Result;
use crate::value::{Func, LazySeq, Value, Vector};

impl Interp {
    pub(super) fn eval_for(&mut self, f: &Arc<For>, frame: Frame) -> Result<Value> {
        if f.collect {
            self.alloc(crate::value::cost::vector_bytes(0))?;
        }
        let mut out = ForOut::default();
        self.for_clauses(0, f, frame, &mut out)
            .map_err(|e| e.or_span(f.span))?;
        Ok(if f.collect { out.finish() } else { Value::Nil })
    }

    /// The lazy sequence of a `for` from its binding `at` on, over the lazy
    /// `source` (that binding's collection), in a copy of `frame`.
    fn lazy_for(&mut self, f: &Arc<For>, at: usize, frame: Frame, source: Value) -> Result<Value> {
        let captured: Vec<Value> = self.stack[frame.bp..].to_vec();
        self.alloc(crate::value::cost::closure_bytes(captured.len()))?;
        let closure = frame.closure.cloned();
        let f = f.clone();
        let chunk = Func::native("for", move |interp, args| {
            let Some(ForClause::Each { slot, prologue, .. }) = f.clauses.get(at) else {
                return Ok(Value::vector(Vector::new()));
            };
            let bp = interp.stack.len();
            interp.stack.extend(captured.iter().cloned());
            let slot_at = bp + *slot as usize;
            if interp.stack.len() <= slot_at {
                interp.stack.resize(slot_at + 1, Value::Nil);
            }
            interp.stack[slot_at] = args.first().cloned().unwrap_or(Value::Nil);
            let frame = Frame {
                bp,
                closure: closure.as_ref(),
            };
            let mut out = ForOut::default();
            let result = interp
                .run_binds(prologue, frame)
                .and_then(|()| interp.for_clauses(at + 1, &f, frame, &mut out));
            interp.stack.truncate(bp);
            result.map_err(|e| e.or_span(f.span))?;
            Ok(out.finish())
        });
        Ok(Value::lazy(LazySeq::Concat { f: chunk, source }))
    }

    /// Runs the clauses from the first; returns false when a `:while` ended
    /// the enclosing binding's iteration.
    /// (From clause `at` of `f` on; the ones before ran.)
    fn for_clauses(
        &mut self,
        at: usize,
        f: &Arc<For>,
        frame: Frame,
        out: &mut ForOut,
    ) -> Result<bool> {
        let Some(first) = f.clauses.get(at) else {
            let v = self.eval(&f.body, frame)?;
            if f.collect {
                self.budget
                    .alloc(crate::value::cost::vector_push(out.items.len()))?;
                out.items.push_back(v);
            }
            return Ok(true);
        };
        match first {
            ForClause::Each { coll, .. } => {
                let coll = self.eval(coll, frame)?;
                if f.collect
                    && matches!(coll, Value::Lazy(_))
                    && !stops_itself(&f.clauses[at + 1..])
                {
                    let part = self.lazy_for(f, at, frame, coll)?;
                    out.push_lazy(part);
                    return Ok(true);
                }
                self.for_each_item(at, coll, f, frame, out)
            }
            ForClause::Let(binds) => {
                self.run_binds(binds, frame)?;
                self.for_clauses(at + 1, f, frame, out)
            }
            ForClause::When(cond) => {
                if self.eval(cond, frame)?.truthy() {
                    self.for_clauses(at + 1, f, frame, out)
                } else {
                    Ok(true)
                }
            }
            ForClause::While(cond) => {
                if self.eval(cond, frame)?.truthy() {
                    self.for_clauses(at + 1, f, frame, out)
                } else {
                    Ok(false)
                }
            }
        }
    }

    /// Walks `coll`, the evaluated collection of clause `at` (an `Each`),
    /// running the clauses after it for each item (until a lazy rest ended
    /// the output).
    fn for_each_item(
        &mut self,
        at: usize,
        coll: Value,
        f: &Arc<For>,
        frame: Frame,
        out: &mut ForOut,
    ) -> Result<bool> {
        let Some(ForClause::Each { slot, prologue, .. }) = f.clauses.get(at) else {
            return Ok(true);
        };
        let fname = if f.collect { "for" } else { "doseq" };
        let mut it = iter::SeqIter::new(fname, &coll)?;
        while let Some(item) = it.next(self)? {
            self.budget.tick(1)?;
            self.stack[frame.bp + *slot as usize] = item;
            self.run_binds(prologue, frame)?;
            if !self.for_clauses(at + 1, f, frame, out)? || out.ended {
                break;
            }
        }
        Ok(true)
    }
}

/// What a `for` collected: items and lazy parts, in order. After an
/// infinite part nothing more is collected (`ended`); after a `lazy-seq`
/// part (which may end) collection goes on.
#[derive(Default)]
struct ForOut {
    parts: Vec<Value>,
    items: Vector,
    ended: bool,
}

impl ForOut {
    fn push_lazy(&mut self, part: Value) {
        if !self.items.is_empty() {
            self.parts
                .push(Value::vector(std::mem::take(&mut self.items)));
        }
        self.ended = !part.may_end();
        self.parts.push(part);
    }

    /// The sequence collected: a vector, or a chain of its parts.
    fn finish(mut self) -> Value {
        if self.parts.is_empty() {
            return Value::vector(self.items);
        }
        if !self.items.is_empty() {
            self.parts.push(Value::vector(self.items));
        }
        if self.parts.len() == 1 {
            return self.parts.pop().unwrap_or(Value::Nil);
        }
        Value::lazy(LazySeq::Chain(self.parts))
    }
}

/// Whether a `:while` belongs to the binding whose following clauses are
/// `rest` (it may end that binding's iteration).
fn stops_itself(rest: &[ForClause]) -> bool {
    rest.iter()
        .take_while(|c| !matches!(c, ForClause::Each { .. }))
        .any(|c| matches!(c, ForClause::While(_)))
}
