//! JSON text straight to a value, bounded: for text another process sent
//! (an MCP tool's result), parsed without a `serde_json::Value` tree in
//! between (which takes up to ~40 times the text), with the same values
//! [`from_json`](super::from_json) gives (objects → maps with keyword keys,
//! rows of the same keys → records sharing a shape), and three bounds:
//!
//! * the approximate heap bytes of what is built (HEAP-COST-1's costs,
//!   summed as it is built): past [`Bounds::max_bytes`] the parse stops;
//! * a deadline, read every [`CLOCK_EVERY`] values;
//! * serde_json's nesting limit (128 levels).
//!
//! Every string and object key goes through [`Bounds::text`] (redaction of
//! secrets) before it is kept.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::time::Instant;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::super::depth::is_nested;
use super::super::map::{self, Shape};
use super::super::{cost, Map, Value};

/// Values built between two reads of the clock.
pub const CLOCK_EVERY: u64 = 4096;

/// Why a bounded parse stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// What was built passed `max_bytes`.
    TooBig,
}

/// The bounds of one parse, and what it used.
pub struct Bounds<'a> {
    /// Stop once the clock passes this.
    pub deadline: Option<Instant>,
    /// Stop once what is built passes this many bytes (HEAP-COST-1).
    pub max_bytes: u64,
    /// Applied to every string and key before it is kept.
    pub text: &'a dyn Fn(&str) -> Cow<'_, str>,
    used: Cell<u64>,
    values: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

impl<'a> Bounds<'a> {
    /// Bounds with nothing used yet.
    pub fn new(
        deadline: Option<Instant>,
        max_bytes: u64,
        text: &'a dyn Fn(&str) -> Cow<'_, str>,
    ) -> Bounds<'a> {
        Bounds {
            deadline,
            max_bytes,
            text,
            used: Cell::new(0),
            values: Cell::new(0),
            stop: Cell::new(None),
        }
    }

    /// The approximate bytes built so far.
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// Why the parse stopped, when a bound stopped it.
    pub fn stopped(&self) -> Option<Stop> {
        self.stop.get()
    }

    /// Charges `bytes` and one value; an error once a bound is passed.
    pub fn charge<E: de::Error>(&self, bytes: u64) -> Result<(), E> {
        let used = self.used.get().saturating_add(bytes);
        self.used.set(used);
        if used > self.max_bytes {
            self.stop.set(Some(Stop::TooBig));
            return Err(E::custom("the value is too large"));
        }
        let n = self.values.get() + 1;
        self.values.set(n);
        if n.is_multiple_of(CLOCK_EVERY) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.set(Some(Stop::Deadline));
            return Err(E::custom("the deadline passed"));
        }
        Ok(())
    }

    fn string<E: de::Error>(&self, s: &str) -> Result<Value, E> {
        self.charge(cost::string_bytes(s.len()))?;
        Ok(match (self.text)(s) {
            Cow::Borrowed(b) => Value::string(b),
            Cow::Owned(o) => Value::string(o.as_str()),
        })
    }
}

/// `f` as [`Bounds::text`] takes it (a closure's lifetimes inferred for
/// every input).
pub fn text_fn<F>(f: F) -> F
where
    F: for<'x> Fn(&'x str) -> Cow<'x, str>,
{
    f
}

