//! Last-use moves: a local read whose slot is provably never read again is
//! compiled to [`Expr::MoveLocal`], which takes the value out of the slot.
//! A collection then held only by the argument can be updated in place by
//! the callee (`assoc` on a `reduce` accumulator, `conj` in a self-recursive
//! call) instead of being copied.
//!
//! Two places qualify:
//! * a call in tail position of a function body (the frame ends with it):
//!   every local of the frame is dead after its arguments are evaluated;
//! * the arguments of `recur`: the slots bound inside the loop (its
//!   parameters and the locals of its body) are rebound before being read
//!   again;
//! * the binding values of a `let` in either of those tail positions, and
//!   its body when that is a local: the frame (or the loop's iteration)
//!   ends with the `let`.
//!
//! Inside such a call, an argument that is a plain local read is moved when
//! no argument evaluated after it (at any depth) reads the same slot. The
//! read check is conservative: forms it does not look into count as reads.
//! A builtin's argument that only its later arguments read again is taken
//! late instead ([`Expr::MoveLocalLate`]: after they are evaluated).

use super::expr::{Expr, Slot};

/// Marks moves in `e` (a call or a local read) given that the expressions
/// in `later` are evaluated after it and `movable` says which slots are dead
/// once everything has been evaluated.
pub fn mark(e: &mut Expr, later: &[&Expr], movable: &dyn Fn(Slot) -> bool) {
    match e {
        Expr::Local(s) => {
            let s = *s;
            if movable(s) && !later.iter().any(|x| reads(x, s)) {
                *e = Expr::MoveLocal(s);
            }
        }
        Expr::Call(c) => mark_args(&mut c.args, later, movable),
        Expr::CallBuiltin(_, args, _) => mark_builtin_args(args, later, movable),
        _ => {}
    }
}

/// Marks moves in a sequence of expressions evaluated in order, followed by
/// `later`.
pub fn mark_args(args: &mut [Expr], later: &[&Expr], movable: &dyn Fn(Slot) -> bool) {
    for i in 0..args.len() {
        let (head, tail) = args.split_at_mut(i + 1);
        let mut after: Vec<&Expr> = tail.iter().collect();
        after.extend_from_slice(later);
        mark(&mut head[i], &after, movable);
    }
}

/// [`mark_args`] of a builtin's arguments, which may also take a local
/// late ([`Expr::MoveLocalLate`]): an argument reading a dead local that
/// only the call's later arguments read again. A slot taken late is then
/// neither moved nor taken late by any later argument (at any depth): it
/// must still hold its value when the call takes it.
fn mark_builtin_args(args: &mut [Expr], later: &[&Expr], movable: &dyn Fn(Slot) -> bool) {
    let mut late: Vec<Slot> = Vec::new();
    for i in 0..args.len() {
        let (head, tail) = args.split_at_mut(i + 1);
        let mut after: Vec<&Expr> = tail.iter().collect();
        after.extend_from_slice(later);
        let still = |s: Slot| movable(s) && !late.contains(&s);
        mark(&mut head[i], &after, &still);
        if let Expr::Local(s) = head[i] {
            if still(s) && !later.iter().any(|x| reads(x, s)) {
                // Read again by a later argument only (else `mark` moved it).
                head[i] = Expr::MoveLocalLate(s);
                late.push(s);
            }
        }
    }
}

