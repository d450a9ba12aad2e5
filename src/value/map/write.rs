//! The writes of a [`Map`](super::Map), on its unpacked representation
//! ([`Repr`]): what `Map`'s methods of the same names do when the map's
//! storage is shared or the write changes its kind (`handle.rs` writes
//! storage only one handle holds in place), and the copies on write and
//! their heap charges (`value/cost.rs`).

use std::sync::Arc;

use super::record::{key_position, record_entries, record_mut, shape_with};
use super::{
    cost, flat_pair, flat_value, position, shallow_pair, Entries, Map, Ordered, Repr, Sorted, SMALL,
};
use crate::value::depth::is_nested;
use crate::value::unique::make_mut;
use crate::value::Value;

/// A small map's entries to change: copied first when another map holds
/// them too, the copy charged to the heap (`value/cost.rs`).
fn small_mut(entries: &mut Entries) -> &mut [(Value, Value)] {
    charge_copy_if_shared(entries);
    entries.make_mut()
}

/// Charges the copy a write to shared entries makes (`value/cost.rs`).
#[inline]
fn charge_copy_if_shared(entries: &Entries) {
    if !entries.is_unique() {
        crate::eval::budget::charge_heap(cost::map_bytes(entries.len()));
    }
}

/// Adds an entry to a small map's entries: a shared list is copied with
/// room for it, the copy charged as [`small_mut`] charges it.
fn small_push(entries: &mut Entries, entry: (Value, Value)) {
    charge_copy_if_shared(entries);
    entries.push(entry);
}

/// A large map to change: its handle copied first when shared, the paths
/// a write copies charged.
pub(super) fn large_mut(m: &mut Arc<Ordered>) -> &mut Ordered {
    cost::charge_copy_if_shared(m, || cost::map_copy_bytes(false, m.len()));
    make_mut(m)
}

/// A sorted map to change, as [`large_mut`].
fn sorted_mut(m: &mut Arc<Sorted>) -> &mut Sorted {
    cost::charge_copy_if_shared(m, || cost::map_copy_bytes(true, m.len()));
    make_mut(m)
}

/// The writes, on the unpacked map (`Map`'s methods of the same names
/// call these through [`Map::repr_mut`]).
impl Repr {
    /// A map of one entry.
    pub(super) fn unit(k: Value, v: Value) -> Repr {
        let shallow = shallow_pair(&k, &v);
        let mut entries = Entries::with_capacity(1);
        entries.push((k, v));
        Repr::Small(entries, shallow)
    }

    /// A record made a small map (before a write that changes its keys).
    pub(super) fn unshape(&mut self) {
        if let Repr::Record(..) = self {
            let Repr::Record(fields, shallow) = std::mem::take(self) else {
                unreachable!("a record")
            };
            *self = Repr::Small(record_entries(fields), shallow);
        }
    }

