//! The evaluator: runs resolved [`Expr`] trees against an [`Interp`].
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
mod comprehension;
pub mod globals;
pub mod guard;
pub mod hidden;
mod hidden_calls;
pub mod host;
pub mod iter;
mod leaving;
pub(crate) mod outside;
mod print;
mod realise;
pub mod stack;

use std::sync::Arc;

use crate::analyze::expr::{ArithOp, Bind, Case, Expr, FnArity, FnProto, GlobalId, Slot};
use crate::builtins::Builtin;
use crate::error::{Error, Result};
use crate::value::{Func, Map, Value, Vector};

pub use budget::{Budget, Limits};
pub use globals::{Definition, Globals};
pub use host::{CannedTool, Host, StaticHost};
pub use stack::run_on_big_stack;

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
}

/// A call's arguments: borrowed (copied into the frame) or owned (moved).
enum Args<'a> {
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

/// Takes a value out, leaving nil.
fn take(v: &mut Value) -> Value {
    std::mem::replace(v, Value::Nil)
}

/// Where the current function's locals and captures are.
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    bp: usize,
    closure: Option<&'a Arc<Closure>>,
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
    pub(crate) fn_returns: Vec<Option<Value>>,
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
    stack: Vec<Value>,
    /// A `recur` has rebound its slots: the enclosing loop or function
    /// body runs again.
    pending_recur: bool,
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
            stack: Vec::new(),
            pending_recur: false,
        }
    }

    /// An interpreter with no data, no tools and default limits.
    pub fn standalone() -> Interp {
        Interp::new(Box::new(StaticHost::default()), Limits::default())
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

    /// Calls any callable value: functions, keywords (`(:k m)`), maps
    /// (`(m :k)`) and sets (`(s x)`).
    #[inline]
    pub fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value> {
        match f {
            Value::Fn(Func::Closure(c)) => self.enter_closure(c, Args::Borrowed(args)),
            _ => self.call_other(f, args),
        }
    }

    /// [`Interp::call`] of anything but a closure.
    fn call_other(&mut self, f: &Value, args: &[Value]) -> Result<Value> {
        match f {
            Value::Fn(Func::Builtin(b)) => self.call_builtin(b, args),
            Value::Fn(Func::Closure(c)) => self.call_closure(c, args),
            Value::Fn(Func::Native(n)) => {
                self.budget.tick(1)?;
                self.budget.enter()?;
                let r = (n.body)(self, args);
                self.budget.leave();
                r
            }
            Value::Keyword(_) => match args {
                [m] => Ok(lookup(m, f).unwrap_or(Value::Nil)),
                [m, default] => Ok(lookup(m, f).unwrap_or_else(|| default.clone())),
                _ => Err(Error::arity(format!(
                    "keyword {} called as a function expects 1 or 2 arguments (a map and an optional default), got {}",
                    crate::format::to_clojure(f, None, Some(200)).0,
                    args.len()
                ))),
            },
            Value::Map(m) => match args {
                [k] => Ok(lookup_in_map(m, k).unwrap_or(Value::Nil)),
                [k, default] => Ok(lookup_in_map(m, k).unwrap_or_else(|| default.clone())),
                _ => Err(Error::arity(format!(
                    "a map called as a function expects 1 or 2 arguments (a key and an optional default), got {}",
                    args.len()
                ))),
            },
            Value::Symbol(_) => match args {
                [m] => Ok(lookup(m, f).unwrap_or(Value::Nil)),
                [m, default] => Ok(lookup(m, f).unwrap_or_else(|| default.clone())),
                _ => Err(Error::arity(format!(
                    "a symbol called as a function expects 1 or 2 arguments (a map and an optional default), got {}",
                    args.len()
                ))),
            },
            Value::Vector(v) => match args {
                [Value::Int(i)] => Ok(usize::try_from(*i).ok().and_then(|i| v.get(i)).cloned().unwrap_or(Value::Nil)),
                [other] => Err(Error::type_error(format!(
                    "a vector called as a function expects an integer index, got {}",
                    other.describe()
                ))),
                _ => Err(Error::arity(format!(
                    "a vector called as a function expects 1 argument (an index), got {}",
                    args.len()
                ))),
            },
            Value::Set(s) => match args {
                [x] => Ok(if s.contains(x) { x.clone() } else { Value::Nil }),
                _ => Err(Error::arity(format!(
                    "a set called as a function expects 1 argument, got {}",
                    args.len()
                ))),
            },
            other => Err(Error::type_error(format!(
                "cannot call {} as a function",
                other.describe()
            ))
            .with_hint(not_a_function_hint(other))),
        }
    }

    /// Like [`Interp::call`], but the callee may take the arguments' values
    /// (the caller will not read `args` again).
    pub(crate) fn call_mut(&mut self, f: &Value, args: &mut [Value]) -> Result<Value> {
        match f {
            Value::Fn(Func::Builtin(b)) => self.call_builtin_mut(b, args),
            Value::Fn(Func::Closure(c)) => self.enter_closure(c, Args::Owned(args)),
            _ => self.call(f, args),
        }
    }

    /// [`Interp::call_builtin`] for arguments the builtin may take.
    pub(crate) fn call_builtin_mut(
        &mut self,
        b: &'static Builtin,
        args: &mut [Value],
    ) -> Result<Value> {
        match b.owned {
            Some(_) if realise::lazy_path(b, args) => self.call_builtin(b, args),
            Some(owned) => {
                if !b.arity.accepts(args.len()) {
                    return Err(builtin_arity_error(b, args.len()));
                }
                self.budget.tick(1)?;
                if self.hidden.active() {
                    let seen = self.hidden_args(b, args);
                    let r = owned(self, args);
                    return self.mark_hidden_result(b, args, seen, r);
                }
                owned(self, args)
            }
            None => self.call_builtin(b, args),
        }
    }

    /// Calls a builtin after checking its arity (a `lazy-seq` among the
    /// arguments: `realise.rs`).
    pub(crate) fn call_builtin(&mut self, b: &'static Builtin, args: &[Value]) -> Result<Value> {
        if realise::lazy_path(b, args) {
            return self.call_builtin_may_end(b, args);
        }
        self.call_builtin_plain(b, args)
    }

    /// [`Interp::call_builtin`] without the `lazy-seq` handling.
    pub(crate) fn call_builtin_plain(
        &mut self,
        b: &'static Builtin,
        args: &[Value],
    ) -> Result<Value> {
        if !b.arity.accepts(args.len()) {
            return Err(builtin_arity_error(b, args.len()));
        }
        self.budget.tick_settled(1)?;
        if self.hidden.active() {
            let seen = self.hidden_args(b, args);
            let r = (b.f)(self, args);
            return self.mark_hidden_result(b, args, seen, r);
        }
        (b.f)(self, args)
    }

    pub(crate) fn call_closure(&mut self, c: &Arc<Closure>, args: &[Value]) -> Result<Value> {
        self.enter_closure(c, Args::Borrowed(args))
    }

    fn enter_closure(&mut self, c: &Arc<Closure>, args: Args) -> Result<Value> {
        let arity = match c.proto.arities.as_slice() {
            [only] if !only.variadic && only.fixed == args.len() => Some(only),
            _ => c.proto.arity_for(args.len()),
        };
        let Some(arity) = arity else {
            return Err(Error::arity(format!(
                "{} expects {} {}, got {}",
                c.name(),
                c.proto.describe_arities(),
                if c.proto.describe_arities() == "1" {
                    "argument"
                } else {
                    "arguments"
                },
                args.len()
            )));
        };
        self.budget.tick(1)?;
        self.budget.enter()?;
        let bp = self.stack.len();
        let fixed = arity.fixed;
        match args {
            Args::Borrowed(a) => {
                self.stack.extend_from_slice(&a[..fixed]);
                if arity.variadic {
                    let rest = &a[fixed..];
                    self.stack.push(if rest.is_empty() {
                        Value::Nil
                    } else {
                        Value::vector_from(rest.iter().cloned())
                    });
                }
            }
            Args::Owned(a) => {
                let (head, rest) = a.split_at_mut(fixed);
                self.stack.extend(head.iter_mut().map(take));
                if arity.variadic {
                    self.stack.push(if rest.is_empty() {
                        Value::Nil
                    } else {
                        Value::vector_from(rest.iter_mut().map(take))
                    });
                }
            }
        }
        let result = self.run_fn_body(c, arity, bp);
        self.stack.truncate(bp);
        self.budget.leave();
        if let (Some(id), Ok(v)) = (c.proto.global, &result) {
            self.record_return(id, v);
        }
        result.map_err(|e| e.or_source(&c.proto.source))
    }

    fn record_return(&mut self, id: GlobalId, v: &Value) {
        let i = id as usize;
        if i >= self.fn_returns.len() {
            self.fn_returns.resize(i + 1, None);
        }
        self.fn_returns[i] = Some(v.clone());
    }

    /// The value a `defn` function returned from its last successful call.
    pub(crate) fn last_return(&self, id: GlobalId) -> Option<&Value> {
        self.fn_returns.get(id as usize).and_then(Option::as_ref)
    }

    fn run_fn_body(&mut self, c: &Arc<Closure>, arity: &FnArity, bp: usize) -> Result<Value> {
        let locals = bp + arity.frame_size;
        self.stack.reserve(locals.saturating_sub(self.stack.len()));
        while self.stack.len() < locals {
            self.stack.push(Value::Nil);
        }
        let frame = Frame {
            bp,
            closure: Some(c),
        };
        loop {
            if !arity.prologue.is_empty() {
                self.run_binds(&arity.prologue, frame)?;
            }
            let v = self.eval(&arity.body, frame)?;
            if !std::mem::take(&mut self.pending_recur) {
                return Ok(v);
            }
            self.budget.tick(1)?;
        }
    }

    fn run_binds(&mut self, binds: &[Bind], frame: Frame) -> Result<()> {
        for b in binds {
            let v = self.eval(&b.value, frame)?;
            self.stack[frame.bp + b.slot as usize] = v;
        }
        Ok(())
    }

    #[inline]
    fn local(&self, frame: Frame, slot: Slot) -> &Value {
        &self.stack[frame.bp + slot as usize]
    }

    /// Makes room for a top-level form's locals; returns its frame base.
    pub(crate) fn push_top_frame(&mut self, size: usize) -> usize {
        let bp = self.stack.len();
        self.stack.resize(bp + size, Value::Nil);
        bp
    }

    pub(crate) fn pop_frame(&mut self, bp: usize) {
        self.stack.truncate(bp);
        self.pending_recur = false;
    }

    /// Evaluates one expression.
    pub(crate) fn eval(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::Const(v) => Ok(v.clone()),
            Expr::Local(s) => Ok(self.local(frame, *s).clone()),
            Expr::MoveLocal(s) => Ok(std::mem::replace(
                &mut self.stack[frame.bp + *s as usize],
                Value::Nil,
            )),
            Expr::Capture(i) => match frame.closure {
                Some(c) => Ok(c.captures[*i as usize].clone()),
                None => Err(Error::internal("capture outside a closure")),
            },
            Expr::Global(id) => match self.globals.get(*id) {
                Some(d) => Ok(d.value.clone()),
                None => Err(Error::undefined(format!(
                    "{} is declared but has no value yet",
                    self.globals.name(*id)
                ))),
            },
            Expr::Builtin(b) => Ok(Value::Fn(Func::Builtin(b))),
            Expr::If(b) => {
                let (c, t, f) = &**b;
                if self.eval_test(c, frame)? {
                    self.eval(t, frame)
                } else {
                    self.eval(f, frame)
                }
            }
            Expr::Do(body) => self.eval_body(body, frame),
            Expr::And(items) => {
                let mut last = Value::Bool(true);
                for item in items {
                    last = self.eval(item, frame)?;
                    if !last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            Expr::Or(items) => {
                let mut last = Value::Nil;
                for item in items {
                    last = self.eval(item, frame)?;
                    if last.truthy() {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            Expr::Let(binds, body) => {
                self.run_binds(binds, frame)?;
                self.eval(body, frame)
            }
            Expr::Loop(l) => {
                self.run_binds(&l.inits, frame)?;
                loop {
                    if !l.prologue.is_empty() {
                        self.run_binds(&l.prologue, frame)?;
                    }
                    let v = self.eval(&l.body, frame)?;
                    if !std::mem::take(&mut self.pending_recur) {
                        return Ok(v);
                    }
                    self.budget.tick(1)?;
                }
            }
            Expr::Recur(r) => {
                // Every argument is evaluated before any slot is rebound
                // (they may read the old values).
                match (r.args.as_slice(), &r.slots[..]) {
                    ([a], [sa]) => {
                        let va = self.eval_leaf(a, frame)?;
                        self.stack[frame.bp + *sa as usize] = va;
                    }
                    ([a, b], [sa, sb]) => {
                        let va = self.eval_leaf(a, frame)?;
                        let vb = self.eval_leaf(b, frame)?;
                        self.stack[frame.bp + *sa as usize] = va;
                        self.stack[frame.bp + *sb as usize] = vb;
                    }
                    (args, slots) => {
                        let values = self.eval_args(args, frame)?;
                        for (v, slot) in values.into_iter().zip(slots) {
                            self.stack[frame.bp + *slot as usize] = v;
                        }
                    }
                }
                self.pending_recur = true;
                Ok(Value::Nil)
            }
            Expr::Call(call) => self.eval_call(call, frame),
            Expr::CallBuiltin(b, args, span) => self.eval_call_builtin(b, args, *span, frame),
            Expr::Arith2(op, args, b, span) => {
                let x = self.eval_leaf(&args.0, frame)?;
                let y = self.eval_leaf(&args.1, frame)?;
                let fast = match (&x, &y) {
                    (Value::Int(a), Value::Int(c)) => op.ints(*a, *c),
                    (Value::Float(a), Value::Float(c)) => op.floats(*a, *c),
                    _ => None,
                };
                match fast {
                    Some(v) => {
                        if self.hidden.active() {
                            self.mark_hidden_arith(&[&x, &y], &v);
                        }
                        // Numbers own nothing: skip the out-of-line drops.
                        std::mem::forget(x);
                        std::mem::forget(y);
                        self.budget.tick(1)?;
                        Ok(v)
                    }
                    // `(= (:status o) "paid")`: equal texts, no NaN to mind.
                    None if *op == ArithOp::Eq && text_pair(&x, &y) => {
                        self.budget.tick(1)?;
                        Ok(Value::Bool(x == y))
                    }
                    None => self.call_builtin(b, &[x, y]).map_err(|e| e.or_span(*span)),
                }
            }
            Expr::Step(step, x, b, span) => {
                let x = self.eval_leaf(x, frame)?;
                if let Value::Int(i) = x {
                    if let Some(n) = i.checked_add(*step) {
                        if self.hidden.active() {
                            self.mark_hidden_arith(&[&x], &Value::Int(n));
                        }
                        std::mem::forget(x);
                        self.budget.tick(1)?;
                        return Ok(Value::Int(n));
                    }
                }
                self.call_builtin(b, &[x]).map_err(|e| e.or_span(*span))
            }
            Expr::Get(mk) => {
                let m = self.eval_leaf(&mk.0, frame)?;
                let k = self.eval_leaf(&mk.1, frame)?;
                self.budget.tick(1)?;
                Ok(lookup(&m, &k).unwrap_or(Value::Nil))
            }
            _ => self.eval_rest(e, frame),
        }
    }

    /// A call of a computed function (closures, keywords, maps …). Kept
    /// out of [`Interp::eval`]: its argument arrays would make every
    /// evaluation pay for a bigger stack frame.
    #[inline(never)]
    fn eval_call(&mut self, call: &crate::analyze::expr::Call, frame: Frame) -> Result<Value> {
        let f = self.eval_leaf(&call.f, frame)?;
        self.with_args(&call.args, frame, |this, args| this.call_mut(&f, args))
            .map_err(|e| e.or_span(call.span))
    }

    /// A call of a builtin resolved at analysis (see [`Interp::eval_call`]).
    #[inline(never)]
    fn eval_call_builtin(
        &mut self,
        b: &'static Builtin,
        args: &[Expr],
        span: crate::error::Span,
        frame: Frame,
    ) -> Result<Value> {
        self.with_args(args, frame, |this, args| this.call_builtin_mut(b, args))
            .map_err(|e| e.or_span(span))
    }

    /// The truth of a condition; a comparison of two integer locals or
    /// constants (`(< i n)`) is decided here, without building its boolean.
    #[inline(always)]
    fn eval_test(&mut self, c: &Expr, frame: Frame) -> Result<bool> {
        if let Expr::Arith2(op, args, _, _) = c {
            let y = match &args.1 {
                Expr::Local(y) => Some(self.local(frame, *y)),
                Expr::Const(v) => Some(v),
                _ => None,
            };
            if let (Expr::Local(x), Some(y)) = (&args.0, y) {
                if let (Value::Int(a), Value::Int(b)) = (self.local(frame, *x), y) {
                    let truth = op.test_ints(*a, *b);
                    if let Some(truth) = truth {
                        self.budget.tick(1)?;
                        return Ok(truth);
                    }
                }
            }
        }
        Ok(self.eval(c, frame)?.truthy())
    }

    /// [`Interp::eval`] with locals and constants read inline (no call):
    /// most operands are one or the other.
    #[inline(always)]
    fn eval_leaf(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::Local(s) => Ok(self.local(frame, *s).clone()),
            Expr::Const(v) => Ok(v.clone()),
            _ => self.eval(e, frame),
        }
    }

    /// The expressions that are not on the hot path of loops and calls,
    /// kept out of [`Interp::eval`] so its stack frame stays small.
    #[inline(never)]
    fn eval_rest(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::SelfFn => match frame.closure {
                Some(c) => Ok(Value::Fn(Func::Closure(c.clone()))),
                None => Err(Error::internal("self reference outside a closure")),
            },
            Expr::Sibling(i) => {
                let group = frame
                    .closure
                    .and_then(|c| c.group.clone())
                    .ok_or_else(|| Error::internal("letfn sibling outside its group"))?;
                let (proto, captures) = &group.members[*i as usize];
                Ok(Value::Fn(Func::Closure(Arc::new(Closure {
                    proto: proto.clone(),
                    captures: captures.clone(),
                    group: Some(group.clone()),
                }))))
            }
            Expr::Data(name, span) => {
                let v = self.data(name).map_err(|e| e.or_span(*span))?;
                if name.starts_with('_') {
                    self.hidden.mark_hidden_data(&v);
                }
                Ok(v)
            }
            Expr::TurnHistory(n) => {
                let n = *n as usize;
                let len = self.turn_history.len();
                Ok(if n <= len {
                    self.turn_history[len - n].clone()
                } else {
                    Value::Nil
                })
            }
            Expr::Vector(items) => {
                let mut v = Vector::with_capacity(items.len());
                for item in items {
                    v.push_back(self.eval(item, frame)?);
                }
                self.budget.alloc(16 * items.len() as u64 + 32)?;
                Ok(Value::vector(v))
            }
            Expr::Record(r) => {
                let mut entries = r.template.clone();
                for (i, e) in &r.values {
                    entries[*i].1 = self.eval(e, frame)?;
                }
                self.budget.alloc(48 * entries.len() as u64 + 32)?;
                Ok(Value::Map(Map::from_distinct(entries)))
            }
            Expr::Map(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    let k = self.eval(k, frame)?;
                    let v = self.eval(v, frame)?;
                    if m.contains_key(&k) {
                        return Err(duplicate_key(&k, "map"));
                    }
                    m.insert(k, v);
                }
                self.budget.alloc(48 * entries.len() as u64 + 32)?;
                Ok(Value::Map(m))
            }
            Expr::Set(items) => {
                let mut s = crate::value::Set::new();
                for item in items {
                    let x = self.eval(item, frame)?;
                    if s.contains(&x) {
                        return Err(duplicate_key(&x, "set"));
                    }
                    s.insert(x);
                }
                self.budget.alloc(32 * items.len() as u64 + 32)?;
                Ok(Value::Set(s))
            }
            Expr::MakeFn(proto, captures) => {
                let mut caps = Vec::with_capacity(captures.len());
                for c in captures {
                    caps.push(self.eval(c, frame)?);
                }
                self.budget.alloc(64 + 24 * caps.len() as u64)?;
                Ok(Value::Fn(Func::Closure(Arc::new(Closure {
                    proto: proto.clone(),
                    captures: caps,
                    group: None,
                }))))
            }
            Expr::Letfn(l) => {
                let mut members = Vec::with_capacity(l.fns.len());
                for (proto, captures) in &l.fns {
                    let mut caps = Vec::with_capacity(captures.len());
                    for c in captures {
                        caps.push(self.eval(c, frame)?);
                    }
                    members.push((proto.clone(), caps));
                }
                let group = Arc::new(LetfnGroup { members });
                for (i, slot) in l.slots.iter().enumerate() {
                    let (proto, captures) = &group.members[i];
                    self.stack[frame.bp + *slot as usize] =
                        Value::Fn(Func::Closure(Arc::new(Closure {
                            proto: proto.clone(),
                            captures: captures.clone(),
                            group: Some(group.clone()),
                        })));
                }
                self.eval(&l.body, frame)
            }
            Expr::Def(d) => {
                let value = self.eval(&d.value, frame)?;
                // A (re)definition forgets the return value of the function
                // it replaces (R-25: a return type only once called).
                if let Some(slot) = self.fn_returns.get_mut(d.id as usize) {
                    *slot = None;
                }
                self.globals.set(
                    d.id,
                    Definition {
                        value,
                        doc: d.doc.clone(),
                    },
                );
                self.defined.push(d.id);
                Ok(Value::Var(d.name.clone()))
            }
            Expr::CallTool(name, args, span) => {
                let args = self.eval_args(args, frame)?;
                self.call_tool(name, args).map_err(|e| e.or_span(*span))
            }
            Expr::Try(t) => {
                let result = match self.eval(&t.body, frame) {
                    Err(e) if e.kind().catchable() => {
                        match t.catches.iter().find(|c| c.class.matches(&e)) {
                            Some(c) => {
                                // `recur` cannot cross `try`, so nothing is pending.
                                self.pending_recur = false;
                                let caught = if self.hidden.active() {
                                    error_value(&self.redact_caught(e))
                                } else {
                                    error_value(&e)
                                };
                                self.stack[frame.bp + c.slot as usize] = caught;
                                self.eval(&c.body, frame)
                            }
                            None => Err(e),
                        }
                    }
                    other => other,
                };
                if let Some(fin) = &t.finally {
                    self.eval(fin, frame)?;
                }
                result
            }
            Expr::Throw(x, span) => {
                let v = self.eval(x, frame)?;
                if self.hidden.active() {
                    let e = thrown_error(v.clone());
                    return Err(self.redact_thrown(&v, e).with_span(*span));
                }
                Err(thrown_error(v).with_span(*span))
            }
            Expr::For(f) => self.eval_for(f, frame),
            Expr::Case(c) => self.eval_case(c, frame),
            Expr::Nth(slot, i, span) if self.local(frame, *slot).may_end() => {
                let v = self.local(frame, *slot).clone();
                self.lazy_seq_nth(&v, *i).map_err(|e| e.or_span(*span))
            }
            Expr::Nth(slot, i, span) => {
                destructure_nth(self.local(frame, *slot), *i).map_err(|e| e.or_span(*span))
            }
            Expr::NthRest(slot, i, span) if self.local(frame, *slot).may_end() => {
                let v = self.local(frame, *slot).clone();
                self.lazy_seq_rest(&v, *i).map_err(|e| e.or_span(*span))
            }
            Expr::NthRest(slot, i, span) => {
                destructure_rest(self.local(frame, *slot), *i).map_err(|e| e.or_span(*span))
            }
            Expr::Key(slot, key, default, _span) => {
                // A map pattern reads with `get`: on a non-map it binds nil
                // (Clojure), with the keyword/string fallback on maps.
                match (lookup(self.local(frame, *slot), key), default) {
                    (Some(v), _) => Ok(v),
                    (None, Some(d)) => self.eval(d, frame),
                    (None, None) => Ok(Value::Nil),
                }
            }
            Expr::SeqToMap(slot) => {
                let v = self.local(frame, *slot).clone();
                match v {
                    Value::Vector(items) => {
                        if items.len() == 1 {
                            if let Some(Value::Map(m)) = items.get(0) {
                                return Ok(Value::Map(m.clone()));
                            }
                        }
                        let mut m = Map::new();
                        let mut it = items.iter();
                        while let Some(k) = it.next() {
                            m.insert(k.clone(), it.next().cloned().unwrap_or(Value::Nil));
                        }
                        Ok(Value::Map(m))
                    }
                    other => Ok(other),
                }
            }
            _ => Err(Error::internal("eval_rest reached a hot-path expression")),
        }
    }

    /// Evaluates `args` and passes them to `f`; up to three arguments live
    /// in a stack array (no allocation on the common path).
    #[inline]
    fn with_args(
        &mut self,
        args: &[Expr],
        frame: Frame,
        f: impl FnOnce(&mut Self, &mut [Value]) -> Result<Value>,
    ) -> Result<Value> {
        match args {
            [] => f(self, &mut []),
            [a] => {
                let a = self.eval_leaf(a, frame)?;
                f(self, &mut [a])
            }
            [a, b] => {
                let a = self.eval_leaf(a, frame)?;
                let b = self.eval_leaf(b, frame)?;
                f(self, &mut [a, b])
            }
            [a, b, c] => {
                let a = self.eval(a, frame)?;
                let b = self.eval(b, frame)?;
                let c = self.eval(c, frame)?;
                f(self, &mut [a, b, c])
            }
            _ => {
                let mut vals = self.eval_args(args, frame)?;
                f(self, &mut vals)
            }
        }
    }

    fn eval_args(&mut self, args: &[Expr], frame: Frame) -> Result<Vec<Value>> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, frame)?);
        }
        Ok(vals)
    }

    /// Evaluates a body (implicit `do`); `nil` when empty.
    pub(crate) fn eval_body(&mut self, body: &[Expr], frame: Frame) -> Result<Value> {
        let Some((last, init)) = body.split_last() else {
            return Ok(Value::Nil);
        };
        for e in init {
            self.eval(e, frame)?;
        }
        self.eval(last, frame)
    }

    fn eval_case(&mut self, c: &Case, frame: Frame) -> Result<Value> {
        let v = self.eval(&c.value, frame)?;
        if let Some(Value::Int(i)) = c.table.get(&v) {
            return self.eval(&c.branches[*i as usize], frame);
        }
        match &c.default {
            Some(d) => self.eval(d, frame),
            None => Err(Error::execution(format!(
                "No matching clause: {}",
                crate::format::to_clojure_capped(
                    &v,
                    Some(5),
                    Some(60),
                    Some(crate::value::DESCRIBE_BYTES)
                )
                .0
            ))
            .with_class("IllegalArgumentException")
            .with_hint("add a default expression as the last argument of case")
            .with_span(c.span)),
        }
    }
}

