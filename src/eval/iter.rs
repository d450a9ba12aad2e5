//! Item-by-item iteration over any seqable value, infinite sequences
//! included.
//!
//! [`SeqIter`] is what every consumer that may meet an infinite sequence
//! (`take`, `take-while`, `first`, `nth`, `some`, `reduce`, `map` over several
//! sequences, `for`, `doseq` …) uses: finite values yield their items
//! (`args::items`' order), infinite ones generate items on demand, calling the
//! interpreter for `iterate`. Each generated item costs a step, so a consumer
//! that never stops runs into the step limit or the timeout, never a hang.

use crate::builtins::args;
use crate::error::Result;
use std::sync::Arc;

use crate::value::{LazySeq, Link, Thunk, Value, Vector};

use super::budget::HARD_MAX_DEPTH;
use super::Interp;

pub enum SeqIter {
    Finite {
        items: Vector,
        /// The index of the next item not in `run`.
        pos: usize,
        /// Items of a tree's current leaf still to give, last first
        /// ([`Vector::run_from`]): one tree lookup per leaf (small and flat
        /// vectors are indexed).
        run: Vec<Value>,
    },
    Range {
        next: Value,
        step: Value,
    },
    Iterate {
        f: Value,
        next: Option<Value>,
    },
    Repeat(Value),
    Cycle {
        items: Vector,
        pos: usize,
    },
    Map {
        f: Value,
        inner: Box<SeqIter>,
    },
    Filter {
        pred: Value,
        keep: bool,
        inner: Box<SeqIter>,
    },
    Skip {
        inner: Box<SeqIter>,
        n: u64,
    },
    Repeatedly(Value),
    Reductions {
        f: Value,
        /// The next item to give; `None` once ended.
        next: Option<Value>,
        inner: Box<SeqIter>,
    },
    TakeNth {
        n: u64,
        inner: Box<SeqIter>,
    },
    Concat {
        f: Value,
        inner: Box<SeqIter>,
        /// The items of the collection `f` gave last (an infinite one is
        /// taken item by item: `(mapcat (fn [x] (range)) s)`).
        chunk: Box<SeqIter>,
        /// The last chunk was `reduced`: end once it is given.
        last: bool,
    },
    Interleave {
        its: Vec<SeqIter>,
        pos: usize,
    },
    Zip {
        f: Value,
        its: Vec<SeqIter>,
    },
    Chain {
        its: Vec<SeqIter>,
        pos: usize,
    },
    /// A `lazy-seq` not reached yet (its body may have run already: then
    /// its cached value is iterated).
    Thunk(Arc<Link>),
    /// `(sequence xform source)`: the reducing function (made on the first
    /// item, `None` before), the items the last step gave, and whether the
    /// source or the transducer ended.
    Transduce {
        xform: Value,
        rf: Option<Value>,
        inner: Box<SeqIter>,
        items: Vector,
        pos: usize,
        done: bool,
    },
}

impl SeqIter {
    /// Iterates `v`; `fname` names the caller in type errors.
    pub fn new(fname: &str, v: &Value) -> Result<SeqIter> {
        let mut links = 0;
        let it = SeqIter::new_at(fname, v, 0, &mut links);
        // Each link's iterator is memory and work (charged like values).
        crate::eval::budget::charge_work(links as u64);
        crate::eval::budget::charge_heap(
            links as u64 * crate::value::cost::boxed_bytes::<SeqIter>(),
        );
        it
    }

