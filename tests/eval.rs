//! Evaluator behaviour through the public API: special forms, closures,
//! recursion limits, transactional memory, tools and data, error spans.

use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{ErrorKind, Interp, Limits, Value};

fn run(src: &str) -> Result<String, (ErrorKind, String)> {
    let mut interp = Interp::standalone();
    let out = interp.run_program(src);
    out.result
        .map(|v| v.to_string())
        .map_err(|e| (e.kind(), e.message().to_string()))
}

fn ok(src: &str) -> String {
    run(src).unwrap_or_else(|e| panic!("{src}: {e:?}"))
}

fn err(src: &str) -> ErrorKind {
    match run(src) {
        Ok(v) => panic!("{src}: expected an error, got {v}"),
        Err((k, _)) => k,
    }
}

#[test]
fn closures_capture_by_value_across_levels() {
    assert_eq!(
        ok("(let [a 1] (let [f (fn [b] (fn [c] [a b c]))] ((f 2) 3)))"),
        "[1 2 3]"
    );
    assert_eq!(ok("(defn adder [n] (fn [x] (+ x n))) ((adder 10) 5)"), "15");
}

#[test]
fn named_fn_and_letfn_recursion() {
    assert_eq!(
        ok("((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 10)"),
        "3628800"
    );
    assert_eq!(
        ok("(letfn [(ev? [n] (if (zero? n) true (od? (dec n)))) (od? [n] (if (zero? n) false (ev? (dec n))))] [(ev? 10) (od? 7)])"),
        "[true true]"
    );
}

#[test]
fn loop_recur_runs_in_constant_stack() {
    assert_eq!(
        ok("(loop [i 0 acc 0] (if (< i 100000) (recur (inc i) (+ acc i)) acc))"),
        "4999950000"
    );
}

#[test]
fn recur_outside_tail_position_is_rejected_before_running() {
    assert_eq!(err("(loop [x 0] (inc (recur x)))"), ErrorKind::Validation);
    assert_eq!(err("(recur 1)"), ErrorKind::Validation);
}

#[test]
fn unbounded_recursion_hits_the_depth_limit_not_the_native_stack() {
    assert_eq!(
        err("(defn f [n] (+ 1 (f n))) (f 0)"),
        ErrorKind::LimitExceeded
    );
    let mut interp = Interp::new(
        Box::new(StaticHost::default()),
        Limits {
            max_depth: Some(10_000),
            ..Limits::default()
        },
    );
    let out = interp.run_program("(defn g [n] (if (zero? n) 0 (+ 1 (g (dec n))))) (g 9000)");
    assert_eq!(out.result.unwrap(), Value::Int(9000));
}

#[test]
fn infinite_loops_stop_at_the_step_limit() {
    let mut interp = Interp::new(
        Box::new(StaticHost::default()),
        Limits {
            max_steps: Some(100_000),
            timeout_ms: None,
            ..Limits::default()
        },
    );
    let out = interp.run_program("(loop [] (recur))");
    assert_eq!(out.result.unwrap_err().kind(), ErrorKind::LimitExceeded);
}

#[test]
fn a_failed_program_leaves_memory_unchanged() {
    let mut interp = Interp::standalone();
    assert!(interp.run_program("(def x 1) (defn f [] x)").is_ok());
    let out = interp.run_program("(def x 2) (def y 3) (undefined-thing)");
    assert_eq!(out.result.unwrap_err().kind(), ErrorKind::Undefined);
    assert_eq!(interp.globals.lookup("x").unwrap().value, Value::Int(1));
    assert!(interp.globals.lookup("y").is_none());
    assert_eq!(interp.run_program("(f)").result.unwrap(), Value::Int(1));
}

#[test]
fn defs_are_visible_to_later_forms_and_turns() {
    let mut interp = Interp::standalone();
    assert!(interp.run_program("(def a 1) (def b (+ a 1))").is_ok());
    assert_eq!(
        interp.run_program("[a b]").result.unwrap().to_string(),
        "[1 2]"
    );
}

#[test]
fn errors_carry_line_and_column() {
    let mut interp = Interp::standalone();
    let out = interp.run_program("(def x 1)\n  (foo x)");
    let e = out.result.unwrap_err();
    assert_eq!(e.line_col(), Some((2, 4)));
    assert!(e.message().contains("foo"));
}

#[test]
fn errors_inside_functions_from_earlier_turns_point_into_their_source() {
    let mut interp = Interp::standalone();
    assert!(interp.run_program("(defn bad [x]\n  (count x))").is_ok());
    let e = interp.run_program("(bad 5)").result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.line_col(), Some((2, 3)));
}

#[test]
fn tools_are_called_and_recorded_even_when_they_fail() {
    let mut host = StaticHost::default();
    host.tools
        .insert("ok".into(), CannedTool::Returns(Value::Int(7)));
    host.tools
        .insert("broken".into(), CannedTool::Error("down".into()));
    let mut interp = Interp::new(Box::new(host), Limits::default());
    assert_eq!(
        interp.run_program("(+ (tool/ok 1) (ok 2))").result.unwrap(),
        Value::Int(14)
    );
    assert_eq!(interp.tool_calls.len(), 2);
    let e = interp
        .run_program("(tool/broken {:id 1})")
        .result
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Tool);
    assert!(e.message().contains("broken") && e.message().contains("down"));
    assert_eq!(interp.tool_calls.len(), 1);
}

