//! Tests of [`Vector`](super::Vector): the four representations and the
//! moves between them.

use super::*;

fn ints(r: Range<i64>) -> Vector {
    r.map(Value::Int).collect()
}

fn as_ints(v: &Vector) -> Vec<i64> {
    v.iter().map(|x| x.as_int().unwrap()).collect()
}

fn is_small(v: &Vector) -> bool {
    matches!(*v.repr(), Repr::Small(_))
}

fn is_flat(v: &Vector) -> bool {
    matches!(*v.repr(), Repr::Flat(_))
}

fn is_tree(v: &Vector) -> bool {
    matches!(*v.repr(), Repr::Large(_))
}

fn is_slice(v: &Vector) -> bool {
    matches!(*v.repr(), Repr::Slice(_))
}

#[test]
fn a_vector_is_one_word() {
    assert_eq!(std::mem::size_of::<Vector>(), 8);
    assert_eq!(std::mem::size_of::<Option<Vector>>(), 8);
}

#[test]
fn small_vectors_take_exactly_their_items_room() {
    let v = Value::vector_from((0..6).map(Value::Int));
    let Value::Vector(items) = &v else { panic!() };
    assert!(is_small(items));
    assert_eq!(
        items.heap_bytes(),
        16 + 6 * std::mem::size_of::<Value>(),
        "one allocation: the counts, then the items"
    );
}

#[test]
fn pushing_past_the_threshold_makes_it_flat_and_keeps_order() {
    let mut v = Vector::new();
    for i in 0..(SMALL as i64 + 10) {
        v.push_back(Value::Int(i));
        assert_eq!(is_small(&v), v.len() <= SMALL);
        assert_eq!(is_flat(&v), v.len() > SMALL);
    }
    assert_eq!(as_ints(&v), (0..SMALL as i64 + 10).collect::<Vec<_>>());
    // Inserting anywhere but the end works on a tree.
    let mut front = ints(0..SMALL as i64);
    front.push_front(Value::Int(-1));
    assert!(is_tree(&front));
    assert_eq!(front[0], Value::Int(-1));
    assert_eq!(front.len(), SMALL + 1);
}

#[test]
fn collecting_picks_the_representation_by_length() {
    assert!(is_small(&ints(0..SMALL as i64)));
    let big = ints(0..1000);
    assert!(is_flat(&big));
    assert_eq!(as_ints(&big), (0..1000).collect::<Vec<_>>());
    assert_eq!(big.iter().next_back(), Some(&Value::Int(999)));
    assert_eq!(big.iter().len(), 1000);
}

#[test]
fn cutting_a_large_vector_down_gives_a_small_one() {
    let big = ints(0..1000);
    let tail = big.skip(990);
    assert!(is_small(&tail));
    assert_eq!(as_ints(&tail), (990..1000).collect::<Vec<_>>());
    let head = big.take(3);
    assert!(is_small(&head));
    assert_eq!(as_ints(&head), vec![0, 1, 2]);
    assert_eq!(as_ints(&big.skip(500).take(2)), vec![500, 501]);
    assert!(big.skip(2000).is_empty());
    assert_eq!(big.take(2000).len(), 1000);
    let (l, r) = big.clone().split_at(998);
    assert!(!is_small(&l) && is_small(&r));
    assert_eq!(as_ints(&r), vec![998, 999]);
    let mut cut = big.clone();
    let mid = cut.slice(10..20);
    assert_eq!(as_ints(&mid), (10..20).collect::<Vec<_>>());
    assert_eq!(cut.len(), 990);
    assert_eq!(cut[10], Value::Int(20));
}

