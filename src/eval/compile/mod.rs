//! The compiler: an analysed [`Expr`] tree becomes a tree of Rust closures,
//! built once per function arity (at its first call) and once per top-level
//! `loop` (the first time the tree walker meets it), then run on every call
//! or iteration without matching on node kinds again.
//!
//! What compiling buys over the tree walker (`walk.rs`):
//! - locals, captures and constants are read by closures that know their
//!   slot index or value; an operand that is a local or a constant is read
//!   in place by its parent (no call, no clone of a number);
//! - arithmetic and comparisons on two integers (`+ - * < > <= >= = mod rem
//!   quot`, `inc`/`dec`) are computed on `i64`s: a test such as `(< i n)`
//!   never builds its boolean; the common shapes (a local and an integer
//!   constant, two locals, computed code and an integer constant) get one
//!   closure per operation, the operation a constant in it (`arith.rs`);
//!   `(= x "text")` compares with the constant in place; a record's field
//!   compared or computed with a constant (`(> (:price r) 50)`, `(= (:cat
//!   r) "a")`) is read in place, not cloned; an `if` on a comparison of
//!   two leaves runs its branch from the comparison's own closure;
//! - `(str "k" i …)` writes its constant texts in place, `(nth [:a :b] i)`
//!   reads its constant table in place, `(zero? x)`, `(even? x)` … answer
//!   an integer in place (`call.rs`);
//! - `(:k m)`/`(get m k)` with a constant key read a local map in place;
//!   `(get m k)`, `(contains? s x)` with a plain key borrow a collection in
//!   a local, a capture or a definition (`place.rs`); `(includes? s "t")`,
//!   `starts-with?`, `ends-with?` with a constant needle test a text in
//!   place; `(count x)` counts in place (borrowed when it can be);
//! - builtins are bound at analysis and called with their arguments in a
//!   stack array (`args.rs`: an argument taking a local late,
//!   `Expr::MoveLocalLate`, filled in after the others; a function built
//!   by `fnil`, `partial` … of constant arguments, or an unnamed `fn`
//!   without captures, handed to `update`/`update-in` built once per site:
//!   `once.rs`); `(assoc m k v)` of a map puts its pair without the
//!   builtin's generic path (`call.rs`); a call whose head is a user/
//!   definition (`(fib (- n 1))`) reads the definition and, when it is a
//!   closure, enters it directly (a function calling itself through the
//!   reference its caller holds);
//! - `recur` stores its arguments in their slots and the enclosing `loop` or
//!   function body jumps back (the `pending_recur` flag the walker uses too,
//!   so compiled code and walker code can nest either way).
//!
//! Kinds not compiled here (collection literals, `try`, `case`, `for`,
//! `letfn`, destructuring reads, tool calls …) run through the walker: the
//! compiled node calls [`Interp::eval`] on its expression.
//!
//! **Step rule (EVAL-STEPS-1).** Compiled code charges exactly the steps
//! the tree walker charges, at the same points, so step counts, the point
//! where `max_steps` fires and everything printed before it are the same
//! whichever path runs: one step per builtin call, per fast-path
//! arithmetic/comparison/`get`, per closure entry and per `recur` back-edge
//! (charged when the loop or function body runs again). Steps of
//! consecutive in-place integer folds by `reduce` (`Interp::fold_ints`) are
//! charged together, and only when all of them fit under the step limit;
//! otherwise call by call. A function that `update`/`update-in` only calls,
//! built by a builder of constant arguments, is built once per site, each
//! evaluation charging the steps and heap bytes its first build charged
//! (`once.rs`).
//!
//! Lifetimes: code compiled for a [`crate::analyze::expr::FnArity`] or a
//! [`crate::analyze::expr::Loop`] borrows the expressions it was compiled
//! from and is kept in the same node (`compiled`), which lives behind an
//! `Arc`/`Box` that is never moved out of or mutated; see [`Compiled`].

mod args;
mod arith;

pub(super) use arith::finish as arith2;
mod build;
pub(crate) use build::build_record;
mod call;
mod kernel;
mod lent;
pub(crate) use lent::LendBody;
mod once;
mod place;

use crate::analyze::expr::{Bind, Expr, FnArity, Loop, Slot};
use crate::error::{Error, Result};
use crate::value::{Func, Value};

use super::{Frame, Interp};

/// A compiled expression: evaluates to a value in a frame.
pub(crate) type Code<'a> =
    Box<dyn for<'f> Fn(&mut Interp, Frame<'f>) -> Result<Value> + Send + Sync + 'a>;

/// A compiled condition: evaluates to its truth.
pub(crate) type Test<'a> =
    Box<dyn for<'f> Fn(&mut Interp, Frame<'f>) -> Result<bool> + Send + Sync + 'a>;

