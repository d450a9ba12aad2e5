//! Limits (`language.md` §Limits) and the per-turn [`Budget`] that enforces
//! them.
//!
//! The budget covers the whole turn, from reading the source to the last
//! value: analysis and macro expansion are charged like evaluation.
//!
//! # Steps
//!
//! Steps are deterministic ticks: every function call, loop iteration,
//! comprehension item, analyzed form and element processed by a builtin
//! costs one, so the same program stops at the same step on any machine.
//! The step limit is exact: [`Budget::tick`] fails as soon as the count
//! passes `max_steps`. The wall clock is read on a coarse schedule, every
//! [`CLOCK_EVERY`] steps (and whenever a tick jumps past that point), so
//! the hot path is one addition and one comparison.
//!
//! # Charging work (for builtins and helpers)
//!
//! Anything that does more than a constant amount of work per call must
//! charge for it, so the step limit and the clock see it:
//!
//! * code with the interpreter at hand calls `interp.tick(n)` (one step per
//!   element, item or comparison it processes) *before* doing the work when
//!   `n` is known (`range`, `into`, `sort`), or inside its loop otherwise;
//!   a big `n` passes the next clock check, so the deadline is consulted;
//! * code without it — `Hash`/`Ord` impls (`value/order.rs`), printers
//!   (`format/`), regex compilation — calls [`charge_work`] (and
//!   [`charge_heap`] for memory it keeps). These go to a per-thread meter
//!   that the next builtin step ([`Budget::tick_settled`]: `interp.tick`,
//!   every builtin call, every analyzed form) drains into the step and heap
//!   counts, and the evaluator's own cheap [`Budget::tick`] at its next
//!   clock check (at most [`CLOCK_EVERY`] steps later), so the charge is
//!   enforced within a bounded number of program steps. Each such call is bounded by the size of the values involved
//!   (values are bounded by the heap limit), so the deadline is never far.
//!   A long builtin loop that charges through the meter should call
//!   `interp.tick(0)` now and then to settle it.
//!
//! One step stands for one element-sized piece of work: one item hashed,
//! compared or copied, about [`BYTES_PER_STEP`] bytes of text scanned or
//! printed.
//!
//! # Heap
//!
//! Heap bytes are the size of the values built, charged by the operations
//! that build them (and by compiled regexes and tool results). It counts
//! what was built during the turn, not what is live.
//!
//! **What a value costs (rule HEAP-COST-1).** Every charge for a value is
//! computed by `value/cost.rs` from `size_of` of the types the value really
//! is and the thresholds of its representation, never from a per-item
//! unit: a vector of `n` items is its `Arc` and `n` 16-byte slots up to 64
//! items, past that its flat header and `n` slots, and imbl's 64-slot
//! chunks too once the first write to items another copy holds builds its
//! tree (charged then, once; later copies a handle and the chunk written);
//! a map its array of
//! 32-byte pairs after a 16-byte header (counts, length, capacity) up to
//! 16 entries — a record its 16-byte values after a 24-byte header (the
//! same and its shape's pointer), the shape, its keys, shared by every
//! record of its kind and not charged to each — then its entries' chunks beside a hash
//! table of (hash, position) buckets, a power of two at most 7/8 full, which
//! a map adding or removing a key copies whole when another map shares it
//! (a `sorted-map`, a B-tree of pairs); a set its
//! sorted array up to 16 elements, then a hash table of (hash, value)
//! buckets, a power of two at most 7/8 full, and the sorted order it keeps
//! once iterated; a string its `Arc` and its text; a closure, a `reduced`,
//! a lazy link their allocation. A collection added to is charged the
//! difference between its sizes before and after (a table doubling costs
//! the new table); a write to storage another value holds too is charged
//! the copy it makes (copy on write). Payload and allocation headers are
//! counted; persistent-tree nodes are approximated (within 1% of the bytes
//! allocated for vector trees and sets; a large map's index is counted as its
//! table is sized, its entries' chunks as a tree's); the allocator's own
//! overhead and spare capacity are not (a flat vector grown item by item
//! may hold up to as much room again as its items; builders that know
//! their length reserve it exactly). Charges depend on lengths and on
//! sharing only, never on addresses or the allocator, so a program is
//! charged the same on every run.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// How often (in steps) the wall clock is consulted.
pub const CLOCK_EVERY: u64 = 4096;