/// Parses JSON `text` into a value within `bounds`. The error is serde's
/// (a syntax error, or a bound's: see [`Bounds::stopped`]).
pub fn parse(text: &str, bounds: &Bounds<'_>) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = ValueSeed { bounds, last: None }.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Deserializes one value within its bounds (e.g. a field of a larger
/// document read with serde).
pub struct ValueSeed<'b, 'a> {
    /// The parse's bounds.
    pub bounds: &'b Bounds<'a>,
    /// The shape of the last record built among an array's items.
    last: Option<&'b mut Option<Shape>>,
}

impl<'b, 'a> ValueSeed<'b, 'a> {
    /// A seed for one value.
    pub fn new(bounds: &'b Bounds<'a>) -> ValueSeed<'b, 'a> {
        ValueSeed { bounds, last: None }
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        self.bounds.charge(0)?;
        Ok(Value::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Value, E> {
        self.bounds.charge(0)?;
        Ok(Value::Int(i))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        self.bounds.charge(0)?;
        Ok(match i64::try_from(u) {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Float(u as f64),
        })
    }
    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        self.bounds.charge(0)?;
        Ok(Value::Float(f))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        self.bounds.string(s)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.bounds.charge(0)?;
        Ok(Value::Nil)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let bounds = self.bounds;
        let mut items = Vec::new();
        let mut last: Option<Shape> = None;
        loop {
            bounds.charge(cost::VALUE)?;
            let seed = ValueSeed {
                bounds,
                last: Some(&mut last),
            };
            match seq.next_element_seed(seed)? {
                Some(v) => items.push(v),
                None => break,
            }
        }
        bounds.charge(cost::vector_bytes(items.len()))?;
        Ok(Value::vector_from(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let bounds = self.bounds;
        let mut keys: Vec<String> = Vec::new();
        let mut values: Vec<Value> = Vec::new();
        while let Some(k) = access.next_key::<Cow<'de, str>>()? {
            bounds.charge(cost::entry_bytes() + k.len() as u64)?;
            keys.push((bounds.text)(&k).into_owned());
            values.push(access.next_value_seed(ValueSeed::new(bounds))?);
        }
        match self.last {
            Some(last) if !keys.is_empty() && keys.len() <= map::SMALL => {
                Ok(record(keys, values, last))
            }
            _ => {
                let mut m = Map::new();
                for (k, v) in keys.iter().zip(values) {
                    m.insert(Value::keyword_interned(k), v);
                }
                Ok(Value::Map(m))
            }
        }
    }
}

/// An object of at most `map::SMALL` keys as a record, as `from_json`'s
/// `record_from_json` makes it (of the shape `last` when the keys are the
/// same, in order; duplicate keys: the last value, as a map).
fn record(keys: Vec<String>, values: Vec<Value>, last: &mut Option<Shape>) -> Value {
    let distinct = keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k));
    if !distinct {
        let mut m = Map::new();
        for (k, v) in keys.iter().zip(values) {
            m.insert(Value::keyword_interned(k), v);
        }
        return Value::Map(m);
    }
    let same_keys = |shape: &Shape| {
        shape.len() == keys.len()
            && shape
                .iter()
                .zip(&keys)
                .all(|(k, name)| matches!(k, Value::Keyword(kw) if &**kw == name.as_str()))
    };
    let shape = match last {
        Some(shape) if same_keys(shape) => shape.clone(),
        _ => {
            let shape = map::shape_of(keys.iter().map(|k| Value::keyword_interned(k)).collect());
            *last = Some(shape.clone());
            shape
        }
    };
    let mut fields = map::Fields::with_capacity_and(keys.len(), shape);
    let mut shallow = true;
    for v in values {
        shallow &= !is_nested(&v);
        fields.push(v);
    }
    Value::Map(Map::from_fields_known(fields, shallow))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::json::from_json;

    fn plain(s: &str) -> Cow<'_, str> {
        Cow::Borrowed(s)
    }

    #[test]
    fn the_same_values_as_from_json() {
        for text in [
            r#"{"a": [1, 2.5, "x", null, true], "b": {"c": []}}"#,
            r#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"x": 1}, 3]"#,
            r#"18446744073709551615"#,
            r#"[[{"k": {"deep": [1]}}]]"#,
        ] {
            let b = Bounds::new(None, u64::MAX, &plain);
            let ours = parse(text, &b).unwrap();
            let theirs = from_json(&serde_json::from_str(text).unwrap());
            assert_eq!(ours, theirs, "{text}");
            assert_eq!(
                crate::format::to_clojure(&ours, None, None).0,
                crate::format::to_clojure(&theirs, None, None).0
            );
        }
    }

    #[test]
    fn stops_past_its_bytes_and_redacts() {
        let text = format!("[{}1]", "1,".repeat(100_000));
        let b = Bounds::new(None, 10_000, &plain);
        assert!(parse(&text, &b).is_err());
        assert_eq!(b.stopped(), Some(Stop::TooBig));
        assert!(b.used() < 20_000);
        let hide = text_fn(|s| Cow::Owned(s.replace("sekret", "***")));
        let b = Bounds::new(None, u64::MAX, &hide);
        let v = parse(r#"{"sekret": "a sekret"}"#, &b).unwrap();
        assert_eq!(
            crate::format::to_clojure(&v, None, None).0,
            "{:*** \"a ***\"}"
        );
    }

    #[test]
    fn stops_at_its_deadline() {
        let text = format!("[{}1]", "1,".repeat(100_000));
        let b = Bounds::new(Some(Instant::now()), u64::MAX, &plain);
        assert!(parse(&text, &b).is_err());
        assert_eq!(b.stopped(), Some(Stop::Deadline));
    }
}
