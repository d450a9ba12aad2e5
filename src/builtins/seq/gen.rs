//! Generators: `range`, `iterate`, `repeat`, `cycle`, and the helpers that
//! drop items from an infinite sequence (giving another one).

use std::sync::Arc;

use super::built;
use crate::builtins::args;
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::{cost, LazySeq, Value, Vector};

pub(super) fn lazy(l: LazySeq) -> Value {
    Value::lazy(l)
}

fn range_overflow() -> Error {
    Error::arithmetic("range overflowed 64-bit integers")
}

/// `a + b` as `range` steps: checked for integers, float otherwise.
fn add(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_add(*y).ok_or_else(range_overflow)?),
        _ => Value::Float(as_f64(a) + as_f64(b)),
    })
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// The most items a builder reserves room for before it knows it will
/// fill them (16 M: 400 MB of values).
const EXACT_ROOM: usize = 1 << 24;

/// `(range)`, `(range end)`, `(range start end)`, `(range start end step)`.
///
/// Finite ranges are charged for their size before they are built, so
/// `(range 200000000)` fails with `memory-exceeded` at once. A zero step
/// gives the empty sequence — a deliberate difference (issue 27 item 9):
/// Clojure's endless repetition of `start` never ends, so no program means
/// it. An infinite `end` gives an infinite sequence.
pub(super) fn range(interp: &mut Interp, argv: &[Value]) -> Result<Value> {
    let (start, end, step) = match argv {
        [] => {
            return Ok(lazy(LazySeq::Range {
                start: Value::Int(0),
                step: Value::Int(1),
            }))
        }
        [end] => (Value::Int(0), end.clone(), Value::Int(1)),
        [start, end] => (start.clone(), end.clone(), Value::Int(1)),
        [start, end, step, ..] => (start.clone(), end.clone(), step.clone()),
    };
    // Integers (nearly every range): the count at once, no floats; a step
    // of 1 without a division.
    if let (Value::Int(a), Value::Int(b), Value::Int(c)) = (&start, &end, &step) {
        if *c != 0 {
            let (a, b, c) = (*a as i128, *b as i128, *c as i128);
            let n = match c {
                1 => (b - a).max(0),
                c if c > 0 && a < b => (b - a + c - 1) / c,
                c if c < 0 && a > b => (a - b - c - 1) / -c,
                _ => 0,
            };
            if n == 0 {
                return built(interp, Vector::new());
            }
            let n = u64::try_from(n).unwrap_or(u64::MAX);
            interp.alloc(cost::vector_bytes_for(n))?;
            interp.tick(n)?;
            // Exactly its room (a flat vector past `vector::SMALL`), up to a
            // size any real program stays under; beyond it, it grows.
            let mut out = Vec::with_capacity(usize::try_from(n).map_or(0, |n| n.min(EXACT_ROOM)));
            for i in 0..n as i128 {
                out.push(Value::Int((a + i * c) as i64));
            }
            return Ok(Value::vector(Vector::from_vec(out)));
        }
    }
    let s = args::number("range", &start)?;
    let e = args::number("range", &end)?;
    let st = args::number("range", &step)?;
    if st == 0.0 {
        return built(interp, Vector::new());
    }
    let endless = (st > 0.0 && e == f64::INFINITY) || (st < 0.0 && e == f64::NEG_INFINITY);
    if endless && s.is_finite() {
        return Ok(lazy(LazySeq::Range { start, step }));
    }
    if !((st > 0.0 && s < e) || (st < 0.0 && s > e)) {
        return built(interp, Vector::new());
    }
    // Some float: step by repeated addition, as Clojure does.
    let estimate = ((e - s) / st).ceil();
    let n = if estimate.is_finite() && estimate < 1e18 {
        estimate.max(0.0) as u64
    } else {
        u64::MAX / 32
    };
    interp.alloc(cost::vector_bytes_for(n))?;
    interp.tick(n)?;
    let mut out = Vector::new();
    let mut cur = start;
    // The cap guards against steps too small to change `cur`.
    while out.len() as u64 <= n {
        let c = as_f64(&cur);
        if !((st > 0.0 && c < e) || (st < 0.0 && c > e)) {
            break;
        }
        let next = add(&cur, &step)?;
        out.push_back(cur);
        cur = next;
    }
    Ok(Value::vector(out))
}

