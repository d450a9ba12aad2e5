//! Compiled calls: of builtins bound at analysis, of user/ definitions and
//! of computed functions, with the walker's semantics (`walk.rs`): the
//! function position is evaluated first, then the arguments in order (up to
//! eight in a stack array); the call's span goes on any error the arguments
//! or the call raise without one.

use crate::analyze::expr::{Call, Expr, GlobalId};
use crate::builtins::Builtin;
use crate::error::{Error, Result, Span};
use crate::value::{Func, FuncRef, Value};

use super::args::ArgsCode;
use super::place::Place;
use super::{compile, Code, Interp};
use crate::eval::{Args, Frame};

/// The value of a user/ definition.
#[inline]
pub(super) fn global(it: &Interp, id: GlobalId) -> Result<Value> {
    match it.globals.get(id) {
        Some(d) => Ok(d.value.clone()),
        None => Err(undefined(it, id)),
    }
}

/// The error of reading a user/ definition that has no value yet.
#[cold]
pub(super) fn undefined(it: &Interp, id: GlobalId) -> Error {
    Error::undefined(format!(
        "{} is declared but has no value yet",
        it.globals.name(id)
    ))
}

/// `(f args…)` of a builtin resolved at analysis. The number of arguments
/// is checked here, once: a call `b` accepts goes straight to the builtin
/// ([`Interp::call_builtin_accepted`]); any other gets the arity error
/// after its arguments are evaluated, as the walker gives it.
pub(super) fn builtin<'a>(b: &'static Builtin, args: &'a [Expr], span: Span) -> Code<'a> {
    let accepted = b.arity.accepts(args.len());
    let args = ArgsCode::of_call(b, args);
    if !accepted {
        return Box::new(move |it, f| {
            args.with(it, f, |it, vals| it.call_builtin_mut(b, vals))
                .map_err(|e| e.or_span(span))
        });
    }
    Box::new(move |it, f| {
        args.with(it, f, |it, vals| it.call_builtin_accepted(b, vals))
            .map_err(|e| e.or_span(span))
    })
}

/// `(nth [:a :b :c] i)`: a constant vector indexed by computed code (a
/// lookup table) reads the item in place when the index is an integer in
/// range, with `nth`'s one step; anything else (another index, hidden data
/// about) calls the builtin with both arguments.
pub(super) fn nth_of_const<'a>(
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
) -> Option<Code<'a>> {
    let [Expr::Const(table @ Value::Vector(items)), index] = args else {
        return None;
    };
    if !b.is_core("nth") {
        return None;
    }
    let index = compile(index);
    Some(Box::new(move |it, f| {
        let i = index(it, f).map_err(|e| e.or_span(span))?;
        if let Value::Int(n) = i {
            if let (Some(item), false) = (
                usize::try_from(n).ok().and_then(|n| items.get(n)),
                it.hidden.active(),
            ) {
                it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
                return Ok(item.clone());
            }
        }
        it.call_builtin_mut(b, &mut [table.clone(), i])
            .map_err(|e| e.or_span(span))
    }))
}

/// `(zero? x)`, `(even? x)` and the other integer predicates
/// (`numbers::int_test`): an integer answered in place with the builtin's
/// step; anything else (another type, a `lazy-seq`, hidden data about)
/// calls the builtin with the value.
pub(super) fn int_pred<'a>(b: &'static Builtin, args: &'a [Expr], span: Span) -> Option<Code<'a>> {
    let [x] = args else {
        return None;
    };
    let test = crate::builtins::numbers::int_test(b)?;
    let x = compile(x);
    Some(Box::new(move |it, f| {
        let v = x(it, f).map_err(|e| e.or_span(span))?;
        if let (&Value::Int(i), false) = (&v, it.hidden.active()) {
            // A number owns nothing: no drop to call.
            std::mem::forget(v);
            it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
            return Ok(Value::Bool(test(i)));
        }
        it.call_builtin_accepted(b, &mut [v])
            .map_err(|e| e.or_span(span))
    }))
}

