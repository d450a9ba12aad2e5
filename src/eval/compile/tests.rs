//! Compiled code against the tree walker: every program here runs once with
//! its top-level forms walked and once with them compiled; the value or
//! error, the steps charged (rule EVAL-STEPS-1) and the heap bytes charged
//! must be the same.

use crate::eval::Interp;

/// The printed result or error, and the steps the turn charged.
fn run_with(src: &str, compile_top: bool) -> (String, u64) {
    let (shown, steps, _) = run_charged(src, compile_top);
    (shown, steps)
}

/// [`run_with`] and the heap bytes the turn charged.
fn run_charged(src: &str, compile_top: bool) -> (String, u64, u64) {
    let mut interp = Interp::standalone();
    interp.compile_top = compile_top;
    let out = interp.run_program(src);
    let shown = match out.result {
        Ok(v) => v.to_string(),
        Err(e) => format!("{:?}: {}", e.kind(), e.message()),
    };
    (shown, interp.budget.steps(), interp.budget.heap_bytes())
}

fn run(src: &str) -> (String, u64) {
    run_with(src, false)
}

const EXPRS: &[&str] = &[
    "(+ 1 2)",
    "(let [a 5 b 7] [(+ a b) (- a b) (* a b) (< a b) (> a b) (<= a a) (>= a b) (= a 5)])",
    "(let [a 5 b 2.5] [(+ a b) (* b b) (< b a) (= a 5.0)])",
    "(let [a 9223372036854775807] (+ a 1))",
    "(let [a 9223372036854775807] (inc a))",
    "(let [a 7 b 0] (mod a b))",
    "(let [a -7 b 3] [(mod a b) (rem a b) (quot a b) (inc a) (dec b)])",
    "(let [s \"x\"] [(= s \"x\") (= :a :a) (= s :x) (+ s 1)])",
    "(let [r {:a 1 :b \"two\"}] [(:a r) (get r :b) (get r :c) (:a nil)])",
    "(let [x 3] (if (< x 5) (if (> (* x 2) 5) :big :small) :none))",
    "(let [x nil] (if (< x 5) 1 2))",
    "(let [a 1 b 2 c 2.5] [(if (< a b) :y :n) (if (>= a b) :y :n) (if (< a c) :y :n) (if (= b 2) :two :no) (if (> c a) :y :n)])",
    "(let [a 1 n nil] (if (< a n) 1 2))",
    "(let [a -3 b 0 c 4] [(zero? b) (zero? a) (pos? c) (pos? b) (neg? a) (even? a) (odd? a) (even? c) (odd? b)])",
    "(let [a 2.5 b 0.0] [(zero? b) (pos? a) (neg? a) (if (zero? b) :z :nz)])",
    "(let [a 2.5] (even? a))",
    "(let [s \"4\"] (zero? s))",
    "(let [s nil] (odd? s))",
    "(let [xs [1 2 3 4 5 6]] [(filter even? xs) (remove odd? xs) (count (filter (fn [x] (zero? (mod x 3))) xs))])",
    "(let [f (fn [a b] {:sum (+ a b) :v [a b]})] (f 1 2))",
    "(let [[a b & more] [1 2 3 4] {:keys [k] :or {k 9}} {}] [a b more k])",
    "(loop [i 0 acc 0] (if (< i 100) (recur (inc i) (+ acc (mod (* i i) 7))) acc))",
    "(loop [i 0 acc []] (if (< i 5) (recur (inc i) (conj acc {:i i})) acc))",
    "(and 1 (or nil false 3) (count [1 2]))",
    "(mapv (fn [x] (* x x)) (range 10))",
    "(reduce (fn [acc [k v]] (+ acc v)) 0 {:a 1 :b 2})",
    "(let [m {:a 1}] (m :a))",
    "(let [v [1 2 3]] (v 7))",
    "(str \"a\" 1 :b)",
    "(let [x 1] (x 2))",
    "(count 5)",
    "(letfn [(ev? [n] (if (= n 0) true (od? (dec n)))) (od? [n] (if (= n 0) false (ev? (dec n))))] (ev? 10))",
    "(try (/ 1 0) (catch Exception e (:message e)))",
    "(let [[a b & r] (lazy-seq (cons 1 (lazy-seq [2 3])))] [a b r])",
    "(let [f (fn [[a b]] [b a])] (f (lazy-seq (cons 1 (lazy-seq nil)))))",
    // The shapes compiled per operation: a local and an integer constant,
    // two locals, computed code and an integer constant; overflow, other
    // numbers and other types leave them for the builtin.
    "(let [a -9223372036854775808] (- a 1))",
    "(let [a 5 b 9223372036854775807] [(- a b) (+ a b)])",
    "(let [a 1.5 b 2] [(< a 2) (< a b) (+ a 1) (* a b) (= a b) (mod a 1)])",
    "(let [a nil] (- a 1))",
    "(let [a \"s\" b 1] (< a b))",
    "(let [a 7] [(mod a 0) (quot a 0)])",
    "(let [a 7] (rem a 0))",
    "(let [a -7 b 2] [(mod a b) (rem a b) (quot a b) (mod a -2) (<= a b) (>= a b) (= a a)])",
    "(let [r {:p 60 :f 1.5}] [(> (:p r) 50) (mod (:p r) 7) (- (:p r) 5) (< (:f r) 2) (* (:f r) 2)])",
    "(let [r {:p 60}] (> (:q r) 50))",
    "(let [r {:p 60 :c :b} s {\"p\" 7 \"c\" \"b\"}] [(if (> (:p r) 50) 1 2) (if (<= (:p s) 5) 1 2) (+ (:p s) 1) (= (:c s) \"b\") (= (:c r) :b) (if (= (:c r) \"b\") 1 2) (if (= (:c s) \"b\") 1 2)])",
    "(let [r {:p 60}] (if (> (:q r) 50) 1 2))",
    "(let [r {:p 9223372036854775807 :s \"x\"}] [(if (> (:s r) 1) 1 2)])",
    "(let [r (zipmap (map (fn [i] (keyword (str \"k\" i))) (range 40)) (range 40))] [(+ (:k7 r) 1) (if (> (:k8 r) 3) 1 2) (= (:k9 r) \"9\")])",
    "(let [r {:p 7}] (quot (:p r) 0))",
    "(let [r {:p 9223372036854775807}] (+ (:p r) 1))",
    "(let [r {:c \"b\" :k :x :n 1}] [(= (:c r) \"b\") (= (:c r) \"a\") (= (:k r) :x) (= (:n r) \"1\") (= (:k r) \"x\")])",
    "(let [r {:c \"b\"}] [(if (= (:c r) \"b\") 1 2) (if (= (:c r) :b) 1 2) (if (= (:d r) \"b\") 1 2)])",
    // Lookups with a constant key, of a local and of computed code.
    "(let [s \"abc\" v [1 2 3] n nil] [(get s 1) (get v 1) (get v 9) (:a n) (get (first [{:a 1}]) :a)])",
    "(let [r {\"k\" 1 :a 2}] [(get r \"k\") (r :a) (get (assoc r :b 3) :b)])",
    // A function calling itself by name, and one that redefines its name.
    "(defn up [n] (if (< n 3) (up (inc n)) n)) (up 0)",
    "(defn g [n] (if (= n 0) :old (do (def g (fn [x] :new)) (g (dec n))))) [(g 2) (g 5)]",
    // Arguments pushed onto the callee's frame: an error in a later one
    // (the ones pushed dropped), a wrong number of them, a call of another
    // definition, and a call of itself that fails after some returned.
    "(defn f2 [a b] (if (= a 0) b (f2 (dec a) (/ 10 (- a 1))))) (f2 3 [1])",
    "(defn f3 [a b c] (if (< a 1) [a b c] (f3 (dec a) [a] {:b b}))) [(f3 3 nil 0) (f3 1 2)]",
    "(defn v1 [& xs] (count xs)) (defn w [n] (if (= n 0) (v1 1 2 3) (w (dec n)))) (w 4)",
    "(defn h1 [x] (inc x)) (defn h2 [n acc] (if (= n 0) acc (h2 (dec n) (h1 acc)))) [(h2 50 0) (h2 2 :x)]",
    // `str` with constant texts: scalars written in place, anything else
    // (collections, lazy sequences, floats, functions) by the builtin.
    "(let [i 42 k :kw n nil b false s \"t\"] [(str \"a\" i) (str \"a\" k \"-\" n b s \"z\") (str \"x\" -7)])",
    "(let [i -42 n nil b true f false s \"é\" m 9223372036854775807] [(str \"a\" i n b f s \"z\") (str \"\" n) (str \"x\" m \"y\" (- m))])",
    // Written to its exact length: past the heap room as the builtin is.
    "(loop [s \"xxxxxxxxxxxxxxxx\" i 0] (if (< i 40) (recur (str \"\" s i s) (inc i)) (count s)))",
    "(let [v [1 \"a\"] m {:a 1} f 1.5 z (range 3)] [(str \"v=\" v) (str \"m=\" m \" f=\" f) (str \"z\" z)])",
    "(let [l (lazy-seq (cons 1 nil)) g (fn [] 1)] [(str \"l\" l) (count (str \"g\" g))])",
    "(let [a 1 b 2 c 3 d 4 e 5 f 6 g 7 h 8 i 9] [(str \"-\" a b c d e f g h) (str \"-\" a b c d e f g h i)])",
    "(let [x 1] (str \"a\" (/ x 0)))",
    // `update` lent a function built once: maps, a vector, nil, a missing
    // key, a function that fails, one past its arity.
    "(reduce (fn [acc i] (update acc (mod i 3) (fnil inc 0))) {} (range 20))",
    "(let [m {:a {:n 1} :b {:n 2}}] [(reduce (fn [acc k] (update acc k (fn [v] (assoc v :seen true)))) m [:a :b :c]) (:a m)])",
    "(let [v [1 2 3]] [(update v 1 (fn [x] (* x 10))) (update nil :a (fnil inc 0)) (update {} :a (fnil conj []))])",
    "(let [m {:a 1}] (update m :a (fn [x] (/ x 0))))",
    "(let [m {:a 1}] (update m :a (fn [x y] x)))",
    "(let [s #{1}] (update s 1 (fnil inc 0)))",
    // One computed piece (an integer written between the texts around
    // it, anything else as with more pieces).
    "(let [i 42 m -9223372036854775808 s \"t\" n nil k :kw f 1.5 v [1] t true] [(str \"k\" i) (str i \"k\") (str \"a\" \"b\" m \"c\" \"\") (str \"x\" s) (str n \"y\") (str \"z\" k) (str \"f\" f) (str \"v\" v \"w\") (str \"\" t) (str \"é\" 0 \"ü\")])",
    "(let [m (reduce (fn [m i] (assoc m (str \"k\" i) (str i))) {} (range 300))] [(count m) (get m \"k299\") (str \"n=\" (count m))])",
    // Record literals with computed values, built as the values come; an
    // error part way.
    "(let [a 1 v [1 2]] [{:x a :y (inc a) :v v} {:e {} :n nil} {:x a :y (/ a 0)}])",
    "(let [a 1] (count {:x a :y [a] :z (str a)}))",
    // A local and computed code: the local's integer read in place.
    "(let [a 5 b 9] [(+ a (* b 2)) (- a (:x {:x 3})) (< a (inc b)) (* a (mod b 4)) (quot a (- b 7))])",
    "(let [a 9223372036854775807 b 1] (+ a (* b 1)))",
    "(let [a 1 b 2.5 n nil] [(+ a (* b 2)) (< a (* b 1))])",
    "(let [a nil] (+ a (inc 1)))",
    "(let [a 5 b 0] (mod a (* b 1)))",
    "(let [a \"s\"] (+ a (inc 1)))",
    // `nth` of a constant table: in range, out of range, negative, not an
    // integer, a float index.
    "(let [i 2 j 9 k -1 f 1.0] [(nth [:a :b :c] i) (nth [:a :b] j) (nth [:a :b] k) (nth [:a] f)])",
    "(let [s \"x\"] (nth [:a :b] s))",
    // Builtins called with a count of arguments they do not take: the
    // arguments are evaluated first (their steps charged), then the arity
    // error; for a plain and an owning builtin, caught and not.
    "(let [x [1]] (count x (inc 1)))",
    "(let [m {}] (assoc m (inc 1)))",
    "(let [x 1] [(try (get x) (catch Exception e (:message e))) (try (conj) (catch Exception e 0))])",
    "(let [x [1 2]] [(count x) (assoc x 0 (inc 1)) (get x 5 :none)])",
    // Lookups into a collection borrowed where it is (a local, a capture,
    // a definition) with a plain key, and into anything else.
    "(let [s #{1 2} m {:a 1} v [1 2] n nil t \"abc\" x 1] [(contains? s x) (contains? s 3) (contains? m :a) (contains? m \"a\") (contains? v x) (contains? v 5) (contains? n x) (contains? t x) (contains? t 5)])",
    "(let [x 1] (contains? x 1))",
    "(let [s #{[1 2]} k [1 2] l (lazy-seq [1 2])] [(contains? s k) (contains? s l) (get s l)])",
    "(def s #{1 2}) (def m {:a {:b 2} \"c\" 3}) (let [k :a c :c] [(contains? s 2) (get m k) (get s 2) (get s 5) (get (get m k) :b) (contains? m (get {:z :a} :z)) (get m c) (get m :a) (contains? m (str \"c\"))])",
    "(def t \"abc\") (let [i 1] [(get t i) (contains? t i)])",
    "(let [s #{1 2}] ((fn [x] [(contains? s x) (get s x) (get s 9)]) 2))",
    "(declare later) (let [k (println \"key\")] (get later k))",
    "(declare later) (contains? later 1)",
    // A key in a local read where it is: texts in their last read (moved),
    // in a closure a builtin calls over and over, and a key shared with a
    // collection written after it.
    "(def m {\"k\" 1}) (def s #{\"k\"}) (let [a (str \"k\") b (str \"k\") c (str \"z\")] [(get m a) (contains? s b) (contains? s c) (get m c)])",
    "(let [s #{\"a\" \"b\"} m {\"a\" 1}] [(filterv (fn [x] (contains? s x)) [\"a\" \"c\" \"b\"]) (mapv (fn [x] (get m x)) [\"a\" \"c\"])])",
    "(let [v [1] k v] [(contains? #{[1]} k) (conj v 2)])",
    // `=` of a text field or computed text and a constant text: short
    // constants compared inline, of every length up to 8 and past it.
    "(let [r {:c \"ab\"} q {:c \"abcdefghij\"} e {:c \"\"}] [(= (:c r) \"ab\") (= (:c r) \"a\") (= (:c r) \"ac\") (= (:c r) \"ba\") (= (:c q) \"abcdefghij\") (= (:c q) \"abcdefgh\") (= (:c e) \"\") (= (:c r) :ab) (= (str \"a\" \"b\") \"ab\") (= (str \"a\") \"abcdefgh\")])",
    // `count` in place: of a local, a definition, a capture and computed
    // code; a lazy sequence and other types go to the builtin.
    "(let [v [1 2 3] m {:a 1} s #{1} t \"h\u{e9}llo\" n nil] [(count v) (count m) (count s) (count t) (count n) (count (conj v 4)) (count (map inc v))])",
    "(let [x 5] (count x))",
    "(count :k)",
    "(def g [1 2]) (let [l (lazy-seq [1 2])] [(count g) (count l) ((let [v [1 2]] (fn [] (count v)))) (count (lazy-seq (cons 1 nil)))])",
    "(declare later) (count later)",
    // Text tests with a constant needle: a text read in place or computed,
    // long (steps by length) and short, and anything else.
    "(let [s \"item-GAMMA\"] [(clojure.string/includes? s \"GAMMA\") (clojure.string/includes? s \"x\") (clojure.string/starts-with? s \"item\") (clojure.string/ends-with? s \"MA\") (clojure.string/ends-with? s \"x\") (clojure.string/includes? s \"\") (clojure.string/includes? (str s \"x\") \"Ax\")])",
    "(let [s (apply str (repeat 500 \"ab\"))] [(clojure.string/includes? s \"ba\") (clojure.string/includes? s \"bb\") (clojure.string/starts-with? (str s) \"ab\")])",
    "(let [n nil] (clojure.string/includes? n \"a\"))",
    "(let [k :GAMMA c 5] [(clojure.string/includes? k \"A\") (clojure.string/starts-with? c \"5\")])",
    "(def t \"hello\") [(clojure.string/starts-with? t \"he\") (count (filter (fn [s] (clojure.string/includes? s \"a\")) [\"a\" \"b\" \"ca\" t]))]",
    // `assoc` of one pair into a map: a record's field replaced and added,
    // a small, a large and a sorted map, a key new and old; anything else
    // (nil, a vector, more pairs, a lazy value, not a collection) by the
    // builtin.
    "(let [r {:x 1 :y 2} m {\"a\" 1} n nil v [1 2]] [(assoc r :y 3) (assoc r :z [1]) (assoc m \"b\" 2) (assoc m \"a\" {:in 1}) (assoc n :a 1) (assoc v 0 :x) (assoc r :a 1 :b 2)])",
    "(let [m (zipmap (range 40) (range 40)) s (sorted-map :b 1)] [(count (assoc m 7 :x)) (get (assoc m 40 1) 40) (assoc s :a 2) (count (reduce (fn [acc i] (assoc acc i i)) m (range 30 70)))])",
    "(let [l (lazy-seq (cons 1 nil)) r {:a 1}] [(assoc r :l l) (assoc r l 2)])",
    "(let [x 5] (assoc x :a 1))",
    "(let [r {:a 1}] (assoc r :b (/ 1 0)))",
    // `update` calling an unnamed `fn` without captures (built once per
    // site), a named one and one with captures (built every time).
    "(reduce (fn [acc i] (update acc (mod i 3) (fn [v] (if v (inc v) 1)))) {} (range 20))",
    "(let [k 2] (reduce (fn [acc i] (update (update acc :a (fn [v] (+ (or v 0) k))) :b (fn me [v] (if v (inc v) 0)))) {} (range 5)))",
    "(reduce (fn [acc i] (update-in acc [:a (mod i 2)] (fn [v] (conj (or v []) i)))) {} (range 6))",
    "(reduce (fn [acc i] (update acc :a (fn [v] (/ 10 (- 3 i))))) {} (range 5))",
    // Constants lent to a builtin that only reads its arguments
    // (`lent.rs`): texts, vectors, maps and sets among computed
    // arguments, a constant returned as the result, kept in a definition
    // after the call, an error in a computed argument after a constant
    // (the owned ones dropped, the lent not), the builtin's own error, a
    // lazy sequence beside a constant, and a call that calls a function
    // back.
    "(let [s \"a-b-c\"] [(clojure.string/replace s \"-\" \"_\") (clojure.string/split s \"-\") (clojure.string/join \", \" [s \"x\"]) (get-in {:a {:b [1 2]}} [:a :b]) (contains? #{\"x\" \"y\"} (str \"x\")) (merge {:k [1]} {:j s})])",
    "(def kept (first (vector [1 2] \"t\"))) (def again (max-key count \"abc\" \"de\")) [kept again (conj kept 3)]",
    "(let [i 0] (clojure.string/replace \"a-b\" \"-\" (/ 1 i)))",
    "(clojure.string/join \"-\" (/ 1 0))",
    "(let [n 3] (clojure.string/replace \"a-b\" \"-\" n))",
    "(let [l (lazy-seq [\"p\" \"q\"])] [(clojure.string/join \"+\" l) (concat [\"c\" \"d\"] l)])",
    "(mapv (fn [i] (some (fn [x] (= x (str \"k\" i))) [\"k1\" \"k2\"])) (range 3))",
];

