//! The kernel's tree ([`K`], [`T`]) built into closures on `i64`s, once:
//! each operation a closure of its own with its operation a constant and
//! its leaf operands (a register, a constant) read in place, as
//! `compile/arith.rs` does for values.
//!
//! **Steps by block (rule KERNEL-2).** An operation charges no step of its
//! own: the steps a stretch of code charges on every path through it (a
//! block: an iteration's body up to its first branch, a branch of an `if`,
//! an item of `and`/`or` after the first) are counted when the kernel is
//! built ([`cost`]) and charged at once where the block starts, `recur`'s
//! back-edge and a call's entry with them. Exact because of KERNEL-1: the
//! totals are the general path's, and a limit met anywhere in an iteration
//! gives the whole iteration to the general path, which meets it at its own
//! step.

use crate::analyze::expr::ArithOp;

use super::run::{Bail, Cx, Out};
use super::{K, O, T};

/// Compiled integer code: its value in the frame at `bp`.
pub(crate) type KC = Box<dyn for<'c> Fn(&mut Cx<'c>, usize) -> Out + Send + Sync>;
/// A compiled test.
pub(crate) type TC = Box<dyn for<'c> Fn(&mut Cx<'c>, usize) -> Result<bool, Bail> + Send + Sync>;

const ADD: u8 = ArithOp::Add as u8;
const SUB: u8 = ArithOp::Sub as u8;
const MUL: u8 = ArithOp::Mul as u8;
const MOD: u8 = ArithOp::Mod as u8;
const REM: u8 = ArithOp::Rem as u8;
const QUOT: u8 = ArithOp::Quot as u8;
const LT: u8 = ArithOp::Lt as u8;
const GT: u8 = ArithOp::Gt as u8;
const LE: u8 = ArithOp::Le as u8;
const GE: u8 = ArithOp::Ge as u8;
const EQ: u8 = ArithOp::Eq as u8;

/// The operation a constant parameter names (`compile/arith.rs`).
use super::super::arith::op_of as op;

/// The steps `k` charges on every path through it, outside the blocks it
/// starts (rule KERNEL-2): one per arithmetic operation, comparison and
/// predicate, one for `recur`'s back-edge and one for a call's entry.
pub(crate) fn cost(k: &K) -> u64 {
    match k {
        K::Const(_) | K::Reg(_) | K::Cap(_) => 0,
        K::Arith(_, x, y) => 1 + cost_o(x) + cost_o(y),
        K::Step(_, x) => 1 + cost_o(x),
        K::If(b) => cost_t(&b.0),
        K::Let(binds, body) => binds.iter().map(|(_, v)| cost_o(v)).sum::<u64>() + cost(body),
        K::Loop(l) => l.inits.iter().map(|(_, v)| cost_o(v)).sum(),
        K::Recur(args, _) | K::SelfCall(args) => 1 + args.iter().map(cost_o).sum::<u64>(),
    }
}

pub(crate) fn cost_o(o: &O) -> u64 {
    match o {
        O::K(k) => cost(k),
        _ => 0,
    }
}

/// [`cost`] of a test: only the first item of `and`/`or` runs on every path.
fn cost_t(t: &T) -> u64 {
    match t {
        T::Cmp(_, x, y) => 1 + cost_o(x) + cost_o(y),
        T::Pred(_, x) => 1 + cost_o(x),
        T::And(items) | T::Or(items) => items.first().map_or(0, cost_t),
    }
}

/// An operand's code.
pub(crate) fn operand(o: O) -> KC {
    match o {
        O::Reg(s) => Box::new(move |cx, bp| Ok(cx.reg(bp, s))),
        O::Const(c) => Box::new(move |_, _| Ok(c)),
        O::Cap(i) => Box::new(move |cx, _| Ok(cx.cap(i))),
        O::K(k) => code(*k),
    }
}

