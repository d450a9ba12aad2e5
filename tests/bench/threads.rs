//! Two threads against one: a 50k-record `group-by` run on one thread,
//! then on two at once (each its own interpreter and data, as two
//! sessions of one server would). Keywords shared by every record (`:cat`,
//! `:amount`, … interned from the source) must not make the threads
//! contend: two threads should do nearly twice the work of one.
//!
//! `cargo bench --bench threads` prints, for keyword and for string keys,
//! the time of one run alone, of two runs side by side, and the speedup
//! (2 × alone / side by side; 2.0 is perfect). Wall-clock numbers: run on
//! an otherwise idle machine with at least two cores. Never asserted.
//!
//! It runs on mimalloc ([`ptc_lisp::alloc::Mimalloc`]), as the `ptc`
//! binary does and as a server running sessions on several threads
//! should; `cargo bench --bench threads --no-default-features` runs it on
//! the system allocator instead (src/alloc.rs has both sets of figures).

use std::time::{Duration, Instant};

use ptc_lisp::{Interp, Limits, StaticHost};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: ptc_lisp::alloc::Mimalloc = ptc_lisp::alloc::Mimalloc;

fn program(keys: &str) -> String {
    let k = |name: &str| match keys {
        "keyword" => format!(":{name}"),
        _ => format!("\"{name}\""),
    };
    format!(
        r#"
(def rows
  (mapv (fn [i] {{{id} i {amount} (mod (* i 13) 1000)
                 {region} (nth ["north" "south" "east" "west"] (mod i 4))
                 {cat} (mod (* i 17) 50)}})
        (range 50000)))
(def by-cat (group-by (fn [r] (get r {cat})) rows))
(def sums (map (fn [[c items]] [c (reduce + 0 (map (fn [r] (get r {amount})) items))]) by-cat))
(def by-region (group-by (fn [r] (get r {region})) rows))
[(count by-cat) (reduce + 0 (map second sums)) (count by-region)]
"#,
        id = k("id"),
        amount = k("amount"),
        region = k("region"),
        cat = k("cat"),
    )
}

/// `runs` runs of `src` on this thread, each in a fresh interpreter.
fn work(src: &str, runs: usize) {
    for _ in 0..runs {
        let mut interp = Interp::new(Box::new(StaticHost::default()), Limits::none());
        let out = interp.run_program(src);
        assert!(out.result.is_ok(), "{:?}", out.result.err());
    }
}

fn timed(threads: usize, src: &str, runs: usize) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| work(src, runs));
        }
    });
    start.elapsed()
}

fn main() {
    let runs: usize = std::env::var("PTC_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    for keys in ["keyword", "string"] {
        let src = program(keys);
        work(&src, 1); // warm up: the interning table, the allocator
                       // Best of three of each, alternating, against a noisy machine.
        let mut one = Duration::MAX;
        let mut two = Duration::MAX;
        for _ in 0..3 {
            one = one.min(timed(1, &src, runs));
            two = two.min(timed(2, &src, runs));
        }
        let speedup = 2.0 * one.as_secs_f64() / two.as_secs_f64();
        println!(
            "group-by, {keys} keys, {runs} runs per thread: 1 thread {:.1} ms, 2 threads {:.1} ms, speedup {speedup:.2}x",
            one.as_secs_f64() * 1e3,
            two.as_secs_f64() * 1e3,
        );
    }
}
