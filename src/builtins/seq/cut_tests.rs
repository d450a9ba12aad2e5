//! Walking and cutting long vectors in each representation (`value/vector/`:
//! small, flat, tree, and the slices `rest`, `drop`, `take` and `subvec` of
//! a flat one give): the same values and the same steps whatever the
//! representation (EVAL-STEPS-1 counts items, never storage), and a write
//! to a cut never shows in the vector it was cut from.

use crate::builtins::testing::run_program;

/// The value (printed, or `ERROR` and the error) and the steps of `src`.
fn run(src: &str) -> (String, u64) {
    let run = run_program(src, None, false);
    let shown = if run.ok {
        run.shown
    } else {
        format!("ERROR {}", run.shown)
    };
    (shown, run.steps)
}

/// `(def v …)` of the items 0..n, built flat (`vec` of a range) or as a
/// tree (a write to a flat vector another value holds: the written copy is
/// a tree), with the write undone so the items are the same.
fn define(n: i64, tree: bool) -> String {
    if tree {
        format!("(def base (vec (range {n}))) (def v (assoc base 0 0))")
    } else {
        format!("(def v (vec (range {n})))")
    }
}

#[test]
fn walks_and_cuts_give_the_same_values_and_steps_in_every_representation() {
    let walks = [
        // rest, next and destructuring walks
        "(loop [xs v t 0] (if (seq xs) (recur (rest xs) (mod (+ (* 3 t) (first xs)) 1000003)) t))",
        "(loop [xs (seq v) t 0] (if xs (recur (next xs) (+ t (* (first xs) (count xs)))) t))",
        "(loop [[x & xs] v t 0] (if x (recur xs (+ t x)) t))",
        // cuts of cuts, and the cut of a cut written to
        "(let [a (drop 3 v) b (rest a) c (take 70 b)] [(count a) (first b) (last c) (count (subvec (vec b) 2 (dec (count b))))])",
        "(let [r (rest v) w (conj r :end) u (assoc (vec (rest r)) 0 :first)] [(count v) (last v) (count r) (last r) (last w) (first u) (nth r 0)])",
        "(reduce + (map first (take-while seq (iterate rest (subvec v 1)))))",
        "(let [r (nthrest v 5)] [(= r (drop 5 v)) (= (seq r) (vec (drop 5 v))) (contains? #{(vec (drop 5 v))} r) (get {r 1} (vec (drop 5 v)))])",
    ];
    for n in [40, 65, 66, 300] {
        for walk in walks {
            // The walk's own steps: the run's less its definition's.
            let walked = |tree: bool| {
                let (shown, steps) = run(&format!("{} {walk}", define(n, tree)));
                (shown, steps - run(&define(n, tree)).1)
            };
            let (flat, tree) = (walked(false), walked(true));
            assert!(!flat.0.starts_with("ERROR"), "{n}: {walk}: {}", flat.0);
            assert_eq!(flat, tree, "{n}: {walk}: flat, then tree");
        }
    }
    // The values, from the items themselves.
    let (sum, _) = run(&format!(
        "{} (loop [[x & xs] v t 0] (if x (recur xs (+ t x)) t))",
        define(300, false)
    ));
    assert_eq!(sum, (0..300).sum::<i64>().to_string());
    let (cut, _) = run(&format!(
        "{} (let [r (rest v) w (conj r :end)] [(count v) (last v) (count r) (first r) (last w) (count w)])",
        define(300, false)
    ));
    assert_eq!(cut, "[300 299 299 1 :end 300]");
}
