//! Compiled arithmetic and comparisons: `Arith2` (`+ - * < > <= >= = mod
//! rem quot` on two operands) and `Step` (`inc`/`dec`), with the walker's
//! semantics (`walk.rs`): two integers or two floats are computed inline,
//! one step charged, the result marked when an operand is hidden;
//! equal-kind texts compare inline for `=`; anything else calls the builtin.
//!
//! Operands that are locals, captured values or constants are read in
//! place: an integer in a slot is copied out as an `i64`, never cloned as
//! a `Value`.

use crate::analyze::expr::{ArithOp, Expr};
use crate::builtins::Builtin;
use crate::error::{Result, Span};
use crate::value::map::same_key;
use crate::value::{Kw, Value};

use super::{compile, Code, Interp, Test};
use crate::eval::Frame;

/// An operand, read where it is when it is a local, a closure's captured
/// value or a constant.
enum Operand<'a> {
    Local(usize),
    Capture(usize),
    Const(&'a Value),
    Code(Code<'a>),
}

impl<'a> Operand<'a> {
    fn of(e: &'a Expr) -> Operand<'a> {
        match e {
            Expr::Local(s) => Operand::Local(*s as usize),
            Expr::Capture(i) => Operand::Capture(*i as usize),
            Expr::Const(v) => Operand::Const(v),
            other => Operand::Code(compile(other)),
        }
    }

    #[inline(always)]
    fn value(&self, it: &mut Interp, f: Frame) -> Result<Value> {
        match self {
            Operand::Local(s) => Ok(it.stack[f.bp + s].clone()),
            Operand::Capture(i) => super::captured(f, *i),
            Operand::Const(v) => Ok((*v).clone()),
            Operand::Code(c) => c(it, f),
        }
    }

    /// The integer a local, captured or constant operand holds now.
    #[inline(always)]
    fn int(&self, it: &Interp, f: Frame) -> Option<i64> {
        match self {
            Operand::Local(s) => match it.stack[f.bp + s] {
                Value::Int(i) => Some(i),
                _ => None,
            },
            Operand::Capture(i) => match f.closure?.captures[*i] {
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
            Ok(Value::Bool(same_key(&x, &y)))
        }
        None => it.call_builtin(b, &[x, y]).map_err(|e| e.or_span(span)),
    }
}

/// The integer result of two integers, charged and marked as the walker
/// does; `None` when the fast path does not apply.
#[inline(always)]
fn ints(it: &mut Interp, op: ArithOp, a: i64, c: i64) -> Option<Result<Value>> {
    let v = op.ints(a, c)?;
    Some(charged(it, a, c, v, 1))
}

/// `v`, the result of an operation on integers `a` and `c`, charged its
/// step and any `steps - 1` before it (one tick: nothing between them is
/// seen) and marked when hidden data is about.
#[inline(always)]
fn charged(it: &mut Interp, a: i64, c: i64, v: Value, steps: u64) -> Result<Value> {
    if it.hidden.active() {
        it.mark_hidden_arith(&[&Value::Int(a), &Value::Int(c)], &v);
    }
    it.budget.tick(steps).map(|()| v)
}

/// Forgets two values known to be numbers (or nil): they own nothing, so
/// the out-of-line drop each would call is skipped.
#[inline(always)]
fn forget_ints(x: Value, y: Value) {
    debug_assert!(matches!(x, Value::Int(_) | Value::Nil));
    debug_assert!(matches!(y, Value::Int(_) | Value::Nil));
    std::mem::forget(x);
    std::mem::forget(y);
}

/// The operation a const generic parameter names (`ArithOp as u8`, what
/// [`by_op`] passes): a constant per instance, so `ints`/`test_ints` fold
/// to one instruction. Closures write it as `const { op_of::<OP>() }` in
/// their bodies: an `op` bound outside and captured would be read from the
/// closure's environment, a jump on the operation at every call.
#[inline(always)]
pub(super) const fn op_of<const OP: u8>() -> ArithOp {
    const ALL: [ArithOp; 11] = [
        ArithOp::Add,
        ArithOp::Sub,
        ArithOp::Mul,
        ArithOp::Lt,
        ArithOp::Gt,
        ArithOp::Le,
        ArithOp::Ge,
        ArithOp::Eq,
        ArithOp::Mod,
        ArithOp::Rem,
        ArithOp::Quot,
    ];
    let mut i = 0;
    while i < ALL.len() {
        if ALL[i] as u8 == OP {
            return ALL[i];
        }
        i += 1;
    }
    panic!("not an ArithOp")
}

/// Calls `$f::<OP>($args)` with `OP` the constant of `$op`.
macro_rules! by_op {
    ($op:expr, $f:ident ( $($arg:expr),* )) => {
        match $op {
            ArithOp::Add => $f::<{ ArithOp::Add as u8 }>($($arg),*),
            ArithOp::Sub => $f::<{ ArithOp::Sub as u8 }>($($arg),*),
            ArithOp::Mul => $f::<{ ArithOp::Mul as u8 }>($($arg),*),
            ArithOp::Lt => $f::<{ ArithOp::Lt as u8 }>($($arg),*),
            ArithOp::Gt => $f::<{ ArithOp::Gt as u8 }>($($arg),*),
            ArithOp::Le => $f::<{ ArithOp::Le as u8 }>($($arg),*),
            ArithOp::Ge => $f::<{ ArithOp::Ge as u8 }>($($arg),*),
            ArithOp::Eq => $f::<{ ArithOp::Eq as u8 }>($($arg),*),
            ArithOp::Mod => $f::<{ ArithOp::Mod as u8 }>($($arg),*),
            ArithOp::Rem => $f::<{ ArithOp::Rem as u8 }>($($arg),*),
            ArithOp::Quot => $f::<{ ArithOp::Quot as u8 }>($($arg),*),
        }
    };
}

/// The two leaf shapes specialised per operation: a local and an integer
/// constant (`(- n 1)`, `(< i 10)`, `(mod i 3)`), and two locals.
enum Leaves {
    LocalInt(usize, i64),
    Locals(usize, usize),
}

impl Leaves {
    fn of(x: &Operand, y: &Operand) -> Option<Leaves> {
        match (x, y) {
            (Operand::Local(s), Operand::Const(Value::Int(c))) => Some(Leaves::LocalInt(*s, *c)),
            (Operand::Local(s), Operand::Local(t)) => Some(Leaves::Locals(*s, *t)),
            _ => None,
        }
    }
}

/// `Arith2` of a [`Leaves`] shape, the operation a constant.
fn leaves_arith<'a, const OP: u8>(
    leaves: Leaves,
    x: Operand<'a>,
    y: Operand<'a>,
    b: &'static Builtin,
    span: Span,
) -> Code<'a> {
    // Two integers: computed and charged here; anything else (overflow,
    // a hidden operand, other types) goes the general way.
    let slow = move |it: &mut Interp, f: Frame| -> Result<Value> {
        if let (Some(a), Some(c)) = (x.int(it, f), y.int(it, f)) {
            if let Some(r) = ints(it, const { op_of::<OP>() }, a, c) {
                return r;
            }
        }
        let xv = x.value(it, f)?;
        let yv = y.value(it, f)?;
        finish(it, const { op_of::<OP>() }, xv, yv, b, span)
    };
    match leaves {
        Leaves::LocalInt(s, c) => Box::new(move |it, f| {
            if let Value::Int(a) = it.stack[f.bp + s] {
                if !it.hidden.active() {
                    if let Some(v) = const { op_of::<OP>() }.ints(a, c) {
                        it.budget.tick(1)?;
                        return Ok(v);
                    }
                }
            }
            slow(it, f)
        }),
        Leaves::Locals(s, t) => Box::new(move |it, f| {
            if let (Value::Int(a), Value::Int(c)) = (&it.stack[f.bp + s], &it.stack[f.bp + t]) {
                if !it.hidden.active() {
                    if let Some(v) = const { op_of::<OP>() }.ints(*a, *c) {
                        it.budget.tick(1)?;
                        return Ok(v);
                    }
                }
            }
            slow(it, f)
        }),
    }
}

/// A comparison of a [`Leaves`] shape as a condition, the operation a
/// constant.
fn leaves_test<'a, const OP: u8>(
    leaves: Leaves,
    x: Operand<'a>,
    y: Operand<'a>,
    b: &'static Builtin,
    span: Span,
) -> Test<'a> {
    let slow = move |it: &mut Interp, f: Frame| -> Result<bool> {
        let xv = x.value(it, f)?;
        let yv = y.value(it, f)?;
        if let (Value::Int(a), Value::Int(c)) = (&xv, &yv) {
            if let Some(t) = const { op_of::<OP>() }.test_ints(*a, *c) {
                forget_ints(xv, yv);
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        Ok(finish(it, const { op_of::<OP>() }, xv, yv, b, span)?.truthy())
    };
    match leaves {
        Leaves::LocalInt(s, c) => Box::new(move |it, f| match local_int_cmp::<OP>(it, f, s, c) {
            Some(t) => it.budget.tick(1).map(|()| t),
            None => slow(it, f),
        }),
        Leaves::Locals(s, t) => Box::new(move |it, f| match locals_cmp::<OP>(it, f, s, t) {
            Some(t) => it.budget.tick(1).map(|()| t),
            None => slow(it, f),
        }),
    }
}

/// A comparison of a local and an integer constant when the local holds
/// an integer (the answer [`leaves_test`] charges one step for).
#[inline(always)]
fn local_int_cmp<const OP: u8>(it: &Interp, f: Frame, s: usize, c: i64) -> Option<bool> {
    match it.stack[f.bp + s] {
        Value::Int(a) => const { op_of::<OP>() }.test_ints(a, c),
        _ => None,
    }
}

/// A comparison of two locals that hold integers.
#[inline(always)]
fn locals_cmp<const OP: u8>(it: &Interp, f: Frame, s: usize, t: usize) -> Option<bool> {
    match (&it.stack[f.bp + s], &it.stack[f.bp + t]) {
        (Value::Int(a), Value::Int(c)) => const { op_of::<OP>() }.test_ints(*a, *c),
        _ => None,
    }
}

/// `(if (< n 2) then else)`: an `if` whose condition compares two
/// [`Leaves`] answers two integers in place (one step, as
/// [`leaves_test`]) and runs its branch from the same closure; anything
/// else is the condition's own [`Test`] (`test`).
pub(super) fn branch<'a>(c: &'a Expr, t: Code<'a>, e: Code<'a>) -> Code<'a> {
    let test = super::test(c);
    let leaves = match c {
        Expr::Arith2(op, args, ..) if op.test_ints(0, 0).is_some() => {
            Leaves::of(&Operand::of(&args.0), &Operand::of(&args.1)).map(|l| (*op, l))
        }
        _ => None,
    };
    match leaves {
        Some((op, leaves)) => by_op!(op, branch_leaves(leaves, test, t, e)),
        None => Box::new(move |it, f| if test(it, f)? { t(it, f) } else { e(it, f) }),
    }
}

