//! [`Map`]: the persistent map behind `Value::Map`. A map iterates and
//! prints in the order its keys were first added (`format.md` F-2): a new
//! key goes last, replacing the value of an existing key keeps its place,
//! removing a key removes it. `sorted-map` builds the one exception, a map
//! kept in the canonical order of its keys.
//!
//! Most maps a program meets are small records (`{:id 1 :name "x"}`): a map
//! of up to [`SMALL`] entries is an array in one reference-counted
//! allocation ([`SharedVec`]: copied on write,
//! scanned for keys: interned keywords compare by pointer); a record built
//! by a record literal (or read from a JSON array of like objects) keeps
//! only its values there, its keys in a [`Shape`] shared by its kind; and a
//! larger one
//! an [`Ordered`] map (an index of key hashes beside the entries,
//! structurally shared). Equality, order and hashing ignore the order of entries
//! (`order.rs`, `hash.rs`). The API mirrors the subset of std's maps that
//! ptc uses, so callers do not see the representations.
//!
//! A map's handle is one word (`handle.rs`, where its unsafe code is);
//! writes to storage only that handle holds are made in place there and
//! here, the others on the unpacked representation (`write.rs`: copies
//! on write and their charges, changes of representation).

mod entries;
mod handle;
mod iter;
mod ordered;
mod record;
mod write;

use std::sync::Arc;

pub use handle::Map;
use handle::{UniqueMut, View};
pub use iter::{Entry, Iter};
pub use ordered::Ordered;
use record::{is_interned, key_position, record_find, record_get};
pub(crate) use record::{scalar_keys, shape_of, Fields, Shape, RECORD_HEADER_BYTES};
use write::large_mut;

use super::depth::{is_nested, leaf_height};
use super::packed::Packed;
use super::shared_vec::SharedVec;
use super::{cost, Text, Value};

/// Largest number of entries kept as an array.
pub const SMALL: usize = 16;

type Sorted = imbl::OrdMap<Value, Value>;

/// A small map's entries.
pub(crate) type Entries = SharedVec<(Value, Value)>;

/// The address of a record's shape (`None` for other maps): records of
/// one shape share it (tests).
#[cfg(test)]
pub(crate) fn shape_addr(m: &Map) -> Option<usize> {
    match &*m.repr() {
        Repr::Record(f, _) => Some(f.extra().addr()),
        _ => None,
    }
}

/// Bytes of one `(key, value)` pair: a small map's entry, a sorted map's
/// B-tree key (`value/cost.rs`).
pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<(Value, Value)>() as u64;
/// Bytes of a `sorted-map`'s `OrdMap` handle inside its `Arc`.
pub(crate) const SORTED_BYTES: u64 = std::mem::size_of::<Sorted>() as u64;
pub(crate) use ordered::{BUCKET_BYTES, INDEX_BYTES, ORDERED_BYTES, SLOT_BYTES};

/// A map unpacked from its one-word handle (`handle.rs`).
#[derive(Clone, Default)]
pub(crate) enum Repr {
    #[default]
    Empty,
    /// Entries (never none), and whether none of them holds another value
    /// ([`Map::is_shallow_record`]). The flag lives in the handle: copies share
    /// what it describes, and each write through a handle updates it.
    Small(Entries, bool),
    /// A record: its values beside keys it shares with its kind (a small
    /// map's entries in two parts), and whether it is shallow, as `Small`.
    /// A new value for one of its keys keeps it a record, and so does the
    /// key its shape takes next ([`record::Transition`]); any other write makes it
    /// `Small`.
    Record(Fields, bool),
    /// A hash-indexed map, and whether it is flat ([`Map::is_flat`]): no
    /// key holds another value and every value is a scalar, an empty
    /// collection or a shallow record. The flag lives in the handle, as
    /// `Small`'s does.
    Large(Arc<Ordered>, bool),
    /// `sorted-map`: canonical key order, at any size (possibly empty).
    Sorted(Arc<Sorted>),
}

/// Whether `x` and `k` are the same key (of a map, or element of a set:
/// `=`), with the common cases inline:
/// integers, and keywords or strings (the same interned text first).
/// (Always inline: it is the body of every small map's key scan.)
#[inline(always)]
pub(crate) fn same_key(x: &Value, k: &Value) -> bool {
    match (x, k) {
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::Keyword(a), Value::Keyword(b)) => a == b,
        (Value::Str(a), Value::Str(b)) => Text::ptr_eq(a, b) || a.as_bytes() == b.as_bytes(),
        _ => x == k,
    }
}

