//! Last-use moves: a local read whose slot is provably never read again is
//! compiled to [`Expr::MoveLocal`], which takes the value out of the slot.
//! A collection then held only by the argument can be updated in place by
//! the callee (`assoc` on a `reduce` accumulator, `conj` in a self-recursive
//! call) instead of being copied.
//!
//! **Rule MOVE-1 (soundness).** A move takes a value out of its slot, and
//! what the callee holds may then be written in place; it is sound only
//! when no evaluation after the move can read the slot before writing it.
//! Moves are marked at three points, and only there, each with the set of
//! slots dead once its expression has been evaluated:
//! 1. a call in the tail position of a function body, not inside a loop
//!    that is itself outside the body's tail position (`tail_open`): the
//!    frame ends once its arguments are evaluated — every slot is dead
//!    ([`dead_at_frame_end`]);
//! 2. the arguments of `recur`: the slots from the innermost loop's first
//!    (its bindings and every local bound in its body; for a function, all
//!    of them) are written again before they are read; a slot below it — a
//!    parameter or outer local the loop reads — is read by the next
//!    iteration and never moved ([`dead_after_iteration`]);
//! 3. the binding values of a `let` in either tail position, and its body
//!    when that is a local: after it the frame ends *or* `recur` runs the
//!    loop (or function) body again, so only the slots of rule 2 are dead
//!    ([`dead_after_iteration`]). Moving a slot below the loop here made
//!    `(loop [i 0] (let [n (count xs)] (if (< i n) (recur (inc i)) i)))`
//!    read `xs` as nil from its second iteration (issue 58).
//!
//! Within each, an argument that is a plain local read is moved only when
//! no expression evaluated after it (later arguments, later bindings, the
//! body — at any depth) may read the same slot. The read check
//! ([`reads`]) is conservative: the forms it does not look into (`loop`,
//! `letfn`, `try`, `for`, `case`) count as reads, and a closure made later
//! reads its captures when it is made (closures capture by value). A
//! builtin's argument that only its later arguments read again is taken
//! late instead ([`Expr::MoveLocalLate`]: after they are evaluated), and a
//! slot taken late is neither moved nor taken late by any later argument.
//! A vector literal among the arguments has its items marked as a call's
//! arguments are (they are evaluated in order into the vector, which the
//! call alone then holds): `(apply str [acc x ","])` hands `apply` a
//! vector holding the accumulator's only handle.
//!
//! The reference run (`Interp::set_reference`) marks no moves at all (its
//! analysis has `Context::moves` off), and the oracle test
//! (`tests/oracle.rs`) checks that every corpus gives the same outcome
//! both ways.

use super::expr::{Expr, Slot};

/// MOVE-1, point 1: once a call in the frame's tail position has its
/// arguments, every slot is dead.
pub fn dead_at_frame_end(_: Slot) -> bool {
    true
}

