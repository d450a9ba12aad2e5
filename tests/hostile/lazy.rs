//! Issue 23, C1: chains of lazy links. Each `map`/`filter`/… over a lazy
//! sequence is a link over it; realising an item walks the chain. Links are
//! charged to the heap, and realising a chain counts as call nesting, so a
//! long chain ends in `memory-exceeded` or `limit-exceeded`, never in a
//! native stack overflow (which kills the process).
//!
//! These interpreters hold no user/keep (the shared helpers define one,
//! which would shadow `keep`).

use super::*;

/// The links the audit built chains of, as the function `iterate` applies.
const LINKS: [&str; 7] = [
    "#(map inc %)",
    "#(filter odd? %)",
    "#(remove even? %)",
    "#(keep identity %)",
    "#(take-nth 1 %)",
    "#(mapcat vector %)",
    "#(map + % %)",
];

fn bare(limits: Limits) -> Interp {
    Interp::new(Box::new(StaticHost::default()), limits)
}

/// Runs `src` and expects an error of one of `kinds`; the interpreter
/// works afterwards and the failed turn defined nothing.
fn fails_with(mut i: Interp, kinds: &[ErrorKind], src: &str) -> ptc_lisp::Error {
    let e = match i.run_program(src).result {
        Err(e) => e,
        Ok(v) => panic!("{src}: expected {kinds:?}, got {v}"),
    };
    assert!(
        kinds.contains(&e.kind()),
        "{src}: {}: {}",
        e.kind(),
        e.message()
    );
    assert_eq!(
        i.globals.iter().count(),
        0,
        "{src}: a failed turn defined something"
    );
    assert_eq!(i.run_program("(+ 1 2)").result.unwrap(), Value::Int(3));
    e
}

const ANY_LIMIT: [ErrorKind; 3] = [
    ErrorKind::MemoryExceeded,
    ErrorKind::LimitExceeded,
    ErrorKind::Timeout,
];

/// Default limits but a long timeout, so that a slow (debug, loaded)
/// build reaches the chain's length rather than the clock.
fn patient() -> Interp {
    bare(Limits {
        timeout_ms: Some(60_000),
        ..Limits::default()
    })
}

#[test]
fn long_lazy_chains_end_in_a_limit_not_a_crash() {
    let bounded = [ErrorKind::MemoryExceeded, ErrorKind::LimitExceeded];
    for link in LINKS {
        let src = format!("(first (nth (iterate {link} (range)) 2000000))");
        fails_with(patient(), &bounded, &src);
    }
    fails_with(
        patient(),
        &bounded,
        "(first (drop 1 (nth (iterate #(map inc %) (range)) 2000000)))",
    );
    // Under the default one-second timeout, whichever limit comes first.
    fails_with(
        bare(Limits::default()),
        &ANY_LIMIT,
        "(first (nth (iterate #(map inc %) (range)) 2000000))",
    );
}

/// Lazy wrappers used to be free: three million nested `repeat`s took
/// 375 MB under a 10 MB heap.
#[test]
fn lazy_links_are_charged_to_the_heap() {
    for src in [
        "(count (take 5 (nth (iterate repeat 1) 3000000)))",
        "(count (take 5 (nth (iterate #(map inc %) (range)) 3000000)))",
    ] {
        fails_with(patient(), &[ErrorKind::MemoryExceeded], src);
    }
}

/// Without a heap limit, the chain is bounded by `max_depth`: realising
/// it is one nested call per link, counted, so the same program stops at
/// the same place on any machine.
#[test]
fn realising_a_chain_counts_as_call_nesting() {
    let no_heap = || {
        bare(Limits {
            max_heap_bytes: None,
            timeout_ms: Some(60_000),
            ..Limits::default()
        })
    };
    for link in LINKS {
        let src = format!("(first (nth (iterate {link} (range)) 5000))");
        let e = fails_with(no_heap(), &[ErrorKind::LimitExceeded], &src);
        assert!(e.message().contains("lazy sequence"), "{}", e.message());
        if !link.contains("% %") {
            assert!(
                e.hint().unwrap_or("").contains("max_depth"),
                "{:?}",
                e.hint()
            );
        }
    }
    // Short chains still work; calls made while realising one count too.
    let mut i = no_heap();
    let out = i.run_program("(first (nth (iterate #(map inc %) (range)) 900))");
    assert_eq!(out.result.unwrap(), Value::Int(900));
    fails_with(
        no_heap(),
        &[ErrorKind::LimitExceeded],
        "(defn f [n] (if (zero? n) (first (nth (iterate #(map inc %) (range)) 600)) (f (dec n)))) (f 600)",
    );
}

/// With every limit off but depth, a chain too deep to realise is refused
/// before the iterator over it is built (that build recursed too).
#[test]
fn chains_are_bounded_without_limits() {
    finishes(|| {
        fails_with(
            bare(Limits::none()),
            &[ErrorKind::LimitExceeded],
            "(first (nth (iterate #(map inc %) (range)) 1000000))",
        );
    });
}

