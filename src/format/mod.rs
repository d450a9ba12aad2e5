//! `to_clojure`: how values print for the LLM (`spec/format.md`).
//!
//! (Being written; the contract below is fixed.)

use crate::value::Value;

/// Prints `v` in PTC-Lisp syntax, cut to `limit` items per collection and
/// `printable_limit` characters per string; the flag says whether anything
/// was cut.
pub fn to_clojure(
    v: &Value,
    _limit: Option<usize>,
    _printable_limit: Option<usize>,
) -> (String, bool) {
    (format!("<{}>", v.type_name()), false)
}

/// What `str` and `println` show for one argument: strings raw, everything
/// else as `to_clojure` without limits (`nil` is empty for `str`).
pub fn display(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        other => to_clojure(other, None, None).0,
    }
}
