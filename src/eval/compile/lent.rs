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

use crate::analyze::expr::{Expr, FnArity};
use crate::builtins::string::TextTest;
use crate::builtins::Builtin;
use crate::error::{Result, Span};
use crate::value::Value;

use super::{Code, Interp};

/// Most arguments a call lends constants to (a stack array).
const MOST: usize = 8;

/// Whether a call of `b` with `n` arguments may lend them: `b` only reads
/// its arguments (no owning entry), accepts `n`, and they fit the stack
/// array.
fn lendable(b: &Builtin, n: usize) -> bool {
    b.owned.is_none() && b.arity.accepts(n) && n <= MOST
}

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
    if !lendable(b, args.len())
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

/// A closure whose whole body is one call of a builtin that only reads its
/// arguments, on its one parameter and constants (`(fn [s]
/// (clojure.string/includes? s "GAMMA"))`, `#(clojure.string/replace % "-"
/// "_")`): called over and over by one builtin (`eval/repeat.rs`), it
/// lends the item as well as the constants, so no count is added to the
/// item to store it in the parameter's slot and none taken when the body
/// is done with it. Sound as lending constants is: the item is borrowed
/// (`&Value`) by the caller for the whole call.
#[derive(Clone, Copy)]
pub(crate) struct LendBody<'a> {
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
    /// `(includes? x "t")`, `starts-with?`, `ends-with?` of the parameter
    /// and a constant needle: answered as the compiled body answers it
    /// (`call::text_test`), the builtin called only for anything else.
    test: Option<(TextTest, &'a str)>,
}

impl<'a> LendBody<'a> {
    /// The body of `arity` when it is such a call: one fixed parameter, no
    /// destructuring prologue, no `recur`, a builtin with no owning entry
    /// that accepts the arguments, and every argument a constant or a read
    /// of the parameter (slot 0).
    pub(crate) fn of(arity: &'a FnArity) -> Option<LendBody<'a>> {
        let Expr::CallBuiltin(b, args, span) = &arity.body else {
            return None;
        };
        let param = |a: &Expr| {
            matches!(
                a,
                Expr::Local(0) | Expr::MoveLocal(0) | Expr::MoveLocalLate(0)
            )
        };
        let fits = arity.fixed == 1
            && !arity.variadic
            && !arity.recurs
            && arity.prologue.is_empty()
            && lendable(b, args.len())
            && args.iter().any(param)
            && args.iter().all(|a| param(a) || matches!(a, Expr::Const(_)));
        let test = match &args[..] {
            [x, Expr::Const(Value::Str(p))] if param(x) => {
                crate::builtins::string::text_test(b).map(|t| (t, &**p))
            }
            _ => None,
        };
        fits.then_some(LendBody {
            b,
            args,
            span: *span,
            test,
        })
    }

    /// The body's call with `x` as the parameter: the builtin on `x` and
    /// the constants, all lent; its steps, marks and errors those of
    /// [`Interp::call_builtin`], its errors given the body's span.
    #[inline]
    pub(crate) fn call(&self, it: &mut Interp, x: &Value) -> Result<Value> {
        if let Some((t, p)) = self.test {
            if let Some((found, ticks)) = super::call::text_answer(it, t, x, p) {
                return super::call::text_charge(it, ticks, found)
                    .map_err(|e| e.or_span(self.span));
            }
        }
        let mut vals = Lent::new();
        for a in self.args {
            match a {
                Expr::Const(v) => vals.lend(v),
                _ => vals.lend(x),
            }
        }
        it.call_builtin(self.b, vals.as_slice())
            .map_err(|e| e.or_span(self.span))
    }
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
