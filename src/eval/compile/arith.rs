//! Compiled arithmetic and comparisons: `Arith2` (`+ - * < > <= >= = mod
//! rem quot` on two operands) and `Step` (`inc`/`dec`), with the walker's
//! semantics (`walk.rs`): two integers or two floats are computed inline,
//! one step charged, the result marked when an operand is hidden;
//! equal-kind texts compare inline for `=`; anything else calls the builtin.
//!
//! Operands that are locals or constants are read in place: an integer in
//! a slot is copied out as an `i64`, never cloned as a `Value`.

use crate::analyze::expr::{ArithOp, Expr};
use crate::builtins::Builtin;
use crate::error::{Result, Span};
use crate::value::Value;

use super::{compile, Code, Interp, Test};
use crate::eval::Frame;

/// An operand, read where it is when it is a local or a constant.
enum Operand<'a> {
    Local(usize),
    Const(&'a Value),
    Code(Code<'a>),
}

impl<'a> Operand<'a> {
    fn of(e: &'a Expr) -> Operand<'a> {
        match e {
            Expr::Local(s) => Operand::Local(*s as usize),
            Expr::Const(v) => Operand::Const(v),
            other => Operand::Code(compile(other)),
        }
    }

    #[inline(always)]
    fn value(&self, it: &mut Interp, f: Frame) -> Result<Value> {
        match self {
            Operand::Local(s) => Ok(it.stack[f.bp + s].clone()),
            Operand::Const(v) => Ok((*v).clone()),
            Operand::Code(c) => c(it, f),
        }
    }

    /// The integer a local or constant operand holds now.
    #[inline(always)]
    fn int(&self, it: &Interp, f: Frame) -> Option<i64> {
        match self {
            Operand::Local(s) => match it.stack[f.bp + s] {
                Value::Int(i) => Some(i),
                _ => None,
            },
            Operand::Const(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    fn is_leaf(&self) -> bool {
        !matches!(self, Operand::Code(_))
    }
}

/// `Arith2` on two evaluated operands (the walker's and compiled code's).
#[inline(always)]
pub(in crate::eval) fn finish(
    it: &mut Interp,
    op: ArithOp,
    x: Value,
    y: Value,
    b: &'static Builtin,
    span: Span,
) -> Result<Value> {
    let fast = match (&x, &y) {
        (Value::Int(a), Value::Int(c)) => op.ints(*a, *c),
        (Value::Float(a), Value::Float(c)) => op.floats(*a, *c),
        _ => None,
    };
    match fast {
        Some(v) => {
            if it.hidden.active() {
                it.mark_hidden_arith(&[&x, &y], &v);
            }
            // Numbers own nothing: skip the out-of-line drops.
            std::mem::forget(x);
            std::mem::forget(y);
            it.budget.tick(1)?;
            Ok(v)
        }
        // `(= (:status o) "paid")`: equal texts, no NaN to mind.
        None if op == ArithOp::Eq && super::super::walk::text_pair(&x, &y) => {
            it.budget.tick(1)?;
            Ok(Value::Bool(x == y))
        }
        None => it.call_builtin(b, &[x, y]).map_err(|e| e.or_span(span)),
    }
}

/// The integer result of two integers, charged and marked as the walker
/// does; `None` when the fast path does not apply.
#[inline(always)]
fn ints(it: &mut Interp, op: ArithOp, a: i64, c: i64) -> Option<Result<Value>> {
    let v = op.ints(a, c)?;
    if it.hidden.active() {
        it.mark_hidden_arith(&[&Value::Int(a), &Value::Int(c)], &v);
    }
    Some(it.budget.tick(1).map(|()| v))
}

pub(super) fn arith2<'a>(
    op: ArithOp,
    x: &'a Expr,
    y: &'a Expr,
    b: &'static Builtin,
    span: Span,
) -> Code<'a> {
    let x = Operand::of(x);
    let y = Operand::of(y);
    if x.is_leaf() && y.is_leaf() {
        return Box::new(move |it, f| {
            if let (Some(a), Some(c)) = (x.int(it, f), y.int(it, f)) {
                if let Some(r) = ints(it, op, a, c) {
                    return r;
                }
            }
            let xv = x.value(it, f)?;
            let yv = y.value(it, f)?;
            finish(it, op, xv, yv, b, span)
        });
    }
    if y.is_leaf() {
        let Operand::Code(xc) = x else { unreachable!() };
        return Box::new(move |it, f| {
            let xv = xc(it, f)?;
            if let (Value::Int(a), Some(c)) = (&xv, y.int(it, f)) {
                if let Some(r) = ints(it, op, *a, c) {
                    return r;
                }
            }
            let yv = y.value(it, f)?;
            finish(it, op, xv, yv, b, span)
        });
    }
    Box::new(move |it, f| {
        let xv = x.value(it, f)?;
        let yv = y.value(it, f)?;
        finish(it, op, xv, yv, b, span)
    })
}

/// `(< x y)` and the other comparisons as a condition: two integers are
/// compared without building the boolean (whose mark, were an operand
/// hidden, would be no mark: booleans are never marked). `None` for
/// anything but a comparison.
pub(super) fn test(c: &Expr) -> Option<Test<'_>> {
    let Expr::Arith2(op, args, b, span) = c else {
        return None;
    };
    let (op, b, span) = (*op, *b, *span);
    op.test_ints(0, 0)?;
    let x = Operand::of(&args.0);
    let y = Operand::of(&args.1);
    Some(Box::new(move |it, f| {
        if let (Some(a), Some(c)) = (x.int(it, f), y.int(it, f)) {
            if let Some(t) = op.test_ints(a, c) {
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        let xv = x.value(it, f)?;
        let yv = y.value(it, f)?;
        if let (Value::Int(a), Value::Int(c)) = (&xv, &yv) {
            if let Some(t) = op.test_ints(*a, *c) {
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        Ok(finish(it, op, xv, yv, b, span)?.truthy())
    }))
}

/// `inc`/`dec`.
pub(super) fn step<'a>(step: i64, x: &'a Expr, b: &'static Builtin, span: Span) -> Code<'a> {
    let x = Operand::of(x);
    Box::new(move |it, f| {
        if let Some(i) = x.int(it, f) {
            if let Some(n) = i.checked_add(step) {
                return ints_step(it, i, n);
            }
        }
        let xv = x.value(it, f)?;
        if let Value::Int(i) = xv {
            if let Some(n) = i.checked_add(step) {
                return ints_step(it, i, n);
            }
        }
        it.call_builtin(b, &[xv]).map_err(|e| e.or_span(span))
    })
}

#[inline(always)]
fn ints_step(it: &mut Interp, i: i64, n: i64) -> Result<Value> {
    if it.hidden.active() {
        it.mark_hidden_arith(&[&Value::Int(i)], &Value::Int(n));
    }
    it.budget.tick(1)?;
    Ok(Value::Int(n))
}
