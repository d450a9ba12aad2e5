//! serde for [`Value`]: a value serializes as its lossless JSON form and
//! deserializes from JSON-shaped data as [`from_json`] reads it.
//!
//! **Lossless or an error.** `Serialize` writes exactly what
//! [`to_json_lossless`](super::to_json_lossless) gives: nil, booleans,
//! integers, finite floats, strings, vectors, and maps whose keys are all
//! keywords, nested freely. Deserializing that output gives an equal value.
//! Any other value (a keyword or symbol anywhere, which would read back as a
//! string; a set, which would read back as a vector; a map with a
//! non-keyword key; NaN or an infinity; a function, regex, var or infinite
//! sequence) makes serialization fail with a serde error naming the
//! offending value, its type and why. Decision: silently writing a lossy
//! form would let `:a` and `"a"` become indistinguishable in data an
//! embedder stores and reads back, which is the mistake the `*_json` fields
//! of `ptc replay --format json` exist to prevent; a tagged form would be a
//! second JSON dialect nobody else reads. The lossy conversion stays one
//! call away ([`to_json`](super::to_json)), and [`to_clojure`](crate::to_clojure)
//! prints any value as PTC-Lisp text.
//!
//! **Depth.** serde's data model nests one `serialize` call per level, so
//! serializing recurses on the value's depth. Values leaving a turn are at
//! most 1000 levels deep, and such a value serializes to text
//! (`serde_json::to_string`, `to_writer`) on a 2 MiB thread (tested, debug
//! build). Building a `serde_json::Value` through serde
//! (`serde_json::to_value`) takes far bigger frames per level: for a JSON
//! tree use [`to_json_lossless`](super::to_json_lossless) (or the lossy
//! [`to_json`](super::to_json)), which are iterative and work at any depth.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value as Json;

use super::{from_json, Value};

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) if f.is_finite() => s.serialize_f64(*f),
            Value::Str(text) => s.serialize_str(text),
            Value::Vector(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items.iter() {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    let Value::Keyword(name) = k else {
                        return Err(S::Error::custom(not_lossless(
                            k,
                            "as a map key: JSON object keys read back as keywords",
                        )));
                    };
                    map.serialize_entry(&**name, v)?;
                }
                map.end()
            }
            other => Err(S::Error::custom(not_lossless(other, why_not(other)))),
        }
    }
}

/// Why a value that is not a map key has no lossless JSON form.
fn why_not(v: &Value) -> &'static str {
    match v {
        Value::Keyword(_) | Value::Symbol(_) => "it would read back as a string",
        Value::Set(_) => "it would read back as a vector",
        Value::Float(_) => "JSON has no NaN or infinity",
        _ => "only data converts to JSON",
    }
}

fn not_lossless(v: &Value, why: &str) -> String {
    format!(
        "{} has no lossless JSON form ({why}); convert it lossily with \
         ptc_lisp::to_json or print it with ptc_lisp::to_clojure",
        v.describe()
    )
}

impl<'de> Deserialize<'de> for Value {
    /// Reads any JSON-shaped data as [`from_json`] does: objects become maps
    /// with keyword keys, arrays vectors, integers stay integers.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        Json::deserialize(d).map(|json| from_json(&json))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{to_json, to_json_lossless};
    use super::*;

    fn kw(name: &str) -> Value {
        Value::keyword(name)
    }

    #[test]
    fn data_round_trips_through_json_text() {
        let v = Value::map_from([
            (kw("name"), Value::string("ada")),
            (kw("age"), Value::Int(36)),
            (kw("ratio"), Value::Float(0.5)),
            (kw("whole"), Value::Float(3.0)),
            (
                kw("tags"),
                Value::vector_from([Value::string("x"), Value::Nil]),
            ),
            (kw("ok"), Value::Bool(true)),
            (
                kw("nested"),
                Value::map_from([(kw("ns/k"), Value::empty_vector())]),
            ),
        ]);
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(
            text,
            r#"{"name":"ada","age":36,"ratio":0.5,"whole":3.0,"tags":["x",null],"ok":true,"nested":{"ns/k":[]}}"#
        );
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert_eq!(serde_json::to_value(&v).ok(), to_json_lossless(&v));
    }

    #[test]
    fn values_without_a_lossless_form_fail_naming_the_value() {
        let cases = [
            (
                kw("a"),
                "keyword :a has no lossless JSON form (it would read back as a string)",
            ),
            (
                Value::set_from([Value::Int(1)]),
                "set #{1} has no lossless JSON form (it would read back as a vector)",
            ),
            (Value::Float(f64::NAN), "JSON has no NaN or infinity"),
            (
                Value::map_from([(Value::string("a"), Value::Int(1))]),
                "string \"a\" has no lossless JSON form (as a map key",
            ),
            (
                Value::vector_from([Value::Int(1), Value::symbol("s")]),
                "symbol s has no lossless JSON form",
            ),
        ];
        for (v, want) in cases {
            let err = serde_json::to_string(&v).unwrap_err().to_string();
            assert!(err.contains(want), "{err}");
            assert!(err.contains("ptc_lisp::to_json"), "{err}");
            assert_eq!(to_json_lossless(&v), None, "lossless disagrees on {v:?}");
        }
    }

    #[test]
    fn deserializing_reads_json_as_from_json_does() {
        let json = serde_json::json!({"a": [1, 2.5, {"b": null}], "c": "text"});
        let v: Value = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(v, from_json(&json));
        assert_eq!(to_json(&v), json);
    }

    #[test]
    fn a_value_as_deep_as_a_turn_allows_serializes_on_a_small_stack() {
        // Values leaving a turn are at most 1000 levels deep.
        let mut v = Value::Int(7);
        for _ in 0..1000 {
            v = Value::vector_from([v]);
        }
        let text = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || serde_json::to_string(&v).unwrap())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(text, format!("{}7{}", "[".repeat(1000), "]".repeat(1000)));
    }
}