/// `(contains? coll x)` of a collection in a local, a capture or a user/
/// definition, and a plain key ([`Place::of`]): a set, a map or `nil` is
/// looked into where it is (not cloned), with the builtin's one step and
/// answer; anything else (a vector or text, hidden data about, a
/// `lazy-seq` ever built) calls the builtin with both values.
pub(super) fn contains_in_place<'a>(
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
) -> Option<Code<'a>> {
    let [coll, x] = args else {
        return None;
    };
    if !b.is_core("contains?") {
        return None;
    }
    let place = Place::of(coll, x)?;
    /// Whether `coll` holds `x`, looked into in place; `None` for the
    /// builtin.
    #[inline(always)]
    fn found(coll: &Value, x: &Value) -> Option<bool> {
        match coll {
            Value::Set(s) => Some(s.contains(x)),
            Value::Map(m) => Some(m.contains_key(x)),
            Value::Nil => Some(false),
            _ => None,
        }
    }
    let general = {
        let x = compile(x);
        move |it: &mut Interp, f: Frame| -> Result<Value> {
            // The collection is read first, as the walker reads it.
            place.read(it, f).map_err(|e| e.or_span(span))?;
            let x = x(it, f).map_err(|e| e.or_span(span))?;
            if !it.hidden.active() && !crate::value::any_may_end() {
                if let Some(found) = found(place.read(it, f).map_err(|e| e.or_span(span))?, &x) {
                    it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
                    return Ok(Value::Bool(found));
                }
            }
            let coll = place.read(it, f).map_err(|e| e.or_span(span))?.clone();
            it.call_builtin_accepted(b, &mut [coll, x])
                .map_err(|e| e.or_span(span))
        }
    };
    // A key in a local is read where it is too: reading it cannot fail
    // or run anything, so the collection is read once, after it; a last
    // read (a move) still empties the slot, as the move does.
    if let Expr::Local(s) | Expr::MoveLocal(s) = x {
        let moved = matches!(x, Expr::MoveLocal(_));
        let s = *s as usize;
        return Some(Box::new(move |it, f| {
            if !it.hidden.active() && !crate::value::any_may_end() {
                let coll = place.read(it, f).map_err(|e| e.or_span(span))?;
                if let Some(found) = found(coll, &it.stack[f.bp + s]) {
                    if moved {
                        super::place::end_move(&mut it.stack[f.bp + s]);
                    }
                    it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
                    return Ok(Value::Bool(found));
                }
            }
            general(it, f)
        }));
    }
    Some(Box::new(general))
}

/// `(assoc m k v)` of a map with one pair (an accumulator in a `reduce`,
/// a record's field set): the pair put in the map without the builtin's
/// generic path, with its two steps (the call's, then the pair's), the
/// heap its growth costs and its value (`maps::assoc_owned`). Anything
/// else — not a map, more pairs, a lazy sequence that may end among the
/// values, hidden data about — calls the builtin.
pub(super) fn assoc_map<'a>(b: &'static Builtin, args: &'a [Expr], span: Span) -> Option<Code<'a>> {
    if args.len() != 3 || b.name != "assoc" || b.ns != crate::builtins::Ns::Core {
        return None;
    }
    /// The pair put in the map, or the builtin called with the three.
    #[inline(always)]
    fn put(it: &mut Interp, b: &'static Builtin, m: Value, k: Value, v: Value) -> Result<Value> {
        match m {
            Value::Map(mut m) if !k.may_end() && !v.may_end() && !it.hidden.active() => {
                it.budget.tick(1)?;
                it.budget.tick_settled(1)?;
                let before = m.len();
                m.insert(k, v);
                it.budget
                    .alloc(crate::value::cost::map_growth_like(&m, before, m.len()))?;
                Ok(Value::Map(m))
            }
            m => it.call_builtin_accepted(b, &mut [m, k, v]),
        }
    }
    Some(match ArgsCode::of_call(b, args) {
        // The three values owned here, not left in an array: no drop
        // calls for the `nil`s taking them would leave.
        ArgsCode::Three(m, k, v) => Box::new(move |it, f| {
            let put_them = |it: &mut Interp| {
                let m = m(it, f)?;
                let k = k(it, f)?;
                let v = v(it, f)?;
                put(it, b, m, k, v)
            };
            put_them(it).map_err(|e| e.or_span(span))
        }),
        args => Box::new(move |it, f| {
            args.with(it, f, |it, vals| match vals {
                [m, k, v] => put(it, b, Value::take(m), Value::take(k), Value::take(v)),
                _ => it.call_builtin_accepted(b, vals),
            })
            .map_err(|e| e.or_span(span))
        }),
    })
}

