//! Compiled constructions: vector and record literals, `fn` values, and the
//! reads of destructuring (`Nth`, `Key`), with the walker's semantics and
//! heap charges (`walk.rs`).

use std::sync::Arc;

use crate::analyze::expr::{Expr, FnProto, Record};
use crate::value::depth::is_nested;
use crate::value::map::{scalar_keys, Fields};
use crate::value::{cost, Func, Map, Value, Vector};

use super::place::Place;
use super::{compile, Code, Interp};
use crate::error::Result;
use crate::eval::lookup::{destructure_nth, lookup};
use crate::eval::Closure;

pub(super) fn vector(items: &[Expr]) -> Code<'_> {
    let codes: Vec<Code> = items.iter().map(compile).collect();
    Box::new(move |it, f| {
        let mut v = Vector::with_capacity(codes.len());
        for c in &codes {
            v.push_back(c(it, f)?);
        }
        it.budget.alloc(cost::vector_bytes(codes.len()))?;
        Ok(Value::vector(v))
    })
}

pub(super) fn record(r: &Record) -> Code<'_> {
    let codes: Vec<Code> = r.values.iter().map(compile).collect();
    Box::new(move |it, f| build_record(it, r, &codes, |it, c| c(it, f)))
}

/// A record literal's record, its values those of `parts` (its value
/// expressions or their code) in order, each from `value` (the walker's
/// and the compiled code's one builder): built in place in its own
/// allocation with the literal's shape; each computed value looked at as
/// it is stored (the keys were when the shape was made).
pub(crate) fn build_record<T>(
    it: &mut Interp,
    r: &Record,
    parts: &[T],
    value: impl Fn(&mut Interp, &T) -> Result<Value>,
) -> Result<Value> {
    let mut fields = Fields::with_capacity_and(parts.len(), r.shape.clone());
    let mut shallow = scalar_keys(&r.shape);
    for p in parts {
        let v = value(it, p)?;
        shallow &= !is_nested(&v);
        fields.push(v);
    }
    it.budget.alloc(cost::record_bytes(fields.len()))?;
    Ok(Value::Map(Map::from_fields_known(fields, shallow)))
}

pub(super) fn make_fn<'a>(proto: &'a Arc<FnProto>, captures: &'a [Expr]) -> Code<'a> {
    let codes: Vec<Code> = captures.iter().map(compile).collect();
    Box::new(move |it, f| {
        let mut caps = Vec::with_capacity(codes.len());
        for c in &codes {
            caps.push(c(it, f)?);
        }
        it.budget.alloc(cost::closure_bytes(caps.len()))?;
        Ok(Value::Fn(Func::closure(Arc::new(Closure {
            proto: proto.clone(),
            captures: caps,
            group: None,
        }))))
    })
}

/// `(:k m)`, `(get m k)`: a map in a local and a constant key (`(:price
/// r)`) are read in place, neither cloned; so is a collection in a local,
/// a capture or a definition looked up with a plain key (`(get by-id
/// cid)`: [`Place`]).
pub(super) fn get<'a>(m: &'a Expr, k: &'a Expr) -> Code<'a> {
    match (m, k) {
        (Expr::Local(s), Expr::Const(key)) => {
            let s = *s as usize;
            Box::new(move |it, f| {
                it.budget.tick(1)?;
                Ok(get_const(&it.stack[f.bp + s], key))
            })
        }
        _ => match Place::of(m, k) {
            Some(place) => get_in_place(place, k),
            None => get_computed(m, k),
        },
    }
}

/// [`get`] of a collection borrowed where it is ([`Place`]): read first
/// (a definition with no value yet fails before the key runs), the step,
/// then the lookup.
fn get_in_place(place: Place, k: &Expr) -> Code<'_> {
    match k {
        Expr::Const(key) => Box::new(move |it, f| {
            place.read(it, f)?;
            it.budget.tick(1)?;
            Ok(get_const(place.read(it, f)?, key))
        }),
        // A key in a local is read where it is (a move still empties
        // its slot).
        Expr::Local(ks) | Expr::MoveLocal(ks) => {
            let moved = matches!(k, Expr::MoveLocal(_));
            let ks = *ks as usize;
            Box::new(move |it, f| {
                place.read(it, f)?;
                it.budget.tick(1)?;
                let v = lookup(place.read(it, f)?, &it.stack[f.bp + ks]).unwrap_or(Value::Nil);
                if moved {
                    super::place::end_move(&mut it.stack[f.bp + ks]);
                }
                Ok(v)
            })
        }
        k => {
            let k = compile(k);
            Box::new(move |it, f| {
                place.read(it, f)?;
                let k = k(it, f)?;
                it.budget.tick(1)?;
                Ok(lookup(place.read(it, f)?, &k).unwrap_or(Value::Nil))
            })
        }
    }
}

/// [`get`] of a computed collection.
fn get_computed<'a>(m: &'a Expr, k: &'a Expr) -> Code<'a> {
    match (m, k) {
        (m, Expr::Const(key)) => {
            let m = compile(m);
            Box::new(move |it, f| {
                let m = m(it, f)?;
                it.budget.tick(1)?;
                Ok(get_const(&m, key))
            })
        }
        (m, k) => {
            let m = compile(m);
            let k = compile(k);
            Box::new(move |it, f| {
                let m = m(it, f)?;
                let k = k(it, f)?;
                it.budget.tick(1)?;
                Ok(lookup(&m, &k).unwrap_or(Value::Nil))
            })
        }
    }
}

/// `(get m key)` of a constant key: a record's interned keyword found by
/// the inline pointer scan (`Map::get_interned`), anything else by
/// [`lookup`].
#[inline(always)]
fn get_const(m: &Value, key: &Value) -> Value {
    if let (Value::Map(m), Value::Keyword(name)) = (m, key) {
        if let Some(v) = m.get_interned(name) {
            return v.clone();
        }
    }
    lookup(m, key).unwrap_or(Value::Nil)
}

/// `(nth v i nil)` of a destructured slot.
pub(super) fn nth(slot: u32, i: usize, span: crate::error::Span) -> Code<'static> {
    let slot = slot as usize;
    Box::new(move |it, f| {
        let v = &it.stack[f.bp + slot];
        if v.may_end() {
            // A `lazy-seq` (the walker's rule, `realise.rs`).
            let v = v.clone();
            return it.lazy_seq_nth(&v, i).map_err(|e| e.or_span(span));
        }
        destructure_nth(v, i).map_err(|e| e.or_span(span))
    })
}

/// A key of a map pattern: `get` with the keyword/string fallback, the
/// default when missing (nil on a non-map, as Clojure).
pub(super) fn key<'a>(slot: u32, key: &'a Value, default: Option<&'a Expr>) -> Code<'a> {
    let slot = slot as usize;
    let default = default.map(compile);
    Box::new(
        move |it, f| match (lookup(&it.stack[f.bp + slot], key), &default) {
            (Some(v), _) => Ok(v),
            (None, Some(d)) => d(it, f),
            (None, None) => Ok(Value::Nil),
        },
    )
}
