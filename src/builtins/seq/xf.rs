//! Transducers (`(map f)`, `(filter p)`, `(take n)` …), `transduce` and
//! `completing`.
//!
//! A transducer is a function of one reducing function `rf` returning
//! another reducing function with three arities: `()` (init), `(acc)`
//! (completion) and `(acc x)` (step). Stateful ones (`take`, `distinct`,
//! `partition-all` …) make fresh state each time they are applied to an
//! `rf`. A step returning `(reduced v)` stops the reduction.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::hof::fold;
use super::test;
use crate::builtins::args;
use crate::error::{Error, Result};
use crate::eval::iter::SeqIter;
use crate::eval::Interp;
use crate::value::order::lisp_equal;
use crate::value::{cost, Func, Set, Value, Vector};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A transducer value named `name` that builds its reducing function with
/// `make`.
fn transducer(name: &'static str, make: impl Fn(Value) -> Value + Send + Sync + 'static) -> Value {
    Func::native(name, move |_interp, a| match a {
        [rf] => Ok(make(rf.clone())),
        _ => Err(Error::arity(format!(
            "the ({name} …) transducer expects 1 argument (a reducing function), got {}",
            a.len()
        ))
        .with_hint("use it with transduce, e.g. (transduce (map inc) + coll)")),
    })
}

fn rf_arity(name: &str, got: usize) -> Error {
    Error::arity(format!(
        "a reducing function from ({name} …) expects 0, 1 or 2 arguments, got {got}"
    ))
}

/// A reducing function whose init and completion pass through to `rf`.
/// It takes the accumulator it is handed and hands it on to `rf` ([`feed`]),
/// so nothing else holds it when `rf` (`conj`, `assoc` …) adds to it.
fn stepper(
    name: &'static str,
    rf: Value,
    step: impl Fn(&mut Interp, &Value, Value, Value) -> Result<Value> + Send + Sync + 'static,
) -> Value {
    Func::native_taking(name, move |interp, a| match a {
        [] => interp.call(&rf, &[]),
        [acc] => interp.call_mut(&rf, std::slice::from_mut(acc)),
        [acc, x] => step(interp, &rf, Value::take(acc), Value::take(x)),
        _ => Err(rf_arity(name, a.len())),
    })
}

/// `(rf acc x)`, handing `rf` both values.
fn feed(interp: &mut Interp, rf: &Value, acc: Value, x: Value) -> Result<Value> {
    interp.call_mut(rf, &mut [acc, x])
}

fn ensure_reduced(v: Value) -> Value {
    match v {
        Value::Reduced(_) => v,
        other => Value::Reduced(Arc::new(other)),
    }
}

fn unreduced(v: Value) -> Value {
    match v {
        Value::Reduced(inner) => (*inner).clone(),
        other => other,
    }
}

pub(super) fn map(f: Value) -> Value {
    transducer("map", move |rf| {
        let f = f.clone();
        stepper("map", rf, move |interp, rf, acc, x| {
            let y = interp.call(&f, &[x])?;
            feed(interp, rf, acc, y)
        })
    })
}

pub(super) fn map_indexed(f: Value) -> Value {
    transducer("map-indexed", move |rf| {
        let f = f.clone();
        let i = AtomicI64::new(0);
        stepper("map-indexed", rf, move |interp, rf, acc, x| {
            let idx = i.fetch_add(1, Ordering::Relaxed);
            let y = interp.call(&f, &[Value::Int(idx), x])?;
            feed(interp, rf, acc, y)
        })
    })
}

/// `(filter pred)` (`keep_if` true) or `(remove pred)`.
pub(super) fn filter(pred: Value, keep_if: bool) -> Value {
    let name = if keep_if { "filter" } else { "remove" };
    transducer(name, move |rf| {
        let pred = pred.clone();
        stepper(name, rf, move |interp, rf, acc, x| {
            if test(interp, &pred, &x)? == keep_if {
                feed(interp, rf, acc, x)
            } else {
                Ok(acc)
            }
        })
    })
}

/// `(keep f)` or `(keep-indexed f)`.
pub(super) fn keep(f: Value, indexed: bool) -> Value {
    let name = if indexed { "keep-indexed" } else { "keep" };
    transducer(name, move |rf| {
        let f = f.clone();
        let i = AtomicI64::new(0);
        stepper(name, rf, move |interp, rf, acc, x| {
            let y = if indexed {
                let idx = i.fetch_add(1, Ordering::Relaxed);
                interp.call(&f, &[Value::Int(idx), x])?
            } else {
                interp.call(&f, &[x])?
            };
            if y.is_nil() {
                Ok(acc)
            } else {
                feed(interp, rf, acc, y)
            }
        })
    })
}