    /// [`Map::insert`].
    #[inline(always)]
    pub(super) fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        match self {
            Repr::Record(fields, shallow) => {
                if let Some(i) = key_position(fields.extra(), &k) {
                    *shallow &= !is_nested(&v);
                    return Some(std::mem::replace(&mut record_mut(fields)[i], v));
                }
            }
            Repr::Small(vec, shallow) => {
                if let Some(i) = position(vec, &k) {
                    *shallow &= !is_nested(&v);
                    return Some(std::mem::replace(&mut small_mut(vec)[i].1, v));
                }
            }
            Repr::Empty => {
                *self = Repr::unit(k, v);
                return None;
            }
            Repr::Large(m, flat) => {
                *flat &= flat_pair(&k, &v);
                return large_mut(m).insert(k, v);
            }
            Repr::Sorted(m) => return sorted_mut(m).insert(k, v),
        }
        self.insert_new(k, v);
        None
    }

    /// [`Map::insert`] of a key a small map or record does not have: it
    /// goes last (a record keeps its kind when its shape's next key is
    /// `k`, [`record::Transition`]; a full small map becomes large).
    pub(super) fn insert_new(&mut self, k: Value, v: Value) {
        match self {
            Repr::Record(fields, shallow) => match shape_with(fields.extra(), &k) {
                // Another field for a record: it keeps its kind.
                Some(next) => {
                    *shallow &= shallow_pair(&k, &v);
                    if !fields.is_unique() {
                        let n = fields.len();
                        crate::eval::budget::charge_heap(cost::record_bytes(n));
                    }
                    fields.push_with_extra(v, next);
                }
                None => {
                    self.unshape();
                    self.insert_new(k, v)
                }
            },
            Repr::Small(vec, shallow) if vec.len() < SMALL => {
                *shallow &= shallow_pair(&k, &v);
                small_push(vec, (k, v));
            }
            Repr::Small(..) => {
                let Repr::Small(entries, _) = std::mem::take(self) else {
                    unreachable!("a small map")
                };
                let flat = flat_pair(&k, &v) && entries.iter().all(|(k, v)| flat_pair(k, v));
                let mut large = Ordered::from_distinct(entries.into_vec());
                large.insert(k, v);
                *self = Repr::Large(Arc::new(large), flat);
            }
            _ => {
                self.insert(k, v);
            }
        }
    }

    /// [`Map::get_mut`].
    #[inline(always)]
    pub(super) fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        match self {
            Repr::Empty => None,
            Repr::Small(v, shallow) => {
                let i = position(v, k)?;
                // The caller may put anything there.
                *shallow = false;
                Some(&mut small_mut(v)[i].1)
            }
            Repr::Record(v, shallow) => {
                let i = key_position(v.extra(), k)?;
                *shallow = false;
                Some(&mut record_mut(v)[i])
            }
            Repr::Large(m, flat) => {
                let slot = large_mut(m).get_mut(k)?;
                *flat = false;
                Some(slot)
            }
            Repr::Sorted(m) => sorted_mut(m).get_mut(k),
        }
    }

    /// [`Map::update_value`].
    #[inline(always)]
    pub(super) fn update_value<E>(
        &mut self,
        k: &Value,
        f: impl FnOnce(Value) -> std::result::Result<Value, E>,
    ) -> Option<std::result::Result<(), E>> {
        let (slot, known, fits): (&mut Value, &mut bool, fn(&Value) -> bool) = match self {
            Repr::Empty => return None,
            Repr::Small(v, shallow) => {
                let i = position(v, k)?;
                (&mut small_mut(v)[i].1, shallow, |v| !is_nested(v))
            }
            Repr::Record(v, shallow) => {
                let i = key_position(v.extra(), k)?;
                (&mut record_mut(v)[i], shallow, |v| !is_nested(v))
            }
            Repr::Large(m, flat) => (large_mut(m).get_mut(k)?, flat, flat_value),
            Repr::Sorted(m) => {
                let slot = sorted_mut(m).get_mut(k)?;
                return Some(f(Value::take(slot)).map(|v| Value::fill(slot, v)));
            }
        };
        Some(f(Value::take(slot)).map(|v| {
            *known &= fits(&v);
            Value::fill(slot, v);
        }))
    }

    /// [`Map::take_value`].
    #[inline(always)]
    pub(super) fn take_value(&mut self, k: &Value) -> Option<Value> {
        match self {
            // `nil` in its place keeps a shallow map shallow.
            Repr::Small(v, _) => {
                let i = position(v, k)?;
                Some(std::mem::replace(&mut small_mut(v)[i].1, Value::Nil))
            }
            Repr::Record(v, _) => {
                let i = key_position(v.extra(), k)?;
                Some(std::mem::replace(&mut record_mut(v)[i], Value::Nil))
            }
            Repr::Large(m, _) => {
                let slot = large_mut(m).get_mut(k)?;
                Some(Value::take(slot))
            }
            _ => self.get_mut(k).map(Value::take),
        }
    }

    /// [`Map::remove`].
    #[inline(always)]
    pub(super) fn remove(&mut self, k: &Value) -> Option<Value> {
        match self {
            Repr::Empty => None,
            Repr::Record(v, _) => {
                key_position(v.extra(), k)?;
                self.unshape();
                self.remove(k)
            }
            Repr::Small(vec, _) => {
                // What is left of a shallow map is shallow.
                let i = position(vec, k)?;
                charge_copy_if_shared(vec);
                let (_, v) = vec.remove(i);
                if vec.is_empty() {
                    *self = Repr::Empty;
                }
                Some(v)
            }
            Repr::Large(m, _) => {
                let old = large_mut(m).remove(k);
                if m.len() <= SMALL / 2 {
                    let entries: Vec<_> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    *self = Map::from_distinct(entries).into_repr();
                }
                old
            }
            Repr::Sorted(m) => sorted_mut(m).remove(k),
        }
    }
}