/// Two strings, or two keywords: `=` is plain equality of their text.
fn text_pair(x: &Value, y: &Value) -> bool {
    matches!(
        (x, y),
        (Value::Str(_), Value::Str(_)) | (Value::Keyword(_), Value::Keyword(_))
    )
}

fn builtin_arity_error(b: &Builtin, got: usize) -> Error {
    Error::arity(format!(
        "{} expects {}, got {}",
        b.name,
        b.arity.describe(),
        got
    ))
}

fn not_a_function_hint(v: &Value) -> String {
    match v {
        Value::Str(_) => "a string is not a function; to call a tool write (tool/name args)".into(),
        Value::Nil => "the function position evaluated to nil; is the name defined?".into(),
        Value::Vector(_) => "a vector is not a function here; use (nth v i) or (get v i)".into(),
        _ => "only functions, keywords, maps and sets can be called".into(),
    }
}

/// Key lookup with the keyword ⇄ string fallback of `language.md`: a missing
/// keyword key falls back to the same-named string key, and the reverse.
pub fn lookup_in_map(m: &Map, k: &Value) -> Option<Value> {
    lookup_in_map_ref(m, k).cloned()
}

/// [`lookup_in_map`] by reference.
pub fn lookup_in_map_ref<'a>(m: &'a Map, k: &Value) -> Option<&'a Value> {
    m.get(k).or_else(|| match k {
        Value::Keyword(name) => m.get_str(name),
        Value::Str(name) => m.get_keyword(name),
        _ => None,
    })
}

