//! Lazy sequences: `(lazy-seq …)` (which may end), and the infinite ones:
//! `(range)`, `(range start)`… with no end, `(iterate f x)`, `(repeat x)`,
//! `(cycle coll)`, `(repeatedly f)`, and `map`/`filter`/`remove`/`drop`/
//! `reductions`/`take-nth`/`mapcat`/`interleave` (and `for`) of lazy ones.
//!
//! They are descriptions, not buffers: consumers (`take`, `take-while`,
//! `first`, `nth`, `some`, `reduce` with `reduced`, `map` beside a finite
//! sequence …) pull items one at a time through [`crate::builtins::seq`]'s
//! iteration helpers. Anything that would realize one completely ends in a
//! `limit-exceeded` error instead of hanging.
//!
//! **Chains of links** (issue 23). A sequence built over another (`map`,
//! `filter`, `drop` … of a lazy one) is a link over it, and a program can
//! nest millions (`(nth (iterate #(map inc %) (range)) 2000000)`). Rules:
//! * every link is built by [`Value::lazy`] and charged to the heap (its
//!   allocation, plus a slot per source it keeps in an array:
//!   `cost::lazy_link_bytes`);
//! * taking an item through a link counts as one nested call
//!   (`max_depth`, `Budget::enter_link`), calls made on the way included;
//! * an iterator over a sequence walks at most 20,000 links deep and
//!   100,000 links in all (`eval/iter.rs`; a link over the same sequence
//!   twice counts it twice), else `limit-exceeded`;
//! * dropping a chain is iterative (a per-thread queue), at any length.
//!
//! **`lazy-seq`** (issue 27). `(lazy-seq body…)` is a `Thunk` link over
//! `(fn [] body…)`: the body runs when an item is first needed, and gives
//! the rest of the sequence (`nil`: the end), typically `(cons x (f …))`
//! whose tail is the next `lazy-seq`. Rules:
//! * realising a thunk is a function call made inside a link (`max_depth`),
//!   costs a step, and its result replaces the thunk in the iterator, as
//!   the last part of a `cons`/`concat` replaces the chain once reached:
//!   walking `(cons x (lazy-seq …))` recursions item after item keeps the
//!   native stack flat at any length;
//! * the body runs at most once ([`Thunk`]): what it gave is kept in the
//!   link and shared by every holder of the sequence (tool calls and
//!   prints in a body happen once), as in Clojure; a body that fails keeps
//!   nothing and runs again when realised again; a body that needs its own
//!   items is a `limit-exceeded` error (Clojure overflows its stack);
//! * the links after a realised one stay reachable from it: holding the
//!   head of a long realised sequence holds all of it (charged to the heap
//!   when built), as in Clojure; dropping it is iterative like any chain;
//! * unlike the others it may end ([`Value::may_end`], O(1): a flag each
//!   [`Link`] gets when built, set for a `Thunk` and for a link over one
//!   that may end). A function that
//!   needs the whole sequence (`count`, `vec`, `sort`, `=`, `str`,
//!   printing the result …) realises it into a vector of at most
//!   `eval::iter::MAX_REALISED` items (each charged to the heap and the
//!   steps); more is `limit-exceeded`, so an endless one ends in a limit
//!   error, never a hang or a stack overflow;
//! * `seq`, `next` and `not-empty` of an empty one are `nil`, `empty?` is
//!   `true` (its first item is realised to know).

use super::{Value, Vector};

