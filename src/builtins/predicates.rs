//! Builtins: predicates — type tests, truth tests, emptiness, identity and
//! `type`.
//!
//! PTC-Lisp has one sequential type (lists, seqs and the results of
//! `map`/`filter` … are all vectors, `language.md`), so the predicates that
//! tell sequential kinds apart in Clojure all answer for that one type:
//! `vector?`, `list?`, `seq?`, `sequential?` are true for every vector (and
//! `seq?`/`sequential?` for the infinite sequences of `range`, `iterate` …).
//! So `(seq? (map inc xs))` and `(list? '(1 2))` are true as in Clojure, and
//! `(seq? [1 2])` is true where Clojure says false.
//!
//! Other decisions:
//! * characters are one-character strings: `(char? "a")` is true.
//! * `map-entry?` is true for any two-element vector (entries are vectors).
//! * maps and sets are kept in sorted (canonical) order, so `sorted?` is true
//!   for every map and set; `reversible?` is true for vectors only.
//! * `(type x)` is a keyword naming the type: `:integer :float :string
//!   :keyword :symbol :boolean :vector :map :set :function :regex :var
//!   :lazy-seq :reduced`, and `nil` for nil (as Clojure's `(type nil)`).
//!   There are no Java classes to return.
//! * `empty?` of a non-collection is a `type-error`, as in Clojure; an
//!   infinite sequence is never empty.

use super::{args, Arity, Builtin};
use crate::error::Result;
use crate::eval::Interp;
use crate::value::{Set, Value};

