//! JSON ⇄ value conversion (`session.md`): objects become maps with keyword
//! keys, arrays vectors, integers stay integers, other numbers are floats.
//! The reverse direction writes keywords as strings (without the colon), sets
//! as arrays, and functions and other non-data values as their printed form.

#[cfg(feature = "mcp")]
pub(crate) mod bounded;

use serde_json::{Map as JsonMap, Number, Value as Json};

use super::depth::is_nested;
use super::map::{self, Shape};
use super::{Map, Value};

/// Converts a JSON value; object keys become keywords.
pub fn from_json(json: &Json) -> Value {
    match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => {
            // Objects of the same keys in the same order (the rows of a
            // table) become records sharing one shape (`map::Shape`).
            let mut last: Option<Shape> = None;
            Value::vector_from(items.iter().map(|item| match item {
                Json::Object(obj) if !obj.is_empty() && obj.len() <= map::SMALL => {
                    record_from_json(obj, &mut last)
                }
                _ => from_json(item),
            }))
        }
        Json::Object(obj) => {
            let mut m = Map::new();
            for (k, v) in obj {
                m.insert(Value::keyword_interned(k), from_json(v));
            }
            Value::Map(m)
        }
    }
}

/// An object of at most `map::SMALL` keys as a record: of the shape `last`
/// when it has the same keys in the same order, else of a new one (kept in
/// `last` for the next object).
fn record_from_json(obj: &JsonMap<String, Json>, last: &mut Option<Shape>) -> Value {
    let same_keys = |shape: &Shape| {
        shape.len() == obj.len()
            && shape
                .iter()
                .zip(obj.keys())
                .all(|(k, name)| matches!(k, Value::Keyword(kw) if &**kw == name.as_str()))
    };
    let shape = match last {
        Some(shape) if same_keys(shape) => shape.clone(),
        _ => {
            let shape = map::shape_of(obj.keys().map(|k| Value::keyword_interned(k)).collect());
            *last = Some(shape.clone());
            shape
        }
    };
    let mut fields = map::Fields::with_capacity_and(obj.len(), shape);
    let mut shallow = true;
    for v in obj.values() {
        let v = from_json(v);
        shallow &= !is_nested(&v);
        fields.push(v);
    }
    Value::Map(Map::from_fields_known(fields, shallow))
}

/// Converts a value to JSON for tools and machine-readable output.
///
/// Iterative (an explicit stack of open collections on the heap), so a
/// host can convert any value that left a turn on a small thread.
///
/// Shared parts are expanded in full, and a JSON tree takes tens of bytes
/// per item where the printed text takes two: a value that left a turn
/// prints to at most four times the heap limit, but its tree can be many
/// times that. Convert values whose size you do not control with
/// [`to_json_within`].
pub fn to_json(value: &Value) -> Json {
    let mut open: Vec<Open> = Vec::new();
    let mut current = value;
    loop {
        let mut done = match start(current, &mut open) {
            Started::Done(json) => json,
            Started::Opened(first) => {
                current = first;
                continue;
            }
        };
        // Hand the finished value to the collection it belongs to, closing
        // every collection it completes.
        loop {
            let Some(top) = open.last_mut() else {
                return done;
            };
            match top.add(done) {
                Some(next) => {
                    current = next;
                    break;
                }
                None => {
                    let Some(closed) = open.pop() else {
                        unreachable!("a collection was just on the stack")
                    };
                    done = closed.finish();
                }
            }
        }
    }
}

/// A collection being converted by [`to_json`].
enum Open<'a> {
    Array(Box<dyn Iterator<Item = &'a Value> + 'a>, Vec<Json>),
    Object(crate::value::map::Iter<'a>, JsonMap<String, Json>, String),
}

enum Started<'a> {
    Done(Json),
    /// A collection was opened; its first item is to be converted next.
    Opened(&'a Value),
}

/// Converts a scalar, or opens a non-empty collection on `open`.
fn start<'a>(mut v: &'a Value, open: &mut Vec<Open<'a>>) -> Started<'a> {
    while let Value::Reduced(inner) = v {
        v = inner;
    }
    let json = match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number((*i).into()),
        Value::Float(f) => Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Str(s) | Value::Symbol(s) => Json::String(s.to_string()),
        Value::Keyword(s) => Json::String(s.to_string()),
        Value::Vector(items) => return open_array(Box::new(items.iter()), items.len(), open),
        Value::Set(items) => return open_array(Box::new(items.iter()), items.len(), open),
        Value::Map(m) => {
            let mut entries = m.iter();
            let Some((k, first)) = entries.next() else {
                return Started::Done(Json::Object(JsonMap::new()));
            };
            open.push(Open::Object(entries, JsonMap::new(), key_text(k)));
            return Started::Opened(first);
        }
        other => Json::String(crate::format::to_clojure(other, None, None).0),
    };
    Started::Done(json)
}

