//! What values cost in heap accounting (rule HEAP-COST-1, stated in the
//! `eval::budget` module docs): the one place that turns "a vector of `n`
//! items", "a map of `n` entries", "a string of `len` bytes" into bytes
//! charged to `max_heap_bytes`.
//!
//! Every figure is computed from `size_of` of the types the values really
//! are and from the thresholds of their representations (`vector::SMALL`,
//! `map::SMALL`), so it follows them when they change. What is counted:
//!
//! * the payload: each item's [`Value`] slot (16 bytes), each map entry's
//!   `(Value, Value)` pair (a record's value slot: its keys are its
//!   shape's, shared by its kind and not charged to each record), each
//!   large set element beside its hash;
//! * the headers of the allocations that hold it: the `Arc` counts (two
//!   words), the `Vec` or struct the `Arc` wraps, a string's text;
//! * for large collections, the persistent structures around the payload,
//!   **approximated**: imbl's 64-slot chunks (a vector or a large map's
//!   entries: four edge chunks once past one chunk, then one per 64 items,
//!   and a branch node per 64 chunks), the B-tree nodes of a
//!   `sorted-map` (taken two-thirds full: between the half-full nodes of
//!   ascending keys and the three-quarters of random ones), a large set's
//!   hash table and a large map's hash index (hashbrown: a power of two of
//!   buckets at most 7/8 full, one control byte each, starting at twice
//!   `map::SMALL` elements), and the sorted copy of a set's elements it
//!   keeps once iterated (V-SET-1), charged when made;
//! * the copies writes make of storage another value holds too (copy on
//!   write): a small collection's array, a large set's table, a large
//!   map's whole index (when a key is added or removed), a large map's or
//!   vector's handle and the chunk written ([`map_copy_bytes`],
//!   [`map_index_bytes`], [`set_copy_bytes`], [`vector_copy_bytes`]), a
//!   large map's flat entries whole at the first write while shared and
//!   their tree at a second ([`map_entries_tree_bytes`], once each per
//!   shared map), charged by the representations as they copy.
//!
//! What is not counted: the allocator's own overhead (size classes,
//! headers), spare capacity a `Vec` holds while it grows (a small map grown
//! by `assoc` may hold up to twice its entries), the chunk a cut of a large
//! vector copies ([`vector_slice_bytes`]), and what values share: each
//! function counts one value's own allocations, the values inside it
//! being charged where they were built.
//!
//! Charges are a function of lengths and of whether storage is shared
//! (another value holds it), never of addresses or the allocator, so a
//! program is charged the same on every run and every machine with the
//! same word size. Writers charge the growth of a collection
//! ([`vector_growth`], [`map_growth`], [`set_growth`]): adding items to a
//! collection of `n` is charged the difference between the two sizes, so
//! a collection built item by item is charged what it costs once built,
//! jumps included (a set's table doubling, a vector or map moving to its
//! large representation).

use std::mem::size_of;
use std::sync::Arc;

use super::{map, set, vector, Value};

/// A machine word (pointers, lengths, reference counts).
const WORD: u64 = size_of::<usize>() as u64;

/// One [`Value`] slot: what an item takes in a vector, a small set or a
/// closure's captures.
pub const VALUE: u64 = size_of::<Value>() as u64;

/// The header of an `Arc` allocation: its strong and weak counts.
pub const ARC_HEADER: u64 = 2 * WORD;

/// `n` as a `u64`.
#[inline]
fn n64(n: usize) -> u64 {
    n as u64
}

/// The slots of one imbl chunk (imbl's `VECTOR_CHUNK_SIZE` and
/// `ORD_CHUNK_SIZE`, not exported): vectors and B-trees alike.
const IMBL_CHUNK: u64 = 64;

/// One imbl chunk of `slot`-byte items in its shared allocation: the
/// counts, the chunk's two indexes, the 64 slots.
const fn imbl_chunk(slot: u64) -> u64 {
    ARC_HEADER + 2 * WORD + IMBL_CHUNK * slot
}

