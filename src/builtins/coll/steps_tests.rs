//! The in-place paths of this module against the reference run (every
//! optimisation off, `eval/reference.rs`): the same value or whole error
//! (kind, message, line and column), the same steps (EVAL-STEPS-1) and
//! no more heap bytes (the reference pays for the copies the in-place
//! paths avoid; counting keys builds none either way, so the same), and
//! under every step limit short of the program's steps the same error at
//! the same place.

use crate::builtins::testing::{run_program as run, Run};
use crate::eval::Interp;

/// Asserts `src` runs alike both ways, unlimited (the optimised run
/// charging no more heap) and under every step limit below its steps;
/// returns the unlimited runs, optimised first.
fn alike(src: &str) -> (Run, Run) {
    let (o, r) = (run(src, None, false), run(src, None, true));
    assert_eq!(
        (&o.shown, o.steps),
        (&r.shown, r.steps),
        "{src}: optimised, then reference"
    );
    assert!(o.heap <= r.heap, "{src}: {o:?} {r:?}");
    for m in 1..o.steps {
        let (o, r) = (run(src, Some(m), false), run(src, Some(m), true));
        assert_eq!(o.shown, r.shown, "{src} under {m} steps");
    }
    (o, r)
}

#[test]
fn count_or_empty_of_keys_or_vals_is_charged_as_the_plain_pair() {
    for outer in ["count", "empty?"] {
        for inner in ["keys", "vals"] {
            for m in [
                "{:a 1 :b 2 :c 3}",
                "{}",
                "nil",
                "(zipmap (range 40) (range 40))",
                "(sorted-map :b 1 :a 2)",
                "[[:a 1] [:b 2]]",
                "[]",
                "5",
                "\"ab\"",
                "(lazy-seq [[:a 1]])",
            ] {
                let (o, r) = alike(&format!("(def m {m})\n({outer}\n  ({inner} m))"));
                assert_eq!(o, r, "{outer} {inner} {m}");
            }
        }
    }
    // An error of the inner part is reported at the inner call.
    let (bad, _) = alike("(def m 5)\n(count\n  (keys m))");
    assert!(bad.shown.contains("at Some((3, 3))"), "{bad:?}");
    let src = "(def m {:a 1 :b 2 :c 3})\n(count\n  (keys m))";
    let all = run(src, None, false).steps;
    let limited = run(src, Some(all - 2), false);
    assert!(limited.shown.contains("step limit"), "{limited:?}");
    assert!(limited.shown.contains("at Some((3, 3))"), "{limited:?}");
}

#[test]
fn keys_for_count_hands_the_map_on_without_walking_it() {
    let map = crate::value::Value::Map(crate::value::Map::from_iter(
        (0..1000).map(|i| (crate::value::Value::Int(i), crate::value::Value::Nil)),
    ));
    let mut interp = Interp::standalone();
    let r =
        (super::entry_count::KEYS_FOR_COUNT.f)(&mut interp, std::slice::from_ref(&map)).unwrap();
    assert!(matches!(&r, crate::value::Value::Map(m) if m.len() == 1000));
    // Rule COST-ENTRIES-1: nothing built, nothing charged beyond the
    // call's own step (charged by whoever calls it).
    assert_eq!(interp.budget.steps(), 0);
    assert_eq!(interp.budget.heap_bytes(), 0);
}

#[test]
fn merge_with_into_its_first_map_is_charged_as_a_new_map() {
    for src in [
        "(merge-with + {:c 5 :e 9 :d 2} {:e 3 :c 1})",
        "(merge-with + {:c 5 :e 9 :d 2}\n  {:e 3 :c 1} nil {:f 1})",
        "(merge-with + nil {:a 1})",
        "(merge-with + {} {:a 1})",
        "(merge-with + {:a 1} 5)",
        "(merge-with + {:a 1}\n  {:a \"x\"})",
        "(merge-with + (sorted-map :b 1 :a 2) {:c 3 :0 1})",
        "(merge-with + (zipmap (range 40) (range 40)) {1 1 50 2})",
        "(reduce #(merge-with + %1 %2) {} [{:a 1 :b 2} {:b 3 :c 4} {:a 5}])",
        "(let [m {:x 1 :y 2}] [(merge-with + m {:x 3}) m])",
    ] {
        alike(src);
    }
}

#[test]
fn a_map_of_n_entries_costs_what_its_n_inserts_add_up_to() {
    use crate::value::cost::{map_bytes, map_insert};
    let mut sum = 0;
    for n in 0..5000 {
        assert_eq!(sum, map_bytes(n), "{n} entries");
        sum += map_insert(n);
    }
}

/// `(into [] v)` hands `v` on in an optimised run, charged the steps and
/// heap of the reference run's item-by-item copy: the same, at sizes on
/// both sides of a small vector's, and under every step limit the same
/// error at the same place.
#[test]
fn into_an_empty_vector_hands_the_vector_on_charged_as_the_copy() {
    for n in [0, 1, 2, 63, 64, 65, 66, 130, 700] {
        let src = format!("(def xs (vec (range {n})))\n(into [] (concat xs [:end]))");
        let (o, r) = alike(&src);
        assert_eq!(o.heap, r.heap, "{src}");
    }
    for src in [
        "(count (reduce (fn [acc x]\n  (into [] (concat acc [x]))) [] (range 40)))",
        "(let [v [1 2 3] w (into [] (concat v [4]))] [v w (conj w 5) v])",
        "(into [] (concat [1 2] (map inc [3 4])))",
        "(into [] [nil false])",
    ] {
        alike(src);
    }
}

#[test]
fn n_pushes_cost_what_each_push_adds_up_to() {
    use crate::value::cost::{vector_push, vector_pushes};
    for len in [0, 1, 30, 62, 63, 64, 65, 66, 200] {
        let mut sum = 0;
        for n in 0..300 {
            assert_eq!(vector_pushes(len, n), sum, "{n} pushes onto {len}");
            sum += vector_push(len + n);
        }
    }
}
