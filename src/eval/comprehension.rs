//! `for` and `doseq`: nested bindings with `:let`, `:when` and `:while`,
//! each collection walked item by item ([`iter::SeqIter`]), so an infinite
//! one ends under `:while`.

use super::{iter, Frame, Interp};
use crate::analyze::expr::{For, ForClause};
use crate::error::Result;
use crate::value::{Value, Vector};

impl Interp {
    pub(super) fn eval_for(&mut self, f: &For, frame: Frame) -> Result<Value> {
        let mut out = Vector::new();
        self.for_clauses(&f.clauses, f, frame, &mut out)
            .map_err(|e| e.or_span(f.span))?;
        Ok(if f.collect {
            Value::vector(out)
        } else {
            Value::Nil
        })
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
            ForClause::Each {
                slot,
                coll,
                prologue,
            } => {
                let coll = self.eval(coll, frame)?;
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
}