/// An imbl `Vector` of `n` items of `slot` bytes, beyond the handle: one
/// chunk up to 64 items, then its RRB tree: at least four chunks (the
/// edges it keeps at both ends), one per 64 items past the first, and a
/// branch node (64 child entries of four words) per 64 chunks in the
/// middle. Approximate for trees that were concatenated or sliced.
fn rrb(n: u64, slot: u64) -> u64 {
    match n {
        0 => 0,
        n if n <= IMBL_CHUNK => imbl_chunk(slot),
        n => {
            let chunks = (n.div_ceil(IMBL_CHUNK) + 1).max(4);
            let branches = (chunks - 4).div_ceil(IMBL_CHUNK);
            chunks
                .saturating_mul(imbl_chunk(slot))
                .saturating_add(branches * imbl_chunk(4 * WORD))
        }
    }
}

/// One node of an imbl B-tree (`OrdMap`) of `slot`-byte keys: 64 key
/// slots and 65 child pointers, each array with its two indexes.
const fn btree_node(slot: u64) -> u64 {
    ARC_HEADER + (2 * WORD + IMBL_CHUNK * slot) + (2 * WORD + (IMBL_CHUNK + 1) * WORD)
}

/// Keys a B-tree node holds past the first node: two-thirds of 64.
const BTREE_KEYS_PER_NODE: u64 = IMBL_CHUNK * 2 / 3;

/// An imbl B-tree of `n` keys of `slot` bytes: one node, then nodes
/// two-thirds full (the root among them).
fn btree(n: u64, slot: u64) -> u64 {
    match n {
        0 => 0,
        n if n <= IMBL_CHUNK => btree_node(slot),
        n => (n.div_ceil(BTREE_KEYS_PER_NODE) + 1).saturating_mul(btree_node(slot)),
    }
}

/// The nodes from the root of a B-tree of `n` keys to a leaf.
fn btree_depth(n: u64) -> u64 {
    let (mut depth, mut reach) = (1, IMBL_CHUNK);
    while reach < n {
        reach = reach.saturating_mul(BTREE_KEYS_PER_NODE);
        depth += 1;
    }
    depth
}

/// A string (or symbol, var name) of `len` bytes: a [`super::Text`]'s
/// header and its text, rounded up to a word as its layout is. (An empty
/// string shares one static header but is charged as any other: the rule
/// stays one formula.)
pub fn string_bytes(len: usize) -> u64 {
    super::text::HEADER_BYTES
        .saturating_add(n64(len))
        .checked_next_multiple_of(WORD)
        .unwrap_or(u64::MAX)
}

/// A counted (computed, not interned) keyword of `len` bytes: its text as
/// a string is ([`string_bytes`]) and its own `Arc`'d name beside it, the
/// text's handle and the hash (`value/keyword.rs`).
pub fn keyword_bytes(len: usize) -> u64 {
    string_bytes(len).saturating_add(ARC_HEADER + size_of::<super::intern::Name>() as u64)
}

/// A vector of `n` items: nothing when empty (every empty vector shares
/// one header); up to `vector::SMALL` its items after a count, a length
/// and a capacity, in one allocation of exactly `n` slots
/// (`shared_vec.rs`); past it a flat one (an `Arc`'d struct with room for
/// the tree a copy builds) of `n` slots. A flat vector grown item by item
/// may hold up to as much spare room again (a `Vec` doubles); builders
/// that know their length (`range`, `mapv`, …) allocate it exactly.
pub fn vector_bytes(n: usize) -> u64 {
    match n {
        0 => 0,
        n if n <= vector::SMALL => super::shared_vec::HEADER_BYTES + n64(n) * VALUE,
        n => (ARC_HEADER + size_of::<vector::Flat>() as u64)
            .saturating_add(n64(n).saturating_mul(VALUE)),
    }
}

/// The imbl tree a large vector becomes (`vector.rs`: the first copy on
/// write of a flat vector builds it), beyond the vector's own handle: the
/// tree's handle and its RRB chunks.
pub fn vector_tree_bytes(n: usize) -> u64 {
    (size_of::<imbl::Vector<Value>>() as u64).saturating_add(rrb(n64(n), VALUE))
}

/// [`vector_bytes`] of a count a program asked for (`(range n)`,
/// `(repeat n x)`), which may be past any memory: saturates.
pub fn vector_bytes_for(n: u64) -> u64 {
    vector_bytes(usize::try_from(n).unwrap_or(usize::MAX))
}