/// Whether neither `k` nor `v` holds another value (`depth::is_nested`).
#[inline(always)]
fn shallow_pair(k: &Value, v: &Value) -> bool {
    !is_nested(k) && !is_nested(v)
}

/// Whether `v` may be a flat map's value ([`Map::is_flat`]): a scalar, an
/// empty collection or a shallow record — what the depth check measures
/// in place (`depth::leaf_height`).
#[inline(always)]
fn flat_value(v: &Value) -> bool {
    leaf_height(v).is_some()
}

/// Whether `(k, v)` may be a flat map's entry ([`Map::is_flat`]).
#[inline(always)]
fn flat_pair(k: &Value, v: &Value) -> bool {
    !is_nested(k) && flat_value(v)
}

/// Whether no entry holds another value.
fn shallow_entries(entries: &[(Value, Value)]) -> bool {
    entries.iter().all(|(k, v)| shallow_pair(k, v))
}

/// The position of `k` among small entries.
#[inline]
fn position(entries: &[(Value, Value)], k: &Value) -> Option<usize> {
    match k {
        // Records are looked up with the interned keyword they were built
        // with: one scan comparing pointers (`Kw`'s equality reads the
        // text only when one side is not interned), a key not there (an
        // `assoc` of a new field) included; only a keyword equals one.
        Value::Keyword(name) => entries
            .iter()
            .position(|(x, _)| matches!(x, Value::Keyword(xn) if xn == name)),
        _ => entries.iter().position(|(x, _)| same_key(x, k)),
    }
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::EMPTY
    }

    /// An empty `sorted-map`: it keeps its keys in canonical order.
    pub fn sorted() -> Map {
        Map::pack(Repr::Sorted(Arc::default()))
    }

    /// Whether this map keeps its keys sorted (`sorted-map`).
    pub fn is_sorted(&self) -> bool {
        matches!(self.view(), View::Sorted(_))
    }

    /// An empty map of the same kind (`empty` of a `sorted-map` is sorted).
    pub fn empty_like(&self) -> Map {
        if self.is_sorted() {
            Map::sorted()
        } else {
            Map::new()
        }
    }

    /// A map of one entry.
    pub fn unit(k: Value, v: Value) -> Map {
        Map::pack(Repr::unit(k, v))
    }

    /// A map of `entries` in their order, without duplicate keys (what a
    /// record literal builds); at most `SMALL` of them.
    pub fn from_distinct(entries: Vec<(Value, Value)>) -> Map {
        let shallow = shallow_entries(&entries);
        Map::from_distinct_known(entries, shallow)
    }

    /// [`Map::from_distinct`] when the caller knows whether any key or
    /// value holds another value (`shallow`: none does, as
    /// `depth::is_nested` says of each), e.g. a record literal whose keys
    /// are constants.
    pub(crate) fn from_distinct_known(entries: Vec<(Value, Value)>, shallow: bool) -> Map {
        debug_assert!(entries.len() <= SMALL);
        debug_assert_eq!(shallow, shallow_entries(&entries));
        if entries.is_empty() {
            Map::new()
        } else {
            Map::pack(Repr::Small(Entries::from_vec(entries), shallow))
        }
    }

    /// A record of `fields` (their shape's keys, in order), built in
    /// place (`compile/build.rs`); `shallow` as
    /// [`Map::from_distinct_known`].
    pub(crate) fn from_fields_known(fields: Fields, shallow: bool) -> Map {
        debug_assert!(fields.len() == fields.extra().len() && fields.len() <= SMALL);
        if fields.len() != fields.extra().len() {
            // Never so: a record holds a value for each key of its shape
            // (its reads rely on it, `record_find`).
            let keys = fields.extra().clone();
            return keys.iter().cloned().zip(fields.into_vec()).collect();
        }
        if fields.is_empty() {
            Map::new()
        } else {
            Map::pack(Repr::Record(fields, shallow))
        }
    }

    /// Whether this map is a record ([`Fields`]: its keys shared with the
    /// other records of its kind); `value/cost.rs` charges it as one.
    pub fn is_record(&self) -> bool {
        matches!(self.view(), View::Record(..))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        match self.view() {
            View::Empty => 0,
            View::Small(v, _) => v.len(),
            View::Record(v, _, _) => v.len(),
            View::Large(m, _) => m.len(),
            View::Sorted(m) => m.len(),
        }
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address of this map's storage when another value holds it too
    /// (`None` when unshared or empty): how walks over values that share
    /// parts with themselves visit each shared part once.
    pub fn shared_addr(&self) -> Option<usize> {
        match &*self.repr() {
            Repr::Empty => None,
            Repr::Small(v, _) => (v.strong_count() > 1).then(|| v.addr()),
            Repr::Record(v, _) => (v.strong_count() > 1).then(|| v.addr()),
            Repr::Large(m, _) => super::shared_addr(m),
            Repr::Sorted(m) => super::shared_addr(m),
        }
    }

    /// Whether both maps share the same storage (then they are equal).
    pub fn ptr_eq(&self, other: &Map) -> bool {
        if self.same_storage(other) {
            return true;
        }
        match (self.view(), other.view()) {
            (View::Large(a, _), View::Large(b, _)) => a.ptr_eq(b),
            (View::Sorted(a), View::Sorted(b)) => a.ptr_eq(b),
            _ => false,
        }
    }

    /// The value of key `k` (keys compare by `=`: `1` and `1.0` differ).
    pub fn get(&self, k: &Value) -> Option<&Value> {
        match self.view() {
            View::Empty => None,
            View::Small(v, _) => position(v, k).map(|i| &v[i].1),
            View::Record(v, keys, _) => record_get(v, keys, k),
            View::Large(m, _) => m.get(k),
            View::Sorted(m) => m.get(k),
        }
    }

    /// The value of a small map's key `name` when both are the same
    /// interned keyword (a record read with the keyword it was built
    /// with): one pointer scan, inline. `None` otherwise — not found here,
    /// which is not "absent": ask [`Map::get`].
    #[inline(always)]
    pub fn get_interned(&self, name: &super::Kw) -> Option<&Value> {
        match self.view() {
            View::Small(v, _) => v.iter().find(|(x, _)| is_interned(x, name)).map(|(_, v)| v),
            View::Record(v, keys, _) => record_find(v, keys, |x| is_interned(x, name)),
            _ => None,
        }
    }

    /// The value of the string key `text`, without building the key.
    pub fn get_str(&self, text: &str) -> Option<&Value> {
        self.get_named(
            |x| matches!(x, Value::Str(s) if &**s == text),
            || super::hash::str_hash(text),
            || Value::string(text),
        )
    }

    /// The value of the keyword key named `name`, without building the key.
    pub fn get_keyword(&self, name: &str) -> Option<&Value> {
        self.get_named(
            |x| matches!(x, Value::Keyword(k) if &**k == name),
            || super::hash::keyword_hash(name),
            || Value::keyword(name),
        )
    }

    /// The value of the key `is_key` finds: `hash` is the key's hash (for
    /// a large map's index), `key` the key itself (built only for a sorted
    /// map, which compares keys).
    #[inline(always)]
    fn get_named(
        &self,
        is_key: impl Fn(&Value) -> bool,
        hash: impl FnOnce() -> u64,
        key: impl FnOnce() -> Value,
    ) -> Option<&Value> {
        match self.view() {
            View::Empty => None,
            View::Small(v, _) => v.iter().find(|(x, _)| is_key(x)).map(|(_, v)| v),
            View::Record(v, keys, _) => record_find(v, keys, is_key),
            View::Large(m, _) => m.get_by(hash(), is_key),
            View::Sorted(m) => m.get(&key()),
        }
    }

    /// The stored key equal to `k` and its value.
    pub fn get_key_value(&self, k: &Value) -> Option<(&Value, &Value)> {
        match self.view() {
            View::Empty => None,
            View::Small(v, _) => position(v, k).map(|i| (&v[i].0, &v[i].1)),
            View::Record(v, keys, _) => key_position(keys, k).map(|i| (&keys[i], &v[i])),
            View::Large(m, _) => m.get_key_value(k),
            View::Sorted(m) => m.get_key_value(k),
        }
    }

    /// Whether key `k` is present.
    pub fn contains_key(&self, k: &Value) -> bool {
        self.get(k).is_some()
    }

    /// Room for `additional` more keys in a large map, made before they
    /// are added one by one (`Ordered::reserve`); other maps grow as
    /// they are written.
    pub fn reserve(&mut self, additional: usize) {
        if let View::Large(..) = self.view() {
            if let Repr::Large(m, _) = &mut *self.repr_mut() {
                large_mut(m).reserve(additional);
            }
        }
    }

    /// Inserts or replaces; returns the previous value. A new key goes
    /// last (in a sorted map, in its place); an existing key keeps its
    /// place.
    pub fn insert(&mut self, k: Value, v: Value) -> Option<Value> {
        // In place when only this map holds its storage and the write
        // keeps its kind: a new value for a key of a small map or record,
        // any key of a large map.
        match self.unique_mut() {
            Some(UniqueMut::Large(m)) => {
                let keeps = flat_pair(&k, &v);
                let old = m.insert(k, v);
                if !keeps {
                    self.clear_flag();
                }
                return old;
            }
            Some(parts) => {
                let fits = parts.fits();
                let Some(slot) = parts.slot(&k) else {
                    self.repr_mut().insert_new(k, v);
                    return None;
                };
                let keeps = fits(&v);
                let old = std::mem::replace(slot, v);
                if !keeps {
                    self.clear_flag();
                }
                return Some(old);
            }
            None => {}
        }
        self.repr_mut().insert(k, v)
    }

    /// The value at `k`, to change in place (a shared map is copied first,
    /// as `insert` would).
    pub fn get_mut(&mut self, k: &Value) -> Option<&mut Value> {
        // Unique small maps and records (what a nested update walks): in
        // place, without unpacking the handle.
        if let Some(parts) = self.unique_mut() {
            let slot: *mut Value = parts.slot(k)?;
            // The caller may put anything there.
            self.clear_flag();
            // SAFETY: the slot is in storage only this map holds, which
            // `clear_flag` (a write to the handle) leaves alone.
            return Some(unsafe { &mut *slot });
        }
        let slot: *mut Value = self.repr_mut().get_mut(k)?;
        // SAFETY: the slot is in the map's storage, which the guard's drop
        // packed back into the handle without moving it, and which lives
        // unchanged while the map is borrowed.
        Some(unsafe { &mut *slot })
    }

    /// The value at `k` replaced by what `f` makes of it, in place (a
    /// shared map is copied first, as `insert` would); `None` when `k` is
    /// absent. Unlike [`Map::get_mut`] the map still knows what it holds
    /// ([`Map::is_shallow_record`], [`Map::is_flat`]). When `f` fails,
    /// `nil` is left under the key.
    pub fn update_value<E>(
        &mut self,
        k: &Value,
        f: impl FnOnce(Value) -> std::result::Result<Value, E>,
    ) -> Option<std::result::Result<(), E>> {
        if let Some(parts) = self.unique_mut() {
            // In place, as `get_mut`; the flag kept right after.
            let fits = parts.fits();
            let slot: *mut Value = parts.slot(k)?;
            // SAFETY: the slot is in storage only this map holds, which
            // `f` cannot reach (this map is borrowed) and `clear_flag` (a
            // write to the handle) leaves alone.
            let slot = unsafe { &mut *slot };
            return Some(f(Value::take(slot)).map(|v| {
                if !fits(&v) {
                    self.clear_flag();
                }
                Value::fill(slot, v);
            }));
        }
        self.repr_mut().update_value(k, f)
    }

    /// Takes the value at `k` out, leaving `nil` under the key: a value
    /// held only by this (unshared) map is then held by the caller alone,
    /// who can update it in place and put it back with
    /// [`Map::insert`]. A shared map is copied first, as `insert` would.
    pub fn take_value(&mut self, k: &Value) -> Option<Value> {
        // `nil` in its place keeps the flag right.
        match self.unique_mut() {
            Some(parts) => Some(std::mem::replace(parts.slot(k)?, Value::Nil)),
            None => self.repr_mut().take_value(k),
        }
    }

    /// Removes a key; returns its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        self.repr_mut().remove(k)
    }

    /// The value at `k`, inserting `f()` first if there is none.
    pub fn get_or_insert_with(&mut self, k: Value, f: impl FnOnce() -> Value) -> &mut Value {
        if !self.contains_key(&k) {
            self.insert(k.clone(), f());
        }
        match self.get_mut(&k) {
            Some(v) => v,
            None => unreachable!("a key was just inserted"),
        }
    }

    /// `entry(k).or_insert(v)` / `.or_insert_with(f)`, as on std maps.
    pub fn entry(&mut self, k: Value) -> Entry<'_> {
        Entry { map: self, key: k }
    }

    /// Calls `f` on each key and each value of a map of at most [`SMALL`]
    /// entries (keys and values in no particular order) that may hold
    /// another value, for the depth check's walk: every part, but a
    /// record's keys when its shape says none of them holds anything.
    /// `false` (nothing visited) for a large or sorted map.
    #[inline]
    pub fn for_each_small_part<'a>(&'a self, mut f: impl FnMut(&'a Value)) -> bool {
        match self.view() {
            View::Empty => true,
            View::Small(v, _) => {
                for (k, x) in v {
                    f(k);
                    f(x);
                }
                true
            }
            View::Record(v, shape, _) => {
                if !scalar_keys(shape) {
                    shape.iter().for_each(&mut f);
                }
                v.iter().for_each(f);
                true
            }
            View::Large(..) | View::Sorted(_) => false,
        }
    }

    /// Whether this is a non-empty small map none of whose keys and values
    /// holds another value (each is a scalar or an empty collection): a
    /// record of scalars, two levels deep. Exact for maps built from such
    /// entries and changed by `insert`, `remove` and `take_value`; `false`
    /// (measure it) after `get_mut`, and for empty, large and sorted maps.
    /// The depth check of values leaving a turn (`depth.rs`) reads it
    /// instead of scanning every record.
    #[inline]
    pub fn is_shallow_record(&self) -> bool {
        matches!(self.view(), View::Small(_, true) | View::Record(_, _, true))
    }

    /// Whether this is a large (hash-indexed) map whose keys hold nothing
    /// and whose values are scalars, empty collections or shallow records
    /// ([`Map::is_shallow_record`]): at most three levels deep. Exact for
    /// maps grown from such entries by `insert` and changed by `remove`,
    /// `take_value` and `update_value` (an upper bound after a record
    /// value is replaced by a scalar); `false` (measure it) after
    /// `get_mut`. The depth check (`depth.rs`) reads it instead of scanning
    /// every entry of a big lookup table.
    #[inline]
    pub fn is_flat(&self) -> bool {
        matches!(self.view(), View::Large(_, true))
    }

    /// The entries in order (insertion order; key order for a sorted map).
    pub fn iter(&self) -> Iter<'_> {
        match self.view() {
            View::Empty => Iter::Small([].iter()),
            View::Small(v, _) => Iter::Small(v.iter()),
            View::Record(v, keys, _) => Iter::Record(keys, v),
            View::Large(m, _) => Iter::Large(m.iter()),
            View::Sorted(m) => Iter::Sorted(m.iter()),
        }
    }

    /// The keys, in the map's order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Value> {
        self.iter().map(|(k, _)| k)
    }

    /// The values, in the map's order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> {
        self.iter().map(|(_, v)| v)
    }

    /// Both maps' entries; on equal keys `self`'s value wins, and `other`'s
    /// new keys follow `self`'s in their order.
    pub fn union(mut self, other: Map) -> Map {
        for (k, v) in other {
            if !self.contains_key(&k) {
                self.insert(k, v);
            }
        }
        self
    }
}

impl<'a> UniqueMut<'a> {
    /// What a value written in place must be for the map's flag to stay
    /// on: holding nothing (small maps and records: shallow), or a flat
    /// map's value (large maps, [`Map::is_flat`]).
    #[inline(always)]
    fn fits(&self) -> fn(&Value) -> bool {
        match self {
            UniqueMut::Large(_) => flat_value,
            _ => |v| !is_nested(v),
        }
    }

    /// The slot of key `k`, when the map has it.
    #[inline(always)]
    fn slot(self, k: &Value) -> Option<&'a mut Value> {
        match self {
            UniqueMut::Small(v) => Some(&mut v[position(v, k)?].1),
            UniqueMut::Record(v, keys) => Some(&mut v[key_position(keys, k)?]),
            UniqueMut::Large(m) => m.get_mut(k),
        }
    }
}

#[cfg(test)]
mod tests;