/// Code for `k`.
pub(crate) fn code(k: K) -> KC {
    match k {
        K::Const(c) => operand(O::Const(c)),
        K::Reg(s) => operand(O::Reg(s)),
        K::Cap(i) => operand(O::Cap(i)),
        K::Arith(o, x, y) => match o {
            ArithOp::Add => arith::<ADD>(x, y),
            ArithOp::Sub => arith::<SUB>(x, y),
            ArithOp::Mul => arith::<MUL>(x, y),
            ArithOp::Mod => arith::<MOD>(x, y),
            ArithOp::Rem => arith::<REM>(x, y),
            ArithOp::Quot => arith::<QUOT>(x, y),
            // Built only for the arithmetic operations.
            _ => Box::new(|_, _| Err(Bail)),
        },
        K::Step(d, x) => match x {
            O::Reg(s) => Box::new(move |cx, bp| cx.reg(bp, s).checked_add(d).ok_or(Bail)),
            x => {
                let x = operand(x);
                Box::new(move |cx, bp| x(cx, bp)?.checked_add(d).ok_or(Bail))
            }
        },
        K::If(b) => {
            let (c, t, e) = *b;
            // Each branch a block: its steps charged where it starts.
            let branches = Branches {
                t_cost: cost_o(&t),
                e_cost: cost_o(&e),
                t: operand(t),
                e: operand(e),
            };
            match c {
                // A register against a constant: the test inline.
                T::Cmp(o, O::Reg(s), O::Const(c)) => match o {
                    ArithOp::Lt => if_rc::<LT>(s, c, branches),
                    ArithOp::Gt => if_rc::<GT>(s, c, branches),
                    ArithOp::Le => if_rc::<LE>(s, c, branches),
                    ArithOp::Ge => if_rc::<GE>(s, c, branches),
                    _ => if_rc::<EQ>(s, c, branches),
                },
                c => {
                    let c = test(c);
                    Box::new(move |cx, bp| {
                        let yes = c(cx, bp)?;
                        branches.run(cx, bp, yes)
                    })
                }
            }
        }
        K::Let(binds, body) => {
            let binds = stores(binds);
            let body = code(*body);
            Box::new(move |cx, bp| {
                for (s, v) in binds.iter() {
                    let v = v(cx, bp)?;
                    cx.set(bp, *s, v);
                }
                body(cx, bp)
            })
        }
        K::Loop(l) => {
            let inits = stores(l.inits);
            let body_cost = cost(&l.body);
            let body = code(l.body);
            Box::new(move |cx, bp| {
                for (s, v) in inits.iter() {
                    let v = v(cx, bp)?;
                    cx.set(bp, *s, v);
                }
                cx.repeat(&body, body_cost, bp)
            })
        }
        K::Recur(args, slots) => {
            let args = args.into_vec();
            match (<[O; 2]>::try_from(args), <[u32; 2]>::try_from(&*slots)) {
                (Ok([a, b]), Ok(slots)) => match a {
                    O::K(k) => match *k {
                        K::Step(d, O::Reg(s)) => recur_step(s, d, operand(b), slots),
                        k => recur_two(code(k), operand(b), slots),
                    },
                    a => recur_two(operand(a), operand(b), slots),
                },
                (Ok(two), Err(_)) => recur_many(two.into_iter().map(operand).collect(), slots),
                (Err(args), _) => recur_many(args.into_iter().map(operand).collect(), slots),
            }
        }
        K::SelfCall(args) => {
            let args: Vec<KC> = args.into_vec().into_iter().map(operand).collect();
            Box::new(move |cx, bp| {
                let nbp = cx.regs.len();
                for a in &args {
                    let v = a(cx, bp)?;
                    cx.regs.push(v);
                }
                cx.call(nbp)
            })
        }
    }
}

/// `recur` of two arguments.
fn recur_two(a: KC, b: KC, slots: [u32; 2]) -> KC {
    Box::new(move |cx, bp| {
        let va = a(cx, bp)?;
        let vb = b(cx, bp)?;
        rebind_two(cx, bp, slots, [va, vb])
    })
}

/// `recur` of two arguments, the first `inc`/`dec` of a register (a
/// counter: the common loop) read in place.
fn recur_step(s: u32, d: i64, b: KC, slots: [u32; 2]) -> KC {
    Box::new(move |cx, bp| {
        let va = cx.reg(bp, s).checked_add(d).ok_or(Bail)?;
        let vb = b(cx, bp)?;
        rebind_two(cx, bp, slots, [va, vb])
    })
}

/// The two slots `recur` rebinds given their new values, once both are
/// computed; the loop or body repeats.
#[inline(always)]
fn rebind_two(cx: &mut Cx, bp: usize, [sa, sb]: [u32; 2], [va, vb]: [i64; 2]) -> Out {
    cx.set(bp, sa, va);
    cx.set(bp, sb, vb);
    cx.recur = true;
    Ok(0)
}

/// `recur` of other than two arguments.
fn recur_many(args: Vec<KC>, slots: Box<[u32]>) -> KC {
    Box::new(move |cx, bp| {
        // Computed above the frames in use, then stored.
        let top = cx.regs.len();
        for a in &args {
            let v = a(cx, bp)?;
            cx.regs.push(v);
        }
        for (i, s) in slots.iter().enumerate() {
            let v = cx.regs[top + i];
            cx.set(bp, *s, v);
        }
        cx.regs.truncate(top);
        cx.recur = true;
        Ok(0)
    })
}

fn stores(binds: Box<[(u32, O)]>) -> Box<[(u32, KC)]> {
    binds
        .into_vec()
        .into_iter()
        .map(|(s, v)| (s, operand(v)))
        .collect()
}