pub enum LazySeq {
    /// `start, start+step, …` (integers or floats).
    Range { start: Value, step: Value },
    /// `x, (f x), (f (f x)), …`
    Iterate { f: Value, seed: Value },
    /// `x, x, x, …`
    Repeat(Value),
    /// The items of a non-empty vector, over and over.
    Cycle(Vector),
    /// `(map f source)` of an infinite `source`: `f` runs as items are taken.
    Map { f: Value, source: Value },
    /// `(filter pred source)` (`keep` true) or `(remove pred source)`.
    Filter {
        pred: Value,
        keep: bool,
        source: Value,
    },
    /// `source` without its first `n` items.
    Skip { source: Value, n: u64 },
    /// `(repeatedly f)`: `(f), (f), …`
    Repeatedly(Value),
    /// `(reductions f init source)`: `init, (f init x0), …`; ends after a
    /// `reduced` accumulator.
    Reductions {
        f: Value,
        init: Value,
        source: Value,
    },
    /// `(take-nth n source)`: items 0, n, 2n, … (`n` ≥ 1).
    TakeNth { n: u64, source: Value },
    /// The collection `f` gives for each item of `source`, concatenated
    /// (`mapcat`, and `for` over an infinite first binding). `f` may give
    /// `Reduced(coll)`: its items, then the end (`:while`).
    Concat { f: Value, source: Value },
    /// `(interleave s1 s2 …)`: the first item of each, then the second …;
    /// ends with the shortest.
    Interleave(Vec<Value>),
    /// `(map f s1 s2 …)` of infinite sequences (and `map-indexed`): `f` of
    /// the first items, of the second …; ends with the shortest.
    Zip { f: Value, sources: Vec<Value> },
    /// `(concat a b …)`, `(cons x s)`: the items of each in turn (the last
    /// one lazy).
    Chain(Vec<Value>),
    /// `(lazy-seq body…)`: the zero-argument function of the body, called
    /// when the sequence is realised; the seqable it gives (`nil` = empty)
    /// holds the items. Unlike the others it may end: see
    /// [`Value::may_end`].
    Thunk(Thunk),
    /// `(sequence xform source)` of a lazy `source`: each item taken from
    /// `source` goes through the transducer (its state fresh for each walk
    /// of the sequence); what it gives is the items, its completion runs
    /// when `source` ends or the transducer stops it (`reduced`).
    Transduce { xform: Value, source: Value },
}