#[test]
fn compiled_bodies_give_the_walkers_values_errors_steps_and_heap() {
    for e in EXPRS {
        let walked = run_charged(e, false);
        let compiled = run_charged(e, true);
        assert_eq!(compiled, walked, "{e}");
    }
}

/// A lookup whose key moves the collection's own slot (its last read)
/// reads the collection before the key takes it, as the walker does.
#[test]
fn a_lookup_reads_its_collection_before_the_key_moves_it() {
    let (v, _) = run("(defn f [x] (contains? x x)) (f 5)");
    assert!(
        v.contains("contains?") && v.contains("map, set or vector"),
        "{v}"
    );
    let (v, _) = run("(defn g [m] (get m m)) (g [1])");
    assert_eq!(v, "nil");
    let (v, _) = run("(defn h [m] (get m (get m 0))) (h [0 :x])");
    assert_eq!(v, "0");
}

#[test]
fn user_function_calls_are_charged_and_bounded_as_before() {
    // fib 16 makes 3193 calls (1596 not leaves), fib 15 1973 (986): each
    // call is one step, each `(< n 2)` one, each `(- n k)` and `+` one.
    let fib = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))";
    let (v15, s15) = run(&format!("{fib} (fib 15)"));
    let (v16, s16) = run(&format!("{fib} (fib 16)"));
    assert_eq!((v15.as_str(), v16.as_str()), ("610", "987"));
    assert_eq!(s16 - s15, (3193 - 1973) * 2 + (1596 - 986) * 3);
    let (v, _) = run("(defn down [n] (if (= n 0) 0 (down (dec n)))) (down 100000)");
    assert!(v.contains("call depth exceeded"), "{v}");
}

