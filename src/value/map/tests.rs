//! Unit tests of [`super::Map`]: orders, copy on write, the shallow-record flag.

use super::*;

fn int(i: i64) -> Value {
    Value::Int(i)
}

/// A fixed pseudo-random sequence from `seed`: each call a number below
/// its argument.
fn pseudo_random(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    }
}

#[test]
fn grows_large_and_shrinks_back_keeping_insertion_order() {
    let mut m = Map::new();
    for i in (0..100).rev() {
        assert_eq!(m.insert(int(i), int(i * 2)), None);
    }
    assert_eq!(m.len(), 100);
    assert!(matches!(*m.repr(), Repr::Large(..)));
    assert!(m.keys().cloned().eq((0..100).rev().map(int)));
    assert_eq!(m.get(&int(42)), Some(&int(84)));
    assert_eq!(m.insert(int(42), int(0)), Some(int(84)));
    for i in 0..95 {
        assert_eq!(
            m.remove(&int(i)),
            Some(int(if i == 42 { 0 } else { i * 2 }))
        );
    }
    assert!(matches!(*m.repr(), Repr::Small(..)));
    assert!(m.keys().cloned().eq((95..100).rev().map(int)));
}

#[test]
fn small_maps_append_new_keys_and_keep_replaced_ones_in_place() {
    let mut m: Map = [(int(3), int(0)), (int(1), int(0))].into_iter().collect();
    m.insert(int(2), int(0));
    m.insert(int(3), int(9));
    assert!(m.keys().cloned().eq([3, 1, 2].map(int)));
    m.remove(&int(1));
    m.insert(int(1), int(0));
    assert!(m.keys().cloned().eq([3, 2, 1].map(int)));
}

#[test]
fn sorted_maps_stay_sorted() {
    let mut m = Map::sorted();
    for i in [5, 1, 40, 3] {
        m.insert(int(i), int(i));
    }
    assert!(m.keys().cloned().eq([1, 3, 5, 40].map(int)));
    assert!(m.empty_like().is_sorted());
    m.remove(&int(3));
    assert!(m.is_sorted());
}

#[test]
fn copies_on_write_and_leaves_the_original_alone() {
    let a: Map = [(int(1), int(1)), (int(2), int(2))].into_iter().collect();
    let mut b = a.clone();
    assert!(a.ptr_eq(&b));
    b.insert(int(3), int(3));
    *b.entry(int(1)).or_insert(int(0)) = int(10);
    assert_eq!(a.len(), 2);
    assert_eq!(a.get(&int(1)), Some(&int(1)));
    assert_eq!(b.get(&int(1)), Some(&int(10)));
    assert!(!a.ptr_eq(&b));
}

/// A map says it is a shallow record only when no entry holds another
/// value, whatever writes made it; and says so when it was built
/// shallow and every write since kept it so (other than `get_mut`).
#[test]
fn a_shallow_record_says_so_only_when_it_is_one() {
    let nested = || Value::vector_from([int(1)]);
    let scalars = |m: &Map| {
        m.len() <= SMALL
            && !m.is_empty()
            && shallow_entries(
                &m.iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<Vec<_>>(),
            )
    };
    let check = |m: &Map, exact: bool| {
        if m.is_shallow_record() {
            assert!(scalars(m), "flagged shallow but holds a collection");
        } else if exact {
            assert!(!scalars(m), "shallow but not flagged");
        }
    };
    // Every write, in a fixed pseudo-random order, on copies too.
    let mut next = pseudo_random(7);
    let mut m = Map::new();
    let mut exact = true;
    for _ in 0..5000 {
        let k = int(next(20) as i64);
        let v = if next(4) == 0 { nested() } else { int(1) };
        // Half the writes on a map another holds too (copied first), half
        // on one only this handle holds (in place, `handle.rs`).
        let keep = (next(2) == 0).then(|| m.clone());
        match next(6) {
            0 | 1 => {
                m.insert(k, v);
            }
            2 => {
                m.remove(&k);
            }
            3 => {
                m.take_value(&k);
            }
            4 => {
                if let Some(slot) = m.get_mut(&k) {
                    *slot = v;
                    exact = false;
                }
            }
            _ => {
                let entries: Vec<_> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                if entries.len() <= SMALL {
                    m = Map::from_distinct(entries);
                    exact = true;
                }
            }
        }
        // Once it held a collection the flag may stay off (until the
        // map is built again): only "flagged implies shallow" holds.
        exact &= scalars(&m);
        check(&m, exact);
        if let Some(keep) = &keep {
            check(keep, false);
        }
        if m.is_empty() {
            exact = true;
        }
    }
    assert!(Map::unit(int(1), int(2)).is_shallow_record());
    assert!(!Map::unit(int(1), nested()).is_shallow_record());
    assert!(!Map::unit(nested(), int(1)).is_shallow_record());
    let empty_vec = Value::empty_vector();
    assert!(Map::unit(int(1), empty_vec).is_shallow_record());
}

