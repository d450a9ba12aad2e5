//! The pieces every namespace line is made of: the entry layout,
//! type labels, samples and docstring cleaning.

use crate::format::to_clojure;
use crate::value::{LazySeq, Returned, Value};

/// The column (0-based) where the `;` of an entry's comment goes.
pub const COMMENT_COLUMN: usize = 33;

/// `NAME-PART` padded with spaces to 33 characters, then `; COMMENT`; a
/// name part of 32 characters or more gets exactly two spaces.
pub fn entry(name_part: &str, comment: &str) -> String {
    let n = name_part.chars().count();
    let pad = if n >= COMMENT_COLUMN - 1 {
        2
    } else {
        COMMENT_COLUMN - n
    };
    format!("{name_part}{}; {comment}", " ".repeat(pad))
}

/// The type label of a value: `list[3]`, `map[2]`, `string`, `#fn[x y]`…
///
/// Beyond the table: an infinite sequence is `list[infinite]`, a symbol
/// `symbol`, a var `var`, a `(reduced x)` `reduced`.
pub fn type_label(v: &Value) -> String {
    match v {
        Value::Vector(_) | Value::Map(_) | Value::Set(_) => returned_label(&Returned::of(v)),
        Value::Str(_) => "string".into(),
        Value::Int(_) => "integer".into(),
        Value::Float(_) => "float".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Keyword(_) => "keyword".into(),
        Value::Nil => "nil".into(),
        Value::Fn(_) => to_clojure(v, None, None).0,
        Value::Regex(_) => "regex".into(),
        Value::Symbol(_) => "symbol".into(),
        Value::Var(_) => "var".into(),
        Value::Lazy(_) => "list[infinite]".into(),
        Value::Reduced(_) => "reduced".into(),
    }
}

/// The type label of what is kept of a function's last return, a
/// collection's from its kind and size (what [`type_label`] gives any
/// collection).
pub fn returned_label(r: &Returned) -> String {
    match r {
        Returned::List(n) => format!("list[{n}]"),
        Returned::Map(n) => format!("map[{n}]"),
        Returned::Set(n) => format!("set[{n}]"),
        Returned::Value(v) => type_label(v),
    }
}

/// The value a sample shows: the first item of a sequence or set,
/// a map itself, a scalar itself; `None` for empty collections, nil,
/// functions. Regexes, symbols and vars show themselves; an infinite
/// sequence shows its first item (known without running anything).
fn sample_value(v: &Value) -> Option<&Value> {
    match v {
        Value::Vector(items) => items.front(),
        Value::Set(s) => s.iter().next(),
        Value::Map(m) if m.is_empty() => None,
        Value::Map(_) => Some(v),
        Value::Str(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Bool(_)
        | Value::Keyword(_)
        | Value::Regex(_)
        | Value::Symbol(_)
        | Value::Var(_) => Some(v),
        Value::Lazy(seq) => match &***seq {
            LazySeq::Range { start, .. } => Some(start),
            LazySeq::Iterate { seed, .. } => Some(seed),
            LazySeq::Repeat(x) => Some(x),
            LazySeq::Cycle(items) => items.front(),
            LazySeq::Reductions { init, .. } => Some(init),
            LazySeq::Map { .. }
            | LazySeq::Filter { .. }
            | LazySeq::Skip { .. }
            | LazySeq::Repeatedly(_)
            | LazySeq::TakeNth { .. }
            | LazySeq::Concat { .. }
            | LazySeq::Interleave(_)
            | LazySeq::Zip { .. }
            | LazySeq::Chain(_)
            | LazySeq::Thunk(_)
            | LazySeq::Transduce { .. } => None,
        },
        Value::Nil | Value::Fn(_) | Value::Reduced(_) => None,
    }
}

/// The sample text of `v`, printed with the sample limits.
pub fn sample(v: &Value, limit: usize, printable_limit: usize) -> Option<String> {
    sample_value(v).map(|s| to_clojure(s, Some(limit), Some(printable_limit)).0)
}

/// A docstring as the prelude shows it, without the quotes: `;`
/// removed, every whitespace run collapsed to one space, trimmed; `"`
/// escaped as `\"` so the quoted text stays well-formed. `None` when
/// nothing is left.
pub fn clean_doc(doc: &str) -> Option<String> {
    let no_semis: String = doc.chars().filter(|c| *c != ';').collect();
    let collapsed = no_semis.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        None
    } else {
        Some(collapsed.replace('"', "\\\""))
    }
}

/// `"DOC"` for a docstring that is not empty after cleaning.
pub fn quoted_doc(doc: Option<&str>) -> Option<String> {
    doc.and_then(clean_doc).map(|d| format!("\"{d}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_pads_to_column_34_or_two_spaces() {
        assert_eq!(
            entry("data/products", "list[7]"),
            "data/products                    ; list[7]"
        );
        let n31 = "x".repeat(31);
        assert_eq!(entry(&n31, "c"), format!("{n31}  ; c"));
        let n32 = "x".repeat(32);
        assert_eq!(entry(&n32, "c"), format!("{n32}  ; c"));
        let n40 = "x".repeat(40);
        assert_eq!(entry(&n40, "c"), format!("{n40}  ; c"));
        // Characters, not bytes.
        assert_eq!(entry("é", "c").find(';'), Some(34));
    }

    #[test]
    fn type_labels_follow_r29() {
        let v = Value::vector_from([Value::Int(1), Value::Int(2)]);
        assert_eq!(type_label(&v), "list[2]");
        assert_eq!(type_label(&Value::map_from([])), "map[0]");
        assert_eq!(type_label(&Value::set_from([Value::Nil])), "set[1]");
        assert_eq!(type_label(&Value::string("a")), "string");
        assert_eq!(type_label(&Value::Int(1)), "integer");
        assert_eq!(type_label(&Value::Float(1.0)), "float");
        assert_eq!(type_label(&Value::Bool(false)), "boolean");
        assert_eq!(type_label(&Value::keyword("a")), "keyword");
        assert_eq!(type_label(&Value::Nil), "nil");
    }

    #[test]
    fn samples_follow_r28() {
        let s = |v: &Value| sample(v, 3, 80);
        assert_eq!(
            s(&Value::vector_from([Value::Int(1), Value::Int(2)])).as_deref(),
            Some("1")
        );
        assert_eq!(s(&Value::empty_vector()), None);
        assert_eq!(s(&Value::Nil), None);
        assert_eq!(
            s(&Value::set_from([Value::Int(3), Value::Int(1)])).as_deref(),
            Some("1")
        );
        let m = Value::map_from([(Value::keyword("a"), Value::Int(1))]);
        assert_eq!(s(&m).as_deref(), Some("{:a 1}"));
        assert_eq!(s(&Value::string("hi")).as_deref(), Some("\"hi\""));
        assert_eq!(s(&Value::keyword("active")).as_deref(), Some(":active"));
        let long = Value::string("x".repeat(100));
        assert_eq!(s(&long), Some(format!("\"{}...\"", "x".repeat(80))));
    }

    #[test]
    fn docstrings_are_cleaned() {
        assert_eq!(
            clean_doc("  Sums;  the\n\tprices. ").as_deref(),
            Some("Sums the prices.")
        );
        assert_eq!(clean_doc(" ;; "), None);
        assert_eq!(clean_doc("say \"hi\"").as_deref(), Some("say \\\"hi\\\""));
    }
}
