//! One function called over and over by one builtin (`map`/`mapv` of one
//! collection, `map-indexed`, `filter`, `remove`, `keep`, `reduce`,
//! `reduce-kv`, `update-vals`, `some`, `every?`, `not-any?`, `not-every?`,
//! `group-by`, `sort-by`): [`Interp::repeated`].
//!
//! A closure of one fixed arity gets its frame pushed once, at the first
//! call, and reused by every call after it: each call charges its step,
//! stores its arguments in the parameter slots and runs the compiled body
//! (its `recur`s included); the frame is dropped, and the call depth given
//! back, when the builtin is done (or fails). What a call sees is what a
//! fresh frame gives it: the analyzer writes every local slot before the
//! body reads it, so the values a previous call left in the frame's other
//! slots are never read (they are dropped when overwritten or with the
//! frame). Steps, the depth at which `max_depth` fires, errors and the
//! value each `defn` records as its last return are those of
//! [`Interp::call`]. A keyword, integer arithmetic by a core builtin and
//! the integer predicates (`zero?`, `even?` …) and `count` are done in place
//! ([`Quick`]), and `reduce`'s integer arithmetic over integers in an
//! array is folded at once ([`Interp::fold_ints`]); a closure whose whole
//! body is one call of a builtin that only reads its arguments, on its
//! parameter and constants (`(fn [s] (includes? s "a"))`), calls that
//! builtin with the item lent, never stored in the frame, so no
//! reference count is added to it and taken back per call
//! ([`LendBody`], `compile/lent.rs`: 06-strings 0.85× the wall time); any
//! other builtin is called directly
//! (its kind found once, not per call); any other function (a closure of
//! several arities or a variadic one) is called by [`Interp::call_mut`].

use crate::analyze::expr::{ArithOp, FnArity};
use crate::builtins::Builtin;
use crate::error::Result;
use crate::value::{ClosureFn, Value};

use super::lookup::lookup;

use super::compile::LendBody;
use super::{Compiled, Frame, Interp};

/// A function a builtin calls many times, and the frame its calls share.
pub(crate) struct Repeated<'f> {
    f: &'f Value,
    /// The closure whose calls share a frame, found once (not per call).
    shared: Option<Shared<'f>>,
    /// The shared frame's base, once the first call has pushed it.
    bp: Option<usize>,
    /// What a call of `f` can do in place, when it is not a closure.
    quick: Quick,
    /// The shared closure's body as one builtin call lending the item
    /// (`compile/lent.rs`).
    lend: Option<LendBody<'f>>,
}

/// A closure of one fixed arity, its arity and its compiled body: what
/// each call of it through [`Interp::call_again_after`] runs.
#[derive(Clone, Copy)]
struct Shared<'f> {
    c: &'f ClosureFn,
    arity: &'f FnArity,
    code: &'f Compiled,
}