    /// [`SeqIter::new`] for a link `depth` links below the sequence
    /// iterated: refused past [`HARD_MAX_DEPTH`] links deep, so building the
    /// iterator cannot overflow the stack, and past [`MAX_LINKS`] links in
    /// all (`links` counts them), so a chain that uses one link twice at
    /// each level (`(map + s s)`) cannot make it exponential.
    fn new_at(fname: &str, v: &Value, depth: usize, links: &mut usize) -> Result<SeqIter> {
        if depth > HARD_MAX_DEPTH {
            return Err(too_deep(HARD_MAX_DEPTH));
        }
        if let Value::Lazy(_) = v {
            *links += 1;
            if *links > MAX_LINKS {
                return Err(too_many_links());
            }
        }
        let below = depth + 1;
        Ok(match v {
            Value::Lazy(l) => match &***l {
                LazySeq::Range { start, step } => SeqIter::Range {
                    next: start.clone(),
                    step: step.clone(),
                },
                LazySeq::Iterate { f, seed } => SeqIter::Iterate {
                    f: f.clone(),
                    next: Some(seed.clone()),
                },
                LazySeq::Repeat(x) => SeqIter::Repeat(x.clone()),
                LazySeq::Cycle(items) => SeqIter::Cycle {
                    items: items.clone(),
                    pos: 0,
                },
                LazySeq::Map { f, source } => SeqIter::Map {
                    f: f.clone(),
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                },
                LazySeq::Filter { pred, keep, source } => SeqIter::Filter {
                    pred: pred.clone(),
                    keep: *keep,
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                },
                LazySeq::Skip { source, n } => SeqIter::Skip {
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                    n: *n,
                },
                LazySeq::Repeatedly(f) => SeqIter::Repeatedly(f.clone()),
                LazySeq::Reductions { f, init, source } => SeqIter::Reductions {
                    f: f.clone(),
                    next: Some(init.clone()),
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                },
                LazySeq::TakeNth { n, source } => SeqIter::TakeNth {
                    n: *n,
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                },
                LazySeq::Concat { f, source } => SeqIter::Concat {
                    f: f.clone(),
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                    chunk: Box::new(SeqIter::Finite {
                        items: Vector::new(),
                        pos: 0,
                        run: Vec::new(),
                    }),
                    last: false,
                },
                LazySeq::Interleave(seqs) => SeqIter::Interleave {
                    its: iters(fname, seqs, below, links)?,
                    pos: 0,
                },
                LazySeq::Zip { f, sources } => SeqIter::Zip {
                    f: f.clone(),
                    its: iters(fname, sources, below, links)?,
                },
                LazySeq::Chain(parts) => SeqIter::Chain {
                    its: iters(fname, parts, below, links)?,
                    pos: 0,
                },
                LazySeq::Thunk(_) => SeqIter::Thunk(l.clone()),
                LazySeq::Transduce { xform, source } => SeqIter::Transduce {
                    xform: xform.clone(),
                    rf: None,
                    inner: Box::new(SeqIter::new_at(fname, source, below, links)?),
                    items: Vector::new(),
                    pos: 0,
                    done: false,
                },
            },
            other => SeqIter::Finite {
                items: args::items(fname, other)?,
                pos: 0,
                run: Vec::new(),
            },
        })
    }

    /// The items this iterator gives next when they sit in one array (a
    /// small or flat vector being walked): what [`SeqIter::skip_in_array`]
    /// then passes over.
    pub(crate) fn rest_in_array(&self) -> Option<&[Value]> {
        match self {
            SeqIter::Finite { items, pos, run } if run.is_empty() && items.is_contiguous() => {
                Some(items.run_from(*pos))
            }
            _ => None,
        }
    }

    /// Passes over the first `n` items of [`SeqIter::rest_in_array`].
    pub(crate) fn skip_in_array(&mut self, n: usize) {
        if let SeqIter::Finite { pos, .. } = self {
            *pos += n;
        }
    }

    /// Whether the sequence never ends.
    pub fn is_infinite(&self) -> bool {
        !matches!(self, SeqIter::Finite { .. })
    }

    /// The next item, or `None` at the end of a finite sequence. Always
    /// inlined: it is the inner step of every walk over a collection.
    #[inline(always)]
    pub fn next(&mut self, interp: &mut Interp) -> Result<Option<Value>> {
        // The common case inline: the next item of a small or flat vector.
        if let SeqIter::Finite { items, pos, run } = self {
            if run.is_empty() && items.is_contiguous() {
                return Ok(next_in_place(items, pos));
            }
        }
        self.next_other(interp)
    }

