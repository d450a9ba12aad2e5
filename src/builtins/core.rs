//! Builtins: functions on functions, printing, errors and control
//! (clojure.core).
//!
//! `apply constantly comp partial complement juxt fnil every-pred some-fn
//! comparator println print prn pr return fail ex-info ex-message ex-data`.
//!
//! The function builders return native closures ([`Func::native`]) named
//! after the builtin, so they print as `#fn[partial]`, `#fn[comp]` ….
//!
//! Printing: each `println`/`prn` call ends one entry
//! ([`Interp::emit_print`]): the arguments joined by one space; `print`/`pr`
//! continue the line, each newline they write ending it; `println`/`print`
//! show strings raw and everything else with `to_clojure` (`nil` as `nil`),
//! `prn`/`pr` show strings quoted too.
//!
//! `ex-info` builds the map `{:message msg :data data}` that `throw`
//! understands ([`crate::eval::thrown_error`]); `catch` binds a map with
//! `:message`, `:kind` and `:data` ([`crate::eval::error_value`]), which
//! `ex-message`/`ex-data` read.

use super::args;
use super::{Arity, Builtin};
use crate::error::{Error, ErrorKind, Result};
use crate::eval::Interp;
use crate::value::{cost, Func, Map, Value};

pub const BUILTINS: &[Builtin] = &[
    Builtin::new("apply", Arity::at_least(2), "Calls f with the given arguments followed by the items of the last one, a collection (nil is empty).", apply)
        .example("(apply + 1 2 [3 4]) ;=> 10")
        .owned(apply_owned),
    Builtin::new("constantly", Arity::exact(1), "A function that ignores its arguments and returns x.", constantly)
        .example("((constantly 7) 1 2) ;=> 7"),
    Builtin::new("comp", Arity::at_least(0), "Composition: ((comp f g) x) is (f (g x)); the rightmost function takes any arguments.", comp)
        .example("((comp inc inc) 1) ;=> 3"),
    Builtin::new("partial", Arity::at_least(1), "f with its first arguments fixed: ((partial f a) b) is (f a b).", partial)
        .example("((partial + 1) 2) ;=> 3"),
    Builtin::new("complement", Arity::exact(1), "A function returning the logical opposite of f.", complement)
        .example("((complement even?) 3) ;=> true"),
    Builtin::new("memoize", Arity::exact(1), "A function like f that computes each distinct argument list once per turn, then returns the remembered result.", super::memo::memoize)
        .example("((memoize +) 1 2) ;=> 3"),
    Builtin::new("juxt", Arity::at_least(0), "A function returning the vector of each function's result: ((juxt f g) x) is [(f x) (g x)].", juxt)
        .example("((juxt :a :b) {:a 1 :b 2}) ;=> [1 2]"),
    Builtin::new("fnil", Arity::range(2, 4), "f with nil first (second, third) arguments replaced by defaults.", fnil)
        .example("((fnil inc 0) nil) ;=> 1"),
    Builtin::new("every-pred", Arity::at_least(1), "A predicate that is true when every predicate is truthy for every argument.", every_pred)
        .example("((every-pred pos? even?) 2 4) ;=> true"),
    Builtin::new("some-fn", Arity::at_least(1), "A function returning the first truthy result of any function on any argument.", some_fn)
        .example("((some-fn :a :b) {:b 2}) ;=> 2"),
    Builtin::new("comparator", Arity::exact(1), "Turns a two-argument predicate like < into a comparator returning -1, 0 or 1.", comparator)
        .example("((comparator <) 1 2) ;=> -1"),
    Builtin::new("println", Arity::at_least(0), "Prints the arguments separated by spaces (strings raw) as one line; returns nil.", println)
        .example("(println \"total:\" 42) ;=> nil"),
    Builtin::new("print", Arity::at_least(0), "Prints the arguments separated by spaces (strings raw); returns nil.", print)
        .example("(print \"x\") ;=> nil"),
    Builtin::new("prn", Arity::at_least(0), "Prints the arguments as literals (strings quoted) separated by spaces as one line; returns nil.", prn)
        .example("(prn \"x\" 1) ;=> nil"),
    Builtin::new("pr", Arity::at_least(0), "Prints the arguments as literals (strings quoted) separated by spaces; returns nil.", pr)
        .example("(pr \"x\") ;=> nil"),
    Builtin::new("return", Arity::at_least(0), "Ends the mission successfully with the value v.", return_)
        .example("(return {:answer 42})"),
    Builtin::new("fail", Arity::at_least(0), "Ends the mission as failed with a reason (a string or any value).", fail)
        .example("(fail \"no matching orders\")"),
    Builtin::new("ex-info", Arity::range(1, 3), "An error value with a message and a data map, for throw: (throw (ex-info msg {:k v})).", ex_info)
        .example("(ex-message (ex-info \"bad\" {:id 1})) ;=> \"bad\""),
    Builtin::new("ex-message", Arity::exact(1), "The message of an error value (ex-info or what catch binds); nil for other values.", ex_message)
        .example("(try (throw (ex-info \"bad\" {})) (catch Exception e (ex-message e))) ;=> \"bad\""),
    Builtin::new("ex-data", Arity::exact(1), "The data of an error value (ex-info or what catch binds); nil for other values.", ex_data)
        .example("(ex-data (ex-info \"bad\" {:id 1})) ;=> {:id 1}"),
];