/// Bytes of text scanned, copied or printed per step of charge.
pub const BYTES_PER_STEP: u64 = 64;

/// Work and memory charged by code that cannot reach the [`Budget`], not yet
/// folded into it (see the module docs).
struct Meter {
    work: Cell<u64>,
    heap: Cell<u64>,
}

thread_local! {
    static METER: Meter = const {
        Meter {
            work: Cell::new(0),
            heap: Cell::new(0),
        }
    };
}

/// Charges `steps` of work done on this thread to the running turn's budget
/// (enforced at the program's next step). For code without access to the
/// interpreter: hashing, comparing, printing.
#[inline]
pub fn charge_work(steps: u64) {
    METER.with(|m| m.work.set(m.work.get().saturating_add(steps)));
}

/// Charges `bytes` of memory kept by something built on this thread (a
/// compiled regex) to the running turn's heap budget (enforced at the
/// program's next step).
#[inline]
pub fn charge_heap(bytes: u64) {
    METER.with(|m| m.heap.set(m.heap.get().saturating_add(bytes)));
}

/// Whether this thread's meter holds nothing to charge.
#[inline]
fn meter_is_empty() -> bool {
    METER.with(|m| m.work.get() == 0 && m.heap.get() == 0)
}

/// Takes what the meter holds: (work steps, heap bytes).
#[inline]
fn drain_meter() -> (u64, u64) {
    METER.with(|m| (m.work.replace(0), m.heap.replace(0)))
}

/// Puts `(work, heap)` in this thread's meter and returns what it held: a
/// program started while another runs on the same thread (host code it
/// called runs one) leaves the outer program's charges as they were.
pub(crate) fn swap_meter((work, heap): (u64, u64)) -> (u64, u64) {
    METER.with(|m| (m.work.replace(work), m.heap.replace(heap)))
}

/// When work on this thread that cannot return an error mid-way (the
/// printers of `format/`, which run inside builtins such as `str`, and the
/// measuring of values leaving a turn) must stop: the running turn's
/// deadline and interrupt flag. Set for the length of a program
/// ([`crate::run`]), empty outside one.
#[derive(Clone, Default)]
pub(crate) struct Stop {
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
}

thread_local! {
    static STOP: RefCell<Stop> = RefCell::new(Stop::default());
}

/// Puts `stop` in place for this thread and returns what was there (a
/// program run by host code inside another program restores the outer
/// program's on the way out).
pub(crate) fn swap_stop(stop: Stop) -> Stop {
    STOP.with(|s| s.replace(stop))
}

/// How many items a printer handles between two [`should_stop`] polls.
pub const STOP_POLL_EVERY: usize = 4096;

/// Whether the program running on this thread is past its deadline or was
/// interrupted (reads the clock). Printers and measurers poll it every
/// [`STOP_POLL_EVERY`] items and give up early, as they do when text
/// outgrows its room; the builtin that called them then reports the
/// `timeout` ([`Budget::check_clock`]) rather than a memory error.
pub fn should_stop() -> bool {
    STOP.with(|s| {
        let s = s.borrow();
        s.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || s.deadline.is_some_and(|d| Instant::now() >= d)
    })
}

/// Configurable limits; `None` means unlimited.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Wall-clock time of one program, in milliseconds (tool calls included).
    pub timeout_ms: Option<u64>,
    /// Evaluation steps of one program (one step ≈ one call or one element
    /// visited; text is charged per 64 bytes).
    pub max_steps: Option<u64>,
    /// Nesting of function calls; never more than the evaluation thread's
    /// stack allows whatever is configured.
    pub max_depth: Option<usize>,
    /// Bytes of values one program may build (approximate).
    pub max_heap_bytes: Option<u64>,
    /// Bytes one program may print with `println` and friends.
    pub max_print_bytes: Option<usize>,
    /// Tool calls one program may make.
    pub max_tool_calls: Option<usize>,
    /// Size of one program's source text, in bytes.
    pub max_source_bytes: Option<usize>,
    /// Tool calls of one `pmap`/`pcalls` that may run at once (default
    /// 8; 1 runs the items one after the other). Every other limit holds
    /// for the turn as a whole (`group.rs`).
    pub max_parallel_tool_calls: usize,
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
            max_parallel_tool_calls: DEFAULT_PARALLEL_TOOL_CALLS,
        }
    }
}

