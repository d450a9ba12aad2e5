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
mod tests {
    use crate::eval::{Interp, Limits, StaticHost};

    fn run(interp: &mut Interp, src: &str) -> String {
        match interp.run_program(src).result {
            Ok(v) => v.to_string(),
            Err(e) => format!("{:?}: {}", e.kind(), e.message()),
        }
    }

    fn steps(src: &str) -> (String, u64) {
        let mut interp = Interp::standalone();
        let shown = run(&mut interp, src);
        (shown, interp.budget.steps())
    }

    #[test]
    fn calls_sharing_a_frame_see_only_their_own_arguments_and_locals() {
        let mut i = Interp::standalone();
        // A local bound on one path only, a parameter moved out on its last
        // use, `recur` in the body, and a closure capturing each call's own
        // argument.
        assert_eq!(
            run(
                &mut i,
                "(let [fs (mapv (fn [x] (let [y (if (odd? x) (* 10 x) x)] (fn [] [x y]))) (range 4))]
                   [(mapv (fn [f] (f)) fs)
                    (filterv (fn [n] (loop [k n acc 0] (if (pos? k) (recur (dec k) (+ acc k)) (odd? acc)))) (range 6))
                    (reduce (fn [acc x] (conj acc (count acc) x)) [] [:a :b])
                    (keep (fn [x] (when (even? x) (str x))) (range 5))])"
            ),
            "[[[0 0] [1 10] [2 2] [3 30]] [1 2 5] [0 :a 2 :b] [\"0\" \"2\" \"4\"]]"
        );
    }

    #[test]
    fn every_builtin_that_repeats_a_call_gives_its_results() {
        let mut i = Interp::standalone();
        assert_eq!(
            run(
                &mut i,
                "(let [rs [{:k 2 :v \"b\"} {:k 1 :v \"a\"} {:k 2 :v \"c\"}]]
                   [(group-by (fn [r] (:k r)) rs)
                    (mapv :v (sort-by (fn [r] (- (:k r))) rs))
                    (some (fn [r] (when (= 1 (:k r)) (:v r))) rs)
                    (every? (fn [r] (pos? (:k r))) rs)
                    (not-any? (fn [r] (> (:k r) 2)) rs)
                    (some (fn [x] (when (> x 3) x)) (map inc (range)))
                    (map-indexed (fn [i r] [i (:v r)]) rs)
                    (reduce-kv (fn [acc k v] (+ acc k (count v))) 0 {1 \"ab\" 2 \"c\"})
                    (update-vals {:a 1 :b 2} (fn [v] (* v 10)))])"
            ),
            "[{2 [{:k 2 :v \"b\"} {:k 2 :v \"c\"}] 1 [{:k 1 :v \"a\"}]} [\"b\" \"c\" \"a\"] \"a\" true true 4 [[0 \"b\"] [1 \"a\"] [2 \"c\"]] 6 {:a 10 :b 20}]"
        );
        let out = run(&mut i, "(group-by (fn [x] (quot 1 x)) [1 0])");
        assert!(out.starts_with("Arithmetic"), "{out}");
        assert_eq!((i.stack.len(), i.budget.depth()), (0, 0));
    }

    #[test]
    fn a_function_mapping_itself_gets_a_frame_per_level() {
        let mut i = Interp::standalone();
        assert_eq!(
            run(
                &mut i,
                "(defn walk [t] (if (vector? t) (mapv walk t) (inc t))) (walk [1 [2 [3 4] 5] [[6]]])"
            ),
            "[2 [3 [4 5] 6] [[7]]]"
        );
        // The last return a `defn` records is its last call's.
        assert_eq!(run(&mut i, "(mapv walk [7 8])"), "[8 9]");
        let Some(last) = i.globals.id("walk").and_then(|id| i.last_return(id)) else {
            panic!("walk's last return")
        };
        assert_eq!(
            last,
            &crate::value::Returned::Value(crate::value::Value::Int(9))
        );
    }

    /// A quick call (`Quick`) against the call it stands in for: the same
    /// value or error, the same steps.
    #[test]
    fn quick_calls_give_what_the_call_gives() {
        use super::{Quick, Repeated};
        use crate::error::Result;
        use crate::value::Value;

        fn both(i: &mut Interp, f: &Value, args: &[Value]) -> [(String, u64); 2] {
            both_made(i, f, &mut |_| args.to_vec())
        }
        /// [`both`] of arguments `make` makes afresh for each call (a
        /// `lazy-seq` is realised by the first call that reads it).
        fn both_made(
            i: &mut Interp,
            f: &Value,
            make: &mut dyn FnMut(&mut Interp) -> Vec<Value>,
        ) -> [(String, u64); 2] {
            fn shown(i: &mut Interp, before: u64, out: Result<Value>) -> (String, u64) {
                let out = match out {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("{:?}: {}", e.kind(), e.message()),
                };
                (out, i.budget.steps() - before)
            }
            [Repeated::quick(f), Quick::None].map(|quick| {
                let mut r = Repeated {
                    f,
                    shared: None,
                    bp: None,
                    quick,
                    lend: None,
                };
                let mut args = make(i);
                let before = i.budget.steps();
                let out = i.call_again(&mut r, &mut args);
                let owned = shown(i, before, out);
                // The same through the entry that leaves the arguments.
                let args = make(i);
                let before = i.budget.steps();
                let out = i.call_again_ref(&mut r, &args);
                assert_eq!(shown(i, before, out), owned);
                owned
            })
        }
        let mut i = Interp::standalone();
        let ints = [7, -7, 3, 0, i64::MAX, i64::MIN, -1];
        let mut quick = 0;
        for name in [
            "+", "-", "*", "<", ">", "<=", ">=", "=", "==", "mod", "rem", "quot",
        ] {
            let f = i.run_program(name).result.expect("a builtin");
            assert!(matches!(Repeated::quick(&f), Quick::Arith(_)), "{name}");
            for a in ints {
                for b in ints {
                    let [q, slow] = both(&mut i, &f, &[Value::Int(a), Value::Int(b)]);
                    assert_eq!(q, slow, "({name} {a} {b})");
                    quick += 1;
                }
            }
            let [q, slow] = both(&mut i, &f, &[Value::Float(1.5), Value::Int(2)]);
            assert_eq!(q, slow, "({name} 1.5 2)");
        }
        assert_eq!(quick, 12 * 49);
        let kw = i.run_program(":a").result.expect("a keyword");
        for coll in [
            "{:a 1}",
            "{\"a\" 2}",
            "{:b 1}",
            "nil",
            "5",
            "[1 2]",
            "\"abc\"",
        ] {
            let m = i.run_program(coll).result.expect("a value");
            let [q, slow] = both(&mut i, &kw, std::slice::from_ref(&m));
            assert_eq!(q, slow, "(:a {coll})");
        }
        // Any other builtin, called directly: the same value, error
        // (arity, type) and steps as the call.
        let mut lazy = 0;
        for (name, args) in [
            ("count", vec!["[1 2 3]"]),
            ("count", vec!["(lazy-seq [1 2])"]),
            ("count", vec!["5"]),
            ("count", vec!["[1]", "[2]"]),
            ("count", vec!["{:a 1 :b 2}"]),
            ("count", vec!["\"h\u{e9}llo\""]),
            ("count", vec!["nil"]),
            ("count", vec!["#{1 2}"]),
            ("str", vec!["1", ":a", "nil"]),
            ("clojure.string/upper-case", vec!["\"abc\""]),
        ] {
            let f = i.run_program(name).result.expect("a builtin");
            // `count` is answered in place (`Quick::Count`), the rest called.
            assert!(
                matches!(Repeated::quick(&f), Quick::Builtin(_) | Quick::Count(_)),
                "{name}"
            );
            // Each argument made by a function returning it, so a
            // `lazy-seq` stays one (a program's result is realised).
            let makers: Vec<Value> = args
                .iter()
                .map(|a| {
                    let make = i.run_program(&format!("(fn [] {a})")).result;
                    make.expect("a function")
                })
                .collect();
            let mut make = |i: &mut Interp| -> Vec<Value> {
                makers
                    .iter()
                    .map(|m| i.call(m, &[]).expect("a value"))
                    .collect()
            };
            let args = make(&mut i);
            let [q, slow] = both_made(&mut i, &f, &mut make);
            assert_eq!(q, slow, "({name} {args:?})");
            lazy += usize::from(args.iter().any(Value::may_end));
        }
        assert_eq!(lazy, 1, "a lazy-seq argument was tried");
        // The integer predicates: an integer answered in place, anything
        // else (a float, nil, text, two arguments) the builtin's answer.
        for name in ["zero?", "pos?", "neg?", "even?", "odd?"] {
            let f = i.run_program(name).result.expect("a builtin");
            assert!(matches!(Repeated::quick(&f), Quick::IntTest(..)), "{name}");
            let mut args: Vec<Vec<Value>> = ints.iter().map(|n| vec![Value::Int(*n)]).collect();
            args.extend([
                vec![Value::Float(0.0)],
                vec![Value::Float(-2.5)],
                vec![Value::Nil],
                vec![Value::string("4")],
                vec![Value::Int(1), Value::Int(2)],
            ]);
            for a in args {
                let [q, slow] = both(&mut i, &f, &a);
                assert_eq!(q, slow, "({name} {a:?})");
            }
        }
        let two = [Value::Nil, Value::Int(0)];
        assert_eq!(both(&mut i, &kw, &two)[0], both(&mut i, &kw, &two)[1]);
    }

    /// A closure whose body is one builtin call lending its item
    /// (`compile/lent.rs`) against the same closure storing it in its
    /// frame: the same value or error, steps and heap charged, with and
    /// without a step limit that fires part way.
    #[test]
    fn a_body_lending_its_item_gives_what_the_frame_gives() {
        let programs = [
            "(count (filter (fn [s] (clojure.string/includes? s \"a\")) [\"a\" \"b\" \"ca\"]))",
            "(mapv (fn [s] (clojure.string/replace s \"-\" \"_\")) [\"a-b\" \"c\" \"-\"])",
            "(mapv #(clojure.string/upper-case %) [\"a\" 1])",
            "(defn up [s] (clojure.string/upper-case s)) [(mapv up [\"a\" \"b\"]) (up \"c\")]",
            "(mapv (fn [s] (str s s)) [\"ab\" 1 nil :k])",
            "(sort-by (fn [s] (count s)) [\"ccc\" \"a\" \"bb\"])",
            "(group-by (fn [m] (get m :k)) [{:k 1} {:k 2} {} {:k 1}])",
            "(some (fn [s] (clojure.string/starts-with? s \"x\")) (map str [\"a\" \"xb\"]))",
            "(keep (fn [v] (get v 1)) [[1 2] [3] {1 :one}])",
            "(remove (fn [x] (contains? #{1 3} x)) (range 6))",
            "(mapv (fn [x] (vector x [1 2])) [(range 2) :a])",
            "(every? (fn [s] (clojure.string/includes? s 5)) [\"a\"])",
            "(count (filter (fn [s] (clojure.string/includes? s \"9\")) (map str (range 300))))",
        ];
        let run_all = |lend: bool, max_steps: Option<u64>| -> Vec<(String, u64, u64)> {
            super::LENDING.with(|l| l.set(lend));
            let out = programs
                .iter()
                .map(|p| {
                    let limits = Limits {
                        max_steps,
                        ..Limits::default()
                    };
                    let mut i = Interp::new(Box::new(StaticHost::default()), limits);
                    let shown = run(&mut i, p);
                    (shown, i.budget.steps(), i.budget.heap_bytes())
                })
                .collect();
            super::LENDING.with(|l| l.set(true));
            out
        };
        for max_steps in [None, Some(400)] {
            let lent = run_all(true, max_steps);
            let framed = run_all(false, max_steps);
            for ((p, a), b) in programs.iter().zip(&lent).zip(&framed) {
                assert_eq!(a, b, "{p} (max_steps {max_steps:?})");
            }
        }
        // The limit fires inside the last program, so both paths are tried
        // up to it.
        assert!(run_all(true, Some(400))[12].0.starts_with("LimitExceeded"));
    }

    #[test]
    fn an_error_mid_way_leaves_the_stack_and_depth_as_they_were() {
        let mut i = Interp::standalone();
        let out = run(&mut i, "(mapv (fn [x] (quot 10 (- 3 x))) (range 5))");
        assert!(out.starts_with("Arithmetic"), "{out}");
        assert_eq!(i.stack.len(), 0);
        assert_eq!(i.budget.depth(), 0);
        assert_eq!(run(&mut i, "(reduce (fn [a x] (+ a x)) 0 (range 5))"), "10");
        assert_eq!(i.stack.len(), 0);
    }

    #[test]
    fn the_depth_limit_fires_at_the_first_call_as_before() {
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let mut i = Interp::new(Box::new(StaticHost::default()), limits);
        let nest = "(defn d [n] (if (pos? n) (first (mapv (fn [_] (d (dec n))) [0])) :bottom))";
        run(&mut i, nest);
        // An empty collection calls nothing, so the limit cannot fire.
        assert_eq!(run(&mut i, "(d 1)"), ":bottom");
        assert_eq!(run(&mut i, "(mapv d [])"), "[]");
        let deep = run(&mut i, "(d 5)");
        assert!(deep.starts_with("LimitExceeded"), "{deep}");
    }

    #[test]
    fn steps_are_one_per_call_whoever_calls() {
        // Per item: `range` builds it (1), `mapv` visits it (1), enters
        // the closure (1), which adds (1) — as with a frame per call.
        let (a, sa) = steps("(count (mapv (fn [x] (+ x 1)) (range 100)))");
        let (b, sb) = steps("(count (mapv (fn [x] (+ x 1)) (range 200)))");
        assert_eq!((a.as_str(), b.as_str()), ("100", "200"));
        assert_eq!(sb - sa, 100 * 4);
        // A closure called by hand in a loop is charged its entry the same.
        let f = "(let [f (fn [x] (+ x 1))] (loop [i 0] (if (< i N) (do (f i) (recur (inc i))) i)))";
        let (_, la) = steps(&f.replace('N', "100"));
        let (_, lb) = steps(&f.replace('N', "200"));
        // Per iteration: the test, the call, the addition, `inc`, `recur`.
        assert_eq!(lb - la, 100 * 5);
    }

    /// Integer arithmetic folded at once (`Interp::fold_ints`) against the
    /// same fold called item by item: the same value or error, the same
    /// steps, and a step limit that fires at the same point (the steps of
    /// the whole fold just fitting, and one short of it).
    #[test]
    fn ints_folded_at_once_give_what_the_calls_give() {
        use super::{Quick, Repeated};
        use crate::value::Value;

        fn fold(
            i: &mut Interp,
            f: &Value,
            quick: Quick,
            init: i64,
            items: &[Value],
        ) -> (String, u64, usize) {
            let mut r = Repeated {
                f,
                shared: None,
                bp: None,
                quick,
                lend: None,
            };
            let before = i.budget.steps();
            let mut at_once = 0;
            let out: crate::error::Result<Value> = (|| {
                let mut acc = Value::Int(init);
                at_once = i.fold_ints(&r, &mut acc, items)?;
                for x in &items[at_once..] {
                    acc = i.tick_call_again(&mut r, &mut [acc, x.clone()])?;
                }
                Ok(acc)
            })();
            let shown = match out {
                Ok(v) => v.to_string(),
                Err(e) => format!("{:?}: {}", e.kind(), e.message()),
            };
            (shown, i.budget.steps() - before, at_once)
        }
        let with_limit = |max: Option<u64>| {
            let limits = Limits {
                max_steps: max,
                ..Limits::none()
            };
            Interp::new(Box::new(StaticHost::default()), limits)
        };
        let ints = |xs: &[i64]| xs.iter().map(|&x| Value::Int(x)).collect::<Vec<_>>();
        let cases: Vec<(&str, i64, Vec<Value>)> = vec![
            ("+", 0, ints(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])),
            ("*", 1, ints(&[3, -2, 5, 7])),
            ("-", 100, ints(&[1, 2, 3])),
            ("mod", 1_000_003, ints(&[97, 13, 5])),
            ("quot", 1_000, ints(&[3, 0, 2])),
            ("+", i64::MAX - 3, ints(&[1, 1, 1, 1, 1])),
            ("<", 1, ints(&[2, 3])),
            (
                "+",
                0,
                vec![Value::Int(1), Value::Float(0.5), Value::Int(2)],
            ),
        ];
        let mut folded = 0;
        for (name, init, items) in &cases {
            let mut probe = with_limit(None);
            let f = probe.run_program(name).result.expect("a builtin");
            assert!(matches!(Repeated::quick(&f), Quick::Arith(_)), "{name}");
            let whole = fold(&mut probe, &f, Quick::None, *init, items);
            let mut i = with_limit(None);
            let fast = fold(&mut i, &f, Repeated::quick(&f), *init, items);
            assert_eq!((&fast.0, fast.1), (&whole.0, whole.1), "{name} {init}");
            folded += fast.2;
            // Limits around the fold's own steps (the interpreters start at
            // zero: nothing ran in them).
            for max in whole.1.saturating_sub(2)..=whole.1 + 1 {
                let per_call = fold(&mut with_limit(Some(max)), &f, Quick::None, *init, items);
                let mut i = with_limit(Some(max));
                let fast = fold(&mut i, &f, Repeated::quick(&f), *init, items);
                assert_eq!((fast.0, fast.1), (per_call.0, per_call.1), "{name} {max}");
            }
        }
        // Most of the cases were folded at once (the others stop at the
        // item they cannot fold).
        assert!(folded >= 20, "{folded}");
    }
}
