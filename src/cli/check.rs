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
    #[arg(long)]
    reference: bool,
}

pub fn check(args: CheckArgs) -> i32 {
    crate::eval::reference::set_on_this_thread(args.reference);
    let (mut passed, mut failed) = (0, 0);
    for path in &args.files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return input_error(format!("cannot read {}: {e}", path.display())),
        };
        let report = match run_file(&text) {
            Ok(r) => r,
            Err(e) => return input_error(format!("{}: {e}", path.display())),
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
