//! Tests of `to_clojure` and the display printers (format.md F-1 … F-4).

#[test]
fn push_int_writes_like_display() {
    for i in [0, 7, -7, 10, 123456789, i64::MAX, i64::MIN, -1000] {
        let mut out = String::from("x");
        super::push_int(&mut out, i);
        assert_eq!(out, format!("x{i}"));
    }
}

use super::*;
use crate::value::Vector;

#[test]
fn str_text_is_what_str_writes() {
    let values = [
        Value::from("é-x"),
        Value::from(""),
        Value::Int(i64::MIN),
        Value::Int(-7),
        Value::Int(0),
        Value::Nil,
        Value::Bool(true),
        Value::Bool(false),
    ];
    for v in &values {
        let mut out = String::new();
        assert!(write_display(&mut out, v, Style::Str, usize::MAX));
        let mut digits = itoa::Buffer::new();
        assert_eq!(str_text(v, &mut digits), Some(out.as_str()), "{v}");
    }
    for v in [
        Value::keyword("k"),
        Value::Float(1.5),
        Value::vector_from([Value::Nil]),
    ] {
        assert_eq!(str_text(&v, &mut itoa::Buffer::new()), None, "{v}");
    }
}

fn kw(s: &str) -> Value {
    Value::keyword(s)
}
fn ints(xs: &[i64]) -> Value {
    Value::vector_from(xs.iter().map(|&i| Value::Int(i)))
}
fn plain(v: &Value) -> String {
    let (s, t) = to_clojure(v, None, None);
    assert!(!t, "unexpected truncation of {s}");
    s
}

// F-4, row by row.
#[test]
fn f4_examples() {
    assert_eq!(
        to_clojure(&Value::Int(42), None, None),
        ("42".into(), false)
    );
    assert_eq!(plain(&ints(&[1, 2, 3])), "[1 2 3]");
    let m = Value::map_from([(kw("id"), Value::Int(101)), (kw("count"), Value::Int(45))]);
    // F-4 lists `{:count 45 :id 101}`, from before F-2 made maps keep
    // insertion order; F-2 decides.
    assert_eq!(plain(&m), "{:id 101 :count 45}");
    let m = Value::map_from([
        (Value::from("name"), Value::from("Alice")),
        (Value::from("age"), Value::Int(30)),
    ]);
    assert_eq!(plain(&m), "{\"name\" \"Alice\" \"age\" 30}");
    let v = Value::vector_from([
        Value::map_from([(kw("a"), Value::Int(1))]),
        Value::map_from([(kw("b"), Value::Int(2))]),
    ]);
    assert_eq!(plain(&v), "[{:a 1} {:b 2}]");
    assert_eq!(
        to_clojure(&ints(&[1, 2, 3, 4, 5]), Some(2), None),
        ("[1 2 ...] (5 items, showing first 2)".into(), true)
    );
    assert_eq!(
        to_clojure(&Value::from("very long string here"), None, Some(10)),
        ("\"very long ...\"".into(), true)
    );
    let m = Value::map_from(
        ["a", "b", "c", "d"]
            .iter()
            .zip(1..)
            .map(|(k, i)| (kw(k), Value::Int(i))),
    );
    assert_eq!(
        to_clojure(&m, Some(3), Some(80)),
        ("{:a 1 :b 2 ...} (4 entries, showing first 2)".into(), true)
    );
    assert_eq!(plain(&Value::Nil), "nil");
    assert_eq!(plain(&kw("active")), ":active");
    assert_eq!(
        plain(&Value::set_from([3, 1, 2].map(Value::Int))),
        "#{1 2 3}"
    );
    assert_eq!(plain(&Value::Float(1.1 + 2.2)), "3.3");
}

