//! JSON in programs (issue 27 item 4): the names models reach for from
//! `clojure.data.json` (`json/write-str`, `json/read-str`) and
//! `cheshire.core` (`generate-string`, `parse-string`), in namespace
//! [`Ns::Json`] — reachable as `json/`, `clojure.data.json/`,
//! `cheshire.core/`, `cheshire/`, or an alias from `require`.
//!
//! Rules (decided here; data.json/cheshire where they agree):
//! * Writing: nil → null, booleans, integers, finite floats, strings;
//!   keywords and symbols → their name as a string (`:a/b` → `"a/b"`);
//!   vectors and sets → arrays (sets in their printed order); maps → objects
//!   in insertion order, keys written as strings (keywords without the
//!   colon, other keys as `str` gives them; `:key-fn f` for `write-str`
//!   maps each key through f). `##NaN`/`##Inf`, functions, regexes, vars and
//!   infinite sequences have no JSON form: a `type-error` naming the value.
//!   Output is compact (`{"a":1,"b":[1,2]}`); `generate-string` with
//!   `{:pretty true}` indents two spaces per level.
//! * Reading: objects → maps in the text's order with string keys, unless
//!   `:key-fn keyword` (`read-str`) or a truthy second argument / key
//!   function (`parse-string`) says otherwise; integers that fit 64 bits
//!   stay integers, other numbers are floats. Malformed text is an
//!   `execution-error` naming the position.
//! * Both are budgeted (steps per item, heap for the text and values) and
//!   bounded in nesting ([`MAX_DEPTH`]).

use super::args;
use super::{Arity, Builtin, Ns};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::{cost, Map, Value};

/// The deepest nesting written or read.
pub const MAX_DEPTH: usize = 128;

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("write-str", Arity::at_least(1), "clojure.data.json/write-str: a value as compact JSON text, map keys in insertion order; options :key-fn f.", write_str)
        .ns(Ns::Json)
        .example("(json/write-str {:a 1 :b [true nil]}) ;=> \"{\\\"a\\\":1,\\\"b\\\":[true,null]}\""),
    Builtin::new("read-str", Arity::at_least(1), "clojure.data.json/read-str: JSON text as a value (string keys; :key-fn keyword for keyword keys).", read_str)
        .ns(Ns::Json)
        .example("(json/read-str \"{\\\"a\\\":1}\" :key-fn keyword) ;=> {:a 1}"),
    Builtin::new("generate-string", Arity::range(1, 2), "cheshire.core/generate-string: a value as JSON text; {:pretty true} indents.", generate_string)
        .example("(json/generate-string {:a [1 2]}) ;=> \"{\\\"a\\\":[1,2]}\"")
        .ns(Ns::Json),
    Builtin::new("parse-string", Arity::range(1, 2), "cheshire.core/parse-string: JSON text as a value; true (or a key function) as second argument makes keys keywords.", parse_string)
        .example("(json/parse-string \"{\\\"a\\\": 1}\" true) ;=> {:a 1}")
        .ns(Ns::Json),
];

fn opts(fname: &str, rest: &[Value]) -> Result<Map> {
    if !rest.len().is_multiple_of(2) {
        return Err(Error::arity(format!(
            "{fname} takes options as keyword/value pairs, e.g. :key-fn keyword"
        )));
    }
    let mut m = Map::new();
    for pair in rest.chunks(2) {
        m.insert(pair[0].clone(), pair[1].clone());
    }
    Ok(m)
}

fn write_str(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let o = opts("json/write-str", &a[1..])?;
    let key_fn = o.get(&Value::keyword("key-fn")).cloned();
    let mut w = Writer {
        fname: "json/write-str",
        key_fn,
        pretty: false,
        out: String::new(),
    };
    w.value(interp, &a[0], 0)?;
    Ok(Value::string(w.out))
}

fn generate_string(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let pretty = match a.get(1) {
        None | Some(Value::Nil) => false,
        Some(Value::Map(m)) => m
            .get(&Value::keyword("pretty"))
            .is_some_and(|v| !matches!(v, Value::Nil | Value::Bool(false))),
        Some(other) => {
            return Err(args::type_error(
                "cheshire/generate-string",
                "an options map like {:pretty true}",
                other,
            ))
        }
    };
    let mut w = Writer {
        fname: "cheshire/generate-string",
        key_fn: None,
        pretty,
        out: String::new(),
    };
    w.value(interp, &a[0], 0)?;
    Ok(Value::string(w.out))
}

struct Writer {
    fname: &'static str,
    key_fn: Option<Value>,
    pretty: bool,
    out: String,
}

