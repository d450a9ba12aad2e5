//! The registry entries of the sequence builtins (name, arity, doc,
//! example, implementation); the behaviour is documented in [`super`].

use super::{access, build, gen, group, hof, xf};
use crate::builtins::{Arity, Builtin};

pub const BUILTINS: &[Builtin] = &[
    // --- access -----------------------------------------------------------
    Builtin::new(
        "first",
        Arity::exact(1),
        "The first item of a collection, or nil.",
        access::first,
    )
    .example("(first [1 2 3]) ;=> 1"),
    Builtin::new(
        "second",
        Arity::exact(1),
        "The second item of a collection, or nil.",
        access::second,
    )
    .example("(second [1 2 3]) ;=> 2"),
    Builtin::new(
        "last",
        Arity::exact(1),
        "The last item of a collection, or nil.",
        access::last,
    )
    .example("(last [1 2 3]) ;=> 3"),
    Builtin::new(
        "rest",
        Arity::exact(1),
        "All items but the first (an empty vector when none).",
        access::rest,
    )
    .example("(rest [1 2 3]) ;=> [2 3]"),
    Builtin::new(
        "next",
        Arity::exact(1),
        "All items but the first, or nil when none are left.",
        access::next,
    )
    .example("(next [1]) ;=> nil"),
    Builtin::new(
        "nnext",
        Arity::exact(1),
        "(next (next coll)).",
        access::nnext,
    )
    .example("(nnext [1 2 3]) ;=> [3]"),
    Builtin::new(
        "nfirst",
        Arity::exact(1),
        "(next (first coll)).",
        access::nfirst,
    )
    .example("(nfirst [[1 2] [3]]) ;=> [2]"),
    Builtin::new(
        "ffirst",
        Arity::exact(1),
        "(first (first coll)).",
        access::ffirst,
    )
    .example("(ffirst [[1 2] [3]]) ;=> 1"),
    Builtin::new(
        "fnext",
        Arity::exact(1),
        "(first (next coll)), i.e. the second item.",
        access::fnext,
    )
    .example("(fnext [1 2 3]) ;=> 2"),
    Builtin::new(
        "butlast",
        Arity::exact(1),
        "All items but the last, or nil when that leaves none.",
        access::butlast,
    )
    .example("(butlast [1 2 3]) ;=> [1 2]"),
    Builtin::new(
        "nth",
        Arity::range(2, 3),
        "The item at index i; nil (or the default) when out of range.",
        access::nth,
    )
    .example("(nth [:a :b :c] 1) ;=> :b"),
    Builtin::new(
        "nthnext",
        Arity::exact(2),
        "The items after the first n, or nil when none are left.",
        access::nthnext,
    )
    .example("(nthnext [1 2 3] 2) ;=> [3]"),
    Builtin::new(
        "nthrest",
        Arity::exact(2),
        "The items after the first n.",
        access::nthrest,
    )
    .example("(nthrest [1 2 3] 2) ;=> [3]"),
    Builtin::new(
        "take",
        Arity::range(1, 2),
        "The first n items (works on infinite sequences).",
        access::take,
    )
    .example("(take 3 (iterate inc 0)) ;=> [0 1 2]"),
    Builtin::new(
        "take-last",
        Arity::exact(2),
        "The last n items, or nil when there are none.",
        access::take_last,
    )
    .example("(take-last 2 [1 2 3]) ;=> [2 3]"),
    Builtin::new(
        "take-while",
        Arity::range(1, 2),
        "The leading items for which pred is truthy.",
        access::take_while,
    )
    .example("(take-while pos? [2 1 0 3]) ;=> [2 1]"),
    Builtin::new(
        "drop",
        Arity::range(1, 2),
        "All items after the first n.",
        access::drop,
    )
    .example("(drop 2 [1 2 3 4]) ;=> [3 4]"),
    Builtin::new(
        "drop-last",
        Arity::range(1, 2),
        "All items but the last n (default 1).",
        access::drop_last,
    )
    .example("(drop-last [1 2 3]) ;=> [1 2]"),
    Builtin::new(
        "drop-while",
        Arity::range(1, 2),
        "The items from the first one for which pred is falsy.",
        access::drop_while,
    )
    .example("(drop-while pos? [2 1 0 3]) ;=> [0 3]"),
    Builtin::new(
        "seq",
        Arity::exact(1),
        "The items of a collection as a vector, or nil when empty.",
        access::seq,
    )
    .example("(seq {:a 1}) ;=> [[:a 1]]"),
    Builtin::new(
        "cons",
        Arity::exact(2),
        "A vector of x followed by the items of coll.",
        access::cons,
    )
    .example("(cons 0 [1 2]) ;=> [0 1 2]"),
    Builtin::new(
        "concat",
        Arity::at_least(0),
        "The items of all collections, in order, as one vector.",
        access::concat,
    )
    .example("(concat [1 2] [3] nil) ;=> [1 2 3]")
    .owned(access::concat_owned),
    Builtin::new(
        "reverse",
        Arity::exact(1),
        "The items in reverse order (a string gives characters).",
        access::reverse,
    )
    .example("(reverse [1 2 3]) ;=> [3 2 1]"),
    Builtin::new(
        "split-at",
        Arity::exact(2),
        "[(take n coll) (drop n coll)].",
        access::split_at,
    )
    .example("(split-at 2 [1 2 3]) ;=> [[1 2] [3]]"),
    Builtin::new(
        "split-with",
        Arity::exact(2),
        "[(take-while pred coll) (drop-while pred coll)].",
        access::split_with,
    )
    .example("(split-with odd? [1 3 4 5]) ;=> [[1 3] [4 5]]"),
    Builtin::new(
        "interleave",
        Arity::at_least(0),
        "First items of each collection, then second items …; stops at the shortest.",
        access::interleave,
    )
    .example("(interleave [1 2] [:a :b]) ;=> [1 :a 2 :b]"),
    Builtin::new(
        "interpose",
        Arity::range(1, 2),
        "The items with sep between each two.",
        access::interpose,
    )
    .example("(interpose \", \" [\"a\" \"b\"]) ;=> [\"a\" \", \" \"b\"]"),
    // --- higher-order -------------------------------------------------------
    Builtin::new(
        "map",
        Arity::at_least(1),
        "Applies f to each item (or to the i-th items of several collections, up to the shortest).",
        hof::map,
    )
    .owned(hof::map_owned)
    .example("(map inc [1 2 3]) ;=> [2 3 4]"),
    Builtin::new(
        "mapv",
        Arity::at_least(2),
        "Like map; always a vector.",
        hof::mapv,
    )
    .owned(hof::mapv_owned)
    .example("(mapv + [1 2] [10 20]) ;=> [11 22]"),
    Builtin::new(
        "map-indexed",
        Arity::range(1, 2),
        "Applies (f index item) to each item.",
        hof::map_indexed,
    )
    .example("(map-indexed vector [:a :b]) ;=> [[0 :a] [1 :b]]"),
    Builtin::new(
        "reductions",
        Arity::range(2, 3),
        "The intermediate values of (reduce f init coll), init first; works on infinite sequences.",
        build::reductions,
    )
    .example("(reductions + [1 2 3]) ;=> [1 3 6]"),
    Builtin::new(
        "take-nth",
        Arity::exact(2),
        "Every nth item, starting with the first.",
        build::take_nth,
    )
    .example("(take-nth 2 [1 2 3 4 5]) ;=> [1 3 5]"),
    Builtin::new(
        "repeatedly",
        Arity::range(1, 2),
        "(repeatedly n f): n calls of f with no arguments; (repeatedly f) is infinite.",
        build::repeatedly,
    )
    .example("(repeatedly 2 (fn [] :x)) ;=> [:x :x]"),
    Builtin::new(
        "sequence",
        Arity::range(1, 2),
        "The items of coll as a sequence; with a transducer, (into [] xform coll).",
        build::sequence,
    )
    .example("(sequence (map inc) [1 2]) ;=> [2 3]"),
    Builtin::new(
        "run!",
        Arity::exact(2),
        "Calls f on each item for its effects; returns nil.",
        build::run,
    )
    .example("(run! println [1 2]) ;=> nil"),
    Builtin::new(
        "mapcat",
        Arity::at_least(1),
        "Applies f to each item and concatenates the resulting collections.",
        hof::mapcat,
    )
    .example("(mapcat (fn [x] [x x]) [1 2]) ;=> [1 1 2 2]"),
    Builtin::new(
        "filter",
        Arity::range(1, 2),
        "The items for which pred is truthy.",
        hof::filter,
    )
    .example("(filter even? [1 2 3 4]) ;=> [2 4]"),
    Builtin::new(
        "filterv",
        Arity::exact(2),
        "Like filter; always a vector.",
        hof::filterv,
    )
    .example("(filterv :active [{:active true} {}]) ;=> [{:active true}]"),
    Builtin::new(
        "remove",
        Arity::range(1, 2),
        "The items for which pred is falsy.",
        hof::remove,
    )
    .example("(remove even? [1 2 3 4]) ;=> [1 3]"),
    Builtin::new(
        "keep",
        Arity::range(1, 2),
        "The non-nil results of (f item).",
        hof::keep,
    )
    .example("(keep :id [{:id 1} {} {:id 3}]) ;=> [1 3]"),
    Builtin::new(
        "keep-indexed",
        Arity::range(1, 2),
        "The non-nil results of (f index item).",
        hof::keep_indexed,
    )
    .example("(keep-indexed (fn [i x] (when (even? i) x)) [:a :b :c]) ;=> [:a :c]"),
    Builtin::new(
        "reduce",
        Arity::range(2, 3),
        "Folds coll with (f acc item), from init or the first item; stops at (reduced v).",
        hof::reduce,
    )
    .example("(reduce + 0 [1 2 3]) ;=> 6"),
    Builtin::new(
        "reduce-kv",
        Arity::exact(3),
        "Folds a map with (f acc k v) (a vector with (f acc index item)).",
        hof::reduce_kv,
    )
    .example("(reduce-kv (fn [acc k v] (+ acc v)) 0 {:a 1 :b 2}) ;=> 3"),
    Builtin::new(
        "reduced",
        Arity::exact(1),
        "Wraps x so that reduce stops and returns x.",
        hof::reduced,
    )
    .example("(reduce (fn [a x] (if (> x 2) (reduced a) (+ a x))) 0 [1 2 3 4]) ;=> 3"),
    Builtin::new(
        "reduced?",
        Arity::exact(1),
        "True if x was made by reduced.",
        hof::is_reduced,
    )
    .example("(reduced? (reduced 1)) ;=> true"),
    Builtin::new(
        "unreduced",
        Arity::exact(1),
        "The value inside a reduced, or x itself.",
        hof::unreduced,
    )
    .example("(unreduced (reduced 1)) ;=> 1"),
    Builtin::new(
        "ensure-reduced",
        Arity::exact(1),
        "x if already reduced, else (reduced x).",
        hof::ensure_reduced,
    )
    .example("(reduced? (ensure-reduced 1)) ;=> true"),
    Builtin::new(
        "transduce",
        Arity::range(3, 4),
        "Reduces coll with (xform f), from init or (f), then completes with (f acc).",
        xf::transduce,
    )
    .example("(transduce (map inc) + [1 2 3]) ;=> 9"),
    Builtin::new(
        "completing",
        Arity::range(1, 2),
        "Adds a completion arity to a reducing function (identity, or cf).",
        xf::completing,
    )
    .example("(transduce (filter odd?) (completing +) 0 [1 2 3]) ;=> 4"),
    Builtin::new(
        "some",
        Arity::exact(2),
        "The first truthy (pred item), or nil.",
        hof::some,
    )
    .example("(some #{:b} [:a :b]) ;=> :b"),
    Builtin::new(
        "every?",
        Arity::exact(2),
        "True if pred is truthy for every item (true for none).",
        hof::every,
    )
    .example("(every? even? [2 4]) ;=> true"),
    Builtin::new(
        "not-any?",
        Arity::exact(2),
        "True if pred is falsy for every item.",
        hof::not_any,
    )
    .example("(not-any? nil? [1 2]) ;=> true"),
    Builtin::new(
        "not-every?",
        Arity::exact(2),
        "True if pred is falsy for some item.",
        hof::not_every,
    )
    .example("(not-every? even? [2 3]) ;=> true"),
    Builtin::new(
        "pmap",
        Arity::at_least(2),
        "Like map (runs in order; prints and tool calls are kept in order).",
        hof::pmap,
    )
    .example("(pmap inc [1 2]) ;=> [2 3]"),
    Builtin::new(
        "pcalls",
        Arity::at_least(0),
        "Calls each no-argument function, returning their results in order.",
        hof::pcalls,
    )
    .example("(pcalls #(+ 1 1) #(* 2 3)) ;=> [2 6]"),
    // --- grouping, ordering ---------------------------------------------
    Builtin::new(
        "partition",
        Arity::range(2, 4),
        "Chunks of n items (every step items; pad the last), dropping an incomplete last chunk.",
        group::partition,
    )
    .example("(partition 2 [1 2 3 4 5]) ;=> [[1 2] [3 4]]"),
    Builtin::new(
        "partition-all",
        Arity::range(1, 3),
        "Chunks of n items (every step items), keeping a shorter last chunk.",
        group::partition_all,
    )
    .example("(partition-all 2 [1 2 3]) ;=> [[1 2] [3]]"),
    Builtin::new(
        "partition-by",
        Arity::range(1, 2),
        "Splits coll each time (f item) changes.",
        group::partition_by,
    )
    .example("(partition-by odd? [1 3 2 4 5]) ;=> [[1 3] [2 4] [5]]"),
    Builtin::new(
        "sort",
        Arity::range(1, 2),
        "Sorts items (stable) by compare, a comparator fn, or :asc/:desc; nil first.",
        group::sort,
    )
    .example("(sort [3 1 2]) ;=> [1 2 3]"),
    Builtin::new(
        "sort-by",
        Arity::range(2, 3),
        "Sorts items (stable) by (keyfn item), optionally with a comparator or :asc/:desc.",
        group::sort_by,
    )
    .example("(sort-by :price > [{:price 1} {:price 5}]) ;=> [{:price 5} {:price 1}]"),
    Builtin::new(
        "distinct",
        Arity::range(0, 1),
        "The items without repeats, first occurrence kept.",
        group::distinct,
    )
    .example("(distinct [1 2 1 3]) ;=> [1 2 3]"),
    Builtin::new(
        "dedupe",
        Arity::range(0, 1),
        "The items without consecutive repeats.",
        group::dedupe,
    )
    .example("(dedupe [1 1 2 1]) ;=> [1 2 1]"),
    Builtin::new(
        "flatten",
        Arity::exact(1),
        "The non-sequential items of nested vectors, in order.",
        group::flatten,
    )
    .example("(flatten [1 [2 [3]]]) ;=> [1 2 3]"),
    Builtin::new(
        "frequencies",
        Arity::exact(1),
        "A map from each distinct item to its number of occurrences.",
        group::frequencies,
    )
    .example("(frequencies [:a :b :a]) ;=> {:a 2 :b 1}"),
    Builtin::new(
        "group-by",
        Arity::exact(2),
        "A map from (f item) to the vector of items with that key, in order.",
        group::group_by,
    )
    .example("(group-by :type [{:type :a} {:type :b}]) ;=> {:a [{:type :a}] :b [{:type :b}]}"),
    Builtin::new(
        "replace",
        Arity::range(1, 3),
        "Replaces items found as keys in smap; with a string first it is clojure.string/replace.",
        group::replace,
    )
    .example("(replace {:a 1} [:a :b]) ;=> [1 :b]"),
    Builtin::new(
        "tree-seq",
        Arity::exact(3),
        "The nodes of a tree, depth first: root, then (children node) of each branch? node.",
        group::tree_seq,
    )
    .example("(tree-seq vector? seq [1 [2]]) ;=> [[1 [2]] 1 [2] 2]"),
    // --- generators ----------------------------------------------------------
    Builtin::new(
        "range",
        Arity::range(0, 3),
        "Numbers from start (0) below end by step (1); (range) is infinite.",
        gen::range,
    )
    .example("(range 0 10 3) ;=> [0 3 6 9]"),
    Builtin::new(
        "iterate",
        Arity::exact(2),
        "The infinite sequence x, (f x), (f (f x)) …",
        gen::iterate,
    )
    .example("(take 3 (iterate #(* 2 %) 1)) ;=> [1 2 4]"),
    Builtin::new(
        "repeat",
        Arity::range(1, 2),
        "x repeated n times, or infinitely.",
        gen::repeat,
    )
    .example("(repeat 3 :x) ;=> [:x :x :x]"),
    Builtin::new(
        "cycle",
        Arity::exact(1),
        "The items of coll repeated infinitely.",
        gen::cycle,
    )
    .example("(take 5 (cycle [1 2])) ;=> [1 2 1 2 1]"),
];