#[test]
fn f1_floats() {
    let cases: &[(f64, &str)] = &[
        (3.0, "3.0"),
        (0.3, "0.3"),
        (0.1 + 0.2, "0.3"),
        (10.0 / 3.0, "3.3333333333"),
        (-0.5, "-0.5"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (2.75, "2.75"),
        (1e-4, "0.0001"),
        (123456.789, "123456.789"),
        // Issue 18.8: no noise above 1e5 (`{:.10}` gives 1234567.8899999999).
        (1234567.89, "1234567.89"),
        (-98765432.1, "-98765432.1"),
        (123456789012.34, "123456789012.34"),
        (1.0 / 3.0, "0.3333333333"),
        (2.0 / 3.0 * 1e6, "666666.6666666666"),
        (1e14, "100000000000000.0"),
        (1e15, "1.0E15"),
        (1e20, "1.0E20"),
        (1.5e-7, "1.5E-7"),
        (-1.2345e20, "-1.2345E20"),
        (5e-5, "5.0E-5"),
        (f64::INFINITY, "##Inf"),
        (f64::NEG_INFINITY, "##-Inf"),
        (f64::NAN, "##NaN"),
    ];
    for (f, want) in cases {
        assert_eq!(format_float(*f), *want, "printing {f:?}");
    }
}

#[test]
fn scalars_and_special_values() {
    assert_eq!(plain(&Value::Int(-42)), "-42");
    assert_eq!(plain(&Value::Bool(true)), "true");
    assert_eq!(plain(&Value::Bool(false)), "false");
    assert_eq!(plain(&kw("ns/a")), ":ns/a");
    assert_eq!(plain(&Value::symbol("foo")), "foo");
    assert_eq!(plain(&Value::Var("x".into())), "#'x");
    let re = crate::value::regex::compile_regex(r"\d+").unwrap();
    assert_eq!(plain(&Value::Regex(re)), r#"#"\d+""#);
    let f = Func::native("partial", |_, _| Ok(Value::Nil));
    assert_eq!(plain(&f), "#fn[partial]");
    assert_eq!(
        plain(&Value::Reduced(std::sync::Arc::new(ints(&[1])))),
        "#reduced[[1]]"
    );
    let lazy = Value::lazy(crate::value::LazySeq::Repeat(Value::Int(1)));
    assert_eq!(plain(&lazy), "#seq[infinite]");
    assert_eq!(plain(&Value::empty_vector()), "[]");
    assert_eq!(plain(&Value::map_from([])), "{}");
    assert_eq!(plain(&Value::set_from([])), "#{}");
}

#[test]
fn strings_escape_and_cut_by_characters() {
    assert_eq!(
        plain(&Value::from("a\"b\\c\nd\te\rf")),
        r#""a\"b\\c\nd\te\rf""#
    );
    assert_eq!(plain(&Value::from("λ ok")), "\"λ ok\"");
    assert_eq!(
        to_clojure(&Value::from("λλλλλ"), None, Some(3)),
        ("\"λλλ...\"".into(), true)
    );
    assert_eq!(
        to_clojure(&Value::from("abc"), None, Some(3)),
        ("\"abc\"".into(), false)
    );
}

#[test]
fn maps_print_in_insertion_order_and_sorted_maps_sorted() {
    let m = Value::map_from([
        (kw("k"), Value::Int(1)),
        (Value::from("s"), Value::Int(2)),
        (Value::Int(3), Value::Int(3)),
        (Value::Nil, Value::Int(4)),
    ]);
    assert_eq!(plain(&m), "{:k 1 \"s\" 2 3 3 nil 4}");
    let Value::Map(m) = m else { unreachable!() };
    let mut sorted = crate::value::Map::sorted();
    sorted.extend(m);
    assert_eq!(plain(&Value::Map(sorted)), "{3 3 \"s\" 2 :k 1 nil 4}");
}

#[test]
fn limits_apply_at_every_depth() {
    let inner = ints(&[1, 2, 3]);
    let v = Value::vector_from([inner.clone(), inner.clone(), inner]);
    assert_eq!(
        to_clojure(&v, Some(2), None),
        (
            "[[1 2 ...] (3 items, showing first 2) [1 2 ...] (3 items, showing first 2) ...] (3 items, showing first 2)"
                .into(),
            true
        )
    );
    let s = Value::set_from([kw("a"), kw("b"), kw("c")]);
    assert_eq!(
        to_clojure(&s, Some(2), None),
        ("#{:a :b ...} (3 items, showing first 2)".into(), true)
    );
    assert_eq!(
        to_clojure(&ints(&[1, 2]), Some(2), None),
        ("[1 2]".into(), false)
    );
    assert_eq!(
        to_clojure(&ints(&[1, 2]), Some(0), None),
        ("[...] (2 items, showing first 0)".into(), true)
    );
}

#[test]
fn map_values_share_the_printable_limit() {
    // p = 100: at most 3 entries; each key/value gets max((100-30)/3, 10) = 23.
    let long = "x".repeat(40);
    let m = Value::map_from([(kw("a"), Value::from(long.as_str()))]);
    // One entry: (100 - 10) / 1 = 90 characters, so 40 fit.
    assert!(!to_clojure(&m, None, Some(100)).1);
    let m = Value::map_from(
        ["a", "b", "c"]
            .iter()
            .map(|k| (kw(k), Value::from(long.as_str()))),
    );
    let (text, truncated) = to_clojure(&m, None, Some(100));
    assert!(truncated);
    let cut = format!("\"{}...\"", "x".repeat(23));
    assert_eq!(text, format!("{{:a {cut} :b {cut} :c {cut}}}"));
    // The minimum per value is 10 characters.
    let (text, _) = to_clojure(&m, Some(3), Some(30));
    assert_eq!(
        text,
        format!(
            "{{:a \"{}...\" ...}} (3 entries, showing first 1)",
            "x".repeat(20)
        )
    );
}

#[test]
fn display_styles() {
    assert_eq!(display(&Value::Nil), "");
    assert_eq!(display_println(&Value::Nil), "nil");
    assert_eq!(display(&Value::from("a\"b")), "a\"b");
    assert_eq!(display(&kw("k")), ":k");
    assert_eq!(display(&Value::Float(0.1)), "0.1");
    assert_eq!(display(&Value::Float(f64::INFINITY)), "Infinity");
    assert_eq!(display(&Value::Float(f64::NEG_INFINITY)), "-Infinity");
    assert_eq!(display(&Value::Float(f64::NAN)), "NaN");
    assert_eq!(display_println(&Value::Float(f64::NAN)), "##NaN");
    assert_eq!(
        display(&Value::vector_from([Value::Float(f64::INFINITY)])),
        "[##Inf]"
    );
    let v = Value::vector_from([Value::Int(1), Value::from("a"), Value::Nil]);
    assert_eq!(display(&v), "[1 \"a\" nil]");
    assert_eq!(display_println(&v), "[1 \"a\" nil]");
    let mut out = String::new();
    assert!(write_display(
        &mut out,
        &Value::from("x"),
        Style::Readable,
        100
    ));
    assert_eq!(out, "\"x\"");
}

#[test]
fn capped_output_stops_runaway_printing() {
    // [v v] nested 60 times: tiny in memory, 2^60 leaves when printed.
    let mut v = Value::Int(1);
    for _ in 0..60 {
        v = Value::vector_from([v.clone(), v]);
    }
    let (text, truncated) = to_clojure_capped(&v, None, None, Some(1000));
    assert!(truncated);
    assert!(text.len() <= 1003 + 64, "{}", text.len());
    assert!(text.ends_with("..."));
    let (text, truncated) = to_clojure(&v, Some(3), Some(80));
    assert!(truncated);
    assert!(text.len() <= LIMITED_OUTPUT_CAP + 64);
    let mut out = String::new();
    assert!(!write_display(&mut out, &v, Style::Str, 10_000));
}

#[test]
fn a_value_too_long_for_the_budget_is_refused_before_printing() {
    let mut v = Value::Int(1);
    for _ in 0..60 {
        v = Value::vector_from([v.clone(), v]);
    }
    let mut out = String::new();
    assert!(!write_display(&mut out, &v, Style::Readable, 10 << 20));
    assert!(out.is_empty(), "printed {} bytes first", out.len());
    assert_eq!(display_within(&v, Style::Str, 10 << 20), None);
}

#[test]
fn deeply_nested_values_print_without_recursion() {
    const DEPTH: usize = 100_000;
    let mut v = Value::Int(7);
    for _ in 0..DEPTH {
        v = Value::vector_from([v]);
    }
    let (text, truncated) = to_clojure(&v, None, None);
    let (limited, _) = to_clojure(&v, Some(3), Some(80));
    // Dismantle iteratively before asserting (a failing assertion would
    // otherwise drop it recursively and overflow).
    dismantle(v);
    assert!(!truncated);
    assert_eq!(text, format!("{}7{}", "[".repeat(DEPTH), "]".repeat(DEPTH)));
    assert!(limited.starts_with("[[[["));
}

fn dismantle(mut v: Value) {
    loop {
        let inner = match &v {
            Value::Vector(vec) => vec.front().cloned(),
            _ => None,
        };
        drop(std::mem::replace(&mut v, Value::Nil));
        match inner {
            Some(i) => v = i,
            None => break,
        }
    }
}

#[test]
fn long_collections_print_linearly() {
    let n = 100_000;
    let v = Value::vector((0..n).map(Value::Int).collect::<Vector>());
    let started = std::time::Instant::now();
    let text = plain(&v);
    assert!(text.starts_with("[0 1 2"));
    assert!(text.ends_with("99999]"));
    let m = Value::map_from((0..n).map(|i| (Value::Int(i), Value::Int(i))));
    let text = plain(&m);
    assert!(text.ends_with("99999 99999}"));
    assert!(started.elapsed().as_secs() < 10);
}
