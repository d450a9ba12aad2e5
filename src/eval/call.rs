//! Calls of function values: closures (frames on the value stack), builtins
//! (arity, ticks, hidden-data marks), keywords, maps, sets and vectors.

use super::*;

impl Interp {
    /// Calls any callable value: functions, keywords (`(:k m)`), maps
    /// (`(m :k)`) and sets (`(s x)`).
    #[inline]
    pub fn call(&mut self, f: &Value, args: &[Value]) -> Result<Value> {
        match f.as_closure() {
            Some(c) => self.enter_closure(c, Args::Borrowed(args)),
            None => self.call_other(f, args),
        }
    }

    /// [`Interp::call`] of anything but a closure.
    pub(crate) fn call_other(&mut self, f: &Value, args: &[Value]) -> Result<Value> {
        match f {
            Value::Fn(func) => match func.kind() {
                FuncRef::Builtin(b) => self.call_builtin(b, args),
                FuncRef::Closure(c) => self.call_closure(c, args),
                FuncRef::Native(n) => match &n.body {
                    NativeCode::Reads(body) => self.run_native(|interp| body(interp, args)),
                    // Copies of what the caller keeps.
                    NativeCode::Takes(body) => self.run_native(|interp| match args {
                        [a] => body(interp, &mut [a.clone()]),
                        [a, b] => body(interp, &mut [a.clone(), b.clone()]),
                        [a, b, c] => body(interp, &mut [a.clone(), b.clone(), c.clone()]),
                        _ => body(interp, &mut args.to_vec()),
                    }),
                },
            },
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
        if self.reference {
            return self.call(f, args);
        }
        match f {
            Value::Fn(func) => match func.kind() {
                FuncRef::Builtin(b) => self.call_builtin_mut(b, args),
                FuncRef::Closure(c) => self.enter_closure(c, Args::Owned(args)),
                FuncRef::Native(n) => self.call_native_mut(&n.body, args),
            },
            _ => self.call_other(f, args),
        }
    }

    /// A native closure called with arguments it may take (out of line:
    /// inlined, it made `call_mut` too large to inline where it is hot).
    #[inline(never)]
    fn call_native_mut(&mut self, code: &NativeCode, args: &mut [Value]) -> Result<Value> {
        match code {
            NativeCode::Reads(body) => self.run_native(|interp| body(interp, args)),
            NativeCode::Takes(body) => self.run_native(|interp| body(interp, args)),
        }
    }

    /// A native closure's body, run as a call: one step and one level of
    /// depth.
    #[inline]
    fn run_native(&mut self, body: impl FnOnce(&mut Interp) -> Result<Value>) -> Result<Value> {
        self.budget.tick(1)?;
        self.budget.enter()?;
        let r = body(self);
        self.budget.leave();
        r
    }

    /// [`Interp::call_mut`] of one value (`update`'s old value): a closure
    /// of one fixed arity gets it pushed as its frame, with no array left
    /// to drop; anything else as `call_mut`.
    pub(crate) fn call_mut1(&mut self, f: &Value, a: Value) -> Result<Value> {
        if self.reference {
            return self.call(f, &[a]);
        }
        // All three kinds told apart here (a builtin called as `call_mut`
        // would): a test for closures alone compiles to more instructions.
        if let Value::Fn(func) = f {
            match func.kind() {
                FuncRef::Closure(c) => {
                    if let [only] = c.proto.arities.as_slice() {
                        if !only.variadic && only.fixed == 1 {
                            self.budget.tick_enter()?;
                            let bp = self.stack.len();
                            self.push_value(a);
                            return self.finish_call(c, only, bp);
                        }
                    }
                }
                FuncRef::Builtin(b) => return self.call_builtin_mut(b, &mut [a]),
                FuncRef::Native(_) => {}
            }
        }
        self.call_mut(f, &mut [a])
    }

    /// [`Interp::call_builtin`] for arguments the builtin may take.
    pub(crate) fn call_builtin_mut(
        &mut self,
        b: &'static Builtin,
        args: &mut [Value],
    ) -> Result<Value> {
        if realise::lazy_path(b, args) {
            return self.call_builtin_may_end(b, args);
        }
        if !b.arity.accepts(args.len()) {
            return Err(builtin_arity_error(b, args.len()));
        }
        self.run_builtin(b, args)
    }

    /// [`Interp::call_builtin_mut`] of a call whose number of arguments
    /// `b` accepts (compiled code checks it once, when it is compiled): the
    /// same steps, marks and result.
    #[inline]
    pub(crate) fn call_builtin_accepted(
        &mut self,
        b: &'static Builtin,
        args: &mut [Value],
    ) -> Result<Value> {
        debug_assert!(b.arity.accepts(args.len()));
        if realise::lazy_path(b, args) {
            return self.call_builtin_may_end(b, args);
        }
        self.run_builtin(b, args)
    }

    /// Calls a builtin after checking its arity (a `lazy-seq` among the
    /// arguments: `realise.rs`).
    #[inline]
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
        self.run_plain(b, args)
    }