fn open_array<'a>(
    mut items: Box<dyn Iterator<Item = &'a Value> + 'a>,
    len: usize,
    open: &mut Vec<Open<'a>>,
) -> Started<'a> {
    match items.next() {
        None => Started::Done(Json::Array(Vec::new())),
        Some(first) => {
            open.push(Open::Array(items, Vec::with_capacity(len)));
            Started::Opened(first)
        }
    }
}

/// A map key as a JSON object key: strings, keywords and symbols by their
/// text, anything else printed.
fn key_text(k: &Value) -> String {
    match k {
        Value::Str(s) | Value::Symbol(s) => s.to_string(),
        Value::Keyword(s) => s.to_string(),
        other => crate::format::to_clojure(other, None, None).0,
    }
}

impl<'a> Open<'a> {
    /// Adds a finished item; returns the next item to convert, if any.
    fn add(&mut self, json: Json) -> Option<&'a Value> {
        match self {
            Open::Array(items, out) => {
                out.push(json);
                items.next()
            }
            Open::Object(entries, obj, key) => {
                obj.insert(std::mem::take(key), json);
                let (k, v) = entries.next()?;
                *key = key_text(k);
                Some(v)
            }
        }
    }

    fn finish(self) -> Json {
        match self {
            Open::Array(_, out) => Json::Array(out),
            Open::Object(_, obj, _) => Json::Object(obj),
        }
    }
}

/// The JSON of `value` when it converts losslessly: reading it back with
/// [`from_json`] gives an equal value (so maps need keyword keys, and
/// strings, numbers, booleans, nil, vectors and such maps nest freely);
/// `None` for keywords, symbols, sets, string-keyed maps, functions…
pub fn to_json_lossless(value: &Value) -> Option<Json> {
    let json = to_json(value);
    (from_json(&json) == *value).then_some(json)
}

/// [`to_json`], or `None` when `value` prints to more than `max_bytes`
/// (measured first, each shared part once, so refusing costs no more than
/// the value's size in memory): the JSON tree is then bounded by a small
/// multiple of `max_bytes`. `ptc replay --format json` gives the `_json`
/// forms of values printing to at most 1 MiB.
pub fn to_json_within(value: &Value, max_bytes: usize) -> Option<Json> {
    crate::format::printed_len_within(value, max_bytes).map(|_| to_json(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_get_keyword_keys_and_numbers_keep_their_kind() {
        let json: Json = serde_json::from_str(r#"{"a": [1, 2.5, null, "x"]}"#).unwrap();
        let v = from_json(&json);
        let items = v
            .as_map()
            .unwrap()
            .get(&Value::keyword("a"))
            .unwrap()
            .clone();
        assert_eq!(
            items,
            Value::vector_from([
                Value::Int(1),
                Value::Float(2.5),
                Value::Nil,
                Value::string("x")
            ])
        );
        assert_eq!(to_json(&v), json);
        assert_eq!(to_json_lossless(&v), Some(json));
    }

    #[test]
    fn rows_of_the_same_keys_share_one_shape_and_read_as_maps() {
        let json: Json = serde_json::from_str(
            r#"[{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}, {"tags": [], "id": 3}, {}]"#,
        )
        .unwrap();
        let v = from_json(&json);
        let Value::Vector(rows) = &v else {
            panic!("a vector")
        };
        let maps: Vec<&Map> = rows.iter().map(|r| r.as_map().unwrap()).collect();
        assert!(maps[..3].iter().all(|m| m.is_record()) && !maps[3].is_record());
        let shape = |m: &Map| crate::value::map::shape_addr(m);
        // The first two share a shape; the third's keys come in another order.
        assert_eq!(shape(maps[0]), shape(maps[1]));
        assert_ne!(shape(maps[1]), shape(maps[2]));
        assert!(maps[2]
            .keys()
            .cloned()
            .eq([Value::keyword("tags"), Value::keyword("id")]));
        assert_eq!(maps[1].get(&Value::keyword("id")), Some(&Value::Int(2)));
        // The depth check's flag: a record holding a vector is not shallow.
        assert!(!maps[0].is_shallow_record());
        assert_eq!(to_json(&v), json);
    }

    #[test]
    fn only_values_that_read_back_equal_are_lossless() {
        assert_eq!(to_json_lossless(&Value::Int(3)), Some(Json::from(3)));
        assert_eq!(to_json_lossless(&Value::Float(3.0)), Some(Json::from(3.0)));
        assert_eq!(to_json_lossless(&Value::keyword("a")), None);
        assert_eq!(to_json_lossless(&Value::set_from([Value::Int(1)])), None);
        let string_keys = Value::map_from([(Value::string("a"), Value::Int(1))]);
        assert_eq!(to_json_lossless(&string_keys), None);
        let nested = Value::vector_from([Value::Nil, Value::keyword("k")]);
        assert_eq!(to_json_lossless(&nested), None);
    }
}