/// `(update m k f)` with `f` built once per site (`once.rs`: the counting
/// idiom `(fnil inc 0)`, an unnamed `fn` without captures): `f` lent to
/// `update` where it is kept, not cloned into an argument array and
/// dropped after the call, with the builtin's step, value and errors
/// (`maps::update_parts`). A lazy sequence that may end, or hidden data
/// about, calls the builtin with the three values.
pub(super) fn update_once<'a>(
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
) -> Option<Code<'a>> {
    if b.name != "update" || b.ns != crate::builtins::Ns::Core {
        return None;
    }
    let [m, k, fx] = args else {
        return None;
    };
    if args.iter().any(|a| matches!(a, Expr::MoveLocalLate(_))) {
        return None;
    }
    let once = super::once::OnceFn::of(b, 2, fx)?;
    let (m, k) = (compile(m), compile(k));
    Some(Box::new(move |it, f| {
        let update = |it: &mut Interp| {
            let m = m(it, f)?;
            let k = k(it, f)?;
            let fv = once.get(it)?;
            if m.may_end() || k.may_end() || it.hidden.active() {
                return it.call_builtin_accepted(b, &mut [m, k, fv.into_owned()]);
            }
            it.budget.tick(1)?;
            crate::builtins::coll::update_parts(it, m, k, &fv, &[])
        };
        update(it).map_err(|e| e.or_span(span))
    }))
}

/// `(count x)`: anything but a lazy sequence counted in place — read
/// where it is when it is a local, a capture or a definition ([`Place`])
/// — with the builtin's step, answer and error (`builtins::args::count`);
/// a lazy sequence or hidden data about calls the builtin.
pub(super) fn count_in_place<'a>(
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
) -> Option<Code<'a>> {
    let [x] = args else {
        return None;
    };
    if !b.is_core("count") {
        return None;
    }
    /// The count of `v` charged its step, or `None` for the builtin.
    #[inline(always)]
    fn counted(it: &mut Interp, v: &Value) -> Option<Result<Value>> {
        if matches!(v, Value::Lazy(_)) || it.hidden.active() {
            return None;
        }
        Some(
            it.budget.tick_settled(1).and_then(|()| {
                crate::builtins::args::count("count", v).map(|n| Value::Int(n as i64))
            }),
        )
    }
    Some(match Place::alone(x) {
        Some(place) => Box::new(move |it, f| {
            let v = place.read(it, f).map_err(|e| e.or_span(span))?;
            let v = match v {
                Value::Lazy(_) => v.clone(),
                // Counted through a clone only when hidden data is about.
                _ if it.hidden.active() => v.clone(),
                _ => {
                    let n = crate::builtins::args::count("count", v);
                    it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
                    return n.map(|n| Value::Int(n as i64)).map_err(|e| e.or_span(span));
                }
            };
            it.call_builtin_accepted(b, &mut [v])
                .map_err(|e| e.or_span(span))
        }),
        None => {
            let x = compile(x);
            Box::new(move |it, f| {
                let v = x(it, f).map_err(|e| e.or_span(span))?;
                if let Some(r) = counted(it, &v) {
                    return r.map_err(|e| e.or_span(span));
                }
                it.call_builtin_accepted(b, &mut [v])
                    .map_err(|e| e.or_span(span))
            })
        }
    })
}

/// A text test's answer and steps for `v` against the constant needle
/// `p`, when `v` is a text and no hidden data is about ([`text_test`]).
#[inline(always)]
pub(super) fn text_answer(
    it: &Interp,
    t: crate::builtins::string::TextTest,
    v: &Value,
    p: &str,
) -> Option<(bool, u64)> {
    match (v, it.hidden.active()) {
        (Value::Str(s), false) => Some((t.test(s, p), t.ticks(s.len()))),
        _ => None,
    }
}

/// A text test's charge: the call's step, then the test's (the meter
/// settled once: nothing runs between the two).
pub(super) fn text_charge(it: &mut Interp, ticks: u64, found: bool) -> Result<Value> {
    it.budget.tick_settled(1)?;
    it.budget.tick(ticks)?;
    Ok(Value::Bool(found))
}