impl Writer {
    fn value(&mut self, interp: &mut Interp, v: &Value, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::limit(format!(
                "{}: the value nests more than {MAX_DEPTH} levels deep",
                self.fname
            )));
        }
        interp.tick(1)?;
        let before = self.out.len();
        match v {
            Value::Nil => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => self.out.push_str(&i.to_string()),
            // Shortest round-tripping digits: 1.0, 0.1, 1e21.
            Value::Float(f) if f.is_finite() => self.out.push_str(&format!("{f:?}")),
            Value::Str(s) => quote(&mut self.out, s),
            Value::Keyword(k) => quote(&mut self.out, k),
            Value::Symbol(k) => quote(&mut self.out, k),
            Value::Vector(items) => {
                let items: Vec<Value> = items.iter().cloned().collect();
                self.array(interp, &items, depth)?;
            }
            Value::Set(s) => {
                let items: Vec<Value> = s.iter().cloned().collect();
                self.array(interp, &items, depth)?;
            }
            Value::Map(m) => {
                let entries: Vec<(Value, Value)> =
                    m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                self.out.push('{');
                for (i, (k, val)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(depth + 1);
                    let key = match &self.key_fn {
                        Some(f) => {
                            let f = f.clone();
                            interp.call(&f, std::slice::from_ref(k))?
                        }
                        None => k.clone(),
                    };
                    let text = match &key {
                        Value::Str(s) => s.to_string(),
                        Value::Keyword(s) => s.to_string(),
                        Value::Symbol(s) => s.to_string(),
                        other => super::core::shown_within_heap(interp, other)?,
                    };
                    quote(&mut self.out, &text);
                    self.out.push_str(if self.pretty { " : " } else { ":" });
                    self.value(interp, val, depth + 1)?;
                }
                if !entries.is_empty() {
                    self.newline(depth);
                }
                self.out.push('}');
            }
            other => {
                return Err(args::type_error(self.fname, "a value with a JSON form (nil, boolean, number, string, keyword, vector, set, map)", other)
                    .with_hint("convert it first, e.g. (str x) for a function or regex; ##NaN and ##Inf have no JSON form"))
            }
        }
        interp.alloc((self.out.len() - before) as u64)?;
        Ok(())
    }

    fn array(&mut self, interp: &mut Interp, items: &[Value], depth: usize) -> Result<()> {
        self.out.push('[');
        if self.pretty && !items.is_empty() {
            self.out.push(' ');
        }
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(if self.pretty { ", " } else { "," });
            }
            self.value(interp, x, depth + 1)?;
        }
        if self.pretty && !items.is_empty() {
            self.out.push(' ');
        }
        self.out.push(']');
        Ok(())
    }

    fn newline(&mut self, depth: usize) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..depth {
                self.out.push_str("  ");
            }
        }
    }
}

fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// How object keys are read.
enum Keys {
    Strings,
    Keywords,
    Fn(Value),
}

fn read_str(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let text = args::string("json/read-str", &a[0])?;
    let o = opts("json/read-str", &a[1..])?;
    let keys = match o.get(&Value::keyword("key-fn")) {
        None | Some(Value::Nil) => Keys::Strings,
        Some(f) => key_fn(f),
    };
    read(interp, "json/read-str", text, &keys)
}

fn parse_string(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let text = args::string("cheshire/parse-string", &a[0])?;
    let keys = match a.get(1) {
        None | Some(Value::Nil) | Some(Value::Bool(false)) => Keys::Strings,
        Some(Value::Bool(true)) => Keys::Keywords,
        Some(f) => key_fn(f),
    };
    read(interp, "cheshire/parse-string", text, &keys)
}

fn key_fn(f: &Value) -> Keys {
    match f {
        Value::Fn(func) if func.name() == "keyword" => Keys::Keywords,
        other => Keys::Fn(other.clone()),
    }
}

fn read(interp: &mut Interp, fname: &str, text: &str, keys: &Keys) -> Result<Value> {
    interp.tick(1 + text.len() as u64 / 16)?;
    // The parse tree, freed once converted (about twice the text); the
    // values it becomes are charged as they are built.
    interp.alloc(2 * text.len() as u64 + 64)?;
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Error::execution(format!("{fname}: invalid JSON: {e}"))
            .with_hint("the text must be one JSON value, e.g. {\"a\": 1}")
    })?;
    convert(interp, &json, keys, 0)
}

fn convert(interp: &mut Interp, j: &serde_json::Value, keys: &Keys, depth: usize) -> Result<Value> {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return Err(Error::limit(format!(
            "JSON nests more than {MAX_DEPTH} levels deep"
        )));
    }
    interp.tick(1)?;
    Ok(match j {
        J::Null => Value::Nil,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => {
            interp.alloc(cost::string_bytes(s.len()))?;
            Value::string(s.as_str())
        }
        J::Array(items) => {
            interp.alloc(cost::vector_bytes(items.len()))?;
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                out.push(convert(interp, x, keys, depth + 1)?);
            }
            Value::vector_from(out)
        }
        J::Object(obj) => {
            interp.alloc(cost::map_bytes(obj.len()))?;
            let mut m = Map::new();
            for (k, v) in obj {
                let key = match keys {
                    Keys::Strings => {
                        interp.alloc(cost::string_bytes(k.len()))?;
                        Value::string(k.as_str())
                    }
                    Keys::Keywords => {
                        interp.alloc(cost::keyword_bytes(k.len()))?;
                        Value::keyword(k.as_str())
                    }
                    Keys::Fn(f) => interp.call(f, &[Value::string(k.as_str())])?,
                };
                let val = convert(interp, v, keys, depth + 1)?;
                m.insert(key, val);
            }
            Value::Map(m)
        }
    })
}