/// [`branch`] of a [`Leaves`] comparison, the operation a constant.
fn branch_leaves<'a, const OP: u8>(
    leaves: Leaves,
    test: Test<'a>,
    t: Code<'a>,
    e: Code<'a>,
) -> Code<'a> {
    match leaves {
        Leaves::LocalInt(s, c) => Box::new(move |it, f| {
            if answered(it, f, local_int_cmp::<OP>(it, f, s, c), &test)? {
                t(it, f)
            } else {
                e(it, f)
            }
        }),
        Leaves::Locals(s, u) => Box::new(move |it, f| {
            if answered(it, f, locals_cmp::<OP>(it, f, s, u), &test)? {
                t(it, f)
            } else {
                e(it, f)
            }
        }),
    }
}

/// A condition's truth: a comparison answered in place (`yes`) charged
/// its one step, anything else the condition's own test.
#[inline(always)]
fn answered(it: &mut Interp, f: Frame, yes: Option<bool>, test: &Test) -> Result<bool> {
    match yes {
        Some(yes) => it.budget.tick(1).map(|()| yes),
        None => test(it, f),
    }
}

/// `Arith2` of computed code and an integer constant (`(mod (* i 7)
/// 100)`, `(- (:price r) 5)`), the operation a constant.
fn code_int_arith<'a, const OP: u8>(
    xc: Code<'a>,
    c: i64,
    b: &'static Builtin,
    span: Span,
) -> Code<'a> {
    Box::new(move |it, f| {
        let xv = xc(it, f)?;
        if let Value::Int(a) = xv {
            if let Some(r) = ints(it, const { op_of::<OP>() }, a, c) {
                forget_ints(xv, Value::Nil);
                return r;
            }
        }
        finish(it, const { op_of::<OP>() }, xv, Value::Int(c), b, span)
    })
}