/// `(get coll k)` for any collection: maps with fallback, vectors by index,
/// sets by membership; `nil` for anything else.
pub fn lookup(coll: &Value, k: &Value) -> Option<Value> {
    match coll {
        Value::Str(s) => match k {
            Value::Int(i) if *i >= 0 => s
                .chars()
                .nth(*i as usize)
                .map(|c| Value::string(c.to_string())),
            _ => None,
        },
        _ => lookup_ref(coll, k).cloned(),
    }
}

/// [`lookup`] by reference, for everything but strings (whose characters
/// are new values): `None` for a string.
pub fn lookup_ref<'a>(coll: &'a Value, k: &Value) -> Option<&'a Value> {
    match coll {
        Value::Map(m) => lookup_in_map_ref(m, k),
        Value::Vector(v) => match k {
            Value::Int(i) if *i >= 0 => v.get(*i as usize),
            _ => None,
        },
        Value::Set(s) => s.get(k),
        _ => None,
    }
}

fn destructure_nth(v: &Value, i: usize) -> Result<Value> {
    match v {
        Value::Vector(items) => Ok(items.get(i).cloned().unwrap_or(Value::Nil)),
        Value::Nil => Ok(Value::Nil),
        Value::Str(s) => Ok(s
            .chars()
            .nth(i)
            .map_or(Value::Nil, |c| Value::string(c.to_string()))),
        Value::Lazy(_) => Ok(iter::take_items("destructuring", v, i + 1)?
            .get(i)
            .cloned()
            .unwrap_or(Value::Nil)),
        Value::Map(_) | Value::Set(_) => Err(Error::type_error(format!(
            "cannot destructure {} with a vector pattern; vector patterns need a sequence",
            v.describe()
        ))
        .with_hint("to read keys of a map use a map pattern, e.g. {:keys [a b]}")),
        other => Err(Error::type_error(format!(
            "cannot destructure {} as a sequence",
            other.describe()
        ))),
    }
}