/// An insertion-ordered map of `n` entries: nothing when empty; up to
/// `map::SMALL` an array of `(key, value)` pairs after a count, a length
/// and a capacity, in one allocation (`shared_vec.rs`); past it the
/// `Arc`'d [`map::Ordered`]: its entries in an imbl vector and a hash
/// index of their positions ([`map_index_bytes`]).
pub fn map_bytes(n: usize) -> u64 {
    match n {
        0 => 0,
        n if n <= map::SMALL => super::shared_vec::HEADER_BYTES + n64(n) * map::ENTRY_BYTES,
        n => (ARC_HEADER + map::ORDERED_BYTES)
            .saturating_add(rrb(n64(n), map::SLOT_BYTES))
            .saturating_add(map_index_bytes(n)),
    }
}

/// A record of `n` fields (`map::Fields`): its values after a header
/// holding the counts and its shape's pointer, in one allocation; the
/// shape (its keys) is shared by every record of its kind and not
/// charged to each.
pub fn record_bytes(n: usize) -> u64 {
    match n {
        0 => 0,
        n => map::RECORD_HEADER_BYTES + n64(n) * VALUE,
    }
}

/// The imbl tree a large map's flat entries become (`map/entries.rs`:
/// the first write to entries another map holds too builds it): its
/// handle and RRB chunks of entry slots.
pub fn map_entries_tree_bytes(n: usize) -> u64 {
    (size_of::<imbl::Vector<Option<(Value, Value)>>>() as u64)
        .saturating_add(rrb(n64(n), map::SLOT_BYTES))
}

/// The hash index of a large map of `n` entries: the `Arc`'d hashbrown
/// table of `(hash, position)` buckets, sized as a large set's table
/// ([`set_buckets`]), a control byte per bucket and one group of them.
/// What adding or removing a key copies when another map holds the index
/// too.
pub fn map_index_bytes(n: usize) -> u64 {
    hash_table_bytes(map::INDEX_BYTES, map::BUCKET_BYTES, n)
}

/// An `Arc`'d hashbrown table for `n` items (a large set's, a large map's
/// index): the struct of `head` bytes, [`set_buckets`] buckets of `bucket`
/// bytes and a control byte each, and one group of control bytes.
fn hash_table_bytes(head: u64, bucket: u64, n: usize) -> u64 {
    let buckets = set_buckets(n64(n));
    (ARC_HEADER + head + set::GROUP_BYTES).saturating_add(buckets.saturating_mul(bucket + 1))
}

/// A `sorted-map` of `n` entries: the `Arc`'d imbl `OrdMap`, a B-tree of
/// `(key, value)` pairs.
pub fn sorted_map_bytes(n: usize) -> u64 {
    (ARC_HEADER + map::SORTED_BYTES).saturating_add(btree(n64(n), map::ENTRY_BYTES))
}

/// A map of `n` entries of the same kind as `m` (sorted or not).
pub fn map_bytes_like(m: &map::Map, n: usize) -> u64 {
    if m.is_sorted() {
        sorted_map_bytes(n)
    } else if m.is_record() && n == m.len() {
        record_bytes(n)
    } else {
        map_bytes(n)
    }
}

/// The fewest items a large set's or map's table has room for (twice a
/// small one's, what a promoted one starts with).
const MIN_ROOM: u64 = 2 * map::SMALL as u64;

/// The buckets of a large set of `n` elements: a power of two, at most
/// 7/8 full, never fewer than a set promoted at `map::SMALL` starts with
/// (room for twice that).
fn set_buckets(n: u64) -> u64 {
    let room = n.max(MIN_ROOM);
    (room.saturating_mul(8) / 7)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX)
}

/// A set of `n` elements: nothing when empty; else its `Arc`'d storage
/// (one enum for both representations, `set::STORAGE_BYTES` either way)
/// and, up to `map::SMALL`, the sorted array of slots; past it the boxed
/// table (`set::HASHED_BYTES`): a bucket of `(hash, value)` and a control
/// byte per bucket ([`set_buckets`]), plus one group of control bytes.
pub fn set_bytes(n: usize) -> u64 {
    match n {
        0 => 0,
        n if n <= map::SMALL => ARC_HEADER + set::STORAGE_BYTES + n64(n) * VALUE,
        n => hash_table_bytes(set::STORAGE_BYTES + set::HASHED_BYTES, set::BUCKET_BYTES, n),
    }
}

/// The canonical order a large set of `n` elements keeps once it is
/// iterated (V-SET-1): an array of `n` slots beside its table, made again
/// after the set changes.
pub fn set_order_bytes(n: usize) -> u64 {
    n64(n).saturating_mul(VALUE)
}