#[cfg(test)]
thread_local! {
    /// Whether closures may lend their item (tests turn it off to compare).
    static LENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether a closure whose body is one builtin call lends its item
/// ([`LendBody`]); always outside tests.
#[inline(always)]
fn lending() -> bool {
    #[cfg(test)]
    return LENDING.with(|l| l.get());
    #[cfg(not(test))]
    true
}

impl<'f> Repeated<'f> {
    fn new(f: &'f Value) -> Repeated<'f> {
        let shared = Repeated::sharing(f);
        Repeated::with(f, shared, Repeated::quick(f))
    }

    /// The reference run's (`reference.rs`): every call made afresh
    /// through [`Interp::call_mut`], which gives it copies.
    fn plain(f: &'f Value) -> Repeated<'f> {
        Repeated::with(f, None, Quick::None)
    }

    fn with(f: &'f Value, shared: Option<Shared<'f>>, quick: Quick) -> Repeated<'f> {
        Repeated {
            f,
            shared,
            bp: None,
            quick,
            lend: shared
                .and_then(|s| LendBody::of(s.arity))
                .filter(|_| lending()),
        }
    }

    /// The closure whose calls share a frame: one of a single fixed arity
    /// (its calls of that many arguments); `None` for anything else.
    fn sharing(f: &'f Value) -> Option<Shared<'f>> {
        let c = f.as_closure()?;
        match c.proto.arities.as_slice() {
            [only] if !only.variadic => Some(Shared {
                c,
                arity: only,
                code: super::compile::fn_body(only),
            }),
            _ => None,
        }
    }

    /// [`Repeated::sharing`]'s closure, when a call of `n` arguments is
    /// one of its arity.
    #[inline(always)]
    fn shared(&self, n: usize) -> Option<Shared<'f>> {
        self.shared.filter(|s| s.arity.fixed == n)
    }

    /// What a call of anything but a closure can do in place.
    fn quick(f: &Value) -> Quick {
        if let Value::Keyword(_) = f {
            return Quick::Key;
        }
        let Some(b) = f.as_builtin() else {
            return Quick::None;
        };
        match ArithOp::of_builtin(b) {
            Some(op) => Quick::Arith(op),
            None => match crate::builtins::numbers::int_test(b) {
                Some(test) => Quick::IntTest(test, b),
                None if b.is_core("count") => Quick::Count(b),
                None => Quick::Builtin(b),
            },
        }
    }
}

/// The calls [`Interp::call_again_after`] makes in place, with the value, error,
/// steps and hidden-data marks of the call they stand in for (tested
/// against it below): a keyword looking itself up in one argument (no
/// step, as [`Interp::call`]); clojure.core's `+`, `-`, `*`, `<`, `>`,
/// `<=`, `>=`, `=`, `==`, `mod`, `rem` or `quot` of two integers whose
/// result is an integer or a boolean (the builtin's steps); `zero?`,
/// `pos?`, `neg?`, `even?` or `odd?` of an integer with no hidden data
/// about (its one step). Anything else
/// (an overflow, a division by zero, a float, another count of arguments,
/// any other function) is called.
#[derive(Clone, Copy)]
enum Quick {
    Key,
    Arith(ArithOp),
    /// `zero?`, `pos?`, `neg?`, `even?`, `odd?` of an integer (one step,
    /// as the builtin); anything else calls the builtin.
    IntTest(fn(i64) -> bool, &'static Builtin),
    /// `count` of anything but a lazy sequence, with no hidden data about
    /// (one step, the builtin's answer or error); anything else calls it.
    Count(&'static Builtin),
    /// Any other builtin: called as [`Interp::call`] calls it, without
    /// finding out again what kind of function it is.
    Builtin(&'static Builtin),
    None,
}

impl Interp {
    /// Runs `body` with `f` ready to be called many times through
    /// [`Interp::call_again_after`]; the shared frame (if any) is dropped after
    /// it, whatever it returned.
    pub(crate) fn repeated<T>(
        &mut self,
        f: &Value,
        body: impl FnOnce(&mut Interp, &mut Repeated) -> Result<T>,
    ) -> Result<T> {
        let mut r = if self.reference {
            Repeated::plain(f)
        } else {
            Repeated::new(f)
        };
        let out = body(self, &mut r);
        if let Some(bp) = r.bp {
            self.drop_frame(bp);
            self.budget.leave();
        }
        out
    }

    /// Calls the repeated function on `args`, taking their values (what
    /// [`Interp::call_again1`] and [`Interp::tick_call_again2`] do for one
    /// and two; the tests call it with any number).
    #[cfg(test)]
    pub(crate) fn call_again(&mut self, r: &mut Repeated, args: &mut [Value]) -> Result<Value> {
        self.call_again_after::<0>(r, args)
    }

    /// The calling builtin's step for this item ([`Interp::tick`]), then
    /// [`Interp::call_again_after`]: a shared closure's call charges the two at
    /// once (the same steps, checked before the call as before).
    #[inline(always)]
    pub(crate) fn tick_call_again(
        &mut self,
        r: &mut Repeated,
        args: &mut [Value],
    ) -> Result<Value> {
        self.call_again_after::<1>(r, args)
    }

    /// Calls the repeated function on one value, taking it: a shared
    /// closure gets it in its slot straight, with no array left behind to
    /// drop.
    #[inline(always)]
    pub(crate) fn call_again1(&mut self, r: &mut Repeated, a: Value) -> Result<Value> {
        self.call_again1_after::<0>(r, a)
    }

    /// [`Interp::tick_call_again`] of one value, as [`Interp::call_again1`].
    #[inline(always)]
    pub(crate) fn tick_call_again1(&mut self, r: &mut Repeated, a: Value) -> Result<Value> {
        self.call_again1_after::<1>(r, a)
    }

    #[inline(always)]
    fn call_again1_after<const BEFORE: u64>(
        &mut self,
        r: &mut Repeated,
        a: Value,
    ) -> Result<Value> {
        match r.shared(1) {
            Some(s) => self.enter_again(s, r, BEFORE, |slots| Value::put(&mut slots[0], a)),
            None => self.call_again_after::<BEFORE>(r, &mut [a]),
        }
    }

    /// [`Interp::tick_call_again`] of two values (`reduce`'s accumulator
    /// and item), as [`Interp::call_again1`].
    #[inline(always)]
    pub(crate) fn tick_call_again2(
        &mut self,
        r: &mut Repeated,
        a: Value,
        b: Value,
    ) -> Result<Value> {
        match r.shared(2) {
            Some(s) => self.enter_again(s, r, 1, |slots| {
                Value::put(&mut slots[0], a);
                Value::put(&mut slots[1], b);
            }),
            None => self.call_again_after::<1>(r, &mut [a, b]),
        }
    }

    /// Calls the repeated function on `args`, taking their values, after
    /// `BEFORE` steps of the caller's.
    #[inline(always)]
    fn call_again_after<const BEFORE: u64>(
        &mut self,
        r: &mut Repeated,
        args: &mut [Value],
    ) -> Result<Value> {
        match (r.shared(args.len()), &mut *args) {
            (Some(s), [a]) => {
                let a = Value::take(a);
                self.enter_again(s, r, BEFORE, |slots| slots[0] = a)
            }
            (Some(s), _) => self.enter_again(s, r, BEFORE, |slots| {
                for (slot, a) in slots.iter_mut().zip(args.iter_mut()) {
                    *slot = Value::take(a);
                }
            }),
            (None, _) => {
                if BEFORE > 0 {
                    self.tick(BEFORE)?;
                }
                match self.quick_call(r, args) {
                    Some(out) => out,
                    None => self.call_again_other(r, args),
                }
            }
        }
    }

    /// [`Interp::call_again_after`] of anything but the shared closure and the
    /// calls made in place.
    #[inline(never)]
    fn call_again_other(&mut self, r: &Repeated, args: &mut [Value]) -> Result<Value> {
        match r.quick {
            Quick::Builtin(b) | Quick::IntTest(_, b) | Quick::Count(b) => {
                self.call_builtin_mut(b, args)
            }
            _ => self.call_mut(r.f, args),
        }
    }

    /// [`Interp::call_again_after`] of arguments the caller keeps (a keyword or
    /// a builtin reads them in place; a closure's slots get copies).
    #[inline(always)]
    pub(crate) fn call_again_ref(&mut self, r: &mut Repeated, args: &[Value]) -> Result<Value> {
        self.call_again_ref_after::<0>(r, args)
    }

    /// [`Interp::tick_call_again`] of arguments the caller keeps
    /// ([`Interp::call_again_ref`]).
    #[inline(always)]
    pub(crate) fn tick_call_again_ref(
        &mut self,
        r: &mut Repeated,
        args: &[Value],
    ) -> Result<Value> {
        self.call_again_ref_after::<1>(r, args)
    }

    /// [`Interp::call_again_ref`] after `BEFORE` steps of the caller's.
    #[inline(always)]
    fn call_again_ref_after<const BEFORE: u64>(
        &mut self,
        r: &mut Repeated,
        args: &[Value],
    ) -> Result<Value> {
        match (r.shared(args.len()), args) {
            (Some(s), [a]) => match r.lend {
                Some(l) => self.lend_again(s, l, r, BEFORE, a),
                None => self.enter_again(s, r, BEFORE, |slots| slots[0].clone_from(a)),
            },
            (Some(s), _) => self.enter_again(s, r, BEFORE, |slots| {
                for (slot, a) in slots.iter_mut().zip(args) {
                    slot.clone_from(a);
                }
            }),
            (None, _) => {
                if BEFORE > 0 {
                    self.tick(BEFORE)?;
                }
                match self.quick_call(r, args) {
                    Some(out) => out,
                    None => self.call_again_ref_other(r, args),
                }
            }
        }
    }

    /// [`Interp::call_again_ref`] of anything but the shared closure and
    /// the calls made in place.
    #[inline(never)]
    fn call_again_ref_other(&mut self, r: &Repeated, args: &[Value]) -> Result<Value> {
        match r.quick {
            Quick::Builtin(b) | Quick::IntTest(_, b) | Quick::Count(b) => {
                self.call_builtin(b, args)
            }
            _ => self.call(r.f, args),
        }
    }

    /// [`Interp::call_again_after`] of a closure of one fixed arity matching
    /// `args`: [`Interp::enter_closure`] with the frame kept and the body
    /// found once; `before` steps of the caller's ([`Interp::tick`],
    /// settled) charged with the call's own.
    #[inline(always)]
    fn enter_again(
        &mut self,
        s: Shared,
        r: &mut Repeated,
        before: u64,
        set_args: impl FnOnce(&mut [Value]),
    ) -> Result<Value> {
        if before == 0 {
            self.budget.tick(1)?;
        } else {
            self.budget.tick_settled(1 + before)?;
        }
        let bp = match r.bp {
            Some(bp) => bp,
            None => self.push_shared_frame(s.arity.frame_size.max(s.arity.fixed), r)?,
        };
        set_args(&mut self.stack[bp..]);
        let frame = Frame {
            bp,
            closure: Some(s.c),
        };
        match self.run_body(s.code, s.arity, frame) {
            Ok(v) => {
                if let Some(id) = s.c.proto.global {
                    self.record_return(id, &v);
                }
                Ok(v)
            }
            Err(e) => Err(e.or_source(&s.c.proto.source)),
        }
    }

    /// [`Interp::enter_again`] of a closure whose body lends the item
    /// ([`LendBody`]): the same steps, shared frame (pushed at the first
    /// call, so the call depth is charged as before), recorded return and
    /// errors, without storing `x` in the parameter's slot. (The charge
    /// and the epilogue are written out as in `enter_again`: shared through
    /// a closure taking the body, the frame path was inlined differently,
    /// +4.7 % instructions on 03-records-pipeline and +5.7 % on 08, measured.)
    #[inline(always)]
    fn lend_again(
        &mut self,
        s: Shared,
        l: LendBody,
        r: &mut Repeated,
        before: u64,
        x: &Value,
    ) -> Result<Value> {
        if before == 0 {
            self.budget.tick(1)?;
        } else {
            self.budget.tick_settled(1 + before)?;
        }
        if r.bp.is_none() {
            self.push_shared_frame(s.arity.frame_size.max(s.arity.fixed), r)?;
        }
        match l.call(self, x) {
            Ok(v) => {
                if let Some(id) = s.c.proto.global {
                    self.record_return(id, &v);
                }
                Ok(v)
            }
            Err(e) => Err(e.or_source(&s.c.proto.source)),
        }
    }

    /// The call of `r`'s function on `args` made in place ([`Quick`]), or
    /// `None` when it must be called.
    #[inline(always)]
    fn quick_call(&mut self, r: &Repeated, args: &[Value]) -> Option<Result<Value>> {
        match (r.quick, args) {
            // A record's field by its interned keyword: read inline
            // (`lookup_ref` has the same test first, but through it, not
            // inlined here, 04 took 1.7 % more instructions, measured).
            (Quick::Key, [m]) => Some(Ok(match (m, r.f) {
                (Value::Map(map), Value::Keyword(k)) => match map.get_interned(k) {
                    Some(v) => v.clone(),
                    None => lookup(m, r.f).unwrap_or(Value::Nil),
                },
                _ => lookup(m, r.f).unwrap_or(Value::Nil),
            })),
            (Quick::IntTest(test, _), [Value::Int(i)]) if !self.hidden.active() => {
                Some(self.budget.tick_settled(1).map(|()| Value::Bool(test(*i))))
            }
            (Quick::Count(_), [v]) if !matches!(v, Value::Lazy(_)) && !self.hidden.active() => {
                Some(self.budget.tick_settled(1).and_then(|()| {
                    crate::builtins::args::count("count", v).map(|n| Value::Int(n as i64))
                }))
            }
            (Quick::Arith(op), [Value::Int(a), Value::Int(b)]) => {
                let v = op.ints(*a, *b)?;
                if let Err(e) = self.budget.tick_settled(op.steps_of_two()) {
                    return Some(Err(e));
                }
                if self.hidden.active() {
                    self.mark_hidden_arith(&[&args[0], &args[1]], &v);
                }
                Some(Ok(v))
            }
            _ => None,
        }
    }

    /// The first items of `items` folded into `acc` by the repeated
    /// function at once, when it is integer arithmetic done in place
    /// ([`Quick::Arith`]) and `acc` and the items are integers: how many
    /// were folded (none for anything else). Stops before an item that is
    /// not an integer and before a call that would not give an integer (an
    /// overflow, a division by zero, a comparison's boolean), which the
    /// caller then calls as usual. The steps are those of `reduce` calling
    /// it item by item — one for the item, the builtin's for the call — and
    /// are charged together only when they all fit under the step limit:
    /// otherwise nothing is folded here and the caller's calls reach the
    /// limit at the item they always did. Nothing else happens between two
    /// such calls (no hidden data is about), so folding them at once is
    /// not observable.
    pub(crate) fn fold_ints(
        &mut self,
        r: &Repeated,
        acc: &mut Value,
        items: &[Value],
    ) -> Result<usize> {
        let (Quick::Arith(op), &mut Value::Int(mut a)) = (r.quick, &mut *acc) else {
            return Ok(0);
        };
        if self.hidden.active() {
            return Ok(0);
        }
        let mut n = 0usize;
        for x in items {
            let &Value::Int(b) = x else {
                break;
            };
            match op.ints(a, b) {
                Some(Value::Int(v)) => a = v,
                _ => break,
            }
            n += 1;
        }
        let per_item = 1 + op.steps_of_two();
        if n == 0
            || !self
                .budget
                .tick_if_room(per_item.saturating_mul(n as u64))?
        {
            return Ok(0);
        }
        *acc = Value::Int(a);
        Ok(n)
    }

    /// The first call's frame, kept for the next ones.
    #[cold]
    fn push_shared_frame(&mut self, size: usize, r: &mut Repeated) -> Result<usize> {
        self.budget.enter()?;
        let bp = self.stack.len();
        self.stack.resize_with(bp + size, || Value::Nil);
        r.bp = Some(bp);
        Ok(bp)
    }
}

#[cfg(test)]
mod tests;
