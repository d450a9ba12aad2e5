//! The integer kernel: scalar code on unboxed `i64` registers.
//!
//! A `loop`, or a function of one fixed arity, whose whole code is integer
//! arithmetic is built a second time, as a small tree ([`K`], [`T`]) run on
//! a `Vec<i64>` of registers (one per frame slot) instead of closures on
//! `Value`s (`run.rs`). What it takes, and nothing else:
//! - integer constants, locals, a closure's captured values;
//! - `+ - * mod rem quot` of two operands, `inc`, `dec`;
//! - in a test: `< > <= >= =` of two operands, `zero? pos? neg? even?
//!   odd?`, and `and`/`or` of tests;
//! - `if`, `let` (plain bindings), `loop` (plain bindings) and `recur` in
//!   tail position;
//! - in a function: calls of itself, through its `defn` name (checked to
//!   still be this closure when the kernel starts) or its `fn` name.
//!
//! Every value in it is an integer, so the inputs (the locals it reads that
//! it did not bind, the captures) are checked to be integers when it starts;
//! if one is not, or hidden data is about (its marks, R-23), or this
//! thread's meter holds uncharged work, the general path runs instead.
//!
//! **Soundness (rule KERNEL-1).** The kernel does only what the general
//! path would, with the same step charges (EVAL-STEPS-1: one per
//! arithmetic operation, comparison and predicate, one per call entered,
//! one per `recur` back-edge), charged a block at a time (rule KERNEL-2,
//! `code.rs`); calls entered count against the depth limit. It gives up — [`run::Bail`] — wherever the general path
//! would do anything else: an overflow or a division by zero (the builtin's
//! error), a step, clock or depth limit met inside an iteration. Code in the
//! kernel has no effect but its steps, so giving up is exact: the steps go
//! back to the start of the iteration (of the `loop`, or of the function
//! body at the call the kernel started in), the registers of its bindings
//! are written to the frame, and the general path runs that iteration —
//! with no kernel inside it (`Interp::kernel_off`), so nothing is run more
//! than twice — and reaches the error with its message and place. The
//! kernel then goes on from the next iteration. A limit met at the
//! back-edge of that outer iteration is the general path's own error,
//! returned as it is. Checked against the reference run in `tests.rs` and
//! by the generated programs.

mod code;
mod run;

use crate::analyze::expr::{ArithOp, Bind, Expr, FnArity, GlobalId, Loop, Slot};

pub(crate) use run::{run_fn, run_loop};

/// An operand: a leaf read in place, or code.
pub(crate) enum O {
    Reg(u32),
    Const(i64),
    /// The `i`th value from outside the frame (`Kernel::caps`).
    Cap(u32),
    K(Box<K>),
}

impl O {
    fn of(k: K) -> O {
        match k {
            K::Reg(s) => O::Reg(s),
            K::Const(c) => O::Const(c),
            K::Cap(i) => O::Cap(i),
            k => O::K(Box::new(k)),
        }
    }
}

/// An integer expression.
pub(crate) enum K {
    Const(i64),
    Reg(u32),
    /// The `i`th value from outside the frame (`Kernel::caps`).
    Cap(u32),
    Arith(ArithOp, O, O),
    /// `inc` (+1) and `dec` (-1).
    Step(i64, O),
    If(Box<(T, O, O)>),
    Let(Box<[(u32, O)]>, Box<K>),
    Loop(Box<KLoop>),
    /// The arguments, then the slots they are stored in.
    Recur(Box<[O]>, Box<[u32]>),
    /// A call of the function the kernel was built for.
    SelfCall(Box<[O]>),
}

/// An integer test.
pub(crate) enum T {
    Cmp(ArithOp, O, O),
    Pred(fn(i64) -> bool, O),
    And(Box<[T]>),
    Or(Box<[T]>),
}

pub(crate) struct KLoop {
    inits: Box<[(u32, O)]>,
    body: K,
}

/// A value the kernel reads from outside its frame: it cannot change while
/// the kernel runs (nothing in it defines or binds).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outside {
    /// The running closure's `i`th captured value.
    Capture(u32),
    /// A user/ definition.
    Global(GlobalId),
}