/// What growing a vector from `from` to `to` items adds (0 if it shrinks).
pub fn vector_growth(from: usize, to: usize) -> u64 {
    vector_bytes(to).saturating_sub(vector_bytes(from))
}

/// What growing an insertion-ordered map from `from` to `to` entries adds.
#[inline]
pub fn map_growth(from: usize, to: usize) -> u64 {
    // The same count (a key's value replaced), or one more entry in a
    // large map (every `assoc` of a new key): most add nothing, found
    // without computing both sizes.
    if to == from || (to == from.wrapping_add(1) && large_map_step_is_free(from)) {
        return 0;
    }
    map_bytes(to).saturating_sub(map_bytes(from))
}

/// Whether a large map of `n + 1` entries costs what one of `n` does
/// ([`map_bytes`]): both past `map::SMALL`, no new RRB chunk (the chunk
/// count changes only past a multiple of 64) and the same index buckets.
#[inline]
fn large_map_step_is_free(n: usize) -> bool {
    n > map::SMALL && !n64(n).is_multiple_of(IMBL_CHUNK) && one_more_keeps_buckets(n64(n))
}

/// Whether a table of `n + 1` items has the buckets one of `n` has
/// ([`set_buckets`]), without computing either: with `x` = 8/7 of the
/// room, the power of two above `x` changes only where `x` steps onto or
/// past one, and one more item moves `x` up by one or two.
#[inline]
fn one_more_keeps_buckets(n: u64) -> bool {
    if n < MIN_ROOM {
        return true; // both at the least room
    }
    if n >= 1 << 60 {
        return set_buckets(n) == set_buckets(n + 1);
    }
    let (x0, x1) = (n * 8 / 7, (n + 1) * 8 / 7);
    !(x0.is_power_of_two() || (x1 - x0 == 2 && (x0 + 1).is_power_of_two()))
}

/// What growing a map of `m`'s kind (sorted or not) from `from` to `to`
/// entries adds.
pub fn map_growth_like(m: &map::Map, from: usize, to: usize) -> u64 {
    if m.is_sorted() && from != to {
        sorted_map_bytes(to).saturating_sub(sorted_map_bytes(from))
    } else {
        map_growth(from, to)
    }
}

/// What growing a set from `from` to `to` elements adds.
#[inline]
pub fn set_growth(from: usize, to: usize) -> u64 {
    // One more element in a large set: nothing until its table grows.
    if to == from.wrapping_add(1) && from > map::SMALL && one_more_keeps_buckets(n64(from)) {
        return 0;
    }
    set_bytes(to).saturating_sub(set_bytes(from))
}

/// What pushing one item onto a vector of `len` items adds.
pub fn vector_push(len: usize) -> u64 {
    vector_growth(len, len.saturating_add(1))
}

/// What `n` pushes onto a vector of `len` items add, one by one: the sum
/// of [`vector_push`] over them, in constant time (`vector_bytes` is
/// linear on each side of `SMALL`, where it may drop).
pub fn vector_pushes(len: usize, n: usize) -> u64 {
    let end = len.saturating_add(n);
    let small = vector::SMALL;
    if end <= small || len > small {
        return vector_growth(len, end);
    }
    // From `len` to `SMALL`, the step to `SMALL + 1`, and on to `end`.
    vector_growth(len, small)
        .saturating_add(vector_push(small))
        .saturating_add(vector_growth(small + 1, end))
}

/// What adding one new key to an insertion-ordered map of `len` entries
/// adds.
pub fn map_insert(len: usize) -> u64 {
    map_growth(len, len.saturating_add(1))
}

/// What adding one new element to a set of `len` elements adds.
pub fn set_insert(len: usize) -> u64 {
    set_growth(len, len.saturating_add(1))
}

/// The items of a vector, entries of a map or elements of a set; 0 for
/// anything else.
pub fn collection_len(v: &Value) -> usize {
    match v {
        Value::Vector(items) => items.len(),
        Value::Map(m) => m.len(),
        Value::Set(s) => s.len(),
        _ => 0,
    }
}

