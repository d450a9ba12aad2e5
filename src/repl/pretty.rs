//! Pretty-printed results (`:pp`): a value that fits in [`WIDTH`] columns
//! is one line; a longer map, vector or set puts one entry per line,
//! indented under its opening bracket, as Clojure's `pprint` does. Each
//! collection shows at most [`super::PREVIEW_ITEMS`] entries and strings
//! are cut as in the one-line preview (`:full` prints the whole value).

use crate::format::to_clojure;
use crate::value::Value;

use super::{PREVIEW_CHARS, PREVIEW_ITEMS};

/// The width a pretty-printed value aims for.
pub const WIDTH: usize = 80;

/// `value` pretty-printed.
pub fn pretty(value: &Value) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

fn flat(value: &Value) -> String {
    to_clojure(value, Some(PREVIEW_ITEMS), Some(PREVIEW_CHARS)).0
}

fn write(value: &Value, indent: usize, out: &mut String) {
    let one_line = flat(value);
    if indent + one_line.chars().count() <= WIDTH {
        out.push_str(&one_line);
        return;
    }
    let (open, close, entries): (&str, &str, Vec<Entry>) = match value {
        Value::Map(m) => ("{", "}", m.iter().map(|(k, v)| Entry::Pair(k, v)).collect()),
        Value::Vector(v) => ("[", "]", v.iter().map(Entry::One).collect()),
        Value::Set(s) => ("#{", "}", s.iter().map(Entry::One).collect()),
        _ => {
            out.push_str(&one_line);
            return;
        }
    };
    out.push_str(open);
    let inner = indent + open.len();
    let total = entries.len();
    for (i, entry) in entries.into_iter().take(PREVIEW_ITEMS).enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&" ".repeat(inner));
        }
        match entry {
            Entry::One(v) => write(v, inner, out),
            Entry::Pair(k, v) => {
                let key = flat(k);
                out.push_str(&key);
                out.push(' ');
                write(v, inner + key.chars().count() + 1, out);
            }
        }
    }
    if total > PREVIEW_ITEMS {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        out.push_str("...");
    }
    out.push_str(close);
}

enum Entry<'a> {
    One(&'a Value),
    Pair(&'a Value, &'a Value),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read_value;

    #[test]
    fn short_values_stay_on_one_line_long_ones_break_per_entry() {
        assert_eq!(pretty(&read_value("{:a 1}").unwrap()), "{:a 1}");
        let v = read_value(
            "[{:name \"Laptop\" :price 1200 :tags [\"electronics\" \"portable\"]} {:name \"Mouse\" :price 25 :tags []}]",
        )
        .unwrap();
        assert_eq!(
            pretty(&v),
            "[{:name \"Laptop\" :price 1200 :tags [\"electronics\" \"portable\"]}\n {:name \"Mouse\" :price 25 :tags []}]"
        );
        let wide = read_value("{:a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" :b \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}").unwrap();
        assert_eq!(
            pretty(&wide),
            "{:a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n :b \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}"
        );
    }
}
