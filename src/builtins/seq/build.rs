//! Sequence builders models reach for: `reductions`, `take-nth`,
//! `repeatedly`, `sequence`, `run!`. Over an infinite input (or, for
//! `repeatedly`, without a count) they give an infinite sequence whose items
//! are computed as they are taken ([`LazySeq`]); otherwise a vector.

use super::{built, count_arg, gen, seqable, xf};
use crate::builtins::args;
use crate::error::{Error, Result};
use crate::eval::iter::SeqIter;
use crate::eval::Interp;
use crate::value::{cost, LazySeq, Value, Vector};

/// Every item of a finite `it`, as a vector (one step and one slot each).
fn realize(interp: &mut Interp, mut it: SeqIter) -> Result<Value> {
    let mut out = Vector::new();
    while let Some(x) = it.next(interp)? {
        interp.tick(1)?;
        interp.alloc(cost::vector_push(out.len()))?;
        out.push_back(x);
    }
    built(interp, out)
}

/// `(reductions f coll)`, `(reductions f init coll)`: the intermediate
/// values of `(reduce f …)`, starting with the initial one; `reduced` ends
/// them (its value is the last item). `(reductions f [])` is `[(f)]`.
pub(super) fn reductions(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("reductions", f)?;
    let (init, source) = match a {
        [_, coll] => {
            seqable("reductions", coll)?;
            let mut it = SeqIter::new("reductions", coll)?;
            match it.next(interp)? {
                None => {
                    let v = interp.call(f, &[])?;
                    return built(interp, std::iter::once(v).collect());
                }
                Some(first) => (first, rest_of(interp, coll)?),
            }
        }
        [_, init, coll, ..] => {
            seqable("reductions", coll)?;
            (init.clone(), coll.clone())
        }
        _ => return Err(Error::internal("reductions called with too few arguments")),
    };
    let l = LazySeq::Reductions {
        f: f.clone(),
        init,
        source,
    };
    lazy_or_realized(interp, "reductions", l)
}

/// `coll` without its first item (an infinite sequence stays one).
fn rest_of(interp: &mut Interp, coll: &Value) -> Result<Value> {
    match coll {
        Value::Lazy(l) => gen::drop_lazy(interp, l, 1),
        other => {
            let items = args::items("reductions", other)?;
            Ok(Value::vector(super::vskip(&items, 1)))
        }
    }
}

/// `l` itself when its source is infinite, else its items as a vector.
fn lazy_or_realized(interp: &mut Interp, fname: &str, l: LazySeq) -> Result<Value> {
    let infinite = match &l {
        LazySeq::Reductions { source, .. } | LazySeq::TakeNth { source, .. } => {
            matches!(source, Value::Lazy(_))
        }
        _ => true,
    };
    let v = Value::lazy(l);
    if infinite {
        return Ok(v);
    }
    let it = SeqIter::new(fname, &v)?;
    realize(interp, it)
}

/// `(take-nth n coll)`: items 0, n, 2n, … of `coll`.
pub(super) fn take_nth(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let n = count_arg("take-nth", &a[0])?;
    if n < 1 {
        return Err(
            Error::execution(format!("take-nth expects a positive step, got {n}"))
                .with_hint("(take-nth 2 coll) keeps every second item"),
        );
    }
    let coll = &a[1];
    seqable("take-nth", coll)?;
    let l = LazySeq::TakeNth {
        n: n as u64,
        source: coll.clone(),
    };
    lazy_or_realized(interp, "take-nth", l)
}

/// `(repeatedly f)` (infinite) or `(repeatedly n f)`: calls `f` with no
/// arguments for each item.
pub(super) fn repeatedly(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [f] => {
            args::callable("repeatedly", f)?;
            Ok(Value::lazy(LazySeq::Repeatedly(f.clone())))
        }
        [n, f, ..] => {
            let n = count_arg("repeatedly", n)?.max(0) as u64;
            args::callable("repeatedly", f)?;
            interp.alloc(cost::vector_bytes_for(n))?;
            let mut out = Vector::new();
            for _ in 0..n {
                interp.tick(1)?;
                out.push_back(interp.call(f, &[])?);
            }
            Ok(Value::vector(out))
        }
        [] => Err(Error::internal("repeatedly called without arguments")),
    }
}

/// `(sequence coll)`: the items of `coll` (an infinite sequence as
/// itself); `(sequence xform coll)`: `coll` through the transducer, as
/// `(into [] xform coll)`.
pub(super) fn sequence(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    match a {
        [coll] => match coll {
            Value::Lazy(_) => Ok(coll.clone()),
            Value::Vector(_) => Ok(coll.clone()),
            other => {
                let items = args::items("sequence", other)?;
                interp.tick(items.len() as u64)?;
                built(interp, items)
            }
        },
        [xform, coll, ..] => {
            args::callable("sequence", xform)?;
            if let Value::Lazy(_) = coll {
                // Item by item, the transducer's state fresh for each walk
                // (value/lazy.rs, `Transduce`).
                return Ok(Value::lazy(crate::value::LazySeq::Transduce {
                    xform: xform.clone(),
                    source: coll.clone(),
                }));
            }
            let conj = crate::builtins::lookup_in(crate::builtins::Ns::Core, "conj")
                .ok_or_else(|| Error::internal("builtin conj is missing"))?;
            xf::transduce_with(
                interp,
                "sequence",
                xform,
                &Value::Fn(crate::value::Func::builtin(conj)),
                Value::vector(Vector::new()),
                coll,
            )
        }
        [] => Err(Error::internal("sequence called without arguments")),
    }
}

/// `(run! f coll)`: calls `f` on each item for its effects; nil. Stops
/// early when `f` returns a `reduced` value, as Clojure's does.
pub(super) fn run(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    args::callable("run!", f)?;
    let mut it = SeqIter::new("run!", &a[1])?;
    while let Some(x) = it.next(interp)? {
        interp.tick(1)?;
        if let Value::Reduced(_) = interp.call(f, &[x])? {
            break;
        }
    }
    Ok(Value::Nil)
}