/// A comparison of computed code and an integer constant as a condition
/// (`(> (:price r) 50)`), the operation a constant.
fn code_int_test<'a, const OP: u8>(
    xc: Code<'a>,
    c: i64,
    b: &'static Builtin,
    span: Span,
) -> Test<'a> {
    Box::new(move |it, f| {
        let xv = xc(it, f)?;
        if let Value::Int(a) = xv {
            if let Some(t) = const { op_of::<OP>() }.test_ints(a, c) {
                forget_ints(xv, Value::Nil);
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        Ok(finish(it, const { op_of::<OP>() }, xv, Value::Int(c), b, span)?.truthy())
    })
}

/// `(= x "text")` (or a keyword): computed code against a constant text,
/// compared in place (the constant never cloned); anything else the
/// general way.
fn code_text_eq<'a>(xc: Code<'a>, c: &'a Value, b: &'static Builtin, span: Span) -> Code<'a> {
    Box::new(move |it, f| {
        let xv = xc(it, f)?;
        if super::super::walk::text_pair(&xv, c) {
            it.budget.tick(1)?;
            // Two texts: `=` is the same text, compared inline
            // ([`same_text`]).
            return Ok(Value::Bool(same_text(&xv, c)));
        }
        finish(it, ArithOp::Eq, xv, c.clone(), b, span)
    })
}

