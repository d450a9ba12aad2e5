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
//! [`Interp::call`]. A keyword, and integer arithmetic by a core builtin,
//! are done in place ([`Quick`]); any other function (another builtin, a
//! closure of several arities or a variadic one) is called by
//! [`Interp::call_mut`].

use std::sync::Arc;

use crate::analyze::expr::ArithOp;
use crate::error::Result;
use crate::value::{Func, Value};

use super::lookup::lookup;

use super::{Closure, Interp};

/// A function a builtin calls many times, and the frame its calls share.
pub(crate) struct Repeated<'f> {
    f: &'f Value,
    /// The shared frame's base, once the first call has pushed it.
    bp: Option<usize>,
    /// What a call of `f` can do in place, when it is not a closure.
    quick: Quick,
}

impl<'f> Repeated<'f> {
    /// The closure whose calls of `n` arguments share a frame: one of a
    /// single fixed arity `n`; `None` for anything else.
    #[inline]
    fn sharing(&self, n: usize) -> Option<&'f Arc<Closure>> {
        match self.f {
            Value::Fn(Func::Closure(c)) => match c.proto.arities.as_slice() {
                [only] if !only.variadic && only.fixed == n => Some(c),
                _ => None,
            },
            _ => None,
        }
    }

    /// What a call of anything but a closure can do in place.
    fn quick(f: &Value) -> Quick {
        match f {
            Value::Keyword(_) => Quick::Key,
            Value::Fn(Func::Builtin(b)) => match ArithOp::of_builtin(b) {
                Some(op) => Quick::Arith(op),
                None => Quick::None,
            },
            _ => Quick::None,
        }
    }
}

/// The calls [`Interp::call_again`] makes in place, with the value, error,
/// steps and hidden-data marks of the call they stand in for (tested
/// against it below): a keyword looking itself up in one argument (no
/// step, as [`Interp::call`]); clojure.core's `+`, `-`, `*`, `<`, `>`,
/// `<=`, `>=`, `=`, `==`, `mod`, `rem` or `quot` of two integers whose
/// result is an integer or a boolean (the builtin's steps). Anything else
/// (an overflow, a division by zero, a float, another count of arguments,
/// any other function) is called.
#[derive(Clone, Copy)]
enum Quick {
    Key,
    Arith(ArithOp),
    None,
}

impl Interp {
    /// Runs `body` with `f` ready to be called many times through
    /// [`Interp::call_again`]; the shared frame (if any) is dropped after
    /// it, whatever it returned.
    pub(crate) fn repeated<T>(
        &mut self,
        f: &Value,
        body: impl FnOnce(&mut Interp, &mut Repeated) -> Result<T>,
    ) -> Result<T> {
        let mut r = Repeated {
            f,
            bp: None,
            quick: Repeated::quick(f),
        };
        let out = body(self, &mut r);
        if let Some(bp) = r.bp {
            self.drop_frame(bp);
            self.budget.leave();
        }
        out
    }

    /// Calls the repeated function on `args`, taking their values.
    #[inline]
    pub(crate) fn call_again(&mut self, r: &mut Repeated, args: &mut [Value]) -> Result<Value> {
        match r.sharing(args.len()) {
            Some(c) => self.enter_again(c, r, |slots| {
                for (slot, a) in slots.iter_mut().zip(args.iter_mut()) {
                    *slot = super::take(a);
                }
            }),
            None => match self.quick_call(r, args) {
                Some(out) => out,
                None => self.call_mut(r.f, args),
            },
        }
    }

    /// [`Interp::call_again`] of arguments the caller keeps (a keyword or
    /// a builtin reads them in place; a closure's slots get copies).
    #[inline]
    pub(crate) fn call_again_ref(&mut self, r: &mut Repeated, args: &[Value]) -> Result<Value> {
        match r.sharing(args.len()) {
            Some(c) => self.enter_again(c, r, |slots| {
                for (slot, a) in slots.iter_mut().zip(args) {
                    slot.clone_from(a);
                }
            }),
            None => match self.quick_call(r, args) {
                Some(out) => out,
                None => self.call(r.f, args),
            },
        }
    }

    /// [`Interp::call_again`] of a closure of one fixed arity matching
    /// `args`: [`Interp::enter_closure`] with the frame kept.
    #[inline(always)]
    fn enter_again(
        &mut self,
        c: &Arc<Closure>,
        r: &mut Repeated,
        set_args: impl FnOnce(&mut [Value]),
    ) -> Result<Value> {
        let arity = &c.proto.arities[0];
        self.budget.tick(1)?;
        let bp = match r.bp {
            Some(bp) => bp,
            None => self.push_shared_frame(arity.frame_size.max(arity.fixed), r)?,
        };
        set_args(&mut self.stack[bp..]);
        match self.run_fn_body(c, arity, bp) {
            Ok(v) => {
                if let Some(id) = c.proto.global {
                    self.record_return(id, &v);
                }
                Ok(v)
            }
            Err(e) => Err(e.or_source(&c.proto.source)),
        }
    }

    /// The call of `r`'s function on `args` made in place ([`Quick`]), or
    /// `None` when it must be called.
    #[inline]
    fn quick_call(&mut self, r: &Repeated, args: &[Value]) -> Option<Result<Value>> {
        match (r.quick, args) {
            (Quick::Key, [m]) => Some(Ok(lookup(m, r.f).unwrap_or(Value::Nil))),
            (Quick::Arith(op), [Value::Int(a), Value::Int(b)]) => {
                let v = op.ints(*a, *b)?;
                // The builtin's steps: one for the call, and one per
                // argument but for `mod`, `rem` and `quot`.
                let steps = match op {
                    ArithOp::Mod | ArithOp::Rem | ArithOp::Quot => 1,
                    _ => 3,
                };
                if let Err(e) = self.budget.tick_settled(steps) {
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
        assert_eq!(last.to_string(), "9");
    }

    /// A quick call (`Quick`) against the call it stands in for: the same
    /// value or error, the same steps.
    #[test]
    fn quick_calls_give_what_the_call_gives() {
        use super::{Quick, Repeated};
        use crate::value::Value;

        fn both(i: &mut Interp, f: &Value, args: &[Value]) -> [(String, u64); 2] {
            [Repeated::quick(f), Quick::None].map(|quick| {
                let mut r = Repeated { f, bp: None, quick };
                let before = i.budget.steps();
                let out = match i.call_again(&mut r, &mut args.to_vec()) {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("{:?}: {}", e.kind(), e.message()),
                };
                (out, i.budget.steps() - before)
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
        let two = [Value::Nil, Value::Int(0)];
        assert_eq!(both(&mut i, &kw, &two)[0], both(&mut i, &kw, &two)[1]);
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
}