    /// [`SeqIter::next`] of anything else.
    fn next_other(&mut self, interp: &mut Interp) -> Result<Option<Value>> {
        // A realised `lazy-seq`, and a chain at its last part, are replaced
        // by the iterator of what they lead to: walking a `(cons x
        // (lazy-seq …))` recursion nests no iterators (lazy.rs, "lazy-seq").
        loop {
            match self {
                SeqIter::Thunk(link) => {
                    let realised = match &***link {
                        LazySeq::Thunk(t) => realise_thunk(interp, t)?,
                        _ => Value::Lazy(link.clone()),
                    };
                    *self = SeqIter::new("lazy-seq", &realised)?;
                }
                SeqIter::Chain { its, pos } if *pos + 1 == its.len() => {
                    if let Some(last) = its.pop() {
                        *self = last;
                    }
                }
                _ => return self.step(interp),
            }
        }
    }

    fn step(&mut self, interp: &mut Interp) -> Result<Option<Value>> {
        match self {
            SeqIter::Thunk(_) => self.next(interp),
            SeqIter::Finite { items, pos, run } => {
                if let Some(item) = run.pop() {
                    return Ok(Some(item));
                }
                if items.is_contiguous() {
                    return Ok(next_in_place(items, pos));
                }
                let leaf = items.run_from(*pos);
                *pos += leaf.len();
                run.extend(leaf.iter().rev().cloned());
                Ok(run.pop())
            }
            SeqIter::Range { next, step } => {
                interp.tick(1)?;
                let item = next.clone();
                *next = match (&item, &*step) {
                    (Value::Int(a), Value::Int(b)) => match a.checked_add(*b) {
                        Some(n) => Value::Int(n),
                        None => {
                            return Err(crate::error::Error::arithmetic(
                                "range overflowed 64-bit integers",
                            ))
                        }
                    },
                    (a, b) => Value::Float(as_f64(a) + as_f64(b)),
                };
                Ok(Some(item))
            }
            SeqIter::Iterate { f, next } => {
                interp.tick(1)?;
                let item = match next.take() {
                    Some(v) => v,
                    None => return Ok(None),
                };
                let f = f.clone();
                *next = Some(interp.call(&f, std::slice::from_ref(&item))?);
                Ok(Some(item))
            }
            SeqIter::Repeat(x) => {
                interp.tick(1)?;
                Ok(Some(x.clone()))
            }
            SeqIter::Cycle { items, pos } => {
                interp.tick(1)?;
                if items.is_empty() {
                    return Ok(None);
                }
                let item = items[*pos % items.len()].clone();
                *pos += 1;
                Ok(Some(item))
            }
            SeqIter::Map { f, inner } => match pull(inner, interp)? {
                Some(x) => {
                    let f = f.clone();
                    Ok(Some(interp.call(&f, &[x])?))
                }
                None => Ok(None),
            },
            SeqIter::Filter { pred, keep, inner } => {
                while let Some(x) = pull(inner, interp)? {
                    let pred = pred.clone();
                    if interp.call(&pred, std::slice::from_ref(&x))?.truthy() == *keep {
                        return Ok(Some(x));
                    }
                }
                Ok(None)
            }
            SeqIter::Skip { inner, n } => {
                while *n > 0 {
                    *n -= 1;
                    if pull(inner, interp)?.is_none() {
                        return Ok(None);
                    }
                }
                pull(inner, interp)
            }
            SeqIter::Repeatedly(f) => {
                interp.tick(1)?;
                let f = f.clone();
                Ok(Some(interp.call(&f, &[])?))
            }
            SeqIter::Reductions { f, next, inner } => {
                let Some(acc) = next.take() else {
                    return Ok(None);
                };
                if let Value::Reduced(v) = acc {
                    return Ok(Some((*v).clone()));
                }
                if let Some(x) = pull(inner, interp)? {
                    let f = f.clone();
                    *next = Some(interp.call(&f, &[acc.clone(), x])?);
                }
                Ok(Some(acc))
            }
            SeqIter::TakeNth { n, inner } => {
                let item = pull(inner, interp)?;
                if item.is_some() {
                    for _ in 1..*n {
                        if pull(inner, interp)?.is_none() {
                            break;
                        }
                    }
                }
                Ok(item)
            }
            SeqIter::Concat {
                f,
                inner,
                chunk,
                last,
            } => loop {
                if let Some(x) = pull(chunk, interp)? {
                    return Ok(Some(x));
                }
                if *last {
                    return Ok(None);
                }
                let Some(x) = pull(inner, interp)? else {
                    return Ok(None);
                };
                interp.tick(1)?;
                let f = f.clone();
                let coll = match interp.call(&f, &[x])? {
                    Value::Reduced(v) => {
                        *last = true;
                        (*v).clone()
                    }
                    v => v,
                };
                **chunk = SeqIter::new("mapcat", &coll)?;
            },
            SeqIter::Transduce {
                xform,
                rf,
                inner,
                items,
                pos,
                done,
            } => loop {
                if let Some(x) = items.get(*pos) {
                    *pos += 1;
                    return Ok(Some(x.clone()));
                }
                if *done {
                    return Ok(None);
                }
                *items = Vector::new();
                *pos = 0;
                let step = match rf {
                    Some(step) => step.clone(),
                    None => {
                        let made = interp.call(xform, &[conj_fn()?])?;
                        rf.insert(made).clone()
                    }
                };
                let empty = Value::vector(Vector::new());
                let out = match pull(inner, interp)? {
                    Some(x) => {
                        interp.tick(1)?;
                        match interp.call(&step, &[empty, x])? {
                            Value::Reduced(acc) => {
                                *done = true;
                                interp.call(&step, &[(*acc).clone()])?
                            }
                            acc => acc,
                        }
                    }
                    None => {
                        *done = true;
                        interp.call(&step, &[empty])?
                    }
                };
                *items = args::items("sequence", &out)?;
            },
            SeqIter::Zip { f, its } => {
                let mut row = Vec::with_capacity(its.len());
                for it in its.iter_mut() {
                    match pull(it, interp)? {
                        Some(x) => row.push(x),
                        None => return Ok(None),
                    }
                }
                let f = f.clone();
                Ok(Some(interp.call(&f, &row)?))
            }
            SeqIter::Chain { its, pos } => {
                while let Some(it) = its.get_mut(*pos) {
                    if let Some(x) = pull(it, interp)? {
                        return Ok(Some(x));
                    }
                    *pos += 1;
                }
                Ok(None)
            }
            SeqIter::Interleave { its, pos } => {
                if its.is_empty() {
                    return Ok(None);
                }
                let i = *pos % its.len();
                *pos += 1;
                match pull(&mut its[i], interp)? {
                    Some(x) => Ok(Some(x)),
                    None => {
                        // The shortest ended: so does the interleaving.
                        its.clear();
                        Ok(None)
                    }
                }
            }
        }
    }
}

