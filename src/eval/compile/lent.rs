//! Constant arguments lent to a builtin: `(replace s "-" "_")`,
//! `(split-lines s)` of a literal, `(get m [:a :b])` … A builtin that only
//! reads its arguments (no owning entry: `Builtin::owned` is `None`) gets
//! the constants of its call as bitwise copies of the values in the
//! analysed code instead of clones, so a call adds and takes no reference
//! count for them (two atomic operations each, ~40 cycles, on every call
//! of every iteration). The computed arguments are evaluated and owned as
//! [`super::args::ArgsCode`] owns them. Steps, marks of hidden data,
//! errors and results are the builtin's own, through
//! [`Interp::call_builtin`], as [`Interp::call_builtin_accepted`] gives
//! them for a builtin without an owning entry.
//!
//! Why the copies are sound: they are only ever seen as a `&[Value]` for
//! the length of the call, while the originals — constants of the analysed
//! code, which outlives the compiled code lending them — are alive and
//! never written (no `&mut` reaches the analysed tree during evaluation,
//! and a `Value` keeps no interior mutability in its own bits, only behind
//! its pointers, which copies and originals share). A builtin can clone
//! from a copy (a count added to the original's allocation, as a clone of
//! the original adds) but cannot move out of it or drop it. The copies are
//! never dropped: [`Lent`]'s drop drops only the values it owns.

use std::mem::MaybeUninit;

use crate::analyze::expr::Expr;
use crate::builtins::Builtin;
use crate::error::Span;
use crate::value::Value;

use super::{Code, Interp};

/// Most arguments a call lends constants to (a stack array).
const MOST: usize = 8;

/// An argument of a call that lends its constants.
enum Arg<'a> {
    /// A constant that holds an allocation, lent.
    Const(&'a Value),
    /// Anything else, evaluated (and owned) as usual.
    Code(Code<'a>),
}

/// `(b args…)` with its constants lent (module docs), when `b` has no
/// owning entry, accepts this many arguments, and at least one argument
/// is a constant holding an allocation; `None` otherwise (and for an
/// argument that takes a local late, or a function built once per site,
/// which `ArgsCode::of_call` handles).
pub(super) fn builtin<'a>(b: &'static Builtin, args: &'a [Expr], span: Span) -> Option<Code<'a>> {
    let lends = |a: &Expr| matches!(a, Expr::Const(v) if !v.is_scalar());
    if b.owned.is_some()
        || !b.arity.accepts(args.len())
        || args.len() > MOST
        || !args.iter().any(lends)
        || args.iter().enumerate().any(|(i, a)| {
            matches!(a, Expr::MoveLocalLate(_)) || super::once::OnceFn::of(b, i, a).is_some()
        })
    {
        return None;
    }
    let parts: Vec<Arg<'a>> = args
        .iter()
        .map(|a| match a {
            Expr::Const(v) if !v.is_scalar() => Arg::Const(v),
            _ => Arg::Code(super::compile(a)),
        })
        .collect();
    Some(Box::new(move |it: &mut Interp, f| {
        let mut vals = Lent::new();
        for p in &parts {
            match p {
                Arg::Const(v) => vals.lend(v),
                Arg::Code(c) => vals.own(c(it, f).map_err(|e| e.or_span(span))?),
            }
        }
        it.call_builtin(b, vals.as_slice())
            .map_err(|e| e.or_span(span))
    }))
}

/// Up to [`MOST`] arguments in a stack array, some owned and some lent
/// (bitwise copies of constants, module docs); dropping it drops only the
/// owned ones.
struct Lent {
    vals: [MaybeUninit<Value>; MOST],
    /// Bit `i` set: argument `i` is owned.
    owned: u8,
    len: usize,
}

impl Lent {
    #[inline(always)]
    fn new() -> Lent {
        Lent {
            vals: [const { MaybeUninit::uninit() }; MOST],
            owned: 0,
            len: 0,
        }
    }

    /// Appends a bitwise copy of `v`, never dropped.
    #[inline(always)]
    fn lend(&mut self, v: &Value) {
        // SAFETY (a copy that is never dropped, only read while `v` lives
        // unchanged): module docs. `len < MOST`: `builtin` compiles calls
        // of at most `MOST` arguments, one push each.
        self.vals[self.len].write(unsafe { std::ptr::read(v) });
        self.len += 1;
    }

    /// Appends `v`, dropped with the array.
    #[inline(always)]
    fn own(&mut self, v: Value) {
        self.vals[self.len].write(v);
        self.owned |= 1 << self.len;
        self.len += 1;
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Value] {
        // SAFETY: the first `len` elements are written (`lend`, `own`), and
        // `MaybeUninit<Value>` has `Value`'s layout.
        unsafe { std::slice::from_raw_parts(self.vals.as_ptr().cast::<Value>(), self.len) }
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        for (i, v) in self.vals[..self.len].iter_mut().enumerate() {
            if self.owned & (1 << i) != 0 {
                // SAFETY: written by `own`, dropped once, here.
                unsafe { v.assume_init_drop() };
            }
        }
    }
}