/// A closure's captured value as an operand (read in place) gives what the
/// same operation on two arguments gives, and charges the same steps:
/// only the way `i` reaches the operation differs between the two.
#[test]
fn captured_operands_give_what_arguments_give() {
    let values = ["5", "-7", "0", "9223372036854775807", "2.5", "nil", "\"s\""];
    let ops = [
        "+", "-", "*", "<", ">", "<=", ">=", "=", "mod", "rem", "quot",
    ];
    let mut charge = None;
    for op in ops {
        for x in values {
            for y in values {
                let captured = run(&format!("((let [i {x}] (fn [j] ({op} i j))) {y})"));
                let args = run(&format!("((let [k 0] (fn [i j] ({op} i j))) {x} {y})"));
                assert_eq!(captured.0, args.0, "({op} {x} {y})");
                // The same difference (the extra argument's binding)
                // whatever the operation charged.
                let d = captured.1 as i64 - args.1 as i64;
                assert_eq!(*charge.get_or_insert(d), d, "steps of ({op} {x} {y})");
            }
        }
    }
    for x in values {
        let stepped = run(&format!("((let [i {x}] (fn [] [(inc i) (dec i)])))"));
        let walked = run(&format!("(let [i {x}] [(inc i) (dec i)])"));
        assert_eq!(stepped.0, walked.0, "(inc {x})");
    }
}