#[test]
fn union_prefers_the_left_side() {
    let a: Map = [(int(1), int(1))].into_iter().collect();
    let b: Map = [(int(1), int(9)), (int(2), int(2))].into_iter().collect();
    let u = a.union(b);
    assert_eq!(u.get(&int(1)), Some(&int(1)));
    assert_eq!(u.len(), 2);
}

#[test]
fn a_counted_keyword_finds_the_interned_key_of_its_name_and_back() {
    use crate::value::Kw;
    let interned = |s: &str| Value::Keyword(Kw::interned(s));
    let counted = |s: &str| Value::Keyword(Kw::counted(s));
    let mut m: Map = [(interned("a"), int(1)), (counted("b"), int(2))]
        .into_iter()
        .collect();
    // Looked up and replaced by the other kind of the same name …
    assert_eq!(m.get(&counted("a")), Some(&int(1)));
    assert_eq!(m.get(&interned("b")), Some(&int(2)));
    assert_eq!(m.insert(counted("a"), int(10)), Some(int(1)));
    assert_eq!(m.insert(interned("b"), int(20)), Some(int(2)));
    assert_eq!(m.len(), 2);
    // … while a keyword not there, or a string of the same text, is new.
    assert_eq!(m.get(&interned("c")), None);
    assert_eq!(m.insert(Value::string("a"), int(3)), None);
    assert_eq!(m.insert(interned("c"), int(4)), None);
    assert_eq!(m.len(), 4);
    assert!(m.keys().cloned().eq([
        interned("a"),
        counted("b"),
        Value::string("a"),
        interned("c")
    ]));
}

/// A record of `keys` (one shape) holding `vals`.
fn record(shape: &Shape, vals: &[Value]) -> Map {
    let mut fields = Fields::with_capacity_and(vals.len(), shape.clone());
    vals.iter().for_each(|v| fields.push(v.clone()));
    Map::from_fields_known(fields, true)
}

fn kw(name: &str) -> Value {
    Value::keyword_interned(name)
}

#[test]
fn records_read_write_and_compare_as_the_small_map_of_their_entries() {
    let shape = shape_of(vec![kw("id"), kw("name")]);
    let mut r = record(&shape, &[int(1), int(2)]);
    let small: Map = [(kw("id"), int(1)), (kw("name"), int(2))]
        .into_iter()
        .collect();
    assert!(r.is_record() && !small.is_record());
    assert!(Value::Map(r.clone()) == Value::Map(small));
    assert_eq!(r.get(&kw("name")), Some(&int(2)));
    assert_eq!(r.get_keyword("id"), Some(&int(1)));
    assert_eq!(r.get(&kw("nope")), None);
    assert!(r
        .iter()
        .rev()
        .map(|(k, _)| k.clone())
        .eq([kw("name"), kw("id")]));
    // A new value for one of its keys, through a copy: both stay records.
    let before = r.clone();
    assert_eq!(r.insert(kw("id"), int(7)), Some(int(1)));
    assert!(r.is_record() && before.is_record());
    assert_eq!(
        (before.get(&kw("id")), r.get(&kw("id"))),
        (Some(&int(1)), Some(&int(7)))
    );
    *r.get_mut(&kw("name")).unwrap() = int(8);
    assert_eq!(r.take_value(&kw("name")), Some(int(8)));
    // A removed key makes it a small map, in order.
    r.remove(&kw("id"));
    assert!(!r.is_record());
    assert!(r.keys().cloned().eq([kw("name")]));
    assert_eq!(before.len(), 2);
}

