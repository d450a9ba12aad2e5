//! Keywords and symbols by name: `name namespace keyword symbol`.

use super::*;

/// `ns/name` split of a qualified keyword or symbol name.
fn split_qualified(s: &str) -> (Option<&str>, &str) {
    match s.find('/') {
        Some(i) if i > 0 && i + 1 < s.len() => (Some(&s[..i]), &s[i + 1..]),
        _ => (None, s),
    }
}

pub(super) fn name_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Str(_) => Ok(args[0].clone()),
        Value::Keyword(k) => Ok(Value::string(split_qualified(k).1)),
        Value::Symbol(k) => Ok(Value::string(split_qualified(k).1)),
        other => Err(args::type_error(
            "name",
            "a keyword, symbol or string",
            other,
        )),
    }
}

pub(super) fn namespace_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    match &args[0] {
        Value::Keyword(k) => Ok(split_qualified(k).0.map_or(Value::Nil, Value::string)),
        Value::Symbol(k) => Ok(split_qualified(k).0.map_or(Value::Nil, Value::string)),
        other => Err(args::type_error("namespace", "a keyword or symbol", other)),
    }
}

/// The name of a keyword/symbol to build from `(keyword x)`/`(symbol x)`.
fn ident_name(fname: &str, v: &Value) -> Result<Option<Text>> {
    match v {
        Value::Str(s) | Value::Symbol(s) => Ok(Some(s.clone())),
        Value::Keyword(k) => Ok(Some(k.to_text())),
        Value::Nil => Ok(None),
        other => Err(args::type_error(
            fname,
            "a string, keyword or symbol",
            other,
        )),
    }
}

/// `(f ns name)`: ns is a string (or nil), name a string.
fn qualified(fname: &str, ns: &Value, name: &Value) -> Result<Text> {
    let name = match name {
        Value::Str(s) | Value::Symbol(s) => s.clone(),
        Value::Keyword(k) => k.to_text(),
        other => return Err(args::type_error(fname, "a string name", other)),
    };
    match ns {
        Value::Nil => Ok(name),
        Value::Str(n) | Value::Symbol(n) => Ok(format!("{n}/{name}").into()),
        Value::Keyword(n) => Ok(format!("{n}/{name}").into()),
        other => Err(args::type_error(fname, "a string namespace", other)),
    }
}

pub(super) fn keyword_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [ns, name] = args {
        return Ok(Value::keyword(qualified("keyword", ns, name)?));
    }
    match &args[0] {
        Value::Keyword(_) => Ok(args[0].clone()),
        // Like Clojure, anything that is not a name makes no keyword.
        Value::Str(_) | Value::Symbol(_) => {
            Ok(ident_name("keyword", &args[0])?.map_or(Value::Nil, Value::keyword))
        }
        _ => Ok(Value::Nil),
    }
}

pub(super) fn symbol_fn(_interp: &mut Interp, args: &[Value]) -> Result<Value> {
    if let [ns, name] = args {
        return Ok(Value::Symbol(qualified("symbol", ns, name)?));
    }
    match ident_name("symbol", &args[0])? {
        Some(s) => Ok(Value::Symbol(s)),
        None => Err(args::type_error(
            "symbol",
            "a string, keyword or symbol",
            &args[0],
        )),
    }
}