// ---------------------------------------------------------------- functions

fn apply(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let f = &a[0];
    let (last, middle) = match a[1..].split_last() {
        Some(parts) => parts,
        None => return interp.call(f, &[]),
    };
    let tail = match last {
        Value::Lazy(_) => return Err(args::whole("apply", last)),
        Value::Vector(_) | Value::Nil | Value::Set(_) | Value::Map(_) | Value::Str(_) => {
            args::items("apply", last)?
        }
        other => {
            return Err(
                args::type_error("apply", "a collection as its last argument", other).with_hint(
                    "(apply f x y [more args]): the last argument is spread into the call",
                ),
            )
        }
    };
    interp.tick(tail.len() as u64)?;
    let mut all = Vec::with_capacity(middle.len() + tail.len());
    all.extend_from_slice(middle);
    all.extend(tail);
    interp.call(f, &all)
}

/// `apply` taking its arguments: a last argument that is a vector gives up
/// its items (moved out when only this call holds it: `(apply str [acc x
/// ","])` builds it in the call), and `f` is called with arguments it may
/// take (`Interp::call_mut`), so `str` appends onto an accumulator text
/// only the vector held in place. The same steps as [`apply`].
fn apply_owned(interp: &mut Interp, a: &mut [Value]) -> Result<Value> {
    let n = a.len();
    // With hidden data about, the arguments stay where the marking after
    // the call reads them.
    if n < 2 || !matches!(a[n - 1], Value::Vector(_)) || interp.hidden.active() {
        return apply(interp, a);
    }
    let Value::Vector(tail) = Value::take(&mut a[n - 1]) else {
        unreachable!("a vector, just matched")
    };
    interp.tick(tail.len() as u64)?;
    let f = Value::take(&mut a[0]);
    let mut all = Vec::with_capacity(n - 2 + tail.len());
    all.extend(a[1..n - 1].iter_mut().map(Value::take));
    all.extend(tail);
    interp.call_mut(&f, &mut all)
}

fn constantly(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let x = a[0].clone();
    Ok(Func::native("constantly", move |_, _| Ok(x.clone())))
}

fn callables(fname: &str, fs: &[Value]) -> Result<Vec<Value>> {
    for f in fs {
        args::callable(fname, f)?;
    }
    Ok(fs.to_vec())
}

fn comp(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let fs = callables("comp", a)?;
    // Each function is handed its arguments (a reducing function made by
    // `comp` adds to its accumulator in place).
    Ok(Func::native_taking("comp", move |interp, args| {
        let Some((last, init)) = fs.split_last() else {
            return match args {
                [x] => Ok(Value::take(x)),
                _ => Err(Error::arity(format!(
                    "(comp) is identity and expects 1 argument, got {}",
                    args.len()
                ))),
            };
        };
        let mut v = interp.call_mut(last, args)?;
        for f in init.iter().rev() {
            v = interp.call_mut1(f, v)?;
        }
        Ok(v)
    }))
}

fn partial(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("partial", &a[0])?;
    let f = a[0].clone();
    let fixed = a[1..].to_vec();
    Ok(Func::native_taking("partial", move |interp, args| {
        let mut all = Vec::with_capacity(fixed.len() + args.len());
        all.extend_from_slice(&fixed);
        all.extend(args.iter_mut().map(Value::take));
        interp.call_mut(&f, &mut all)
    }))
}