/// Whether evaluating `e` may read slot `s` (conservative).
fn reads(e: &Expr, s: Slot) -> bool {
    let any = |es: &[Expr]| es.iter().any(|x| reads(x, s));
    match e {
        Expr::Local(x) | Expr::MoveLocal(x) | Expr::MoveLocalLate(x) | Expr::SeqToMap(x) => *x == s,
        Expr::Nth(x, ..) | Expr::NthRest(x, ..) => *x == s,
        Expr::Key(x, _, default, _) => *x == s || default.as_deref().is_some_and(|d| reads(d, s)),
        Expr::Const(_)
        | Expr::Capture(_)
        | Expr::SelfFn
        | Expr::Sibling(_)
        | Expr::Global(_)
        | Expr::Builtin(_)
        | Expr::Data(..)
        | Expr::TurnHistory(_) => false,
        Expr::Vector(items)
        | Expr::Set(items)
        | Expr::Do(items)
        | Expr::And(items)
        | Expr::Or(items) => any(items),
        Expr::Map(pairs) => pairs.iter().any(|(k, v)| reads(k, s) || reads(v, s)),
        Expr::Record(r) => r.values.iter().any(|v| reads(v, s)),
        Expr::Get(mk) => reads(&mk.0, s) || reads(&mk.1, s),
        Expr::If(b) => reads(&b.0, s) || reads(&b.1, s) || reads(&b.2, s),
        Expr::Let(binds, body) => {
            binds.iter().any(|b| b.slot == s || reads(&b.value, s)) || reads(body, s)
        }
        Expr::Call(c) => reads(&c.f, s) || any(&c.args),
        Expr::CallBuiltin(_, args, _) | Expr::CallTool(_, args, _) => any(args),
        Expr::Recur(r) => any(&r.args),
        Expr::Arith2(_, xy, ..) => reads(&xy.0, s) || reads(&xy.1, s),
        Expr::Step(_, x, ..) | Expr::Throw(x, _) => reads(x, s),
        Expr::MakeFn(_, captures) => any(captures),
        Expr::Def(d) => reads(&d.value, s),
        // Not looked into: assume they read it.
        Expr::Loop(_) | Expr::Letfn(_) | Expr::Try(_) | Expr::For(_) | Expr::Case(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::Interp;

    fn run(src: &str) -> (String, u64) {
        Interp::standalone().run_for_heap(src)
    }

    #[test]
    fn a_local_taken_late_gives_what_reading_it_gives() {
        for (src, want) in [
            // Read again by a later argument, directly and nested.
            (
                "(defn f [v] (assoc v :n (inc (:n v)))) (f {:n 1 :m 2})",
                "{:n 2 :m 2}",
            ),
            (
                "(defn f [v] (conj v (count v) v)) (f [1 2])",
                "[1 2 2 [1 2]]",
            ),
            // A later argument that would move it (its own last read) must
            // not: the slot still holds the value when the call takes it.
            ("(defn f [v] (assoc v 0 (conj v 1))) (f [5])", "[[5 1]]"),
            ("(defn f [v] (vector v v (count v))) (f [1])", "[[1] [1] 1]"),
            (
                "(defn f [v] (vector v (vector v v) v)) (f [1])",
                "[[1] [[1] [1]] [1]]",
            ),
            // Not in tail position: read after the call, never taken.
            (
                "(defn f [v] (let [w (assoc v :n (:n v))] [w v])) (f {:n 1})",
                "[{:n 1} {:n 1}]",
            ),
            // Read through another local and by a closure.
            (
                "(defn f [v] (let [w v] (assoc v :n (inc (:n w))))) (f {:n 1})",
                "{:n 2}",
            ),
            (
                "(defn f [v] (assoc v :g (fn [] v))) (:n ((:g (f {:n 3}))))",
                "3",
            ),
            // An error in a later argument leaves the value where it was.
            (
                "(defn f [v] (assoc v :n (inc (:s v)))) (f {:s \"x\"})",
                "Type",
            ),
        ] {
            assert_eq!(run(src).0, want, "{src}");
        }
    }

    /// Taken late, a record is updated where it is: a fold that bumps a
    /// field of its accumulator charges no copy per item (it did before
    /// the late take, and does when the record is read after the call).
    #[test]
    fn a_local_taken_late_is_updated_in_place() {
        let fold = |body: &str| {
            run(&format!(
                "(:hits (reduce (fn [acc _] {body}) {{:hits 0 :n 1}} (range 400)))"
            ))
        };
        let (late, late_heap) = fold("(assoc acc :hits (inc (:hits acc)))");
        let (kept, kept_heap) = fold("(let [r (assoc acc :hits (inc (:hits acc)))] (count acc) r)");
        assert_eq!((late.as_str(), kept.as_str()), ("400", "400"));
        let copies = 399 * crate::value::cost::record_bytes(2);
        assert!(late_heap + copies <= kept_heap, "{late_heap} {kept_heap}");
    }

    /// A `let` ending the frame (or a loop's iteration) moves what its
    /// bindings read for the last time, and a body that is a local: a fold
    /// through a `let` adds to its accumulator in place (it copied the
    /// vector's last chunk per item, and passed the default heap limit at
    /// ~9,000), and what is read again is never taken.
    #[test]
    fn a_let_ending_the_frame_moves_what_its_bindings_read_last() {
        for (src, want) in [
            ("(count (reduce (fn [acc x] (let [a (conj acc x)] a)) [] (range 100000)))", "100000"),
            (
                "(count (loop [acc [] i 0] (if (< i 100000) (let [a (conj acc i)] (recur a (inc i))) acc)))",
                "100000",
            ),
            ("(defn f [v] (let [w (conj v 1)] [v w])) (f [0])", "[[0] [0 1]]"),
            ("(defn f [v] (let [w (conj v 1) u (conj v 2)] [w u])) (f [0])", "[[0 1] [0 2]]"),
            ("(defn f [v] (let [w (conj v 1)] (fn [] v))) ((f [0]))", "[0]"),
            ("(defn f [v] (let [w v u w] [u w])) (f [0])", "[[0] [0]]"),
            (
                "(let [v [1]] (loop [acc v i 0] (if (< i 3) (let [a (conj acc i)] (recur a (inc i))) [v acc])))",
                "[[1] [1 0 1 2]]",
            ),
            (
                "(loop [acc [] i 0] (if (< i 2) (let [a (conj acc i)] (recur a (inc i))) (let [b (conj acc 9)] [acc b])))",
                "[[0 1] [0 1 9]]",
            ),
        ] {
            assert_eq!(run(src).0, want, "{src}");
        }
        let (_, heap) =
            run("(count (reduce (fn [acc x] (let [a (conj acc x)] a)) [] (range 10000)))");
        let (_, direct) = run("(count (reduce (fn [acc x] (conj acc x)) [] (range 10000)))");
        assert_eq!(heap, direct);
    }
}
