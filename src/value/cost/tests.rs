use std::alloc::Layout;
use std::mem::size_of;
use std::sync::Arc;

use super::*;
use crate::value::{Map, Vector};

/// The size of an `Arc<T>`'s allocation, `T` sized.
fn arc_alloc<T>() -> u64 {
    let counts = Layout::new::<[usize; 2]>();
    let (layout, _) = counts.extend(Layout::new::<T>()).unwrap();
    layout.pad_to_align().size() as u64
}

#[test]
fn headers_are_the_real_ones() {
    assert_eq!(VALUE, size_of::<Value>() as u64);
    assert_eq!(ARC_HEADER, arc_alloc::<()>());
    assert_eq!(REDUCED_BYTES, arc_alloc::<Value>());
    assert_eq!(entry_bytes(), vector_bytes(2));
    assert_eq!(
        closure_bytes(3),
        arc_alloc::<crate::eval::Closure>() + 3 * VALUE
    );
    assert_eq!(lazy_link_bytes(0), arc_alloc::<crate::value::Link>());
}

#[test]
fn a_string_is_its_arc_str_allocation() {
    for len in [0, 1, 7, 8, 9, 100, 4097] {
        let counts = Layout::new::<[usize; 2]>();
        let (layout, _) = counts.extend(Layout::array::<u8>(len).unwrap()).unwrap();
        assert_eq!(
            string_bytes(len),
            layout.pad_to_align().size() as u64,
            "{len}"
        );
        // What `Value::string` really holds.
        let s: Arc<str> = "x".repeat(len).into();
        assert_eq!(s.len(), len);
    }
}

#[test]
fn small_vectors_are_exactly_their_slots_and_large_ones_flat_or_chunks() {
    // Empty vectors share one header; a small one is its counts, then
    // exactly its slots, in one allocation.
    assert_eq!(vector_bytes(0), 0);
    for n in 1..=vector::SMALL {
        let items = Layout::array::<Value>(n).unwrap();
        let (layout, _) = Layout::new::<[usize; 2]>().extend(items).unwrap();
        assert_eq!(vector_bytes(n), layout.size() as u64, "{n}");
        let v = Vector::from_vec((0..n as i64).map(Value::Int).collect());
        assert_eq!(v.heap_bytes() as u64, vector_bytes(n), "{n}");
    }
    // Past the threshold: the flat struct in its `Arc` and exactly n slots.
    let flat = arc_alloc::<vector::Flat>();
    for n in [vector::SMALL + 1, 1000, 1_000_000] {
        assert_eq!(vector_bytes(n), flat + n as u64 * VALUE, "{n}");
    }
    // Its tree (built by the first copy on write): a 64-slot chunk per 64
    // items, and branch nodes of about four words per chunk (3%).
    let chunk = ARC_HEADER + 2 * WORD + 64 * VALUE;
    assert_eq!(
        vector_tree_bytes(vector::SMALL + 1),
        size_of::<imbl::Vector<Value>>() as u64 + 4 * chunk
    );
    let n = 1_000_000;
    let per_item = vector_tree_bytes(n) as f64 / n as f64;
    let chunk_per_item = chunk as f64 / 64.0;
    let with_branches = (chunk + 4 * WORD) as f64 / 64.0;
    assert!(
        per_item >= chunk_per_item && per_item < with_branches * 1.01,
        "{per_item}"
    );
}

#[test]
fn small_maps_are_their_pairs_and_large_ones_add_an_index() {
    assert_eq!(map_bytes(0), 0);
    let pair = size_of::<(Value, Value)>() as u64;
    // One allocation: a count, a length and a capacity, then the pairs.
    let array = 8 + 4 + 4;
    for n in 1..=map::SMALL {
        assert_eq!(map_bytes(n), array + n as u64 * pair, "{n}");
    }
    // Past the threshold: one chunk of entries and a hash index of 64
    // buckets (room for twice SMALL).
    let large = map_bytes(map::SMALL + 1);
    let entries_chunk = ARC_HEADER + 2 * WORD + 64 * map::SLOT_BYTES;
    let bucket = map::BUCKET_BYTES + 1;
    let index = |buckets: u64| ARC_HEADER + map::INDEX_BYTES + buckets * bucket + set::GROUP_BYTES;
    assert_eq!(map_index_bytes(map::SMALL + 1), index(64));
    assert_eq!(
        large,
        ARC_HEADER + map::ORDERED_BYTES + entries_chunk + index(64)
    );
    // A large map: each entry's slot plus its share of a table between
    // 7/16 and 7/8 full.
    let n = 1_000_000;
    assert_eq!(map_index_bytes(n), index(1 << 21));
    let per_entry = map_bytes(n) as f64 / n as f64;
    let slots = entries_chunk as f64 / 64.0;
    assert!(
        per_entry > slots + bucket as f64 && per_entry < slots + 2.3 * bucket as f64,
        "{per_entry}"
    );
    // Sorted maps: B-tree nodes of pairs.
    assert!(sorted_map_bytes(1) > 64 * pair);
    assert!(sorted_map_bytes(100_000) > 100_000 * pair);
}