/// `(iterate f x)`: `x, (f x), (f (f x)) …`
pub(super) fn iterate(_interp: &mut Interp, argv: &[Value]) -> Result<Value> {
    args::callable("iterate", &argv[0])?;
    Ok(lazy(LazySeq::Iterate {
        f: argv[0].clone(),
        seed: argv[1].clone(),
    }))
}

/// `(repeat x)` (infinite) or `(repeat n x)`.
pub(super) fn repeat(interp: &mut Interp, argv: &[Value]) -> Result<Value> {
    match argv {
        [x] => Ok(lazy(LazySeq::Repeat(x.clone()))),
        [n, x, ..] => {
            let n = super::count_arg("repeat", n)?.max(0) as u64;
            interp.alloc(cost::vector_bytes_for(n))?;
            interp.tick(n)?;
            Ok(Value::vector((0..n).map(|_| x.clone()).collect()))
        }
        [] => Err(Error::internal("repeat called without arguments")),
    }
}

/// `(cycle coll)`: empty for an empty collection; an infinite sequence
/// cycles as itself.
pub(super) fn cycle(interp: &mut Interp, argv: &[Value]) -> Result<Value> {
    if let Value::Lazy(_) = &argv[0] {
        return Ok(argv[0].clone());
    }
    let items = args::items("cycle", &argv[0])?;
    if items.is_empty() {
        return built(interp, Vector::new());
    }
    interp.alloc(cost::vector_bytes(items.len()))?;
    Ok(lazy(LazySeq::Cycle(items)))
}

/// `items` rotated left by `k` positions.
fn rotate(items: &Vector, k: usize) -> Vector {
    if items.is_empty() {
        return Vector::new();
    }
    let k = k % items.len();
    let mut out = super::vskip(items, k);
    out.append(super::vtake(items, k));
    out
}

/// The infinite sequence `l` without its first `n` items.
pub(super) fn drop_lazy(interp: &mut Interp, l: &Arc<crate::value::Link>, n: u64) -> Result<Value> {
    if n == 0 {
        return Ok(Value::Lazy(l.clone()));
    }
    match &***l {
        LazySeq::Range { start, step } => {
            let start = match (start, step) {
                (Value::Int(a), Value::Int(b)) => {
                    let n = i64::try_from(n).map_err(|_| range_overflow())?;
                    let off = b.checked_mul(n).ok_or_else(range_overflow)?;
                    Value::Int(a.checked_add(off).ok_or_else(range_overflow)?)
                }
                _ => {
                    interp.tick(n)?;
                    let mut cur = start.clone();
                    for _ in 0..n {
                        cur = add(&cur, step)?;
                    }
                    cur
                }
            };
            Ok(lazy(LazySeq::Range {
                start,
                step: step.clone(),
            }))
        }
        LazySeq::Iterate { f, seed } => {
            let mut x = seed.clone();
            for _ in 0..n {
                interp.tick(1)?;
                x = interp.call(f, std::slice::from_ref(&x))?;
            }
            Ok(lazy(LazySeq::Iterate {
                f: f.clone(),
                seed: x,
            }))
        }
        LazySeq::Repeat(_) => Ok(Value::Lazy(l.clone())),
        LazySeq::Cycle(items) => {
            let k = (n % items.len().max(1) as u64) as usize;
            Ok(lazy(LazySeq::Cycle(rotate(items, k))))
        }
        // `map` is one-to-one: drop from its source.
        LazySeq::Map { f, source } => match source {
            Value::Lazy(inner) => {
                // One level of nesting per `map` link (bounded like calls).
                interp.budget.enter_link()?;
                let source = drop_lazy(interp, inner, n);
                interp.budget.leave();
                Ok(lazy(LazySeq::Map {
                    f: f.clone(),
                    source: source?,
                }))
            }
            _ => Ok(lazy(LazySeq::Skip {
                source: Value::Lazy(l.clone()),
                n,
            })),
        },
        LazySeq::Skip { source, n: m } => Ok(lazy(LazySeq::Skip {
            source: source.clone(),
            n: m.saturating_add(n),
        })),
        LazySeq::Thunk(_) => drop_thunk(interp, Value::Lazy(l.clone()), n),
        LazySeq::Filter { .. }
        | LazySeq::Repeatedly(_)
        | LazySeq::Reductions { .. }
        | LazySeq::TakeNth { .. }
        | LazySeq::Concat { .. }
        | LazySeq::Interleave(_)
        | LazySeq::Zip { .. }
        | LazySeq::Transduce { .. }
        | LazySeq::Chain(_) => Ok(lazy(LazySeq::Skip {
            source: Value::Lazy(l.clone()),
            n,
        })),
    }
}