/// `(clojure.string/includes? s "text")`, `starts-with?`, `ends-with?`
/// with a constant needle (`builtins::string::text_test`): a text, read
/// where it is when it is a local, a capture or a definition
/// ([`Place`]), is answered in place with the builtin's steps (the call's
/// one, then the test's); anything else (another type, hidden data
/// about) calls the builtin with both values.
pub(super) fn text_test<'a>(b: &'static Builtin, args: &'a [Expr], span: Span) -> Option<Code<'a>> {
    let [s, needle @ Expr::Const(Value::Str(p))] = args else {
        return None;
    };
    let t = crate::builtins::string::text_test(b)?;
    Some(match Place::of(s, needle) {
        Some(place) => Box::new(move |it, f| {
            let v = place.read(it, f).map_err(|e| e.or_span(span))?;
            if let Some((found, ticks)) = text_answer(it, t, v, p) {
                return text_charge(it, ticks, found).map_err(|e| e.or_span(span));
            }
            let v = v.clone();
            it.call_builtin_accepted(b, &mut [v, Value::Str(p.clone())])
                .map_err(|e| e.or_span(span))
        }),
        None => {
            let s = compile(s);
            Box::new(move |it, f| {
                let v = s(it, f).map_err(|e| e.or_span(span))?;
                if let Some((found, ticks)) = text_answer(it, t, &v, p) {
                    return text_charge(it, ticks, found).map_err(|e| e.or_span(span));
                }
                it.call_builtin_accepted(b, &mut [v, Value::Str(p.clone())])
                    .map_err(|e| e.or_span(span))
            })
        }
    })
}

/// A piece of a compiled `(str …)`: a constant text, or code.
enum Piece<'a> {
    Text(&'a str),
    Code(Code<'a>),
}

/// `(str "k" i "-" x …)` with a constant text among at most eight other
/// arguments: the texts are written in place (not cloned, passed and
/// dropped as values) and the other arguments, when they are texts or
/// scalars, written as `str` writes them, with `str`'s steps (one for the
/// call, one per argument and one) and heap charge. Any other value (a
/// collection, a lazy sequence) or hidden data about takes the builtin's
/// own path with all the arguments, so results, errors and marks are the
/// builtin's.
pub(super) fn str_of_texts<'a>(
    b: &'static Builtin,
    args: &'a [Expr],
    span: Span,
) -> Option<Code<'a>> {
    let is_text = |e: &Expr| matches!(e, Expr::Const(Value::Str(_)));
    let computed = args.iter().filter(|e| !is_text(e)).count();
    // `str` has an owning entry (appending in place), which `is_core`
    // refuses; this stands in for both.
    let is_str = b.name == "str" && b.ns == crate::builtins::Ns::Core;
    if !is_str || args.len() < 2 || computed == args.len() || computed > 8 {
        return None;
    }
    let pieces: Vec<Piece> = args
        .iter()
        .map(|e| match e {
            Expr::Const(Value::Str(s)) => Piece::Text(s),
            e => Piece::Code(compile(e)),
        })
        .collect();
    // The computed values in an array of their number (or a little more).
    Some(match computed {
        0 => texts_and::<1>(b, pieces, span),
        1 => text_and_one(b, pieces, span),
        2 => texts_and::<2>(b, pieces, span),
        3 | 4 => texts_and::<4>(b, pieces, span),
        _ => texts_and::<8>(b, pieces, span),
    })
}

/// The constant texts' length, summed once when compiled.
fn fixed_len(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.len(),
            Piece::Code(_) => 0,
        })
        .sum()
}

/// [`str_of_texts`] with at most `N` computed values.
fn texts_and<'a, const N: usize>(
    b: &'static Builtin,
    pieces: Vec<Piece<'a>>,
    span: Span,
) -> Code<'a> {
    let fixed = fixed_len(&pieces);
    Box::new(move |it, f| {
        let mut vals: [Value; N] = [const { Value::Nil }; N];
        let mut n = 0;
        for p in &pieces {
            if let Piece::Code(c) = p {
                if let Some(slot) = vals.get_mut(n) {
                    Value::fill(slot, c(it, f).map_err(|e| e.or_span(span))?);
                }
                n += 1;
            }
        }
        texts_of(it, b, &pieces, fixed, vals, span)
    })
}

