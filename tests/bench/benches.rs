//! criterion benchmarks: a trivial turn (fresh interpreter, reused
//! interpreter, session turn), reading, evaluating (call-heavy and
//! allocation-heavy), printing a large value, rendering a 100-turn session,
//! and snapshotting a 10k-definition memory.
//!
//! `cargo bench --bench ptc` (add `-- NAME` to run one). Timings are never
//! asserted in tests; these are the numbers to compare across changes.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ptc_lisp::render::{to_messages, MemoryView, RenderInput, RenderOptions, Strategy, TurnRecord};
use ptc_lisp::session::Session;
use ptc_lisp::to_clojure;
use ptc_lisp::{CannedTool, StaticHost};
use ptc_lisp::{Interp, Limits, Value};

fn unlimited() -> Interp {
    Interp::new(Box::new(StaticHost::default()), Limits::none())
}

/// About 100 KB of typical LLM-written source.
fn source() -> String {
    let block = r#"
(defn summarize [orders]
  (->> orders
       (filter #(= (:status %) "paid"))
       (group-by :customer)
       (map (fn [[c os]] {:customer c :total (reduce + (map :amount os)) :n (count os)}))
       (sort-by :total >)
       (take 5)))
(def report {:top (summarize data/orders) :note "weekly" :tags #{:a :b} :ratio 0.75})
"#;
    block.repeat(300)
}

/// The fixed cost of one turn: `(+ 1 2)` with default limits, on a fresh
/// interpreter (what `ptc_lisp.run` does), on a reused one (a session's
/// second and later turns), and as a whole session turn (program
/// extraction, the turn record, the next prompt rendered).
fn trivial_turn(c: &mut Criterion) {
    let three = Value::Int(3);
    c.bench_function("trivial turn, fresh Interp", |b| {
        b.iter(|| {
            let mut interp = Interp::new(Box::new(StaticHost::default()), Limits::default());
            let out = interp.run_program("(+ 1 2)");
            assert_eq!(out.result.as_ref().ok(), Some(&three));
        })
    });
    let mut interp = Interp::new(Box::new(StaticHost::default()), Limits::default());
    assert!(interp.run_program("(+ 1 2)").is_ok());
    c.bench_function("trivial turn, reused Interp", |b| {
        b.iter(|| {
            let out = interp.run_program("(+ 1 2)");
            assert_eq!(out.result.as_ref().ok(), Some(&three));
        })
    });
    c.bench_function("trivial turn, Session::run_turn", |b| {
        b.iter_batched(
            || {
                Session::builder("Add one and two")
                    .build()
                    .expect("a session")
            },
            |mut session| {
                let turn = session
                    .run_turn("```clojure\n(+ 1 2)\n```")
                    .expect("a running session");
                assert_eq!(turn.result.as_ref().ok(), Some(&three));
                session
            },
            BatchSize::SmallInput,
        )
    });
}

fn reading(c: &mut Criterion) {
    // The whole source as one vector literal: read, then converted to data.
    let src = format!("[{}]", source());
    c.bench_function("read 100KB", |b| {
        b.iter(|| ptc_lisp::read_value(&src).is_ok())
    });
}

fn evaluating(c: &mut Criterion) {
    let mut interp = unlimited();
    assert!(interp
        .run_program("(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))")
        .is_ok());
    c.bench_function("eval call-heavy (fib 20)", |b| {
        b.iter(|| interp.run_program("(fib 20)").result.map(|v| v.to_string()))
    });
    let alloc = "(->> (range 10000) (map (fn [i] {:id i :price (mod i 97) :tag (if (even? i) :a :b)})) \
                 (filter #(> (:price %) 50)) (group-by :tag) (map (fn [[k v]] [k (reduce + (map :price v))])) (into {}))";
    c.bench_function("eval allocation-heavy (10k records)", |b| {
        b.iter(|| interp.run_program(alloc).result.map(|v| v.to_string()))
    });
}

fn printing(c: &mut Criterion) {
    let mut interp = unlimited();
    let big = interp
        .run_program("(mapv (fn [i] {:id i :name (str \"item-\" i) :tags [:x :y] :score (* i 0.5)}) (range 10000))")
        .result
        .unwrap_or(Value::Nil);
    c.bench_function("to_clojure 10k records", |b| {
        b.iter(|| to_clojure(&big, None, None).0.len())
    });
    c.bench_function("to_clojure 10k records, limited", |b| {
        b.iter(|| to_clojure(&big, Some(3), Some(80)).0.len())
    });
}

/// A 100-turn session: each turn defines a value, calls a tool and prints.
fn hundred_turns() -> RenderInput {
    let mut host = StaticHost::default();
    host.data.insert(
        "orders".into(),
        Value::vector_from(
            (0..50).map(|i| Value::map_from([(Value::keyword("id"), Value::Int(i))])),
        ),
    );
    host.tools
        .insert("lookup".into(), CannedTool::Returns(Value::string("ok")));
    let mut interp = Interp::new(Box::new(host), Limits::default());
    let mut turns = Vec::new();
    for n in 1..=100 {
        let program = if n % 10 == 0 {
            "(undefined-thing)".to_string()
        } else {
            format!("(def v{n} (mapv :id (take {n} data/orders))) (defn f{n} [x] (+ x {n})) (f{n} 1) (tool/lookup {n}) (println \"turn\" {n})")
        };
        let out = interp.run_program(&program);
        turns.push(TurnRecord::after_run(
            n,
            format!("```clojure\n{program}\n```"),
            Some(program),
            &out.result,
            &interp,
        ));
    }
    RenderInput {
        mission: "Summarize the orders".into(),
        tools: Vec::new(),
        data: vec![(
            "orders".into(),
            interp.host.data("orders").unwrap_or(Value::Nil),
        )],
        max_turns: 200,
        turns,
        memory: MemoryView::from_interp(&interp),
        hidden: interp.hidden.clone(),
        protocol: Default::default(),
    }
}

fn rendering(c: &mut Criterion) {
    let input = hundred_turns();
    let options = RenderOptions::default();
    c.bench_function("render 100 turns, compressed", |b| {
        b.iter(|| {
            to_messages(&input, &options, Strategy::SingleUserCoalesced)
                .messages
                .len()
        })
    });
    c.bench_function("render 100 turns, uncompressed", |b| {
        b.iter(|| {
            to_messages(&input, &options, Strategy::Uncompressed)
                .messages
                .len()
        })
    });
}

fn snapshots(c: &mut Criterion) {
    let mut interp = unlimited();
    let program: String = (0..10_000)
        .map(|i| format!("(def v{i} [{i} \"x\"])\n"))
        .collect();
    assert!(interp.run_program(&program).is_ok());
    c.bench_function("memory snapshot, 10k definitions", |b| {
        b.iter(|| interp.globals.clone())
    });
    c.bench_function("turn on a 10k-definition memory", |b| {
        b.iter(|| interp.run_program("(def one-more 1)").is_ok())
    });
}

criterion_group!(
    benches,
    trivial_turn,
    reading,
    evaluating,
    printing,
    rendering,
    snapshots
);
criterion_main!(benches);
