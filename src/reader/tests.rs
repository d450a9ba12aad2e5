//! Reader tests: every literal kind with its span, `#()` expansion, discard,
//! metadata, quote and var, forms as data, and a print/read roundtrip.
//! Error cases live in `tests_errors.rs`.

use super::*;
use crate::error::Span;
use crate::value::Value;
use proptest::prelude::*;

pub(super) fn read1(src: &str) -> Form {
    let forms = read_all(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"));
    assert_eq!(forms.len(), 1, "{src:?} read as {forms:?}");
    forms.into_iter().next().unwrap()
}

fn kind(src: &str) -> FormKind {
    read1(src).kind
}

fn sym(s: &str) -> FormKind {
    FormKind::Symbol(s.to_string())
}

fn span_of(src: &str) -> (u32, u32) {
    let f = read1(src);
    (f.span.start, f.span.end)
}

/// Forms with spans erased to `0..0`, for comparing structure only.
/// Symbols `$1` `$&` become `%1` `%&` (those can't be written outside `#()`).
fn strip(f: &Form) -> Form {
    let kind = match &f.kind {
        FormKind::List(v) => FormKind::List(v.iter().map(strip).collect()),
        FormKind::Vector(v) => FormKind::Vector(v.iter().map(strip).collect()),
        FormKind::Map(v) => FormKind::Map(v.iter().map(strip).collect()),
        FormKind::Set(v) => FormKind::Set(v.iter().map(strip).collect()),
        FormKind::Symbol(s) if s.starts_with('$') => FormKind::Symbol(s.replacen('$', "%", 1)),
        k => k.clone(),
    };
    Form {
        kind,
        span: Span::default(),
    }
}

fn same(a: &str, b: &str) {
    assert_eq!(strip(&read1(a)), strip(&read1(b)), "{a:?} vs {b:?}");
}

fn val(src: &str) -> Value {
    read_value(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"))
}

#[test]
fn scalars() {
    assert_eq!(kind("nil"), FormKind::Nil);
    assert_eq!(kind("true"), FormKind::Bool(true));
    assert_eq!(kind("false"), FormKind::Bool(false));
    assert_eq!(kind("nilly"), sym("nilly"));
    assert_eq!(kind("true?"), sym("true?"));
}

#[test]
fn integers() {
    for (src, n) in [
        ("42", 42),
        ("-7", -7),
        ("+5", 5),
        ("0", 0),
        ("-0", 0),
        ("1000000", 1_000_000),
        ("9223372036854775807", i64::MAX),
        ("-9223372036854775808", i64::MIN),
        ("0x1F", 31),
        ("-0xff", -255),
        ("017", 15),
    ] {
        assert_eq!(kind(src), FormKind::Int(n), "{src}");
    }
    assert_eq!(span_of("  -17 "), (2, 5));
}

#[test]
fn floats() {
    for (src, f) in [
        ("1.5", 1.5),
        ("-2.0", -2.0),
        ("1e3", 1000.0),
        ("2.5E-3", 0.0025),
        ("1e+5", 100000.0),
        ("-1e-5", -0.00001),
        ("3.", 3.0),
        ("+0.5", 0.5),
        ("2.5e10", 2.5e10),
    ] {
        assert_eq!(kind(src), FormKind::Float(f), "{src}");
    }
    assert_eq!(kind("##Inf"), FormKind::Float(f64::INFINITY));
    assert_eq!(kind("##-Inf"), FormKind::Float(f64::NEG_INFINITY));
    assert!(matches!(kind("##NaN"), FormKind::Float(f) if f.is_nan()));
    assert_eq!(span_of(" ##-Inf"), (1, 7));
    assert_eq!(span_of("2.5E-3"), (0, 6));
}

#[test]
fn strings() {
    let s = |x: &str| FormKind::Str(x.to_string());
    assert_eq!(kind(r#""hello""#), s("hello"));
    assert_eq!(kind(r#""""#), s(""));
    assert_eq!(kind(r#""a\"b\\c\nd\te\rf""#), s("a\"b\\c\nd\te\rf"));
    assert_eq!(kind(r#""\u00e9\u0041""#), s("éA"));
    assert_eq!(kind(r#""\uD83D\uDE00""#), s("😀"));
    assert_eq!(kind(r#""\b\f\0\101""#), s("\u{8}\u{c}\0A"));
    assert_eq!(kind("\"line1\nline2\""), s("line1\nline2"));
    assert_eq!(kind("\"λ→x\""), s("λ→x"));
    assert_eq!(span_of(r#"  "a\"b"  "#), (2, 8));
    // Terminators inside strings are just text.
    assert_eq!(kind(r#""(]}; #_ ,""#), s("(]}; #_ ,"));
}

#[test]
fn characters() {
    for (src, c) in [
        (r"\a", "a"),
        (r"\Z", "Z"),
        (r"\λ", "λ"),
        (r"\newline", "\n"),
        (r"\space", " "),
        (r"\tab", "\t"),
        (r"\return", "\r"),
        (r"\backspace", "\u{8}"),
        (r"\formfeed", "\u{c}"),
        (r"\u00e9", "é"),
        (r"\o101", "A"),
        (r"\u", "u"),
        (r"\(", "("),
        (r"\\", "\\"),
        (r#"\""#, "\""),
        (r"\,", ","),
    ] {
        assert_eq!(kind(src), FormKind::Str(c.to_string()), "{src}");
    }
    assert_eq!(span_of(r" \newline "), (1, 9));
    // A character ends at a terminator.
    assert_eq!(
        kind(r"(= \e x)"),
        FormKind::List(vec![
            Form {
                kind: sym("="),
                span: Span::new(1, 2)
            },
            Form {
                kind: FormKind::Str("e".into()),
                span: Span::new(3, 5)
            },
            Form {
                kind: sym("x"),
                span: Span::new(6, 7)
            },
        ])
    );
    same(r"[\a\b]", r#"["a" "b"]"#);
    same(r"(\a)", r#"("a")"#);
}

#[test]
fn keywords_and_symbols() {
    let k = |x: &str| FormKind::Keyword(x.to_string());
    assert_eq!(kind(":a"), k("a"));
    assert_eq!(kind(":foo/bar"), k("foo/bar"));
    assert_eq!(kind(":user-id"), k("user-id"));
    assert_eq!(kind(":ok?"), k("ok?"));
    assert_eq!(kind(":a_b"), k("a_b"));
    assert_eq!(kind("::a"), k("user/a"));
    assert_eq!(kind(":1"), k("1"));
    assert_eq!(span_of(" :a/b "), (1, 5));
    for s in [
        "a-b",
        "x?",
        "save!",
        "*1",
        "->>",
        "->",
        "clojure.string/join",
        "/",
        ".5",
        "+",
        "-",
        "a'b",
        "foo#",
        "data/x",
        "tool/search",
        "a_b",
        "<=",
        "-a",
        "+a",
        "Double/NaN",
        "%x",
    ] {
        assert_eq!(kind(s), sym(s), "{s}");
    }
    assert_eq!(span_of("\t clojure.string/join\n"), (2, 21));
}

#[test]
fn regexes() {
    assert_eq!(kind(r#"#"\d+""#), FormKind::Regex(r"\d+".to_string()));
    assert_eq!(kind(r#"#"a\"b""#), FormKind::Regex(r#"a\"b"#.to_string()));
    assert_eq!(kind(r#"#"\\""#), FormKind::Regex(r"\\".to_string()));
    assert_eq!(kind(r#"#"""#), FormKind::Regex(String::new()));
    assert_eq!(kind("#\"a\nb\""), FormKind::Regex("a\nb".to_string()));
    assert_eq!(span_of(r#" #"\s+" "#), (1, 7));
}

#[test]
fn collections_with_spans() {
    let f = read1("(f [1 2] {:a 1} #{3})");
    assert_eq!(f.span, Span::new(0, 21));
    let FormKind::List(items) = &f.kind else {
        panic!("{f:?}")
    };
    assert_eq!(items[0].span, Span::new(1, 2));
    assert_eq!(items[1].span, Span::new(3, 8));
    assert!(matches!(&items[1].kind, FormKind::Vector(v) if v.len() == 2));
    assert_eq!(items[2].span, Span::new(9, 15));
    assert!(matches!(&items[2].kind, FormKind::Map(v) if v.len() == 2));
    assert_eq!(items[3].span, Span::new(16, 20));
    assert!(matches!(&items[3].kind, FormKind::Set(v) if v.len() == 1));
    assert_eq!(kind("()"), FormKind::List(vec![]));
    assert_eq!(kind("[]"), FormKind::Vector(vec![]));
    assert_eq!(kind("{}"), FormKind::Map(vec![]));
    assert_eq!(kind("#{}"), FormKind::Set(vec![]));
    // Spans count bytes, not characters.
    let f = read1("[\"é\" :x]");
    let FormKind::Vector(items) = &f.kind else {
        panic!()
    };
    assert_eq!(items[1].span, Span::new(6, 8));
}

#[test]
fn whitespace_commas_comments() {
    same("(+ 1, 2, 3)", "(+ 1 2 3)");
    same("#{ 1 , 2 , 3 }", "#{1 2 3}");
    same("{:a 1, :b 2}", "{:a 1 :b 2}");
    same("[1 ; one\n 2] ; done", "[1 2]");
    same("#!shebang line\n[1]", "[1]");
    assert_eq!(read_all("; only a comment\n42").unwrap().len(), 1);
    assert!(read_all("").unwrap().is_empty());
    assert!(read_all("  \n\t ,, ").unwrap().is_empty());
    assert!(read_all("; nothing").unwrap().is_empty());
    assert_eq!(
        read_all("(def x 1) ; a\n(def y 2)\r\n(+ x y)")
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn short_fn_expansion() {
    same("#(+ % 1)", "(fn [$1] (+ $1 1))");
    same("#(+ %1 %3)", "(fn [$1 $2 $3] (+ $1 $3))");
    same("#(apply + %&)", "(fn [& $&] (apply + $&))");
    same("#(vector %2 %&)", "(fn [$1 $2 & $&] (vector $2 $&))");
    same("#(* % %)", "(fn [$1] (* $1 $1))");
    same("#()", "(fn [] ())");
    same("#(identity 0)", "(fn [] (identity 0))");
    same(
        "#(+ (inc %) [%2 {:a %}])",
        "(fn [$1 $2] (+ (inc $1) [$2 {:a $1}]))",
    );
    // Two short functions in a row are independent.
    same(
        "[#(inc %2) #(inc %)]",
        "[(fn [$1 $2] (inc $2)) (fn [$1] (inc $1))]",
    );
    let f = read1("  #(inc %)");
    assert_eq!(f.span, Span::new(2, 10));
    let FormKind::List(items) = &f.kind else {
        panic!()
    };
    assert_eq!(items[2].span, Span::new(2, 10));
    assert_eq!(items[0].span, Span::new(2, 4));
}

#[test]
fn discard() {
    same("[1 #_ 2 3]", "[1 3]");
    same("[#_ #_ a b c]", "[c]");
    same("{:a 1 #_ :b #_ 2}", "{:a 1}");
    same("[1 #_(foo [bar]) 2]", "[1 2]");
    same("[1 #_ #(inc %) 2]", "[1 2]");
    assert!(read_all("#_ (def x 1)").unwrap().is_empty());
    assert_eq!(read_all("#_ 1 2").unwrap().len(), 1);
    assert_eq!(span_of("#_ 1 2"), (5, 6));
}

#[test]
fn metadata_is_dropped() {
    same("^:private x", "x");
    same("(defn ^String f [^long x] x)", "(defn f [x] x)");
    same("^{:doc \"d\" :a [1]} [1]", "[1]");
    same("^:a ^:b x", "x");
    same("(def ^:dynamic *x* 1)", "(def *x* 1)");
    assert_eq!(span_of("^:private foo"), (10, 13));
}

#[test]
fn quote_and_var() {
    same("'x", "(quote x)");
    same("''x", "(quote (quote x))");
    same("'(1 2)", "(quote (1 2))");
    same("' [a]", "(quote [a])");
    same("#'foo", "(var foo)");
    same("{:result #'foo}", "{:result (var foo)}");
    let f = read1(" 'abc");
    assert_eq!(f.span, Span::new(1, 5));
    let FormKind::List(items) = &f.kind else {
        panic!()
    };
    assert_eq!(
        items[0],
        Form {
            kind: sym("quote"),
            span: Span::new(1, 2)
        }
    );
    assert_eq!(
        items[1],
        Form {
            kind: sym("abc"),
            span: Span::new(2, 5)
        }
    );
    let f = read1("#'x");
    let FormKind::List(items) = &f.kind else {
        panic!()
    };
    assert_eq!(items[0].span, Span::new(0, 2));
    assert_eq!(f.span, Span::new(0, 3));
}

#[test]
fn forms_as_data() {
    let data = |src: &str| form_to_value(&read1(src)).unwrap();
    assert_eq!(
        data("(a :b \"c\" 1 2.5 nil)"),
        val("[a :b \"c\" 1 2.5 nil]")
    );
    assert!(matches!(data("x"), Value::Symbol(s) if &*s == "x"));
    assert_eq!(data("#{1 1 2 2 3}"), val("#{1 2 3}"));
    // Issue 18.6: a repeated key in a map literal is a parse error.
    let e = read_all("{:a 1 :a 2}").unwrap_err();
    assert_eq!(e.kind(), crate::error::ErrorKind::Parse);
    assert_eq!(e.message(), "duplicate key :a in map literal");
    assert_eq!(e.span(), Some(crate::error::Span::new(6, 8)));
    // Keys are compared as data, whatever their number and kind.
    let dup = |src: &str| read_all(src).err().map(|e| e.message().to_string());
    assert_eq!(
        dup("{\"k\" 1 :b 2 \"k\" 3}").as_deref(),
        Some("duplicate key \"k\" in map literal")
    );
    assert_eq!(
        dup("{x 1 y 2 x 3}").as_deref(),
        Some("duplicate key x in map literal")
    );
    assert_eq!(
        dup("{1 :a 2 :b 1 :c}").as_deref(),
        Some("duplicate key 1 in map literal")
    );
    assert_eq!(
        dup("{::a 1 :user/a 2}").as_deref(),
        Some("duplicate key :user/a in map literal")
    );
    assert_eq!(dup("{:a 1 \"a\" 2 a 3 1 4 1.0 5 [1] 6}"), None);
    assert_eq!(
        dup("{[1 2] 1 :a 2 [1 2] 3}").as_deref(),
        Some("duplicate key [1 2] in map literal")
    );
    let many: String = (0..20).map(|i| format!(":k{i} {i} ")).collect();
    assert_eq!(dup(&format!("{{{many}}}")), None);
    assert_eq!(
        dup(&format!("{{{many} :k3 0}}")).as_deref(),
        Some("duplicate key :k3 in map literal")
    );
    assert_eq!(data("'x"), val("[quote x]"));
    // A quoted (var x) is a list; only read_value reads #'x as a var.
    assert_eq!(data("#'x"), val("[var x]"));
    let Value::Regex(re) = data(r#"#"\d+""#) else {
        panic!()
    };
    assert_eq!(re.find("ab12").map(|m| m.as_str()), Some("12"));
    let e = form_to_value(&read1(r#"#"(unclosed""#)).unwrap_err();
    assert_eq!(e.kind(), crate::ErrorKind::Execution, "{e:?}");
    assert!(e.message().contains("(unclosed"), "{e:?}");
    assert!(e.span().is_some());
}

#[test]
fn read_value_literals() {
    let v = val("{:a 1 :b [2 \"x\"]}");
    let Value::Map(m) = &v else {
        panic!("{:?}", v.type_name())
    };
    assert_eq!(m.len(), 2);
    assert_eq!(m.get(&Value::keyword("a")), Some(&Value::Int(1)));
    assert_eq!(
        m.get(&Value::keyword("b")),
        Some(&Value::vector_from([Value::Int(2), Value::string("x")]))
    );
    assert_eq!(
        val("#{1 2}"),
        Value::set_from([Value::Int(1), Value::Int(2)])
    );
    assert!(matches!(val("##NaN"), Value::Float(f) if f.is_nan()));
    assert_eq!(val("\"str\""), Value::string("str"));
    assert_eq!(val("\\backspace"), Value::string("\u{8}"));
    assert!(matches!(val("#'result"), Value::Var(n) if &*n == "result"));
    assert_eq!(val("[3.14 -0.5 2.5e10]"), val("[3.14 -0.5 2.5E10]"));
    assert_eq!(val("  [ 1  2  3 ]  "), val("[1,2,3]"));
    assert_eq!(val("nil"), Value::Nil);
    for bad in ["", "  ; nothing", "1 2", "[1] [2]"] {
        let e = read_value(bad).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Parse, "{bad:?}");
    }
}

/// A minimal printer of data values back to source, for the roundtrip.
fn print(v: &Value, out: &mut String) {
    let all = |out: &mut String, items: &mut dyn Iterator<Item = &Value>| {
        for (i, x) in items.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            print(x, out);
        }
    };
    match v {
        Value::Nil => out.push_str("nil"),
        Value::Bool(b) => out.push_str(&b.to_string()),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) if f.is_nan() => out.push_str("##NaN"),
        Value::Float(f) if f.is_infinite() => {
            out.push_str(if *f > 0.0 { "##Inf" } else { "##-Inf" })
        }
        Value::Float(f) => out.push_str(&format!("{f:?}")),
        Value::Str(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    '\r' => out.push_str("\\r"),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Value::Keyword(k) => {
            out.push(':');
            out.push_str(k);
        }
        Value::Symbol(s) => out.push_str(s),
        Value::Vector(items) => {
            out.push('[');
            all(out, &mut items.iter());
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            all(out, &mut m.iter().flat_map(|(k, v)| [k, v]));
            out.push('}');
        }
        Value::Set(s) => {
            out.push_str("#{");
            all(out, &mut s.iter());
            out.push('}');
        }
        other => panic!("no literal for {}", other.type_name()),
    }
}

fn roundtrip(src: &str) {
    let v = val(src);
    let mut text = String::new();
    print(&v, &mut text);
    assert_eq!(val(&text), v, "{src:?} printed as {text:?}");
}

#[test]
fn roundtrip_sanity() {
    for src in [
        "{:a 1 :b [2 \"x\"]}",
        "#{1 2 #{3} [4 5] {:k \"v\"}}",
        "[nil true false -7 0 1.5 -2.0 1e300 ##Inf ##-Inf]",
        r#"["a\"b\\c\n" "tab\there" "é😀" ""]"#,
        "[:a :a/b sym clojure.string/join ->> *1]",
        "{[1 2] {\"nested\" #{:x}} 3.25 nil}",
        "(1 (2 (3 (4 (5)))))",
    ] {
        roundtrip(src);
    }
}

proptest! {
    #[test]
    fn strings_roundtrip(s in "\\PC*") {
        let mut text = String::new();
        print(&Value::string(s.as_str()), &mut text);
        prop_assert_eq!(read_value(&text).unwrap(), Value::string(s.as_str()));
    }

    #[test]
    fn numbers_roundtrip(i in any::<i64>(), f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        prop_assert_eq!(read_value(&i.to_string()).unwrap(), Value::Int(i));
        let mut text = String::new();
        print(&Value::Float(f), &mut text);
        prop_assert_eq!(read_value(&text).unwrap(), Value::Float(f));
    }
}

#[test]
fn large_input_is_linear_enough() {
    // ~1 MB of typical source reads quickly even in debug builds.
    let unit =
        "(defn f [x] (->> x (map #(* % 2)) (filter even?) {:a \"str\" :b [1 2.5 :k]})) ; c\n";
    let src = unit.repeat(1_000_000 / unit.len());
    let start = std::time::Instant::now();
    let forms = read_all(&src).unwrap();
    assert_eq!(forms.len(), 1_000_000 / unit.len());
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

#[test]
fn deep_but_legal_nesting() {
    let depth = MAX_NESTING;
    let src = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let f = read1(&src);
    let v = form_to_value(&f).unwrap();
    assert!(matches!(v, Value::Vector(_)));
}
