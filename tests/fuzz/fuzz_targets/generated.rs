//! The oracle over generated programs (issue 58): the fuzzer's bytes are
//! the generator's choices (`tests/common/gen.rs`), so it mutates a
//! program's shape; the program runs optimised and as the reference, which
//! must agree (rule ORACLE-1), and, being well typed, ends in a value.
//!
//! `cargo +nightly fuzz run generated` from `tests/fuzz` (cargo-fuzz); the
//! same check without cargo-fuzz: `PTC_GEN_SECONDS=600 cargo test --test
//! generated -- --ignored long_run`.
#![no_main]

#[path = "../../common/gen.rs"]
mod gen;

use libfuzzer_sys::fuzz_target;
use ptc_lisp::oracle::{run_pair, Observed, Verdict};
use ptc_lisp::{Interp, Limits, StaticHost};

fuzz_target!(|data: &[u8]| {
    let src = gen::Gen::from_bytes(data).program();
    let (verdict, optimised, _) = run_pair(&Limits::default(), |limits| {
        let mut interp = Interp::new(Box::new(StaticHost::default()), limits);
        let outcome = interp.run_program(&src);
        Observed::of(&interp, &outcome)
    });
    if let Verdict::Differ(why) = verdict {
        panic!("optimised and reference runs disagree: {why}\n{src}");
    }
    if !matches!(verdict, Verdict::Inconclusive(_)) {
        assert!(optimised.result.is_ok(), "a generated program failed: {:?}\n{src}", optimised.message);
    }
});