/// A link over the same sequence twice (`(map + s s)`) doubled the work of
/// building an iterator at each level: 60 levels never returned.
#[test]
fn links_used_twice_do_not_explode() {
    finishes(|| {
        fails_with(
            bare(Limits::none()),
            &[ErrorKind::LimitExceeded],
            "(first (nth (iterate #(map + % %) (range)) 60))",
        );
    });
}

/// `mapcat` over an infinite sequence takes an infinite chunk item by item
/// (it used to realise each chunk, refusing `(range)`).
#[test]
fn mapcat_takes_infinite_chunks_item_by_item() {
    let mut i = bare(Limits::default());
    let out = i.run_program("(take 3 (mapcat (fn [x] (range)) (range)))");
    assert_eq!(
        ptc_lisp::to_clojure(&out.result.unwrap(), None, None).0,
        "[0 1 2]"
    );
}

/// Issue 27: an endless `lazy-seq` recursion realised whole (`count`,
/// the turn's result) ends in a limit, never a hang or a crash, with the
/// default limits and with none (then at `MAX_REALISED` items).
#[test]
fn endless_lazy_seq_realised_whole_ends_in_a_limit() {
    const FIB: &str = "(defn fib [a b] (lazy-seq (cons a (fib b (+ a b)))))";
    const ONES: &str = "(defn ones [] (lazy-seq (cons 1 (ones))))";
    for src in [
        format!("{FIB} (count (fib 0.0 1.0))"),
        format!("{ONES} (count (ones))"),
        format!("{ONES} (ones)"),
        format!("{ONES} (= (ones) (ones))"),
        "(defn f [] (lazy-seq (f))) (first (f))".to_string(),
        "(defn f [n] (lazy-seq (map inc (f n)))) (first (f 0))".to_string(),
    ] {
        fails_with(patient(), &ANY_LIMIT, &src);
    }
    // Integers overflow first, as in Clojure.
    fails_with(
        patient(),
        &[ErrorKind::Arithmetic],
        &format!("{FIB} (count (fib 0 1))"),
    );
    finishes(|| {
        fails_with(
            bare(Limits::none()),
            &[ErrorKind::LimitExceeded],
            &format!("{ONES} (count (ones))"),
        );
    });
}

/// Issue 27: walking 100,000 nested `lazy-seq`s nests no native frames:
/// with no limits the item is found; with the default ones the links'
/// heap charge ends it cleanly.
#[test]
fn deep_lazy_seq_is_walked_flat() {
    const NF: &str = "(defn nf [n] (lazy-seq (cons n (nf (inc n))))) (nth (nf 0) 100000)";
    finishes(|| {
        let mut i = bare(Limits::none());
        assert_eq!(i.run_program(NF).result.unwrap(), Value::Int(100_000));
    });
    fails_with(patient(), &ANY_LIMIT, NF);
    let mut i = patient();
    let out = i.run_program("(defn nf [n] (lazy-seq (cons n (nf (inc n))))) (nth (nf 0) 10000)");
    assert_eq!(out.result.unwrap(), Value::Int(10_000));
}

/// Issue 27: a `lazy-seq`'s body runs at most once; every holder of the
/// sequence shares what it gave (Clojure caches it), so a tool call or a
/// print in a body happens once however often the sequence is realised.
#[test]
fn lazy_seq_body_runs_once() {
    let mut host = StaticHost::default();
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Int(7)));
    let mut i = Interp::new(Box::new(host), Limits::default());
    let out = i.run_program(
        "(def s (lazy-seq (do (println \"ran\") (tool/echo {:n 1}) (cons 1 (lazy-seq (println \"tail\") [2 3]))))) \
         [(first s) (first s) (count s) (vec s) (rest s) (nth s 2) (seq s) s]",
    );
    assert_eq!(
        ptc_lisp::to_clojure(&out.result.unwrap(), None, None).0,
        "[1 1 3 [1 2 3] [2 3] 3 [1 2 3] [1 2 3]]"
    );
    assert_eq!(i.tool_calls.len(), 1, "the body's tool call ran again");
    assert_eq!(
        i.prints.concat().matches("ran").count(),
        1,
        "{:?}",
        i.prints
    );
    assert_eq!(
        i.prints.concat().matches("tail").count(),
        1,
        "{:?}",
        i.prints
    );
    // The sequence kept in user/ is realised already: a later turn reads
    // the cached items without running the bodies again.
    i.prints.clear();
    let out = i.run_program("[(vec s) (reduce + s)]");
    assert_eq!(
        ptc_lisp::to_clojure(&out.result.unwrap(), None, None).0,
        "[[1 2 3] 6]"
    );
    assert!(
        i.tool_calls.is_empty(),
        "the body ran again in a later turn"
    );
    assert!(i.prints.is_empty(), "{:?}", i.prints);
}