    /// A builtin call whose arguments are checked: its step, then the
    /// builtin (through its owning entry when it has one), its result
    /// marked when hidden data is about.
    #[inline(always)]
    fn run_builtin(&mut self, b: &'static Builtin, args: &mut [Value]) -> Result<Value> {
        let Some(owned) = b.owned.filter(|_| !self.reference) else {
            return self.run_plain(b, args);
        };
        self.budget.tick(1)?;
        if self.hidden.active() {
            let seen = self.hidden_args(b, args);
            let r = owned(self, args);
            return self.mark_hidden_result(b, args, seen, r);
        }
        owned(self, args)
    }

    /// [`Interp::run_builtin`] through the plain entry: the step settles
    /// the meter first (`Budget::tick_settled`).
    #[inline(always)]
    fn run_plain(&mut self, b: &'static Builtin, args: &[Value]) -> Result<Value> {
        self.budget.tick_settled(1)?;
        if self.hidden.active() {
            let seen = self.hidden_args(b, args);
            let r = (b.f)(self, args);
            return self.mark_hidden_result(b, args, seen, r);
        }
        (b.f)(self, args)
    }

    pub(crate) fn call_closure(&mut self, c: &ClosureFn, args: &[Value]) -> Result<Value> {
        self.enter_closure(c, Args::Borrowed(args))
    }

    /// Calls closure `c`: its frame pushed on the value stack (the
    /// arguments moved or copied into it), its body run, the frame dropped.
    pub(crate) fn enter_closure(&mut self, c: &ClosureFn, args: Args) -> Result<Value> {
        let arity = match c.proto.arities.as_slice() {
            [only] if !only.variadic && only.fixed == args.len() => only,
            _ => return self.enter_other_arity(c, args),
        };
        self.budget.tick_enter()?;
        let bp = self.stack.len();
        match args {
            Args::Borrowed(a) => self.stack.extend_from_slice(a),
            // One or two arguments (most calls): pushed as they are, not
            // through the iterator's reserve-and-fill.
            Args::Owned([a]) => self.push_value(Value::take(a)),
            Args::Owned([a, b]) => {
                self.push_value(Value::take(a));
                self.push_value(Value::take(b));
            }
            Args::Owned(a) => self.stack.extend(a.iter_mut().map(Value::take)),
        }
        self.finish_call(c, arity, bp)
    }

    /// [`Interp::enter_closure`] of arguments already on the stack above
    /// `bp` (the frame's start): a closure of one fixed arity runs in
    /// place; any other gets them as a list.
    #[inline(always)]
    pub(crate) fn enter_pushed(&mut self, c: &ClosureFn, bp: usize) -> Result<Value> {
        let n = self.stack.len() - bp;
        let arity = match c.proto.arities.as_slice() {
            [only] if !only.variadic && only.fixed == n => only,
            _ => return self.enter_pushed_other(c, bp),
        };
        if let Err(e) = self.budget.tick_enter() {
            self.drop_frame(bp);
            return Err(e);
        }
        self.finish_call(c, arity, bp)
    }

    /// [`Interp::enter_pushed`] out of line: for a call site that keeps its
    /// own code small (another function's call; a function's call of
    /// itself has the body inline).
    #[inline(never)]
    pub(crate) fn enter_pushed_apart(&mut self, c: &ClosureFn, bp: usize) -> Result<Value> {
        self.enter_pushed(c, bp)
    }

    /// [`Interp::enter_pushed`] of another arity: the arguments taken off
    /// the stack and passed as [`Interp::enter_closure`] takes them.
    #[cold]
    #[inline(never)]
    fn enter_pushed_other(&mut self, c: &ClosureFn, bp: usize) -> Result<Value> {
        let mut args: Vec<Value> = self.stack.drain(bp..).collect();
        self.enter_closure(c, Args::Owned(&mut args))
    }

