//! Unit tests of the string builtins (and `format`).

use super::*;
use crate::builtins::strformat::format_fn;
use crate::error::ErrorKind;
use crate::value::Func;

fn s(x: &str) -> Value {
    Value::from(x)
}
fn strs(xs: &[&str]) -> Value {
    Value::vector_from(xs.iter().map(|x| Value::from(*x)))
}
fn re(src: &str) -> Value {
    Value::Regex(compile_regex(src).unwrap())
}
fn call(f: super::super::BuiltinFn, args: &[Value]) -> Result<Value> {
    let mut interp = Interp::standalone();
    f(&mut interp, args)
}
fn ok(f: super::super::BuiltinFn, args: &[Value]) -> String {
    match call(f, args) {
        Ok(v) => format::to_clojure(&v, None, None).0,
        Err(e) => panic!("unexpected error {e}"),
    }
}
fn err(f: super::super::BuiltinFn, args: &[Value]) -> ErrorKind {
    match call(f, args) {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(e) => e.kind(),
    }
}

#[test]
fn registry_names() {
    for name in [
        "blank?",
        "capitalize",
        "ends-with?",
        "escape",
        "includes?",
        "index-of",
        "join",
        "last-index-of",
        "lower-case",
        "replace",
        "replace-first",
        "reverse",
        "split",
        "split-lines",
        "starts-with?",
        "trim",
        "trim-newline",
        "triml",
        "trimr",
        "upper-case",
        "upcase",
        "downcase",
    ] {
        assert!(
            super::super::lookup_in(Ns::String, name).is_some(),
            "{name}"
        );
    }
    for name in [
        "str",
        "subs",
        "format",
        "re-find",
        "re-matches",
        "re-seq",
        "re-pattern",
        "char",
        "print-str",
        "pr-str",
        "prn-str",
        "name",
        "namespace",
        "keyword",
        "symbol",
    ] {
        assert!(super::super::lookup_in(Ns::Core, name).is_some(), "{name}");
    }
    assert!(super::super::lookup_in(Ns::Core, "join").is_none());
}

#[test]
fn str_concatenates_displays() {
    assert_eq!(ok(str_fn, &[]), "\"\"");
    assert_eq!(ok(str_fn, &[Value::Int(42)]), "\"42\"");
    assert_eq!(ok(str_fn, &[Value::Float(2.25)]), "\"2.25\"");
    assert_eq!(ok(str_fn, &[Value::Bool(false)]), "\"false\"");
    assert_eq!(ok(str_fn, &[Value::Nil, s("x")]), "\"x\"");
    assert_eq!(ok(str_fn, &[Value::Nil]), "\"\"");
    assert_eq!(
        ok(str_fn, &[Value::Float(0.1), Value::Float(0.2)]),
        "\"0.10.2\""
    );
    assert_eq!(
        ok(str_fn, &[Value::vector_from([Value::Int(1), s("a")])]),
        r#""[1 \"a\"]""#
    );
    assert_eq!(ok(str_fn, &[Value::keyword("k")]), "\":k\"");
    assert_eq!(ok(str_fn, &[s("count: "), Value::Int(42)]), "\"count: 42\"");
}