#[test]
fn bare_names_fall_back_to_data_and_report_ambiguity() {
    let mut host = StaticHost::default();
    host.data.insert(
        "items".into(),
        Value::vector_from([Value::Int(1), Value::Int(2)]),
    );
    host.data.insert("both".into(), Value::Int(1));
    host.tools
        .insert("both".into(), CannedTool::Returns(Value::Nil));
    let mut interp = Interp::new(Box::new(host), Limits::default());
    assert_eq!(
        interp.run_program("(count items)").result.unwrap(),
        Value::Int(2)
    );
    assert_eq!(
        interp.run_program("both").result.unwrap_err().kind(),
        ErrorKind::Execution
    );
    let e = interp.run_program("data/itemz").result.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Undefined);
    assert!(e.message().contains("data/items"), "{}", e.message());
}

#[test]
fn try_catches_runtime_errors_but_not_limits() {
    assert_eq!(
        ok("(try (throw (ex-info \"boom\" {:a 1})) (catch Exception e (ex-data e)))"),
        "{:a 1}"
    );
    assert_eq!(ok("(try (count 5) (catch Exception e :caught))"), ":caught");
    assert_eq!(
        err("(defn f [] (f)) (try (f) (catch Exception e :caught))"),
        ErrorKind::LimitExceeded
    );
}

#[test]
fn return_ends_the_program_with_its_value() {
    let mut interp = Interp::standalone();
    let out = interp.run_program("(def a 1) (return (+ a 1)) (def b 2)");
    assert!(out.returned);
    assert_eq!(out.result.unwrap(), Value::Int(2));
    assert!(interp.globals.lookup("a").is_some());
    assert!(interp.globals.lookup("b").is_none());
}

#[test]
fn comprehensions_support_let_when_while() {
    assert_eq!(
        ok("(for [x [1 2 3 4 5] :let [y (* x x)] :when (odd? x) :while (< y 20)] y)"),
        "[1 9]"
    );
    assert_eq!(
        ok("(for [x [1 2] y [:a :b]] [x y])"),
        "[[1 :a] [1 :b] [2 :a] [2 :b]]"
    );
}

#[test]
fn destructuring_handles_nesting_defaults_and_rest() {
    assert_eq!(
        ok("(let [[a [b c] & more] [1 [2 3] 4 5]] [a b c more])"),
        "[1 2 3 [4 5]]"
    );
    assert_eq!(
        ok("(let [{:keys [a b] :or {b 9} :as m} {:a 1}] [a b m])"),
        "[1 9 {:a 1}]"
    );
    assert_eq!(ok("(defn f [& {:keys [x]}] x) (f :x 3)"), "3");
}

#[test]
fn map_and_filter_of_infinite_sequences_are_consumed_lazily() {
    assert_eq!(ok("(take 5 (map #(* % %) (range)))"), "[0 1 4 9 16]");
    assert_eq!(ok("(first (filter #(> % 10) (iterate inc 1)))"), "11");
    assert_eq!(
        ok("(->> (range) (map inc) (filter even?) (drop 1) (take 3))"),
        "[4 6 8]"
    );
    assert_eq!(err("(count (map inc (range)))"), ErrorKind::LimitExceeded);
    assert_eq!(err("(vec (filter odd? (range)))"), ErrorKind::LimitExceeded);
}

#[test]
fn last_use_moves_never_change_what_a_program_means() {
    // Values given to a function or a reduce stay as they were (persistence).
    assert_eq!(
        ok("(let [init {:x 1} r (reduce (fn [acc i] (assoc acc i i)) init (range 3))] [init r])"),
        "[{:x 1} {:x 1 0 0 1 1 2 2}]"
    );
    assert_eq!(
        ok("(def base [1 2]) (defn add3 [v] (conj v 3)) [(add3 base) base]"),
        "[[1 2 3] [1 2]]"
    );
    // A local read twice in a tail call is only moved at its last read.
    assert_eq!(ok("(defn twice [m] (merge m m)) (twice {:a 1})"), "{:a 1}");
    assert_eq!(
        ok("(defn f [acc] (assoc acc :n (count acc))) (f {:a 1 :b 2})"),
        "{:a 1 :b 2 :n 2}"
    );
    // A local from outside a loop is read again on every iteration.
    assert_eq!(
        ok("(defn k [m] (loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (assoc m :i i))) acc))) (k {:z 0})"),
        "[{:z 0 :i 0} {:z 0 :i 1} {:z 0 :i 2}]"
    );
    // Accumulators in self-recursion and reduce build the right result.
    assert_eq!(
        ok("(defn build [n acc] (if (zero? n) acc (build (dec n) (conj acc n)))) (build 4 [])"),
        "[4 3 2 1]"
    );
    assert_eq!(
        ok("(reduce (fn [acc w] (update acc w (fnil inc 0))) {} [\"a\" \"b\" \"a\"])"),
        "{\"a\" 2 \"b\" 1}"
    );
    // Captured values are copies: the closure keeps its own.
    assert_eq!(
        ok("(let [v [1]] (defn f2 [] (conj v 2))) [(f2) (f2)]"),
        "[[1 2] [1 2]]"
    );
    // A loop that is not the last thing in the function keeps its outer locals.
    assert_eq!(
        ok("(defn g [m] (let [r (loop [i 0] (assoc m :i i))] [r m])) (g {:a 1})"),
        "[{:a 1 :i 0} {:a 1}]"
    );
}