/// Code compiled from the expressions of the node that holds it.
///
/// The code borrows those expressions; it is stored in the same node
/// (`FnArity::compiled`, `Loop::compiled`), so it cannot outlive them, and
/// they never move (they sit behind the `Arc<FnProto>` or `Box<Loop>` the
/// node is in, which nothing mutates after analysis).
pub struct Compiled(Code<'static>);

impl Compiled {
    /// Runs the code.
    #[inline]
    pub(crate) fn run(&self, it: &mut Interp, frame: Frame) -> Result<Value> {
        (self.0)(it, frame)
    }

    /// Runs the code again after each `recur` back to it ([`iterations`]).
    #[inline(always)]
    pub(crate) fn run_repeating(&self, it: &mut Interp, frame: Frame) -> Result<Value> {
        iterations(it, frame, &self.0)
    }

    /// Erases the borrow of `code` on its node's expressions.
    ///
    /// # Safety
    /// `code` may only borrow from the node the result is stored in (see
    /// the type's docs).
    unsafe fn erase(code: Code<'_>) -> Compiled {
        // SAFETY: same layout (a boxed trait object); the caller keeps the
        // borrowed expressions alive and in place for as long as the code.
        Compiled(unsafe { std::mem::transmute::<Code<'_>, Code<'static>>(code) })
    }
}

/// The compiled prologue and body of a function arity.
pub(crate) fn fn_body(arity: &FnArity) -> &Compiled {
    arity.compiled.get_or_init(|| {
        let body = with_prologue(&arity.prologue, &arity.body);
        let code: Code = match kernel::of_fn(arity) {
            Some(k) => Box::new(move |it, f| match kernel::run_fn(&k, it, f, &body) {
                Some(r) => r,
                None => body(it, f),
            }),
            None => body,
        };
        // SAFETY: the code borrows only `arity`'s own fields and is kept in
        // `arity.compiled`.
        unsafe { Compiled::erase(code) }
    })
}

/// The compiled code of a `loop` (its bindings included).
pub(crate) fn loop_code(l: &Loop) -> &Compiled {
    l.compiled.get_or_init(|| {
        let code = compile_loop(l);
        // SAFETY: the code borrows only `l`'s own fields and is kept in
        // `l.compiled`.
        unsafe { Compiled::erase(code) }
    })
}

/// Compiles one expression.
pub(crate) fn compile(e: &Expr) -> Code<'_> {
    match e {
        Expr::Const(v) => Box::new(move |_, _| Ok(v.clone())),
        Expr::Local(s) | Expr::MoveLocalLate(s) => {
            let s = *s as usize;
            Box::new(move |it, f| Ok(it.stack[f.bp + s].clone()))
        }
        Expr::MoveLocal(s) => {
            let s = *s as usize;
            Box::new(move |it, f| Ok(std::mem::replace(&mut it.stack[f.bp + s], Value::Nil)))
        }
        Expr::Capture(i) => {
            let i = *i as usize;
            Box::new(move |_, f| captured(f, i))
        }
        Expr::Global(id) => {
            let id = *id;
            Box::new(move |it, _| call::global(it, id))
        }
        Expr::Builtin(b) => {
            let b: &'static _ = *b;
            Box::new(move |_, _| Ok(Value::Fn(Func::builtin(b))))
        }
        Expr::If(b) => {
            let (c, t, e) = &**b;
            arith::branch(c, compile(t), compile(e))
        }
        Expr::Do(body) => seq(body),
        Expr::And(items) => {
            let items: Vec<Code> = items.iter().map(compile).collect();
            Box::new(move |it, f| {
                let mut last = Value::Bool(true);
                for item in &items {
                    last = item(it, f)?;
                    if !last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            })
        }
        Expr::Or(items) => {
            let items: Vec<Code> = items.iter().map(compile).collect();
            Box::new(move |it, f| {
                let mut last = Value::Nil;
                for item in &items {
                    last = item(it, f)?;
                    if last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            })
        }
        Expr::Let(binds, body) => {
            let binds = binds_code(binds);
            let body = compile(body);
            Box::new(move |it, f| {
                run_binds(&binds, it, f)?;
                body(it, f)
            })
        }
        Expr::Loop(l) => compile_loop(l),
        Expr::Recur(r) => recur(&r.args, &r.slots),
        Expr::Call(c) => call::call(c),
        Expr::CallBuiltin(b, args, span) => call::str_of_texts(b, args, *span)
            .or_else(|| call::nth_of_const(b, args, *span))
            .or_else(|| call::int_pred(b, args, *span))
            .or_else(|| call::contains_in_place(b, args, *span))
            .or_else(|| call::text_test(b, args, *span))
            .or_else(|| call::count_in_place(b, args, *span))
            .or_else(|| call::assoc_map(b, args, *span))
            .or_else(|| call::update_once(b, args, *span))
            .or_else(|| lent::builtin(b, args, *span))
            .unwrap_or_else(|| call::builtin(b, args, *span)),
        Expr::Arith2(op, args, b, span) => arith::arith2(*op, &args.0, &args.1, b, *span),
        Expr::Step(step, x, b, span) => arith::step(*step, x, b, *span),
        Expr::Get(mk) => build::get(&mk.0, &mk.1),
        Expr::Vector(items) => build::vector(items),
        Expr::Record(r) => build::record(r),
        Expr::MakeFn(proto, captures) => build::make_fn(proto, captures),
        Expr::Nth(slot, i, span) => build::nth(*slot, *i, *span),
        Expr::Key(slot, key, default, _) => build::key(*slot, key, default.as_deref()),
        _ => Box::new(move |it, f| it.eval(e, f)),
    }
}

/// Compiles a condition (see [`arith::test`] for comparisons).
pub(super) fn test(c: &Expr) -> Test<'_> {
    if let Some(t) = arith::test(c) {
        return t;
    }
    let c = compile(c);
    Box::new(move |it, f| Ok(c(it, f)?.into_truthy()))
}

/// A body (implicit `do`): `nil` when empty.
fn seq(body: &[Expr]) -> Code<'_> {
    match body {
        [] => Box::new(|_, _| Ok(Value::Nil)),
        [one] => compile(one),
        [a, b] => {
            let a = compile(a);
            let b = compile(b);
            Box::new(move |it, f| {
                a(it, f)?;
                b(it, f)
            })
        }
        [init @ .., last] => {
            let init: Vec<Code> = init.iter().map(compile).collect();
            let last = compile(last);
            Box::new(move |it, f| {
                for e in &init {
                    e(it, f)?;
                }
                last(it, f)
            })
        }
    }
}