#[test]
fn popping_goes_back_to_small_at_the_threshold_from_flat_and_at_half_from_a_tree() {
    let mut flat = ints(0..SMALL as i64 + 2);
    flat.pop_back();
    assert!(is_flat(&flat));
    flat.pop_back();
    assert!(is_small(&flat));
    let mut v = ints(0..SMALL as i64 + 1);
    v.make_tree();
    while v.len() > DEMOTE + 1 {
        v.pop_back();
        assert!(!is_small(&v));
    }
    v.pop_back();
    assert!(is_small(&v));
    assert_eq!(as_ints(&v), (0..DEMOTE as i64).collect::<Vec<_>>());
    let mut w = ints(0..SMALL as i64 + 1);
    while w.pop_front().is_some() {}
    assert!(w.is_empty() && is_small(&w));
}

#[test]
fn equal_items_are_equal_whatever_the_representation() {
    let mut large = ints(0..SMALL as i64 + 1);
    large.make_tree();
    large.pop_back();
    assert!(is_tree(&large));
    let small = ints(0..SMALL as i64);
    assert!(is_small(&small));
    assert_eq!(large, small);
    assert_eq!(Value::vector(large), Value::vector(small));
}

#[test]
fn append_insert_remove_set_keep_every_item() {
    let mut v = ints(0..40);
    v.append(ints(40..100));
    assert_eq!(as_ints(&v), (0..100).collect::<Vec<_>>());
    let mut s = ints(0..3);
    s.append(ints(3..5));
    assert!(is_small(&s));
    assert_eq!(as_ints(&s), vec![0, 1, 2, 3, 4]);
    s.insert(2, Value::Int(9));
    assert_eq!(s.remove(0), Value::Int(0));
    assert_eq!(s.set(0, Value::Int(7)), Value::Int(1));
    assert_eq!(as_ints(&s), vec![7, 9, 2, 3, 4]);
    let u = s.update(4, Value::Int(0));
    assert_eq!(as_ints(&u), vec![7, 9, 2, 3, 0]);
    assert_eq!(as_ints(&s), vec![7, 9, 2, 3, 4]);
    s.retain(|x| x.as_int() != Some(9));
    s.truncate(2);
    assert_eq!(as_ints(&s), vec![7, 2]);
}

#[test]
fn a_shared_small_vector_is_copied_on_write() {
    let a = ints(0..5);
    let mut b = a.clone();
    assert!(a.ptr_eq(&b) && a.is_shared());
    b.push_back(Value::Int(5));
    assert_eq!(a.len(), 5);
    assert_eq!(b.len(), 6);
    assert!(!a.is_shared() && !b.is_shared());
}

/// One write of [`every_write_changes_only_its_own_copy`].
#[derive(Clone, Debug)]
enum Op {
    Push(bool),
    Pop,
    Set(usize, bool),
    Insert(usize, bool),
    Remove(usize),
    SplitOff(usize),
    Slice(usize, usize),
    Append(usize),
    Truncate(usize),
    Retain(usize),
    Extend(usize),
    IterMut,
    Skip(usize),
    Take(usize),
    /// The vector becomes its items from the first on (`rest`).
    Rest(usize),
    /// The vector becomes its items in a range (`subvec`).
    Sub(usize, usize),
    /// Keep a copy of the vector as it is now (to check it never changes).
    Hold,
    /// Drop the oldest copy kept.
    Release,
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        4 => any::<bool>().prop_map(Op::Push),
        1 => Just(Op::Pop),
        1 => (0..200usize, any::<bool>()).prop_map(|(i, s)| Op::Set(i, s)),
        1 => (0..200usize, any::<bool>()).prop_map(|(i, s)| Op::Insert(i, s)),
        1 => (0..200usize).prop_map(Op::Remove),
        1 => (0..200usize).prop_map(Op::SplitOff),
        1 => (0..200usize, 0..200usize).prop_map(|(a, b)| Op::Slice(a, b)),
        1 => (0..100usize).prop_map(Op::Append),
        1 => (0..200usize).prop_map(Op::Truncate),
        1 => (2..5usize).prop_map(Op::Retain),
        2 => (0..90usize).prop_map(Op::Extend),
        1 => Just(Op::IterMut),
        1 => (0..200usize).prop_map(Op::Skip),
        1 => (0..200usize).prop_map(Op::Take),
        2 => (0..30usize).prop_map(Op::Rest),
        1 => (0..200usize, 0..200usize).prop_map(|(a, b)| Op::Sub(a, b)),
        2 => Just(Op::Hold),
        1 => Just(Op::Release),
    ]
}