/// Whether `y` is a constant text (a string or keyword).
fn const_text<'a>(y: &Operand<'a>) -> Option<&'a Value> {
    match y {
        Operand::Const(c @ (Value::Str(_) | Value::Keyword(_))) => Some(c),
        _ => None,
    }
}

pub(super) fn arith2<'a>(
    op: ArithOp,
    x: &'a Expr,
    y: &'a Expr,
    b: &'static Builtin,
    span: Span,
) -> Code<'a> {
    let field = field_of(x);
    let x = Operand::of(x);
    let y = Operand::of(y);
    if let Some(leaves) = Leaves::of(&x, &y) {
        return by_op!(op, leaves_arith(leaves, x, y, b, span));
    }
    if let (Operand::Code(_), Operand::Const(Value::Int(c))) = (&x, &y) {
        let c = *c;
        let Operand::Code(xc) = x else { unreachable!() };
        let code = by_op!(op, code_int_arith(xc, c, b, span));
        return match field {
            Some((s, k)) => by_op!(op, field_int_arith(s, k, c, code)),
            None => code,
        };
    }
    if let (ArithOp::Eq, Operand::Code(_), Some(c)) = (op, &x, const_text(&y)) {
        let Operand::Code(xc) = x else { unreachable!() };
        let code = code_text_eq(xc, c, b, span);
        return match field {
            Some((s, k)) => field_text_eq(s, k, c, code),
            None => code,
        };
    }
    by_op!(op, general_arith(x, y, b, span))
}