pub(super) fn mapcat(f: Value) -> Value {
    transducer("mapcat", move |rf| {
        let f = f.clone();
        stepper("mapcat", rf, move |interp, rf, mut acc, x| {
            let ys = interp.call(&f, &[x])?;
            for y in args::items("mapcat", &ys)? {
                acc = feed(interp, rf, acc, y)?;
                if let Value::Reduced(_) = acc {
                    break;
                }
            }
            Ok(acc)
        })
    })
}

pub(super) fn take(n: i64) -> Value {
    transducer("take", move |rf| {
        let left = AtomicI64::new(n);
        stepper("take", rf, move |interp, rf, acc, x| {
            let before = left.fetch_sub(1, Ordering::Relaxed);
            let acc = if before > 0 {
                feed(interp, rf, acc, x)?
            } else {
                acc
            };
            Ok(if before - 1 <= 0 {
                ensure_reduced(acc)
            } else {
                acc
            })
        })
    })
}

pub(super) fn take_while(pred: Value) -> Value {
    transducer("take-while", move |rf| {
        let pred = pred.clone();
        stepper("take-while", rf, move |interp, rf, acc, x| {
            if test(interp, &pred, &x)? {
                feed(interp, rf, acc, x)
            } else {
                Ok(ensure_reduced(acc))
            }
        })
    })
}

pub(super) fn drop(n: i64) -> Value {
    transducer("drop", move |rf| {
        let left = AtomicI64::new(n);
        stepper("drop", rf, move |interp, rf, acc, x| {
            if left.load(Ordering::Relaxed) > 0 {
                left.fetch_sub(1, Ordering::Relaxed);
                Ok(acc)
            } else {
                feed(interp, rf, acc, x)
            }
        })
    })
}

pub(super) fn drop_while(pred: Value) -> Value {
    transducer("drop-while", move |rf| {
        let pred = pred.clone();
        let dropping = AtomicBool::new(true);
        stepper("drop-while", rf, move |interp, rf, acc, x| {
            if dropping.load(Ordering::Relaxed) && test(interp, &pred, &x)? {
                return Ok(acc);
            }
            dropping.store(false, Ordering::Relaxed);
            feed(interp, rf, acc, x)
        })
    })
}

pub(super) fn distinct() -> Value {
    transducer("distinct", move |rf| {
        let seen = Mutex::new(Set::new());
        stepper("distinct", rf, move |interp, rf, acc, x| {
            let grown = {
                let mut seen = lock(&seen);
                let before = seen.len();
                seen.insert(x.clone());
                (seen.len() > before).then(|| cost::set_growth(before, seen.len()))
            };
            if let Some(bytes) = grown {
                interp.alloc(bytes)?;
                feed(interp, rf, acc, x)
            } else {
                Ok(acc)
            }
        })
    })
}

pub(super) fn dedupe() -> Value {
    transducer("dedupe", move |rf| {
        let prev: Mutex<Option<Value>> = Mutex::new(None);
        stepper("dedupe", rf, move |interp, rf, acc, x| {
            let same = {
                let mut p = lock(&prev);
                let same = p.as_ref().is_some_and(|p| lisp_equal(p, &x));
                *p = Some(x.clone());
                same
            };
            if same {
                Ok(acc)
            } else {
                feed(interp, rf, acc, x)
            }
        })
    })
}

pub(super) fn interpose(sep: Value) -> Value {
    transducer("interpose", move |rf| {
        let sep = sep.clone();
        let started = AtomicBool::new(false);
        stepper("interpose", rf, move |interp, rf, acc, x| {
            if started.swap(true, Ordering::Relaxed) {
                let acc = feed(interp, rf, acc, sep.clone())?;
                if let Value::Reduced(_) = acc {
                    return Ok(acc);
                }
                feed(interp, rf, acc, x)
            } else {
                feed(interp, rf, acc, x)
            }
        })
    })
}

pub(super) fn replace(smap: Value) -> Value {
    transducer("replace", move |rf| {
        let smap = smap.clone();
        stepper("replace", rf, move |interp, rf, acc, x| {
            let y = super::group::replace_one(&smap, x);
            feed(interp, rf, acc, y)
        })
    })
}