#[test]
fn sets_grow_by_doubling_their_table() {
    assert_eq!(set_bytes(0), 0);
    let array = ARC_HEADER + set::STORAGE_BYTES;
    for n in 1..=map::SMALL {
        assert_eq!(set_bytes(n), array + n as u64 * VALUE, "{n}");
    }
    let bucket = size_of::<(u64, Value)>() as u64 + 1;
    let table = |buckets: u64| {
        ARC_HEADER + set::STORAGE_BYTES + set::HASHED_BYTES + buckets * bucket + set::GROUP_BYTES
    };
    // A set promoted past SMALL has room for twice SMALL: 64 buckets, 56
    // elements; the 57th doubles the table.
    assert_eq!(set_bytes(map::SMALL + 1), table(64));
    assert_eq!(set_bytes(56), table(64));
    assert_eq!(set_bytes(57), table(128));
    assert_eq!(set_growth(56, 57), table(128) - table(64));
    assert_eq!(set_insert(57), 0);
    assert_eq!(set_bytes(1 << 20), table(1 << 21));
}

#[test]
fn growth_adds_up_to_the_size_built() {
    for (bytes, push) in [
        (
            vector_bytes as fn(usize) -> u64,
            vector_push as fn(usize) -> u64,
        ),
        (map_bytes, map_insert),
        (set_bytes, set_insert),
    ] {
        let mut sum = bytes(0);
        for n in 0..5000 {
            assert!(bytes(n + 1) >= bytes(n), "not monotonic at {n}");
            sum += push(n);
            assert_eq!(sum, bytes(n + 1));
        }
    }
    assert_eq!(vector_growth(10, 5), 0);
    let sorted = Map::sorted();
    assert_eq!(
        map_growth_like(&sorted, 0, 10),
        sorted_map_bytes(10) - sorted_map_bytes(0)
    );
    assert_eq!(map_growth_like(&Map::new(), 16, 17), map_growth(16, 17));
}

#[test]
fn copies_are_whole_for_arrays_and_tables_and_paths_for_trees() {
    assert_eq!(vector_copy_bytes(10), vector_bytes(10));
    assert_eq!(vector_slice_bytes(10), vector_bytes(10));
    assert!(vector_slice_bytes(100_000) < vector_copy_bytes(100_000));
    assert!(vector_copy_bytes(100_000) < vector_bytes(vector::SMALL + 1));
    let small: Map = (0..10).map(|i| (Value::Int(i), Value::Int(i))).collect();
    assert_eq!(
        map_copy_bytes(small.is_sorted(), small.len()),
        map_bytes(10)
    );
    let large: Map = (0..100_000)
        .map(|i| (Value::Int(i), Value::Int(i)))
        .collect();
    let path = map_copy_bytes(false, large.len());
    assert!(
        path > map_bytes(map::SMALL) && path < map_bytes(1000),
        "{path}"
    );
    assert_eq!(btree_depth(64), 1);
    assert_eq!(btree_depth(65), 2);
    assert_eq!(btree_depth(100_000), 3);
}

/// What this thread's meter holds (heap bytes), emptied.
fn metered() -> u64 {
    crate::eval::budget::swap_meter((0, 0)).1
}