pub const BUILTINS: &[Builtin] = &[
    // Truth.
    Builtin::new("nil?", Arity::exact(1), "True if x is nil.", is_nil).example("(nil? nil) ;=> true"),
    Builtin::new("some?", Arity::exact(1), "True if x is not nil (false counts as some).", is_some)
        .example("(some? false) ;=> true"),
    Builtin::new("true?", Arity::exact(1), "True if x is the value true.", is_true).example("(true? 1) ;=> false"),
    Builtin::new("false?", Arity::exact(1), "True if x is the value false.", is_false)
        .example("(false? nil) ;=> false"),
    Builtin::new("not", Arity::exact(1), "true for nil and false, false for everything else.", not)
        .example("(not 0) ;=> false"),
    Builtin::new("any?", Arity::exact(1), "Always true.", any).example("(any? nil) ;=> true"),
    Builtin::new("identity", Arity::exact(1), "Returns its argument.", identity)
        .example("(filter identity [1 nil 2]) ;=> [1 2]"),
    Builtin::new("identical?", Arity::exact(2), "True if x and y are the same object (equal scalars count as the same).", is_identical)
        .example("(identical? :a :a) ;=> true"),
    // Scalars.
    Builtin::new("string?", Arity::exact(1), "True if x is a string.", is_string).example("(string? \"a\") ;=> true"),
    Builtin::new("char?", Arity::exact(1), "True if x is a one-character string (characters are strings).", is_char)
        .example("(char? (first \"abc\")) ;=> true"),
    Builtin::new("number?", Arity::exact(1), "True if x is an integer or a float.", is_number)
        .example("(number? 1.5) ;=> true"),
    Builtin::new("int?", Arity::exact(1), "True if x is an integer.", is_int).example("(int? 5) ;=> true"),
    Builtin::new("integer?", Arity::exact(1), "True if x is an integer (floats are not).", is_int)
        .example("(integer? 5.0) ;=> false"),
    Builtin::new("nat-int?", Arity::exact(1), "True if x is an integer >= 0.", is_nat_int)
        .example("(nat-int? 0) ;=> true"),
    Builtin::new("pos-int?", Arity::exact(1), "True if x is an integer > 0.", is_pos_int)
        .example("(pos-int? 3) ;=> true"),
    Builtin::new("neg-int?", Arity::exact(1), "True if x is an integer < 0.", is_neg_int)
        .example("(neg-int? -3) ;=> true"),
    Builtin::new("float?", Arity::exact(1), "True if x is a float.", is_float).example("(float? 1.0) ;=> true"),
    Builtin::new("double?", Arity::exact(1), "True if x is a float.", is_float).example("(double? 1.0) ;=> true"),
    Builtin::new("decimal?", Arity::exact(1), "Always false (there are no BigDecimals).", always_false)
        .example("(decimal? 1.5) ;=> false"),
    Builtin::new("ratio?", Arity::exact(1), "Always false (there are no ratios; / gives floats).", always_false)
        .example("(ratio? 0.5) ;=> false"),
    Builtin::new("rational?", Arity::exact(1), "True if x is an integer (there are no ratios).", is_int)
        .example("(rational? 3) ;=> true"),
    Builtin::new("boolean?", Arity::exact(1), "True if x is true or false.", is_boolean)
        .example("(boolean? false) ;=> true"),
    Builtin::new("keyword?", Arity::exact(1), "True if x is a keyword.", is_keyword)
        .example("(keyword? :a) ;=> true"),
    Builtin::new("symbol?", Arity::exact(1), "True if x is a symbol.", is_symbol)
        .example("(symbol? 'a) ;=> true"),
    Builtin::new("regex?", Arity::exact(1), "True if x is a regex.", is_regex)
        .example("(regex? #\"a+\") ;=> true"),
    Builtin::new("fn?", Arity::exact(1), "True if x is a function.", is_fn).example("(fn? inc) ;=> true"),
    Builtin::new("ifn?", Arity::exact(1), "True if x can be called: functions, keywords, maps, sets, vectors, symbols.", is_ifn)
        .example("(ifn? :a) ;=> true"),
    // Collections.
    Builtin::new("map?", Arity::exact(1), "True if x is a map.", is_map).example("(map? {}) ;=> true"),
    Builtin::new("vector?", Arity::exact(1), "True if x is a vector (lists and seqs are vectors).", is_vector)
        .example("(vector? [1]) ;=> true"),
    Builtin::new("list?", Arity::exact(1), "True if x is a list (lists are vectors, so any vector).", is_vector)
        .example("(list? '(1 2)) ;=> true"),
    Builtin::new("set?", Arity::exact(1), "True if x is a set.", is_set).example("(set? #{1}) ;=> true"),
    Builtin::new("coll?", Arity::exact(1), "True if x is a collection: vector, map, set or sequence (not a string).", is_coll)
        .example("(coll? {:a 1}) ;=> true"),
    Builtin::new("seq?", Arity::exact(1), "True if x is a sequence (lists and seqs are vectors, so any vector).", is_sequential)
        .example("(seq? (map inc [1])) ;=> true"),
    Builtin::new("sequential?", Arity::exact(1), "True if x is a vector or another sequence.", is_sequential)
        .example("(sequential? [1]) ;=> true"),
    Builtin::new("associative?", Arity::exact(1), "True for maps and vectors.", is_associative)
        .example("(associative? [1]) ;=> true"),
    Builtin::new("counted?", Arity::exact(1), "True for vectors, maps and sets.", is_counted)
        .example("(counted? #{}) ;=> true"),
    Builtin::new("indexed?", Arity::exact(1), "True for vectors.", is_vector).example("(indexed? [1]) ;=> true"),
    Builtin::new("reversible?", Arity::exact(1), "True for vectors.", is_vector)
        .example("(reversible? [1]) ;=> true"),
    Builtin::new("sorted?", Arity::exact(1), "True for maps and sets (they are always kept in sorted order).", is_sorted)
        .example("(sorted? (sorted-set 3 1)) ;=> true"),
    Builtin::new("seqable?", Arity::exact(1), "True if seq works on x: nil, collections, strings.", is_seqable)
        .example("(seqable? \"abc\") ;=> true"),
    Builtin::new("map-entry?", Arity::exact(1), "True for a two-element vector (map entries are [k v] vectors).", is_map_entry)
        .example("(map-entry? (first {:a 1})) ;=> true"),
    Builtin::new("empty?", Arity::exact(1), "True if the collection or string has no items; (empty? nil) is true.", is_empty)
        .example("(empty? []) ;=> true"),
    Builtin::new("not-empty", Arity::exact(1), "The collection or string if it has items, else nil.", not_empty)
        .example("(not-empty \"\") ;=> nil"),
    Builtin::new("distinct?", Arity::at_least(1), "True if no two arguments are equal.", is_distinct)
        .example("(distinct? 1 2 3) ;=> true"),
    Builtin::new("type", Arity::exact(1), "A keyword naming x's type (:integer :float :string :keyword :vector :map :set :function …); nil for nil.", type_of)
        .example("(type 1.5) ;=> :float"),
];

