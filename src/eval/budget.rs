//! Limits (`language.md` §Limits) and the per-turn [`Budget`] that enforces
//! them.
//!
//! Steps are deterministic ticks: every function call, loop iteration,
//! comprehension item and element processed by a builtin costs one, so the
//! same program stops at the same step on any machine. The wall clock is read
//! only every [`CLOCK_EVERY`] ticks. Heap bytes are an approximation of the
//! size of values built, charged by the operations that build them.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// How often (in ticks) the wall clock is consulted.
pub const CLOCK_EVERY: u64 = 4096;

/// Configurable limits; `None` means unlimited.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    pub timeout_ms: Option<u64>,
    pub max_steps: Option<u64>,
    pub max_depth: Option<usize>,
    pub max_heap_bytes: Option<u64>,
    pub max_print_bytes: Option<usize>,
    pub max_tool_calls: Option<usize>,
    /// Size of one program's source text, in bytes.
    pub max_source_bytes: Option<usize>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout_ms: Some(1000),
            max_steps: Some(10_000_000),
            max_depth: Some(1000),
            max_heap_bytes: Some(10 * 1024 * 1024),
            max_print_bytes: Some(64 * 1024),
            max_tool_calls: None,
            max_source_bytes: Some(1 << 20),
        }
    }
}

impl Limits {
    /// `--no-limits`: everything off except call depth, which grows to what
    /// the evaluation thread's stack allows.
    pub fn none() -> Limits {
        Limits {
            timeout_ms: None,
            max_steps: None,
            max_depth: Some(HARD_MAX_DEPTH),
            max_heap_bytes: None,
            max_print_bytes: None,
            max_tool_calls: None,
            max_source_bytes: None,
        }
    }
}

/// The deepest call nesting any configuration allows: what the evaluation
/// thread's stack ([`crate::eval::STACK_BYTES`]) holds with room to spare.
pub const HARD_MAX_DEPTH: usize = 20_000;

/// What one turn has used so far.
pub struct Budget {
    pub limits: Limits,
    steps: u64,
    next_clock_check: u64,
    started: Instant,
    pub depth: usize,
    max_depth: usize,
    heap: u64,
    pub print_bytes: usize,
    pub tool_calls: usize,
    /// Unique per budget, so per turn ([`Budget::serial`]).
    serial: u64,
}

/// The serial number of the next [`Budget`].
static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        let max_depth = limits
            .max_depth
            .unwrap_or(HARD_MAX_DEPTH)
            .min(HARD_MAX_DEPTH);
        Budget {
            limits,
            steps: 0,
            next_clock_check: CLOCK_EVERY,
            started: Instant::now(),
            depth: 0,
            max_depth,
            heap: 0,
            print_bytes: 0,
            tool_calls: 0,
            serial: NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// A number no other budget (so no other turn) of this process has:
    /// what turn-scoped caches (`memoize`) key on.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Starts a new turn: counters back to zero, clock restarted.
    pub fn reset(&mut self) {
        *self = Budget::new(self.limits.clone());
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }
    pub fn heap_bytes(&self) -> u64 {
        self.heap
    }

    /// Charges `n` steps.
    #[inline]
    pub fn tick(&mut self, n: u64) -> Result<()> {
        self.steps += n;
        if self.steps >= self.next_clock_check {
            self.slow_tick()?;
        }
        Ok(())
    }

    #[cold]
    fn slow_tick(&mut self) -> Result<()> {
        self.next_clock_check = self.steps + CLOCK_EVERY;
        if let Some(max) = self.limits.max_steps {
            if self.steps > max {
                return Err(Error::new(
                    ErrorKind::LimitExceeded,
                    format!("evaluation exceeded the step limit of {max} steps"),
                )
                .with_hint("the program may loop forever; otherwise raise max_steps"));
            }
            self.next_clock_check = self.next_clock_check.min(max + 1);
        }
        if let Some(ms) = self.limits.timeout_ms {
            if self.started.elapsed() > Duration::from_millis(ms) {
                return Err(Error::new(
                    ErrorKind::Timeout,
                    format!("evaluation exceeded the time limit of {ms} ms"),
                )
                .with_hint("the program may loop forever; otherwise raise timeout_ms"));
            }
        }
        Ok(())
    }

    /// Charges approximately `bytes` of newly built values.
    #[inline]
    pub fn alloc(&mut self, bytes: u64) -> Result<()> {
        self.heap += bytes;
        match self.limits.max_heap_bytes {
            Some(max) if self.heap > max => Err(Error::new(
                ErrorKind::MemoryExceeded,
                format!("the program built more than the heap limit of {max} bytes of values"),
            )
            .with_hint("work on less data at a time, or raise max_heap_bytes")),
            _ => Ok(()),
        }
    }

    /// Enters a function call.
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            self.depth -= 1;
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "call depth exceeded the limit of {} nested calls",
                    self.max_depth
                ),
            )
            .with_hint("unbounded recursion? use loop/recur, or raise max_depth"));
        }
        Ok(())
    }

    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Charges printed output.
    pub fn print(&mut self, bytes: usize) -> Result<()> {
        self.print_bytes += bytes;
        match self.limits.max_print_bytes {
            Some(max) if self.print_bytes > max => Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("printed output exceeded the limit of {max} bytes per turn"),
            )
            .with_hint("print less (e.g. a count or the first items), or raise max_print_bytes")),
            _ => Ok(()),
        }
    }

    /// Bytes that may still be printed this turn, plus one (so text cut at
    /// this size is still over the limit when charged); unbounded without a
    /// print limit. Printers stop building text here: a value that shares
    /// its parts can print to far more text than it takes memory.
    pub fn print_room(&self) -> usize {
        match self.limits.max_print_bytes {
            Some(max) => max.saturating_sub(self.print_bytes).saturating_add(1),
            None => usize::MAX,
        }
    }

    /// Charges one tool call.
    pub fn tool_call(&mut self) -> Result<()> {
        self.tool_calls += 1;
        match self.limits.max_tool_calls {
            Some(max) if self.tool_calls > max => Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("the turn exceeded the limit of {max} tool calls"),
            )
            .with_hint("batch the work into fewer calls, or raise max_tool_calls")),
            _ => Ok(()),
        }
    }
}
