//! The tree walker: evaluation of [`Expr`] nodes one by one (top-level
//! forms, and every node the compiler (`compile/`) leaves to it).

use std::sync::Arc;

use super::lookup::{destructure_nth, destructure_rest};
use super::*;
use crate::value::{cost, Text};

impl Interp {
    /// Evaluates one expression.
    pub(crate) fn eval(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::Const(v) => Ok(v.clone()),
            Expr::Local(s) | Expr::MoveLocalLate(s) => Ok(self.local(frame, *s).clone()),
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
            Expr::Builtin(b) => Ok(Value::Fn(Func::builtin(b))),
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
            Expr::Loop(l) if self.reference => self.walk_loop(l, frame),
            Expr::Loop(l) => super::compile::loop_code(l).run(self, frame),
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
                super::compile::arith2(self, *op, x, y, b, *span)
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
    pub(crate) fn eval_call(
        &mut self,
        call: &crate::analyze::expr::Call,
        frame: Frame,
    ) -> Result<Value> {
        let f = self.eval_leaf(&call.f, frame)?;
        self.with_args(&call.args, frame, |this, args| this.call_mut(&f, args))
            .map_err(|e| e.or_span(call.span))
    }

    /// A call of a builtin resolved at analysis (see [`Interp::eval_call`]).
    #[inline(never)]
    pub(crate) fn eval_call_builtin(
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
    pub(crate) fn eval_test(&mut self, c: &Expr, frame: Frame) -> Result<bool> {
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
    pub(crate) fn eval_leaf(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::Local(s) => Ok(self.local(frame, *s).clone()),
            Expr::Const(v) => Ok(v.clone()),
            _ => self.eval(e, frame),
        }
    }

    /// The expressions that are not on the hot path of loops and calls,
    /// kept out of [`Interp::eval`] so its stack frame stays small.
    #[inline(never)]
    pub(crate) fn eval_rest(&mut self, e: &Expr, frame: Frame) -> Result<Value> {
        match e {
            Expr::SelfFn => match frame.closure {
                Some(c) => Ok(c.to_value()),
                None => Err(Error::internal("self reference outside a closure")),
            },
            Expr::Sibling(i) => {
                let group = frame
                    .closure
                    .and_then(|c| c.group.clone())
                    .ok_or_else(|| Error::internal("letfn sibling outside its group"))?;
                let (proto, captures) = &group.members[*i as usize];
                Ok(Value::Fn(Func::closure(Arc::new(Closure {
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
                self.budget.alloc(cost::vector_bytes(items.len()))?;
                Ok(Value::vector(v))
            }
            Expr::Record(r) => {
                super::compile::build_record(self, r, &r.values, |it, e| it.eval(e, frame))
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
                self.budget.alloc(cost::map_bytes(entries.len()))?;
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
                self.budget.alloc(cost::set_bytes(items.len()))?;
                Ok(Value::Set(s))
            }
            Expr::MakeFn(proto, captures) => {
                let mut caps = Vec::with_capacity(captures.len());
                for c in captures {
                    caps.push(self.eval(c, frame)?);
                }
                self.budget.alloc(cost::closure_bytes(caps.len()))?;
                Ok(Value::Fn(Func::closure(Arc::new(Closure {
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
                    // The group's captures, and the closure's copy of them.
                    self.budget.alloc(2 * cost::closure_bytes(caps.len()))?;
                    members.push((proto.clone(), caps));
                }
                let group = Arc::new(LetfnGroup { members });
                for (i, slot) in l.slots.iter().enumerate() {
                    let (proto, captures) = &group.members[i];
                    self.stack[frame.bp + *slot as usize] =
                        Value::Fn(Func::closure(Arc::new(Closure {
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
                Ok(Value::Var(Text::from(&*d.name)))
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
    pub(crate) fn with_args(
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

    pub(crate) fn eval_args(&mut self, args: &[Expr], frame: Frame) -> Result<Vec<Value>> {
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

    pub(crate) fn eval_case(&mut self, c: &Case, frame: Frame) -> Result<Value> {
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
pub(crate) fn text_pair(x: &Value, y: &Value) -> bool {
    matches!(
        (x, y),
        (Value::Str(_), Value::Str(_)) | (Value::Keyword(_), Value::Keyword(_))
    )
}

/// A map or set literal whose computed keys repeat (`{(+ 1 0) :a 1 :b}`):
/// Clojure's `IllegalArgumentException` "Duplicate key: 1" (issue 27 item
/// 11; literal keys that repeat are a parse error already).
pub(crate) fn duplicate_key(k: &Value, what: &str) -> Error {
    let shown =
        crate::format::to_clojure_capped(k, Some(5), Some(60), Some(crate::value::DESCRIBE_BYTES))
            .0;
    Error::execution(format!("Duplicate key: {shown}"))
        .with_class("IllegalArgumentException")
        .with_hint(format!(
            "two keys of this {what} literal evaluate to the same value; use assoc/conj to let a later one win, or make the keys distinct"
        ))
}
