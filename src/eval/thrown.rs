//! Errors as values: what `catch` binds and what `throw` raises.

use super::*;

/// The value a `catch` binds for an error: a map with `:message`, `:kind`,
/// and `:data` when the error carries data (`ex-info`).
pub fn error_value(e: &Error) -> Value {
    let mut m = Map::new();
    let message = if e.has_message() {
        Value::string(e.message())
    } else {
        Value::Nil
    };
    m.insert(Value::keyword("message"), message);
    m.insert(Value::keyword("kind"), Value::keyword(e.kind().name()));
    if let Some(d) = e.data() {
        m.insert(Value::keyword("data"), d.clone());
    }
    if let Some(class) = e.class() {
        m.insert(Value::keyword("class"), Value::string(class));
    }
    Value::Map(m)
}

/// The Java exception class an error value names (`(Exception. "m")`).
pub(crate) fn java_class(m: &Map) -> Option<&'static str> {
    match m.get(&Value::keyword("class")) {
        Some(Value::Str(c)) => crate::builtins::classes::known(c),
        _ => None,
    }
}

/// The most bytes of a thrown non-string value shown in the error's
/// message (a self-sharing value would print forever; a message is for
/// reading, the data keeps the value).
pub const THROWN_MESSAGE_BYTES: usize = 4096;

/// The error `(throw v)` raises: an `ex-info` value keeps its message and
/// data; anything else becomes the message, printed up to
/// [`THROWN_MESSAGE_BYTES`] (the whole value stays the error's data).
pub fn thrown_error(v: Value) -> Error {
    if let Value::Map(m) = &v {
        if let Some(class) = java_class(m) {
            // `(Exception.)` has no message: the class name stands in for
            // the reader, and `ex-message` gives nil as in Clojure.
            return match m.get(&Value::keyword("message")) {
                Some(Value::Str(s)) => Error::execution(s.to_string()).with_class(class),
                _ => Error::execution(class).with_class(class).without_message(),
            };
        }
        if let Some(Value::Str(msg)) = m.get(&Value::keyword("message")) {
            let mut e = Error::execution(msg.to_string());
            if let Some(d) = m.get(&Value::keyword("data")) {
                e = e.with_data(d.clone());
            }
            if let Some(class) = java_class(m) {
                e = e.with_class(class);
            }
            return e;
        }
    }
    let text = match &v {
        Value::Str(s) => s.to_string(),
        other => crate::format::to_clojure_capped(other, None, None, Some(THROWN_MESSAGE_BYTES)).0,
    };
    Error::execution(text).with_data(v)
}
