//! Nesting depth of values that leave the evaluator.
//!
//! Every wrapper counts as a level: collections, `(reduced x)`, a
//! closure's captured values (and those of its `letfn` siblings).
//!
//! A lazy sequence's link is one level, and the values it holds (`(repeat
//! x)` holds `x`, a realised `lazy-seq` its items and the next link) are
//! measured as values of their own: no host operation descends through a
//! link (printing shows `#seq[infinite]`, equality and hashing use its
//! address, JSON has no form for it) and dropping a chain of links is
//! iterative (`lazy.rs`), so only the nesting *between* links reaches the
//! native stack. A realised `(lazy-seq (cons x (f …)))` of 100,000 items
//! is as shallow as its items.
//!
//! Evaluation runs on a thread with a very large stack, but results, user/
//! definitions and tool arguments are dropped, compared, hashed and turned
//! into JSON by the host on ordinary threads, and those operations recurse.
//! So a value leaving a turn may be at most [`MAX_DEPTH`] levels deep —
//! far beyond any real data (and the reader's own nesting limit), and
//! shallow enough for the recursive drop, equality and JSON conversion on an
//! ordinary 8 MB main-thread stack even in debug builds (tested below).
//! The check itself is iterative.
//!
//! A large map that says it is flat ([`super::Map::is_flat`]: keys of
//! nothing, values of at most a shallow record — a lookup table of records
//! built by `assoc`/`update`) is taken at three levels without a scan;
//! that can be one more than it is, so a value found too deep is measured
//! again exactly: the answer is always the exact one.

use super::{LazySeq, Value};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The deepest nesting a value may have when it leaves a turn.
pub const MAX_DEPTH: usize = 1000;

/// Whether `v` nests deeper than `max` levels (closures count their
/// captured values as nested).
///
/// Values share parts (`[a a]`), so a plain walk could take exponential
/// time on a value built in a few steps. This walk computes heights bottom
/// up (depth first, iteratively) and remembers, by address, the height of
/// every part that is shared, so each shared part is measured once.
pub fn exceeds(v: &Value, max: usize) -> bool {
    // Most values kept after a turn: a scalar or an empty collection.
    if !is_nested(v) {
        return 1 > max;
    }
    // A flat map is taken at its upper bound of three levels, which may be
    // one more than it is (its records replaced by scalars): a value found
    // too deep so is measured again exactly.
    let (too_deep, flat_taken) = measure(v, max, false);
    too_deep && (!flat_taken || measure(v, max, true).0)
}

/// [`exceeds`] for a nested `v` (`exact`: flat maps measured too), and
/// whether a flat map was taken at its upper bound instead.
fn measure(v: &Value, max: usize, exact: bool) -> (bool, bool) {
    let mut heights: Heights = HashMap::default();
    // What lazy links hold, measured on their own (module docs); each link
    // once (a realised chain may even lead back to itself).
    let mut roots: Roots = Roots {
        values: vec![v],
        links: HashSet::default(),
        exact,
        flat_taken: false,
    };
    while let Some(root) = roots.values.pop() {
        if root_exceeds(root, max, &mut heights, &mut roots) {
            return (true, roots.flat_taken);
        }
    }
    (false, roots.flat_taken)
}

/// Values still to measure from height zero, and the links seen.
struct Roots<'a> {
    values: Vec<&'a Value>,
    links: HashSet<usize, BuildHasherDefault<AddrHasher>>,
    /// Whether flat maps are measured ([`exceeds`]).
    exact: bool,
    /// Whether one was taken at its upper bound instead.
    flat_taken: bool,
}

/// [`exceeds`] for one root.
fn root_exceeds<'a>(
    v: &'a Value,
    max: usize,
    heights: &mut Heights,
    roots: &mut Roots<'a>,
) -> bool {
    // The nested children still to measure, of every open part (each part
    // owns the tail above its frame's `base`).
    let mut work: Vec<&Value> = Vec::new();
    let mut frames: Vec<Frame> = match open(v, heights, &mut work, roots) {
        Opened::Measured(h) => return h > max,
        Opened::Frame(f) => vec![f],
    };
    while let Some(top) = frames.last_mut() {
        if work.len() > top.base {
            let Some(child) = work.pop() else { break };
            match open(child, heights, &mut work, roots) {
                Opened::Measured(h) => top.height = top.height.max(h + 1),
                Opened::Frame(f) => {
                    // Every open part is a non-empty collection: the path
                    // down to here plus one item is already this deep.
                    if frames.len() + 2 > max {
                        return true;
                    }
                    frames.push(f);
                }
            }
            continue;
        }
        let Some(done) = frames.pop() else { break };
        if done.height > max {
            return true;
        }
        // Remembered when measuring it again could cost: a big part, or
        // one more than three levels high (the parts of `[a a]` nested n
        // times). A small part of records is cheaper to measure again.
        if let (Some(id), true) = (done.shared, done.big || done.height > 3) {
            heights.insert(id, done.height);
        }
        match frames.last_mut() {
            Some(parent) => parent.height = parent.height.max(done.height + 1),
            None => return false,
        }
    }
    false
}

