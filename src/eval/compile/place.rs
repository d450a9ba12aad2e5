//! Operands read where they are: a collection in a local slot, a captured
//! value or a user/ definition that a lookup (`(get m k)`, `(contains? s
//! x)`) only looks into is borrowed for it, not cloned and dropped (for a
//! definition or a shared collection, two atomic count changes a call).

use crate::analyze::expr::{Expr, GlobalId, Slot};
use crate::error::Result;
use crate::value::Value;

use super::super::{Frame, Interp};

/// Where a borrowed operand lives.
#[derive(Clone, Copy)]
pub(super) enum Place {
    Local(usize),
    Capture(usize),
    Global(GlobalId),
}

impl Place {
    /// The place `coll` reads, when a lookup may borrow it while `key` is
    /// evaluated after it. `key` must be a plain read ([`is_plain`]): any
    /// call could run a `def` replacing the definition, and the walker's
    /// lookup sees the value read before `key` ran; and it must not move
    /// the value out of the collection's own slot (its last read).
    pub(super) fn of(coll: &Expr, key: &Expr) -> Option<Place> {
        if !is_plain(key) {
            return None;
        }
        match coll {
            Expr::Local(s) if !moves(key, *s) => Some(Place::Local(*s as usize)),
            Expr::Capture(i) => Some(Place::Capture(*i as usize)),
            Expr::Global(id) => Some(Place::Global(*id)),
            _ => None,
        }
    }

    /// The place `e` reads when nothing is evaluated after it (a call's
    /// only argument).
    pub(super) fn alone(e: &Expr) -> Option<Place> {
        match e {
            Expr::Local(s) => Some(Place::Local(*s as usize)),
            Expr::Capture(i) => Some(Place::Capture(*i as usize)),
            Expr::Global(id) => Some(Place::Global(*id)),
            _ => None,
        }
    }

    /// Reads the operand as the walker would, without cloning it: a
    /// definition with no value yet is the walker's error.
    #[inline(always)]
    pub(super) fn read<'a>(self, it: &'a Interp, f: Frame<'a>) -> Result<&'a Value> {
        match self {
            Place::Local(s) => Ok(&it.stack[f.bp + s]),
            Place::Capture(i) => match f.closure {
                Some(c) => Ok(&c.captures[i]),
                None => Err(crate::error::Error::internal("capture outside a closure")),
            },
            Place::Global(id) => match it.globals.get(id) {
                Some(d) => Ok(&d.value),
                None => Err(super::call::undefined(it, id)),
            },
        }
    }
}

/// Whether evaluating `e` only reads (a constant, a local, a capture, or a
/// lookup of those): it runs no call, so it cannot redefine anything.
fn is_plain(e: &Expr) -> bool {
    match e {
        Expr::Const(_)
        | Expr::Local(_)
        | Expr::MoveLocal(_)
        | Expr::MoveLocalLate(_)
        | Expr::Capture(_) => true,
        Expr::Get(mk) => is_plain(&mk.0) && is_plain(&mk.1),
        _ => false,
    }
}

/// Whether the plain read `e` moves the value out of slot `s`.
fn moves(e: &Expr, s: Slot) -> bool {
    match e {
        Expr::MoveLocal(x) => *x == s,
        Expr::Get(mk) => moves(&mk.0, s) || moves(&mk.1, s),
        _ => false,
    }
}

/// Ends a move made in place: a key read where it is in its last read is
/// released from its slot as the move would have released it, so shared
/// parts lose that count now (a scalar holds none and stays).
#[inline(always)]
pub(super) fn end_move(slot: &mut Value) {
    if !matches!(
        slot,
        Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_)
    ) {
        *slot = Value::Nil;
    }
}
