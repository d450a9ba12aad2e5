//! Class 4 of the sandbox: hash flooding. Values hash whole (every item of
//! every collection), shared parts once, so look-alike keys do not collide
//! and hash tables (`frequencies`, `distinct`, `group-by`, large maps) stay
//! linear. Each program runs with a 20 s timeout (so a loaded debug build
//! cannot fail them by accident) and a 64 MiB heap (default limits
//! otherwise): before whole hashing the look-alike keys made them
//! quadratic, minutes long.
//!
//! The heap: 4,000 vectors of 101 items are 4,000 large vectors (imbl
//! trees of four 64-slot chunks, about 6.4 KB each), some 30 MB of real
//! memory (peak RSS of `ptc run` on `LOOKALIKES`), which the heap
//! accounting counts since it charges what values really cost
//! (HEAP-COST-1); the tests are about hashing, not the heap limit.

use ptc_lisp::{Interp, Limits, StaticHost, Value};

fn interp_with(limits: Limits) -> Interp {
    Interp::new(Box::<StaticHost>::default(), limits)
}

/// 4,000 vectors of 101 items that differ only at index 100.
const LOOKALIKES: &str = "(def vs (mapv (fn [i] (assoc (vec (repeat 101 0)) 100 i)) (range 4000)))";

fn run_ok(src: &str) -> Value {
    let mut i = interp_with(Limits {
        timeout_ms: Some(20_000),
        max_heap_bytes: Some(64 << 20),
        ..Limits::default()
    });
    match i.run_program(src).result {
        Ok(v) => v,
        Err(e) => panic!("{src}: {}: {}", e.kind(), e.message()),
    }
}

#[test]
fn lookalike_vectors_do_not_collide_in_frequencies_or_distinct() {
    for counting in [
        "(count (frequencies vs))",
        "(count (distinct vs))",
        "(count (group-by identity vs))",
        "(count (set vs))",
    ] {
        let v = run_ok(&format!("{LOOKALIKES} {counting}"));
        assert_eq!(v, Value::Int(4000), "{counting}");
    }
}

#[test]
fn lookalike_keys_do_not_collide_in_large_maps() {
    let v = run_ok(&format!(
        "{LOOKALIKES} (def m (zipmap vs (range))) [(count m) (get m (nth vs 1234)) (count (reduce dissoc m (take 3000 vs)))]"
    ));
    assert_eq!(v.to_string(), "[4000 1234 1000]");
}

#[test]
fn lookalike_maps_and_nested_keys_do_not_collide() {
    // Records that differ only in a deep field.
    let v = run_ok(
        "(def rs (map (fn [i] {:a 1 :b 2 :c 3 :d {:e [0 0 0 0 0 0 0 0 0 i]}}) (range 4000)))
         [(count (frequencies rs)) (count (into #{} rs)) (count (distinct rs))]",
    );
    assert_eq!(v.to_string(), "[4000 4000 4000]");
}

#[test]
fn maps_equal_in_any_insertion_order_are_one_key() {
    let v = run_ok(
        "(def big-a (zipmap (range 40) (range 40)))
         (def big-b (zipmap (reverse (range 40)) (reverse (range 40))))
         [(= big-a big-b) (count (frequencies [{:a 1 :b 2} {:b 2 :a 1} big-a big-b]))
          (get {{:a 1 :b 2} :x} {:b 2 :a 1}) (get (zipmap (map (fn [i] {i i :k 0}) (range 20)) (range)) {:k 0 7 7})]",
    );
    assert_eq!(v.to_string(), "[true 2 :x 7]");
}

#[test]
fn self_sharing_keys_hash_in_linear_time() {
    // 2^60 paths each; two built separately, so no pointer shortcut.
    let v = run_ok(
        "(def x (reduce (fn [a _] [a a]) [1] (range 60)))
         (def y (reduce (fn [a _] [a a]) [1] (range 60)))
         (def m (zipmap (concat [x] (range 20)) (range)))
         [(count (frequencies [x y x])) (get m y) (count (distinct [x y]))]",
    );
    assert_eq!(v.to_string(), "[1 0 1]");
}

#[test]
fn hashing_is_charged_to_the_step_budget() {
    // One 100k-item vector hashed 200 times: 20M items of work in a
    // few hundred steps of the program itself.
    let mut i = interp_with(Limits {
        max_steps: Some(1_000_000),
        timeout_ms: Some(60_000),
        ..Limits::default()
    });
    let out = i.run_program("(def big (vec (range 100000))) (count (distinct (repeat 200 big)))");
    let e = out
        .result
        .expect_err("hashing 20M items stays inside a 1M-step budget");
    assert_eq!(
        e.kind(),
        ptc_lisp::ErrorKind::LimitExceeded,
        "{}",
        e.message()
    );
}
