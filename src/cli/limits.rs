//! The LIMITS flags shared by every command that runs code.

use clap::Args;

use crate::eval::Limits;

/// The `--timeout-ms`, `--max-steps` … flags, one per field of [`Limits`].
#[derive(Args, Debug, Default)]
pub struct LimitArgs {
    /// Wall-clock limit per turn, in milliseconds [default: 1000, or the
    /// session file's].
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Evaluation steps per turn [default: 10000000, or the session
    /// file's].
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Nested call depth [default: 1000, or the session file's].
    #[arg(long)]
    pub max_depth: Option<usize>,
    /// Approximate bytes of values built per turn [default: 10485760, or
    /// the session file's].
    #[arg(long)]
    pub max_heap_bytes: Option<u64>,
    /// Bytes printed per turn [default: 65536, or the session file's].
    #[arg(long)]
    pub max_print_bytes: Option<usize>,
    /// Tool calls per turn [default: no limit, or the session file's].
    #[arg(long)]
    pub max_tool_calls: Option<usize>,
    /// Bytes of program source [default: 1048576, or the session file's].
    #[arg(long)]
    pub max_source_bytes: Option<usize>,
    /// Tool calls of one pmap/pcalls running at once; 1 runs them one
    /// after the other [default: 8, or the session file's].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_parallel_tool_calls: Option<u64>,
    /// Turn every limit off except call depth (trusted code, benchmarks).
    #[arg(long)]
    pub no_limits: bool,
}

impl LimitArgs {
    /// `base` with the flags given applied on top.
    pub fn apply(&self, base: Limits) -> Limits {
        let mut l = if self.no_limits { Limits::none() } else { base };
        if self.timeout_ms.is_some() {
            l.timeout_ms = self.timeout_ms;
        }
        if self.max_steps.is_some() {
            l.max_steps = self.max_steps;
        }
        if self.max_depth.is_some() {
            l.max_depth = self.max_depth;
        }
        if self.max_heap_bytes.is_some() {
            l.max_heap_bytes = self.max_heap_bytes;
        }
        if self.max_print_bytes.is_some() {
            l.max_print_bytes = self.max_print_bytes;
        }
        if self.max_tool_calls.is_some() {
            l.max_tool_calls = self.max_tool_calls;
        }
        if self.max_source_bytes.is_some() {
            l.max_source_bytes = self.max_source_bytes;
        }
        if let Some(n) = self.max_parallel_tool_calls {
            l.max_parallel_tool_calls = usize::try_from(n).unwrap_or(usize::MAX);
        }
        l
    }
}

/// Parses a turn count flag (`--max-turns`): a whole number of at least 1,
/// so `--max-turns 0` is the flag's own error, not the session file's.
pub(crate) fn turns_at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (a session needs a turn to run)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a whole number of turns, got {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        limits: super::LimitArgs,
    }

    /// `--help` shows each limit's default, and the default it shows is
    /// the one in force (`Limits::default()`).
    #[test]
    fn help_shows_the_defaults_in_force() {
        let d = crate::eval::Limits::default();
        let shown = |v: Option<u64>| match v {
            Some(n) => format!("[default: {n},"),
            None => "[default: no limit,".to_string(),
        };
        let want = [
            ("timeout-ms", shown(d.timeout_ms)),
            ("max-steps", shown(d.max_steps)),
            ("max-depth", shown(d.max_depth.map(|n| n as u64))),
            ("max-heap-bytes", shown(d.max_heap_bytes)),
            (
                "max-print-bytes",
                shown(d.max_print_bytes.map(|n| n as u64)),
            ),
            ("max-tool-calls", shown(d.max_tool_calls.map(|n| n as u64))),
            (
                "max-source-bytes",
                shown(d.max_source_bytes.map(|n| n as u64)),
            ),
            (
                "max-parallel-tool-calls",
                shown(Some(d.max_parallel_tool_calls as u64)),
            ),
        ];
        let cmd = Cli::command();
        for (flag, default) in want {
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_long() == Some(flag))
                .unwrap_or_else(|| panic!("--{flag}"));
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(
                help.contains(&default),
                "--{flag}: {help:?} should say {default}"
            );
        }
    }
}