/// What the body of `lazy-seq` `t` gives: run now if it has not run yet
/// (a step, and a call nested inside a link: `max_depth`), else the value
/// it gave before. The body runs at most once (value/lazy.rs, "lazy-seq");
/// a body that realises its own sequence is a `limit-exceeded` error.
pub(crate) fn realise_thunk(interp: &mut Interp, t: &Thunk) -> Result<Value> {
    use std::sync::atomic::Ordering;
    if let Some(v) = t.value.get() {
        return Ok(v.clone());
    }
    if t.running.swap(true, Ordering::AcqRel) {
        return Err(crate::error::Error::limit(
            "a lazy-seq's body needs the items of its own sequence (it realises itself)",
        )
        .with_hint(
            "the body should give (cons x (next-part …)) with the rest in a new lazy-seq, \
             not take items of the sequence being built",
        ));
    }
    let realised = interp.tick(1).and_then(|()| {
        interp.budget.enter_link()?;
        let r = interp.call(&t.f, &[]);
        interp.budget.leave();
        r
    });
    t.running.store(false, Ordering::Release);
    let v = realised?;
    // Another thread holding the same sequence may have realised it
    // meanwhile: the first value kept is the one everybody sees.
    Ok(t.value.get_or_init(|| v).clone())
}

/// The item at `pos` of a small or flat vector (indexed in place), `pos`
/// moved past it.
#[inline(always)]
fn next_in_place(items: &Vector, pos: &mut usize) -> Option<Value> {
    let item = items.get(*pos).cloned();
    *pos += 1;
    item
}