/// MOVE-1, points 2 and 3: after `recur`'s arguments or a `let` in tail
/// position, the slots from `recur_base` (the innermost loop's first slot,
/// 0 in a function) on are dead; the ones below are read again by the
/// next iteration.
pub fn dead_after_iteration(recur_base: Slot) -> impl Fn(Slot) -> bool {
    move |s| s >= recur_base
}

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
        // A vector literal's items are evaluated in order into the vector
        // (`(apply str [acc x ","])`: the vector, then its items, held by
        // the call alone).
        Expr::Vector(items) => mark_args(items, later, movable),
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

    /// MOVE-1: a `let` ending a loop's iteration moves only the loop's own
    /// slots. A parameter or outer local read in its bindings is read again
    /// by the next iteration (it was nil from the second on: issue 58).
    #[test]
    fn a_let_ending_an_iteration_never_moves_what_the_next_one_reads() {
        for (src, want) in [
            (
                "(defn f [xs] (loop [i 0] (let [n (count xs)] (if (< i n) (recur (inc i)) i)))) (f [1 2 3])",
                "3",
            ),
            // Binary search: the vector read by index every iteration.
            (
                "(defn bs [v t] (loop [lo 0 hi (dec (count v))] (if (> lo hi) -1                  (let [mid (quot (+ lo hi) 2) x (nth v mid)]                  (cond (= x t) mid (< x t) (recur (inc mid) hi) :else (recur lo (dec mid)))))))
                 (bs [1 3 5 7 9 11] 9)",
                "4",
            ),
            // Two-sum over a map built along the way.
            (
                "(defn two-sum [xs t] (loop [i 0 seen {}] (when (< i (count xs))                  (let [x (nth xs i) j (get seen (- t x))]                  (if j [j i] (recur (inc i) (assoc seen x i))))))) (two-sum [2 7 11 15] 26)",
                "[2 3]",
            ),
            // Character scanning of an outer string.
            (
                "(defn vowels [s] (loop [i 0 n 0] (if (< i (count s))                  (let [c (subs s i (inc i))] (recur (inc i) (if (#{\"a\" \"e\" \"o\"} c) (inc n) n))) n)))                  (vowels \"banana bread\")",
                "5",
            ),
            // Inside an anonymous fn handed to mapv, the capture and the
            // parameter alike.
            (
                "(let [xs [10 20 30]] (mapv (fn [k] (loop [i 0 acc 0] (let [x (nth xs i)]                  (if (< i k) (recur (inc i) (+ acc x)) acc)))) [0 1 2]))",
                "[0 10 30]",
            ),
            (
                "(mapv (fn [v] (loop [i 0] (let [x (get v i)] (if (and x (< i 5)) (recur (inc i)) i)))) [[1 2] [3]])",
                "[2 1]",
            ),
            // The first element and a `take` of an outer local, in a let
            // whose body recurs, and one that ends the frame.
            (
                "(defn g [xs] (loop [i 0 out []] (let [h (first xs) t (take 2 xs)]                  (if (< i 2) (recur (inc i) (conj out [h (count t)])) out)))) (g [4 5 6])",
                "[[4 2] [4 2]]",
            ),
            // A function's own `recur` rebinds every parameter: what its
            // `let` reads of a parameter it passes on is still there.
            (
                "(defn h [xs i] (let [n (count xs)] (if (< i n) (recur xs (inc i)) i))) (h [1 2] 0)",
                "2",
            ),
        ] {
            assert_eq!(run(src).0, want, "{src}");
            let mut reference = crate::eval::Interp::standalone();
            reference.set_reference(true);
            assert_eq!(reference.run_for_heap(src).0, want, "reference: {src}");
        }
    }

    /// MOVE-1 path by path: each program reads a value again after a
    /// place that may move it, and gives what the reference run (no moves,
    /// nothing compiled or written in place) gives.
    #[test]
    fn every_path_that_moves_agrees_with_the_reference() {
        let programs = [
            // recur's arguments: a parameter read again by the next
            // iteration, an accumulator passed on.
            "(defn f [xs] (loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (count xs))) [acc xs]))) (f [1 2])",
            "(defn f [acc n] (if (zero? n) acc (recur (conj acc n) (dec n)))) (let [v [0]] [(f v 3) v])",
            // A let ending the frame, and one ending an iteration.
            "(defn f [v] (let [a (conj v 1) b (conj v 2)] [a b v])) (f [0])",
            "(defn f [v m] (loop [i 0 out m] (let [k (nth v i) o (assoc out k i)] (if (< i (dec (count v))) (recur (inc i) o) [o v m])))) (f [:a :b] {})",
            // A call ending the frame after a loop that read the local.
            "(defn f [v] (loop [i 0] (if (< i 2) (recur (inc i)) (conj v i)))) (let [v [9]] [(f v) v])",
            // Closures capturing the local before and after a move.
            "(defn f [v] (let [g (fn [] (count v)) w (conj v 1)] [(g) w v])) (f [1 2])",
            "(defn f [v] (mapv (fn [i] (loop [j 0 acc v] (let [a (conj acc j)] (if (< j i) (recur (inc j) a) a)))) [0 1 2])) (f [7])",
            // Destructuring in parameters, let and loop bindings.
            "(defn f [[a & more :as all]] (loop [[x & xs] all acc []] (let [acc2 (conj acc x)] (if xs (recur xs acc2) [acc2 all more a])))) (f [1 2 3])",
            "(defn f [{:keys [xs] :as m}] (let [n (count xs) m2 (assoc m :n n)] [m2 m xs])) (f {:xs [1 2]})",
            // letfn, try and case in tail position.
            "(defn f [v] (letfn [(g [x] (conj x 0))] (let [w (g v)] [w v]))) (f [5])",
            "(defn f [v] (try (let [w (conj v 1)] [w v]) (catch Exception e v))) (f [5])",
            "(defn f [v k] (case k :a (let [w (conj v 1)] [w v]) (conj v 2))) [(f [5] :a) (f [5] :b)]",
            // Macros that expand into loops.
            "(defn f [v] [(with-out-str (dotimes [i 2] (print (conj v i)))) v]) (f [1 2])",
            "(defn f [v] [(with-out-str (doseq [x v] (let [w (conj v x)] (print (count w))))) v]) (f [1 2])",
            "(defn f [v] [(with-out-str (loop [i 0] (when (< i (count v)) (print (conj v i)) (recur (inc i))))) v]) (f [1 2])",
            "(defn f [s] (loop [i 0 acc \"\"] (let [c (subs s i (inc i))] (if (< (inc i) (count s)) (recur (inc i) (str acc c)) [(str acc c) s])))) (f \"abc\")",
            // The threading and conditional macros that expand into lets.
            "(defn f [v] (let [w (some-> v (conj 1) (conj 2))] [w v])) (f [0])",
            "(defn f [m] (let [n (cond-> m true (assoc :a 1) (:b m) (assoc :c 2))] [n m])) (f {:b 1})",
        ];
        for src in programs {
            let optimised = run(src).0;
            let mut reference = crate::eval::Interp::standalone();
            reference.set_reference(true);
            assert_eq!(optimised, reference.run_for_heap(src).0, "{src}");
            assert!(optimised.starts_with('['), "{src}: {optimised}");
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
