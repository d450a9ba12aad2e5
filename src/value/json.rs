//! JSON ⇄ value conversion (`session.md`): objects become maps with keyword
//! keys, arrays vectors, integers stay integers, other numbers are floats.
//! The reverse direction writes keywords as strings (without the colon), sets
//! as arrays, and functions and other non-data values as their printed form.

use serde_json::{Map as JsonMap, Number, Value as Json};

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
        Json::Array(items) => Value::vector_from(items.iter().map(from_json)),
        Json::Object(obj) => {
            let mut m = Map::new();
            for (k, v) in obj {
                m.insert(Value::keyword_interned(k), from_json(v));
            }
            Value::Map(m)
        }
    }
}

/// Converts a value to JSON for tools and machine-readable output.
pub fn to_json(value: &Value) -> Json {
    match value {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number((*i).into()),
        Value::Float(f) => Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => Json::String(s.to_string()),
        Value::Vector(v) => Json::Array(v.iter().map(to_json).collect()),
        Value::Set(s) => Json::Array(s.iter().map(to_json).collect()),
        Value::Map(m) => {
            let mut obj = JsonMap::new();
            for (k, v) in m.iter() {
                let key = match k {
                    Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => s.to_string(),
                    other => crate::format::to_clojure(other, None, None).0,
                };
                obj.insert(key, to_json(v));
            }
            Json::Object(obj)
        }
        Value::Reduced(v) => to_json(v),
        other => Json::String(crate::format::to_clojure(other, None, None).0),
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