impl Limits {
    /// `--no-limits`: everything off except call depth, which grows to what
    /// the evaluation stack allows.
    pub fn none() -> Limits {
        Limits {
            timeout_ms: None,
            max_steps: None,
            max_depth: Some(HARD_MAX_DEPTH),
            max_heap_bytes: None,
            max_print_bytes: None,
            max_tool_calls: None,
            max_source_bytes: None,
            max_parallel_tool_calls: DEFAULT_PARALLEL_TOOL_CALLS,
        }
    }
}

/// [`Limits::max_parallel_tool_calls`] by default.
pub const DEFAULT_PARALLEL_TOOL_CALLS: usize = 8;

/// The deepest call nesting any configuration allows: what the evaluation
/// stack ([`crate::eval::stack::STACK_BYTES`]) holds with room to spare.
pub const HARD_MAX_DEPTH: usize = 20_000;

/// What one turn has used so far.
pub struct Budget {
    pub limits: Limits,
    steps: u64,
    /// `max_steps`, or `u64::MAX` without a step limit.
    step_limit: u64,
    /// The step count at which [`Budget::tick`] takes its slow path: the
    /// next clock reading, or one past the step limit, whichever is first.
    next_check: u64,
    started: Instant,
    pub depth: usize,
    max_depth: usize,
    heap: u64,
    pub print_bytes: usize,
    pub tool_calls: usize,
    /// Set from outside (the REPL's Ctrl-C) to stop the evaluation: checked
    /// with the clock. Kept across turns.
    interrupt: Option<Arc<AtomicBool>>,
    /// Called at the turn's first clock check ([`Budget::set_long_turn`]).
    /// Kept across turns.
    long_turn: Option<LongTurn>,
    /// Whether this turn reached its first clock check.
    long: bool,
    /// Unique per budget, so per turn ([`Budget::serial`]).
    serial: u64,
}

/// The counters the integer kernel runs with ([`Budget::kernel_view`]).
#[derive(Clone, Copy)]
pub(crate) struct KernelView {
    pub steps: u64,
    pub next_check: u64,
    pub depth: usize,
    pub max_depth: usize,
}

/// A budget's counters at a point of the turn ([`Budget::mark`]).
pub(crate) struct BudgetMark {
    steps: u64,
    heap: u64,
    print_bytes: usize,
    tool_calls: usize,
}

/// What [`Budget::set_long_turn`] calls.
pub type LongTurn = Arc<dyn Fn() + Send + Sync>;

