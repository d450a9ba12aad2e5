//! The arguments of a compiled call ([`ArgsCode`]): evaluated in order
//! into a stack array (up to eight) for a builtin, or onto the value stack
//! where a closure's frame starts; an argument taking a local late
//! ([`Expr::MoveLocalLate`]) filled in after the others.

use crate::analyze::expr::Expr;
use crate::builtins::Builtin;
use crate::error::Result;
use crate::value::Value;

use super::{compile, Code, Interp};
use crate::eval::Frame;

/// Compiled arguments, evaluated into a stack array when there are few.
pub(super) enum ArgsCode<'a> {
    Zero,
    One(Code<'a>),
    Two(Code<'a>, Code<'a>),
    Three(Code<'a>, Code<'a>, Code<'a>),
    Many(Vec<Code<'a>>),
    /// Arguments one of which takes a local late ([`Expr::MoveLocalLate`]):
    /// the arguments (`Two`, `Three` or `Many`, `nil` in its place), its
    /// position and the local's slot. (Any other such argument of the
    /// call reads its local as a [`Expr::Local`] does.)
    Late(Box<ArgsCode<'a>>, usize, usize),
}

impl<'a> ArgsCode<'a> {
    pub(super) fn of(args: &'a [Expr]) -> ArgsCode<'a> {
        ArgsCode::from_codes(args.iter().map(compile).collect())
    }

    /// The arguments of a call of `b`: an argument taking a local late
    /// ([`ArgsCode::Late`]), a function it only calls built once
    /// (`once.rs`).
    pub(super) fn of_call(b: &'static Builtin, args: &'a [Expr]) -> ArgsCode<'a> {
        let late = args.iter().enumerate().find_map(|(i, a)| match a {
            Expr::MoveLocalLate(s) => Some((i, *s as usize)),
            _ => None,
        });
        let codes = args.iter().enumerate().map(|(i, a)| match late {
            Some((l, _)) if l == i => Box::new(|_: &mut Interp, _: Frame| Ok(Value::Nil)),
            _ => super::once::arg(b, i, a),
        });
        let codes = ArgsCode::from_codes(codes.collect());
        match late {
            Some((i, slot)) => ArgsCode::Late(Box::new(codes), i, slot),
            None => codes,
        }
    }

    /// The arguments compiled to `codes`, in order.
    fn from_codes(codes: Vec<Code<'a>>) -> ArgsCode<'a> {
        let mut codes = codes.into_iter();
        match (codes.next(), codes.next(), codes.next(), codes.len()) {
            (None, ..) => ArgsCode::Zero,
            (Some(a), None, ..) => ArgsCode::One(a),
            (Some(a), Some(b), None, _) => ArgsCode::Two(a, b),
            (Some(a), Some(b), Some(c), 0) => ArgsCode::Three(a, b, c),
            (Some(a), Some(b), Some(c), _) => {
                ArgsCode::Many([a, b, c].into_iter().chain(codes).collect())
            }
        }
    }

    /// Evaluates the arguments and passes them to `k`.
    #[inline(always)]
    pub(super) fn with(
        &self,
        it: &mut Interp,
        f: Frame,
        k: impl FnOnce(&mut Interp, &mut [Value]) -> Result<Value>,
    ) -> Result<Value> {
        match self {
            ArgsCode::Zero => k(it, &mut []),
            ArgsCode::One(a) => {
                let a = a(it, f)?;
                k(it, &mut [a])
            }
            ArgsCode::Two(a, b) => {
                let a = a(it, f)?;
                let b = b(it, f)?;
                k(it, &mut [a, b])
            }
            ArgsCode::Three(a, b, c) => {
                let a = a(it, f)?;
                let b = b(it, f)?;
                let c = c(it, f)?;
                k(it, &mut [a, b, c])
            }
            // Up to eight (`(str "k" i "-" x …)`) in a stack array too.
            ArgsCode::Many(codes) if codes.len() <= 8 => {
                let mut vals: [Value; 8] = [const { Value::Nil }; 8];
                for (slot, c) in vals.iter_mut().zip(codes) {
                    Value::fill(slot, c(it, f)?);
                }
                k(it, &mut vals[..codes.len()])
            }
            ArgsCode::Many(codes) => {
                let mut vals = Vec::with_capacity(codes.len());
                for c in codes {
                    vals.push(c(it, f)?);
                }
                k(it, &mut vals)
            }
            ArgsCode::Late(inner, i, s) => {
                // The arguments as the inner code evaluates them (written
                // out: `with` calling itself would never end compiling).
                let take = |it: &mut Interp| std::mem::replace(&mut it.stack[f.bp + s], Value::Nil);
                match &**inner {
                    ArgsCode::Two(a, b) => {
                        let a = a(it, f)?;
                        let b = b(it, f)?;
                        let mut vals = [a, b];
                        vals[*i] = take(it);
                        k(it, &mut vals)
                    }
                    ArgsCode::Three(a, b, c) => {
                        let a = a(it, f)?;
                        let b = b(it, f)?;
                        let c = c(it, f)?;
                        let mut vals = [a, b, c];
                        vals[*i] = take(it);
                        k(it, &mut vals)
                    }
                    other => {
                        let mut vals = other.values(it, f)?;
                        vals[*i] = take(it);
                        k(it, &mut vals)
                    }
                }
            }
        }
    }

    /// The arguments' values in a `Vec`, in order.
    pub(super) fn values(&self, it: &mut Interp, f: Frame) -> Result<Vec<Value>> {
        let codes: Vec<&Code> = match self {
            ArgsCode::Zero => vec![],
            ArgsCode::One(a) => vec![a],
            ArgsCode::Two(a, b) => vec![a, b],
            ArgsCode::Three(a, b, c) => vec![a, b, c],
            ArgsCode::Many(codes) => codes.iter().collect(),
            ArgsCode::Late(inner, i, s) => {
                let mut vals = inner.values(it, f)?;
                vals[*i] = std::mem::replace(&mut it.stack[f.bp + s], Value::Nil);
                return Ok(vals);
            }
        };
        codes.into_iter().map(|c| c(it, f)).collect()
    }
}

impl ArgsCode<'_> {
    /// Evaluates the arguments onto the evaluation stack, where a
    /// closure's frame starts (nested calls while they are evaluated push
    /// and pop above them), and returns their base; on an error the ones
    /// pushed are dropped.
    #[inline(always)]
    pub(super) fn push(&self, it: &mut Interp, f: Frame) -> Result<usize> {
        let bp = it.stack.len();
        match self {
            ArgsCode::Zero => {}
            ArgsCode::One(a) => {
                let v = a(it, f)?;
                it.push_value(v);
            }
            ArgsCode::Two(a, b) => {
                let v = a(it, f)?;
                it.push_value(v);
                let r = b(it, f);
                push_or_drop(it, bp, r)?;
            }
            ArgsCode::Three(a, b, c) => {
                let v = a(it, f)?;
                it.push_value(v);
                let r = b(it, f);
                push_or_drop(it, bp, r)?;
                let r = c(it, f);
                push_or_drop(it, bp, r)?;
            }
            ArgsCode::Many(codes) => {
                for c in codes {
                    let r = c(it, f);
                    push_or_drop(it, bp, r)?;
                }
            }
            // Built for builtins only (`of_call`); pushed all the same.
            ArgsCode::Late(..) => {
                for v in self.values(it, f)? {
                    it.push_value(v);
                }
            }
        }
        Ok(bp)
    }
}

/// Pushes an argument's value; on its error drops the ones above `bp`.
#[inline(always)]
fn push_or_drop(it: &mut Interp, bp: usize, r: Result<Value>) -> Result<()> {
    match r {
        Ok(v) => {
            it.push_value(v);
            Ok(())
        }
        Err(e) => {
            it.drop_frame(bp);
            Err(e)
        }
    }
}
