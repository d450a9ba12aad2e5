//! `ptc check FILE.jsonl…`: one line per failing case, then
//! `N passed, N failed`; exit 1 on any failure.

use std::path::PathBuf;

use clap::Args;

use super::input_error;
use crate::check::run_file;

#[derive(Args)]
pub struct CheckArgs {
    /// Conformance case files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print only the closing line.
    #[arg(long, short)]
    quiet: bool,
    /// Run the cases as the reference: every optimisation off (no compiled
    /// code, no moves, no in-place writes), the oracle the optimised
    /// evaluator is checked against.
    #[arg(long, conflicts_with = "oracle")]
    reference: bool,
    /// Run every case optimised and as the reference and report the cases
    /// whose runs disagree (whatever the cases expect).
    #[arg(long)]
    oracle: bool,
}

pub fn check(args: CheckArgs) -> i32 {
    if args.oracle {
        return oracle(&args);
    }
    crate::eval::reference::set_on_this_thread(args.reference);
    let (mut passed, mut failed) = (0, 0);
    for path in &args.files {
        let report = match read_and(path, run_file) {
            Ok(r) => r,
            Err(code) => return code,
        };
        passed += report.passed;
        failed += report.failures.len();
        if !args.quiet {
            for (id, why) in &report.failures {
                outln!("FAIL {} {id}: {why}", path.display());
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    i32::from(failed > 0)
}

/// `ptc check --oracle`: one line per case whose two runs disagree, then
/// `N passed, N failed` (inconclusive pairs counted as passed and named
/// on the closing line).
fn oracle(args: &CheckArgs) -> i32 {
    let (mut same, mut inconclusive, mut differ) = (0, 0, 0);
    for path in &args.files {
        let report = match read_and(path, crate::check::oracle_file) {
            Ok(r) => r,
            Err(code) => return code,
        };
        same += report.same;
        inconclusive += report.inconclusive;
        differ += report.differ.len();
        if !args.quiet {
            for (id, why) in &report.differ {
                outln!("DIFFER {} {id}: {why}", path.display());
            }
        }
    }
    outln!("oracle: {same} agree, {inconclusive} inconclusive (out of heap), {differ} disagree");
    outln!("{} passed, {differ} failed", same + inconclusive);
    i32::from(differ > 0)
}

/// Reads the case file at `path` and runs `run` on its text; a file that
/// cannot be read or parsed is an input error (its exit code), naming it.
fn read_and<R>(
    path: &std::path::Path,
    run: impl FnOnce(&str) -> Result<R, String>,
) -> Result<R, i32> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(format!("cannot read {}: {e}", path.display())))?;
    run(&text).map_err(|e| input_error(format!("{}: {e}", path.display())))
}
