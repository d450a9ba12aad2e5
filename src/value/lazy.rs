//! Infinite sequences: `(range)`, `(range start)`… with no end, `(iterate f x)`,
//! `(repeat x)`, `(cycle coll)`, `(repeatedly f)`, and `map`/`filter`/
//! `remove`/`drop`/`reductions`/`take-nth`/`mapcat`/`interleave` (and `for`)
//! of infinite ones.
//!
//! They are descriptions, not buffers: consumers (`take`, `take-while`,
//! `first`, `nth`, `some`, `reduce` with `reduced`, `map` beside a finite
//! sequence …) pull items one at a time through [`crate::builtins::seq`]'s
//! iteration helpers. Anything that would realize one completely ends in a
//! `limit-exceeded` error instead of hanging.

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
    /// one infinite).
    Chain(Vec<Value>),
}