fn destructure_rest(v: &Value, i: usize) -> Result<Value> {
    let items = match v {
        Value::Vector(items) => (**items).clone(),
        Value::Nil => return Ok(Value::Nil),
        Value::Lazy(_) => {
            return Err(crate::builtins::args::infinite("destructuring with &"));
        }
        other => crate::builtins::args::items("destructuring", other)?,
    };
    if items.len() <= i {
        Ok(Value::Nil)
    } else {
        Ok(Value::vector(items.skip(i)))
    }
}

/// The value a `catch` binds for an error: a map with `:message`, `:kind`,
/// and `:data` when the error carries data (`ex-info`).
pub fn error_value(e: &Error) -> Value {
    let mut m = Map::new();
    let message = if e.has_message() {
        Value::string(e.message())
    } else {
        Value::Nil
    };
    m.insert(Value::keyword("message"), message);
    m.insert(Value::keyword("kind"), Value::keyword(e.kind().name()));
    if let Some(d) = e.data() {
        m.insert(Value::keyword("data"), d.clone());
    }
    if let Some(class) = e.class() {
        m.insert(Value::keyword("class"), Value::string(class));
    }
    Value::Map(m)
}

/// A map or set literal whose computed keys repeat (`{(+ 1 0) :a 1 :b}`):
/// Clojure's `IllegalArgumentException` "Duplicate key: 1" (issue 27 item
/// 11; literal keys that repeat are a parse error already).
fn duplicate_key(k: &Value, what: &str) -> Error {
    let shown =
        crate::format::to_clojure_capped(k, Some(5), Some(60), Some(crate::value::DESCRIBE_BYTES))
            .0;
    Error::execution(format!("Duplicate key: {shown}"))
        .with_class("IllegalArgumentException")
        .with_hint(format!(
            "two keys of this {what} literal evaluate to the same value; use assoc/conj to let a later one win, or make the keys distinct"
        ))
}

