//! Running a kernel: the tree on `i64` registers, and the two drivers
//! (a `loop`, a function body) that start it, hand its steps to the
//! budget and give an iteration to the general path when it gives up
//! (rule KERNEL-1 in `mod.rs`).

use crate::error::Result;
use crate::eval::budget::Budget;
use crate::eval::{Frame, Interp};
use crate::value::{FuncRef, Value};

use super::super::{iterations, run_binds, BindCode, Code};
use super::code::KC;
use super::{Kernel, Outside};

/// The kernel gives up: the general path runs the iteration again.
pub(crate) struct Bail;

pub(crate) type Out = std::result::Result<i64, Bail>;

/// A kernel's running state: registers (frames of `Kernel::frame` slots,
/// the running one at `bp`), captures, and the budget's counters kept in
/// locals between its slow checks.
pub(crate) struct Cx<'b> {
    pub(super) regs: Vec<i64>,
    /// The body a call of the kernel's function runs, and its block's
    /// steps.
    body: &'b KC,
    body_cost: u64,
    caps: Vec<i64>,
    frame: usize,
    steps: u64,
    next_check: u64,
    depth: usize,
    max_depth: usize,
    /// A `recur` stored its arguments: the innermost loop or body repeats.
    pub(crate) recur: bool,
    budget: &'b mut Budget,
}

impl Cx<'_> {
    /// A block's `n` steps charged (rule KERNEL-2), as [`Budget::tick`]
    /// charges them: a limit met gives up (the general path meets it at
    /// its own step).
    #[inline(always)]
    pub(crate) fn charge(&mut self, n: u64) -> std::result::Result<(), Bail> {
        self.steps += n;
        if self.steps >= self.next_check {
            self.next_check = self.budget.kernel_settle(self.steps).map_err(|_| Bail)?;
        }
        Ok(())
    }

    /// Register `s` of the frame at `bp`.
    #[inline(always)]
    pub(crate) fn reg(&self, bp: usize, s: u32) -> i64 {
        let i = bp + s as usize;
        debug_assert!(i < self.regs.len(), "kernel register {i} outside its frame");
        // SAFETY: `i < self.regs.len()`, the frame invariant: the code of
        // a kernel names only slots below its `frame` (`Build::slot` raises
        // `frame` past every slot it hands out; a function's `frame` is at
        // least its arity's), and code runs at `bp` only while
        // `regs.len() >= bp + frame` (`Kernel::start` sizes the first
        // frame, `Cx::call` each callee's, and whatever is pushed above a
        // frame — a call's arguments and frame, `recur`'s values — is
        // truncated away before that frame's code goes on).
        unsafe { *self.regs.get_unchecked(i) }
    }

    /// Sets register `s` of the frame at `bp`.
    #[inline(always)]
    pub(crate) fn set(&mut self, bp: usize, s: u32, v: i64) {
        let i = bp + s as usize;
        debug_assert!(i < self.regs.len(), "kernel register {i} outside its frame");
        // SAFETY: `i < self.regs.len()`, the frame invariant of `Cx::reg`.
        unsafe { *self.regs.get_unchecked_mut(i) = v }
    }

    #[inline(always)]
    pub(crate) fn cap(&self, i: u32) -> i64 {
        self.caps[i as usize]
    }

    /// A body of `n` steps run again after each `recur` (whose block
    /// charged the back-edge).
    #[inline]
    pub(crate) fn repeat(&mut self, k: &KC, n: u64, bp: usize) -> Out {
        loop {
            self.charge(n)?;
            let v = k(self, bp)?;
            if !std::mem::take(&mut self.recur) {
                return Ok(v);
            }
        }
    }

    /// A call of the kernel's function, its arguments pushed from `nbp`
    /// (the call's step charged by the caller's block): its depth (as
    /// `Budget::tick_enter`), a frame of registers there.
    #[inline(never)]
    pub(crate) fn call(&mut self, nbp: usize) -> Out {
        if self.depth >= self.max_depth {
            return Err(Bail);
        }
        self.depth += 1;
        self.regs.resize(nbp + self.frame, 0);
        let (body, n) = (self.body, self.body_cost);
        let v = self.repeat(body, n, nbp);
        self.regs.truncate(nbp);
        self.depth -= 1;
        v
    }
}

/// Whether the kernel may start here: not turned off (a general
/// iteration it gave up is running), no hidden data about.
#[inline]
fn may_start(it: &Interp) -> bool {
    !it.kernel_off && !it.hidden.active()
}

/// The integer in `v`.
#[inline]
fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