/// `(:k r)` (`(get r :k)`) of a record in a local: the shapes below read
/// its field where it is, found by the interned keyword
/// (`Map::get_interned`), with the lookup's step; a field not found so (a
/// key of another kind, a large map, not a map) runs the lookup's code.
fn field_of(e: &Expr) -> Option<(usize, &Kw)> {
    match e {
        Expr::Get(mk) => match &**mk {
            (Expr::Local(s), Expr::Const(Value::Keyword(k))) => Some((*s as usize, k)),
            _ => None,
        },
        _ => None,
    }
}

/// The field [`field_of`] names, when the record holds it by the interned
/// keyword.
#[inline(always)]
fn field<'i>(it: &'i Interp, f: Frame, s: usize, k: &Kw) -> Option<&'i Value> {
    match &it.stack[f.bp + s] {
        Value::Map(m) => m.get_interned(k),
        _ => None,
    }
}

/// `(- (:price r) 5)`: an integer field and an integer constant, computed
/// in place with the lookup's step and the operation's (as `code`, the
/// lookup's code and [`code_int_arith`], charges them); anything else is
/// `code`.
fn field_int_arith<'a, const OP: u8>(s: usize, k: &'a Kw, c: i64, code: Code<'a>) -> Code<'a> {
    Box::new(move |it, f| {
        if let Some(&Value::Int(a)) = field(it, f, s, k) {
            if let Some(v) = const { op_of::<OP>() }.ints(a, c) {
                // The lookup's step and the operation's.
                return charged(it, a, c, v, 2);
            }
        }
        code(it, f)
    })
}

/// `(> (:price r) 50)` as a condition: [`field_int_arith`]'s shape as
/// [`code_int_test`] answers it; anything else is `test`.
fn field_int_test<'a, const OP: u8>(s: usize, k: &'a Kw, c: i64, test: Test<'a>) -> Test<'a> {
    Box::new(move |it, f| {
        if let Some(&Value::Int(a)) = field(it, f, s, k) {
            if let Some(t) = const { op_of::<OP>() }.test_ints(a, c) {
                // The lookup's step and the comparison's.
                it.budget.tick(2)?;
                return Ok(t);
            }
        }
        test(it, f)
    })
}

/// `(= (:cat r) "a")`: a text field and a constant text compared in place
/// (not cloned), with the lookup's step and `=`'s, as [`code_text_eq`];
/// anything else is `code`.
fn field_text_eq<'a>(s: usize, k: &'a Kw, c: &'a Value, code: Code<'a>) -> Code<'a> {
    Box::new(move |it, f| {
        if let Some(v) = field(it, f, s, k) {
            if super::super::walk::text_pair(v, c) {
                let eq = same_text(v, c);
                it.budget.tick(2)?;
                return Ok(Value::Bool(eq));
            }
        }
        code(it, f)
    })
}

/// `=` of a text and a constant text ([`text_pair`](super::super::walk::text_pair)):
/// a short constant (a category, a status) compared byte by byte inline,
/// not through `memcmp`.
#[inline(always)]
fn same_text(v: &Value, c: &Value) -> bool {
    match (v, c) {
        (Value::Str(a), Value::Str(b)) if b.len() <= 8 => {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
        }
        _ => same_key(v, c),
    }
}

