//! Records: maps built by a record literal (or read from a JSON array of
//! like objects) that keep only their values ([`Fields`]) beside a
//! [`Shape`] — their keys — shared by their kind, and the shape records
//! of it take when given one more key ([`Transition`]).

use super::{cost, same_key, Entries, SMALL};
use crate::value::depth::is_nested;
use crate::value::shared_vec::SharedVec;
use crate::value::Value;

/// A record's keys: distinct, at most [`SMALL`], never none; shared by
/// every record built with them (one per record literal in the code), and
/// the shape records of it take when one more key is added to them
/// ([`Transition`]).
pub(crate) type Shape = SharedVec<Value, Transition>;

/// What a shape keeps beside its keys: the shape with one more key that
/// records of it took when that key was added (`(assoc row :total t)` over
/// many rows gives every row the same new shape; the first key added to
/// records of a shape is kept, records given another one become small
/// maps), and whether none of its keys holds another value (keywords,
/// strings: the depth check then reads only a record's values).
#[derive(Default)]
pub(crate) struct Transition {
    next: std::sync::OnceLock<(Value, Shape)>,
    scalar_keys: bool,
}

impl Clone for Transition {
    /// Never in fact: a shape is not written after it is made, so not
    /// copied; a copy would start without a transition (and measure its
    /// keys).
    fn clone(&self) -> Transition {
        Transition::default()
    }
}

/// Whether none of `shape`'s keys holds another value.
pub(crate) fn scalar_keys(shape: &Shape) -> bool {
    shape.extra().scalar_keys
}

/// A shape of `keys` (distinct, at most [`SMALL`]).
pub(crate) fn shape_of(keys: Vec<Value>) -> Shape {
    let scalar_keys = !keys.iter().any(is_nested);
    Shape::from_vec_and(
        keys,
        Transition {
            next: std::sync::OnceLock::new(),
            scalar_keys,
        },
    )
}

/// The shape of `shape`'s keys and `k` (a key it does not have), when
/// records of `shape` were not given another key first.
pub(super) fn shape_with(shape: &Shape, k: &Value) -> Option<Shape> {
    if shape.len() >= SMALL {
        return None;
    }
    let (key, next) = shape.extra().next.get_or_init(|| {
        let mut keys = shape.to_vec();
        keys.push(k.clone());
        (k.clone(), shape_of(keys))
    });
    same_key(key, k).then(|| next.clone())
}

/// A record's values, in its shape's key order, the shape in the header:
/// 16 bytes an entry where a small map's are 32 (`{:id 1 :name "x"}`
/// built a hundred thousand times keeps its keys once).
pub(crate) type Fields = SharedVec<Value, Shape>;

/// Bytes of a record's header (the counts and its shape's pointer).
pub(crate) const RECORD_HEADER_BYTES: u64 =
    crate::value::shared_vec::HEADER_BYTES + std::mem::size_of::<Shape>() as u64;

/// A record's values to change: copied first when shared, the copy
/// charged (`value/cost.rs`).
pub(super) fn record_mut(fields: &mut Fields) -> &mut [Value] {
    if !fields.is_unique() {
        crate::eval::budget::charge_heap(cost::record_bytes(fields.len()));
    }
    fields.make_mut()
}

/// A record's entries as a small map's: moved when unshared; the new
/// array charged as a copy.
#[cold]
pub(super) fn record_entries(fields: Fields) -> Entries {
    let n = fields.len();
    crate::eval::budget::charge_heap(cost::map_bytes(n));
    let mut entries = Entries::with_capacity(n + 1);
    let keys = fields.extra().clone();
    let mut keys = keys.iter();
    fields.for_each_owned(|v| {
        if let Some(k) = keys.next() {
            entries.push((k.clone(), v));
        }
    });
    entries
}

/// Whether key `x` is the same interned keyword as `name` (one pointer
/// comparison).
#[inline(always)]
pub(super) fn is_interned(x: &Value, name: &crate::value::Kw) -> bool {
    matches!(x, Value::Keyword(xn) if xn.same_interned(name))
}

/// The value of the first of a record's keys that `is` (`v` its values,
/// `keys` its shape's keys).
#[inline(always)]
pub(super) fn record_find<'a>(
    v: &'a [Value],
    keys: &[Value],
    is: impl Fn(&Value) -> bool,
) -> Option<&'a Value> {
    for (i, x) in v.iter().enumerate() {
        // SAFETY: a record's shape has a key for each of its values
        // (`Map::from_fields_known` makes no record otherwise; a write
        // that adds a value gives the record the shape with one more key,
        // `push_with_extra` in `Map::insert`, and none removes one).
        if is(unsafe { keys.get_unchecked(i) }) {
            return Some(x);
        }
    }
    None
}

/// The value of key `k` in a record (as [`position`](super::position) finds it).
#[inline(always)]
pub(super) fn record_get<'a>(v: &'a [Value], keys: &[Value], k: &Value) -> Option<&'a Value> {
    match k {
        Value::Keyword(name) => {
            record_find(v, keys, |x| matches!(x, Value::Keyword(xn) if xn == name))
        }
        _ => record_find(v, keys, |x| same_key(x, k)),
    }
}

/// The position of `k` among a record's keys (as [`position`](super::position)).
#[inline]
pub(super) fn key_position(keys: &[Value], k: &Value) -> Option<usize> {
    match k {
        Value::Keyword(name) => keys
            .iter()
            .position(|x| matches!(x, Value::Keyword(xn) if xn == name)),
        _ => keys.iter().position(|x| same_key(x, k)),
    }
}