fn test(v: bool) -> Result<Value> {
    Ok(Value::Bool(v))
}

fn is_nil(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(a[0].is_nil())
}
fn is_some(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(!a[0].is_nil())
}
fn is_true(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Bool(true)))
}
fn is_false(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Bool(false)))
}
fn not(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(!a[0].truthy())
}
fn any(_: &mut Interp, _: &[Value]) -> Result<Value> {
    test(true)
}
fn always_false(_: &mut Interp, _: &[Value]) -> Result<Value> {
    test(false)
}
fn identity(_: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(a[0].clone())
}

fn is_identical(_: &mut Interp, a: &[Value]) -> Result<Value> {
    use std::sync::Arc;
    let same = match (&a[0], &a[1]) {
        (Value::Vector(x), Value::Vector(y)) => x.ptr_eq(y),
        (Value::Map(x), Value::Map(y)) => x.ptr_eq(y) || (x.is_empty() && y.is_empty()),
        (Value::Set(x), Value::Set(y)) => x.ptr_eq(y) || (x.is_empty() && y.is_empty()),
        (Value::Fn(x), Value::Fn(y)) => x.addr() == y.addr(),
        (Value::Lazy(x), Value::Lazy(y)) => Arc::ptr_eq(x, y),
        (Value::Regex(x), Value::Regex(y)) => Arc::ptr_eq(x, y),
        (x, y) => x == y,
    };
    test(same)
}

fn is_string(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Str(_)))
}
fn is_char(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(&a[0], Value::Str(s) if crate::builtins::args::is_one_char(s)))
}
fn is_number(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(a[0].is_number())
}
fn is_int(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Int(_)))
}
fn is_nat_int(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Int(i) if i >= 0))
}
fn is_pos_int(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Int(i) if i > 0))
}
fn is_neg_int(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Int(i) if i < 0))
}
fn is_float(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Float(_)))
}
fn is_boolean(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Bool(_)))
}
fn is_keyword(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Keyword(_)))
}
fn is_symbol(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Symbol(_)))
}
fn is_regex(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Regex(_)))
}
fn is_fn(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Fn(_)))
}
fn is_ifn(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(
        a[0],
        Value::Fn(_)
            | Value::Keyword(_)
            | Value::Map(_)
            | Value::Set(_)
            | Value::Vector(_)
            | Value::Symbol(_)
            | Value::Var(_)
    ))
}

fn is_map(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Map(_)))
}
fn is_vector(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Vector(_)))
}
fn is_set(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Set(_)))
}
fn is_coll(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(
        a[0],
        Value::Vector(_) | Value::Map(_) | Value::Set(_) | Value::Lazy(_)
    ))
}
fn is_sequential(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Vector(_) | Value::Lazy(_)))
}
fn is_associative(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Vector(_) | Value::Map(_)))
}
fn is_counted(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(
        a[0],
        Value::Vector(_) | Value::Map(_) | Value::Set(_)
    ))
}
fn is_sorted(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(a[0], Value::Map(_) | Value::Set(_)))
}
fn is_seqable(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(
        a[0],
        Value::Nil
            | Value::Vector(_)
            | Value::Map(_)
            | Value::Set(_)
            | Value::Str(_)
            | Value::Lazy(_)
    ))
}
fn is_map_entry(_: &mut Interp, a: &[Value]) -> Result<Value> {
    test(matches!(&a[0], Value::Vector(v) if v.len() == 2))
}