/// What the collection `v` grew by since it had `before` items (a writer
/// measures the length before, writes, then charges this): a vector's,
/// map's (of its kind) or set's growth; 0 for anything else.
pub fn growth_of(v: &Value, before: usize) -> u64 {
    match v {
        Value::Vector(items) => vector_growth(before, items.len()),
        Value::Map(m) => map_growth_like(m, before, m.len()),
        Value::Set(s) => set_growth(before, s.len()),
        _ => 0,
    }
}

/// A map entry `[k v]` as a value (`Value::entry`): a vector of two.
pub fn entry_bytes() -> u64 {
    vector_bytes(2)
}

/// A closure made by `fn` capturing `captures` values: the `Arc`'d
/// closure and its captures' slots.
pub fn closure_bytes(captures: usize) -> u64 {
    (ARC_HEADER + super::function::CLOSURE_BYTES)
        .saturating_add(n64(captures).saturating_mul(VALUE))
}

/// `(reduced x)`: an `Arc` around one value.
pub const REDUCED_BYTES: u64 = ARC_HEADER + VALUE;

/// One link of a lazy sequence: the `Arc`'d link, and the slots of the
/// sources it keeps in an array (`concat`, `interleave`, `map` of several;
/// 0 for the links that hold their one source inline).
pub fn lazy_link_bytes(array_sources: usize) -> u64 {
    (ARC_HEADER + size_of::<super::Link>() as u64)
        .saturating_add(n64(array_sources).saturating_mul(VALUE))
}

/// A boxed `T` (no counts): e.g. one link's iterator.
pub const fn boxed_bytes<T>() -> u64 {
    size_of::<T>() as u64
}

/// A vector of `len` items cut from another (`take`, `drop`, `rest`,
/// `subvec` …): a small one is a copy of its items ([`vector_bytes`]); a
/// large one shares the other's items (a slice of a flat vector's, or the
/// other's tree) and is charged its handle only. The chunk a tree's cut
/// copies (about 1.6 KB) is not counted, so walking a long vector with
/// `rest` stays as cheap as walking it with `[x & xs]` (each step's cut
/// is garbage at the next).
pub fn vector_slice_bytes(len: usize) -> u64 {
    if len <= vector::SMALL {
        vector_bytes(len)
    } else {
        vector_bytes(0) + size_of::<imbl::Vector<Value>>() as u64
    }
}

/// What the first write to a vector of `len` items another value holds
/// too copies (copy on write): a small one's items ([`vector_bytes`]); for
/// a large one a new handle and the chunk written (its path through the
/// branches shared, not counted).
pub fn vector_copy_bytes(len: usize) -> u64 {
    if len <= vector::SMALL {
        vector_bytes(len)
    } else {
        vector_bytes(0) + size_of::<imbl::Vector<Value>>() as u64 + imbl_chunk(VALUE)
    }
}

/// What the first write to a map of `n` entries (`sorted` or not) another
/// value holds too copies (copy on write): a small map's whole array; for
/// a large one its handle and the chunk of entries written (its index is
/// copied, and charged, only when a key is added or removed; flat entries
/// are copied whole, or built into a tree, and charged then:
/// [`map_entries_tree_bytes`]); for a sorted one the nodes from the root
/// to the key.
pub fn map_copy_bytes(sorted: bool, n: usize) -> u64 {
    if sorted {
        ARC_HEADER + map::SORTED_BYTES + btree_depth(n64(n)) * btree_node(map::ENTRY_BYTES)
    } else if n <= map::SMALL {
        map_bytes(n)
    } else {
        // The index is shared on: a write that adds or removes a key
        // charges its copy then ([`map_index_bytes`]).
        ARC_HEADER + map::ORDERED_BYTES + imbl_chunk(map::SLOT_BYTES)
    }
}

/// What the first write to a set of `n` elements another value holds too
/// copies: all of it (a small set's array, a large set's table).
pub fn set_copy_bytes(n: usize) -> u64 {
    set_bytes(n)
}

/// Charges `bytes()` to the running turn's heap, through the per-thread
/// meter, when another handle holds `storage` too: the copy a write to it
/// is about to make (copy on write, `Arc::make_mut`). Whether storage is
/// shared depends on the program's values (and on what its host holds),
/// never on addresses or the allocator.
#[inline]
pub(crate) fn charge_copy_if_shared<T: ?Sized>(storage: &Arc<T>, bytes: impl FnOnce() -> u64) {
    if Arc::strong_count(storage) > 1 {
        crate::eval::budget::charge_heap(bytes());
    }
}

#[cfg(test)]
mod tests;