/// [`str_of_texts`] with one computed value (`(str "k" i)`, the usual
/// key): an integer with no hidden data about is written between the
/// texts around it (joined when compiled) at once; anything else takes
/// [`texts_of`] as any other count does. The same steps, heap charge and
/// text.
fn text_and_one<'a>(b: &'static Builtin, mut pieces: Vec<Piece<'a>>, span: Span) -> Code<'a> {
    let at = pieces
        .iter()
        .position(|p| matches!(p, Piece::Code(_)))
        .unwrap_or(pieces.len());
    let text = |ps: &[Piece]| -> String {
        ps.iter()
            .map(|p| match p {
                Piece::Text(t) => *t,
                Piece::Code(_) => "",
            })
            .collect()
    };
    let (before, after) = (
        text(&pieces[..at]),
        text(pieces.get(at + 1..).unwrap_or(&[])),
    );
    let fixed = before.len() + after.len();
    // The code kept here; `texts_of` reads only where it stood.
    let placeholder: Code<'a> = Box::new(|_: &mut Interp, _: Frame| Ok(Value::Nil));
    let code = match pieces.get_mut(at) {
        Some(Piece::Code(c)) => std::mem::replace(c, placeholder),
        _ => placeholder,
    };
    let parts = pieces.len();
    Box::new(
        move |it, f| match code(it, f).map_err(|e| e.or_span(span))? {
            Value::Int(i) if !it.hidden.active() => {
                it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
                let mut digits = itoa::Buffer::new();
                let digits = digits.format(i);
                let len = fixed.checked_add(digits.len());
                let texts = [before.as_str(), digits, after.as_str()].into_iter();
                crate::builtins::string::texts_settled(it, parts, len, texts)
                    .map_err(|e| e.or_span(span))
            }
            v => texts_of(it, b, &pieces, fixed, [v], span),
        },
    )
}

/// What [`texts_and`] makes of the `N` computed values (in order, `nil`
/// past the last): texts and scalars written as `str` writes them, and
/// anything else (or hidden data about) handed to the builtin.
#[inline(always)]
fn texts_of<const N: usize>(
    it: &mut Interp,
    b: &'static Builtin,
    pieces: &[Piece],
    fixed: usize,
    vals: [Value; N],
    span: Span,
) -> Result<Value> {
    let plain = |v: &Value| {
        matches!(
            v,
            Value::Str(_) | Value::Int(_) | Value::Nil | Value::Bool(_) | Value::Keyword(_)
        )
    };
    if it.hidden.active() || !vals.iter().all(plain) {
        let mut vals = vals.into_iter();
        let mut all: Vec<Value> = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => Value::string(*t),
                Piece::Code(_) => vals.next().unwrap_or(Value::Nil),
            })
            .collect();
        // A constant text first is a fresh copy here, where the walker
        // passes a clone of the constant: lent (`call_builtin`), so `str`
        // does not append to it in place and both charge the same heap.
        let r = match pieces.first() {
            Some(Piece::Text(_)) => it.call_builtin(b, &all),
            _ => it.call_builtin_mut(b, &mut all),
        };
        return r.map_err(|e| e.or_span(span));
    }
    it.budget.tick_settled(1).map_err(|e| e.or_span(span))?;
    // `(str acc x ",")` onto a text only this call holds (moved in at its
    // last use): the rest appended to it in place, with the same steps.
    if let [Piece::Code(_), rest @ ..] = pieces {
        let mut vals = vals;
        let (acc, others) = vals.split_at_mut(1);
        let write = |out: &mut String, room: usize| {
            let mut others = others.iter();
            rest.iter().all(|p| match p {
                Piece::Text(t) => {
                    out.push_str(t);
                    out.len() <= room
                }
                Piece::Code(_) => others.next().is_none_or(|v| {
                    crate::format::write_display(out, v, crate::format::Style::Str, room)
                }),
            })
        };
        if let Some(r) =
            crate::builtins::string::append_settled(it, &mut acc[0], pieces.len(), write)
        {
            return r.map_err(|e| e.or_span(span));
        }
        return texts_exact(it, pieces, fixed, vals, span);
    }
    texts_exact(it, pieces, fixed, vals, span)
}

