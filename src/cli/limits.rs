//! The LIMITS flags shared by every command that runs code.

use clap::Args;

use crate::eval::Limits;

/// The `--timeout-ms`, `--max-steps` … flags, one per field of [`Limits`].
#[derive(Args, Debug, Default)]
pub struct LimitArgs {
    /// Wall-clock limit per turn, in milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Evaluation steps per turn.
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Nested call depth.
    #[arg(long)]
    pub max_depth: Option<usize>,
    /// Approximate bytes of values built per turn.
    #[arg(long)]
    pub max_heap_bytes: Option<u64>,
    /// Bytes printed per turn.
    #[arg(long)]
    pub max_print_bytes: Option<usize>,
    /// Tool calls per turn.
    #[arg(long)]
    pub max_tool_calls: Option<usize>,
    /// Bytes of program source.
    #[arg(long)]
    pub max_source_bytes: Option<usize>,
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