/// The Java exception class an error value names (`(Exception. "m")`).
fn java_class(m: &Map) -> Option<&'static str> {
    match m.get(&Value::keyword("class")) {
        Some(Value::Str(c)) => crate::builtins::classes::known(c),
        _ => None,
    }
}

/// The most bytes of a thrown non-string value shown in the error's
/// message (a self-sharing value would print forever; a message is for
/// reading, the data keeps the value).
pub const THROWN_MESSAGE_BYTES: usize = 4096;

/// The error `(throw v)` raises: an `ex-info` value keeps its message and
/// data; anything else becomes the message, printed up to
/// [`THROWN_MESSAGE_BYTES`] (the whole value stays the error's data).
pub fn thrown_error(v: Value) -> Error {
    if let Value::Map(m) = &v {
        if let Some(class) = java_class(m) {
            // `(Exception.)` has no message: the class name stands in for
            // the reader, and `ex-message` gives nil as in Clojure.
            return match m.get(&Value::keyword("message")) {
                Some(Value::Str(s)) => Error::execution(s.to_string()).with_class(class),
                _ => Error::execution(class).with_class(class).without_message(),
            };
        }
        if let Some(Value::Str(msg)) = m.get(&Value::keyword("message")) {
            let mut e = Error::execution(msg.to_string());
            if let Some(d) = m.get(&Value::keyword("data")) {
                e = e.with_data(d.clone());
            }
            if let Some(class) = java_class(m) {
                e = e.with_class(class);
            }
            return e;
        }
    }
    let text = match &v {
        Value::Str(s) => s.to_string(),
        other => crate::format::to_clojure_capped(other, None, None, Some(THROWN_MESSAGE_BYTES)).0,
    };
    Error::execution(text).with_data(v)
}
