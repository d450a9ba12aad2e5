//! Issue 62: the idioms that went quadratic are linear, shown by what the
//! budget charges (never by timing). Each idiom runs at 1,000 and 10,000
//! elements, once with only its input built and once with the idiom too;
//! the idiom's own steps and heap bytes (the difference) must grow about
//! tenfold, not a hundredfold. The charges stand for the work done
//! (`eval/budget.rs`): `str` charges the bytes it builds, `subs` the bytes
//! it copies or walks, `count` and `nth` the bytes they walk in a text
//! that is not ASCII, `keys` a step per key — so a quadratic walk shows as
//! a quadratic charge (the last test checks that it does).

use crate::eval::Interp;
use crate::Limits;

/// The steps and heap bytes `body` adds to `setup` at size `n` (`{n}` in
/// either), and the value it printed.
fn charged(setup: &str, body: &str, n: usize) -> (u64, u64, String) {
    let run = |src: String| {
        let mut interp = Interp::new(Box::<crate::StaticHost>::default(), Limits::none());
        let out = interp.run_program(&src);
        let shown = match out.result {
            Ok(v) => v.to_string(),
            Err(e) => panic!("{src}: {}", e.message()),
        };
        (interp.budget.steps(), interp.budget.heap_bytes(), shown)
    };
    let n = n.to_string();
    let (s0, h0, _) = run(setup.replace("{n}", &n));
    let (s1, h1, shown) = run(format!("{setup}\n{body}").replace("{n}", &n));
    (s1 - s0, h1 - h0, shown)
}

/// The growth of the idiom's steps and heap from 1k to 10k elements.
fn growth(setup: &str, body: &str) -> (f64, f64) {
    let (s1, h1, _) = charged(setup, body, 1_000);
    let (s2, h2, _) = charged(setup, body, 10_000);
    let ratio = |a: u64, b: u64| b as f64 / a.max(1) as f64;
    (ratio(s1, s2), ratio(h1, h2))
}

/// Linear: about tenfold from 1k to 10k (a little more where the numbers
/// written grow from three digits to four); a quadratic idiom is ~100.
fn assert_linear(setup: &str, body: &str) {
    let (steps, heap) = growth(setup, body);
    assert!(
        steps < 20.0 && heap < 20.0,
        "{body}: steps grew {steps:.1}x and heap {heap:.1}x from 1k to 10k"
    );
}

const VEC: &str = "(def xs (vec (range {n})))";
const ASCII: &str = "(def s (apply str (repeat {n} \"a\")))";
const MAP: &str = "(def m (zipmap (range {n}) (range {n})))";

#[test]
fn str_onto_an_accumulator_is_linear() {
    assert_linear(
        VEC,
        "(count (reduce (fn [acc x] (str acc x \",\")) \"\" xs))",
    );
    assert_linear(VEC, "(count (reduce (fn [acc x] (str acc x)) \"\" xs))");
    assert_linear(
        VEC,
        "(count (loop [acc \"\" v xs] (if (seq v) (recur (str acc (first v) \"é\") (rest v)) acc)))",
    );
    assert_linear(
        VEC,
        "(count (reduce (fn [acc x] (apply str [acc x \",\"])) \"\" xs))",
    );
    let (_, _, shown) = charged(
        VEC,
        "(reduce (fn [acc x] (str acc x \",\")) \"\" xs)",
        1_000,
    );
    assert!(shown.starts_with("\"0,1,2,") && shown.ends_with("998,999,\""));
}

#[test]
fn a_shared_accumulator_is_copied_not_written() {
    // Each text is held by the vector too when `str` runs on it: copied,
    // so every earlier text stays as it was.
    let (_, _, shown) = charged(
        "(def xs [1 2 3])",
        "[(reduce (fn [acc x] (conj acc (str (peek acc) x))) [\"s\"] xs) (let [b (str \"a\" (count xs)) c (str b \"x\")] [b c (str b \"y\")])]",
        0,
    );
    assert_eq!(
        shown,
        "[[\"s\" \"s1\" \"s12\" \"s123\"] [\"a3\" \"a3x\" \"a3y\"]]"
    );
}

#[test]
fn walking_a_string_is_linear() {
    assert_linear(
        ASCII,
        "(def n (count s)) (loop [i 0 k 0] (if (< i n) (recur (inc i) (if (= (subs s i (inc i)) \"a\") (inc k) k)) k))",
    );
    assert_linear(ASCII, "(loop [i 0] (if (< i (count s)) (recur (inc i)) i))");
    assert_linear(
        ASCII,
        "(loop [i 0 k 0] (if (< i (count s)) (recur (inc i) (if (= (nth s i) \"a\") (inc k) k)) k))",
    );
}

#[test]
fn counting_keys_and_vals_is_linear() {
    assert_linear(
        MAP,
        "(loop [i 0] (if (< i (count (keys m))) (recur (inc i)) i))",
    );
    assert_linear(
        MAP,
        "(loop [i 0] (if (< i (count (vals m))) (recur (inc i)) i))",
    );
    assert_linear(
        MAP,
        "(loop [i 0] (if (and (< i 9999) (not (empty? (keys m)))) (recur (inc i)) i))",
    );
}

#[test]
fn a_quadratic_walk_is_charged_as_one() {
    // A text that is not ASCII is walked by `count` and `nth`: charged for
    // it, so the step limit and the clock see the quadratic loop.
    let (steps, _) = growth(
        "(def s (apply str (repeat {n} \"é\")))",
        "(loop [i 0] (if (< i (count s)) (recur (inc i)) i))",
    );
    assert!(steps > 50.0, "steps grew only {steps:.1}x");
}
