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