/// A reducing function that buffers items and flushes the buffer at
/// completion (`partition-all`, `partition-by`).
fn buffering(
    name: &'static str,
    rf: Value,
    state: Arc<Mutex<(Vector, Option<Value>)>>,
    step: impl Fn(&mut Interp, &Value, Value, Value) -> Result<Value> + Send + Sync + 'static,
) -> Value {
    Func::native_taking(name, move |interp, a| match a {
        [] => interp.call(&rf, &[]),
        [acc] => {
            let buf = std::mem::take(&mut lock(&state).0);
            let acc = if buf.is_empty() {
                Value::take(acc)
            } else {
                interp.alloc(cost::vector_bytes(buf.len()))?;
                unreduced(feed(interp, &rf, Value::take(acc), Value::vector(buf))?)
            };
            interp.call_mut(&rf, &mut [acc])
        }
        [acc, x] => step(interp, &rf, Value::take(acc), Value::take(x)),
        _ => Err(rf_arity(name, a.len())),
    })
}

pub(super) fn partition_all(n: i64) -> Value {
    transducer("partition-all", move |rf| {
        let state = Arc::new(Mutex::new((Vector::new(), None)));
        let st = state.clone();
        buffering("partition-all", rf, state, move |interp, rf, acc, x| {
            let full = {
                let mut s = lock(&st);
                s.0.push_back(x);
                if s.0.len() as i64 >= n {
                    Some(std::mem::take(&mut s.0))
                } else {
                    None
                }
            };
            match full {
                Some(chunk) => {
                    interp.alloc(cost::vector_bytes(chunk.len()))?;
                    feed(interp, rf, acc, Value::vector(chunk))
                }
                None => Ok(acc),
            }
        })
    })
}

pub(super) fn partition_by(f: Value) -> Value {
    transducer("partition-by", move |rf| {
        let f = f.clone();
        let state = Arc::new(Mutex::new((Vector::new(), None)));
        let st = state.clone();
        buffering("partition-by", rf, state, move |interp, rf, acc, x| {
            let k = interp.call(&f, std::slice::from_ref(&x))?;
            let done = {
                let mut s = lock(&st);
                let same = s.1.as_ref().is_none_or(|p| lisp_equal(p, &k));
                s.1 = Some(k);
                if same || s.0.is_empty() {
                    s.0.push_back(x.clone());
                    None
                } else {
                    Some(std::mem::take(&mut s.0))
                }
            };
            match done {
                None => Ok(acc),
                Some(chunk) => {
                    interp.alloc(cost::vector_bytes(chunk.len()))?;
                    let r = feed(interp, rf, acc, Value::vector(chunk))?;
                    if !matches!(r, Value::Reduced(_)) {
                        lock(&st).0.push_back(x);
                    }
                    Ok(r)
                }
            }
        })
    })
}

/// `(transduce xform f coll)` / `(transduce xform f init coll)`.
pub(super) fn transduce(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let (xform, f, init, coll) = match a {
        [x, f, coll] => (x, f, None, coll),
        [x, f, init, coll, ..] => (x, f, Some(init), coll),
        _ => return Err(Error::internal("transduce called with too few arguments")),
    };
    args::callable("transduce", xform)?;
    args::callable("transduce", f)?;
    let init = match init {
        Some(v) => v.clone(),
        None => interp.call(f, &[])?,
    };
    transduce_with(interp, "transduce", xform, f, init, coll)
}

/// Reduces `coll` with `(xform f)` from `init` and completes the result:
/// what `transduce` does, for other builtins (`into` with a transducer).
/// `fname` names the caller in errors.
pub fn transduce_with(
    interp: &mut Interp,
    fname: &str,
    xform: &Value,
    f: &Value,
    init: Value,
    coll: &Value,
) -> Result<Value> {
    let rf = interp.call(xform, std::slice::from_ref(f))?;
    let mut it = SeqIter::new(fname, coll)?;
    let acc = fold(interp, &rf, init, &mut it)?;
    interp.call_mut(&rf, &mut [acc])
}

/// `(completing f)` / `(completing f cf)`.
pub(super) fn completing(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = a[0].clone();
    args::callable("completing", &f)?;
    let cf = a.get(1).cloned();
    if let Some(cf) = &cf {
        args::callable("completing", cf)?;
    }
    Ok(Func::native_taking(
        "completing",
        move |interp, a| match a {
            [] => interp.call(&f, &[]),
            [x] => match &cf {
                Some(cf) => interp.call_mut(cf, std::slice::from_mut(x)),
                None => Ok(Value::take(x)),
            },
            [acc, x] => feed(interp, &f, Value::take(acc), Value::take(x)),
            _ => Err(rf_arity("completing", a.len())),
        },
    ))
}
