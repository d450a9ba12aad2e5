//! The reference run: a program evaluated with every optimisation off —
//! plain persistent semantics, the oracle every fast path is checked
//! against (`tests/oracle.rs`, `tests/generated.rs`, `ptc run --reference`,
//! `ptc check --reference`).
//!
//! In a reference run:
//! - the analysis marks no last-use moves (`analyze/moves.rs`, MOVE-1):
//!   every read of a local copies it;
//! - function bodies and loops are walked (`walk.rs`), never compiled
//!   (`compile/`): no slot read in place, no lent constant, no `(assoc m k
//!   v)` put in place, no function built once per site;
//! - builtins are called through their plain entry, which reads its
//!   arguments, never through the entry that may take them and write
//!   them in place (`Builtin::owned`); functions a builtin calls get copies
//!   of their arguments (`Interp::call_mut` is `Interp::call`), so a native
//!   closure that may take its arguments (`NativeCode::Takes`) is given
//!   copies;
//! - a function a builtin calls many times (`repeat.rs`) is called afresh
//!   each time: no shared frame, nothing done in place, no integer fold,
//!   no lent item.
//!
//! Not an optimisation, so done in both runs: `(count (keys m))` and its
//! kin call a `keys`/`vals` that hands the map on, charged one step (rule
//! COST-ENTRIES-1, `builtins/coll/entry_count.rs`).
//!
//! A value that the program can read is then held by at least two handles
//! whenever a builtin could write it (the slot and the copy passed), so
//! no collection the program can still read is written in place. The only
//! writes in place left are of values a builtin builds itself before
//! returning them.
//!
//! Steps are charged as in an optimised run (EVAL-STEPS-1), so a program
//! stops at the same step either way; heap charges differ (the reference
//! run pays for every copy the optimisations avoid), so a comparison gives
//! the reference run room for them (the oracle test's rule ORACLE-1).

use std::cell::Cell;

thread_local! {
    /// Whether interpreters made on this thread run as the reference.
    static ON: Cell<bool> = const { Cell::new(false) };
}

/// Whether an interpreter made now on this thread runs as the reference
/// ([`Interp::new`](super::Interp::new) reads it).
pub fn on_this_thread() -> bool {
    ON.with(Cell::get)
}

/// Runs `f` with every interpreter it makes on this thread (sessions,
/// `ptc check`'s cases, the REPL's) running as the reference, or not;
/// the setting is restored after, also when `f` panics.
pub fn scope<R>(reference: bool, f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ON.with(|on| on.set(self.0));
        }
    }
    let _restore = Restore(ON.with(|on| on.replace(reference)));
    f()
}

/// Makes every interpreter made on this thread from now on run as the
/// reference (`ptc run --reference`, for the rest of the process).
pub fn set_on_this_thread(reference: bool) {
    ON.with(|on| on.set(reference));
}

impl super::Interp {
    /// Runs this interpreter's later programs as the reference (or not).
    pub fn set_reference(&mut self, reference: bool) {
        self.reference = reference;
    }

    /// Whether this interpreter runs as the reference.
    pub fn is_reference(&self) -> bool {
        self.reference
    }
}