type Heights = HashMap<usize, usize, BuildHasherDefault<AddrHasher>>;

/// A part being measured.
struct Frame {
    /// Its address, when shared (then its height may be remembered).
    shared: Option<usize>,
    /// Whether it holds more than [`BIG`] items.
    big: bool,
    /// Where its children start on the work list.
    base: usize,
    /// The height found so far.
    height: usize,
}

enum Opened {
    Measured(usize),
    Frame(Frame),
}

/// Starts measuring `v`, pushing its nested children on `work`: scalars
/// and empty collections are one level, collections of scalars two
/// (measured on the spot each time: as cheap as remembering them), and a
/// shared part already measured has its remembered height.
fn open<'a>(
    v: &'a Value,
    heights: &mut Heights,
    work: &mut Vec<&'a Value>,
    roots: &mut Roots<'a>,
) -> Opened {
    if !is_nested(v) {
        return Opened::Measured(1);
    }
    let shared = v.shared_addr();
    let big = size(v) > BIG;
    // A big shared part is looked up before it is scanned.
    if let (Some(id), true) = (shared, big) {
        if let Some(h) = heights.get(&id) {
            return Opened::Measured(*h);
        }
    }
    let base = work.len();
    let height = push_nested(v, work, roots);
    if work.len() == base {
        if let (Some(id), true) = (shared, big) {
            heights.insert(id, height);
        }
        return Opened::Measured(height);
    }
    if let (Some(id), false) = (shared, big) {
        if let Some(h) = heights.get(&id) {
            work.truncate(base);
            return Opened::Measured(*h);
        }
    }
    Opened::Frame(Frame {
        shared,
        big,
        base,
        height,
    })
}

/// Pushes on `work` the values directly inside `v` that need measuring;
/// small ones (records, a record's few line items) are measured here
/// ([`quick_height`], without a trip through `work`). Returns the height
/// of `v` those give (at least 2).
fn push_nested<'a>(v: &'a Value, work: &mut Vec<&'a Value>, roots: &mut Roots<'a>) -> usize {
    let mut height = 2;
    match v {
        // Run by run, the test inline: most items of big vectors are
        // records that say they are shallow.
        Value::Vector(items) => {
            let mut i = 0;
            while i < items.len() {
                let run = items.run_from(i);
                // A run holding nothing nested (scalars) adds nothing to
                // the height 2 already counted (one test each; a run of
                // records stops at its first).
                if run.iter().any(is_nested) {
                    for c in run {
                        see_child(c, &mut height, work);
                    }
                }
                i += run.len();
            }
        }
        Value::Set(items) => items.iter().for_each(|c| see_child(c, &mut height, work)),
        Value::Map(m) if m.is_shallow_record() => {}
        // Keys of nothing, values of at most a shallow record each.
        Value::Map(m) if m.is_flat() && !roots.exact => {
            roots.flat_taken = true;
            height = 3;
        }
        Value::Map(m) => {
            let small = m.for_each_small_part(|c| see_child(c, &mut height, work));
            if !small {
                m.iter().for_each(|(k, x)| {
                    see_child(k, &mut height, work);
                    see_child(x, &mut height, work);
                });
            }
        }
        Value::Fn(f) => {
            if let Some(c) = f.as_closure() {
                let groups = c.group.iter().flat_map(|g| g.members.iter());
                for x in c.captures.iter().chain(groups.flat_map(|(_, caps)| caps)) {
                    see_child(x, &mut height, work);
                }
            }
        }
        Value::Reduced(inner) => see_child(inner, &mut height, work),
        // One level; what the link holds is measured on its own.
        Value::Lazy(seq) if roots.links.insert(std::sync::Arc::as_ptr(seq) as usize) => {
            lazy_parts(seq, |c| {
                if is_nested(c) {
                    roots.values.push(c);
                }
            });
        }
        _ => {}
    }
    height
}

