//! `ptc prompt system`: prints the static SYSTEM prompt
//! ([`crate::render::system_prompt`]), the same for every session: it names
//! no tool or data (those are in the user message).

use clap::{Args, Subcommand};

use crate::render::system_prompt;

#[derive(Args)]
pub struct PromptArgs {
    #[command(subcommand)]
    which: Which,
}

#[derive(Subcommand)]
enum Which {
    /// The SYSTEM prompt every session sends (static: no tool or data names).
    System,
}

pub fn prompt(args: PromptArgs) -> i32 {
    match args.which {
        Which::System => {
            let p = system_prompt();
            out!("{p}");
            if !p.ends_with('\n') {
                outln!();
            }
        }
    }
    0
}
