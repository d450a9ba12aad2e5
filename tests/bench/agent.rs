//! criterion: the agent runner's own cost per turn, the LLM excluded. A
//! 10-turn session driven by `agent::run` with a scripted model (which
//! answers at once and keeps nothing) against the same responses fed to
//! `Session::run_turn` directly; the difference per turn is what the
//! runner adds (the call through the `Llm` trait, the usage record, the
//! observer).
//!
//! `cargo bench --bench agent`.

use std::ops::ControlFlow;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ptc_lisp::agent::{self, ScriptedLlm};
use ptc_lisp::session::{Session, Turn};

const TURNS: usize = 10;

fn responses() -> Vec<String> {
    let mut r: Vec<String> = (1..TURNS)
        .map(|i| format!("```clojure\n(def x{i} (+ {i} (count data/nums)))\n```"))
        .collect();
    r.push("```clojure\n(return x1)\n```".into());
    r
}

fn session() -> Session {
    Session::builder("Count the numbers")
        .data_json("nums", &serde_json::json!([1, 2, 3, 4, 5]))
        .max_turns(TURNS)
        .build()
        .expect("a valid session")
}

fn runner(c: &mut Criterion) {
    let rs = responses();
    let mut g = c.benchmark_group("agent 10 turns");
    g.bench_function("Session::run_turn directly", |b| {
        b.iter_batched(
            session,
            |mut s| {
                for r in &rs {
                    let _ = s.run_turn(r);
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("agent::run with a scripted Llm", |b| {
        b.iter_batched(
            || (session(), ScriptedLlm::new(rs.clone()).forgetful()),
            |(mut s, mut llm)| {
                let mut turns = 0;
                let _ = agent::run(&mut s, &mut llm, &mut |_: &Session, _: &Turn| {
                    turns += 1;
                    ControlFlow::Continue(())
                });
                s
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