/// One item of a part being measured: its height found in place
/// ([`quick_height`]) raises the part's, else it goes on `work`.
#[inline(always)]
fn see_child<'a>(c: &'a Value, height: &mut usize, work: &mut Vec<&'a Value>) {
    match quick_height(c, QUICK_LEVELS) {
        Some(h) => *height = (*height).max(h + 1),
        None => work.push(c),
    }
}

/// How many levels below an item [`quick_height`] looks.
const QUICK_LEVELS: u32 = 2;

/// The height of `c` when it is found in place, without the work list: a
/// scalar or empty collection is 1, a record that says it is shallow 2
/// (no scan), and a small vector or map (at most [`BIG`] items) whose items
/// are found so at most `levels` deeper one more than the highest of them
/// — an order holding a few line-item records is 4. `None` for anything
/// else (then the walk measures it, remembering shared parts).
///
/// The work is bounded as the walk's own is: at most 32 values per level
/// (a small map's keys and values), so at `QUICK_LEVELS` = 2 at most 32 ×
/// 32 one-step tests per item, the order of what the walk spends on a
/// small part each time it meets it (small parts of height up to 3 are
/// measured again, not remembered; a remembered one has its items listed
/// before it is looked up).
#[inline(always)]
fn quick_height(c: &Value, levels: u32) -> Option<usize> {
    if let Some(h) = leaf_height(c) {
        return Some(h);
    }
    if levels == 0 {
        return None;
    }
    let mut h = 1;
    match c {
        Value::Vector(items) if items.len() <= BIG && items.is_contiguous() => {
            for x in items.run_from(0) {
                h = h.max(below(x, levels - 1)?);
            }
        }
        Value::Map(m) => {
            let mut known = true;
            let small = m.for_each_small_part(|x| match below(x, levels - 1) {
                Some(hx) => h = h.max(hx),
                None => known = false,
            });
            if !(small && known) {
                return None;
            }
        }
        _ => return None,
    }
    Some(h + 1)
}

/// 1 for a scalar or an empty collection, 2 for a record that says it is
/// shallow, in one or two tests; `None` for anything else.
#[inline(always)]
pub(crate) fn leaf_height(c: &Value) -> Option<usize> {
    if matches!(c, Value::Map(m) if m.is_shallow_record()) {
        Some(2)
    } else if !is_nested(c) {
        Some(1)
    } else {
        None
    }
}

/// An item's height: scalars and records tested inline, anything else one
/// level down.
#[inline(always)]
fn below(x: &Value, levels: u32) -> Option<usize> {
    match leaf_height(x) {
        Some(h) => Some(h),
        None => quick_height_below(x, levels),
    }
}

/// [`quick_height`] one level down (not inlined: the recursion).
fn quick_height_below(c: &Value, levels: u32) -> Option<usize> {
    quick_height(c, levels)
}

/// The values an infinite sequence holds (`(repeat x)` holds `x`, so
/// `repeat` of `repeat` … nests like any wrapper).
fn lazy_parts<'a>(seq: &'a LazySeq, mut see: impl FnMut(&'a Value)) {
    match seq {
        LazySeq::Range { start, step } => {
            see(start);
            see(step);
        }
        LazySeq::Iterate { f, seed } => {
            see(f);
            see(seed);
        }
        LazySeq::Repeat(x) => see(x),
        LazySeq::Cycle(items) => items.iter().for_each(see),
        LazySeq::Map { f, source } => {
            see(f);
            see(source);
        }
        LazySeq::Filter { pred, source, .. } => {
            see(pred);
            see(source);
        }
        LazySeq::Skip { source, .. } => see(source),
        LazySeq::Repeatedly(f) => see(f),
        LazySeq::Thunk(t) => {
            see(&t.f);
            if let Some(v) = t.value.get() {
                see(v);
            }
        }
        LazySeq::Reductions { f, init, source } => {
            see(f);
            see(init);
            see(source);
        }
        LazySeq::TakeNth { source, .. } => see(source),
        LazySeq::Concat { f, source } | LazySeq::Transduce { xform: f, source } => {
            see(f);
            see(source);
        }
        LazySeq::Interleave(sources) | LazySeq::Chain(sources) => sources.iter().for_each(see),
        LazySeq::Zip { f, sources } => {
            see(f);
            sources.iter().for_each(see);
        }
    }
}