#[test]
fn records_given_the_same_new_key_share_one_new_shape_and_another_key_makes_a_small_map() {
    let shape = shape_of(vec![kw("a")]);
    let (mut x, mut y) = (record(&shape, &[int(1)]), record(&shape, &[int(2)]));
    let kept = x.clone();
    x.insert(kw("b"), int(10));
    y.insert(kw("b"), int(20));
    assert!(x.is_record() && y.is_record());
    assert_eq!(shape_addr(&x), shape_addr(&y));
    assert_ne!(shape_addr(&x), shape_addr(&kept));
    assert!(x.keys().cloned().eq([kw("a"), kw("b")]));
    assert_eq!((kept.len(), x.get(&kw("b"))), (1, Some(&int(10))));
    // Another key than the one the shape took first: a small map.
    let mut z = record(&shape, &[int(3)]);
    z.insert(kw("c"), int(30));
    assert!(!z.is_record());
    assert!(z.keys().cloned().eq([kw("a"), kw("c")]));
    assert!(z.iter().map(|(_, v)| v.clone()).eq([int(3), int(30)]));
}

/// A large map says it is flat only when no key holds anything and every
/// value is a scalar or a shallow record, whatever writes made it; writes
/// through `insert`, `update_value`, `take_value` and `remove` keep a
/// flat map flagged, `get_mut` turns the flag off.
#[test]
fn a_flat_map_says_so_only_when_it_is_one() {
    let record = |i: i64| Value::map_from([(Value::keyword("n"), int(i))]);
    let nested = || Value::vector_from([int(1)]);
    let flat = |m: &Map| m.iter().all(|(k, v)| flat_pair(k, v));
    let mut next = pseudo_random(11);
    let (mut flagged, mut unflagged) = (0, 0);
    let mut m = Map::new();
    for step in 0..20_000 {
        let k = int(next(60) as i64);
        let v = match next(40) {
            0 => nested(),
            1..=3 => record(next(5) as i64),
            _ => int(1),
        };
        let keep = (next(2) == 0).then(|| m.clone());
        let was = m.is_flat();
        let mut by_get_mut = false;
        // Phases of growing and of shrinking (back to a small map, which
        // grows large again flat).
        let grow = step / 400 % 2 == 0;
        match next(7) {
            0..=2 if grow => {
                m.insert(k, v);
            }
            0..=3 => {
                m.remove(&k);
            }
            4 => {
                m.take_value(&k);
            }
            5 => {
                m.update_value(&k, |_| Ok::<_, ()>(v));
            }
            _ => {
                if let Some(slot) = m.get_mut(&k) {
                    *slot = int(2);
                    by_get_mut = true;
                    assert!(!m.is_flat(), "get_mut leaves the flag on");
                }
            }
        }
        if m.is_flat() {
            assert!(flat(&m), "flagged flat but holds a collection");
            flagged += 1;
        } else {
            unflagged += 1;
        }
        // A flat large map kept large by a write that keeps it flat stays
        // flagged.
        if was && !by_get_mut && flat(&m) && m.len() > SMALL && !m.is_flat() {
            panic!("a write that kept the map flat turned its flag off");
        }
        if let Some(keep) = &keep {
            assert_eq!(keep.is_flat(), was, "a copy's flag changed");
        }
    }
    assert!(flagged > 200 && unflagged > 1000, "{flagged} {unflagged}");
}

/// The handle is one word (`handle.rs`), so a `Value` is two.
#[test]
fn a_map_is_one_word() {
    assert_eq!(std::mem::size_of::<Map>(), 8);
    assert_eq!(std::mem::size_of::<Value>(), 16);
}

/// A write that panics part way (here `update_value`'s function) leaves
/// the map whole: the guard packs what it holds back into the handle while
/// unwinding, for every representation, shared or not.
#[test]
fn a_write_that_panics_leaves_the_map_whole() {
    let shape = shape_of(vec![kw("a"), kw("b")]);
    let large: Map = (0..40).map(|i| (int(i), int(i))).collect();
    let mut sorted = Map::sorted();
    sorted.insert(int(1), int(1));
    let maps = [
        Map::unit(int(1), int(1)),
        record(&shape, &[int(1), int(2)]),
        large,
        sorted,
    ];
    for m in maps {
        for shared in [false, true] {
            let mut m = m.clone();
            let keep = shared.then(|| m.clone());
            let key = m.keys().next().cloned().expect("a key");
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                m.update_value(&key, |_| -> Result<Value, ()> { panic!("in a write") })
            }));
            assert!(caught.is_err());
            assert_eq!(m.get(&key), Some(&Value::Nil), "nil left under the key");
            m.insert(int(99), int(99));
            assert_eq!(m.get(&int(99)), Some(&int(99)));
            if let Some(keep) = keep {
                assert_eq!(keep.get(&key).map(|v| v.is_nil()), Some(false));
            }
        }
    }
}
