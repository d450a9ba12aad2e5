//! `ptc completions bash|zsh|fish|elvish|powershell`: the shell's completion
//! script on stdout, written by `clap_complete` from the command definition
//! itself, so every subcommand and flag is in it.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

#[derive(Args)]
#[command(after_help = "Install, e.g.:\n  \
    ptc completions bash > ~/.local/share/bash-completion/completions/ptc\n  \
    ptc completions zsh > ~/.zfunc/_ptc      # with fpath+=(~/.zfunc) before compinit\n  \
    ptc completions fish > ~/.config/fish/completions/ptc.fish")]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    shell: Shell,
}

pub fn completions(args: CompletionsArgs) -> i32 {
    let mut command = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "ptc", &mut out);
    out!("{}", String::from_utf8_lossy(&out));
    0
}