/// A kernel: its code, and what it reads from outside.
pub(crate) struct Kernel {
    /// The function body or the loop's body.
    code: code::KC,
    /// The steps of `code`'s first block (rule KERNEL-2).
    cost: u64,
    /// For a loop, its bindings' first values, in order, and their steps.
    inits: Box<[(u32, code::KC)]>,
    inits_cost: u64,
    /// The slots each iteration starts from: a loop's bindings, a
    /// function's parameters (what `recur` rebinds).
    binds: Box<[u32]>,
    /// Slots read before anything in the kernel binds them.
    inputs: Box<[u32]>,
    /// The captures and definitions `K::Cap` reads, in its order.
    caps: Box<[Outside]>,
    /// Registers a frame needs: one past the highest slot.
    frame: usize,
    /// For a function: the `defn` name its calls of itself go through.
    global: Option<GlobalId>,
    /// Whether it calls itself.
    calls: bool,
}

/// The kernel of a `loop`, when all of it is integer code.
pub(crate) fn of_loop(l: &Loop) -> Option<Kernel> {
    if !l.prologue.is_empty() {
        return None;
    }
    let mut b = Build::new(None);
    let inits = b.binds(&l.inits)?;
    let code = b.int(&l.body, true)?;
    b.unbind(&l.inits);
    let binds = l.inits.iter().map(|x| x.slot).collect();
    Some(b.finish(code, inits, binds))
}

/// The kernel of a function arity of `fixed` parameters that is its
/// function's only one, when all of it is integer code.
pub(crate) fn of_fn(arity: &FnArity) -> Option<Kernel> {
    if !arity.prologue.is_empty() || arity.variadic {
        return None;
    }
    let mut b = Build::new(Some(arity.fixed));
    let params: Vec<u32> = (0..arity.fixed as u32).collect();
    for &p in &params {
        b.bind(p);
    }
    let code = b.int(&arity.body, true)?;
    if !b.repeats {
        return None;
    }
    let mut k = b.finish(code, Box::new([]), params.into());
    k.frame = k.frame.max(arity.frame_size);
    Some(k)
}

/// What building a kernel keeps track of.
struct Build {
    /// The parameters of the function being built, `None` for a loop
    /// (whose calls are not the kernel's).
    fixed: Option<usize>,
    global: Option<GlobalId>,
    calls: bool,
    /// Whether it repeats (a call of itself, a `loop`, a `recur`): a
    /// function's body that does not runs as fast on the general path.
    repeats: bool,
    /// How many bindings in scope hold each slot.
    bound: Vec<u32>,
    inputs: Vec<u32>,
    caps: Vec<Outside>,
    frame: usize,
    /// Nodes built: a bound on the work of building.
    nodes: usize,
}

/// The most nodes a kernel has (a bigger body stays on the general path).
const MAX_NODES: usize = 4096;

impl Build {
    fn new(fixed: Option<usize>) -> Build {
        Build {
            fixed,
            global: None,
            calls: false,
            repeats: false,
            bound: Vec::new(),
            inputs: Vec::new(),
            caps: Vec::new(),
            frame: 0,
            nodes: 0,
        }
    }

    fn finish(self, code: K, inits: Box<[(u32, O)]>, binds: Box<[u32]>) -> Kernel {
        Kernel {
            cost: code::cost(&code),
            inits_cost: inits.iter().map(|(_, v)| code::cost_o(v)).sum(),
            code: code::code(code),
            inits: inits
                .into_vec()
                .into_iter()
                .map(|(s, v)| (s, code::operand(v)))
                .collect(),
            binds,
            inputs: self.inputs.into(),
            caps: self.caps.into(),
            frame: self.frame,
            global: self.global,
            calls: self.calls,
        }
    }

    fn slot(&mut self, s: Slot) -> u32 {
        self.frame = self.frame.max(s as usize + 1);
        if self.bound.len() <= s as usize {
            self.bound.resize(s as usize + 1, 0);
        }
        s
    }

    fn bind(&mut self, s: Slot) {
        let s = self.slot(s) as usize;
        self.bound[s] += 1;
    }

    fn unbind(&mut self, binds: &[Bind]) {
        for b in binds {
            self.bound[b.slot as usize] -= 1;
        }
    }

    fn read(&mut self, s: Slot) -> K {
        let s = self.slot(s);
        if self.bound[s as usize] == 0 && !self.inputs.contains(&s) {
            self.inputs.push(s);
        }
        K::Reg(s)
    }

