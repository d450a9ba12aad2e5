//! The evaluator: runs resolved [`Expr`] trees against an [`Interp`].
//!
//! Two paths run an `Expr`: function bodies and loops are compiled into
//! closures once (`compile/`, at their first call or run) and top-level code
//! is walked (`walk.rs`), as is every kind the compiler leaves to the walker.
//! Both charge the same steps at the same points (rule EVAL-STEPS-1 in
//! `compile/mod.rs`). Calls of function values are in `call.rs`; key lookup
//! and destructuring reads in `lookup.rs`; errors as values in `thrown.rs`.
//!
//! `Interp` owns everything a running program touches: user/ definitions
//! ([`Globals`]), the turn's [`Budget`], the [`Host`] (data and tools), and
//! what the turn records (prints, tool calls). Locals live on one value
//! stack; a call frame is a base index into it, so calls allocate nothing but
//! their slots. Closures capture by value at creation (flat closures).
//!
//! `recur` is only allowed in tail position (checked by the analyzer), so it
//! is implemented by evaluating its arguments, storing them in the slots of
//! the loop bindings or function parameters it targets (resolved by the
//! analyzer), setting `pending_recur` and returning; the enclosing `loop`
//! or function sees the flag and runs its body again.
//!
//! Native stack: evaluation recurses, so [`run_on_big_stack`] runs it on a
//! stack of [`stack::STACK_BYTES`] (`stack.rs`), and call depth is capped by
//! [`budget::HARD_MAX_DEPTH`] whatever the limits say.

pub mod budget;
mod call;
pub(crate) mod compile;
mod comprehension;
pub mod globals;
pub mod group;
pub mod guard;
pub mod hidden;
mod hidden_calls;
pub mod host;
pub mod iter;
mod leaving;
mod lookup;
pub(crate) mod outside;
mod print;
mod realise;
pub mod reference;
mod repeat;
pub mod stack;
mod thrown;
mod walk;

use std::sync::Arc;

use crate::analyze::expr::{Bind, Case, Expr, FnArity, FnProto, GlobalId, Slot};
use crate::builtins::Builtin;
use crate::error::{Error, Result};
use crate::value::{ClosureFn, Func, FuncRef, Map, NativeCode, Returned, Value, Vector};

pub use budget::{Budget, Limits};
pub use compile::Compiled;
pub use globals::{Definition, Globals};
pub use host::{CallAnswer, CallRequest, CannedTool, Host, StaticHost};
pub use lookup::{lookup, lookup_in_map, lookup_ref};
pub(crate) use repeat::Repeated;
pub use stack::run_on_big_stack;
pub use thrown::{error_value, thrown_error};

/// Receives each print as it happens.
pub type PrintSink = Box<dyn FnMut(&str) + Send>;

/// A function value made by `fn`/`defn`.
pub struct Closure {
    pub proto: Arc<FnProto>,
    pub captures: Vec<Value>,
    /// The `letfn` group this closure belongs to, for sibling references.
    pub group: Option<Arc<LetfnGroup>>,
}

/// The functions of one `letfn`, each with its captures. Siblings refer to
/// each other through the group instead of holding each other (no cycles).
pub struct LetfnGroup {
    pub members: Vec<(Arc<FnProto>, Vec<Value>)>,
}

impl Closure {
    pub fn name(&self) -> &str {
        self.proto.name.as_deref().unwrap_or("fn")
    }
    pub fn display_params(&self) -> String {
        self.proto.display_params.clone()
    }
}

/// One tool call as recorded on the turn.
#[derive(Clone, Debug)]
pub struct ToolCall {
    /// The tool's name without `tool/`.
    pub name: String,
    /// The arguments the program passed, in order.
    pub args: Vec<Value>,
    /// The result, or the host's error message.
    pub result: std::result::Result<Value, String>,
    /// Where in the turn it was made (CALL-SITE-1, `group.rs`).
    pub at: String,
}

/// A call's arguments: borrowed (copied into the frame) or owned (moved).
pub(crate) enum Args<'a> {
    Borrowed(&'a [Value]),
    Owned(&'a mut [Value]),
}

impl Args<'_> {
    fn len(&self) -> usize {
        match self {
            Args::Borrowed(a) => a.len(),
            Args::Owned(a) => a.len(),
        }
    }
}

/// Where the current function's locals and captures are.
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    bp: usize,
    closure: Option<&'a ClosureFn>,
}

impl Frame<'_> {
    /// The frame of top-level code.
    pub fn top(bp: usize) -> Frame<'static> {
        Frame { bp, closure: None }
    }
}

