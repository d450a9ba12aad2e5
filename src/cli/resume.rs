//! `ptc resume F [--approve ID|all]… [--deny ID|all]… [--reason TEXT]
//! [LIMITS]`: continues the paused turn of session file F, or the turn
//! under way when ptc stopped (`session/resume.rs`, rules ACT-2 and ACT-4),
//! prints its outcome as `ptc run` does and saves F. Exit codes: 0 a
//! value, 1 an error, 2 bad input (F has nothing to resume, an unknown
//! id), 4 paused again.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use super::run::{print_turn, saved};
use super::{input_error, LimitArgs};
use crate::session::{Decision, Journal};

#[derive(Args)]
pub struct ResumeArgs {
    /// The session file `ptc run --session S --out F` (or `ptc agent`)
    /// saved.
    file: PathBuf,
    /// Approve the pending call with this id (`all`: every one); it runs
    /// once.
    #[arg(long, value_name = "ID|all")]
    approve: Vec<String>,
    /// Deny the pending call with this id (`all`: every one); the program
    /// sees a tool-error carrying --reason.
    #[arg(long, value_name = "ID|all")]
    deny: Vec<String>,
    /// Why the calls were denied (what the program's error says).
    #[arg(long, value_name = "TEXT", default_value = "denied by the user")]
    reason: String,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn resume(args: ResumeArgs) -> i32 {
    let path = &args.file;
    let tools = crate::session::ReplayTools::Recorded;
    let (file, mut session) = match super::open_session(path, &args.limits, tools) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    if let Err(e) = file.run_turns(&mut session, tools) {
        return input_error(format!("{}: {e}", path.display()));
    }
    if !session.can_resume() {
        return input_error(format!(
            "{}: there is no paused or unfinished turn to resume (its last turn ended)",
            path.display()
        ));
    }
    let pending: Vec<String> = session.pending().iter().map(|c| c.id.clone()).collect();
    let mut decisions = BTreeMap::new();
    for (ids, decision) in [
        (&args.approve, Decision::Approve),
        (&args.deny, Decision::Deny(args.reason.clone())),
    ] {
        for id in ids {
            let chosen: Vec<String> = if id == "all" {
                pending.clone()
            } else if pending.contains(id) {
                vec![id.clone()]
            } else {
                return input_error(format!(
                    "{}: no pending call has id {id:?}; pending: {}",
                    path.display(),
                    if pending.is_empty() {
                        "none".to_string()
                    } else {
                        pending.join(", ")
                    }
                ));
            };
            for id in chosen {
                decisions.insert(id, decision.clone());
            }
        }
    }
    session.set_journal(Some(Journal::path_for(path)));
    // The decisions are durable before anything runs.
    if let Err(e) =
        crate::session::resume::save_file(&session.to_file_resuming(&decisions, path), path)
    {
        return input_error(e);
    }
    let code = match session.resume(decisions) {
        Ok(turn) => print_turn(turn),
        Err(e) => return input_error(format!("{}: {e}", path.display())),
    };
    saved(&session, path, code)
}