pub(crate) fn is_empty(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Lazy(_) => test(false),
        v => match args::count("empty?", v) {
            Ok(n) => test(n == 0),
            Err(_) => Err(args::type_error("empty?", "a collection or string", v)),
        },
    }
}

fn not_empty(_: &mut Interp, a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Lazy(_) => Ok(a[0].clone()),
        v => match args::count("not-empty", v) {
            Ok(0) => Ok(Value::Nil),
            Ok(_) => Ok(v.clone()),
            Err(_) => Err(args::type_error("not-empty", "a collection or string", v)),
        },
    }
}

fn is_distinct(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let mut seen = Set::new();
    for v in a {
        interp.tick(1)?;
        if seen.insert(v.clone()).is_some() {
            return test(false);
        }
    }
    test(true)
}

fn type_of(_: &mut Interp, a: &[Value]) -> Result<Value> {
    let name = match &a[0] {
        Value::Nil => return Ok(Value::Nil),
        Value::Lazy(_) => "lazy-seq",
        v => v.type_name(),
    };
    Ok(Value::keyword(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{call_in, s};
    use crate::error::ErrorKind;
    use crate::value::Func;

    fn call(name: &str, args: &[Value]) -> Result<Value> {
        call_in(BUILTINS, name, args)
    }

    #[track_caller]
    fn check(name: &str, args: &[Value], want: Value) {
        let got = call(name, args).unwrap_or_else(|e| panic!("({name} {args:?}) failed: {e}"));
        assert_eq!(got, want, "({name} {args:?})");
    }

    #[track_caller]
    fn yes(name: &str, v: Value) {
        check(name, &[v], Value::Bool(true));
    }
    #[track_caller]
    fn no(name: &str, v: Value) {
        check(name, &[v], Value::Bool(false));
    }

    fn kw(x: &str) -> Value {
        Value::keyword(x)
    }
    fn vecv(items: &[Value]) -> Value {
        Value::vector_from(items.iter().cloned())
    }
    fn map1() -> Value {
        Value::map_from([(kw("a"), Value::Int(1))])
    }

    #[test]
    fn truth() {
        yes("nil?", Value::Nil);
        no("nil?", Value::Bool(false));
        no("some?", Value::Nil);
        yes("some?", Value::Bool(false));
        yes("not", Value::Nil);
        no("not", Value::Int(0));
        yes("true?", Value::Bool(true));
        no("true?", Value::Int(1));
        yes("false?", Value::Bool(false));
        no("false?", Value::Nil);
        yes("any?", Value::Nil);
        check("identity", &[Value::Int(3)], Value::Int(3));
    }

    #[test]
    fn scalar_types() {
        yes("boolean?", Value::Bool(false));
        no("boolean?", Value::Nil);
        yes("number?", Value::Float(1.5));
        yes("number?", Value::Float(f64::NAN));
        yes("number?", Value::Float(f64::INFINITY));
        yes("string?", s("a"));
        yes("char?", s("a"));
        no("char?", s("ab"));
        no("char?", s(""));
        yes("keyword?", kw("a"));
        no("keyword?", s("a"));
        yes("symbol?", Value::symbol("a"));
        yes("int?", Value::Int(1));
        yes("integer?", Value::Int(1));
        no("integer?", Value::Float(1.0));
        yes("float?", Value::Float(1.0));
        yes("double?", Value::Float(1.0));
        no("double?", Value::Int(1));
        no("decimal?", Value::Float(1.5));
        no("ratio?", Value::Float(0.5));
        yes("rational?", Value::Int(3));
        no("rational?", Value::Float(0.5));
        yes("nat-int?", Value::Int(0));
        no("pos-int?", Value::Int(0));
        yes("neg-int?", Value::Int(-1));
        no("neg-int?", Value::Float(-1.0));
        let re = crate::value::regex::compile_regex("a+").map(Value::Regex);
        yes("regex?", re.unwrap_or(Value::Nil));
        no("regex?", s("a+"));
    }

    #[test]
    fn functions() {
        let f = Func::native("f", |_, _| Ok(Value::Nil));
        yes("fn?", f.clone());
        no("fn?", kw("a"));
        yes("ifn?", f);
        yes("ifn?", kw("a"));
        yes("ifn?", map1());
        no("ifn?", s("a"));
    }

    #[test]
    fn collection_types() {
        no("vector?", Value::map_from([]));
        no("map?", Value::empty_vector());
        yes("map?", map1());
        yes("set?", Value::set_from([Value::Int(1)]));
        no("set?", vecv(&[Value::Int(1)]));
        yes("coll?", vecv(&[Value::Int(1), Value::Int(2)]));
        yes("coll?", map1());
        no("coll?", s("abc"));
        no("coll?", Value::Nil);
        yes("list?", vecv(&[Value::Int(1)]));
        yes("seq?", vecv(&[Value::Int(1)]));
        no("seq?", map1());
        yes("sequential?", Value::empty_vector());
        no("sequential?", Value::set_from([]));
        yes("associative?", map1());
        yes("associative?", Value::empty_vector());
        no("associative?", Value::set_from([]));
        yes("counted?", Value::set_from([]));
        no("counted?", s("abc"));
        yes("indexed?", Value::empty_vector());
        yes("reversible?", Value::empty_vector());
        yes("sorted?", Value::set_from([]));
        no("sorted?", Value::empty_vector());
        yes("seqable?", Value::Nil);
        yes("seqable?", s("abc"));
        no("seqable?", Value::Int(1));
        yes("map-entry?", vecv(&[kw("a"), Value::Int(1)]));
        no("map-entry?", vecv(&[kw("a")]));
    }

    #[test]
    fn emptiness() {
        yes("empty?", Value::empty_vector());
        no("empty?", vecv(&[Value::Int(1)]));
        yes("empty?", Value::map_from([]));
        yes("empty?", Value::set_from([]));
        no("empty?", Value::set_from([Value::Int(1)]));
        yes("empty?", s(""));
        no("empty?", s(" "));
        yes("empty?", Value::Nil);
        let e = call("empty?", &[Value::Int(5)]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.message().contains("empty?"));
        check("not-empty", &[map1()], map1());
        check("not-empty", &[Value::map_from([])], Value::Nil);
        check("not-empty", &[s("ab")], s("ab"));
        check("not-empty", &[s("")], Value::Nil);
        check("not-empty", &[Value::Nil], Value::Nil);
    }

    #[test]
    fn distinct_and_identical() {
        check(
            "distinct?",
            &[Value::Int(1), Value::Int(2), Value::Int(3)],
            Value::Bool(true),
        );
        check(
            "distinct?",
            &[Value::Int(1), Value::Int(2), Value::Int(1)],
            Value::Bool(false),
        );
        check(
            "distinct?",
            &[Value::Int(1), Value::Float(1.0)],
            Value::Bool(true),
        );
        check("distinct?", &[Value::Int(1)], Value::Bool(true));
        check("identical?", &[kw("a"), kw("a")], Value::Bool(true));
        let v = vecv(&[Value::Int(1)]);
        check("identical?", &[v.clone(), v.clone()], Value::Bool(true));
        check(
            "identical?",
            &[v, vecv(&[Value::Int(1)])],
            Value::Bool(false),
        );
    }

    #[test]
    fn type_keywords() {
        check("type", &[Value::Int(1)], kw("integer"));
        check("type", &[Value::Float(1.0)], kw("float"));
        check("type", &[s("a")], kw("string"));
        check("type", &[map1()], kw("map"));
        check("type", &[Value::empty_vector()], kw("vector"));
        check("type", &[Value::Nil], Value::Nil);
    }
}