/// `v`, a `lazy-seq`, without its first `n` (≥ 1) items: its bodies run
/// and the `cons` cells they give are skipped, one after the other in a
/// loop (no nesting, no re-running of the bodies later), so `rest` down a
/// `(cons x (lazy-seq …))` recursion stays cheap and flat.
fn drop_thunk(interp: &mut Interp, mut v: Value, mut n: u64) -> Result<Value> {
    loop {
        if n == 0 {
            return Ok(v);
        }
        let Value::Lazy(l) = &v else {
            return super::access::drop_n(interp, "rest", &v, n);
        };
        v = match &***l {
            LazySeq::Thunk(t) => crate::eval::iter::realise_thunk(interp, t)?,
            LazySeq::Chain(parts) => match parts.split_first() {
                Some((first, rest)) if !matches!(first, Value::Lazy(_)) => {
                    let k = args::count("rest", first)? as u64;
                    if k > n {
                        let mut parts = parts.clone();
                        parts[0] = super::access::drop_n(interp, "rest", first, n)?;
                        return Ok(lazy(LazySeq::Chain(parts)));
                    }
                    n -= k;
                    match rest {
                        [only] => only.clone(),
                        _ => lazy(LazySeq::Chain(rest.to_vec())),
                    }
                }
                _ => return drop_lazy(interp, &l.clone(), n),
            },
            _ => return drop_lazy(interp, &l.clone(), n),
        };
    }
}

/// The infinite sequence `l` from its item number `index`, whose value is
/// `item` (already computed by the caller while scanning).
pub(super) fn resume_lazy(l: &Arc<crate::value::Link>, item: Value, index: u64) -> Value {
    match &***l {
        LazySeq::Range { step, .. } => lazy(LazySeq::Range {
            start: item,
            step: step.clone(),
        }),
        LazySeq::Iterate { f, .. } => lazy(LazySeq::Iterate {
            f: f.clone(),
            seed: item,
        }),
        LazySeq::Repeat(_) => Value::Lazy(l.clone()),
        LazySeq::Cycle(items) => {
            let k = (index % items.len().max(1) as u64) as usize;
            lazy(LazySeq::Cycle(rotate(items, k)))
        }
        // The items are recomputed from the start (functions run again).
        LazySeq::Map { .. }
        | LazySeq::Filter { .. }
        | LazySeq::Skip { .. }
        | LazySeq::Repeatedly(_)
        | LazySeq::Reductions { .. }
        | LazySeq::TakeNth { .. }
        | LazySeq::Concat { .. }
        | LazySeq::Interleave(_)
        | LazySeq::Zip { .. }
        | LazySeq::Chain(_)
        | LazySeq::Transduce { .. }
        | LazySeq::Thunk(_) => {
            let _ = item;
            lazy(LazySeq::Skip {
                source: Value::Lazy(l.clone()),
                n: index,
            })
        }
    }
}

/// How many items in a row a scan over `l` may see before it knows the
/// sequence repeats itself: `Some(period)` for `repeat`/`cycle`.
pub(super) fn period(l: &LazySeq) -> Option<u64> {
    match l {
        LazySeq::Repeat(_) => Some(1),
        LazySeq::Cycle(items) => Some(items.len() as u64),
        _ => None,
    }
}

/// What `(lazy-seq body…)` calls (analyze/special.rs) with `(fn [] body…)`:
/// the lazy sequence that runs the body when realised (value/lazy.rs,
/// "lazy-seq"). In no table: `lazy-seq` is a special form.
pub static LAZY_SEQ: crate::builtins::Builtin = crate::builtins::Builtin::new(
    "lazy-seq",
    crate::builtins::Arity::exact(1),
    "(lazy-seq body...): a sequence whose body runs only when its items are needed; the body gives (cons x more) or nil (the end)",
    lazy_seq,
);

fn lazy_seq(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(Value::lazy(LazySeq::Thunk(crate::value::Thunk::new(
        a[0].clone(),
    ))))
}