/// The rest of [`arith2`]'s shapes (two leaves of other kinds, a leaf and
/// code, code and code: `(+ (fib (- n 1)) (fib (- n 2)))`), the
/// operation a constant.
fn general_arith<'a, const OP: u8>(
    x: Operand<'a>,
    y: Operand<'a>,
    b: &'static Builtin,
    span: Span,
) -> Code<'a> {
    if x.is_leaf() && y.is_leaf() {
        return Box::new(move |it, f| {
            if let (Some(a), Some(c)) = (x.int(it, f), y.int(it, f)) {
                if let Some(r) = ints(it, const { op_of::<OP>() }, a, c) {
                    return r;
                }
            }
            let xv = x.value(it, f)?;
            let yv = y.value(it, f)?;
            finish(it, const { op_of::<OP>() }, xv, yv, b, span)
        });
    }
    if y.is_leaf() {
        let Operand::Code(xc) = x else { unreachable!() };
        return Box::new(move |it, f| {
            let xv = xc(it, f)?;
            if let (Value::Int(a), Some(c)) = (&xv, y.int(it, f)) {
                if let Some(r) = ints(it, const { op_of::<OP>() }, *a, c) {
                    forget_ints(xv, Value::Nil);
                    return r;
                }
            }
            let yv = y.value(it, f)?;
            finish(it, const { op_of::<OP>() }, xv, yv, b, span)
        });
    }
    if x.is_leaf() {
        // `(+ acc (mod …))`: the leaf's integer read in place (before the
        // code runs; a leaf's slot does not change while it does).
        let Operand::Code(yc) = y else { unreachable!() };
        return Box::new(move |it, f| {
            let a = x.int(it, f);
            let yv = yc(it, f)?;
            if let (Some(a), Value::Int(c)) = (a, &yv) {
                if let Some(r) = ints(it, const { op_of::<OP>() }, a, *c) {
                    forget_ints(yv, Value::Nil);
                    return r;
                }
            }
            let xv = x.value(it, f)?;
            finish(it, const { op_of::<OP>() }, xv, yv, b, span)
        });
    }
    // Code and code: both run, two integers computed here.
    let (Operand::Code(xc), Operand::Code(yc)) = (x, y) else {
        unreachable!("the leaf shapes returned above")
    };
    Box::new(move |it, f| {
        let xv = xc(it, f)?;
        let yv = yc(it, f)?;
        if let (Value::Int(a), Value::Int(c)) = (&xv, &yv) {
            if let Some(r) = ints(it, const { op_of::<OP>() }, *a, *c) {
                forget_ints(xv, yv);
                return r;
            }
        }
        finish(it, const { op_of::<OP>() }, xv, yv, b, span)
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
    let field = field_of(&args.0);
    let x = Operand::of(&args.0);
    let y = Operand::of(&args.1);
    if let Some(leaves) = Leaves::of(&x, &y) {
        return Some(by_op!(op, leaves_test(leaves, x, y, b, span)));
    }
    if let (ArithOp::Eq, Operand::Code(_), Some(c)) = (op, &x, const_text(&y)) {
        let Operand::Code(xc) = x else { unreachable!() };
        let mut eq = code_text_eq(xc, c, b, span);
        if let Some((s, k)) = field {
            eq = field_text_eq(s, k, c, eq);
        }
        return Some(Box::new(move |it, f| Ok(eq(it, f)?.truthy())));
    }
    if let (Operand::Code(_), Operand::Const(Value::Int(c))) = (&x, &y) {
        let c = *c;
        let Operand::Code(xc) = x else { unreachable!() };
        let test = by_op!(op, code_int_test(xc, c, b, span));
        return Some(match field {
            Some((s, k)) => by_op!(op, field_int_test(s, k, c, test)),
            None => test,
        });
    }
    Some(by_op!(op, general_test(x, y, b, span)))
}

/// The rest of [`test`]'s comparisons (`(< (count xs) n)`), the
/// operation a constant.
fn general_test<'a, const OP: u8>(
    x: Operand<'a>,
    y: Operand<'a>,
    b: &'static Builtin,
    span: Span,
) -> Test<'a> {
    Box::new(move |it, f| {
        if let (Some(a), Some(c)) = (x.int(it, f), y.int(it, f)) {
            if let Some(t) = const { op_of::<OP>() }.test_ints(a, c) {
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        let xv = x.value(it, f)?;
        let yv = y.value(it, f)?;
        if let (Value::Int(a), Value::Int(c)) = (&xv, &yv) {
            if let Some(t) = const { op_of::<OP>() }.test_ints(*a, *c) {
                forget_ints(xv, yv);
                it.budget.tick(1)?;
                return Ok(t);
            }
        }
        Ok(finish(it, const { op_of::<OP>() }, xv, yv, b, span)?.truthy())
    })
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
                forget_ints(xv, Value::Nil);
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