proptest::proptest! {
    /// Random writes, with copies of the vector kept along the way, do to
    /// the vector what they do to a `Vec` and leave every kept copy as it
    /// was, across the small, flat, tree and slice representations; every item
    /// holding an allocation is dropped exactly once at the end.
    #[test]
    fn every_write_changes_only_its_own_copy(
        ops in proptest::collection::vec(op(), 1..120),
    ) {
        let text = crate::value::Text::from("item");
        let mut n = 0i64;
        let mut item = |s: bool| {
            n += 1;
            if s { Value::Str(text.clone()) } else { Value::Int(n) }
        };
        let mut v = Vector::new();
        let mut model: Vec<Value> = Vec::new();
        let mut held: Vec<(Vector, Vec<Value>)> = Vec::new();
        for op in ops {
            let len = model.len();
            match op {
                Op::Push(s) => {
                    let x = item(s);
                    v.push_back(x.clone());
                    model.push(x);
                }
                Op::Pop => assert_eq!(v.pop_back(), model.pop()),
                Op::Set(i, s) if i < len => {
                    let x = item(s);
                    assert_eq!(v.set(i, x.clone()), std::mem::replace(&mut model[i], x));
                }
                Op::Insert(i, s) if i <= len => {
                    let x = item(s);
                    v.insert(i, x.clone());
                    model.insert(i, x);
                }
                Op::Remove(i) if i < len => assert_eq!(v.remove(i), model.remove(i)),
                Op::SplitOff(i) if i <= len => {
                    let right = v.split_off(i);
                    let want = model.split_off(i);
                    assert_eq!(right.iter().cloned().collect::<Vec<_>>(), want);
                }
                Op::Slice(a, b) if a <= b && b <= len => {
                    let cut = v.slice(a..b);
                    let want: Vec<Value> = model.drain(a..b).collect();
                    assert_eq!(cut.iter().cloned().collect::<Vec<_>>(), want);
                }
                Op::Append(k) => {
                    let more: Vec<Value> = (0..k).map(|j| item(j % 3 == 0)).collect();
                    v.append(Vector::from_vec(more.clone()));
                    model.extend(more);
                }
                Op::Truncate(k) => {
                    v.truncate(k);
                    model.truncate(k);
                }
                Op::Retain(m) => {
                    let keep = |x: &Value| x.as_int().is_none_or(|i| i % m as i64 != 0);
                    v.retain(keep);
                    model.retain(keep);
                }
                Op::Extend(k) => {
                    let more: Vec<Value> = (0..k).map(|j| item(j % 4 == 0)).collect();
                    v.extend(more.clone());
                    model.extend(more);
                }
                Op::IterMut => {
                    for x in v.iter_mut() {
                        if let Value::Int(i) = x {
                            *i = -*i;
                        }
                    }
                    for x in model.iter_mut() {
                        if let Value::Int(i) = x {
                            *i = -*i;
                        }
                    }
                }
                Op::Skip(k) => {
                    let got = v.skip(k);
                    assert_eq!(got.iter().cloned().collect::<Vec<_>>(), model.get(k..).unwrap_or_default());
                }
                Op::Take(k) => {
                    let got = v.take(k);
                    assert_eq!(got.iter().cloned().collect::<Vec<_>>(), model[..k.min(len)]);
                }
                Op::Rest(k) => {
                    v = v.skip(k);
                    model = model.get(k..).unwrap_or_default().to_vec();
                }
                Op::Sub(a, b) if a <= b && b <= len => {
                    v = v.sub(a..b);
                    model = model[a..b].to_vec();
                }
                Op::Hold => held.push((v.clone(), model.clone())),
                Op::Release if !held.is_empty() => {
                    held.remove(0);
                }
                _ => {}
            }
            assert_eq!(v.len(), model.len());
            assert!(v.iter().eq(model.iter()));
            assert!(v.iter().rev().eq(model.iter().rev()));
            for (copy, was) in &held {
                assert!(copy.iter().eq(was.iter()), "a kept copy changed");
            }
        }
        let owned: Vec<Value> = v.clone().into_iter().collect();
        assert_eq!(owned, model);
        drop((v, model, held, owned));
        assert_eq!(text.strong_count(), 1, "every item dropped once");
    }
}