/// A body that fails caches nothing: the next realisation runs it again
/// (as Clojure); a body that needs its own items is a limit error, not an
/// endless recursion.
#[test]
fn lazy_seq_failed_or_self_realising_body() {
    let mut host = StaticHost::default();
    host.tools
        .insert("echo".into(), CannedTool::Returns(Value::Nil));
    let mut i = Interp::new(Box::new(host), Limits::default());
    let out = i.run_program(
        "(def s (lazy-seq (tool/echo {}) (throw (ex-info \"no\" {})))) \
         [(try (first s) (catch Exception e :failed)) (try (count s) (catch Exception e :failed))]",
    );
    assert_eq!(
        ptc_lisp::to_clojure(&out.result.unwrap(), None, None).0,
        "[:failed :failed]"
    );
    assert_eq!(i.tool_calls.len(), 2, "a failed body was not run again");
    for src in [
        "(def s (lazy-seq (first s))) (vec s)",
        "(def s (lazy-seq (cons 1 (count s)))) (first s)",
    ] {
        let e = fails_with(patient(), &[ErrorKind::LimitExceeded], src);
        assert!(e.message().contains("its own"), "{}", e.message());
    }
}

/// The Fibonacci `lazy-seq` models write: `take` works, and walking it
/// 50,000 items deep ends in a typed error (integer overflow at item 93 as
/// in Clojure; with floats the heap the realised links take), never a
/// stack overflow; with no limits the walk is flat and finishes.
#[test]
fn fib_lazy_seq_within_limits() {
    const FIB: &str = "(defn fib [a b] (lazy-seq (cons a (fib b (+ a b)))))";
    let mut i = patient();
    let out = i.run_program(&format!("{FIB} (take 10 (fib 0 1))"));
    assert_eq!(
        ptc_lisp::to_clojure(&out.result.unwrap(), None, None).0,
        "[0 1 1 2 3 5 8 13 21 34]"
    );
    fails_with(
        patient(),
        &[ErrorKind::Arithmetic],
        &format!("{FIB} (nth (fib 0 1) 50000)"),
    );
    fails_with(
        patient(),
        &ANY_LIMIT,
        &format!("{FIB} (nth (fib 0.0 1.0) 50000)"),
    );
    finishes(|| {
        let mut i = bare(Limits::none());
        let out = i.run_program(&format!("{FIB} (nth (fib 0.0 1.0) 50000)"));
        assert!(matches!(out.result.unwrap(), Value::Float(_)));
    });
}

/// Issue 23 (low): the new lazy paths (`for` with a later infinite
/// binding, `sequence` with a transducer, `mapcat` of infinite pieces)
/// realised whole, or nested a hundred thousand links deep, end in a limit
/// error, never a hang or a native stack overflow.
#[test]
fn new_lazy_paths_are_bounded() {
    for src in [
        "(count (for [x (range) y (range)] 1))",
        "(count (for [x [1 2] y (range)] 1))",
        "(vec (sequence (map inc) (range)))",
        "(sequence (map inc) (range))",
        "(count (mapcat (fn [x] (range)) [1 2]))",
        "(first (nth (iterate #(sequence (map inc) %) (range)) 100000))",
        "(first (nth (iterate (fn [s] (for [x s] x)) (range)) 100000))",
        "(first (nth (iterate (fn [s] (for [y [1] x s] x)) (range)) 100000))",
        "(first (nth (iterate #(mapcat vector %) (range)) 100000))",
        "(defn f [s] (lazy-seq (for [x (f s)] x))) (first (f 1))",
        "(defn f [] (lazy-seq (sequence (map inc) (f)))) (first (f))",
    ] {
        fails_with(patient(), &ANY_LIMIT, src);
        finishes(move || {
            let mut i = bare(Limits {
                max_heap_bytes: None,
                timeout_ms: Some(60_000),
                ..Limits::default()
            });
            let e = i.run_program(src).result.unwrap_err();
            assert!(ANY_LIMIT.contains(&e.kind()), "{src}: {}", e.message());
        });
    }
}

/// Issue 23 (low): `sorted-map-by`'s comparator is called for every
/// comparison, each a step: a slow or huge one ends in a limit.
#[test]
fn sorted_map_by_comparisons_are_charged() {
    fails_with(
        bare(Limits {
            max_steps: Some(10_000),
            ..Limits::default()
        }),
        &[ErrorKind::LimitExceeded],
        "(apply sorted-map-by (fn [a b] (< a b)) (range 20000))",
    );
    fails_with(
        patient(),
        &ANY_LIMIT,
        "(apply sorted-map-by (fn [a b] (loop [i 0] (if (< i 100000) (recur (inc i)) (< a b)))) (range 2000))",
    );
}
