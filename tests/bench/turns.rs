//! criterion: monty's reference agent run — ten REPL feeds (orders data, a
//! function, a comprehension, a sum, a max-by, JSON, a discount, rounding,
//! a formatted report, a print) — as ten PTC-Lisp turns on one `Session`,
//! the session built inside the timed run (as an agent builds one per
//! task). `tests/bench/turns.py` times the same run from Python against
//! monty's in-process REPL and CPython's `exec`.
//!
//! After the timings: the memory of 10,000 live sessions that each ran it
//! (the resident set's growth over 10,000, in bytes per session).
//!
//!     cargo bench --bench turns
//!     PTC_TURNS_RUNS=100 valgrind --tool=callgrind target/release/deps/turns-*   # instructions
//!
//! With `PTC_TURNS_RUNS=N` it only runs the ten feeds N times (for
//! callgrind: instruction counts do not depend on the machine's load);
//! with `PTC_TURNS_MEMORY=1` it only measures memory.
//!
//! It runs on mimalloc ([`ptc_lisp::alloc::Mimalloc`]), as the Python
//! wheel and the `ptc` binary do; `--no-default-features` runs it on the
//! system allocator instead (glibc's malloc, 2026-11-29, one 2-core
//! machine: 21.6 µs a run, 61.2 with prompts, 15,301 bytes a session;
//! mimalloc: 18.6, 44.4 and 14,443).

use criterion::{criterion_group, BatchSize, Criterion};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: ptc_lisp::alloc::Mimalloc = ptc_lisp::alloc::Mimalloc;
use ptc_lisp::session::Session;

/// The ten feeds, in the order of monty's run.
pub const FEEDS: [&str; 10] = [
    r#"(def orders [{:id 1 :customer "ada" :price 12.5 :qty 2}
             {:id 2 :customer "bob" :price 99.0 :qty 1}
             {:id 3 :customer "cy" :price 4.25 :qty 10}
             {:id 4 :customer "dee" :price 30.0 :qty 3}
             {:id 5 :customer "eve" :price 7.75 :qty 4}])"#,
    "(defn line-total [o] (* (:price o) (:qty o)))",
    "(def totals (vec (for [o orders] (line-total o))))",
    "(def grand (reduce + totals))",
    "(def biggest (apply max-key line-total orders))",
    "(def payload (json/write-str {:grand grand :biggest (:customer biggest)}))",
    "(def discounted (* grand 0.9))",
    "(def rounded (/ (Math/round (* discounted 100.0)) 100.0))",
    r#"(def report (format "%d orders, total %.2f, after discount %.2f, biggest %s" (count orders) grand rounded (:customer biggest)))"#,
    "(println report)",
];

fn session() -> Session {
    Session::builder("Summarise the orders")
        .max_turns(FEEDS.len())
        .build()
        .expect("a valid session")
}

/// One agent run: a new session and its ten turns.
fn run() -> Session {
    let mut s = session();
    for feed in FEEDS {
        let _ = s.run_turn(feed);
    }
    s
}

fn check() {
    let s = run();
    for t in s.turns() {
        assert!(t.success, "turn {}: {:?}", t.number, t.error());
    }
    let last = &s.turns()[FEEDS.len() - 1].prints;
    assert_eq!(
        last,
        &["5 orders, total 287.50, after discount 258.75, biggest bob"]
    );
}

fn turns(c: &mut Criterion) {
    check();
    let mut g = c.benchmark_group("ten-feed agent run");
    g.bench_function("Session::run_turn x10 (session built)", |b| {
        b.iter_batched(|| (), |()| run(), BatchSize::SmallInput)
    });
    g.bench_function("x10, next_prompt read after each (agent loop)", |b| {
        b.iter_batched(
            session,
            |mut s| {
                let mut n = s.next_prompt().len();
                for feed in FEEDS {
                    let _ = s.run_turn(feed);
                    n += s.next_prompt().len();
                }
                (s, n)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Resident set size in bytes (Linux).
fn rss() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn memory() {
    const SESSIONS: usize = 10_000;
    let _warm = run();
    let before = rss();
    let live: Vec<Session> = (0..SESSIONS).map(|_| run()).collect();
    let after = rss();
    println!(
        "memory: {SESSIONS} live sessions after the ten-feed run: {} bytes each (RSS {} -> {} MB)",
        (after.saturating_sub(before)) / SESSIONS,
        before >> 20,
        after >> 20
    );
    drop(live);
}

criterion_group!(benches, turns);

fn main() {
    if let Some(n) = std::env::var("PTC_TURNS_RUNS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        check();
        for _ in 0..n {
            drop(std::hint::black_box(run()));
        }
        return;
    }
    memory();
    if std::env::var_os("PTC_TURNS_MEMORY").is_some() {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