    /// [`Interp::enter_closure`] of a closure of several arities, or a
    /// variadic one: the arity for `args` found, the rest packed.
    #[inline(never)]
    fn enter_other_arity(&mut self, c: &ClosureFn, args: Args) -> Result<Value> {
        let Some(arity) = c.proto.arity_for(args.len()) else {
            return Err(closure_arity_error(c, args.len()));
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
                self.stack.extend(head.iter_mut().map(Value::take));
                if arity.variadic {
                    self.stack.push(if rest.is_empty() {
                        Value::Nil
                    } else {
                        Value::vector_from(rest.iter_mut().map(Value::take))
                    });
                }
            }
        }
        self.finish_call(c, arity, bp)
    }

    /// The rest of a call whose arguments are in the frame at `bp`: the
    /// body, the frame dropped, the depth given back, the return recorded
    /// (a `defn`'s) or the error given the closure's source.
    #[inline(always)]
    fn finish_call(&mut self, c: &ClosureFn, arity: &FnArity, bp: usize) -> Result<Value> {
        let result = self.run_fn_body(c, arity, bp);
        self.drop_frame(bp);
        self.budget.leave();
        match &result {
            Ok(v) => {
                if let Some(id) = c.proto.global {
                    self.record_return(id, v);
                }
                result
            }
            Err(_) => result.map_err(|e| e.or_source(&c.proto.source)),
        }
    }

    /// Drops the stack above `bp`, scalars without a call each.
    #[inline(always)]
    pub(crate) fn drop_frame(&mut self, bp: usize) {
        while self.stack.len() > bp {
            if let Some(v) = self.stack.pop() {
                Value::release(v);
            }
        }
    }

    #[inline(always)]
    pub(crate) fn record_return(&mut self, id: GlobalId, v: &Value) {
        match (self.fn_returns.get_mut(id as usize), v) {
            // An integer over an integer (`fib`): written in place, without
            // the out-of-line drop and clone.
            (Some(Some(Returned::Value(Value::Int(old)))), &Value::Int(n)) => *old = n,
            (Some(slot), _) => *slot = Some(Returned::of(v)),
            (None, _) => self.record_first_return(id, v),
        }
    }

    #[cold]
    fn record_first_return(&mut self, id: GlobalId, v: &Value) {
        self.fn_returns.resize(id as usize + 1, None);
        self.fn_returns[id as usize] = Some(Returned::of(v));
    }

    /// What is kept of the value a `defn` function returned from its last
    /// successful call (`value/returned.rs`).
    pub(crate) fn last_return(&self, id: GlobalId) -> Option<&Returned> {
        self.fn_returns.get(id as usize).and_then(Option::as_ref)
    }

    #[inline(always)]
    pub(crate) fn run_fn_body(
        &mut self,
        c: &ClosureFn,
        arity: &FnArity,
        bp: usize,
    ) -> Result<Value> {
        let locals = bp + arity.frame_size;
        if self.stack.len() < locals {
            self.stack.resize_with(locals, || Value::Nil);
        }
        let frame = Frame {
            bp,
            closure: Some(c),
        };
        if self.reference {
            return self.walk_fn_body(arity, frame);
        }
        self.run_body(super::compile::fn_body(arity), arity, frame)
    }

    /// The reference run's function body (`reference.rs`): its prologue
    /// and body walked, again after each `recur` back to it.
    #[cold]
    #[inline(never)]
    fn walk_fn_body(&mut self, arity: &FnArity, frame: Frame) -> Result<Value> {
        self.walk_repeating(&arity.prologue, &arity.body, frame)
    }

    /// The reference run's `loop` (`reference.rs`): its bindings, then its
    /// prologue and body walked, again after each `recur`.
    #[cold]
    #[inline(never)]
    pub(crate) fn walk_loop(
        &mut self,
        l: &crate::analyze::expr::Loop,
        frame: Frame,
    ) -> Result<Value> {
        // A loop starts with the meter settled (as the compiled loop).
        self.budget.tick_settled(0)?;
        self.run_binds(&l.inits, frame)?;
        self.walk_repeating(&l.prologue, &l.body, frame)
    }

    /// `prologue` then `body` walked, again after each `recur` back to
    /// them, a step each (as the compiled code: EVAL-STEPS-1).
    fn walk_repeating(
        &mut self,
        prologue: &[crate::analyze::expr::Bind],
        body: &crate::analyze::expr::Expr,
        frame: Frame,
    ) -> Result<Value> {
        loop {
            self.run_binds(prologue, frame)?;
            let v = self.eval(body, frame)?;
            if !std::mem::take(&mut self.pending_recur) {
                return Ok(v);
            }
            self.budget.tick(1)?;
        }
    }

    /// Runs `arity`'s compiled body in `frame`: once, or, when it has a
    /// `recur` back to itself, again each time it ends in one (a step
    /// each).
    #[inline(always)]
    pub(crate) fn run_body(
        &mut self,
        code: &Compiled,
        arity: &FnArity,
        frame: Frame,
    ) -> Result<Value> {
        if !arity.recurs {
            return code.run(self, frame);
        }
        code.run_repeating(self, frame)
    }
}

#[cold]
fn closure_arity_error(c: &Closure, got: usize) -> Error {
    let arities = c.proto.describe_arities();
    let noun = if arities == "1" {
        "argument"
    } else {
        "arguments"
    };
    Error::arity(format!("{} expects {arities} {noun}, got {got}", c.name()))
}

#[cold]
pub(crate) fn builtin_arity_error(b: &Builtin, got: usize) -> Error {
    Error::arity(format!(
        "{} expects {}, got {}",
        b.name,
        b.arity.describe(),
        got
    ))
}

pub(crate) fn not_a_function_hint(v: &Value) -> String {
    match v {
        Value::Str(_) => "a string is not a function; to call a tool write (tool/name args)".into(),
        Value::Nil => "the function position evaluated to nil; is the name defined?".into(),
        Value::Vector(_) => "a vector is not a function here; use (nth v i) or (get v i)".into(),
        _ => "only functions, keywords, maps and sets can be called".into(),
    }
}