#[test]
fn writes_to_shared_storage_charge_their_copy_and_unshared_ones_nothing() {
    metered();
    // Maps: a small one's array, a large one's paths.
    let mut small: Map = (0..5).map(|i| (Value::Int(i), Value::Int(i))).collect();
    assert_eq!(metered(), 0, "building is charged by its builder, not here");
    let held = small.clone();
    small.insert(Value::Int(9), Value::Int(9));
    assert_eq!(metered(), map_bytes(5));
    small.insert(Value::Int(10), Value::Int(10));
    assert_eq!(metered(), 0, "the copy is this map's own now");
    drop(held);
    let mut large: Map = (0..1000).map(|i| (Value::Int(i), Value::Int(i))).collect();
    let held = large.clone();
    large.insert(Value::Int(3), Value::Int(-3));
    assert_eq!(
        metered(),
        map_copy_bytes(false, 1000) + map_entries_tree_bytes(1000),
        "a value replaced: the handle and a flat copy of the entries, the index shared on"
    );
    // Another write to the same shared entries builds their tree, once.
    for tree in [map_entries_tree_bytes(1000), 0] {
        let mut other = held.clone();
        other.insert(Value::Int(5), Value::Int(-5));
        assert_eq!(metered(), map_copy_bytes(false, 1000) + tree);
        assert_eq!(other.get(&Value::Int(5)), Some(&Value::Int(-5)));
    }
    assert_eq!(held.get(&Value::Int(5)), Some(&Value::Int(5)));
    large.remove(&Value::Int(3));
    assert_eq!(
        metered(),
        map_index_bytes(1000),
        "a key removed: the shared index copied"
    );
    large.remove(&Value::Int(4));
    assert_eq!(metered(), 0, "the index is this map's own now");
    drop(held);
    // Sets: the whole array or table.
    let mut set: crate::value::Set = (0..1000).map(Value::Int).collect();
    metered();
    let held = set.clone();
    set.insert(Value::Int(-1));
    assert_eq!(metered(), set_bytes(1000));
    drop(held);
    set.insert(Value::Int(-2));
    assert_eq!(metered(), 0);
    // Vectors: copied at the first write while another value holds them.
    let mut items = Vector::from_vec((0..10).map(Value::Int).collect());
    let held = items.clone();
    assert_eq!(metered(), 0, "a copy of the value shares the items");
    items.push_back(Value::Int(-1));
    assert_eq!(metered(), vector_bytes(10));
    let mut own = held;
    own.push_back(Value::Int(-1));
    assert_eq!(metered(), 0, "the other holder writes in place");
    // A flat vector: its tree, once, then each copy's handle and chunk.
    let items = Vector::from_vec((0..1000).map(Value::Int).collect());
    let held = items.clone();
    let held2 = items.clone();
    let mut copy = items;
    copy.push_back(Value::Int(-1));
    assert_eq!(
        metered(),
        vector_copy_bytes(1000) + vector_tree_bytes(1000),
        "the first write copies the handle and builds the tree"
    );
    let mut copy2 = held;
    copy2.set(0, Value::Int(-1));
    assert_eq!(metered(), vector_copy_bytes(1000), "the tree is kept");
    drop(held2);
}

#[test]
fn a_large_set_is_charged_its_order_when_first_iterated() {
    let set: crate::value::Set = (0..1000).map(Value::Int).collect();
    metered();
    assert_eq!(set.iter().count(), 1000);
    assert_eq!(metered(), set_order_bytes(1000));
    assert_eq!(set.iter().count(), 1000);
    assert_eq!(metered(), 0, "kept, not made again");
}

/// The shortcuts for one more entry in a large map or set, and for a
/// map's value replaced, give what the two sizes give, at every size up
/// to past the first million (every chunk and bucket boundary on the way).
#[test]
fn one_more_map_entry_costs_what_the_two_sizes_say() {
    let sorted = Map::sorted();
    for n in 0..1_200_000usize {
        let full = map_bytes(n + 1).saturating_sub(map_bytes(n));
        assert_eq!(map_growth(n, n + 1), full, "{n} -> {}", n + 1);
        assert_eq!(map_growth(n, n), 0, "{n} -> {n}");
        assert_eq!(map_growth_like(&sorted, n, n), 0, "sorted {n} -> {n}");
        let full = set_bytes(n + 1).saturating_sub(set_bytes(n));
        assert_eq!(set_growth(n, n + 1), full, "set {n} -> {}", n + 1);
    }
}

/// The shortcut for whether one more item keeps a table's buckets agrees
/// with computing both bucket counts near every bucket boundary, up to
/// and past where it gives way to computing them.
#[test]
fn one_more_item_keeps_the_buckets_exactly_when_the_counts_say() {
    for k in 7..=60u32 {
        let edge = (7u64 << k) / 8;
        for n in edge.saturating_sub(4)..edge.saturating_add(4) {
            let want = set_buckets(n) == set_buckets(n + 1);
            assert_eq!(super::one_more_keeps_buckets(n), want, "{n}");
        }
    }
}

#[test]
fn records_are_charged_their_values_and_the_copies_their_writes_make() {
    // One allocation: the counts, the shape's pointer, then the values.
    assert_eq!(record_bytes(0), 0);
    for n in 1..=map::SMALL {
        assert_eq!(record_bytes(n), 8 + 4 + 4 + 8 + n as u64 * VALUE, "{n}");
        assert!(record_bytes(n) < map_bytes(n));
    }
    let shape = map::shape_of(vec![Value::keyword("a"), Value::keyword("b")]);
    let mut fields = map::Fields::with_capacity_and(2, shape);
    fields.push(Value::Int(1));
    fields.push(Value::Int(2));
    let mut r = Map::from_fields_known(fields, true);
    assert!(r.is_record());
    assert_eq!(map_bytes_like(&r, 2), record_bytes(2));
    metered();
    let held = r.clone();
    r.insert(Value::keyword("a"), Value::Int(3));
    assert_eq!(
        metered(),
        record_bytes(2),
        "a shared record's values copied"
    );
    r.insert(Value::keyword("b"), Value::Int(4));
    assert_eq!(metered(), 0, "the copy is this record's own now");
    // A key the shape takes next: the record's values copied when shared.
    let mut other = held.clone();
    other.insert(Value::keyword("c"), Value::Int(5));
    assert!(other.is_record());
    assert_eq!(metered(), record_bytes(2));
    drop(held);
}
