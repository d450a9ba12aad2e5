#!/usr/bin/env python3
"""Generates tests/differential/programs/*.clj, the differential test corpus.

Each program is plain Clojure 1.11 in the subset ptc supports
(/work/shared/spec/clojure-vars.tsv): it may println, and its last form is its
value. Programs come in families; a program's file name is FAMILY-NNN.clj, NNN
its position in the family, so ALWAYS APPEND new programs at the end of a family
(names listed in expected-differences.txt must stay stable).

Two kinds of families:
  * hand-written: chunks of source separated by lines holding only `---`;
  * matrix: generated from tables (an operation applied to many inputs), each
    program returning a vector of results.

Run `python3 tests/differential/gen.py` after editing; it rewrites programs/
(removing stale generated files) and prints how many programs it wrote.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "programs")

# ---------------------------------------------------------------------------
# Hand-written families
# ---------------------------------------------------------------------------

FAMILIES = {}

FAMILIES["arith"] = r"""
(+ 1 2 3 4)
---
[(- 10) (- 10 3) (- 10 3 2) (- 0.5)]
---
[(* 2 3 4) (*) (+)]
---
[(+ 1 2.5) (* 2 1.5) (- 0.5 1)]
---
[(inc 41) (dec 43) (inc -1) (dec 0) (inc 1.5)]
---
[(quot 17 5) (quot -17 5) (quot 17 -5) (quot -17 -5)]
---
[(rem 17 5) (rem -17 5) (rem 17 -5) (rem -17 -5)]
---
[(mod 17 5) (mod -17 5) (mod 17 -5) (mod -17 -5)]
---
[(mod 5.5 2) (rem 5.5 2) (quot 7.5 2)]
---
[(max 1 5 3) (min 1 5 3) (max 2) (min -1 -7)]
---
[(max 1 2.0) (min 1.5 3) (max -0.5 -0.25)]
---
[(abs -5) (abs 5) (abs -2.5) (abs 0)]
---
[(= 1 1) (= 1 1.0) (== 1 1.0) (== 2 2 2) (not= 1 2)]
---
[(< 1 2 3) (< 1 3 2) (<= 1 1 2) (> 3 2 1) (>= 3 3 1) (> 1 2)]
---
[(zero? 0) (zero? 0.0) (zero? 1) (pos? 3) (neg? -3) (pos? 0)]
---
[(even? 4) (odd? 4) (even? 0) (odd? -3) (even? -2)]
---
[(int 3.99) (int -3.99) (long 7.5) (double 3) (float 2)]
---
[(integer? 1) (integer? 1.0) (float? 1.0) (double? 2.5) (int? 5) (number? 1.5) (number? "1")]
---
[(pos-int? 5) (pos-int? 0) (neg-int? -1) (nat-int? 0) (nat-int? -1)]
---
(reduce + (range 1 101))
---
(reduce * (range 1 11))
---
(apply + 1 2 [3 4 5])
---
(loop [i 0 acc 0] (if (> i 10) acc (recur (inc i) (+ acc (* i i)))))
---
[(bit-and 12 10) (bit-or 12 10) (bit-xor 12 10) (bit-not 7)]
---
[(bit-shift-left 1 10) (bit-shift-right 1024 3) (bit-set 0 3) (bit-clear 15 0) (bit-flip 5 1) (bit-test 5 2) (bit-and-not 15 5)]
---
[(+ 0.1 0.2) (* 3 0.1) (- 1.0 0.9)]
---
[(* 1.5 1.5) (+ 1e3 1) (- 2.5E-3 0.001)]
---
[(NaN? ##NaN) (infinite? ##Inf) (infinite? ##-Inf) (infinite? 1.0) (NaN? 1.0)]
---
[(+ ##Inf 1) (- ##Inf) (* 0 1.5)]
---
(let [xs [3 1 4 1 5 9 2 6]] [(apply max xs) (apply min xs) (reduce + xs) (count xs)])
---
(defn square [x] (* x x))
(map square (range 6))
---
(defn fact [n] (if (<= n 1) 1 (* n (fact (dec n)))))
[(fact 0) (fact 5) (fact 15)]
---
(defn fib [n] (loop [a 0 b 1 i 0] (if (= i n) a (recur b (+ a b) (inc i)))))
(mapv fib (range 15))
---
(defn gcd [a b] (if (zero? b) a (recur b (mod a b))))
[(gcd 48 18) (gcd 17 5) (gcd 100 75)]
---
(defn prime? [n] (and (> n 1) (not-any? #(zero? (mod n %)) (range 2 n))))
(filter prime? (range 50))
---
[(+' 1 2) (*' 3 4) (-' 10 4) (inc' 1) (dec' 1)]
---
[(compare 1 2) (compare 2 1) (compare 1 1) (compare 1.5 1)]
---
[(num 5) (int 65) (long 12) (double 1)]
---
(let [x 7] (cond (< x 5) :small (< x 10) :medium :else :large))
---
(mapv #(* % %) (range -3 4))
---
[(max-key abs -5 3 4) (min-key abs -5 3 4)]
---
(reduce (fn [acc x] (+ (* acc 10) x)) 0 [1 2 3 4])
---
[(rem 10 3) (mod 10 3) (quot 10 3) (* 10 3) (- 10 3) (+ 10 3)]
---
[(== 0.5 0.5) (= 0.5 0.5) (< 0.1 0.2) (> -1.5 -2)]
---
[(+ 1 (* 2 3) (- 10 (* 2 2)))]
---
(let [n 12345] (loop [n n s 0] (if (zero? n) s (recur (quot n 10) (+ s (rem n 10))))))
"""

FAMILIES["coll"] = r"""
[(conj [1 2] 3) (conj [] 1 2 3) (conj nil 1)]
---
[(count [1 2 3]) (count []) (count nil) (count {:a 1 :b 2}) (count "hello") (count #{1 2})]
---
[(first [1 2 3]) (first []) (first nil) (second [1 2 3]) (last [1 2 3]) (last [])]
---
[(rest [1 2 3]) (rest []) (next [1 2 3]) (next [1]) (butlast [1 2 3]) (butlast [1])]
---
[(nth [10 20 30] 1) (nth [10 20 30] 5 :none) (get [10 20 30] 2) (get [10 20 30] 7)]
---
[(vec '(1 2 3)) (vector 1 2 3) (vec nil) (vec "ab")]
---
[(empty? []) (empty? [1]) (empty? nil) (empty? "") (not-empty []) (not-empty [1])]
---
[(concat [1 2] [3] [] [4 5]) (concat) (into [1] [2 3])]
---
[(cons 0 [1 2]) (cons 0 nil) (cons 1 '(2 3))]
---
[(reverse [1 2 3]) (reverse []) (rseq [1 2 3])]
---
[(subvec [0 1 2 3 4] 1 3) (subvec [0 1 2 3 4] 2)]
---
[(peek [1 2 3]) (pop [1 2 3]) (peek []) (assoc [1 2 3] 1 :x) (assoc [1 2] 2 3)]
---
[(take 2 [1 2 3]) (drop 2 [1 2 3]) (take 5 [1 2]) (drop 5 [1 2]) (take 0 [1])]
---
[(take-last 2 [1 2 3 4]) (drop-last [1 2 3]) (drop-last 2 [1 2 3 4])]
---
[(take-while pos? [3 2 1 0 -1 2]) (drop-while pos? [3 2 1 0 -1 2])]
---
[(split-at 2 [1 2 3 4 5]) (split-with odd? [1 3 4 5 7])]
---
[(some even? [1 3 4 5]) (some even? [1 3]) (some #{3 4} [1 2 3 4]) (every? odd? [1 3 5]) (every? odd? [])]
---
[(not-any? even? [1 3]) (not-every? odd? [1 2]) (some :a [{:b 1} {:a 2}])]
---
[(distinct [1 2 1 3 2 4]) (dedupe [1 1 2 2 2 3 1 1]) (distinct? 1 2 3) (distinct? 1 2 1)]
---
[(flatten [1 [2 [3 4]] [[5]]]) (flatten []) (flatten [[] [1]])]
---
[(interleave [1 2 3] [:a :b :c]) (interleave [1 2] [:a :b :c]) (interpose :sep [1 2 3])]
---
[(partition 2 [1 2 3 4 5]) (partition 3 1 [1 2 3 4 5]) (partition-all 2 [1 2 3 4 5])]
---
[(partition 3 3 [:pad] [1 2 3 4 5]) (partition-all 3 2 [1 2 3 4 5 6])]
---
(partition-by odd? [1 3 2 4 5 7 6])
---
[(frequencies [:a :b :a :c :a]) (frequencies [])]
---
(group-by even? [1 2 3 4 5 6])
---
(group-by count ["a" "bb" "cc" "d" "eee"])
---
[(sort [3 1 2]) (sort > [3 1 2]) (sort ["b" "c" "a"]) (sort [[2 1] [1 2] [1 1]])]
---
(sort-by :age [{:name "a" :age 30} {:name "b" :age 20} {:name "c" :age 25}])
---
(sort-by count > ["aaa" "b" "cc"])
---
(sort-by first [[2 :a] [1 :b] [2 :c] [1 :d]])
---
[(sort [nil 3 1]) (sort [:b :a :c]) (sort [2.5 1 3])]
---
[(max-key count "a" "abc" "ab") (min-key count "abc" "a" "ab")]
---
[(range 5) (range 2 6) (range 0 10 3) (range 5 0 -1) (range 0 1 0.25)]
---
[(repeat 3 :x) (take 4 (cycle [1 2])) (take 5 (iterate inc 10)) (take 3 (range))]
---
[(map inc [1 2 3]) (map + [1 2 3] [10 20 30]) (map vector [1 2] [:a :b] ["x" "y"])]
---
[(mapv dec [1 2 3]) (filterv odd? (range 10)) (remove odd? (range 10))]
---
[(keep #(when (odd? %) (* % %)) (range 6)) (keep-indexed #(when (even? %1) %2) [:a :b :c :d])]
---
[(map-indexed vector [:a :b :c]) (map-indexed (fn [i x] (* i x)) [5 5 5])]
---
[(mapcat reverse [[1 2] [3 4]]) (mapcat #(repeat % %) [1 2 3])]
---
[(reduce + []) (reduce + 5 []) (reduce conj [] [1 2]) (reduce max [3 9 2])]
---
(reduce (fn [m x] (assoc m x (* x x))) {} (range 4))
---
(reduce + 100 [1 2 3 4])
---
[(nthnext [1 2 3 4] 2) (nthrest [1 2 3 4] 2) (nthnext [1] 3) (nthrest [1] 3)]
---
[(ffirst [[1 2] [3]]) (fnext [1 2 3]) (nfirst [[1 2 3]]) (nnext [1 2 3])]
---
[(replace {1 :one 2 :two} [1 2 3 1]) (replace [:a :b :c] [0 2 1])]
---
[(into [] (map inc) [1 2 3]) (into #{} [1 2 2]) (into {} [[:a 1] [:b 2]])]
---
[(zipmap [:a :b :c] [1 2 3]) (zipmap [:a :b] [1])]
---
[(list 1 2 3) (list) (apply list 1 2 [3 4])]
---
[(empty [1 2]) (empty {:a 1}) (empty #{1})]
---
[(vector? [1]) (vector? '(1)) (map? {}) (set? #{}) (coll? [1]) (coll? 1) (sequential? [1]) (associative? {}) (associative? [])]
---
[(seq [1 2]) (seq []) (seq nil) (seq "ab")]
---
[(seqable? [1]) (seqable? nil) (seqable? "a") (seqable? 1) (counted? [1]) (reversible? [1]) (indexed? [1])]
---
[(tree-seq vector? identity [1 [2 [3]]])]
---
(tree-seq map? #(vals (select-keys % [:children])) {:id 1 :children [{:id 2} {:id 3}]})
---
[(last (take 60 (iterate #(* 2 %) 1)))]
---
[(count (range 1000)) (nth (range 1000) 500)]
---
(loop [xs [5 3 8 1] best nil] (if (empty? xs) best (recur (rest xs) (if (or (nil? best) (> (first xs) best)) (first xs) best))))
---
(vec (for [x (range 3) y (range 2)] [x y]))
---
(let [v [1 2 3 4 5 6 7 8 9 10]] {:sum (reduce + v) :evens (filter even? v) :first3 (take 3 v)})
---
(->> (range 1 20) (filter odd?) (map #(* % %)) (take-while #(< % 200)) (reduce +))
---
[(nth [1 2 3] 0) (nth '(4 5 6) 2) (nth "abc" 1)]
---
[(some identity [nil false 3]) (first (filter pos? [-1 -2 5 6]))]
---
(count (distinct (map #(mod % 7) (range 100))))
---
(take 5 (drop 3 (map #(* 3 %) (range))))
---
(keep-indexed #(when (even? %1) %2) [0 1 2 3 4 5 6])
---
(let [data [[1 2 3] [4 5 6] [7 8 9]]] (apply map vector data))
"""

FAMILIES["maps"] = r"""
[(assoc {:a 1} :b 2) (assoc {} :a 1 :b 2) (assoc nil :a 1)]
---
[(dissoc {:a 1 :b 2 :c 3} :b) (dissoc {:a 1} :z) (dissoc {:a 1 :b 2} :a :b)]
---
[(get {:a 1} :a) (get {:a 1} :b) (get {:a 1} :b :default) (:a {:a 1}) (:b {:a 1} 0) ({:a 1} :a)]
---
[(get-in {:a {:b {:c 42}}} [:a :b :c]) (get-in {:a [10 20]} [:a 1]) (get-in {:a 1} [:x :y] :nope)]
---
[(assoc-in {} [:a :b] 1) (assoc-in {:a {:b 1}} [:a :c] 2) (assoc-in {:a [1 2]} [:a 0] 9)]
---
[(update {:a 1} :a inc) (update {:a 1} :b (fnil inc 0)) (update {:a [1]} :a conj 2) (update {:a 1} :a + 10 100)]
---
[(update-in {:a {:b 1}} [:a :b] inc) (update-in {} [:x :y] (fnil conj []) 5)]
---
[(merge {:a 1} {:b 2} {:a 3}) (merge) (merge nil {:a 1}) (merge {:a 1} nil)]
---
[(merge-with + {:a 1 :b 2} {:a 10 :c 3}) (merge-with into {:a [1]} {:a [2]} {:a [3]})]
---
[(select-keys {:a 1 :b 2 :c 3} [:a :c :z]) (select-keys {} [:a])]
---
[(sort (keys {:a 1 :b 2 :c 3})) (sort (vals {:a 1 :b 2 :c 3})) (keys {}) (vals {})]
---
[(contains? {:a 1} :a) (contains? {:a nil} :a) (contains? {:a 1} :b) (contains? #{1 2} 2)]
---
[(find {:a 1 :b 2} :a) (find {:a 1} :z) (key (first {:k :v})) (val (first {:k :v}))]
---
(reduce-kv (fn [m k v] (assoc m v k)) {} {:a 1 :b 2})
---
(reduce-kv (fn [acc k v] (+ acc v)) 0 {:x 5 :y 7})
---
[(update-keys {:a 1 :b 2} name) (update-vals {:a 1 :b 2} inc)]
---
(into {} (map (fn [[k v]] [k (* v 10)]) {:a 1 :b 2}))
---
(into (sorted-map) {:c 3 :a 1 :b 2})
---
[(sorted-map :b 2 :a 1 :c 3) (first (sorted-map :b 2 :a 1))]
---
(seq (sorted-map 3 :c 1 :a 2 :b))
---
[(hash-map :a 1 :b 2) (array-map :a 1) (map? (hash-map))]
---
(let [m {:name "Ann" :age 31 :tags ["x" "y"]}] [(:name m) (count (:tags m)) (m :age)])
---
(let [inventory {:apple 3 :pear 0 :kiwi 7}] (into {} (filter (fn [[_ v]] (pos? v)) inventory)))
---
(let [people [{:name "a" :dept :x} {:name "b" :dept :y} {:name "c" :dept :x}]]
  (update-vals (group-by :dept people) #(mapv :name %)))
---
(let [m {:a 1 :b 2}] (= m {:b 2 :a 1}))
---
[(= {:a [1 2]} {:a '(1 2)}) (= {} {}) (= {:a 1} {:a 1.0})]
---
({:a 1 :b 2} :c 99)
---
(let [m {[1 2] :pair 3 :three "s" :str}] [(m [1 2]) (m 3) (m "s") (get m [1 2])])
---
(keys (dissoc (zipmap (range 5) (range 5)) 0 1 2 3))
---
(count (reduce #(assoc %1 %2 true) {} (range 100)))
---
(reduce (fn [acc [k v]] (+ acc (* k v))) 0 {1 2 3 4})
---
(let [m {:a {:b {:c 1}}}] (-> m (assoc-in [:a :b :d] 2) (update-in [:a :b :c] inc) (get-in [:a :b])))
---
[(map? (first {:a 1})) (vector? (first {:a 1})) (map-entry? (first {:a 1}))]
---
(let [stats (frequencies "mississippi")] (sort-by (juxt (comp - val) key) stats))
---
(let [m (zipmap [:x :y :z] (range))] (sort-by val m))
---
(apply merge-with + [{:a 1} {:a 2 :b 1} {:b 5}])
---
(-> {} (assoc :a 1) (assoc :b 2) (dissoc :a) (assoc :c 3))
---
(for [[k v] (sorted-map :a 1 :b 2 :c 3) :when (odd? v)] k)
---
(let [{:keys [a b] :or {b 10}} {:a 1}] (+ a b))
---
[(empty? {}) (not-empty {}) (seq {}) (count (seq {:a 1 :b 2}))]
---
(into (sorted-map) (map (fn [w] [w (count w)]) ["apple" "fig" "banana"]))
---
[(contains? (sorted-map :a 1) :a) (get (sorted-map 1 :x) 1)]
---
(let [m {:a 1 :b 2 :c 3}] (reduce + (map val m)))
"""

FAMILIES["sets"] = r"""
[(conj #{1 2} 3) (conj #{1 2} 2) (disj #{1 2 3} 2) (disj #{1} 5)]
---
[(contains? #{:a :b} :a) (#{:a :b} :b) (#{:a :b} :c) (get #{1 2} 2)]
---
[(set [1 2 2 3]) (set nil) (hash-set 3 2 1) (count #{1 2 3})]
---
[(clojure.set/union #{1 2} #{2 3}) (clojure.set/intersection #{1 2 3} #{2 3 4}) (clojure.set/difference #{1 2 3} #{2})]
---
[(set/union) (set/union #{1}) (set/intersection #{1 2} #{2} #{2 3}) (set/difference #{1 2} #{1} #{2})]
---
[(set/subset? #{1} #{1 2}) (set/subset? #{3} #{1 2}) (set/superset? #{1 2} #{2}) (set/superset? #{1} #{1 2})]
---
(set/select even? #{1 2 3 4})
---
(set/project #{{:a 1 :b 2} {:a 3 :b 4}} [:a])
---
(set/rename-keys {:a 1 :b 2} {:a :x})
---
(set/map-invert {:a 1 :b 2})
---
(set/index #{{:name "a" :dept 1} {:name "b" :dept 2} {:name "c" :dept 1}} [:dept])
---
(set/join #{{:id 1 :name "a"} {:id 2 :name "b"}} #{{:id 1 :score 10} {:id 2 :score 20}})
---
(set/rename #{{:a 1 :b 2}} {:a :aa})
---
(sort (set/union #{5 1} #{3}))
---
(let [seen #{:a :c}] (filter seen [:a :b :c :d]))
---
(let [a #{1 2 3} b #{3 4 5}] {:both (set/intersection a b) :either (set/union a b) :only-a (set/difference a b)})
---
[(= #{1 2} #{2 1}) (= #{1} #{1.0}) (set? (set [1]))]
---
(reduce conj #{} [3 1 3 2 1])
---
(count (into #{} (map #(mod % 5)) (range 100)))
---
(apply max (set [4 8 2]))
---
(sorted-set 3 1 2)
---
(first (sorted-set :c :a :b))
---
(set (map :k [{:k 1} {:k 2} {:k 1}]))
---
(some #{:x :y} [:a :y :x])
---
(remove #{2 4} [1 2 3 4 5])
---
(into (sorted-set) "hello")
---
(set/union #{[1 2]} #{[1 2] [3 4]})
---
[(disj #{1 2 3} 1 2) (empty? (disj #{1} 1))]
"""

FAMILIES["str"] = r"""
[(str "a" "b" "c") (str) (str nil) (str "x" nil "y") (str 1 :k 'sym) (str [1 2]) (str {:a 1})]
---
[(subs "hello world" 6) (subs "hello" 1 3) (subs "abc" 0 0)]
---
[(clojure.string/upper-case "MiXed") (clojure.string/lower-case "MiXed") (clojure.string/capitalize "hELLO wORLD")]
---
[(str/join ", " ["a" "b" "c"]) (str/join [1 2 3]) (str/join "-" []) (str/join "," [nil 1 "x"])]
---
[(str/split "a,b,c" #",") (str/split "a b  c" #"\s+") (str/split "a,b,,c,," #",")]
---
[(str/split "a1b2c3" #"\d") (str/split "abc" #"") (str/split "a,b,c" #"," 2)]
---
[(str/split-lines "one\ntwo\nthree") (str/split-lines "x\r\ny")]
---
[(str/trim "  hi  ") (str/triml "  hi  ") (str/trimr "  hi  ") (str/trim-newline "hi\n\n") (str/trim "\t\n x \n")]
---
[(str/blank? "") (str/blank? "  ") (str/blank? nil) (str/blank? " a ")]
---
[(str/starts-with? "hello" "he") (str/ends-with? "hello" "lo") (str/includes? "hello" "ell") (str/includes? "hello" "xyz")]
---
[(str/index-of "hello" "l") (str/last-index-of "hello" "l") (str/index-of "hello" "z") (str/index-of "hello" "l" 3)]
---
[(str/replace "hello world" "o" "0") (str/replace "a1b22c333" #"\d+" "#") (str/replace-first "aaa" "a" "b")]
---
[(str/replace "John Smith" #"(\w+) (\w+)" "$2, $1") (str/replace "abc" #"b" (fn [m] (str/upper-case m)))]
---
[(str/reverse "hello") (apply str (reverse "abc")) (str/escape "a<b>c" {\< "&lt;" \> "&gt;"})]
---
[(count "héllo") (str/upper-case "straße") (subs "héllo" 1 2)]
---
(str/join " " (map str/capitalize (str/split "the quick brown fox" #" ")))
---
(->> (str/split "the cat the dog the end" #" ") frequencies (sort-by (juxt (comp - val) key)) first)
---
(apply str (interpose "-" ["2024" "01" "15"]))
---
[(name :foo) (name "bar") (name :ns/foo) (namespace :ns/foo) (namespace :foo) (keyword "abc") (keyword "ns" "abc")]
---
[(symbol "abc") (name 'sym) (str 'a.b/c)]
---
[(string? "a") (string? :a) (keyword? :a) (symbol? 'a) (str/blank? "\t")]
---
(let [s "Hello, World"] [(count s) (first s) (last s) (str (first s))])
---
(apply str (map #(if (= % \a) \4 %) "banana"))
---
(str/join (map str/upper-case ["a" "b"]))
---
(let [words ["apple" "Banana" "cherry"]] (sort-by str/lower-case words))
---
(sort ["banana" "Apple" "cherry" "apple"])
---
[(compare "abc" "abd") (compare "b" "a") (compare "a" "a")]
---
(let [s "racecar"] (= s (str/reverse s)))
---
(map (comp str/trim str/lower-case) [" A " "B  " "  c"])
---
(str/join "\n" ["line1" "line2"])
---
(mapv count (str/split "a bb ccc dddd" #" "))
---
[(parse-long "42") (parse-long "-7") (parse-long "4.2") (parse-long "abc") (parse-double "3.5") (parse-double "1e3") (parse-double "x")]
---
[(parse-boolean "true") (parse-boolean "false") (parse-boolean "yes")]
---
(reduce + (map parse-long (str/split "1,2,3,4" #",")))
---
(let [csv "name,age\nann,30\nbob,25"
      [header & rows] (str/split-lines csv)
      ks (map keyword (str/split header #","))]
  (mapv #(zipmap ks (str/split % #",")) rows))
---
(str "Total: " 42 ", avg: " 3.5)
---
[(str 1.0) (str 1.5) (str -2.25) (str 100)]
---
(str/join "," (map #(str "<" % ">") [1 2 3]))
---
(apply str (repeat 3 "ab"))
---
(str/includes? (str/lower-case "Hello World") "world")
---
[(str \a) (str \a \b) (str/join [\x \y])]
---
(let [s "a-b_c d"] (str/replace s #"[-_ ]" "."))
---
(->> "The Quick Brown" (re-seq #"[A-Z]") (apply str))
---
(count (str/split "a  b" #" "))
---
[(str/upper-case "") (str/split "" #",") (str/join "," [""])]
"""

FAMILIES["regex"] = r"""
[(re-find #"\d+" "abc123def456") (re-find #"x" "abc") (re-find #"(\w)(\d)" "a1")]
---
[(re-matches #"\d+" "123") (re-matches #"\d+" "123a") (re-matches #"(\w+)@(\w+)\.com" "me@site.com")]
---
[(re-seq #"\d+" "a1b22c333") (re-seq #"(\w)=(\d)" "a=1,b=2") (re-seq #"z" "abc")]
---
(re-pattern "a+b")
---
(re-find (re-pattern "[0-9]{3}") "ab1234")
---
[(re-find #"(?i)hello" "Say HELLO") (re-seq #"\b\w" "big brown bear")]
---
(map second (re-seq #"(\d+)-(\d+)" "1-2 30-40"))
---
(let [[_ y m d] (re-matches #"(\d{4})-(\d{2})-(\d{2})" "2024-03-15")] (mapv parse-long [y m d]))
---
(str/replace "2024-03-15" #"(\d+)-(\d+)-(\d+)" "$3/$2/$1")
---
(filter #(re-find #"^a" %) ["apple" "banana" "avocado"])
---
(count (re-seq #"[aeiou]" "the quick brown fox"))
---
(str/split "one1two22three" #"\d+")
---
(re-find #"^\s*$" "   ")
---
(mapv #(re-matches #"[a-z]+" %) ["abc" "ABC" "a1"])
---
(re-seq #"[A-Z][a-z]+" "HelloWorldFooBar")
---
[(re-find #"a(b)?c" "ac") (re-matches #"a(b)?c" "ac")]
---
(str/replace "hello world" #"o" "0")
---
(re-find #"\$(\d+)\.(\d+)" "price: $12.50")
---
(let [text "k1=v1;k2=v2"] (into {} (map (fn [[_ k v]] [(keyword k) v]) (re-seq #"(\w+)=(\w+)" text))))
---
[(re-matches #"." "é") (re-find #"\w+" "  word  ")]
"""

FAMILIES["format"] = r"""
(format "Hello, %s!" "World")
---
[(format "%d items" 5) (format "%5d|" 42) (format "%-5d|" 42) (format "%05d" 42)]
---
[(format "%.2f" 3.14159) (format "%.0f" 2.5) (format "%.3f" 1.0) (format "%8.2f|" 3.14159)]
---
[(format "%s and %s" "a" "b") (format "%s" nil) (format "%s" [1 2]) (format "%s" :kw)]
---
[(format "%x" 255) (format "%X" 255) (format "%o" 8) (format "%08.3f" 3.14159)]
---
[(format "%%") (format "100%% sure") (format "%s%%" 50)]
---
(format "%-10s|%10s|" "left" "right")
---
(format "%d + %d = %d" 2 3 5)
---
(format "%.1f%%" 45.678)
---
(format "%,d" 1234567)
---
(format "%b %b" true nil)
---
(format "%c" \a)
---
(format "%e" 12345.678)
---
(format "%+d %+d" 5 -5)
---
(mapv #(format "%03d" %) [1 22 333])
---
(format "Name: %s, Age: %d, Score: %.1f" "Ann" 30 95.5)
---
(format "%s" {:a 1})
---
(format "%10.3f|" -3.14159)
---
(format "%2$s %1$s" "world" "hello")
---
(format "%.2f" 0.005)
"""

FAMILIES["destr"] = r"""
(let [[a b c] [1 2 3]] (+ a b c))
---
(let [[a & more] [1 2 3 4]] [a more])
---
(let [[a b :as all] [1 2 3]] [a b all])
---
(let [[a [b c]] [1 [2 3]]] [a b c])
---
(let [[a b] [1]] [a b])
---
(let [{:keys [x y]} {:x 1 :y 2}] (* x y))
---
(let [{x :a y :b :or {y 5}} {:a 1}] [x y])
---
(let [{:keys [a] :as m} {:a 1 :b 2}] [a (count m)])
---
(let [{:strs [name age]} {"name" "Ann" "age" 30}] [name age])
---
(let [{[a b] :pair} {:pair [1 2]}] (+ a b))
---
(let [{{:keys [city]} :address} {:address {:city "Oslo"}}] city)
---
(defn f [{:keys [a b] :or {a 10 b 20}}] (+ a b))
[(f {}) (f {:a 1}) (f {:a 1 :b 2})]
---
(defn g [[x y] z] (+ x y z))
(g [1 2] 3)
---
(defn h [& {:keys [size] :or {size 1}}] size)
[(h) (h :size 5)]
---
(map (fn [[k v]] (str (name k) "=" v)) (sorted-map :a 1 :b 2))
---
(for [{:keys [n]} [{:n 1} {:n 2}]] (* n 10))
---
(loop [[x & xs] [1 2 3] acc 0] (if x (recur xs (+ acc x)) acc))
---
(doseq [[a b] [[1 2] [3 4]]] (println a b))
:done
---
(let [[_ second-item] [:a :b :c]] second-item)
---
(let [[a b & [c d]] (range 10)] [a b c d])
---
(let [{:keys [a/b c/d]} {:a/b 1 :c/d 2}] [b d])
---
(let [{:keys [missing] :or {missing :dflt}} nil] missing)
---
(let [[[a b] [c d]] [[1 2] [3 4]]] [d c b a])
---
(let [f (fn [{:keys [w h]}] (* w h))] (map f [{:w 2 :h 3} {:w 4 :h 5}]))
---
(let [[x y] "ab"] [x y])
---
(let [[a & rest] []] [a rest])
---
(let [{a :a :as whole :or {a 0}} {}] [a whole])
---
(defn area ([w] (area w w)) ([w h] (* w h)))
[(area 3) (area 3 4)]
---
(let [[k v] (first {:only 1})] [k v])
---
(let [{:syms [foo]} {'foo 7}] foo)
"""

FAMILIES["hof"] = r"""
[((partial + 10) 5) ((partial str "a" "b") "c") ((comp inc inc) 1) ((comp str inc) 1)]
---
[((complement even?) 3) ((constantly 7) 1 2 3) (identity :x) ((juxt inc dec) 5)]
---
[((some-fn even? neg?) 3) ((some-fn even? neg?) -3) ((every-pred pos? even?) 4) ((every-pred pos? even?) 3)]
---
[((fnil + 0) nil 5) ((fnil str "default") nil) ((fnil inc 0) 5)]
---
(map (juxt :name :age) [{:name "a" :age 1} {:name "b" :age 2}])
---
(let [add (fn [a b] (+ a b))] (reduce add 0 [1 2 3]))
---
(let [compose (fn [& fs] (reduce comp fs))] ((compose inc #(* 2 %)) 5))
---
(defn make-counter [start] (fn [n] (+ start n)))
(map (make-counter 100) [1 2 3])
---
(apply max-key val {:a 3 :b 7 :c 5})
---
(apply str (map (comp str/upper-case name) [:a :b]))
---
((fn fact [n] (if (zero? n) 1 (* n (fact (dec n))))) 6)
---
(let [f (fn ([] 0) ([x] x) ([x y] (+ x y)) ([x y & zs] (apply + x y zs)))] [(f) (f 1) (f 1 2) (f 1 2 3 4)])
---
(map #(+ %1 %2) [1 2] [10 20])
---
(map #(apply + %&) [1 2] [3 4] [5 6])
---
(#(vector % %) :x)
---
((comp) 5)
---
(filter (comp odd? :v) [{:v 1} {:v 2} {:v 3}])
---
(sort-by identity > [3 1 2])
---
(sort (comparator >) [1 3 2])
---
(sort #(compare %2 %1) ["a" "c" "b"])
---
(let [fs [inc dec #(* % %)]] (map #(% 5) fs))
---
(reduce (fn [acc f] (f acc)) 3 [inc #(* 2 %) dec])
---
((apply comp (repeat 5 inc)) 0)
---
(every? true? (map = [1 2 3] [1 2 3]))
---
(let [twice (fn [f] (fn [x] (f (f x))))] ((twice (twice inc)) 0))
---
(mapv (partial * 2) [1 2 3])
---
(keep :a [{:a 1} {:b 2} {:a nil} {:a 3}])
---
(group-by (juxt :x :y) [{:x 1 :y 1} {:x 1 :y 2} {:x 1 :y 1}])
---
(transduce (map inc) + [1 2 3])
---
(transduce (comp (filter odd?) (map #(* % %))) + 0 (range 10))
---
(into [] (comp (map inc) (filter even?) (take 3)) (range 20))
---
(reduce (fn [acc x] (if (> x 3) (reduced acc) (+ acc x))) 0 [1 2 3 4 5])
---
[(reduced? (reduced 1)) (unreduced (reduced 5)) (unreduced 5) (reduced? (ensure-reduced 1))]
---
(transduce (map identity) (completing conj) [] [1 2 3])
---
(into [] (map inc) [1 2 3])
---
[(fn? inc) (fn? #(+ 1 %)) (fn? :a) (ifn? :a) (ifn? {}) (ifn? 1)]
---
[(any? nil) (some? nil) (some? false) (nil? nil) (true? true) (false? nil) (boolean nil) (boolean 0)]
---
(let [memo (reduce (fn [m n] (assoc m n (if (< n 2) n (+ (m (- n 1)) (m (- n 2)))))) {} (range 30))] (memo 29))
---
(letfn [(even2? [n] (if (zero? n) true (odd2? (dec n)))) (odd2? [n] (if (zero? n) false (even2? (dec n))))] [(even2? 10) (odd2? 7)])
---
(letfn [(sq [x] (* x x))] (map sq [1 2 3]))
---
(map-indexed (fn [i s] (str i ":" s)) ["a" "b"])
---
(mapcat (fn [[k v]] (repeat v k)) (sorted-map :a 2 :b 1))
---
(let [pipeline [(partial map inc) (partial filter even?) (partial reduce +)]] ((apply comp (reverse pipeline)) (range 10)))
---
(apply map list [[1 2 3] [4 5 6]])
---
(reduce #(assoc %1 %2 (inc (get %1 %2 0))) {} "abracadabra")
---
((juxt first last count) [4 5 6 7])
---
(sort-by (juxt :a :b) [{:a 2 :b 1} {:a 1 :b 2} {:a 1 :b 1}])
---
(defn apply-n [f n x] (if (zero? n) x (recur f (dec n) (f x))))
(apply-n #(* 2 %) 10 1)
"""

FAMILIES["thread"] = r"""
(-> 5 inc (* 2) (- 1))
---
(->> [1 2 3 4] (map inc) (filter even?) (reduce +))
---
(-> {:a {:b 1}} :a :b)
---
(as-> 5 x (+ x 1) (* x x) (- x 6))
---
[(some-> {:a {:b 1}} :a :b inc) (some-> {:a nil} :a :b inc)]
---
[(some->> [1 2 3] (map inc) (reduce +)) (some->> nil (map inc))]
---
(cond-> 1 true inc false (* 100) (odd? 3) (* 10))
---
(cond->> [1 2 3] true (map inc) false (map -) true (reduce +))
---
(-> [] (conj 1) (conj 2) (into [3 4]))
---
(->> (range 10) (partition 2) (map #(apply * %)) (apply +))
---
(-> "  Hello World  " str/trim str/lower-case (str/split #" "))
---
(let [x {:n 3}] (-> x (update :n inc) (assoc :m 1) (select-keys [:n :m])))
---
(-> 10 (- 3) (/ 7) int)
---
(->> {:a 1 :b 2 :c 3} (filter (comp odd? val)) (map key) sort)
---
(-> [1 2 3] (->> (map inc)) vec (conj 10))
---
(as-> {:a 1} m (assoc m :b 2) (reduce + (vals m)))
---
(some-> "abc" str/upper-case (str/replace "B" "-"))
---
(cond-> {} true (assoc :a 1) (nil? 2) (assoc :b 2) :always (assoc :c 3))
---
(doto 5 inc)
---
(-> 1 (vector 2) (conj 3))
"""

FAMILIES["for"] = r"""
(for [x (range 5)] (* x x))
---
(for [x (range 3) y [:a :b]] [x y])
---
(for [x (range 10) :when (odd? x)] x)
---
(for [x (range 10) :while (< x 4)] x)
---
(for [x (range 4) :let [y (* x 10)]] (+ x y))
---
(for [x (range 4) y (range x)] [x y])
---
(for [x [1 2 3] :let [sq (* x x)] :when (> sq 2) y [:a :b]] [sq y])
---
(for [x (range 5) :while (< x 3) y (range 3) :when (not= x y)] [x y])
---
(for [[k v] (sorted-map :a 1 :b 2)] (str (name k) v))
---
(for [row [[1 2] [3 4]] x row] (* 2 x))
---
(doseq [x [1 2 3]] (println "item" x))
(+ 1 1)
---
(doseq [x (range 3) y [:a :b]] (println x y))
nil
---
(doseq [x (range 6) :when (even? x)] (println x))
:ok
---
(dotimes [i 3] (println "i =" i))
:done
---
(let [out (for [i (range 3)] (str "n" i))] (vec out))
---
(count (for [a (range 10) b (range 10) :when (< a b)] [a b]))
---
(for [x (range 1 4) y (range 1 4) :when (= 4 (+ x y))] {:x x :y y})
---
(doseq [[i w] (map-indexed vector ["a" "b"])] (println i w))
---
(first (for [x (range 100) :when (> (* x x) 50)] x))
---
(for [x "abc"] (str x x))
---
(for [x [] y (range 3)] [x y])
---
(into {} (for [k [:a :b :c]] [k (name k)]))
---
(doseq [x [3 1 2]] (when (> x 1) (println "big" x)))
(println "end")
7
---
(reduce + (for [i (range 1 5) j (range i)] j))
---
(for [x (range 3) :let [y (inc x)] :let [z (* y 2)]] z)
"""

FAMILIES["loop"] = r"""
(loop [i 0 acc []] (if (< i 5) (recur (inc i) (conj acc i)) acc))
---
(loop [n 10 acc 1] (if (zero? n) acc (recur (dec n) (* acc 2))))
---
(defn sum-to [n] (loop [i 1 s 0] (if (> i n) s (recur (inc i) (+ s i)))))
(sum-to 1000)
---
(defn collatz [n] (loop [n n steps 0] (cond (= n 1) steps (even? n) (recur (quot n 2) (inc steps)) :else (recur (inc (* 3 n)) (inc steps)))))
(map collatz [1 6 27])
---
(loop [xs [1 2 3 4 5] evens [] odds []] (if-let [x (first xs)] (if (even? x) (recur (rest xs) (conj evens x) odds) (recur (rest xs) evens (conj odds x))) {:evens evens :odds odds}))
---
(defn rev [s] (loop [s s out ""] (if (empty? s) out (recur (rest s) (str (first s) out)))))
(rev "hello")
---
(defn count-down [n] (when (pos? n) (println n) (recur (dec n))))
(count-down 3)
---
(loop [a 0 b 1 n 0 out []] (if (= n 10) out (recur b (+ a b) (inc n) (conj out a))))
---
(defn binary [n] (if (zero? n) "0" (loop [n n s ""] (if (zero? n) s (recur (quot n 2) (str (rem n 2) s))))))
(map binary [0 1 5 10 255])
---
(defn bsearch [v x] (loop [lo 0 hi (dec (count v))] (if (> lo hi) -1 (let [mid (quot (+ lo hi) 2) m (nth v mid)] (cond (= m x) mid (< m x) (recur (inc mid) hi) :else (recur lo (dec mid)))))))
[(bsearch [1 3 5 7 9 11] 7) (bsearch [1 3 5 7 9 11] 4)]
---
(loop [[x & xs :as all] [3 1 2] n 0] (if (seq all) (recur xs (+ n x)) n))
---
(defn power [b e] (loop [r 1 e e] (if (zero? e) r (recur (* r b) (dec e)))))
[(power 2 10) (power 3 5) (power 10 0)]
---
(letfn [(walk [n acc] (if (> n 5) acc (walk (inc n) (conj acc n))))] (walk 0 []))
---
(loop [i 0] (if (< i 3) (do (println "tick" i) (recur (inc i))) :stopped))
---
(loop [stack [1 [2 [3 4]] 5] out []] (if (empty? stack) out (let [x (peek stack) s (pop stack)] (if (vector? x) (recur (into s x) out) (recur s (conj out x))))))
---
(defn primes-upto [n] (loop [cands (range 2 (inc n)) ps []] (if-let [p (first cands)] (recur (remove #(zero? (mod % p)) cands) (conj ps p)) ps)))
(primes-upto 30)
---
(let [grid [[1 2 3] [4 5 6]]] (loop [r 0 total 0] (if (= r (count grid)) total (recur (inc r) (+ total (reduce + (grid r)))))))
---
(defn digits [n] (loop [n n ds ()] (if (< n 10) (cons n ds) (recur (quot n 10) (cons (rem n 10) ds)))))
(digits 90210)
---
(loop [m {} [w & ws] ["a" "b" "a"]] (if w (recur (update m w (fnil inc 0)) ws) m))
---
((fn [n] (loop [k n acc 0] (if (zero? k) acc (recur (dec k) (+ acc k))))) 100)
"""

FAMILIES["cond"] = r"""
[(if true :y :n) (if nil :y :n) (if false :y) (if 0 :y :n) (if "" :y :n) (if [] :y :n)]
---
[(when true 1 2) (when false 1) (when-not false :x) (if-not true :a :b)]
---
[(when-let [x (first [1 2])] (* x 10)) (when-let [x (first [])] x) (if-let [x nil] x :else)]
---
[(if-some [x false] [:some x] :none) (when-some [x nil] x) (if-some [x nil] x :none)]
---
[(when-first [x [9 8]] x) (when-first [x []] x)]
---
(defn classify [n] (cond (neg? n) :negative (zero? n) :zero (< n 10) :small :else :big))
(map classify [-1 0 5 50])
---
(defn sound [a] (case a :dog "woof" :cat "meow" ("cow" "ox") "moo" "???"))
(map sound [:dog :cat "cow" "ox" :fish])
---
(case 3 1 :one 2 :two 3 :three)
---
(case [1 2] [1 2] :pair :other)
---
(condp = 2 1 :one 2 :two :many)
---
(condp < 15 10 :over-10 5 :over-5 :small)
---
(condp some [1 2 3] #{4 5} :a #{3} :b :none)
---
[(and) (and 1 2) (and 1 nil 2) (or) (or nil 2) (or false nil) (and true false)]
---
[(not true) (not nil) (not 0)]
---
(let [x 5] (if (and (> x 1) (< x 10)) "in range" "out"))
---
(let [xs [1 nil 3]] (map #(or % 0) xs))
---
(cond-> [] true (conj 1) false (conj 2))
---
(let [m {:status :ok}] (case (:status m) :ok "fine" :err "bad"))
---
(case "b" "a" 1 "b" 2 3)
---
(case 'x x :sym :no)
---
(let [grade (fn [s] (cond (>= s 90) "A" (>= s 80) "B" (>= s 70) "C" :else "F"))] (mapv grade [95 85 72 10]))
---
(condp = :z :a 1 :b 2 :none)
---
(cond (= 1 2) :a)
---
(case nil nil :nil-case :other)
---
(if-let [[a b] (seq [1 2])] (+ a b) :empty)
"""

FAMILIES["try"] = r"""
(try (throw (ex-info "boom" {:code 42})) (catch Exception e (ex-data e)))
---
(try (throw (ex-info "boom" {:code 42})) (catch clojure.lang.ExceptionInfo e (ex-message e)))
---
(try (+ 1 2) (catch Exception e :caught))
---
(try (throw (ex-info "x" {})) (catch Exception e :caught) (finally (println "finally")))
---
(try (println "body") 10 (finally (println "cleanup")))
---
(defn safe-div [a b] (try (if (zero? b) (throw (ex-info "division by zero" {:a a})) (quot a b)) (catch Exception e (str "error: " (ex-message e)))))
[(safe-div 10 2) (safe-div 1 0)]
---
(try (throw (ex-info "outer" {:level 1} (ex-info "inner" {:level 2}))) (catch Exception e [(ex-message e) (ex-data e)]))
---
(try (try (throw (ex-info "inner" {})) (catch Exception e (throw (ex-info (str "wrapped " (ex-message e)) {})))) (catch Exception e (ex-message e)))
---
(let [r (try (inc nil) (catch Exception e :npe))] r)
---
(try (nth [1 2] 10) (catch Exception e :out-of-bounds))
---
(try (throw (ex-info "m" {:a 1})) (catch Throwable t (:a (ex-data t))))
---
[(ex-message (ex-info "msg" {})) (ex-data (ex-info "msg" {:k :v}))]
---
(defn validate [x] (when-not (pos? x) (throw (ex-info "not positive" {:value x}))) x)
(mapv #(try (validate %) (catch Exception e (:value (ex-data e)))) [1 -2 3])
---
(try (throw (ex-info "a" {})) (catch clojure.lang.ExceptionInfo e :info) (catch Exception e :other))
---
(loop [i 0 errs 0] (if (= i 5) errs (recur (inc i) (try (if (odd? i) (throw (ex-info "odd" {})) errs) (catch Exception _ (inc errs))))))
---
(try (do (println "before") (throw (ex-info "stop" {})) (println "never")) (catch Exception e (println "caught" (ex-message e)) :handled))
---
(try (assoc 1 :a 2) (catch Exception e :type-problem))
---
(try (count 5) (catch Exception e :bad-count))
---
(try (parse-long "x") (catch Exception e :never))
---
(try (throw (ex-info "with nil data" {})) (catch Exception e (ex-data e)))
"""

FAMILIES["walk"] = r"""
(clojure.walk/postwalk #(if (number? %) (inc %) %) {:a [1 2] :b {:c 3}})
---
(walk/prewalk #(if (keyword? %) (name %) %) [:a [:b :c]])
---
(walk/keywordize-keys {"a" 1 "b" {"c" 2}})
---
(walk/stringify-keys {:a 1 :b {:c 2}})
---
(walk/postwalk-replace {:a :x} [:a {:a :a} #{:a}])
---
(walk/prewalk-replace {1 :one} [1 [1 2] {1 1}])
---
(walk/walk inc #(apply + %) [1 2 3])
---
(walk/postwalk #(if (vector? %) (vec (reverse %)) %) [1 [2 3] [4 [5 6]]])
---
(walk/postwalk (fn [x] (if (map? x) (dissoc x :secret) x)) {:a 1 :secret 2 :b {:secret 3 :c 4}})
---
(walk/postwalk #(if (string? %) (str/upper-case %) %) {"k" ["a" {"b" "c"}]})
---
(walk/prewalk #(if (and (vector? %) (= :skip (first %))) :skipped %) [1 [:skip 2 3] [4]])
---
(walk/walk first vec [[1 2] [3 4]])
---
(walk/postwalk #(if (number? %) (* % 2) %) '(1 (2 3)))
---
(walk/keywordize-keys [{"a" 1} {"b" [{"c" 3}]}])
"""

FAMILIES["misc"] = r"""
(def x 10)
(def y (* x 2))
(+ x y)
---
(defn greet "says hi" [name] (str "Hi, " name))
(greet "Ann")
---
(defn f [] (println "side effect") 42)
(f)
---
(defonce once 1)
(defonce once 2)
once
---
(println "a" 1 :b nil 2.5)
---
(println)
(println "")
:after-empty
---
(print "no newline")
(println)
(print "a" "b")
(println "c")
1
---
(prn "quoted" :k [1 2])
---
(println (pr-str "s"))
---
[(pr-str 1) (pr-str :a) (pr-str "x") (pr-str nil)]
---
(print-str "a" 1 "b")
---
(prn-str :x)
---
(let [a 1] (let [a 2] a))
---
(let [x 1 y (+ x 1) z (* y 3)] [x y z])
---
(def counter 0)
(def counter (inc counter))
counter
---
(do (println 1) (println 2) 3)
---
(comment (this is ignored))
---
(identical? :a :a)
---
[(quote (1 2)) '[a b] 'sym ':kw]
---
(let [v [1 2 3]] (v 1))
---
(let [inc (fn [x] (+ x 100))] (inc 1))
---
(defn lst [& args] args)
[(lst) (lst 1 2)]
---
(#(str %1 "-" %2) "a" "b")
---
(def data {:users [{:name "ann" :age 31 :active true} {:name "bob" :age 25 :active false} {:name "cy" :age 40 :active true}]})
(->> (:users data) (filter :active) (map :age) (reduce +))
---
(def orders [{:id 1 :items [{:price 10 :qty 2} {:price 5 :qty 1}]} {:id 2 :items [{:price 100 :qty 1}]}])
(into {} (map (fn [o] [(:id o) (reduce + (map #(* (:price %) (:qty %)) (:items o)))]) orders))
---
(let [words (str/split "to be or not to be" #" ")] (->> words frequencies (filter #(> (val %) 1)) (into (sorted-map))))
---
(defn top-n [n xs] (take n (sort-by - xs)))
(top-n 3 [5 1 9 3 7])
---
(let [tx [{:type :in :amt 100} {:type :out :amt 30} {:type :in :amt 5}]]
  (reduce (fn [bal {:keys [type amt]}] (if (= type :in) (+ bal amt) (- bal amt))) 0 tx))
---
(let [m {:a 1}] (str "value: " (:a m)))
---
(println "Result:" (+ 1 2))
(println "List:" (vec (range 3)))
:ok
---
(println {:b 2 :a 1})
(println [1 [2 3]] #{4})
:printed
---
(println :kw 'sym 1.5 true)
nil
---
(defn divide-safe [a b] (if (zero? b) nil (quot a b)))
(map #(divide-safe 10 %) [2 0 5])
---
(let [s (apply str (map char (range 97 102)))] s)
---
(mapv int "AZ")
---
(let [v (vec (range 10))] [(subvec v 2 5) (v 9) (count (subvec v 5))])
---
(def ^:private hidden 5)
hidden
---
(defn ^:private helper [x] (* x 3))
(helper 3)
---
(str (+ 1 2) "x" (- 5 3))
---
(max-key second [:a 1] [:b 3] [:c 2])
---
(let [{:keys [a b]} (zipmap [:a :b] [1 2])] (println "a+b" (+ a b)) (+ a b))
---
(defn avg [xs] (when (seq xs) (double (quot (reduce + xs) (count xs)))))
[(avg [1 2 3 4]) (avg [])]
---
(let [people [["ann" 30] ["bob" 25]]] (for [[n a] people] (format "%s is %d" n a)))
---
(defn update-all [m f] (reduce-kv (fn [acc k v] (assoc acc k (f v))) {} m))
(update-all {:a 1 :b 2} #(* % 100))
---
(-> (range 1 11) (->> (map #(* % %)) (filter even?)) vec)
---
(let [xs [3 1 2]] {:sorted (sort xs) :orig xs})
---
(println (str "multi\nline"))
:x
"""

FAMILIES["edge"] = r"""
[(conj {} [:a 1]) (conj {:a 1} {:b 2 :c 3}) (conj #{} nil) (assoc {} nil 1) (get {nil 1} nil)]
---
[(dissoc nil :a) (keys nil) (vals nil) (first "") (rest "ab") (seq "") (last "abc") (nth "abc" 5 :x)]
---
[(get-in {:a 1} []) (merge-with + {} nil) (into {} nil) (zipmap [] []) (range 0) (repeat 0 :x) (take -1 [1 2])]
---
[(subvec [1 2] 2) (subs "abc" 1 1) (apply str nil) (str/join nil) (interleave)]
---
[(sort [[1 2 3] [2]]) (compare [1 2 3] [2]) (compare [1 2] [1 3]) (compare [] [1])]
---
[(compare nil 1) (compare 1 nil) (compare nil nil) (compare :a :b) (compare :b :a) (compare true false)]
---
(sort [true false true])
---
(sort [:b :a/x :a :c/a])
---
(sort-by :k [{:k 2} {:k nil} {:k 1}])
---
[(count (range 0 1 0.1)) (last (range 0 1 0.1)) (count (range 0 2 0.25))]
---
(vec (range 0.5 3))
---
[(/ 7.0 2) (/ 6.0 3) (/ 1.0 0) (/ -1.0 0) (/ 3 1.5)]
---
[(quot -7.5 2) (rem -5.5 2) (mod -5.5 2) (quot 7 2.0)]
---
[(* 1.0 0) (+ 0.0 -0.0) (- 0.0) (abs -0.0)]
---
[(max 1 1.0) (min 1 1.0) (max 1.0 1) (min 1.0 1)]
---
(frequencies [[1] [1] [2] {:a 1} {:a 1}])
---
(group-by :a [{:a nil :v 1} {:v 2} {:a 1 :v 3}])
---
[(sort-by count ["bb" "a" "cc" "d"]) (sort-by first [[1 :z] [0 :y] [1 :x] [0 :w]])]
---
(sort [3 1.5 -2 0.0 10])
---
(sort ["b" "B" "a" "A" "_" "1"])
---
[(str/index-of "abc" "") (str/split "a b" #" " -1) (str/split "a,b,," #"," -1)]
---
(str/join ", " (map name [:a :b :ns/c]))
---
[(str 1 nil 2) (str true false) (str :a/b) (str "") (str [nil "x"]) (str {:a "x"}) (str #{:z})]
---
[(keyword "a" "b") (keyword :already) (name "s") (symbol "ns" "n")]
---
(let [m (into (sorted-map) (map vector (range 10) (range 10)))] [(first m) (last m) (count m)])
---
(-> (sorted-map) (assoc 3 :c) (assoc 1 :a) (assoc 2 :b) vals)
---
[(rseq (sorted-map 1 :a 2 :b)) (rseq (sorted-set 3 1 2))]
---
[(subseq (sorted-set 1 2 3 4 5) > 2) (subseq (sorted-set 1 2 3 4 5) >= 2 < 4) (subseq (sorted-map 1 :a 2 :b) < 2)]
---
(sorted-map-by > 1 :a 3 :c 2 :b)
---
(sorted-set-by > 1 3 2)
---
[(sorted? (sorted-map)) (sorted? (sorted-set)) (sorted? [1 2])]
---
(let [s (sorted-set 5 1 3)] [(first s) (last s) (vec s) (conj s 0) (disj s 3)])
---
[(peek [1]) (pop [1]) (conj [] nil) (concat nil nil) (vec (concat [1] nil [2]))]
---
[(nthnext [] 1) (nthnext nil 0) (next nil) (rest nil) (second nil) (last nil)]
---
[(flatten nil) (flatten [nil]) (flatten [{:a 1}]) (flatten [#{1}])]
---
[(distinct []) (dedupe []) (partition 2 []) (partition-all 2 []) (partition-by odd? [])]
---
[(apply max-key count ["a" "bb" "cc"]) (apply min-key count ["aa" "b" "c"])]
---
[(interpose ", " []) (interpose ", " ["a"]) (apply str (interpose ", " ["a" "b"]))]
---
[(update-in {:a [1 2 3]} [:a 1] * 10) (assoc-in [[1 2] [3 4]] [1 0] :x) (get-in [[1 2] [3 4]] [1 1])]
---
[(zipmap [:a :a :b] [1 2 3]) (into {} [[:a 1] [:a 2]]) (merge {:a 1} {:a nil})]
---
(mapv (fn [x] (cond-> x (even? x) (* 10) (> x 3) -)) (range 6))
---
[(boolean []) (boolean "") (boolean 0) (boolean false) (not [])]
---
[(= [] '()) (= [1 2] '(1 2)) (= [] {}) (= #{} []) (= nil []) (= "a" "a")]
---
[(= 1 1 1) (= 1 1 2) (not= 1 1 2) (== 1 1.0 1)]
---
(let [a [1 2 3]] [(= a (conj (pop a) 3)) (identical? a a)])
---
[(count {:a 1 :b 2 :c 3}) (count (seq {:a 1})) (count [[]]) (count [nil])]
---
[(get [1 2 3] -1) (get {:a 1} nil) (get nil :a) (get #{:a} :a) (get #{:a} :b :no)]
---
[(some #(and (even? %) %) [1 3 6 8]) (some pos? []) (some nil? [1 nil])]
---
[(take 3 (iterate #(* % 2) 1)) (take 3 (repeat "x")) (take 7 (cycle [:a :b :c]))]
---
(take-while #(< % 100) (iterate #(* % 3) 1))
---
(first (drop-while #(< % 1000) (iterate #(* % 2) 1)))
---
(map vector (range) [:a :b :c])
---
(zipmap (range) [:x :y])
---
(take 4 (map-indexed vector (cycle [:a :b])))
---
(second (iterate rest [1 2 3]))
"""

FAMILIES["unicode"] = r"""
[(count "😀") (count "héllo") (str/upper-case "éa") (str/lower-case "ÉA")]
---
(str/reverse "abc😀")
---
(re-seq #"\w+" "héllo wörld")
---
(re-seq #"\d" "x٣3")
---
[(subs "añb" 1 2) (str/index-of "añb" "b") (first "ñ")]
---
(sort ["é" "e" "z" "a"])
---
(frequencies "ñaña")
---
(str/split "α,β,γ" #",")
---
(re-find #"[a-z]+" "ÀBCdef")
---
[(str/capitalize "éclair") (str/trim "\u00a0x\u00a0")]
---
(str "tab\there" "nl\nthere")
---
["quote\"inside" "back\\slash" "tab\t" "cr\r"]
---
(count (str/split-lines "a\n\nb\n"))
---
(pr-str "a\nb")
"""

FAMILIES["regex2"] = r"""
(re-find #"(a)|(b)" "b")
---
(re-seq #"(a)?b" "b ab")
---
(re-find #"(?<year>\d{4})-(?<month>\d\d)" "on 2024-05-01")
---
(re-find #"foo(?=bar)" "foobar")
---
(re-find #"(?<=\$)\d+" "cost $45")
---
(re-find #"(\w)\1" "abccd")
---
(str/replace "aaa" #"a*" "x")
---
(str/replace "abc" #"" "-")
---
(str/split "a1b2c" #"(?<=\d)")
---
(re-seq #"\s+" "a \t b\nc")
---
(re-matches #"[\w.]+@[\w.]+" "john.doe@example.com")
---
(str/replace "hello" #"l+" (fn [m] (str (count m))))
---
(str/replace "x1y22" #"(\D)(\d+)" (fn [[_ a b]] (str b a)))
---
(str/replace "a.b.c" "." "$")
---
(str/replace "cost: 5" #"\d" "\\$")
---
(re-find #"^\d+$" "123\n456")
---
(re-find #"(?m)^\d+$" "abc\n456")
---
(re-find #"(?s)a.b" "a\nb")
---
(re-seq #"[^,]+" "a,b,,c")
---
(str/split "  leading and trailing  " #"\s+")
---
(re-pattern "\\d+")
---
(str #"a.b")
---
(re-find #"\p{Upper}+" "abcDEF")
---
(re-find #"[[:alpha:]]+" "123abc")
---
(mapv #(re-find #"\bcat\b" %) ["cat" "concat" "a cat!"])
"""

FAMILIES["err"] = r"""
(throw (ex-info "uncaught" {:a 1}))
---
(+ 1 "a")
---
(count 5)
---
(quot 7 0)
---
(mod 7 0)
---
(undefined-fn 1)
---
((fn [x] x))
---
(assoc [1 2] 5 3)
---
(nth [1 2] 5)
---
(first 5)
---
(inc nil)
---
(let [x])
---
(recur 1)
---
(str/join 5)
---
(:a)
---
(reduce + 1)
---
(keyword 5)
---
(apply + 1)
---
(subs "abc" 2 10)
---
(name nil)
---
(map inc 5)
---
(< 1 "a")
---
(defn f [x] (f x))
(f 1)
---
(assoc {:a 1} :b)
---
(hash-map :a)
---
(rem 1 0)
---
(int "12")
---
(parse-long 12)
---
(compare 1 "a")
---
(sort [1 "a" :b])
"""

FAMILIES["more"] = r"""
[(parse-double "NaN") (parse-double "Infinity") (parse-long "+5") (parse-long "007") (parse-double ".5") (parse-double "5.") (parse-double "1e400") (parse-double "0x10")]
---
[(= 0.0 -0.0) (= ##NaN ##NaN) (compare 1 1.0) (sort [1.0 1 0.5])]
---
[(bit-shift-left 1 62) (bit-shift-right -8 1) (bit-shift-left 1 64) (bit-shift-left 3 65)]
---
[(get-in {:a {:b nil}} [:a :b] :d) (get {:a nil} :a :d) (:a {:a false} :d) (find {:a nil} :a)]
---
[(keep identity [1 nil false 2]) (filter identity [1 nil false 2]) (remove nil? [1 nil false])]
---
[(range 3.0) (range 0.0 3) (str/index-of "abcabc" \c)]
---
(reduce-kv (fn [m k v] (assoc m k (* v 2))) {} [10 20 30])
---
[(set/rename-keys {:a 1 :b 2} {:a :b}) (select-keys [1 2 3] [0 2]) (let [{:keys [a]} [:a 1]] a)]
---
(let [{:keys [:a :b]} {:a 1 :b 2}] [a b])
---
[(format "%,.2f" 1234567.891) (format "%.3s" "abcdef") (format "%08.2f" -3.5) (format "%s" 1 2)]
---
[(format "%5s|%-5s|" "ab" "cd") (format "%.2e" 1234.5) (format "%S" "up")]
---
(let [[a b :as v] nil] [a b v])
---
(let [[a & {:keys [x]}] [1 :x 2]] [a x])
---
(defn opts [& {:as o}] o)
[(opts :a 1) (opts)]
---
(defn kw-fn [a & {:keys [b] :or {b 2}}] (+ a b))
[(kw-fn 1) (kw-fn 1 :b 10)]
---
(for [x [1 2] y [3 4] :when (odd? (+ x y))] [x y])
---
(for [[i c] (map-indexed vector "ab")] (str i c))
---
[(doseq [x []] x) (dotimes [i 0] i)]
---
(println "a\tb")
(println 'sym (list 1 2) (map inc [1 2]))
(println nil true 1.0 0.5 100.0)
:ok
---
(prn {:a "x" :b [1 "y"]})
(prn "s" \c)
nil
---
[(apply hash-map [:a 1 :b 2]) (apply assoc {} [:a 1 :b 2]) (apply merge [{:a 1} {:b 2}]) (apply mapv vector [[1 2] [3 4]])]
---
[(reduce into [] [[1] [2 3]]) (reduce (partial merge-with +) [{:a 1} {:a 2 :b 3}])]
---
[((some-fn :a :b) {:b 2}) ((fnil conj []) nil 1) ((constantly nil)) ((complement nil?) 1) ((comp first :items) {:items [7]})]
---
[(#{nil} nil) (#{false} false) (:a {} :d) ({:a 1} :b :d) (#{1 2} 3)]
---
(walk/postwalk identity {:a (list 1 2) :b #{3}})
---
(walk/prewalk #(if (map-entry? %) [(name (key %)) (val %)] %) {:a 1 :b {:c 2}})
---
[(set/union #{1} nil) (set/difference #{1 2} nil) (set/intersection #{1}) (set/select odd? #{}) (set/subset? #{} #{})]
---
[(disj nil 1) (conj nil) (into nil [1]) (merge nil nil)]
---
[(mapv + [1 2] [1]) (map + [1] [] [2]) (apply concat [[1] [2]]) (reverse nil) (sort nil) (frequencies nil) (group-by odd? nil) (mapcat identity nil)]
---
[(every? #{1 2} [1 2]) (not-any? nil? []) (seq (sorted-map)) (into [] (sorted-set 3 1))]
---
[(vec (range 5 0 -2)) (range 10 0) (range 0 -5 -1) (nthnext (range 10) 8) (drop -1 [1 2]) (take-last 0 [1]) (drop-last 0 [1])]
---
[(assoc {:a 1} :a 1) (update {:a 1} :a (fn [x y] (+ x y)) 5) (update-in {:a 1} [:a] + 1 2 3) (select-keys {:a 1} nil) (dissoc {:a 1} :a :b :c)]
---
[(get-in [{:a 1}] [0 :a]) (assoc-in nil [:a 0] 1) (update-keys {"a" 1} keyword) (map key {:a 1})]
---
[(str/join "," [[1 2]]) (str/split-lines "") (subs "abc" 3) (str/capitalize "") (str/escape "abc" {\a "1"}) (apply str "abc")]
---
[(char 65) (str (char 65)) (int (first "A")) (compare \a \b) (sort [\b \a]) (= (first "a") \a) (case (first "abc") \a :a :other)]
---
(apply str (map #(char (inc (int %))) "HAL"))
---
[(str/lower-case "ÀÉ") (str/join (repeat 3 "-")) (str/split "a=1&b=2" #"&")]
---
(try (throw (ex-info "x" {})) (catch Exception _ (str "caught")))
---
(defn risky [x] (if (neg? x) (throw (ex-info "negative" {:x x})) (* x 2)))
(defn run [xs] (try (mapv risky xs) (catch Exception e {:error (ex-message e) :data (ex-data e)})))
[(run [1 2]) (run [1 -2])]
---
(let [r (try 1 (finally (println "f")))] (inc r))
---
[(let [[_ _ c] "abc"] c) (let [{:keys [a]} nil] a)]
---
[(= {:a 1} (sorted-map :a 1)) (= [1 [2]] '(1 (2))) (= #{[1]} #{'(1)}) (= (sorted-set 1 2) #{1 2})]
---
(let [m {:b 2 :a 1}] (str/join "," (map (fn [[k v]] (str (name k) "=" v)) (sort m))))
---
(apply max-key :v [{:v 1 :id 1} {:v 1 :id 2} {:v 0 :id 3}])
---
(apply min-key :v [{:v 1 :id 1} {:v 1 :id 2} {:v 2 :id 3}])
---
(sort-by :v [{:v 1 :id 1} {:v 0 :id 2} {:v 1 :id 3} {:v 0 :id 4}])
---
(partition-by identity "aabbbc")
---
(apply str (map first (partition-by identity "aabbbccd")))
---
(map (fn [g] [(first g) (count g)]) (partition-by identity [1 1 2 3 3 3]))
---
(into (sorted-map) (frequencies (str/split "b a c a b a" #" ")))
---
(let [pairs [[:a 1] [:b 2] [:a 3]]] (reduce (fn [m [k v]] (update m k (fnil conj []) v)) {} pairs))
---
(merge-with (fn [a b] (max a b)) {:a 1 :b 5} {:a 3 :b 2})
---
[(mapv #(update % :x inc) [{:x 1} {:x 2}]) (into [] "abc") (set "hello") (apply str (sort "hello"))]
---
[(conj [1] [2 3]) (hash-set) (name 'a) (= 'a 'a) (sort-by name [:b :a])]
---
(let [xs [1 2 3 4 5 6 7 8 9 10]] {:mean (double (/ (reduce + xs) (count xs))) :n (count xs)})
---
(let [s "hello world"] (->> s (filter #(not= % \space)) frequencies (filter #(> (val %) 1)) (into (sorted-map))))
---
(let [tree {:v 1 :kids [{:v 2 :kids []} {:v 3 :kids [{:v 4 :kids []}]}]}] (reduce + (map :v (tree-seq :kids :kids tree))))
---
(defn flatten-map [m prefix] (reduce-kv (fn [acc k v] (let [k2 (str prefix (name k))] (if (map? v) (merge acc (flatten-map v (str k2 "."))) (assoc acc k2 v)))) {} m))
(flatten-map {:a 1 :b {:c 2 :d {:e 3}}} "")
---
(let [items [{:name "pen" :price 1.5 :qty 10} {:name "book" :price 12.0 :qty 2}]] (format "Total: %.2f" (reduce + (map #(* (:price %) (:qty %)) items))))
---
(let [log ["INFO a" "ERROR b" "INFO c" "ERROR d"]] (->> log (filter #(str/starts-with? % "ERROR")) (map #(subs % 6))))
---
(let [users [{:id 1 :name "a"} {:id 2 :name "b"}] by-id (into {} (map (juxt :id identity)) users)] (get-in by-id [2 :name]))
---
(let [matrix [[1 2] [3 4] [5 6]]] (apply mapv vector matrix))
---
(let [words ["apple" "bob" "kayak" "tree"]] (filter #(= (seq %) (reverse %)) words))
---
(letfn [(qsort [xs] (if (empty? xs) [] (let [[p & r] xs] (concat (qsort (filter #(< % p) r)) [p] (qsort (filter #(>= % p) r))))))] (qsort [3 1 4 1 5 9 2 6]))
---
(defn deep-merge [a b] (if (and (map? a) (map? b)) (merge-with deep-merge a b) b))
(deep-merge {:a {:b 1 :c 2}} {:a {:c 3 :d 4}})
---
(let [scores {"ann" 90 "bob" 72 "cy" 85}] (->> scores (sort-by val >) (map key) (take 2)))
---
(let [s "The rain in Spain"] {:words (count (str/split s #"\s+")) :upper (count (re-seq #"[A-Z]" s))})
---
(let [dates ["2024-01-15" "2023-12-01" "2024-03-02"]] (sort dates))
---
(let [rows [{:cat :a :v 1} {:cat :b :v 2} {:cat :a :v 3}]] (into (sorted-map) (map (fn [[k vs]] [k (reduce + (map :v vs))]) (group-by :cat rows))))
---
(let [v [5 3 8]] (map-indexed (fn [i x] {:rank (inc i) :val x}) (sort > v)))
---
(let [acc (reduce (fn [{:keys [sum n]} x] {:sum (+ sum x) :n (inc n)}) {:sum 0 :n 0} [4 8 15 16 23 42])] acc)
---
(loop [todo [[0 0]] seen #{}] (if (empty? todo) (count seen) (let [[x y :as p] (peek todo) todo (pop todo)] (if (or (seen p) (> x 3) (> y 3)) (recur todo seen) (recur (conj todo [(inc x) y] [x (inc y)]) (conj seen p))))))
---
[('a {'a 1}) ('b {'a 1} :none)]
---
(condp some [1 2 3] #{4} :>> inc #{2} :>> (fn [x] (* 10 x)) :none)
---
(case 2 (1 2 3) :small (4 5) :big :other)
---
(let [f (fn [& xs] (count xs))] [(f) (apply f []) (apply f 1 [2 3])])
---
(defn tally [coll] (reduce (fn [m x] (update m x (fnil inc 0))) (sorted-map) coll))
(tally [:b :a :b :c :b])
---
(let [{:keys [a b] :as m} {:a 1}] (println "m" m "a" a "b" b) [a b])
---
(let [v [[:x 1] [:y 2]]] (into {} v))
---
(->> [{:n "a" :s 3} {:n "b" :s 1}] (sort-by :s) (mapv :n))

"""

FAMILIES["reader"] = r"""
[1 #_ 2 3 #_(ignored form) 4]
---
;; a comment line
(+ 1 ; trailing comment
   2,,, 3)
---
[0x1F 0xff -0x10]
---
[017 010]
---
[1e3 1E3 -1.5e-3 2.5E2 +5 -0 0.0 -0.0]
---
[\a \space \newline \tab \u0041 \A]
---
["\u00e9" "\t|" "a\\b" "q\"q"]
---
^{:doc "meta"} [1 2]
---
(defn ^String f [^long x] (str x))
(f 5)
---
['a 'b/c ':k '"s" '1 '[x y] '(f x) '{:a b}]
---
(quote (a (b (c))))
---
[:a/b :a.b/c :kw-with-dash :x? :*star*]
---
['a-b 'x? 'save! '*x* '->> '<=> 'a.b/c]
---
{:a 1, :b 2, :c 3}
---
#{:a :b :c}
---
[[] {} #{} () ""]
---
(count "multi
line
string")
---
[1.0 100.0 1234567.0 1.0E7 123456789012.5 1.0E15 1.0E-3 1.0E-5 0.1 1e100]
---
[(- 0.1 0.3) (* 100 1.1) (/ 22.0 7) 3.141592653589793 2.718281828459045]
---
[9223372036854775807 -9223372036854775808]
"""

FAMILIES["forms"] = r"""
[(do) (let []) ((fn [])) (when false) (cond) (loop [] 1)]
---
(defn count-items [x] (count x))
(defn count2 [xs] (reduce + (map count-items xs)))
(count2 [[1 2] [3]])
---
(defn f ([] 0) ([x & xs] (+ x (count xs))))
[(f) (f 10) (f 10 1 2 3)]
---
((fn down [x] (if (> x 0) (down (dec x)) :done)) 5)
---
(#(do %) 3)
---
[(some-> false not) (some-> nil not) (cond-> 5) (as-> [] v (conj v 1) (conj v 2))]
---
(def x 1)
(def x (+ x 1))
(def x (* x 10))
x
---
(let [fs (for [i (range 3)] (fn [] i))] (map #(%) fs))
---
(let [fs (mapv (fn [i] #(* i 10)) (range 3))] ((fs 2)))
---
(defn depth [n] (if (zero? n) 0 (inc (depth (dec n)))))
(depth 500)
---
(loop [i 0 acc 0] (if (< i 100000) (recur (inc i) (+ acc i)) acc))
---
(count (reduce (fn [v i] (conj v i)) [] (range 20000)))
---
(let [m (reduce (fn [m i] (assoc m i (* i i))) {} (range 5000))] [(count m) (m 4999)])
---
(defn ack [m n] (cond (zero? m) (inc n) (zero? n) (ack (dec m) 1) :else (ack (dec m) (ack m (dec n)))))
(ack 2 3)
---
(defn hanoi [n from to via] (if (zero? n) [] (concat (hanoi (dec n) from via to) [[from to]] (hanoi (dec n) via to from))))
(count (hanoi 10 :a :c :b))
---
(letfn [(f [n] (if (zero? n) :even (g (dec n)))) (g [n] (if (zero? n) :odd (f (dec n))))] (map f [0 1 10 11]))
---
(let [a 1 b 2] (let [a b b a] [a b]))
---
(def v [1 2 3])
(def v2 (conj v 4))
[v v2]
---
(let [x 5] (case x 5 :five :other))
---
(let [x :b] (condp = x :a 1 :b 2))
---
(defn g [x] (when (pos? x) (println "pos" x)) (* x 2))
[(g 1) (g -1)]
---
(do (def a 1) (def b (inc a)) (+ a b))
---
(if-let [x false] :then :else)
---
(when-let [[a] [1]] a)
---
(letfn [] 5)
---
(let [[f & r] (map inc [1 2 3])] [f r])
---
(defn ^:private h [] :private)
(h)
---
(let [x 10 f (fn [] x) x 20] (f))
---
(dotimes [i 3] (print i))
(println)
:done
"""

FAMILIES["strkeys"] = r"""
(def data {"users" [{"name" "ann" "age" 31} {"name" "bob" "age" 25}]})
(get-in data ["users" 0 "name"])
---
(def users [{"name" "ann" "age" 31} {"name" "bob" "age" 25} {"name" "cy" "age" 40}])
(map #(get % "name") (sort-by #(get % "age") users))
---
(def users [{"name" "ann" "age" 31} {"name" "bob" "age" 25}])
(reduce + (map #(% "age") users))
---
(let [{:strs [name tags]} {"name" "x" "tags" ["a" "b"]}] (str name ":" (count tags)))
---
(walk/keywordize-keys {"a" {"b" [{"c" 1}]}})
---
(update-keys {"a" 1 "b" 2} keyword)
---
(into {} (map (fn [[k v]] [(keyword k) v]) {"x" 1 "y" 2}))
---
(group-by #(get % "type") [{"type" "a" "v" 1} {"type" "b" "v" 2} {"type" "a" "v" 3}])
---
(let [rec {"id" 7 "meta" {"tags" ["t1"]}}] (update-in rec ["meta" "tags"] conj "t2"))
---
(select-keys {"a" 1 "b" 2 "c" 3} ["a" "c"])
---
(frequencies (map #(get % "status") [{"status" "ok"} {"status" "fail"} {"status" "ok"}]))
---
(assoc-in {} ["a" "b"] 1)
---
(contains? {"a" 1} "a")
---
(sort (keys {"b" 1 "a" 2}))
---
(mapv (juxt #(get % "n") #(get % "v" 0)) [{"n" 1 "v" 2} {"n" 3}])
"""

# Programs that exercise the deliberate differences of language.md: each one
# must be listed (with its reason) in expected-differences.txt.
FAMILIES["diff"] = r"""
(/ 10 2)
---
(/ 1 3)
---
(nth [1 2 3] 10)
---
(contains? [10 20 30] 20)
---
(:a {"a" 1})
---
(get {"name" "x"} :name)
---
(conj '(1 2) 0)
---
(into '() [1 2 3])
---
[(peek '(1 2 3)) (pop '(1 2 3))]
---
(keys {:b 1 :a 2 :c 3})
---
(vec #{:c :a :b})
---
(+' 9223372036854775807 1)
---
(str (list 1 2))
---
(pr-str {:a 1 :b 2})
---
(str (+ 0.1 0.2))
---
(println ["a" "b"])
:x
---
(string? (first "abc"))
---
(= \a "a")
---
(vector? (map inc [1]))
---
(str 1e8)
---
(let [{:keys [id]} {"id" 7}] id)
---
(get-in {"a" {"b" 1}} [:a :b])
---
(/ 1 0)
---
(seq {:b 1 :a 2})
---
(format "%s" '(1 2))
---
(take 5 (map #(* 3 %) (range)))
---
(vector? '(1 2))
---
(format "%s" (+ 0.1 0.2))
---
(conj nil 1 2)
---
(reduce (fn [m [k v]] (update m k conj v)) {} [[:a 1] [:a 2]])
---
[(parse-double " 1.5 ") (parse-double "1d")]
---
(str #"a.b")
---
(first (filter #(> % 10) (iterate inc 0)))
"""

# ---------------------------------------------------------------------------
# Matrix families: one operation over many inputs
# ---------------------------------------------------------------------------


def matrix_programs():
    progs = {}

    # arith-matrix: binary numeric ops over pairs of numbers.
    ops = ["+", "-", "*", "max", "min", "quot", "rem", "mod", "compare", "<", "<=", "=", "=="]
    pairs = ["7 3", "-7 3", "7 -3", "-7 -3", "0 5", "2.5 2", "-2.5 2", "10 2.5", "1.0 1", "100 7"]
    progs["arithm"] = [
        "(let [ops [%s]]\n  (mapv (fn [[a b]] (mapv #(%% a b) ops)) [%s]))"
        % (" ".join(ops), " ".join("[%s]" % p for p in pairs[i : i + 2]))
        for i in range(0, len(pairs), 2)
    ]

    # seq-matrix: one-argument sequence functions over many collections.
    seq_fns = [
        "first", "second", "last", "rest", "next", "butlast", "count", "empty?",
        "seq", "vec", "reverse", "distinct", "frequencies", "sort", "dedupe",
        "flatten", "set", "not-empty", "ffirst", "nnext",
    ]
    inputs = ["[]", "[1]", "[3 1 2]", "[1 1 2 2 3]", "nil", "'(5 4)", "[[1 2] [3]]", "(range 4)"]
    for fn in seq_fns:
        if fn == "ffirst":
            ins = ["[[1 2] [3]]", "[[]]", "[]", "nil", "[[:a]]"]
        elif fn in ("sort", "set"):
            ins = [i for i in inputs if i != "[[1 2] [3]]"] + ["[[2 1] [1 2]]"]
        else:
            ins = inputs
        progs.setdefault("seqm", []).append(
            "(mapv %s [%s])" % (fn, " ".join(ins))
        )

    # take/drop-matrix: (f n coll) for many n.
    for fn in ["take", "drop", "take-last", "drop-last", "partition", "partition-all", "split-at", "nthrest"]:
        ns = ["1", "2", "3", "5"] if fn in ("partition", "partition-all") else ["0", "1", "2", "5", "-1"]
        call = "(%s [1 2 3 4] n)" if fn == "nthrest" else "(%s n [1 2 3 4])"
        progs.setdefault("seqm", []).append(
            "(for [n [%s]] %s)" % (" ".join(ns), call % fn)
        )

    # pred-matrix: predicates over many values.
    preds = [
        "nil?", "some?", "true?", "false?", "number?", "integer?", "int?", "float?", "double?",
        "string?", "keyword?", "symbol?", "map?", "vector?", "set?", "coll?", "seqable?",
        "sequential?", "associative?", "boolean?", "fn?", "ifn?", "zero?", "pos?", "neg?",
        "even?", "odd?", "empty?", "nat-int?", "pos-int?", "neg-int?", "map-entry?",
        "counted?", "indexed?", "reversible?", "sorted?", "any?",
    ]
    values = {
        "all": ["nil", "true", "false", "0", "1", "-1", "1.5", "\"s\"", ":k", "'sym", "[]", "[1]", "{}", "{:a 1}", "#{}", "inc"],
        "num": ["0", "1", "-1", "2", "1.5", "-0.5", "0.0", "100"],
        "coll": ["nil", "[]", "[1]", "{}", "{:a 1}", "#{}", "#{1}", "\"\"", "\"ab\""],
    }
    for p in preds:
        if p in ("zero?", "pos?", "neg?", "even?", "odd?"):
            vs = values["num"] if p not in ("even?", "odd?") else ["0", "1", "-1", "2", "-4", "100", "7"]
        elif p in ("empty?", "counted?", "indexed?", "reversible?", "sorted?"):
            vs = values["coll"]
        else:
            vs = values["all"]
        progs.setdefault("predm", []).append("(mapv %s [%s])" % (p, " ".join(vs)))

    # str-matrix: clojure.string functions over many strings.
    strs = ["\"\"", "\" \"", "\"abc\"", "\"Hello World\"", "\"  padded  \"", "\"a,b,,c\"", "\"line1\\nline2\"", "\"ÄÖü\"", "\"MiXeD cAsE\"", "\"x\""]
    for fn in ["str/upper-case", "str/lower-case", "str/capitalize", "str/trim", "str/triml", "str/trimr",
               "str/blank?", "str/reverse", "count", "str/split-lines", "seq", "str/trim-newline"]:
        progs.setdefault("strm", []).append("(mapv %s [%s])" % (fn, " ".join(strs)))
    for fn, arg in [("str/includes?", "\"b\""), ("str/starts-with?", "\"a\""), ("str/ends-with?", "\"c\""),
                    ("str/index-of", "\"l\""), ("str/last-index-of", "\"l\""), ("str/split", "#\",\""),
                    ("str/split", "#\"\\s+\""), ("str/replace", "\"l\" \"L\""), ("str/replace", "#\"[aeiou]\" \"_\""),
                    ("str/replace-first", "\"l\" \"L\""), ("str/join", "")]:
        if fn == "str/join":
            progs.setdefault("strm", []).append("(mapv #(str/join \"|\" %%) [%s])" % " ".join(strs))
        else:
            progs.setdefault("strm", []).append("(mapv #(%s %% %s) [%s])" % (fn, arg, " ".join(strs)))
    for a, b in [("0", "1"), ("1", "3"), ("0", "0"), ("2", "2")]:
        progs.setdefault("strm", []).append(
            "(mapv #(subs %% %s (min %s (count %%))) [\"abc\" \"hello\" \"xy\"])" % (a, b)
        )

    # map-matrix: map operations over several maps.
    maps = ["{}", "{:a 1}", "{:a 1 :b 2}", "{:a nil}", "{:b {:c 3}}", "{\"s\" 1 :k 2}", "{1 :one [2] :two}"]
    for expr in ["(get m :a)", "(get m :a :dflt)", "(contains? m :a)", "(count m)", "(assoc m :z 26)",
                 "(dissoc m :a)", "(merge m {:a 100})", "(sort (map str (keys m)))", "(get-in m [:b :c])",
                 "(update m :a (fnil inc 0))", "(into (sorted-map) (select-keys m [:a :b]))", "(find m :a)",
                 "(reduce-kv (fn [acc k v] (conj acc k)) #{} m)", "(assoc-in m [:x :y] 1)", "(empty? m)"]:
        progs.setdefault("mapm", []).append("(mapv (fn [m] %s) [%s])" % (expr, " ".join(maps)))

    # format-matrix: format directives over values.
    for spec, vals in [
        ("%d", ["0", "7", "-42", "1234567"]),
        ("%5d", ["1", "-12", "123456"]),
        ("%-6d|", ["1", "-12"]),
        ("%.1f", ["0.05", "0.15", "1.25", "-2.35", "100.0"]),
        ("%.3f", ["3.14159", "-0.0005", "2.0"]),
        ("%s", ["1", "1.5", "nil", "true", ":k", "\"s\"", "[1 \"a\"]"]),
        ("%10s|", ["\"abc\"", "\"\""]),
        ("%x", ["0", "15", "4096"]),
    ]:
        progs.setdefault("fmtm", []).append("(mapv #(format \"%s\" %%) [%s])" % (spec, " ".join(vals)))

    # hof-matrix: higher-order fns over collections.
    colls = ["[]", "[1]", "[1 2 3 4 5 6]", "(range 10)", "[5 3 8 1]"]
    for expr in ["(map inc c)", "(filter even? c)", "(remove even? c)", "(reduce + 0 c)", "(reduce conj [] c)",
                 "(keep #(when (> % 2) %) c)", "(map-indexed vector c)", "(mapcat #(vector % %) c)",
                 "(partition-by even? c)", "(group-by odd? c)", "(sort-by - c)", "(take-while #(< % 4) c)",
                 "(drop-while #(< % 4) c)", "(split-with odd? c)", "(every? pos? c)", "(some #(when (> % 3) %) c)",
                 "(interpose 0 c)", "(map-indexed #(* %1 %2) c)", "(apply max 0 c)", "(into [] (comp (filter odd?) (map inc)) c)"]:
        progs.setdefault("hofm", []).append("(mapv (fn [c] %s) [%s])" % (expr, " ".join(colls)))

    return progs


def chunks(text):
    out, cur = [], []
    for line in text.strip("\n").split("\n"):
        if line.strip() == "---":
            out.append("\n".join(cur).strip("\n"))
            cur = []
        else:
            cur.append(line)
    if cur:
        out.append("\n".join(cur).strip("\n"))
    return [c for c in out if c.strip()]


def main():
    os.makedirs(OUT, exist_ok=True)
    all_progs = {}
    for fam, text in FAMILIES.items():
        all_progs[fam] = chunks(text)
    for fam, progs in matrix_programs().items():
        all_progs[fam] = progs
    written = set()
    for fam, progs in all_progs.items():
        for i, src in enumerate(progs, 1):
            name = "%s-%03d.clj" % (fam, i)
            with open(os.path.join(OUT, name), "w") as f:
                f.write(";; generated by tests/differential/gen.py (family %s): edit gen.py, not this file\n" % fam)
                f.write(src + "\n")
            written.add(name)
    for old in os.listdir(OUT):
        if old.endswith(".clj") and old not in written:
            os.remove(os.path.join(OUT, old))
    print("wrote %d programs in %d families to %s" % (len(written), len(all_progs), OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
