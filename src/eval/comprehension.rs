//! `for` and `doseq`: nested bindings with `:let`, `:when` and `:while`,
//! each collection walked item by item ([`iter::SeqIter`]), so an infinite
//! one ends under `:while`.
//!
//! A `for` whose first collection is infinite, with no `:while` on that
//! binding to end it, gives an infinite sequence instead
//! ([`LazySeq::Concat`]): for each item taken, the rest of the clauses and
//! the body run in a copy of the frame as it was when the `for` was
//! evaluated, so `(take 3 (for [x (range)] (* x x)))` works as in Clojure.
//! With a `:while` there the `for` runs eagerly and ends on its own.

use std::sync::Arc;

use super::{iter, Frame, Interp};
use crate::analyze::expr::{For, ForClause};
use crate::error::Result;
use crate::value::{Func, LazySeq, Value, Vector};

impl Interp {
    pub(super) fn eval_for(&mut self, f: &Arc<For>, frame: Frame) -> Result<Value> {
        let mut out = Vector::new();
        match f.clauses.split_first() {
            Some((ForClause::Each { coll, .. }, rest)) if f.collect && !stops_itself(rest) => {
                let coll = self.eval(coll, frame).map_err(|e| e.or_span(f.span))?;
                if let Value::Lazy(_) = coll {
                    return self.lazy_for(f, frame, coll);
                }
                self.for_each_item(&f.clauses, coll, f, frame, &mut out)
                    .map_err(|e| e.or_span(f.span))?;
            }
            _ => {
                self.for_clauses(&f.clauses, f, frame, &mut out)
                    .map_err(|e| e.or_span(f.span))?;
            }
        }
        Ok(if f.collect {
            Value::vector(out)
        } else {
            Value::Nil
        })
    }

    /// The infinite sequence of a `for` over the infinite `source`.
    fn lazy_for(&mut self, f: &Arc<For>, frame: Frame, source: Value) -> Result<Value> {
        let captured: Vec<Value> = self.stack[frame.bp..].to_vec();
        self.alloc(16 * captured.len() as u64 + 64)?;
        let closure = frame.closure.cloned();
        let f = f.clone();
        let chunk = Func::native("for", move |interp, args| {
            let Some((ForClause::Each { slot, prologue, .. }, rest)) = f.clauses.split_first()
            else {
                return Ok(Value::vector(Vector::new()));
            };
            let bp = interp.stack.len();
            interp.stack.extend(captured.iter().cloned());
            let at = bp + *slot as usize;
            if interp.stack.len() <= at {
                interp.stack.resize(at + 1, Value::Nil);
            }
            interp.stack[at] = args.first().cloned().unwrap_or(Value::Nil);
            let frame = Frame {
                bp,
                closure: closure.as_ref(),
            };
            let mut out = Vector::new();
            let result = interp
                .run_binds(prologue, frame)
                .and_then(|()| interp.for_clauses(rest, &f, frame, &mut out));
            interp.stack.truncate(bp);
            result.map_err(|e| e.or_span(f.span))?;
            Ok(Value::vector(out))
        });
        Ok(Value::lazy(LazySeq::Concat { f: chunk, source }))
    }

    /// Runs the clauses from the first; returns false when a `:while` ended
    /// the enclosing binding's iteration.
    fn for_clauses(
        &mut self,
        clauses: &[ForClause],
        f: &For,
        frame: Frame,
        out: &mut Vector,
    ) -> Result<bool> {
        let Some((first, rest)) = clauses.split_first() else {
            let v = self.eval(&f.body, frame)?;
            if f.collect {
                self.budget.alloc(16)?;
                out.push_back(v);
            }
            return Ok(true);
        };
        match first {
            ForClause::Each { coll, .. } => {
                let coll = self.eval(coll, frame)?;
                self.for_each_item(clauses, coll, f, frame, out)
            }
            ForClause::Let(binds) => {
                self.run_binds(binds, frame)?;
                self.for_clauses(rest, f, frame, out)
            }
            ForClause::When(cond) => {
                if self.eval(cond, frame)?.truthy() {
                    self.for_clauses(rest, f, frame, out)
                } else {
                    Ok(true)
                }
            }
            ForClause::While(cond) => {
                if self.eval(cond, frame)?.truthy() {
                    self.for_clauses(rest, f, frame, out)
                } else {
                    Ok(false)
                }
            }
        }
    }

    /// Walks `coll`, the evaluated collection of `clauses`' first (`Each`)
    /// clause, running the clauses after it for each item.
    fn for_each_item(
        &mut self,
        clauses: &[ForClause],
        coll: Value,
        f: &For,
        frame: Frame,
        out: &mut Vector,
    ) -> Result<bool> {
        let Some((ForClause::Each { slot, prologue, .. }, rest)) = clauses.split_first() else {
            return Ok(true);
        };
        let fname = if f.collect { "for" } else { "doseq" };
        let mut it = iter::SeqIter::new(fname, &coll)?;
        while let Some(item) = it.next(self)? {
            self.budget.tick(1)?;
            self.stack[frame.bp + *slot as usize] = item;
            self.run_binds(prologue, frame)?;
            if !self.for_clauses(rest, f, frame, out)? {
                break;
            }
        }
        Ok(true)
    }
}

/// Whether a `:while` belongs to the binding whose following clauses are
/// `rest` (it may end that binding's iteration).
fn stops_itself(rest: &[ForClause]) -> bool {
    rest.iter()
        .take_while(|c| !matches!(c, ForClause::Each { .. }))
        .any(|c| matches!(c, ForClause::While(_)))
}