/// A large vector built so its leaves are not all full (pushes at both
/// ends and a concatenation), with the same items in a `Vec`.
fn uneven_large() -> (Vector, Vec<i64>) {
    let mut v = ints(0..300);
    for i in 1..=70 {
        v.push_front(Value::Int(-i));
    }
    v.append(ints(300..1000));
    (v, (-70..1000).collect())
}

#[test]
fn a_large_vector_iterates_leaf_by_leaf_from_both_ends() {
    let (v, expected) = uneven_large();
    assert!(!is_small(&v));
    assert_eq!(as_ints(&v), expected);
    let backwards: Vec<i64> = v.iter().rev().map(|x| x.as_int().unwrap()).collect();
    assert_eq!(
        backwards,
        expected.iter().rev().copied().collect::<Vec<_>>()
    );
    // Both ends at once, meeting in the middle; the length stays exact.
    let mut it = v.iter();
    let (mut front, mut back) = (Vec::new(), Vec::new());
    while it.len() > 0 {
        let before = it.len();
        front.push(it.next().unwrap().as_int().unwrap());
        if let Some(x) = it.next_back() {
            back.push(x.as_int().unwrap());
        }
        assert!(it.len() < before);
    }
    assert!(it.next().is_none() && it.next_back().is_none());
    back.reverse();
    front.extend(back);
    assert_eq!(front, expected);
    // `nth` skips whole leaves and counts what it skipped.
    for start in [0, 1, 63, 64, 65, 500, 1069] {
        let mut it = v.iter();
        assert_eq!(
            it.nth(start).map(|x| x.as_int().unwrap()),
            Some(expected[start])
        );
        assert_eq!(it.len(), expected.len() - start - 1);
        assert_eq!(
            it.next().map(|x| x.as_int().unwrap()),
            expected.get(start + 1).copied()
        );
    }
    assert!(v.iter().nth(expected.len()).is_none());
    let sum = v.iter().fold(0, |acc, x| acc + x.as_int().unwrap());
    assert_eq!(sum, expected.iter().sum::<i64>());
}

#[test]
fn runs_cover_a_large_vector_in_order() {
    let (v, expected) = uneven_large();
    let mut seen = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let run = v.run_from(i);
        assert!(!run.is_empty() && run.len() <= 64);
        seen.extend(run.iter().map(|x| x.as_int().unwrap()));
        i += run.len();
    }
    assert_eq!(seen, expected);
    assert!(v.run_from(v.len()).is_empty());
    // From the middle of a leaf.
    assert_eq!(v.run_from(100)[0].as_int(), Some(expected[100]));
}

#[test]
fn a_shared_flat_vector_is_copied_as_a_tree_built_once() {
    let a = std::sync::Arc::new(ints(0..1000));
    assert!(is_flat(&a));
    let mut b = a.clone();
    let mut c = a.clone();
    std::sync::Arc::make_mut(&mut b).push_back(Value::Int(1000));
    std::sync::Arc::make_mut(&mut c).set(0, Value::Int(-1));
    assert!(is_tree(&b) && is_tree(&c));
    assert!(is_flat(&a), "the original keeps its items in place");
    let Repr::Flat(f) = &*a.repr() else { panic!() };
    let Some(tree) = f.tree.get() else {
        panic!("the tree is kept")
    };
    let Repr::Large(in_c) = &*c.repr() else {
        panic!()
    };
    // Both copies came from the one kept tree: c's unchanged end still
    // shares its leaves (imbl copies only the path it writes).
    assert_eq!(tree.len(), 1000);
    assert!(std::ptr::eq(&tree[999], &in_c[999]));
    assert_eq!(as_ints(&a), (0..1000).collect::<Vec<_>>());
    assert_eq!(as_ints(&b), (0..1001).collect::<Vec<_>>());
    assert_eq!(c[0], Value::Int(-1));
    assert_eq!(c.len(), 1000);
}