impl Value {
    /// A new lazy link, charged to the running turn's heap budget
    /// ([`super::cost::lazy_link_bytes`], through the per-thread meter,
    /// enforced at the program's next step). Every lazy link is built here,
    /// so a program cannot nest millions of them for free
    /// (`(nth (iterate #(map inc %) (range)) 2000000)`).
    pub fn lazy(seq: LazySeq) -> Value {
        let array_sources = match &seq {
            LazySeq::Interleave(v) | LazySeq::Chain(v) => v.len(),
            LazySeq::Zip { sources, .. } => sources.len(),
            _ => 0,
        };
        crate::eval::budget::charge_heap(super::cost::lazy_link_bytes(array_sources));
        let may_end = seq.may_end_here();
        if may_end {
            THUNKS_BUILT.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Value::Lazy(std::sync::Arc::new(Link { seq, may_end }))
    }

    /// Whether `self` is a lazy sequence that may be finite: one built on a
    /// `lazy-seq` (a `Thunk` link among its sources, at any depth). The
    /// others never end. O(1): the flag is set when the link is built.
    pub fn may_end(&self) -> bool {
        matches!(self, Value::Lazy(l) if l.may_end)
    }
}

/// One lazy link: the sequence it describes ([`LazySeq`], what it derefs
/// to) and whether it may end ([`Value::may_end`]), decided once when it is
/// built from its direct sources' flags.
pub struct Link {
    seq: LazySeq,
    may_end: bool,
}

impl Link {
    /// A link built outside [`Value::lazy`] (tests): uncharged.
    #[cfg(test)]
    pub(crate) fn new(seq: LazySeq) -> std::sync::Arc<Link> {
        let may_end = seq.may_end_here();
        std::sync::Arc::new(Link { seq, may_end })
    }
}

impl std::ops::Deref for Link {
    type Target = LazySeq;
    fn deref(&self) -> &LazySeq {
        &self.seq
    }
}

/// Set once any link that may end was built in this process: until then,
/// looking through a result for `lazy-seq`s to realise is skipped.
static THUNKS_BUILT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a link that may end was ever built (no `lazy-seq` yet: `false`).
pub(crate) fn any_may_end() -> bool {
    THUNKS_BUILT.load(std::sync::atomic::Ordering::Relaxed)
}

impl LazySeq {
    /// Whether this link may end: a `Thunk` or a `Transduce`, or one of
    /// its direct sources may.
    fn may_end_here(&self) -> bool {
        match self {
            LazySeq::Thunk(_) => true,
            LazySeq::Map { source, .. }
            | LazySeq::Filter { source, .. }
            | LazySeq::Skip { source, .. }
            | LazySeq::Reductions { source, .. }
            | LazySeq::TakeNth { source, .. }
            | LazySeq::Concat { source, .. } => source.may_end(),
            // A transducer may end any sequence (`(take n)`).
            LazySeq::Transduce { .. } => true,
            LazySeq::Zip { sources: parts, .. }
            | LazySeq::Interleave(parts)
            | LazySeq::Chain(parts) => parts.iter().any(Value::may_end),
            _ => false,
        }
    }
}

/// A `lazy-seq`'s body and, once it has run, what it gave. The body runs
/// at most once ([`crate::eval::iter::realise_thunk`]): every holder of the
/// sequence shares the value, as in Clojure. A body that fails is run again
/// by the next realisation (nothing was cached), as in Clojure.
pub struct Thunk {
    /// `(fn [] body…)`.
    pub(crate) f: Value,
    /// What the body gave (`nil`: the empty sequence).
    pub(crate) value: std::sync::OnceLock<Value>,
    /// Set while the body runs: a body that needs its own items is an
    /// error, not an endless recursion.
    pub(crate) running: std::sync::atomic::AtomicBool,
}

impl Thunk {
    /// The unrealised sequence of `f`'s body.
    pub fn new(f: Value) -> Thunk {
        Thunk {
            f,
            value: std::sync::OnceLock::new(),
            running: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

// Dropping a chain of links (`(map f (map f …))`, `(repeat (repeat …))`)
// would recurse once per link. Instead, the outermost drop on a thread
// takes over the parts of every link dropped while it runs and drops them
// one at a time from a queue: the native stack holds at most one link's
// drop (plus whatever non-lazy nesting lies between two links, which the
// heap and depth bounds limit).
thread_local! {
    static DROPPING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static DROP_QUEUE: std::cell::RefCell<Vec<Value>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl LazySeq {
    /// Moves out the values this link holds (leaving `nil`s behind).
    fn take_parts(&mut self, out: &mut Vec<Value>) {
        let mut take = |v: &mut Value| out.push(Value::take(v));
        match self {
            LazySeq::Range { start, step } => {
                take(start);
                take(step);
            }
            LazySeq::Iterate { f, seed } => {
                take(f);
                take(seed);
            }
            LazySeq::Repeat(x) | LazySeq::Repeatedly(x) => take(x),
            LazySeq::Thunk(t) => {
                take(&mut t.f);
                if let Some(v) = t.value.take() {
                    out.push(v);
                }
            }
            LazySeq::Cycle(items) => {
                out.push(Value::Vector(std::mem::take(items)));
            }
            LazySeq::Map { f, source }
            | LazySeq::Concat { f, source }
            | LazySeq::Transduce { xform: f, source } => {
                take(f);
                take(source);
            }
            LazySeq::Filter { pred, source, .. } => {
                take(pred);
                take(source);
            }
            LazySeq::Skip { source, .. } | LazySeq::TakeNth { source, .. } => take(source),
            LazySeq::Reductions { f, init, source } => {
                take(f);
                take(init);
                take(source);
            }
            LazySeq::Zip { f, sources } => {
                take(f);
                out.append(sources);
            }
            LazySeq::Interleave(parts) | LazySeq::Chain(parts) => out.append(parts),
        }
    }
}

impl Drop for LazySeq {
    fn drop(&mut self) {
        if DROPPING.with(|d| d.get()) {
            // An outer drop is running on this thread: it drops our parts.
            DROP_QUEUE.with(|q| self.take_parts(&mut q.borrow_mut()));
            return;
        }
        DROPPING.with(|d| d.set(true));
        let mut parts = Vec::new();
        self.take_parts(&mut parts);
        // Links among the parts (or below them) only queue their own parts.
        drop(parts);
        loop {
            let next = DROP_QUEUE.with(|q| q.borrow_mut().pop());
            match next {
                Some(v) => drop(v),
                None => break,
            }
        }
        DROPPING.with(|d| d.set(false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A million links dropped on a small thread: the drop is iterative.
    #[test]
    fn long_chains_drop_without_recursion() {
        let worker = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let f = Value::Nil;
                let mut s = Value::Lazy(Link::new(LazySeq::Repeat(Value::Int(1))));
                for i in 0..1_000_000 {
                    let link = match i % 4 {
                        0 => LazySeq::Map {
                            f: f.clone(),
                            source: s,
                        },
                        1 => LazySeq::Repeat(s),
                        2 => LazySeq::Chain(vec![Value::empty_vector(), s]),
                        _ => LazySeq::Cycle(std::iter::once(s).collect()),
                    };
                    s = Value::Lazy(Link::new(link));
                }
                drop(s);
            })
            .unwrap();
        worker.join().unwrap();
    }
}