fn complement(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("complement", &a[0])?;
    let f = a[0].clone();
    Ok(Func::native("complement", move |interp, args| {
        Ok(Value::Bool(!interp.call(&f, args)?.truthy()))
    }))
}

fn juxt(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let fs = callables("juxt", a)?;
    Ok(Func::native("juxt", move |interp, args| {
        let mut out = Vec::with_capacity(fs.len());
        for f in &fs {
            out.push(interp.call(f, args)?);
        }
        interp.alloc(cost::vector_bytes(out.len()))?;
        Ok(Value::vector_from(out))
    }))
}

fn fnil(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("fnil", &a[0])?;
    let f = a[0].clone();
    // One to three defaults (the arity), in place: a `nil` default (or
    // none) leaves a `nil` argument `nil`.
    let mut defaults: [Value; 3] = [const { Value::Nil }; 3];
    for (d, x) in defaults.iter_mut().zip(&a[1..]) {
        *d = x.clone();
    }
    // The arguments are handed on (`(update m k (fnil conj []) x)` adds to
    // the vector in place).
    Ok(Func::native_taking("fnil", move |interp, args| {
        for (x, d) in args.iter_mut().zip(&defaults) {
            if x.is_nil() {
                *x = d.clone();
            }
        }
        interp.call_mut(&f, args)
    }))
}

fn every_pred(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let ps = callables("every-pred", a)?;
    Ok(Func::native("every-pred", move |interp, args| {
        for p in &ps {
            for x in args {
                if !interp.call(p, std::slice::from_ref(x))?.truthy() {
                    return Ok(Value::Bool(false));
                }
            }
        }
        Ok(Value::Bool(true))
    }))
}

fn some_fn(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let ps = callables("some-fn", a)?;
    Ok(Func::native("some-fn", move |interp, args| {
        // Clojure: predicate by predicate; with few predicates and arguments
        // the last falsy result is returned (its `or`), otherwise nil.
        let mut last = Value::Nil;
        for p in &ps {
            for x in args {
                let r = interp.call(p, std::slice::from_ref(x))?;
                if r.truthy() {
                    return Ok(r);
                }
                last = r;
            }
        }
        Ok(if ps.len() <= 2 && args.len() <= 3 {
            last
        } else {
            Value::Nil
        })
    }))
}

fn comparator(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("comparator", &a[0])?;
    let pred = a[0].clone();
    Ok(Func::native("comparator", move |interp, args| {
        let [x, y] = args else {
            return Err(Error::arity(format!(
                "a comparator expects 2 arguments, got {}",
                args.len()
            )));
        };
        let r = if interp.call(&pred, &[x.clone(), y.clone()])?.truthy() {
            -1
        } else if interp.call(&pred, &[y.clone(), x.clone()])?.truthy() {
            1
        } else {
            0
        };
        Ok(Value::Int(r))
    }))
}

// ---------------------------------------------------------------- printing

/// The arguments of a print call joined by spaces: as `println` shows them
/// (strings raw, nil as `nil`) or, `literal`, as `prn` does. Text stops
/// growing past `room` bytes (the caller's charge then fails).
pub(crate) fn show_args(a: &[Value], literal: bool, room: usize) -> String {
    show_args_within(a, literal, room).unwrap_or_default()
}

/// [`show_args`], or `None` when the text would not fit in `room` bytes
/// (a value too long to print is measured, not printed: nothing of it is
/// written).
fn show_args_within(a: &[Value], literal: bool, room: usize) -> Option<String> {
    let mut out = String::new();
    for (i, v) in a.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if out.len() > room {
            return None;
        }
        if literal {
            let left = room - out.len();
            let (text, cut) = crate::format::to_clojure_capped(v, None, None, Some(left));
            // Cut because the turn's deadline passed: no text (the caller
            // reports the timeout).
            if cut && crate::eval::budget::should_stop() {
                return None;
            }
            out.push_str(&text);
        } else if !crate::format::write_display(&mut out, v, crate::format::Style::Println, room) {
            return None;
        }
    }
    (out.len() <= room).then_some(out)
}

/// The text of a print, or the print limit's error when it does not fit.
fn printed(interp: &mut Interp, a: &[Value], literal: bool) -> Result<String> {
    let room = interp.budget.print_room();
    match show_args_within(a, literal, room) {
        Some(text) => Ok(text),
        // A printer stopped by the deadline: the timeout. Otherwise,
        // charging more than the room raises the print limit's own error.
        None => {
            interp.budget.check_clock()?;
            interp
                .budget
                .print(room.saturating_add(1))
                .map(|()| String::new())
        }
    }
}