/// [`texts_of`] of texts and scalars into a new text, after its step.
#[inline(always)]
fn texts_exact<const N: usize>(
    it: &mut Interp,
    pieces: &[Piece],
    fixed: usize,
    vals: [Value; N],
    span: Span,
) -> Result<Value> {
    // Texts, numbers, booleans and nils (not keywords: `:a` prints a
    // colon before its name): each one's text first, so the string's
    // length is known before it is written.
    let mut digits: [itoa::Buffer; N] = std::array::from_fn(|_| itoa::Buffer::new());
    let mut texts: [&str; N] = [""; N];
    let exact = (vals.iter().zip(&mut digits).zip(&mut texts)).all(|((v, d), t)| {
        crate::format::str_text(v, d)
            .map(|text| *t = text)
            .is_some()
    });
    if exact {
        let len = texts
            .iter()
            .try_fold(fixed, |len, t| len.checked_add(t.len()));
        let mut computed = texts.iter();
        let pieces_text = pieces.iter().map(|p| match p {
            Piece::Text(t) => *t,
            Piece::Code(_) => computed.next().copied().unwrap_or(""),
        });
        let r = crate::builtins::string::texts_settled(it, pieces.len(), len, pieces_text);
        // Most are numbers (no drop code to call) or shared texts.
        vals.into_iter().for_each(Value::release);
        return r.map_err(|e| e.or_span(span));
    }
    crate::builtins::string::printed_settled(it, pieces.len(), |out, room| {
        let mut vals = vals.iter();
        for p in pieces {
            let fits = match p {
                Piece::Text(t) => {
                    out.push_str(t);
                    out.len() <= room
                }
                Piece::Code(_) => vals.next().is_none_or(|v| {
                    crate::format::write_display(out, v, crate::format::Style::Str, room)
                }),
            };
            if !fits {
                return false;
            }
        }
        true
    })
    .map_err(|e| e.or_span(span))
}

/// Calls `fv` with arguments the callee may take (`Interp::call_mut`).
#[inline(always)]
fn apply(it: &mut Interp, fv: &Value, vals: &mut [Value]) -> Result<Value> {
    match fv {
        Value::Fn(f) => match f.kind() {
            FuncRef::Closure(c) => it.enter_closure(c, Args::Owned(vals)),
            FuncRef::Builtin(b) => it.call_builtin_mut(b, vals),
            FuncRef::Native(_) => it.call_other(fv, vals),
        },
        _ => it.call_other(fv, vals),
    }
}

/// `(f args…)` of anything else: a user/ definition (`(fib (- n 1))`)
/// is read straight from the definitions, other heads are evaluated.
pub(super) fn call(c: &Call) -> Code<'_> {
    let span = c.span;
    let args = ArgsCode::of(&c.args);
    match &c.f {
        Expr::Global(id) => {
            let id = *id;
            Box::new(move |it, f| {
                // A closure (the usual definition) is held by its `Arc`
                // alone for the call; a function calling itself (`(fib (- n
                // 1))`) is held by its caller already: no count changes.
                let def = it.globals.get(id).map(|d| &d.value);
                let r = match def.and_then(Value::as_func).map(Func::kind) {
                    Some(FuncRef::Closure(c)) => match f.closure {
                        // Its arguments evaluated straight into its frame.
                        Some(me) if me.ptr_eq(c) => match args.push(it, f) {
                            Ok(bp) => it.enter_pushed(me, bp),
                            Err(e) => Err(e),
                        },
                        _ => {
                            let c = c.clone();
                            args.push(it, f)
                                .and_then(|bp| it.enter_pushed_apart(&c, bp))
                        }
                    },
                    // (What `apply` does with it; told apart from the
                    // rest here, as a test for closures alone compiles to
                    // more instructions.)
                    Some(FuncRef::Builtin(b)) => {
                        args.with(it, f, |it, vals| it.call_builtin_mut(b, vals))
                    }
                    _ => {
                        let fv = global(it, id)?;
                        args.with(it, f, |it, vals| apply(it, &fv, vals))
                    }
                };
                r.map_err(|e| e.or_span(span))
            })
        }
        head => {
            let head = compile(head);
            Box::new(move |it, f| {
                let fv = head(it, f)?;
                args.with(it, f, |it, vals| apply(it, &fv, vals))
                    .map_err(|e| e.or_span(span))
            })
        }
    }
}