#[cfg(test)]
thread_local! {
    /// Kernel starts on this thread (tests: the kernel did run).
    pub(crate) static KERNEL_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How a run of iterations in the kernel ended.
enum Ended {
    /// The last iteration's value.
    Done(i64),
    /// An iteration gave up at the step count it started at (its
    /// bindings' registers are as it found them).
    GaveUp(u64),
    /// A loop's first values gave up at the step count the loop started
    /// at.
    InitsGaveUp(u64),
}

impl Kernel {
    /// The kernel's state for a frame at `f`: the inputs, the captures
    /// and, unless `fresh` (a loop's start, whose bindings the kernel
    /// computes), the bindings read from it; `None` when one of them is
    /// not an integer or this thread's meter holds work.
    fn start<'b>(&'b self, it: &'b mut Interp, f: Frame, fresh: bool) -> Option<Cx<'b>> {
        let view = it.budget.kernel_view()?;
        // The registers of the last run (no allocation per call).
        let mut regs = std::mem::take(&mut it.kernel_regs);
        regs.clear();
        regs.resize(self.frame, 0);
        let binds: &[u32] = if fresh { &[] } else { &self.binds };
        for &s in self.inputs.iter().chain(binds) {
            regs[s as usize] = int_of(it.stack.get(f.bp + s as usize)?)?;
        }
        let mut caps = Vec::with_capacity(self.caps.len());
        for o in self.caps.iter() {
            caps.push(int_of(match *o {
                Outside::Capture(i) => f.closure?.captures.get(i as usize)?,
                Outside::Global(id) => &it.globals.get(id)?.value,
            })?);
        }
        Some(Cx {
            regs,
            caps,
            frame: self.frame,
            body: &self.code,
            body_cost: self.cost,
            steps: view.steps,
            next_check: view.next_check,
            depth: view.depth,
            max_depth: view.max_depth,
            recur: false,
            budget: &mut it.budget,
        })
    }

    /// Runs a loop's first values (when `fresh`), then iterations until
    /// the last one's value or one that gives up.
    fn iterate(&self, cx: &mut Cx, fresh: bool) -> Ended {
        if fresh {
            let entry = cx.steps;
            if cx.charge(self.inits_cost).is_err() {
                return Ended::InitsGaveUp(entry);
            }
            for (s, v) in self.inits.iter() {
                match v(cx, 0) {
                    Ok(v) => cx.regs[*s as usize] = v,
                    Err(Bail) => return Ended::InitsGaveUp(entry),
                }
            }
        }
        loop {
            let start = cx.steps;
            // The back-edge's step is in the block that ends in `recur`.
            match cx.charge(self.cost).and_then(|()| (self.code)(cx, 0)) {
                Ok(v) if !cx.recur => {
                    cx.budget.kernel_commit(cx.steps);
                    return Ended::Done(v);
                }
                Ok(_) => cx.recur = false,
                Err(Bail) => return Ended::GaveUp(start),
            }
        }
    }

    /// Runs the kernel from frame `f` to the end, giving the general path
    /// each iteration the kernel gives up. `None` when it cannot start:
    /// the caller runs its general path, nothing done yet.
    fn drive(
        &self,
        it: &mut Interp,
        f: Frame,
        mut fresh: bool,
        inits: &[BindCode],
        body: &Code,
    ) -> Option<Result<Value>> {
        let mut first = true;
        loop {
            let Some(mut cx) = self.start(it, f, fresh) else {
                if first {
                    return None;
                }
                // The bindings a general iteration left are not all
                // integers (not met: the code is integer code).
                return Some(iterations(it, f, body));
            };
            first = false;
            #[cfg(test)]
            KERNEL_RUNS.with(|n| n.set(n.get() + 1));
            let ended = self.iterate(&mut cx, fresh);
            let regs = std::mem::take(&mut cx.regs);
            drop(cx);
            fresh = false;
            if let Ended::GaveUp(_) = ended {
                for &s in self.binds.iter() {
                    it.stack[f.bp + s as usize] = Value::Int(regs[s as usize]);
                }
            }
            it.kernel_regs = regs;
            match ended {
                Ended::Done(v) => return Some(Ok(Value::Int(v))),
                Ended::InitsGaveUp(entry) => {
                    it.budget.kernel_rewind(entry);
                    let off = std::mem::replace(&mut it.kernel_off, true);
                    let r = run_binds(inits, it, f);
                    it.kernel_off = off;
                    if let Err(e) = r {
                        return Some(Err(e));
                    }
                }
                Ended::GaveUp(start) => {
                    // The bindings' registers are in the frame (above).
                    it.budget.kernel_rewind(start);
                    let off = std::mem::replace(&mut it.kernel_off, true);
                    let r = body(it, f);
                    it.kernel_off = off;
                    match r {
                        Err(e) => return Some(Err(e)),
                        Ok(v) if !std::mem::take(&mut it.pending_recur) => return Some(Ok(v)),
                        Ok(_) => {
                            if let Err(e) = it.budget.tick(1) {
                                return Some(Err(e));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A `loop` with a kernel: `None` when the kernel cannot start (the
/// caller runs the loop on the general path).
pub(crate) fn run_loop(
    k: &Kernel,
    it: &mut Interp,
    f: Frame,
    inits: &[BindCode],
    body: &Code,
) -> Option<Result<Value>> {
    if !may_start(it) {
        return None;
    }
    k.drive(it, f, true, inits, body)
}

/// A function body with a kernel: `None` when the kernel cannot start.
/// Calls of itself go through its `defn` name: the kernel starts only
/// while that name holds this closure.
pub(crate) fn run_fn(k: &Kernel, it: &mut Interp, f: Frame, body: &Code) -> Option<Result<Value>> {
    if !may_start(it) {
        return None;
    }
    if k.calls && f.closure?.proto.arities.len() != 1 {
        return None;
    }
    if let Some(id) = k.global {
        let me = f.closure?;
        let def = it.globals.get(id)?;
        match def.value.as_func().map(|g| g.kind()) {
            Some(FuncRef::Closure(c)) if c.ptr_eq(me) => {}
            _ => return None,
        }
    }
    k.drive(it, f, false, &[], body)
}