#[test]
fn changing_a_flat_vector_in_place_drops_the_kept_tree() {
    let mut v = ints(0..200);
    let mut copy = v.clone();
    assert!(is_flat(&copy), "copies share the items");
    copy.set(7, Value::Int(-7));
    assert!(is_tree(&copy), "a write to shared items makes a tree");
    assert_eq!(v[7], Value::Int(7));
    v.set(5, Value::Int(-5));
    let Repr::Flat(f) = &*v.repr() else { panic!() };
    assert!(
        f.tree.get().is_none(),
        "a stale tree would serve the next copy"
    );
    let again = v.clone();
    assert_eq!(again[5], Value::Int(-5));
    assert_eq!(copy[5], Value::Int(5));
}

#[test]
fn cutting_or_appending_flat_vectors_keeps_every_item() {
    let big = ints(0..1000);
    let rest = big.skip(1);
    assert!(
        is_slice(&rest),
        "rest of a flat vector shares its items, not a copy"
    );
    assert_eq!(as_ints(&rest), (1..1000).collect::<Vec<_>>());
    let mut joined = ints(0..100);
    joined.append(ints(100..300));
    assert!(is_flat(&joined));
    assert_eq!(as_ints(&joined), (0..300).collect::<Vec<_>>());
    joined.append(ints(0..1000).skip(700));
    assert_eq!(joined.len(), 600);
    assert_eq!(joined[599], Value::Int(999));
    let mut cut = ints(0..1000);
    assert_eq!(cut.remove(999), Value::Int(999));
    assert!(is_flat(&cut));
    assert_eq!(cut.remove(0), Value::Int(0));
    assert!(is_tree(&cut));
    assert_eq!(as_ints(&cut), (1..999).collect::<Vec<_>>());
    let mut kept = ints(0..1000);
    kept.retain(|x| x.as_int().is_some_and(|i| i % 100 == 0));
    assert!(is_small(&kept));
    assert_eq!(as_ints(&kept), (0..10).map(|i| i * 100).collect::<Vec<_>>());
}

/// A vector of each representation: empty, small, flat, tree and slice, with
/// items that own storage (strings), so a lost or doubled count shows.
fn every_kind() -> Vec<Vector> {
    let strs = |r: Range<i64>| -> Vector { r.map(|i| Value::string(i.to_string())).collect() };
    let mut tree = strs(0..200);
    let shared = tree.clone();
    tree.remove(0);
    drop(shared);
    assert!(is_tree(&tree));
    let slice = strs(0..200).sub(3..150);
    assert!(is_slice(&slice));
    let kinds = vec![Vector::new(), strs(0..5), strs(0..200), tree, slice];
    assert!(is_small(&kinds[1]) && is_flat(&kinds[2]));
    kinds
}

#[test]
fn every_kind_clones_writes_and_drops_shared_or_not() {
    for v in every_kind() {
        for shared in [false, true] {
            let mut v = v.clone();
            let keep = shared.then(|| v.clone());
            let before: Vec<Value> = v.iter().cloned().collect();
            let mut copy = v.clone();
            assert!(copy.ptr_eq(&v) && copy.addr() == v.addr());
            assert!(copy.unique_items_mut().is_none(), "shared");
            v.push_back(Value::Int(-1));
            if !before.is_empty() {
                v.set(0, Value::Int(-2));
                *v.get_mut(0).expect("an item") = Value::Int(-3);
            }
            for x in v.iter_mut() {
                if x.as_int() == Some(-1) {
                    *x = Value::Int(-4);
                }
            }
            assert_eq!(v.back(), Some(&Value::Int(-4)));
            assert_eq!(v.len(), before.len() + 1);
            assert_eq!(v.unique_items_mut().is_some(), !is_tree(&v));
            assert_eq!(copy.iter().cloned().collect::<Vec<_>>(), before);
            if let Some(keep) = keep {
                assert_eq!(keep.iter().cloned().collect::<Vec<_>>(), before);
            }
            drop(copy);
            assert_eq!(v.pop_back(), Some(Value::Int(-4)));
        }
    }
}