/// `(OP x y)` of two integers: the common shapes of operands read in
/// place. `None` from the operation (an overflow, a division by zero: the
/// builtin's error) gives up.
fn arith<const OP: u8>(x: O, y: O) -> KC {
    match (x, y) {
        (x, O::Const(c)) if c > 0 && matches!(OP, MOD | REM | QUOT) => by_positive::<OP>(x, c),
        (O::Reg(s), O::Const(c)) => {
            Box::new(move |cx, bp| op::<OP>().int(cx.reg(bp, s), c).ok_or(Bail))
        }
        (O::Reg(s), O::Reg(t)) => {
            Box::new(move |cx, bp| op::<OP>().int(cx.reg(bp, s), cx.reg(bp, t)).ok_or(Bail))
        }
        (x, O::Const(c)) => {
            let x = operand(x);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                op::<OP>().int(a, c).ok_or(Bail)
            })
        }
        (O::Reg(s), y) => {
            let y = operand(y);
            Box::new(move |cx, bp| {
                let b = y(cx, bp)?;
                op::<OP>().int(cx.reg(bp, s), b).ok_or(Bail)
            })
        }
        (x, y) => {
            let x = operand(x);
            let y = operand(y);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                let b = y(cx, bp)?;
                op::<OP>().int(a, b).ok_or(Bail)
            })
        }
    }
}

/// `(mod x c)`, `(rem x c)`, `(quot x c)` by a constant `c > 0`: no
/// division by zero or overflow to check, and `mod` is `rem_euclid`.
fn by_positive<const OP: u8>(x: O, c: i64) -> KC {
    #[inline(always)]
    fn div<const OP: u8>(a: i64, c: i64) -> Out {
        // Never taken (`c` was checked when built): it tells the compiler
        // `c > 0`, so the division has no zero or -1 to check.
        if c <= 0 {
            return Err(Bail);
        }
        Ok(match OP {
            MOD => a.rem_euclid(c),
            REM => a % c,
            _ => a / c,
        })
    }
    match x {
        O::Reg(s) => Box::new(move |cx, bp| div::<OP>(cx.reg(bp, s), c)),
        x => {
            let x = operand(x);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                div::<OP>(a, c)
            })
        }
    }
}

/// An `if`'s branches, each a block charged where it starts.
struct Branches {
    t: KC,
    e: KC,
    t_cost: u64,
    e_cost: u64,
}

impl Branches {
    #[inline(always)]
    fn run(&self, cx: &mut Cx, bp: usize, yes: bool) -> Out {
        if yes {
            cx.charge(self.t_cost)?;
            (self.t)(cx, bp)
        } else {
            cx.charge(self.e_cost)?;
            (self.e)(cx, bp)
        }
    }
}

/// `(if (OP r c) t e)`.
fn if_rc<const OP: u8>(s: u32, c: i64, b: Branches) -> KC {
    Box::new(move |cx, bp| {
        let yes = op::<OP>().test_ints(cx.reg(bp, s), c).ok_or(Bail)?;
        b.run(cx, bp, yes)
    })
}

/// Code for a test.
pub(crate) fn test(t: T) -> TC {
    match t {
        T::Cmp(o, x, y) => match o {
            ArithOp::Lt => cmp::<LT>(x, y),
            ArithOp::Gt => cmp::<GT>(x, y),
            ArithOp::Le => cmp::<LE>(x, y),
            ArithOp::Ge => cmp::<GE>(x, y),
            _ => cmp::<EQ>(x, y),
        },
        T::Pred(p, x) => {
            let x = operand(x);
            Box::new(move |cx, bp| Ok(p(x(cx, bp)?)))
        }
        // Items after the first are blocks: their steps charged as they
        // start (the first item's are its enclosing block's).
        T::And(items) => {
            let items = blocks(items);
            Box::new(move |cx, bp| {
                for (i, (t, n)) in items.iter().enumerate() {
                    if i > 0 {
                        cx.charge(*n)?;
                    }
                    if !t(cx, bp)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
        }
        T::Or(items) => {
            let items = blocks(items);
            Box::new(move |cx, bp| {
                for (i, (t, n)) in items.iter().enumerate() {
                    if i > 0 {
                        cx.charge(*n)?;
                    }
                    if t(cx, bp)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            })
        }
    }
}

/// The tests of `and`/`or` with their steps (as blocks).
fn blocks(items: Box<[T]>) -> Box<[(TC, u64)]> {
    items
        .into_vec()
        .into_iter()
        .map(|t| {
            let n = cost_t(&t);
            (test(t), n)
        })
        .collect()
}

/// `(OP x y)` as a test.
fn cmp<const OP: u8>(x: O, y: O) -> TC {
    match (x, y) {
        (O::Reg(s), O::Const(c)) => {
            Box::new(move |cx, bp| op::<OP>().test_ints(cx.reg(bp, s), c).ok_or(Bail))
        }
        (O::Reg(s), O::Reg(t)) => Box::new(move |cx, bp| {
            op::<OP>()
                .test_ints(cx.reg(bp, s), cx.reg(bp, t))
                .ok_or(Bail)
        }),
        (x, y) => {
            let x = operand(x);
            let y = operand(y);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                let b = y(cx, bp)?;
                op::<OP>().test_ints(a, b).ok_or(Bail)
            })
        }
    }
}