fn iters(fname: &str, seqs: &[Value], depth: usize, links: &mut usize) -> Result<Vec<SeqIter>> {
    seqs.iter()
        .map(|s| SeqIter::new_at(fname, s, depth, links))
        .collect()
}

/// `conj`, the reducing function `sequence` gives its transducer.
fn conj_fn() -> Result<Value> {
    crate::builtins::lookup_in(crate::builtins::Ns::Core, "conj")
        .map(|b| Value::Fn(crate::value::Func::builtin(b)))
        .ok_or_else(|| crate::error::Error::internal("builtin conj is missing"))
}

/// The most links one iterator may walk (a link used twice counts twice).
pub const MAX_LINKS: usize = 100_000;

fn too_many_links() -> crate::error::Error {
    crate::error::Error::limit(format!(
        "a lazy sequence is built of more than {MAX_LINKS} links (a sequence used twice in \
         one link, as in (map + s s), counts twice, so nesting such links doubles the count)"
    ))
    .with_hint("realise the inner sequence before combining it with itself (e.g. (vec (take n s)))")
}

/// The next item of the link below: realising it counts as one more level
/// of call nesting ([`crate::eval::Budget::enter_link`]), so a chain of
/// links, and calls made while realising one, stay within `max_depth` and
/// the native stack.
fn pull(inner: &mut SeqIter, interp: &mut Interp) -> Result<Option<Value>> {
    interp.budget.enter_link()?;
    let item = inner.next(interp);
    interp.budget.leave();
    item
}

/// The error for a chain of lazy links nested deeper than `max` links.
pub(crate) fn too_deep(max: usize) -> crate::error::Error {
    crate::error::Error::limit(format!(
        "a lazy sequence nests more than {max} links deep (each map, filter, remove, keep, \
         take-nth, mapcat, drop … of a lazy sequence is a link over it)"
    ))
    .with_hint(
        "realise the inner sequence before wrapping it again (e.g. (vec (take n s))), or \
         build the items in one pass with loop/recur",
    )
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// The first `n` items of `v` when that needs no function calls (finite
/// values, and infinite sequences other than `iterate`).
pub fn take_items(fname: &str, v: &Value, n: usize) -> Result<Vector> {
    match v {
        Value::Lazy(l) => {
            let mut out = Vector::new();
            match &***l {
                LazySeq::Range { start, step } => {
                    let mut cur = start.clone();
                    for _ in 0..n {
                        out.push_back(cur.clone());
                        cur = match (&cur, step) {
                            (Value::Int(a), Value::Int(b)) => Value::Int(a.saturating_add(*b)),
                            (a, b) => Value::Float(as_f64(a) + as_f64(b)),
                        };
                    }
                }
                LazySeq::Repeat(x) => (0..n).for_each(|_| out.push_back(x.clone())),
                LazySeq::Cycle(items) if !items.is_empty() => {
                    (0..n).for_each(|i| out.push_back(items[i % items.len()].clone()))
                }
                LazySeq::Cycle(_) => {}
                LazySeq::Iterate { .. }
                | LazySeq::Map { .. }
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
                | LazySeq::Thunk(_) => return Err(args::infinite(fname)),
            }
            Ok(out)
        }
        other => {
            let items = args::items(fname, other)?;
            Ok(if n < items.len() {
                items.take(n)
            } else {
                items
            })
        }
    }
}
