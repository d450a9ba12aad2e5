//! An MCP `tools/call` answer as a PTC-Lisp value (rule MCP-5):
//!
//! * `isError: true` → the tool's error: its text items joined by newlines,
//!   cut at [`MAX_ERROR_CHARS`] characters;
//! * `structuredContent` → that value (JSON objects → maps with keyword
//!   keys, as `data/` values are);
//! * else one text item → its text parsed as JSON when it is JSON, else the
//!   text; several items → a vector of them (text items as strings);
//!   no items → `nil`;
//! * an image or audio item → `{:type "image", :mime-type "image/png",
//!   :size BYTES}`, an embedded resource → `{:type "resource", :uri …,
//!   :mime-type …, :size …}`, a resource link → `{:type "resource_link",
//!   :uri …, :name …, :mime-type …}`: never the bytes (their fields at most
//!   [`MAX_FIELD_CHARS`] characters);
//! * a JSON-RPC error → the tool's error, "refused", its message cut the
//!   same way.
//!
//! The answer arrives as the bytes the server sent (`wire.rs`: at most
//! [`MAX_RESULT_BYTES`] and its envelope; longer is an error saying so) and
//! is read straight into values (`value::json::bounded`), never into a JSON
//! tree: within the call's deadline (past it the turn ends in `timeout`)
//! and the turn's heap room (past it, an error saying so); every string
//! and key is redacted of the server's secrets (MCP-2) before it is kept.

use std::borrow::Cow;
use std::fmt;
use std::time::Instant;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::json;

use super::redact::Redactor;
use crate::value::json::bounded::{self, Bounds, Stop, ValueSeed};
use crate::value::json::from_json;
use crate::value::Value;

/// Longest error text kept from a server, in characters.
pub const MAX_ERROR_CHARS: usize = 2000;

/// Largest result (as JSON) turned into a value.
pub const MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;

/// Longest `uri`, `name` or `mimeType` kept of a non-text item.
pub const MAX_FIELD_CHARS: usize = 500;

/// What bounds the reading of one answer.
pub struct Within<'a> {
    /// The call's deadline.
    pub deadline: Option<Instant>,
    /// The turn's heap room, in HEAP-COST-1 bytes (`None`: no limit).
    pub room: Option<u64>,
    /// The server's secrets.
    pub redact: &'a Redactor,
}

/// Why an answer gave no value.
#[derive(Debug, PartialEq)]
pub enum Failed {
    /// The tool's error (`isError`), redacted and cut.
    Tool(String),
    /// A JSON-RPC error: its message, redacted and cut.
    Refused(String),
    /// The answer is not a `tools/call` result: what is wrong with it.
    Malformed(String),
    /// Reading it passed the deadline.
    Deadline,
    /// What it holds passes the heap room (the bytes read so far).
    TooBig(u64),
}

/// The value of a `tools/call` answer (the whole JSON-RPC message, as
/// read).
pub fn decode(answer: &[u8], within: &Within<'_>) -> Result<Value, Failed> {
    let redact = bounded::text_fn(|s| within.redact.text(s));
    let bounds = Bounds::new(within.deadline, within.room.unwrap_or(u64::MAX), &redact);
    let stopped = |e: serde_json::Error, bounds: &Bounds<'_>| match bounds.stopped() {
        Some(Stop::Deadline) => Failed::Deadline,
        Some(Stop::TooBig) => Failed::TooBig(bounds.used()),
        None => Failed::Malformed(super::wire::plain_serde(&e)),
    };
    let mut de = serde_json::Deserializer::from_slice(answer);
    let outcome = match (EnvelopeSeed { bounds: &bounds }).deserialize(&mut de) {
        Ok(o) => o,
        Err(e) => return Err(stopped(e, &bounds)),
    };
    let parsed = match outcome {
        Outcome::Error(message) => {
            return Err(Failed::Refused(cap(
                &within.redact.text(&message),
                MAX_ERROR_CHARS,
            )))
        }
        Outcome::Nothing => {
            return Err(Failed::Malformed(
                "it has neither a \"result\" nor an \"error\"".into(),
            ))
        }
        Outcome::Result(p) => p,
    };
    if parsed.is_error {
        let texts: Vec<&str> = parsed
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some(t.as_str()),
                Item::Other(_) => None,
            })
            .collect();
        let text = if texts.is_empty() {
            "the server reported an error without a message".to_string()
        } else {
            texts.join("\n")
        };
        return Err(Failed::Tool(cap(
            &within.redact.text(&text),
            MAX_ERROR_CHARS,
        )));
    }
    if let Some(v) = parsed.structured.filter(|v| !v.is_nil()) {
        return Ok(v);
    }
    let mut items = parsed.items;
    if items.len() == 1 {
        return match items.pop() {
            Some(Item::Text(t)) => match bounded::parse(&t, &bounds) {
                Ok(v) => Ok(v),
                Err(e) if bounds.stopped().is_some() => Err(stopped(e, &bounds)),
                Err(_) => Ok(Value::string(within.redact.text(&t).as_ref())),
            },
            Some(Item::Other(j)) => Ok(from_json(&j)),
            None => Ok(Value::Nil),
        };
    }
    if items.is_empty() {
        return Ok(Value::Nil);
    }
    Ok(Value::vector_from(items.into_iter().map(|i| match i {
        Item::Text(t) => Value::string(within.redact.text(&t).as_ref()),
        Item::Other(j) => from_json(&j),
    })))
}