/// The serial number of the next [`Budget`].
static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        let max_depth = limits
            .max_depth
            .unwrap_or(HARD_MAX_DEPTH)
            .min(HARD_MAX_DEPTH);
        let step_limit = limits.max_steps.unwrap_or(u64::MAX);
        Budget {
            limits,
            steps: 0,
            step_limit,
            next_check: CLOCK_EVERY.min(step_limit.saturating_add(1)),
            started: Instant::now(),
            depth: 0,
            max_depth,
            heap: 0,
            print_bytes: 0,
            tool_calls: 0,
            interrupt: None,
            long_turn: None,
            long: false,
            serial: NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// A number no other budget (so no other turn) of this process has:
    /// what turn-scoped caches (`memoize`) key on.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Starts a new turn: counters back to zero, clock restarted, and this
    /// thread's meter ([`charge_work`]) emptied.
    pub fn reset(&mut self) {
        drain_meter();
        // In place (what `new` would make of the current limits, the
        // interrupt flag and hook kept): no copy of the limits per turn.
        let Budget {
            limits,
            steps,
            step_limit,
            next_check,
            started,
            depth,
            max_depth,
            heap,
            print_bytes,
            tool_calls,
            interrupt: _,
            long_turn: _,
            long,
            serial,
        } = self;
        *max_depth = limits
            .max_depth
            .unwrap_or(HARD_MAX_DEPTH)
            .min(HARD_MAX_DEPTH);
        *step_limit = limits.max_steps.unwrap_or(u64::MAX);
        *steps = 0;
        *next_check = CLOCK_EVERY.min(step_limit.saturating_add(1));
        *started = Instant::now();
        *depth = 0;
        *heap = 0;
        *print_bytes = 0;
        *tool_calls = 0;
        *long = false;
        *serial = NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// A flag that, once set, stops the evaluation with an "interrupted"
    /// `timeout` error at the next clock check (within [`CLOCK_EVERY`]
    /// steps). Whoever sets it clears it before the next evaluation.
    pub fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }

    /// A function called once in every turn that reaches its first clock
    /// check (its [`CLOCK_EVERY`]th step), back on the caller's stack
    /// ([`super::stack::on_caller_stack`]), before the interrupt flag is
    /// read there: what a host that watches for an interrupt only in
    /// turns that run that long starts its watch with (the Python
    /// binding's Ctrl-C, `python/ctrl_c.rs`; a shorter turn is over in
    /// about the time the watch would take to set up). Kept across turns.
    #[cfg_attr(not(feature = "python"), allow(dead_code))]
    pub fn set_long_turn(&mut self, hook: Option<LongTurn>) {
        self.long_turn = hook;
    }

    /// What [`Budget::rewind`] goes back to: a try of a `pmap` item that
    /// is undone (`group.rs`).
    pub(crate) fn mark(&mut self) -> BudgetMark {
        let (work, heap) = drain_meter();
        self.steps = self.steps.saturating_add(work);
        self.heap = self.heap.saturating_add(heap);
        BudgetMark {
            steps: self.steps,
            heap: self.heap,
            print_bytes: self.print_bytes,
            tool_calls: self.tool_calls,
        }
    }

    /// Back to `mark`: what was charged since is forgotten (the clock
    /// still reads within [`CLOCK_EVERY`] steps).
    pub(crate) fn rewind(&mut self, mark: BudgetMark) {
        drain_meter();
        self.steps = mark.steps;
        self.heap = mark.heap;
        self.print_bytes = mark.print_bytes;
        self.tool_calls = mark.tool_calls;
        self.next_check = self
            .next_check
            .min(self.steps.saturating_add(CLOCK_EVERY))
            .min(self.step_limit.saturating_add(1));
    }

    /// Steps charged so far this turn (the REPL's `:time`).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// Calls open now (tests: a finished turn leaves none).
    #[cfg(test)]
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }
    pub fn heap_bytes(&self) -> u64 {
        self.heap
    }

    /// What the integer kernel (`compile/kernel/`) counts with while it
    /// runs: the steps so far, the count at which [`Budget::tick`] would
    /// take its slow path, the calls open and their limit. `None` while
    /// this thread's meter holds work not yet charged (a builtin's): the
    /// general path would settle it at a point the kernel does not see.
    #[inline]
    pub(crate) fn kernel_view(&self) -> Option<KernelView> {
        if !meter_is_empty() {
            return None;
        }
        Some(KernelView {
            steps: self.steps,
            next_check: self.next_check,
            depth: self.depth,
            max_depth: self.max_depth,
        })
    }

    /// The kernel's steps reached `steps` at or past `next_check`: what
    /// [`Budget::tick`] does there (the clock, the step limit). Gives the
    /// new `next_check`.
    #[cold]
    pub(crate) fn kernel_settle(&mut self, steps: u64) -> Result<u64> {
        self.steps = steps;
        if self.steps >= self.next_check {
            self.slow_tick(0)?;
        }
        Ok(self.next_check)
    }

    /// Hands the kernel's step count over (below `next_check`: nothing to
    /// check).
    #[inline]
    pub(crate) fn kernel_commit(&mut self, steps: u64) {
        debug_assert!(steps < self.next_check);
        self.steps = steps;
    }

    /// Takes the steps back to `steps`, where the general path runs again
    /// what the kernel gave up; its first tick reads the clock (a timeout
    /// the kernel met is met again at once, not a whole run later).
    #[cold]
    pub(crate) fn kernel_rewind(&mut self, steps: u64) {
        self.steps = steps;
        self.next_check = self.next_check.min(steps.saturating_add(1));
    }

    /// Charges `n` steps: the evaluator's hot path (calls, loop
    /// iterations). Fails as soon as the step limit is passed; reads the
    /// clock, and settles this thread's meter ([`charge_work`],
    /// [`charge_heap`]), every [`CLOCK_EVERY`] steps.
    #[inline]
    pub fn tick(&mut self, n: u64) -> Result<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps >= self.next_check {
            self.slow_tick(0)?;
        }
        Ok(())
    }

    /// [`Budget::tick`], settling this thread's meter first: what builtins
    /// (`interp.tick`) and the analyzer call, so work they charged through
    /// the meter counts at once.
    #[inline]
    pub fn tick_settled(&mut self, n: u64) -> Result<()> {
        let (work, heap) = drain_meter();
        self.steps = self.steps.saturating_add(n).saturating_add(work);
        if self.steps >= self.next_check {
            return self.slow_tick(heap);
        }
        // Heap a builtin charged through the meter (a shared record's
        // copy): what `slow_tick` would charge, without the clock.
        if heap != 0 {
            self.alloc(heap)?;
        }
        Ok(())
    }

    /// Charges `n` steps ([`Budget::tick_settled`]) when they fit under
    /// the step limit, and says whether it did; when they do not, only
    /// this thread's meter is settled, and the caller charges them one by
    /// one so the limit fires where it always would.
    pub(crate) fn tick_if_room(&mut self, n: u64) -> Result<bool> {
        self.tick_settled(0)?;
        if self.steps.saturating_add(n) > self.step_limit {
            return Ok(false);
        }
        self.tick(n)?;
        Ok(true)
    }

    #[cold]
    fn slow_tick(&mut self, heap: u64) -> Result<()> {
        let (work, more_heap) = drain_meter();
        self.steps = self.steps.saturating_add(work);
        let heap = heap.saturating_add(more_heap);
        if heap != 0 {
            self.alloc(heap)?;
        }
        if self.steps < self.next_check {
            return Ok(());
        }
        if self.steps > self.step_limit {
            let max = self.step_limit;
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("evaluation exceeded the step limit of {max} steps"),
            )
            .with_hint("the program may loop forever; otherwise raise max_steps"));
        }
        self.next_check = self
            .steps
            .saturating_add(CLOCK_EVERY)
            .min(self.step_limit.saturating_add(1));
        if !self.long {
            self.long = true;
            if let Some(hook) = &self.long_turn {
                super::stack::on_caller_stack(|| hook());
            }
        }
        self.check_clock()
    }

    /// A `timeout` error once the turn's time limit has passed or the
    /// evaluation was interrupted (reads the clock now; called every
    /// [`CLOCK_EVERY`] steps and around tool calls).
    pub fn check_clock(&self) -> Result<()> {
        if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Error::new(
                ErrorKind::Timeout,
                "evaluation interrupted (Ctrl-C)",
            ));
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

    /// What printers on this thread poll while this budget's program runs
    /// ([`should_stop`]).
    pub(crate) fn stop(&self) -> Stop {
        Stop {
            deadline: self
                .limits
                .timeout_ms
                .and_then(|ms| self.started.checked_add(Duration::from_millis(ms))),
            interrupt: self.interrupt.clone(),
        }
    }

    /// Time left before the turn's deadline (`None` without a time limit).
    pub fn time_left(&self) -> Option<Duration> {
        self.limits
            .timeout_ms
            .map(|ms| Duration::from_millis(ms).saturating_sub(self.started.elapsed()))
    }

    /// Charges approximately `bytes` of newly built values.
    #[inline]
    pub fn alloc(&mut self, bytes: u64) -> Result<()> {
        self.heap = self.heap.saturating_add(bytes);
        match self.limits.max_heap_bytes {
            Some(max) if self.heap > max => Err(heap_exceeded(max)),
            _ => Ok(()),
        }
    }

    /// One step for a call, then [`Budget::enter`]: the same two checks in
    /// the same order, with one test on the usual path.
    #[inline(always)]
    pub fn tick_enter(&mut self) -> Result<()> {
        self.steps = self.steps.saturating_add(1);
        self.depth += 1;
        if self.steps >= self.next_check || self.depth > self.max_depth {
            return self.tick_enter_slow();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn tick_enter_slow(&mut self) -> Result<()> {
        self.depth -= 1;
        if self.steps >= self.next_check {
            self.slow_tick(0)?;
        }
        self.enter()
    }

    /// Enters a function call.
    #[inline(always)]
    pub fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Error {
        self.depth -= 1;
        Error::new(
            ErrorKind::LimitExceeded,
            format!(
                "call depth exceeded the limit of {} nested calls",
                self.max_depth
            ),
        )
        .with_hint("unbounded recursion? use loop/recur, or raise max_depth")
    }

    /// Enters one link of a lazy sequence while realising an item
    /// (`eval/iter.rs`): it counts as a nested call, so realising a chain
    /// of links (`(map f (map f …))`) is bounded by `max_depth` like the
    /// recursion it is, and deterministic. Left with [`Budget::leave`].
    #[inline]
    pub fn enter_link(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            self.depth -= 1;
            return Err(super::iter::too_deep(self.max_depth).with_hint(
                "realise the inner sequence before wrapping it again (e.g. (vec (take n s))), \
                 build the items in one pass with loop/recur, or raise max_depth",
            ));
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

/// The error of a turn past its heap limit (out of line: the charge
/// itself, [`Budget::alloc`], is a few instructions where it is inlined).
#[cold]
#[inline(never)]
fn heap_exceeded(max: u64) -> Error {
    Error::new(
        ErrorKind::MemoryExceeded,
        format!("the program built more than the heap limit of {max} bytes of values"),
    )
    .with_hint("work on less data at a time, or raise max_heap_bytes")
}

thread_local! {
    /// The heap room left to the turn whose tool call runs on this thread
    /// (`None`: no heap limit, or no call running).
    static TOOL_ROOM: Cell<Option<u64>> = const { Cell::new(None) };
}

/// How many bytes of JSON text a tool may answer for each byte of heap
/// room: a JSON tree takes up to ~40 times its text (`[1,1,…]`: 2 bytes of
/// text, an 80-byte node), so a tenth of the room keeps the parse within
/// four times the heap limit.
pub const ANSWER_TEXT_PER_ROOM: u64 = 10;

/// Runs `f` (a host's tool call) with [`tool_answer_cap`] giving the room
/// `room` allows, and restores the previous value after.
pub(crate) fn with_tool_room<T>(room: Option<u64>, f: impl FnOnce() -> T) -> T {
    let before = TOOL_ROOM.with(|r| r.replace(room));
    let out = f();
    TOOL_ROOM.with(|r| r.set(before));
    out
}

/// The heap room (in HEAP-COST-1 bytes) of the turn whose tool call runs
/// on this thread, or `None` when it has no heap limit or no tool call is
/// running: what a tool that builds values itself (MCP results) may build.
#[cfg(feature = "mcp")]
pub fn tool_room() -> Option<u64> {
    TOOL_ROOM.with(|r| r.get())
}

/// The most bytes of text a tool running on this thread may answer before
/// it is parsed (a tenth of the calling turn's heap room), or `None` when
/// the turn has no heap limit or no tool call is running. Tools that parse
/// text (command tools, MCP tools) read at most this much and refuse a
/// longer answer with an error naming both sizes.
pub fn tool_answer_cap() -> Option<u64> {
    TOOL_ROOM
        .with(|r| r.get())
        .map(|room| room / ANSWER_TEXT_PER_ROOM)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn the_long_turn_hook_runs_once_in_each_turn_that_reaches_its_first_clock_check() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let mut interp = crate::eval::Interp::standalone();
        interp.budget.set_long_turn(Some(Arc::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        })));
        let long = "(loop [i 0] (if (< i 20000) (recur (inc i)) i))";
        assert!(interp.run_program("(+ 1 2)").is_ok());
        assert_eq!(calls.load(Ordering::SeqCst), 0, "a short turn");
        assert!(interp.run_program(long).is_ok());
        assert_eq!(calls.load(Ordering::SeqCst), 1, "once, at the first check");
        assert!(interp.run_program(long).is_ok());
        assert_eq!(calls.load(Ordering::SeqCst), 2, "kept for the next turn");
        interp.budget.set_long_turn(None);
        assert!(interp.run_program(long).is_ok());
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn an_interrupt_set_by_the_long_turn_hook_stops_the_turn() {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        let mut interp =
            crate::eval::Interp::new(Box::new(crate::eval::StaticHost::default()), Limits::none());
        interp.budget.set_interrupt(Some(flag.clone()));
        interp.budget.set_long_turn(Some(Arc::new(move || {
            set.store(true, Ordering::SeqCst);
        })));
        let out = interp.run_program("(loop [i 0] (recur (inc i)))");
        let e = out.result.expect_err("interrupted");
        assert_eq!(e.kind(), ErrorKind::Timeout);
        assert!(e.message().contains("interrupted"), "{e:?}");
    }
}