/// Addresses are distinct and pointer-aligned: a multiply spreads them.
#[derive(Default)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// Parts with more items than this are remembered when shared, even
/// when they hold only scalars.
const BIG: usize = 16;

/// How many items `v` holds directly.
fn size(v: &Value) -> usize {
    match v {
        Value::Vector(items) => items.len(),
        Value::Set(items) => items.len(),
        Value::Map(m) => m.len(),
        Value::Fn(f) => f.as_closure().map_or(1, |c| {
            c.captures.len()
                + c.group.as_ref().map_or(0, |g| {
                    g.members.iter().map(|(_, captures)| captures.len()).sum()
                })
        }),
        _ => 1,
    }
}

/// Whether `v` holds another value: a non-empty collection, a closure
/// with captures, `(reduced x)`, a lazy link.
#[inline(always)]
pub(crate) fn is_nested(v: &Value) -> bool {
    match v {
        // Scalars first: one test of the tag for the common case.
        Value::Nil
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Keyword(_)
        | Value::Symbol(_)
        | Value::Regex(_)
        | Value::Var(_) => false,
        Value::Vector(items) => !items.is_empty(),
        Value::Set(items) => !items.is_empty(),
        Value::Map(m) => !m.is_empty(),
        Value::Fn(f) => f
            .as_closure()
            .is_some_and(|c| !c.captures.is_empty() || c.group.is_some()),
        Value::Reduced(_) | Value::Lazy(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> Value {
        let mut v = Value::Int(0);
        for _ in 1..depth {
            v = Value::vector_from([v]);
        }
        v
    }

    #[test]
    fn measures_depth_exactly() {
        assert!(!exceeds(&Value::Int(1), 1));
        assert!(!exceeds(&nested(10), 10));
        assert!(exceeds(&nested(11), 10));
        let m = Value::map_from([(Value::keyword("a"), nested(5))]);
        assert!(exceeds(&m, 5));
        assert!(!exceeds(&m, 6));
    }

    /// A flat lookup map (`depth` skips its entries) counts as deep as it
    /// is: three levels with a record among its values, two with scalars
    /// only (its records replaced), at the limit and one past it.
    #[test]
    fn flat_maps_are_measured_exactly() {
        let wrap = |mut v: Value, levels: usize| {
            for _ in 0..levels {
                v = Value::vector_from([v]);
            }
            v
        };
        let record = Value::map_from([(Value::keyword("n"), Value::Int(1))]);
        let mut m = crate::value::Map::new();
        for i in 0..100 {
            m.insert(Value::Int(i), record.clone());
        }
        assert!(m.is_flat());
        let three = Value::Map(m.clone());
        assert!(!exceeds(&wrap(three.clone(), 7), 10));
        assert!(exceeds(&wrap(three, 8), 10));
        for i in 0..100 {
            m.update_value(&Value::Int(i), |_| Ok::<_, ()>(Value::Int(i)));
        }
        assert!(m.is_flat());
        let two = Value::Map(m);
        assert!(!exceeds(&wrap(two.clone(), 8), 10));
        assert!(exceeds(&wrap(two, 9), 10));
    }

    #[test]
    fn records_among_records_are_measured_whatever_they_hold() {
        let record = |v: Value| {
            Value::Map(crate::value::Map::from_distinct(vec![
                (Value::keyword("id"), Value::Int(1)),
                (Value::keyword("v"), v),
            ]))
        };
        let mut rows: Vec<Value> = (0..1000).map(|_| record(Value::Int(2))).collect();
        let flat = Value::vector_from(rows.clone());
        assert!(!exceeds(&flat, 3));
        assert!(exceeds(&flat, 2));
        // One record deep among 1,000 flat ones (and a record changed in
        // place to hold it).
        rows[500] = record(nested(20));
        let v = Value::vector_from(rows.clone());
        assert!(!exceeds(&v, 22));
        assert!(exceeds(&v, 21));
        let Value::Map(mut m) = record(Value::Int(0)) else {
            unreachable!()
        };
        *m.get_mut(&Value::keyword("v")).unwrap() = nested(30);
        rows[500] = Value::Map(m);
        let v = Value::vector_from(rows);
        assert!(!exceeds(&v, 32));
        assert!(exceeds(&v, 31));
    }

    /// Orders holding a few line-item records (measured in place) among
    /// which one holds something deeper at each level the in-place
    /// measure looks at, or past it.
    /// A record's keys are skipped when its shape says none of them nests;
    /// a key that does nest is measured like a value.
    #[test]
    fn records_keys_count_when_they_nest() {
        let record = |keys: Vec<Value>| {
            let n = keys.len();
            let shallow = !keys.iter().any(is_nested);
            let shape = crate::value::map::shape_of(keys);
            let mut fields = crate::value::map::Fields::with_capacity_and(n, shape);
            (0..n).for_each(|_| fields.push(Value::Int(1)));
            Value::Map(crate::value::Map::from_fields_known(fields, shallow))
        };
        let flat = record(vec![Value::keyword("a"), Value::string("b")]);
        assert!(!exceeds(&flat, 2));
        assert!(exceeds(&flat, 1));
        let deep_key = record(vec![Value::keyword("a"), nested(6)]);
        assert!(!exceeds(&deep_key, 7));
        assert!(exceeds(&deep_key, 6));
        // Among many records (measured in place, `quick_height`).
        let rows = Value::vector_from((0..40).map(|_| deep_key.clone()).collect::<Vec<_>>());
        assert!(!exceeds(&rows, 8));
        assert!(exceeds(&rows, 7));
    }

    #[test]
    fn orders_of_line_items_are_measured_exactly() {
        let kw = Value::keyword;
        let item = |v: Value| Value::map_from([(kw("sku"), Value::Int(1)), (kw("qty"), v)]);
        let order =
            |items: Value| Value::map_from([(kw("id"), Value::Int(1)), (kw("items"), items)]);
        let plain = || {
            order(Value::vector_from([
                item(Value::Int(1)),
                item(Value::Int(2)),
            ]))
        };
        let mut orders: Vec<Value> = (0..300).map(|_| plain()).collect();
        // [order {items [item {qty 1}]}]: 4 levels below the vector.
        let v = Value::vector_from(orders.clone());
        assert!(!exceeds(&v, 5) && exceeds(&v, 4));
        // A deeper value as an item's field, as an item, as the items.
        for (i, deep) in [
            order(Value::vector_from([item(Value::Int(1)), item(nested(6))])),
            order(Value::vector_from([item(Value::Int(1)), nested(7)])),
            order(nested(8)),
            Value::map_from([(nested(8), Value::Int(1))]),
        ]
        .into_iter()
        .enumerate()
        {
            orders[100 + i] = deep;
            let v = Value::vector_from(orders.clone());
            // 10 levels each way: the vector, the order (or map), …
            assert!(!exceeds(&v, 10), "case {i}");
            assert!(exceeds(&v, 9), "case {i}");
            orders[100 + i] = plain();
        }
        // Shared items in every order (one vector, the same records).
        let items = Value::vector_from([item(Value::Int(1)), item(nested(3))]);
        let v = Value::vector_from((0..300).map(|_| order(items.clone())));
        assert!(!exceeds(&v, 7) && exceeds(&v, 6));
    }

    #[test]
    fn shared_parts_count_at_their_deepest_place() {
        // `a` (20 levels) sits both right under the root and 3 levels lower.
        let a = nested(20);
        let deep = Value::vector_from([Value::vector_from([Value::vector_from([a.clone()])])]);
        let v = Value::vector_from([a.clone(), deep, a]);
        assert!(!exceeds(&v, 24));
        assert!(exceeds(&v, 23));
        // 2^60 paths, 62 levels: measured part by part.
        let mut dag = Value::vector_from([Value::Int(1)]);
        for _ in 0..60 {
            dag = Value::vector_from([dag.clone(), dag]);
        }
        assert!(!exceeds(&dag, 62));
        assert!(exceeds(&dag, 61));
    }

    #[test]
    fn a_value_at_the_limit_drops_and_prints_on_a_main_thread_stack() {
        let v = nested(MAX_DEPTH);
        assert!(!exceeds(&v, MAX_DEPTH));
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                let printed = crate::format::to_clojure(&v, None, None).0;
                let json = super::super::json::to_json(&v);
                assert!(printed.starts_with("[[[["));
                assert_eq!(v, v.clone());
                drop(json);
                drop(v);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