#[test]
fn a_write_that_panics_leaves_the_vector_whole() {
    for v in every_kind() {
        for shared in [false, true] {
            let mut v = v.clone();
            let keep = shared.then(|| v.clone());
            let before: Vec<Value> = v.iter().cloned().collect();
            let mut seen = 0;
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                v.retain(|_| {
                    seen += 1;
                    assert!(seen < 3, "in a write");
                    true
                })
            }));
            assert_eq!(caught.is_err(), before.len() >= 3);
            // Whatever the write left, the vector is one to use and drop.
            assert_eq!(v.iter().count(), v.len());
            v.push_back(Value::Int(-1));
            assert_eq!(v.back(), Some(&Value::Int(-1)));
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                v.extend((0..3).map(|i| {
                    assert!(i < 2, "in an iterator");
                    Value::Int(i)
                }))
            }));
            assert!(caught.is_err());
            assert_eq!(v.iter().count(), v.len());
            if let Some(keep) = keep {
                assert_eq!(keep.iter().cloned().collect::<Vec<_>>(), before);
            }
        }
    }
}

#[test]
fn rest_of_a_flat_vector_is_a_slice_of_its_items_until_it_fits_in_a_small_one() {
    let strs = |r: Range<i64>| -> Vector { r.map(|i| Value::string(i.to_string())).collect() };
    let text = |v: &Vector| -> Vec<String> { v.iter().map(|x| x.to_string()).collect() };
    let big = strs(0..300);
    let first = big[0].clone();
    let mut v = big.clone();
    let mut walked = 0;
    while !v.is_empty() {
        assert_eq!(v[0], strs(walked..walked + 1)[0]);
        v = v.skip(1);
        walked += 1;
        let left = 300 - walked as usize;
        assert_eq!(v.len(), left);
        assert_eq!(is_slice(&v), left > SMALL, "{left} left");
        assert_eq!(is_small(&v), left <= SMALL);
    }
    // Cut from a slice: the base's items again, at the right offsets.
    let mid = big.skip(10).skip(20).take(200);
    assert!(is_slice(&mid));
    assert_eq!(text(&mid), text(&strs(30..230)));
    assert_eq!(text(&big.sub(5..250).sub(5..100)), text(&strs(10..105)));
    assert_eq!(mid.run_from(199).len(), 1);
    assert_eq!(mid.back(), Some(&Value::string("229")));
    assert_eq!(mid.iter().next_back(), Some(&Value::string("229")));
    assert_eq!(mid.clone().into_iter().count(), 200);
    assert!(mid.is_contiguous() && mid.is_shared() && mid.clone().unique_items_mut().is_none());
    assert_eq!(mid, strs(30..230), "equal to the same items in any form");
    // Writing to a slice makes it a tree of its own; nothing else changes.
    let mut w = mid.clone();
    w.push_back(Value::Int(-1));
    w.set(0, Value::Int(-2));
    assert!(is_tree(&w));
    assert_eq!(
        (w.len(), w[0].clone(), w[200].clone()),
        (201, Value::Int(-2), Value::Int(-1))
    );
    assert_eq!(text(&mid), text(&strs(30..230)));
    assert_eq!(text(&big), text(&strs(0..300)));
    assert_eq!(big[0], first);
    // A slice outlives the vector it was cut from.
    let tail = strs(0..500).skip(1);
    assert_eq!(tail.len(), 499);
    assert_eq!(tail[498], Value::string("499"));
    assert!(tail.heap_bytes() >= 500 * std::mem::size_of::<Value>());
}