enum Outcome {
    Result(Parsed),
    Error(String),
    Nothing,
}

struct Parsed {
    items: Vec<Item>,
    structured: Option<Value>,
    is_error: bool,
}

enum Item {
    /// A text item's text, as sent.
    Text(String),
    /// The small map standing for any other item (redacted).
    Other(serde_json::Value),
}

struct EnvelopeSeed<'b, 'a> {
    bounds: &'b Bounds<'a>,
}

impl<'de> DeserializeSeed<'de> for EnvelopeSeed<'_, '_> {
    type Value = Outcome;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Outcome, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeSeed<'_, '_> {
    type Value = Outcome;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC answer (an object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Outcome, A::Error> {
        let mut outcome = Outcome::Nothing;
        while let Some(k) = map.next_key::<Cow<'de, str>>()? {
            match k.as_ref() {
                "result" => {
                    outcome = Outcome::Result(map.next_value_seed(ResultSeed {
                        bounds: self.bounds,
                    })?)
                }
                "error" => {
                    #[derive(serde::Deserialize)]
                    struct RpcError {
                        #[serde(default)]
                        message: String,
                    }
                    let e: RpcError = map.next_value()?;
                    outcome = Outcome::Error(if e.message.is_empty() {
                        "it refused the call without saying why".into()
                    } else {
                        e.message
                    });
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(outcome)
    }
}

struct ResultSeed<'b, 'a> {
    bounds: &'b Bounds<'a>,
}

impl<'de> DeserializeSeed<'de> for ResultSeed<'_, '_> {
    type Value = Parsed;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Parsed, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ResultSeed<'_, '_> {
    type Value = Parsed;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tool result (an object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parsed, A::Error> {
        let mut parsed = Parsed {
            items: Vec::new(),
            structured: None,
            is_error: false,
        };
        while let Some(k) = map.next_key::<Cow<'de, str>>()? {
            match k.as_ref() {
                "content" => parsed.items = map.next_value_seed(ContentSeed(self.bounds))?,
                "structuredContent" => {
                    parsed.structured = Some(map.next_value_seed(ValueSeed::new(self.bounds))?)
                }
                "isError" => parsed.is_error = map.next_value::<Option<bool>>()?.unwrap_or(false),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(parsed)
    }
}

struct ContentSeed<'b, 'a>(&'b Bounds<'a>);

impl<'de> DeserializeSeed<'de> for ContentSeed<'_, '_> {
    type Value = Vec<Item>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Vec<Item>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ContentSeed<'_, '_> {
    type Value = Vec<Item>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of content items")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Item>, A::Error> {
        let mut items = Vec::new();
        while let Some(fields) = seq.next_element::<ItemFields>()? {
            self.0
                .charge(fields.text.as_ref().map_or(64, |t| t.len() as u64))?;
            items.push(fields.item(self.0));
        }
        Ok(items)
    }
}

/// The fields of a content item ptc reads; base64 data and resource texts
/// only measured.
#[derive(serde::Deserialize)]
struct ItemFields {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    data: Option<Measured>,
    #[serde(rename = "mimeType", default)]
    mime: Option<String>,
    #[serde(default)]
    uri: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    resource: Option<ResourceFields>,
}

#[derive(serde::Deserialize)]
struct ResourceFields {
    #[serde(default)]
    uri: Option<String>,
    #[serde(rename = "mimeType", default)]
    mime: Option<String>,
    #[serde(default)]
    text: Option<Measured>,
    #[serde(default)]
    blob: Option<Measured>,
}

/// A string's length, without keeping it.
struct Measured(usize);

impl<'de> serde::Deserialize<'de> for Measured {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Measured, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Measured;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Measured, E> {
                Ok(Measured(s.len()))
            }
        }
        d.deserialize_str(V)
    }
}

impl ItemFields {
    fn item(self, bounds: &Bounds<'_>) -> Item {
        let field = |s: Option<String>| {
            s.map(|s| {
                let s = cap(&s, MAX_FIELD_CHARS);
                (bounds.text)(&s).into_owned()
            })
        };
        let b64 = |m: Option<Measured>| m.map(|Measured(n)| n * 3 / 4);
        let kind = self.kind.unwrap_or_else(|| "unknown".into());
        match kind.as_str() {
            "text" => Item::Text(self.text.unwrap_or_default()),
            "image" | "audio" => Item::Other(json!({
                "type": kind,
                "mime-type": field(self.mime),
                "size": b64(self.data),
            })),
            "resource" => {
                let r = self.resource.unwrap_or(ResourceFields {
                    uri: None,
                    mime: None,
                    text: None,
                    blob: None,
                });
                let size = match (r.text, r.blob) {
                    (Some(Measured(n)), _) => Some(n),
                    (_, blob) => b64(blob),
                };
                Item::Other(json!({
                    "type": "resource",
                    "uri": field(r.uri),
                    "mime-type": field(r.mime),
                    "size": size,
                }))
            }
            "resource_link" => Item::Other(json!({
                "type": "resource_link",
                "uri": field(self.uri),
                "name": field(self.name),
                "mime-type": field(self.mime),
            })),
            _ => Item::Other(json!({"type": field(Some(kind))})),
        }
    }
}

/// `text` cut to `max` characters, saying how much was cut.
pub fn cap(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept}… ({} more characters cut)", n - max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::to_clojure;

    fn show_with(result: serde_json::Value, redact: &Redactor) -> String {
        let msg = json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string();
        let within = Within {
            deadline: None,
            room: None,
            redact,
        };
        match decode(msg.as_bytes(), &within) {
            Ok(v) => to_clojure(&v, None, None).0,
            Err(e) => format!("ERR {e:?}"),
        }
    }

    fn show(result: serde_json::Value) -> String {
        show_with(result, &Redactor::default())
    }

    #[test]
    fn the_shapes_of_results() {
        assert_eq!(
            show(
                json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {"a": [1]}})
            ),
            "{:a [1]}"
        );
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "{\"k\": true}"}]})),
            "{:k true}"
        );
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "hello world"}]})),
            "\"hello world\""
        );
        assert_eq!(
            show(
                json!({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]})
            ),
            "[\"a\" {:type \"image\" :mime-type \"image/png\" :size 3}]"
        );
        assert_eq!(show(json!({"content": []})), "nil");
        assert_eq!(
            show(json!({"content": [{"type": "text", "text": "no such file"}], "isError": true})),
            "ERR Tool(\"no such file\")"
        );
        let long = "e".repeat(5000);
        let e = show(json!({"content": [{"type": "text", "text": long}], "isError": true}));
        assert!(
            e.len() < 2100 && e.contains("3000 more characters cut"),
            "{e}"
        );
        let e = show(json!({"content": "not a list", "isError": "no"}));
        assert!(e.starts_with("ERR Malformed(") && !e.contains("Vec"), "{e}");
    }

    #[test]
    fn secrets_are_redacted_everywhere_and_rpc_errors_are_tool_errors() {
        let r = Redactor::new(["tok-12345678"]);
        assert_eq!(
            show_with(
                json!({"structuredContent": {"tok-12345678": "is tok-12345678"}}),
                &r
            ),
            "{:*** \"is ***\"}"
        );
        assert_eq!(
            show_with(
                json!({"content": [{"type": "text", "text": "the key is tok-12345678"}]}),
                &r
            ),
            "\"the key is ***\""
        );
        assert_eq!(
            show_with(
                json!({"content": [{"type": "text", "text": "bad tok-12345678"}], "isError": true}),
                &r
            ),
            "ERR Tool(\"bad ***\")"
        );
        let msg =
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "no tok-12345678"}});
        let within = Within {
            deadline: None,
            room: None,
            redact: &r,
        };
        assert_eq!(
            decode(msg.to_string().as_bytes(), &within),
            Err(Failed::Refused("no ***".into()))
        );
    }

    #[test]
    fn heap_room_and_deadline_bound_the_reading() {
        let text = format!("[{}1]", "{\"id\":1},".repeat(50_000));
        let msg = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": text}]}})
            .to_string();
        let r = Redactor::default();
        let within = Within {
            deadline: None,
            room: Some(100_000),
            redact: &r,
        };
        assert!(matches!(
            decode(msg.as_bytes(), &within),
            Err(Failed::TooBig(_))
        ));
        let within = Within {
            deadline: Some(Instant::now()),
            room: None,
            redact: &r,
        };
        assert_eq!(decode(msg.as_bytes(), &within), Err(Failed::Deadline));
    }
}