type BindCode<'a> = (usize, Code<'a>);

fn binds_code(binds: &[Bind]) -> Vec<BindCode<'_>> {
    binds
        .iter()
        .map(|b| (b.slot as usize, compile(&b.value)))
        .collect()
}

#[inline]
fn run_binds(binds: &[BindCode], it: &mut Interp, f: Frame) -> Result<()> {
    for (slot, value) in binds {
        let v = value(it, f)?;
        it.stack[f.bp + slot] = v;
    }
    Ok(())
}

/// A function arity's prologue (destructuring of its parameters) and body.
fn with_prologue<'a>(prologue: &'a [Bind], body: &'a Expr) -> Code<'a> {
    let body = compile(body);
    if prologue.is_empty() {
        return body;
    }
    let prologue = binds_code(prologue);
    Box::new(move |it, f| {
        run_binds(&prologue, it, f)?;
        body(it, f)
    })
}

fn compile_loop(l: &Loop) -> Code<'_> {
    let inits = binds_code(&l.inits);
    let body = with_prologue(&l.prologue, &l.body);
    let kernel = kernel::of_loop(l);
    Box::new(move |it, f| {
        // Entered with the meter settled (rule KERNEL-1; the walker too).
        it.budget.tick_settled(0)?;
        if let Some(r) = kernel
            .as_ref()
            .and_then(|k| kernel::run_loop(k, it, f, &inits, &body))
        {
            return r;
        }
        run_binds(&inits, it, f)?;
        iterations(it, f, &body)
    })
}

/// Iterations of `body` until one ends without `recur`, a step per
/// back-edge: what a loop and a function body that recurs run.
#[inline(always)]
pub(super) fn iterations(it: &mut Interp, f: Frame, body: &Code) -> Result<Value> {
    loop {
        let v = body(it, f)?;
        if !std::mem::take(&mut it.pending_recur) {
            return Ok(v);
        }
        it.budget.tick(1)?;
    }
}

/// `recur`: every argument is evaluated before any slot is rebound (they
/// may read the old values); the loop or function body sees the flag.
fn recur<'a>(args: &'a [Expr], slots: &'a [Slot]) -> Code<'a> {
    match (args, slots) {
        ([a], [sa]) => {
            let a = compile(a);
            let sa = *sa as usize;
            Box::new(move |it, f| {
                let va = a(it, f)?;
                it.stack[f.bp + sa] = va;
                it.pending_recur = true;
                Ok(Value::Nil)
            })
        }
        ([a, b], [sa, sb]) => {
            let a = compile(a);
            let b = compile(b);
            let (sa, sb) = (*sa as usize, *sb as usize);
            Box::new(move |it, f| {
                let va = a(it, f)?;
                let vb = b(it, f)?;
                it.stack[f.bp + sa] = va;
                it.stack[f.bp + sb] = vb;
                it.pending_recur = true;
                Ok(Value::Nil)
            })
        }
        _ => {
            let args: Vec<Code> = args.iter().map(compile).collect();
            Box::new(move |it, f| {
                let mut values = Vec::with_capacity(args.len());
                for a in &args {
                    values.push(a(it, f)?);
                }
                for (v, slot) in values.into_iter().zip(slots) {
                    it.stack[f.bp + *slot as usize] = v;
                }
                it.pending_recur = true;
                Ok(Value::Nil)
            })
        }
    }
}

/// The `i`th value the running closure captured.
#[inline(always)]
pub(super) fn captured(f: Frame, i: usize) -> Result<Value> {
    match f.closure {
        Some(c) => Ok(c.captures[i].clone()),
        None => Err(Error::internal("capture outside a closure")),
    }
}

#[cfg(test)]
mod tests;