#[test]
fn str_doubling_hits_the_heap_limit() {
    let mut interp = Interp::standalone();
    let mut v = s("xxxxxxxxxxxxxxxx");
    let mut result = Ok(());
    for _ in 0..40 {
        match str_fn(&mut interp, &[v.clone(), v.clone()]) {
            Ok(n) => v = n,
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    assert_eq!(result.map_err(|e| e.kind()), Err(ErrorKind::MemoryExceeded));
    // A hugely shared value cannot be printed into a string either.
    let mut interp = Interp::standalone();
    let mut big = Value::Int(1);
    for _ in 0..60 {
        big = Value::vector_from([big.clone(), big]);
    }
    let e = str_fn(&mut interp, &[big]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MemoryExceeded);
}

#[test]
fn printing_to_strings() {
    assert_eq!(
        ok(print_str, &[s("a"), Value::Int(1), Value::Nil]),
        "\"a 1 nil\""
    );
    assert_eq!(ok(println_str, &[s("a")]), "\"a\\n\"");
    assert_eq!(ok(pr_str, &[s("a"), strs(&["b"])]), r#""\"a\" [\"b\"]""#);
    assert_eq!(ok(prn_str, &[Value::keyword("a")]), "\":a\\n\"");
    assert_eq!(ok(pr_str, &[Value::Nil]), "\"nil\"");
}

#[test]
fn subs_clamps() {
    assert_eq!(ok(subs, &[s("hello"), Value::Int(1)]), "\"ello\"");
    assert_eq!(
        ok(subs, &[s("hello"), Value::Int(0), Value::Int(0)]),
        "\"\""
    );
    assert_eq!(
        ok(subs, &[s("hello"), Value::Int(1), Value::Int(3)]),
        "\"el\""
    );
    assert_eq!(ok(subs, &[s("hello"), Value::Int(-1)]), "\"hello\"");
    assert_eq!(
        ok(subs, &[s("hello"), Value::Int(-10), Value::Int(2)]),
        "\"he\""
    );
    assert_eq!(ok(subs, &[s("hello"), Value::Int(10)]), "\"\"");
    assert_eq!(
        ok(subs, &[s("hello"), Value::Int(3), Value::Int(10)]),
        "\"lo\""
    );
    // An end before the start throws (issue 23), as in Clojure.
    assert_eq!(
        err(subs, &[s("hello"), Value::Int(4), Value::Int(2)]),
        ErrorKind::Execution
    );
    assert_eq!(
        ok(subs, &[s("λμνξ"), Value::Int(1), Value::Int(3)]),
        "\"μν\""
    );
    assert_eq!(err(subs, &[Value::Nil, Value::Int(1)]), ErrorKind::Type);
}

#[test]
fn split_like_java() {
    assert_eq!(ok(split, &[s("hello"), s("")]), r#"["h" "e" "l" "l" "o"]"#);
    assert_eq!(ok(split, &[s("a,,b"), s(",")]), r#"["a" "" "b"]"#);
    assert_eq!(ok(split, &[s("a,b,,"), s(",")]), r#"["a" "b"]"#);
    assert_eq!(ok(split, &[s(",a"), s(",")]), r#"["" "a"]"#);
    assert_eq!(ok(split, &[s(""), s(",")]), r#"[""]"#);
    assert_eq!(ok(split, &[s("a b  c"), re(" +")]), r#"["a" "b" "c"]"#);
    assert_eq!(ok(split, &[s("a b"), re(" ")]), r#"["a" "b"]"#);
    assert_eq!(
        ok(split, &[s("a,b,c"), s(","), Value::Int(2)]),
        r#"["a" "b,c"]"#
    );
    assert_eq!(
        ok(split, &[s("a,b,,"), s(","), Value::Int(-1)]),
        r#"["a" "b" "" ""]"#
    );
    assert_eq!(ok(split, &[s("abc"), re("")]), r#"["a" "b" "c"]"#);
}

/// Issue 58: PTC-Lisp's `(re-split re s)` is `(split s re)`; a string is
/// compiled as a regex (not a literal separator, as split takes it).
#[test]
fn re_split_is_split_with_the_regex_first() {
    assert_eq!(
        ok(re_split, &[re(r"\s*,\s*"), s("a , b,c")]),
        r#"["a" "b" "c"]"#
    );
    assert_eq!(ok(re_split, &[re(",+"), s("a,,b,,")]), r#"["a" "b"]"#);
    assert_eq!(ok(re_split, &[s("[.]"), s("1.2.3")]), r#"["1" "2" "3"]"#);
    assert_eq!(ok(re_split, &[s("."), s("ab")]), r#"[]"#);
    assert_eq!(err(re_split, &[s("a,b"), re(",")]), ErrorKind::Type);
    assert_eq!(err(re_split, &[re(","), Value::Nil]), ErrorKind::Type);
}

#[test]
fn split_lines_cases() {
    assert_eq!(ok(split_lines, &[s("a\nb\r\nc")]), r#"["a" "b" "c"]"#);
    assert_eq!(
        ok(split_lines, &[s("line1\nline2\n\n\n")]),
        r#"["line1" "line2"]"#
    );
    assert_eq!(
        ok(split_lines, &[s("line1\n\nline3")]),
        r#"["line1" "" "line3"]"#
    );
    assert_eq!(ok(split_lines, &[s("\n")]), "[]");
    assert_eq!(ok(split_lines, &[s("\n\n\n")]), "[]");
    assert_eq!(ok(split_lines, &[s("\r\n\r\n")]), "[]");
    assert_eq!(ok(split_lines, &[s("\nline1")]), r#"["" "line1"]"#);
    assert_eq!(ok(split_lines, &[s("\r")]), r#"["\r"]"#);
    assert_eq!(ok(split_lines, &[s("a\rb")]), r#"["a\rb"]"#);
    assert_eq!(ok(split_lines, &[s("")]), r#"[""]"#);
}

#[test]
fn join_cases() {
    assert_eq!(ok(join, &[s(", "), strs(&["a", "b", "c"])]), "\"a, b, c\"");
    assert_eq!(
        ok(
            join,
            &[s("-"), Value::vector_from([1, 2, 3].map(Value::Int))]
        ),
        "\"1-2-3\""
    );
    assert_eq!(ok(join, &[strs(&["a", "b", "c"])]), "\"abc\"");
    assert_eq!(ok(join, &[s(","), Value::empty_vector()]), "\"\"");
    assert_eq!(
        ok(
            join,
            &[s(","), Value::vector_from([s("a"), Value::Nil, s("b")])]
        ),
        "\"a,,b\""
    );
    assert_eq!(ok(join, &[s(""), s("cba")]), "\"cba\"");
    assert_eq!(ok(join, &[s(","), Value::Nil]), "\"\"");
    assert_eq!(err(join, &[strs(&["a"]), s(",")]), ErrorKind::Type);
    assert_eq!(ok(join, &[s("é"), strs(&["ü", "", "x"])]), "\"üééx\"");
}

/// Strings alone are joined at their exact length, the others printed:
/// both stop at the heap room, with the same error.
#[test]
fn join_stops_at_the_heap_room() {
    let piece = s(&"x".repeat(1 << 16));
    let texts = Value::vector_from(std::iter::repeat_n(piece.clone(), 200));
    let mixed = Value::vector_from(std::iter::repeat_n(piece, 199).chain([Value::Int(1)]));
    let (whole, short) = (200 * (1 << 16) + 199, 199 * (1 << 16) + 1 + 199);
    for (coll, len) in [(texts, whole), (mixed, short)] {
        assert_eq!(
            err(join, &[s(","), coll.clone()]),
            ErrorKind::MemoryExceeded
        );
        let mut interp = Interp::standalone();
        interp.budget.limits.max_heap_bytes = None;
        let joined = join(&mut interp, &[s(","), coll]).unwrap();
        assert_eq!(joined.as_str().map(str::len), Some(len));
    }
}

#[test]
fn trims_and_cases() {
    assert_eq!(ok(trim, &[s("\n\tworld\r\n")]), "\"world\"");
    assert_eq!(ok(trim, &[s("  hi  ")]), "\"hi\"");
    assert_eq!(ok(triml, &[s("  hi  ")]), "\"hi  \"");
    assert_eq!(ok(trimr, &[s("  hi  ")]), "\"  hi\"");
    assert_eq!(ok(trim_newline, &[s("hi\r\n\n")]), "\"hi\"");
    assert_eq!(ok(upper_case, &[s("HeLLo")]), "\"HELLO\"");
    assert_eq!(ok(lower_case, &[s("WORLD")]), "\"world\"");
    assert_eq!(ok(capitalize, &[s("hELLO")]), "\"Hello\"");
    assert_eq!(ok(capitalize, &[s("")]), "\"\"");
    assert_eq!(ok(reverse, &[s("abc")]), "\"cba\"");
    assert_eq!(ok(blank, &[Value::Nil]), "true");
    assert_eq!(ok(blank, &[s(" \t\n")]), "true");
    assert_eq!(ok(blank, &[s(" a ")]), "false");
    assert_eq!(err(upper_case, &[Value::Nil]), ErrorKind::Type);
}

/// `upper-case`/`lower-case` of ASCII texts (every ASCII byte, at every
/// offset of the eight-byte chunks, in texts of 0 to 40 bytes) and of
/// non-ASCII ones give what `str::to_uppercase`/`to_lowercase` give.
#[test]
fn cases_are_std_cases() {
    let all: String = (0u8..0x80).map(char::from).collect();
    let mut texts: Vec<String> = (0..=40)
        .flat_map(|len| (0..all.len()).step_by(7).map(move |at| (at, len)))
        .map(|(at, len)| all.chars().cycle().skip(at).take(len).collect())
        .collect();
    texts.extend(["Straße", "ÉCOLE école", "ǅ-ǆ-Ǆ"].map(String::from));
    for t in &texts {
        let up = call(upper_case, &[s(t)]).unwrap();
        assert_eq!(up.as_str(), Some(t.to_uppercase().as_str()), "{t:?}");
        let low = call(lower_case, &[s(t)]).unwrap();
        assert_eq!(low.as_str(), Some(t.to_lowercase().as_str()), "{t:?}");
    }
}

#[test]
fn predicates_and_indices() {
    assert_eq!(ok(starts_with, &[s("hello"), s("he")]), "true");
    assert_eq!(ok(starts_with, &[s("hello"), s("lo")]), "false");
    assert_eq!(ok(ends_with, &[s("hello"), s("lo")]), "true");
    assert_eq!(ok(ends_with, &[s("hello"), s("")]), "true");
    assert_eq!(ok(includes, &[s("hello"), s("ll")]), "true");
    assert_eq!(ok(includes, &[s("hello"), s("x")]), "false");
    assert_eq!(ok(includes, &[s("hello"), s("")]), "true");
    assert_eq!(ok(index_of, &[s("hello"), s("l")]), "2");
    assert_eq!(ok(index_of, &[s("hello"), s("l"), Value::Int(3)]), "3");
    assert_eq!(ok(index_of, &[s("hello"), s("z")]), "nil");
    assert_eq!(ok(index_of, &[s("λλx"), s("x")]), "2");
    assert_eq!(ok(last_index_of, &[s("hello"), s("l")]), "3");
    assert_eq!(ok(last_index_of, &[s("hello"), s("l"), Value::Int(2)]), "2");
    assert_eq!(
        ok(last_index_of, &[s("hello"), s("l"), Value::Int(1)]),
        "nil"
    );
    assert_eq!(ok(last_index_of, &[s("λλxλx"), s("x")]), "4");
}

#[test]
fn replace_cases() {
    assert_eq!(ok(replace, &[s("hello"), s("l"), s("L")]), "\"heLLo\"");
    assert_eq!(ok(replace, &[s("aaa"), s("a"), s("b")]), "\"bbb\"");
    assert_eq!(ok(replace, &[s("aXb"), s("X"), s("$1")]), "\"a$1b\"");
    assert_eq!(ok(replace, &[s("a1b22"), re("\\d+"), s("#")]), "\"a#b#\"");
    assert_eq!(
        ok(
            replace,
            &[s("john smith"), re("(\\w+) (\\w+)"), s("$2, $1")]
        ),
        "\"smith, john\""
    );
    assert_eq!(ok(replace, &[s("a.b"), re("\\."), s("\\$")]), "\"a$b\"");
    assert_eq!(
        err(replace, &[s("ab"), re("(a)"), s("$2")]),
        ErrorKind::Execution
    );
    let up = Func::native("up", |_, args| {
        Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase()))
    });
    assert_eq!(ok(replace, &[s("a b"), re("[a-z]"), up.clone()]), "\"A B\"");
    let first_group = Func::native("g", |_, args| {
        Ok(args[0]
            .as_vector()
            .and_then(|v| v.get(1).cloned())
            .unwrap_or(Value::Nil))
    });
    assert_eq!(
        ok(replace, &[s("x1 y2"), re("[a-z](\\d)"), first_group]),
        "\"1 2\""
    );
    assert_eq!(
        ok(replace_first, &[s("a-b-c"), s("-"), s("+")]),
        "\"a+b-c\""
    );
    assert_eq!(
        ok(replace_first, &[s("a1b2"), re("\\d"), s("<$0>")]),
        "\"a<1>b2\""
    );
    let bang = Func::native("bang", |_, _| Ok(Value::from("!")));
    assert_eq!(ok(replace, &[s("a.b.c"), s("."), bang]), "\"a!b!c\"");
    assert_eq!(ok(replace, &[s("ab"), re("[a-z]"), up]), "\"AB\"");
}

/// A literal `replace`/`replace-first` gives what `str::replace` and
/// `str::replacen` give, on every path of its writer: the ASCII byte swap,
/// one-byte matches in short and long texts (a scan and memchr), longer
/// and empty matches, non-ASCII texts around them.
#[test]
fn literal_replace_is_str_replace() {
    let long = format!("{}-é-{}", "ab-".repeat(40), "ü".repeat(30));
    let texts = ["", "a-b-c", "--", "héllo-wörld-", "aaaa", long.as_str()];
    let pairs = [
        ("-", "_"),
        ("-", "__"),
        ("-", ""),
        ("-", "é"),
        ("aa", "b"),
        ("ö", "o"),
        ("", "+"),
        ("ab-", "x"),
    ];
    for t in texts {
        for (m, r) in pairs {
            let all = call(replace, &[s(t), s(m), s(r)]).unwrap();
            assert_eq!(
                all.as_str(),
                Some(t.replace(m, r).as_str()),
                "{t:?} {m:?} {r:?}"
            );
            let first = call(replace_first, &[s(t), s(m), s(r)]).unwrap();
            assert_eq!(
                first.as_str(),
                Some(t.replacen(m, r, 1).as_str()),
                "{t:?} {m:?} {r:?}"
            );
        }
    }
}

#[test]
fn regex_functions() {
    assert_eq!(ok(re_find, &[re("\\d+"), s("v1")]), "\"1\"");
    assert_eq!(ok(re_find, &[re("\\d+"), s("abc")]), "nil");
    assert_eq!(
        ok(re_find, &[re("(\\d+)-(\\d+)"), s("range: 10-20")]),
        r#"["10-20" "10" "20"]"#
    );
    assert_eq!(ok(re_find, &[re("(a)|(b)"), s("b")]), r#"["b" nil "b"]"#);
    assert_eq!(ok(re_matches, &[re("\\d+"), s("123")]), "\"123\"");
    assert_eq!(ok(re_matches, &[re("(\\d+)"), s("x1")]), "nil");
    assert_eq!(
        ok(re_matches, &[re("(\\w+)@(\\w+)"), s("bob@host")]),
        r#"["bob@host" "bob" "host"]"#
    );
    assert_eq!(ok(re_matches, &[re("a|ab"), s("ab")]), "\"ab\"");
    assert_eq!(
        ok(re_seq, &[re("\\d+"), s("a1 b22 c333")]),
        r#"["1" "22" "333"]"#
    );
    assert_eq!(ok(re_seq, &[re("\\d+"), s("abc")]), "nil");
    assert_eq!(
        ok(re_seq, &[re("(\\w)(\\d)"), s("a1 b2")]),
        r#"[["a1" "a" "1"] ["b2" "b" "2"]]"#
    );
    assert_eq!(ok(re_find, &[re("x"), Value::Nil]), "nil");
    let long = format!("{}last", "λ".repeat(5000));
    assert_eq!(ok(re_find, &[re("last"), s(&long)]), "\"last\"");
    assert_eq!(ok(re_pattern, &[s("\\d+")]), r#"#"\d+""#);
    assert_eq!(err(re_pattern, &[s("[")]), ErrorKind::Execution);
    let e = call(re_pattern, &[s("a(?=b)")]).unwrap_err();
    assert!(e.hint().is_some_and(|h| h.contains("lookahead")));
}

#[test]
fn java_regex_syntax_is_translated() {
    let m = |src: &str, text: &str| ok(re_find, &[re(src), s(text)]);
    assert_eq!(m("\\p{Alpha}+", "12abc3"), "\"abc\"");
    assert_eq!(m("\\p{Punct}", "ab!c"), "\"!\"");
    assert_eq!(m("\\Qa.b\\E", "axb a.b"), "\"a.b\"");
    assert_eq!(m("a++b", "aaab"), "\"aaab\"");
    assert_eq!(m("(?>ab)c", "abc"), "\"abc\"");
    assert_eq!(m("\\p{IsAlphabetic}+", "1ab"), "\"ab\"");
    assert_eq!(m("x\\h+y", "x \t y"), "\"x \\t y\"");
}

#[test]
fn format_directives() {
    let f = |args: &[Value]| ok(format_fn, args);
    assert_eq!(f(&[s("%s-%s"), s("a"), Value::Int(1)]), "\"a-1\"");
    assert_eq!(f(&[s("%d items"), Value::Int(3)]), "\"3 items\"");
    assert_eq!(f(&[s("%.2f"), Value::Float(1.23456)]), "\"1.23\"");
    assert_eq!(f(&[s("%.2f"), Value::Float(2.675)]), "\"2.68\"");
    assert_eq!(f(&[s("%.2f"), Value::Float(3.0)]), "\"3.00\"");
    assert_eq!(f(&[s("%f"), Value::Float(1.5)]), "\"1.500000\"");
    assert_eq!(f(&[s("%.0f"), Value::Float(2.5)]), "\"3\"");
    assert_eq!(f(&[s("%.1f"), Value::Float(0.05)]), "\"0.1\"");
    assert_eq!(f(&[s("%.1f"), Value::Float(9.96)]), "\"10.0\"");
    assert_eq!(f(&[s("%.3f"), Value::Float(0.0004)]), "\"0.000\"");
    assert_eq!(f(&[s("%.3f"), Value::Float(0.0005)]), "\"0.001\"");
    assert_eq!(f(&[s("%.2f"), Value::Float(-1.005)]), "\"-1.01\"");
    assert_eq!(f(&[s("%5d|"), Value::Int(42)]), "\"   42|\"");
    assert_eq!(f(&[s("%-5s|"), s("ab")]), "\"ab   |\"");
    assert_eq!(f(&[s("%05d"), Value::Int(-42)]), "\"-0042\"");
    assert_eq!(f(&[s("%,d"), Value::Int(1234567)]), "\"1,234,567\"");
    assert_eq!(
        f(&[s("%,.2f"), Value::Float(1234567.891)]),
        "\"1,234,567.89\""
    );
    assert_eq!(f(&[s("%+d"), Value::Int(5)]), "\"+5\"");
    assert_eq!(
        f(&[s("%x %X"), Value::Int(255), Value::Int(255)]),
        "\"ff FF\""
    );
    assert_eq!(f(&[s("100%%%n")]), "\"100%\\n\"");
    assert_eq!(f(&[s("%e"), Value::Float(12345.678)]), "\"1.234568e+04\"");
    assert_eq!(f(&[s("%.2e"), Value::Float(0.000123)]), "\"1.23e-04\"");
    assert_eq!(f(&[s("%g"), Value::Float(0.0001)]), "\"0.000100000\"");
    assert_eq!(f(&[s("%g"), Value::Float(123456789.0)]), "\"1.23457e+08\"");
    assert_eq!(
        f(&[s("%b %b"), Value::Nil, Value::Int(0)]),
        "\"false true\""
    );
    assert_eq!(f(&[s("%c%c"), s("a"), Value::Int(98)]), "\"ab\"");
    assert_eq!(f(&[s("%2$s %1$s"), s("a"), s("b")]), "\"b a\"");
    assert_eq!(f(&[s("%s"), Value::Nil]), "\"null\"");
    assert_eq!(
        f(&[
            s("%s"),
            Value::map_from([(Value::keyword("a"), Value::Int(1))])
        ]),
        "\"{:a 1}\""
    );
    assert_eq!(f(&[s("%.3s"), s("abcdef")]), "\"abc\"");
    // Java: %d of a float, even an integral one, is an error.
    assert_eq!(
        err(format_fn, &[s("%d"), Value::Float(5.0)]),
        ErrorKind::Type
    );
    assert_eq!(err(format_fn, &[s("%.2f"), Value::Int(3)]), ErrorKind::Type);
    assert_eq!(f(&[s("%.2f"), Value::Float(0.0)]), "\"0.00\"");
    assert_eq!(
        f(&[s("%.1f"), Value::Float(1e20)]),
        "\"100000000000000000000.0\""
    );
    assert_eq!(
        err(format_fn, &[s("%d"), Value::Float(1.5)]),
        ErrorKind::Type
    );
    assert_eq!(err(format_fn, &[s("%d")]), ErrorKind::Execution);
    assert_eq!(
        err(format_fn, &[s("%q"), Value::Int(1)]),
        ErrorKind::Execution
    );
    assert_eq!(err(format_fn, &[s("50%")]), ErrorKind::Execution);
    assert_eq!(
        err(format_fn, &[s("%99999999999s"), s("x")]),
        ErrorKind::Execution
    );
    assert_eq!(
        err(format_fn, &[s("%.99999999999f"), Value::Float(1.0)]),
        ErrorKind::Execution
    );
}

#[test]
fn names_and_keywords() {
    assert_eq!(ok(name_fn, &[Value::keyword("user/id")]), "\"id\"");
    assert_eq!(ok(name_fn, &[Value::keyword("id")]), "\"id\"");
    assert_eq!(ok(name_fn, &[s("a/b")]), "\"a/b\"");
    assert_eq!(ok(name_fn, &[Value::symbol("x")]), "\"x\"");
    assert_eq!(err(name_fn, &[Value::Nil]), ErrorKind::Type);
    assert_eq!(ok(namespace_fn, &[Value::keyword("user/id")]), "\"user\"");
    assert_eq!(ok(namespace_fn, &[Value::keyword("id")]), "nil");
    assert_eq!(ok(keyword_fn, &[s("status")]), ":status");
    assert_eq!(ok(keyword_fn, &[Value::keyword("a")]), ":a");
    assert_eq!(ok(keyword_fn, &[Value::Nil]), "nil");
    assert_eq!(ok(keyword_fn, &[Value::Int(1)]), "nil");
    assert_eq!(ok(keyword_fn, &[s("ns"), s("n")]), ":ns/n");
    assert_eq!(ok(keyword_fn, &[Value::Nil, s("n")]), ":n");
    assert_eq!(ok(symbol_fn, &[s("x")]), "x");
    assert_eq!(ok(symbol_fn, &[s("ns"), s("x")]), "ns/x");
    assert_eq!(ok(char_fn, &[Value::Int(97)]), "\"a\"");
    assert_eq!(ok(char_fn, &[s("a")]), "\"a\"");
    assert_eq!(err(char_fn, &[Value::Int(-1)]), ErrorKind::Execution);
}

#[test]
fn escape_with_map_and_fn() {
    let m = Value::map_from([(s("<"), s("&lt;")), (s(">"), s("&gt;"))]);
    assert_eq!(ok(escape, &[s("a<b>"), m]), "\"a&lt;b&gt;\"");
    let f = Func::native("f", |_, args| {
        Ok(if args[0].as_str() == Some("a") {
            Value::Int(1)
        } else {
            Value::Nil
        })
    });
    assert_eq!(ok(escape, &[s("abc"), f]), "\"1bc\"");
}

#[test]
fn characters_are_counted_and_found_alike_in_ascii_and_other_text() {
    use super::{byte_at, char_count};
    // The ASCII shortcut against the character walk it stands in for.
    for text in [
        "",
        "a",
        "item-42-gamma",
        "h\u{e9}llo",
        "\u{1f600}x\u{e9}",
        "abc\u{e9}",
    ] {
        assert_eq!(char_count(text), text.chars().count(), "{text:?}");
        for i in 0..text.len() + 2 {
            let walked = text.char_indices().nth(i).map_or(text.len(), |(b, _)| b);
            assert_eq!(byte_at(text, i), walked, "{text:?} at {i}");
        }
    }
}