fn emit(interp: &mut Interp, a: &[Value], literal: bool) -> Result<Value> {
    interp.tick(a.len() as u64)?;
    let line = printed(interp, a, literal)?;
    interp.emit_print(line)?;
    Ok(Value::Nil)
}

fn println(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    emit(interp, a, false)
}

/// `print`/`pr`: like `println`/`prn` without ending the line.
fn emit_partial(interp: &mut Interp, a: &[Value], literal: bool) -> Result<Value> {
    interp.tick(a.len() as u64)?;
    let text = printed(interp, a, literal)?;
    interp.emit_partial(&text)?;
    Ok(Value::Nil)
}

/// What `(with-out-str body…)` calls, with the body as a function of no
/// arguments (`analyze/capture.rs`); not in the registry.
pub static WITH_OUT_STR: Builtin = Builtin::new(
    "with-out-str",
    Arity::exact(1),
    "Evaluates the body and returns what it printed as a string.",
    with_out_str,
);

fn with_out_str(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    interp.capture_output(&a[0])
}

fn print(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    emit_partial(interp, a, false)
}

fn prn(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    emit(interp, a, true)
}

fn pr(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    emit_partial(interp, a, true)
}

// ---------------------------------------------------------------- control

/// `return` and `fail` take exactly one argument; a wrong count is a
/// malformed mission ending, a `validation-error` (as in PTC-Lisp), not an
/// ordinary arity error that `try` could catch.
fn one_arg<'a>(fname: &str, what: &str, a: &'a [Value]) -> Result<&'a Value> {
    match a {
        [x] => Ok(x),
        _ => Err(Error::validation(format!(
            "{fname} expects exactly 1 argument ({what}), got {}",
            a.len()
        ))
        .with_hint(format!(
            "write ({fname} x); to combine several values use a map: ({fname} {{:a a :b b}})"
        ))),
    }
}

fn return_(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let v = one_arg("return", "the result", a)?;
    Err(Error::return_signal(v.clone()))
}

fn fail(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let reason = one_arg("fail", "the reason", a)?.clone();
    let message = shown_within_heap(interp, &reason)?;
    Err(Error::new(ErrorKind::Fail, message).with_data(reason))
}

/// What `println` shows of `v`, built within the heap budget (a
/// self-sharing value would otherwise print forever): `fail`'s message,
/// `ex-info`'s and the exception constructors' non-string message. The
/// text is charged to the heap like any string built.
pub(super) fn shown_within_heap(interp: &mut Interp, v: &Value) -> Result<String> {
    let room = super::string::heap_room(interp);
    match crate::format::display_within(v, crate::format::Style::Println, room) {
        Some(text) => {
            interp.alloc(cost::string_bytes(text.len()))?;
            Ok(text)
        }
        None => Err(super::string::out_of_room(interp)),
    }
}

fn ex_info(interp: &mut Interp, a: &[Value]) -> Result<Value> {
    let message = match &a[0] {
        Value::Str(s) => Value::Str(s.clone()),
        other => Value::string(shown_within_heap(interp, other)?),
    };
    let data = a.get(1).cloned().unwrap_or_else(|| Value::Map(Map::new()));
    interp.alloc(cost::map_bytes(2))?;
    let mut m = Map::new();
    m.insert(Value::keyword("message"), message);
    m.insert(Value::keyword("data"), data);
    Ok(Value::Map(m))
}

/// The `:message` of an error value, if `v` is one.
fn error_message(v: &Value) -> Option<(&Map, Value)> {
    match v {
        Value::Map(m) => match m.get(&Value::keyword("message")) {
            Some(msg @ Value::Str(_)) => Some((m, msg.clone())),
            _ => None,
        },
        _ => None,
    }
}

fn ex_message(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(error_message(&a[0]).map_or(Value::Nil, |(_, msg)| msg))
}

