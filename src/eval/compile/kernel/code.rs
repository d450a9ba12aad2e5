//! The kernel's tree ([`K`], [`T`]) built into closures on `i64`s, once:
//! each operation a closure of its own with its operation a constant and
//! its leaf operands (a register, a constant) read in place, as
//! `compile/arith.rs` does for values.

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
            O::Reg(s) => Box::new(move |cx, bp| {
                let v = cx.reg(bp, s).checked_add(d).ok_or(Bail)?;
                cx.tick()?;
                Ok(v)
            }),
            x => {
                let x = operand(x);
                Box::new(move |cx, bp| {
                    let v = x(cx, bp)?.checked_add(d).ok_or(Bail)?;
                    cx.tick()?;
                    Ok(v)
                })
            }
        },
        K::If(b) => {
            let (c, t, e) = *b;
            let t = operand(t);
            let e = operand(e);
            match c {
                // A register against a constant: the test inline.
                T::Cmp(o, O::Reg(s), O::Const(c)) => match o {
                    ArithOp::Lt => if_rc::<LT>(s, c, t, e),
                    ArithOp::Gt => if_rc::<GT>(s, c, t, e),
                    ArithOp::Le => if_rc::<LE>(s, c, t, e),
                    ArithOp::Ge => if_rc::<GE>(s, c, t, e),
                    _ => if_rc::<EQ>(s, c, t, e),
                },
                c => {
                    let c = test(c);
                    Box::new(move |cx, bp| if c(cx, bp)? { t(cx, bp) } else { e(cx, bp) })
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
            let body = code(l.body);
            Box::new(move |cx, bp| {
                for (s, v) in inits.iter() {
                    let v = v(cx, bp)?;
                    cx.set(bp, *s, v);
                }
                cx.repeat(&body, bp)
            })
        }
        K::Recur(args, slots) => {
            let args: Vec<KC> = args.into_vec().into_iter().map(operand).collect();
            let two = <[KC; 2]>::try_from(args);
            match (two, &*slots) {
                (Ok([a, b]), &[sa, sb]) => Box::new(move |cx, bp| {
                    let va = a(cx, bp)?;
                    let vb = b(cx, bp)?;
                    cx.set(bp, sa, va);
                    cx.set(bp, sb, vb);
                    cx.recur = true;
                    Ok(0)
                }),
                (two, _) => {
                    let args: Vec<KC> = match two {
                        Ok(two) => two.into(),
                        Err(args) => args,
                    };
                    recur_many(args, slots)
                }
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
/// place.
fn arith<const OP: u8>(x: O, y: O) -> KC {
    match (x, y) {
        (O::Reg(s), O::Const(c)) => {
            Box::new(move |cx, bp| cx.charged(op::<OP>().int(cx.reg(bp, s), c)))
        }
        (O::Reg(s), O::Reg(t)) => {
            Box::new(move |cx, bp| cx.charged(op::<OP>().int(cx.reg(bp, s), cx.reg(bp, t))))
        }
        (x, O::Const(c)) => {
            let x = operand(x);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                cx.charged(op::<OP>().int(a, c))
            })
        }
        (O::Reg(s), y) => {
            let y = operand(y);
            Box::new(move |cx, bp| {
                let b = y(cx, bp)?;
                cx.charged(op::<OP>().int(cx.reg(bp, s), b))
            })
        }
        (x, y) => {
            let x = operand(x);
            let y = operand(y);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                let b = y(cx, bp)?;
                cx.charged(op::<OP>().int(a, b))
            })
        }
    }
}

/// `(if (OP r c) t e)`.
fn if_rc<const OP: u8>(s: u32, c: i64, t: KC, e: KC) -> KC {
    Box::new(move |cx, bp| {
        let yes = op::<OP>().test_ints(cx.reg(bp, s), c).ok_or(Bail)?;
        cx.tick()?;
        if yes {
            t(cx, bp)
        } else {
            e(cx, bp)
        }
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
            Box::new(move |cx, bp| {
                let v = x(cx, bp)?;
                cx.tick()?;
                Ok(p(v))
            })
        }
        T::And(items) => {
            let items: Vec<TC> = items.into_vec().into_iter().map(test).collect();
            Box::new(move |cx, bp| {
                for i in &items {
                    if !i(cx, bp)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
        }
        T::Or(items) => {
            let items: Vec<TC> = items.into_vec().into_iter().map(test).collect();
            Box::new(move |cx, bp| {
                for i in &items {
                    if i(cx, bp)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            })
        }
    }
}

/// `(OP x y)` as a test.
fn cmp<const OP: u8>(x: O, y: O) -> TC {
    match (x, y) {
        (O::Reg(s), O::Const(c)) => {
            Box::new(move |cx, bp| cx.tested(op::<OP>().test_ints(cx.reg(bp, s), c)))
        }
        (O::Reg(s), O::Reg(t)) => {
            Box::new(move |cx, bp| cx.tested(op::<OP>().test_ints(cx.reg(bp, s), cx.reg(bp, t))))
        }
        (x, y) => {
            let x = operand(x);
            let y = operand(y);
            Box::new(move |cx, bp| {
                let a = x(cx, bp)?;
                let b = y(cx, bp)?;
                cx.tested(op::<OP>().test_ints(a, b))
            })
        }
    }
}