    /// Bindings in order, each seeing the ones before it (left bound: the
    /// caller unbinds them when their scope ends).
    fn binds(&mut self, binds: &[Bind]) -> Option<Box<[(u32, O)]>> {
        let mut out = Vec::with_capacity(binds.len());
        for b in binds {
            let v = self.o(&b.value)?;
            self.bind(b.slot);
            out.push((b.slot, v));
        }
        Some(out.into())
    }

    /// An integer expression; `recur` only where `tail`.
    fn int(&mut self, e: &Expr, tail: bool) -> Option<K> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return None;
        }
        Some(match e {
            Expr::Const(crate::value::Value::Int(i)) => K::Const(*i),
            Expr::Local(s) | Expr::MoveLocal(s) | Expr::MoveLocalLate(s) => self.read(*s),
            Expr::Capture(i) => self.outside(Outside::Capture(*i)),
            Expr::Global(id) => self.outside(Outside::Global(*id)),
            Expr::Arith2(op, xy, _, _) if !op.is_test() => {
                K::Arith(*op, self.o(&xy.0)?, self.o(&xy.1)?)
            }
            Expr::Step(d, x, _, _) => K::Step(*d, self.o(x)?),
            Expr::If(b) => {
                let (c, t, f) = &**b;
                let c = self.test(c)?;
                let t = O::of(self.int(t, tail)?);
                let f = O::of(self.int(f, tail)?);
                K::If(Box::new((c, t, f)))
            }
            Expr::Do(body) => match body.as_slice() {
                [one] => self.int(one, tail)?,
                _ => return None,
            },
            Expr::Let(binds, body) => {
                let bs = self.binds(binds)?;
                let body = self.int(body, tail);
                self.unbind(binds);
                K::Let(bs, Box::new(body?))
            }
            Expr::Loop(l) if l.prologue.is_empty() => {
                let inits = self.binds(&l.inits)?;
                let body = self.int(&l.body, true);
                self.unbind(&l.inits);
                self.repeats = true;
                K::Loop(Box::new(KLoop { inits, body: body? }))
            }
            Expr::Recur(r) if tail && r.args.len() == r.slots.len() => {
                let args = r
                    .args
                    .iter()
                    .map(|a| self.o(a))
                    .collect::<Option<Box<[O]>>>()?;
                let slots = r.slots.iter().map(|s| self.slot(*s)).collect();
                self.repeats = true;
                K::Recur(args, slots)
            }
            Expr::Call(c) if Some(c.args.len()) == self.fixed => {
                match c.f {
                    Expr::SelfFn => {}
                    Expr::Global(id) if self.global.is_none_or(|g| g == id) => {
                        self.global = Some(id);
                    }
                    _ => return None,
                }
                let args = c
                    .args
                    .iter()
                    .map(|a| self.o(a))
                    .collect::<Option<Box<[O]>>>()?;
                self.calls = true;
                self.repeats = true;
                K::SelfCall(args)
            }
            _ => return None,
        })
    }

    /// An operand (never in tail position).
    fn o(&mut self, e: &Expr) -> Option<O> {
        self.int(e, false).map(O::of)
    }

    /// A value from outside the frame, read when the kernel starts.
    fn outside(&mut self, o: Outside) -> K {
        let at = match self.caps.iter().position(|c| *c == o) {
            Some(at) => at,
            None => {
                self.caps.push(o);
                self.caps.len() - 1
            }
        };
        K::Cap(at as u32)
    }

    /// A test.
    fn test(&mut self, e: &Expr) -> Option<T> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return None;
        }
        Some(match e {
            Expr::Arith2(op, xy, _, _) if op.is_test() => {
                T::Cmp(*op, self.o(&xy.0)?, self.o(&xy.1)?)
            }
            Expr::CallBuiltin(b, args, _) => match args.as_slice() {
                [x] => {
                    let p = crate::builtins::numbers::int_test(b)?;
                    T::Pred(p, self.o(x)?)
                }
                _ => return None,
            },
            Expr::And(items) => T::And(
                items
                    .iter()
                    .map(|t| self.test(t))
                    .collect::<Option<Box<[T]>>>()?,
            ),
            Expr::Or(items) => T::Or(
                items
                    .iter()
                    .map(|t| self.test(t))
                    .collect::<Option<Box<[T]>>>()?,
            ),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests;