fn ex_data(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    Ok(error_message(&a[0])
        .and_then(|(m, _)| m.get(&Value::keyword("data")).cloned())
        .unwrap_or(Value::Nil))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{i, kw, m, s, v};

    fn plus() -> Value {
        Func::native("+", |_, a| {
            let mut t = 0;
            for x in a {
                t += args::int("+", x)?;
            }
            Ok(Value::Int(t))
        })
    }
    fn inc() -> Value {
        Func::native("inc", |_, a| Ok(Value::Int(args::int("inc", &a[0])? + 1)))
    }
    fn even() -> Value {
        Func::native("even?", |_, a| {
            Ok(Value::Bool(args::int("even?", &a[0])? % 2 == 0))
        })
    }
    fn lt() -> Value {
        Func::native("<", |_, a| {
            Ok(Value::Bool(args::int("<", &a[0])? < args::int("<", &a[1])?))
        })
    }
    /// Makes a function value with a builtin of this file and calls it.
    fn call(
        interp: &mut Interp,
        make: fn(&mut Interp, &[Value]) -> Result<Value>,
        with: &[Value],
        args: &[Value],
    ) -> Result<Value> {
        let f = make(interp, with)?;
        interp.call(&f, args)
    }

    #[test]
    fn apply_spreads_the_last_argument() {
        let mut it = Interp::standalone();
        assert_eq!(
            apply(&mut it, &[plus(), v(&[i(1), i(2), i(3)])]).unwrap(),
            i(6)
        );
        assert_eq!(
            apply(&mut it, &[plus(), i(1), i(2), v(&[i(3), i(4)])]).unwrap(),
            i(10)
        );
        assert_eq!(
            apply(&mut it, &[plus(), i(1), i(2), Value::Nil]).unwrap(),
            i(3)
        );
        assert_eq!(apply(&mut it, &[plus(), Value::Nil]).unwrap(), i(0));
        assert_eq!(
            apply(&mut it, &[plus(), i(1), Value::set_from([i(2), i(3)])]).unwrap(),
            i(6)
        );
        let e = apply(&mut it, &[plus(), i(1)]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.message().contains("apply"));
        assert_eq!(
            apply(&mut it, &[i(1), v(&[i(2)])]).unwrap_err().kind(),
            ErrorKind::Type
        );
        assert_eq!(
            apply(&mut it, &[kw("name"), v(&[m(&[(kw("name"), s("A"))])])]).unwrap(),
            s("A")
        );
    }

    #[test]
    fn function_builders() {
        let mut it = Interp::standalone();
        assert_eq!(
            call(&mut it, constantly, &[i(7)], &[i(1), i(2)]).unwrap(),
            i(7)
        );
        assert_eq!(call(&mut it, comp, &[inc(), inc()], &[i(1)]).unwrap(), i(3));
        assert_eq!(
            call(&mut it, comp, &[inc(), plus()], &[i(1), i(2)]).unwrap(),
            i(4)
        );
        assert_eq!(call(&mut it, comp, &[], &[i(5)]).unwrap(), i(5));
        assert_eq!(
            call(&mut it, partial, &[plus(), i(1)], &[i(2)]).unwrap(),
            i(3)
        );
        assert_eq!(
            call(&mut it, complement, &[even()], &[i(3)]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(call(&mut it, juxt, &[], &[i(3)]).unwrap(), v(&[]));
        assert_eq!(
            call(&mut it, juxt, &[kw("a"), kw("b")], &[m(&[(kw("a"), i(1))])]).unwrap(),
            v(&[i(1), Value::Nil])
        );
        assert_eq!(
            call(&mut it, fnil, &[inc(), i(0)], &[Value::Nil]).unwrap(),
            i(1)
        );
        assert_eq!(
            call(&mut it, fnil, &[plus(), i(0)], &[Value::Nil, i(5)]).unwrap(),
            i(5)
        );
        assert_eq!(
            call(&mut it, every_pred, &[even()], &[i(2), i(4)]).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            call(&mut it, every_pred, &[even()], &[i(2), i(3)]).unwrap(),
            Value::Bool(false)
        );
        assert_eq!(
            call(
                &mut it,
                some_fn,
                &[kw("a"), kw("b")],
                &[m(&[(kw("b"), i(2))])]
            )
            .unwrap(),
            i(2)
        );
        assert_eq!(
            call(&mut it, some_fn, &[even()], &[i(1)]).unwrap(),
            Value::Bool(false)
        );
        assert_eq!(
            call(&mut it, comparator, &[lt()], &[i(1), i(2)]).unwrap(),
            i(-1)
        );
        assert_eq!(
            call(&mut it, comparator, &[lt()], &[i(2), i(1)]).unwrap(),
            i(1)
        );
        assert_eq!(
            call(&mut it, comparator, &[lt()], &[i(2), i(2)]).unwrap(),
            i(0)
        );
        assert_eq!(comp(&mut it, &[i(1)]).unwrap_err().kind(), ErrorKind::Type);
        let f = partial(&mut it, &[plus()]).unwrap();
        match f {
            Value::Fn(func) => assert_eq!(func.name(), "partial"),
            other => panic!("not a function: {other:?}"),
        }
    }

    #[test]
    fn printing_records_one_entry_per_line() {
        let mut it = Interp::standalone();
        assert_eq!(println(&mut it, &[s("a"), s("b c")]).unwrap(), Value::Nil);
        println(&mut it, &[]).unwrap();
        println(&mut it, &[s("x"), Value::Nil]).unwrap();
        // print and pr do not end the line: the next println/prn does, or
        // a newline print writes (as Clojure's output splits into lines).
        print(&mut it, &[s("line1\nline2")]).unwrap();
        pr(&mut it, &[s("p")]).unwrap();
        prn(&mut it, &[s("q")]).unwrap();
        print(&mut it, &[s("open")]).unwrap();
        assert_eq!(it.prints.len(), 5);
        assert_eq!(it.prints[0], "a b c");
        assert_eq!(it.prints[1], "");
        assert_eq!(it.prints[2], "x nil");
        assert_eq!(it.prints[3], "line1");
        assert_eq!(it.prints[4], "line2\"p\"\"q\"");
        it.flush_print();
        assert_eq!(it.prints[5], "open");
        // A println is one entry, newlines in it included.
        println(&mut it, &[s("two\nlines")]).unwrap();
        assert_eq!(it.prints[6], "two\nlines");
        // Newlines at the ends: an empty line each, nothing left pending.
        print(&mut it, &[s("\nend\n")]).unwrap();
        assert_eq!(it.prints[7..], ["", "end"]);
        it.flush_print();
        assert_eq!(it.prints.len(), 9);
        // pr quotes the string, so its newline is written as \n: no split.
        pr(&mut it, &[s("a\nb")]).unwrap();
        it.flush_print();
        assert_eq!(it.prints[9], "\"a\\nb\"");
    }

    #[test]
    fn return_and_fail_signal() {
        let mut it = Interp::standalone();
        let e = return_(&mut it, &[i(3)]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Return);
        assert_eq!(e.data(), Some(&i(3)));
        let e = fail(&mut it, &[s("error: boom")]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Fail);
        assert_eq!(e.message(), "error: boom");
        assert_eq!(e.data(), Some(&s("error: boom")));
        let reason = m(&[(kw("reason"), kw("bad"))]);
        let e = fail(&mut it, std::slice::from_ref(&reason)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Fail);
        assert_eq!(e.data(), Some(&reason));
        let e = return_(&mut it, &[]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.message().contains("return"));
        let e = fail(&mut it, &[i(1), i(2)]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.message().contains("fail"));
    }

    #[test]
    fn ex_info_round_trips_through_throw_and_catch() {
        let mut it = Interp::standalone();
        let data = m(&[(kw("id"), i(1))]);
        let ex = ex_info(&mut it, &[s("bad"), data.clone()]).unwrap();
        assert_eq!(
            ex_message(&mut it, std::slice::from_ref(&ex)).unwrap(),
            s("bad")
        );
        assert_eq!(ex_data(&mut it, std::slice::from_ref(&ex)).unwrap(), data);
        let thrown = crate::eval::thrown_error(ex);
        assert_eq!(thrown.message(), "bad");
        let caught = crate::eval::error_value(&thrown);
        assert_eq!(
            ex_message(&mut it, std::slice::from_ref(&caught)).unwrap(),
            s("bad")
        );
        assert_eq!(ex_data(&mut it, &[caught]).unwrap(), data);
        let other = crate::eval::error_value(&Error::type_error("count expects a collection"));
        assert_eq!(
            ex_message(&mut it, std::slice::from_ref(&other)).unwrap(),
            s("count expects a collection")
        );
        assert_eq!(ex_data(&mut it, &[other]).unwrap(), Value::Nil);
        assert_eq!(ex_message(&mut it, &[i(1)]).unwrap(), Value::Nil);
        assert_eq!(
            ex_data(&mut it, &[m(&[(kw("a"), i(1))])]).unwrap(),
            Value::Nil
        );
    }
}
