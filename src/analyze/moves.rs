//! Last-use moves: a local read whose slot is provably never read again is
//! compiled to [`Expr::MoveLocal`], which takes the value out of the slot.
//! A collection then held only by the argument can be updated in place by
//! the callee (`assoc` on a `reduce` accumulator, `conj` in a self-recursive
//! call) instead of being copied.
//!
//! Two places qualify:
//! * a call in tail position of a function body (the frame ends with it):
//!   every local of the frame is dead after its arguments are evaluated;
//! * the arguments of `recur`: the slots bound inside the loop (its
//!   parameters and the locals of its body) are rebound before being read
//!   again.
//!
//! Inside such a call, an argument that is a plain local read is moved when
//! no argument evaluated after it (at any depth) reads the same slot. The
//! read check is conservative: forms it does not look into count as reads.

use super::expr::{Expr, Slot};

/// Marks moves in `e` (a call or a local read) given that the expressions
/// in `later` are evaluated after it and `movable` says which slots are dead
/// once everything has been evaluated.
pub fn mark(e: &mut Expr, later: &[&Expr], movable: &dyn Fn(Slot) -> bool) {
    match e {
        Expr::Local(s) => {
            let s = *s;
            if movable(s) && !later.iter().any(|x| reads(x, s)) {
                *e = Expr::MoveLocal(s);
            }
        }
        Expr::Call(c) => mark_args(&mut c.args, later, movable),
        Expr::CallBuiltin(_, args, _) => mark_args(args, later, movable),
        _ => {}
    }
}

/// Marks moves in a sequence of expressions evaluated in order, followed by
/// `later`.
pub fn mark_args(args: &mut [Expr], later: &[&Expr], movable: &dyn Fn(Slot) -> bool) {
    for i in 0..args.len() {
        let (head, tail) = args.split_at_mut(i + 1);
        let mut after: Vec<&Expr> = tail.iter().collect();
        after.extend_from_slice(later);
        mark(&mut head[i], &after, movable);
    }
}

/// Whether evaluating `e` may read slot `s` (conservative).
fn reads(e: &Expr, s: Slot) -> bool {
    let any = |es: &[Expr]| es.iter().any(|x| reads(x, s));
    match e {
        Expr::Local(x) | Expr::MoveLocal(x) | Expr::SeqToMap(x) => *x == s,
        Expr::Nth(x, ..) | Expr::NthRest(x, ..) => *x == s,
        Expr::Key(x, _, default, _) => *x == s || default.as_deref().is_some_and(|d| reads(d, s)),
        Expr::Const(_)
        | Expr::Capture(_)
        | Expr::SelfFn
        | Expr::Sibling(_)
        | Expr::Global(_)
        | Expr::Builtin(_)
        | Expr::Data(..)
        | Expr::TurnHistory(_) => false,
        Expr::Vector(items)
        | Expr::Set(items)
        | Expr::Do(items)
        | Expr::And(items)
        | Expr::Or(items) => any(items),
        Expr::Map(pairs) => pairs.iter().any(|(k, v)| reads(k, s) || reads(v, s)),
        Expr::Record(r) => r.values.iter().any(|v| reads(v, s)),
        Expr::Get(mk) => reads(&mk.0, s) || reads(&mk.1, s),
        Expr::If(b) => reads(&b.0, s) || reads(&b.1, s) || reads(&b.2, s),
        Expr::Let(binds, body) => {
            binds.iter().any(|b| b.slot == s || reads(&b.value, s)) || reads(body, s)
        }
        Expr::Call(c) => reads(&c.f, s) || any(&c.args),
        Expr::CallBuiltin(_, args, _) | Expr::CallTool(_, args, _) => any(args),
        Expr::Recur(r) => any(&r.args),
        Expr::Arith2(_, xy, ..) => reads(&xy.0, s) || reads(&xy.1, s),
        Expr::Step(_, x, ..) | Expr::Throw(x, _) => reads(x, s),
        Expr::MakeFn(_, captures) => any(captures),
        Expr::Def(d) => reads(&d.value, s),
        // Not looked into: assume they read it.
        Expr::Loop(_) | Expr::Letfn(_) | Expr::Try(_) | Expr::For(_) | Expr::Case(_) => true,
    }
}
