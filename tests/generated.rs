//! Generated programs (`tests/common/gen.rs`) run optimised and as the
//! reference (every optimisation off), which must agree (rule ORACLE-1 in
//! `src/oracle.rs`). A bounded run of fixed seeds is part of `cargo test`;
//! the long run is `long_run` (ignored: `PTC_GEN_SECONDS=600 cargo test
//! --test generated -- --ignored long_run --nocapture`, or the fuzz target
//! `tests/fuzz/fuzz_targets/generated.rs`).

#[path = "common/gen.rs"]
mod gen;

use std::time::{Duration, Instant};

use ptc_lisp::oracle::{run_pair, Observed, Verdict};
use ptc_lisp::{Interp, Limits, StaticHost};

/// The limits generated programs run under: the defaults (the oracle
/// takes the clock away and keeps the steps).
fn limits() -> Limits {
    Limits::default()
}

/// Runs `src` optimised and as the reference: the verdict, and what the
/// optimised run did.
fn both_ways(src: &str) -> (Verdict, Observed) {
    let (verdict, optimised, _) = run_pair(&limits(), |limits| {
        let mut interp = Interp::new(Box::new(StaticHost::default()), limits);
        let outcome = interp.run_program(src);
        Observed::of(&interp, &outcome)
    });
    (verdict, optimised)
}

/// Runs the program of `seed` both ways; `Err` names the seed, the
/// program and what differs.
fn check(seed: u64) -> Result<Verdict, String> {
    let src = gen::program(seed);
    let (verdict, optimised) = both_ways(&src);
    match verdict {
        Verdict::Differ(why) => Err(format!("seed {seed}: {why}\n{src}\n")),
        v => {
            // A generated program is well typed: it ends in a value.
            if let Err(kind) = &optimised.result {
                return Err(format!(
                    "seed {seed}: the program failed ({kind}: {}), which the generator should not write\n{src}\n",
                    optimised.message.as_deref().unwrap_or("")
                ));
            }
            Ok(v)
        }
    }
}

/// Runs seeds from `first` until `more` says stop; returns how many ran
/// and the disagreements.
fn run_seeds(first: u64, mut more: impl FnMut(u64) -> bool) -> (u64, Vec<String>) {
    let mut problems = Vec::new();
    let mut n = 0;
    while more(n) {
        if let Err(e) = check(first + n) {
            problems.push(e);
            if problems.len() >= 5 {
                break;
            }
        }
        n += 1;
    }
    (n, problems)
}

#[test]
fn generated_programs_agree_with_the_reference() {
    let (n, problems) = run_seeds(0, |n| n < 1500);
    assert!(
        problems.is_empty(),
        "{} of {n}:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_generator_is_deterministic_and_varied() {
    assert_eq!(gen::program(7), gen::program(7));
    let distinct: std::collections::BTreeSet<String> = (0..50).map(gen::program).collect();
    assert_eq!(distinct.len(), 50);
    // The shapes the optimisations bite on appear.
    let all: String = (0..400).map(gen::program).collect();
    for shape in [
        "(loop [",
        "(recur ",
        "(reduce (fn [",
        "(fnil ",
        "(partial conj)",
        "(comp ",
        "(into [] (map inc)",
        "(letfn ",
        "(try ",
        "(let [[",
        "(mapv (fn [",
        "(count (keys ",
        "(empty? (keys ",
        "(apply str [acc x",
        "(recur (rest ",
        // Integers only (`gen_kernel.rs`): loops, self-recursive defns,
        // the code around them, near misses.
        "(rem ",
        "(quot ",
        "(- -1 (mod ",
        "(if (zero? ",
        "(even? ",
        "(str \"x\" ",
        "(or (loop [",
        "(println \"at\" ",
        "(int f",
        "(recur (dec n",
        "(if (zero? m",
        "(+ (* 3 ",
        "(defn f",
    ] {
        assert!(all.contains(shape), "no generated program has {shape}");
    }
}

/// The long run: as many seeds as fit in `PTC_GEN_SECONDS` (600 by
/// default), from `PTC_GEN_FIRST` (1,000,000 by default, past the fixed
/// seeds); prints the count.
#[test]
#[ignore]
fn long_run() {
    let secs: u64 = std::env::var("PTC_GEN_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let first: u64 = std::env::var("PTC_GEN_FIRST")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let end = Instant::now() + Duration::from_secs(secs);
    let (n, problems) = run_seeds(first, |_| Instant::now() < end);
    println!(
        "generated programs: {n} run from seed {first}, {} disagree",
        problems.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Writes generated programs as `.clj` files for the differential run
/// against Clojure (`tests/differential/run.sh --generated`):
/// `PTC_GEN_DIR` (required), `PTC_GEN_COUNT` programs (500) from seed
/// `PTC_GEN_FIRST` (0).
#[test]
#[ignore]
fn write_programs() {
    let dir = std::env::var("PTC_GEN_DIR").expect("PTC_GEN_DIR names the folder to write");
    let count: u64 = std::env::var("PTC_GEN_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let first: u64 = std::env::var("PTC_GEN_FIRST")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    std::fs::create_dir_all(&dir).expect("the folder can be made");
    for seed in first..first + count {
        let path = std::path::Path::new(&dir).join(format!("gen-{seed:07}.clj"));
        std::fs::write(&path, gen::program(seed) + "\n").expect("the program can be written");
    }
}

/// The fuzz target's way in: programs made from bytes are well typed too.
#[test]
fn programs_from_bytes_agree_with_the_reference() {
    for n in 0..200u32 {
        let bytes: Vec<u8> = (0..(n % 64)).map(|i| (i * 37 + n * 11) as u8).collect();
        let src = gen::Gen::from_bytes(&bytes).program();
        let (verdict, optimised) = both_ways(&src);
        assert!(!matches!(verdict, Verdict::Differ(_)), "{verdict:?}\n{src}");
        assert!(optimised.result.is_ok(), "{:?}\n{src}", optimised.message);
    }
}