/// The interpreter state of a session.
pub struct Interp {
    /// The user/ definitions (`def`, `defn`), kept across programs; a
    /// failed program leaves them as they were.
    pub globals: Globals,
    pub(crate) budget: Budget,
    /// Where `data/` and `tool/` names go (see [`Host`]).
    pub host: Box<dyn Host>,
    /// `println` entries of the current turn.
    pub prints: Vec<String>,
    /// Tool calls of the current turn.
    pub tool_calls: Vec<ToolCall>,
    /// Results of earlier turns, oldest first (`*1 *2 *3`).
    pub turn_history: Vec<Value>,
    /// The value each `defn` function returned from its most recent
    /// successful call, by [`crate::analyze::expr::GlobalId`] (kept across
    /// turns; the prelude shows its type, R-25).
    pub(crate) fn_returns: Vec<Option<Returned>>,
    /// The user/ definitions the current program has (re)defined, in order.
    pub(crate) defined: Vec<GlobalId>,
    /// Values derived from hidden data, for the renderer.
    pub hidden: hidden::HiddenMarks,
    /// The open line holds text printed from a marked value.
    pending_line_hidden: bool,
    /// Text `print`/`pr` wrote on a line not ended yet.
    pending_line: String,
    /// Output captured by the open `with-out-str` forms, innermost last,
    /// each with whether a print of a marked value went into it.
    captures: Vec<(String, bool)>,
    /// Called with every print as it happens (`ptc run` streams them).
    pub on_print: Option<PrintSink>,
    /// Where the next tool call is made (CALL-SITE-1, `group.rs`).
    pub(crate) sites: group::Sites,
    /// The `pmap`/`pcalls` item being tried or run with gathered answers.
    pub(crate) attempt: Option<group::Attempt>,
    /// The calls the turn paused at, awaiting approval (`paused`).
    pub pending_calls: Vec<ToolCall>,
    stack: Vec<Value>,
    /// A buffer `str` and its kin print into before the text is copied
    /// into its `Arc<str>` (one allocation per string built, not two).
    pub(crate) text_buf: String,
    /// A `recur` has rebound its slots: the enclosing loop or function
    /// body runs again.
    pending_recur: bool,
    /// The integer kernel is not to start (`compile/kernel/`): a general
    /// iteration it gave up is running.
    kernel_off: bool,
    /// The integer kernel's registers, kept between its runs.
    kernel_regs: Vec<i64>,
    /// The reference run (`reference.rs`): no compiled code, no moves, no
    /// in-place writes, no lent arguments.
    pub(crate) reference: bool,
    /// Tests: top-level forms run compiled instead of walked.
    #[cfg(test)]
    pub(crate) compile_top: bool,
}

impl Interp {
    /// An interpreter over `host` (data and tools) whose every program runs
    /// within `limits`. Nothing is defined yet.
    pub fn new(host: Box<dyn Host>, limits: Limits) -> Interp {
        Interp {
            globals: Globals::new(),
            budget: Budget::new(limits),
            host,
            prints: Vec::new(),
            tool_calls: Vec::new(),
            turn_history: Vec::new(),
            fn_returns: Vec::new(),
            defined: Vec::new(),
            hidden: hidden::HiddenMarks::default(),
            pending_line_hidden: false,
            pending_line: String::new(),
            captures: Vec::new(),
            on_print: None,
            sites: group::Sites::default(),
            attempt: None,
            pending_calls: Vec::new(),
            stack: Vec::new(),
            text_buf: String::new(),
            pending_recur: false,
            kernel_off: false,
            kernel_regs: Vec::new(),
            reference: reference::on_this_thread(),
            #[cfg(test)]
            compile_top: false,
        }
    }

    /// An interpreter with no data, no tools and default limits.
    pub fn standalone() -> Interp {
        Interp::new(Box::new(StaticHost::default()), Limits::default())
    }

    /// Runs `src` (tests): its value printed, or its error's kind, and the
    /// heap bytes charged since the interpreter was made. No clock limit:
    /// what it measures is heap, and a test must not depend on the
    /// machine's speed (a debug build under load, or AddressSanitizer, took
    /// over the default second); the step and heap limits still hold.
    #[cfg(test)]
    pub(crate) fn run_for_heap(&mut self, src: &str) -> (String, u64) {
        self.budget.limits.timeout_ms = None;
        let shown = match self.run_program(src).result {
            Ok(v) => v.to_string(),
            Err(e) => format!("{:?}", e.kind()),
        };
        (shown, self.budget.heap_bytes())
    }

    /// Charges `n` steps of work.
    #[inline]
    pub(crate) fn tick(&mut self, n: u64) -> Result<()> {
        self.budget.tick_settled(n)
    }

    /// Charges `bytes` of newly built values.
    #[inline]
    pub(crate) fn alloc(&mut self, bytes: u64) -> Result<()> {
        self.budget.alloc(bytes)
    }

    pub(crate) fn run_binds(&mut self, binds: &[Bind], frame: Frame) -> Result<()> {
        for b in binds {
            let v = self.eval(&b.value, frame)?;
            self.stack[frame.bp + b.slot as usize] = v;
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn local(&self, frame: Frame, slot: Slot) -> &Value {
        &self.stack[frame.bp + slot as usize]
    }

    /// Makes room for a top-level form's locals; returns its frame base.
    pub(crate) fn push_top_frame(&mut self, size: usize) -> usize {
        let bp = self.stack.len();
        self.stack.resize(bp + size, Value::Nil);
        bp
    }

    /// Pushes `v` on the evaluation stack: an argument of a call, or a
    /// frame's first slots. (`Vec::push` written out: in the call paths
    /// it is not inlined, and its call is most of the push.)
    #[inline(always)]
    pub(crate) fn push_value(&mut self, v: Value) {
        let len = self.stack.len();
        if len == self.stack.capacity() {
            self.stack.reserve(1);
        }
        // SAFETY: there is room for one more value at `len` (reserved
        // above); it is written before the length counts it.
        unsafe {
            self.stack.as_mut_ptr().add(len).write(v);
            self.stack.set_len(len + 1);
        }
    }

    pub(crate) fn pop_frame(&mut self, bp: usize) {
        self.stack.truncate(bp);
        self.pending_recur = false;
    }
}
