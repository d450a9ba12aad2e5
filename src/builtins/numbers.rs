//! Builtins: numbers — arithmetic, comparison, numeric predicates, bit
//! operations, coercions and parsing.
//!
//! PTC-Lisp's deliberate differences from Clojure (`language.md`) apply here:
//! integers are 64-bit and every integer operation is checked (overflow is an
//! `arithmetic-error`; the primed `+'` `*'` … behave the same), `/` always
//! returns a float (`(/ 10 2)` is `5.0`, `(/ 1 0)` is `##Inf`, `(/ 0 0)` is
//! `##NaN`), `quot`/`rem`/`mod` by zero are `arithmetic-error`s, and `<` `>`
//! `<=` `>=` compare numbers only (strings are a `type-error` with a hint to
//! use `compare`). Mixed integer/float arithmetic gives a float.
//!
//! PTC-Lisp extensions: `floor` `ceil` `round` `trunc` return integers for
//! finite arguments (`(round -3.5)` is `-4`, half away from zero; `##NaN` and
//! infinities come back unchanged), `sqrt` and `pow` return floats.
//!
//! Decisions where neither `language.md` nor the cases say:
//! * `(compare ##NaN 1)` is `0` (Clojure); `compare` on strings, keywords
//!   and symbols returns Java's `compareTo` value (e.g. `(compare "a" "c")`
//!   is `-2`), on booleans, numbers and nil -1/0/1, on vectors length first.
//! * `(int "a")` is the character's code point 97 (Clojure's `(int \a)`:
//!   characters are one-character strings); longer strings are a
//!   `type-error` with a hint to use `parse-long`.
//! * `int` range-checks to 32 bits as Clojure does: `(int 1e10)` is an
//!   `arithmetic-error` "Value out of range for int" (class
//!   `IllegalArgumentException`); `long` converts to 64 bits.
//! * `float` is `double`: there are no 32-bit floats, so `(float 0.1)` is
//!   the 64-bit 0.1 (Clojure's Float prints 0.1 too, but arithmetic on it
//!   rounds to 32 bits: `(* (float 0.1) 3)` is 0.30000001192092896 there,
//!   0.30000000000000004 here).
//! * bit shifts wrap like Java (the shift count is taken modulo 64).
//! * `parse-boolean` of a non-string is `nil`, like `parse-long`.

use std::cmp::Ordering;

use super::{args, Arity, Builtin};
use crate::error::{Error, Result};
use crate::eval::Interp;
use crate::value::order::{cmp_int_float, compare_values, lisp_equal, shared_pair, Seen};
use crate::value::Value;

pub const BUILTINS: &[Builtin] = &[
    // Arithmetic.
    Builtin::new("+", Arity::at_least(0), "Sum of the numbers; (+) is 0. Integer overflow is an arithmetic-error.", add)
        .example("(+ 1 2 3) ;=> 6"),
    Builtin::new("+'", Arity::at_least(0), "Same as + (integers are 64-bit; overflow is an arithmetic-error).", add_p)
        .example("(+' 1 2) ;=> 3"),
    Builtin::new("-", Arity::at_least(1), "Subtracts the rest from the first number; (- x) negates.", sub)
        .example("(- 10 3 2) ;=> 5"),
    Builtin::new("-'", Arity::at_least(1), "Same as - (overflow is an arithmetic-error).", sub_p)
        .example("(-' 10 3) ;=> 7"),
    Builtin::new("*", Arity::at_least(0), "Product of the numbers; (*) is 1. Integer overflow is an arithmetic-error.", mul)
        .example("(* 2 3 4) ;=> 24"),
    Builtin::new("*'", Arity::at_least(0), "Same as * (overflow is an arithmetic-error).", mul_p)
        .example("(*' 2 3) ;=> 6"),
    Builtin::new("/", Arity::at_least(1), "Divides the first number by the rest; always a float ((/ 1 0) is ##Inf); (/ x) is 1/x.", div)
        .example("(/ 10 4) ;=> 2.5"),
    Builtin::new("inc", Arity::exact(1), "The number plus one.", inc).example("(inc 5) ;=> 6"),
    Builtin::new("inc'", Arity::exact(1), "Same as inc.", inc_p).example("(inc' 5) ;=> 6"),
    Builtin::new("dec", Arity::exact(1), "The number minus one.", dec).example("(dec 5) ;=> 4"),
    Builtin::new("dec'", Arity::exact(1), "Same as dec.", dec_p).example("(dec' 5) ;=> 4"),
    Builtin::new("quot", Arity::exact(2), "Integer division truncated toward zero; dividing by zero is an arithmetic-error.", quot)
        .example("(quot 7 2) ;=> 3"),
    Builtin::new("rem", Arity::exact(2), "Remainder of truncated division (sign of the dividend).", rem)
        .example("(rem -7 2) ;=> -1"),
    Builtin::new("mod", Arity::exact(2), "Modulus (sign of the divisor).", modulo)
        .example("(mod -7 2) ;=> 1"),
    Builtin::new("abs", Arity::exact(1), "Absolute value.", abs).example("(abs -5) ;=> 5"),
    Builtin::new("max", Arity::at_least(1), "The largest of the numbers (for a collection use (apply max xs)).", max)
        .example("(max 1 5 3) ;=> 5"),
    Builtin::new("min", Arity::at_least(1), "The smallest of the numbers (for a collection use (apply min xs)).", min)
        .example("(min 4 2 8) ;=> 2"),
    Builtin::new("max-key", Arity::at_least(2), "The argument x for which (k x) is largest (last one on ties).", max_key)
        .example("(max-key count \"a\" \"abc\" \"ab\") ;=> \"abc\""),
    Builtin::new("min-key", Arity::at_least(2), "The argument x for which (k x) is smallest (last one on ties).", min_key)
        .example("(min-key count \"abc\" \"a\") ;=> \"a\""),
    // PTC-Lisp math extensions.
    Builtin::new("floor", Arity::exact(1), "Rounds down to an integer (PTC-Lisp).", floor)
        .example("(floor 3.7) ;=> 3"),
    Builtin::new("ceil", Arity::exact(1), "Rounds up to an integer (PTC-Lisp).", ceil)
        .example("(ceil 3.2) ;=> 4"),
    Builtin::new("round", Arity::exact(1), "Rounds to the nearest integer, halves away from zero (PTC-Lisp).", round)
        .example("(round 2.5) ;=> 3"),
    Builtin::new("trunc", Arity::exact(1), "Drops the fractional part, giving an integer (PTC-Lisp).", trunc)
        .example("(trunc -3.7) ;=> -3"),
    Builtin::new("sqrt", Arity::exact(1), "Square root as a float; negative numbers give ##NaN (also Math/sqrt).", sqrt)
        .example("(sqrt 16) ;=> 4.0"),
    Builtin::new("pow", Arity::exact(2), "x to the power y, as a float (also Math/pow).", pow)
        .example("(pow 2 10) ;=> 1024.0"),
    // Comparison.
    Builtin::new("=", Arity::at_least(1), "True if all arguments are equal (structural; (= 1 1.0) is false, use == for numbers).", eq)
        .example("(= [1 2] '(1 2)) ;=> true"),
    Builtin::new("not=", Arity::at_least(1), "(not (= ...)).", not_eq)
        .example("(not= :a :b) ;=> true"),
    Builtin::new("==", Arity::at_least(1), "True if all numbers are numerically equal ((== 1 1.0) is true).", num_eq)
        .example("(== 1 1.0) ;=> true"),
    Builtin::new("<", Arity::at_least(1), "True if the numbers increase strictly; chains: (< 1 x 10). Numbers only (use compare for strings).", lt)
        .example("(< 1 2 3) ;=> true"),
    Builtin::new("<=", Arity::at_least(1), "True if the numbers never decrease. Numbers only.", le)
        .example("(<= 1 1 2) ;=> true"),
    Builtin::new(">", Arity::at_least(1), "True if the numbers decrease strictly. Numbers only.", gt)
        .example("(> 3 2 1) ;=> true"),
    Builtin::new(">=", Arity::at_least(1), "True if the numbers never increase. Numbers only.", ge)
        .example("(>= 3 3 1) ;=> true"),
    Builtin::new("compare", Arity::exact(2), "Negative, zero or positive as x is less than, equal to or greater than y; works on numbers, strings, keywords, booleans, nil and vectors.", compare)
        .example("(compare \"apple\" \"banana\") ;=> -1"),
    // Numeric predicates.
    Builtin::new("zero?", Arity::exact(1), "True if the number is zero.", is_zero).example("(zero? 0.0) ;=> true"),
    Builtin::new("pos?", Arity::exact(1), "True if the number is greater than zero.", is_pos).example("(pos? 3) ;=> true"),
    Builtin::new("neg?", Arity::exact(1), "True if the number is less than zero.", is_neg).example("(neg? -1) ;=> true"),
    Builtin::new("even?", Arity::exact(1), "True if the integer is even.", is_even).example("(even? 4) ;=> true"),
    Builtin::new("odd?", Arity::exact(1), "True if the integer is odd.", is_odd).example("(odd? 3) ;=> true"),
    Builtin::new("NaN?", Arity::exact(1), "True if the number is ##NaN.", is_nan).example("(NaN? (/ 0 0)) ;=> true"),
    Builtin::new("infinite?", Arity::exact(1), "True if the number is ##Inf or ##-Inf.", is_infinite)
        .example("(infinite? (/ 1 0)) ;=> true"),
    // Bit operations.
    Builtin::new("bit-and", Arity::at_least(2), "Bitwise and of integers.", bit_and).example("(bit-and 12 10) ;=> 8"),
    Builtin::new("bit-or", Arity::at_least(2), "Bitwise or of integers.", bit_or).example("(bit-or 12 10) ;=> 14"),
    Builtin::new("bit-xor", Arity::at_least(2), "Bitwise exclusive or of integers.", bit_xor).example("(bit-xor 12 10) ;=> 6"),
    Builtin::new("bit-and-not", Arity::at_least(2), "Bitwise and of the first integer with the complement of the rest.", bit_and_not)
        .example("(bit-and-not 12 10) ;=> 4"),
    Builtin::new("bit-not", Arity::exact(1), "Bitwise complement.", bit_not).example("(bit-not 0) ;=> -1"),
    Builtin::new("bit-set", Arity::exact(2), "Sets bit n of x.", bit_set).example("(bit-set 0 3) ;=> 8"),
    Builtin::new("bit-clear", Arity::exact(2), "Clears bit n of x.", bit_clear).example("(bit-clear 15 0) ;=> 14"),
    Builtin::new("bit-flip", Arity::exact(2), "Flips bit n of x.", bit_flip).example("(bit-flip 8 3) ;=> 0"),
    Builtin::new("bit-test", Arity::exact(2), "True if bit n of x is set.", bit_test).example("(bit-test 8 3) ;=> true"),
    Builtin::new("bit-shift-left", Arity::exact(2), "Shifts x left by n bits.", bit_shift_left)
        .example("(bit-shift-left 1 4) ;=> 16"),
    Builtin::new("bit-shift-right", Arity::exact(2), "Shifts x right by n bits (keeping the sign).", bit_shift_right)
        .example("(bit-shift-right 16 2) ;=> 4"),
    // Coercions.
    Builtin::new("int", Arity::exact(1), "Converts to an integer, truncating toward zero; (int \"a\") is the character code.", to_int)
        .example("(int 3.7) ;=> 3"),
    Builtin::new("long", Arity::exact(1), "Same as int.", to_long).example("(long -3.7) ;=> -3"),
    Builtin::new("double", Arity::exact(1), "Converts a number to a float.", to_double).example("(double 5) ;=> 5.0"),
    Builtin::new("float", Arity::exact(1), "Converts a number to a float.", to_float).example("(float 1) ;=> 1.0"),
    Builtin::new("num", Arity::exact(1), "Returns the number itself (type-error for non-numbers).", to_num).example("(num 2) ;=> 2"),
    Builtin::new("boolean", Arity::exact(1), "false for nil and false, true for everything else.", to_boolean)
        .example("(boolean 0) ;=> true"),
    // Parsing.
    Builtin::new("parse-long", Arity::exact(1), "Parses a string holding exactly an integer; nil for anything else.", parse_long)
        .example("(parse-long \"42\") ;=> 42"),
    Builtin::new("parse-double", Arity::exact(1), "Parses a string holding exactly a number as a float; nil for anything else.", parse_double)
        .example("(parse-double \"3.14\") ;=> 3.14"),
    Builtin::new("parse-boolean", Arity::exact(1), "\"true\" → true, \"false\" → false, anything else nil.", parse_boolean)
        .example("(parse-boolean \"true\") ;=> true"),
];

// ---------------------------------------------------------------------------
// Numbers

#[derive(Clone, Copy, Debug)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
    fn value(self) -> Value {
        match self {
            Num::I(i) => Value::Int(i),
            Num::F(f) => Value::Float(f),
        }
    }
    fn is_nan(self) -> bool {
        matches!(self, Num::F(f) if f.is_nan())
    }
}

/// The type error for a non-number given to arithmetic, with a hint for the
/// common mistakes.
fn not_a_number(fname: &str, v: &Value) -> Error {
    let e = args::type_error(fname, "numbers", v);
    match v {
        Value::Nil => e.with_hint(
            "a value is nil: check the key or variable name, or give a default with (or x 0)",
        ),
        Value::Str(_) => e.with_hint("convert strings first with parse-long or parse-double"),
        Value::Vector(_) | Value::Set(_) | Value::Lazy(_) => e.with_hint(format!(
            "to combine the items of a collection use (apply {fname} xs) or (reduce {fname} xs)"
        )),
        _ => e,
    }
}

/// The type error for a non-number given to an ordering comparison.
fn not_comparable(fname: &str, v: &Value) -> Error {
    let e = args::type_error(fname, "numbers", v);
    match v {
        Value::Str(_) | Value::Keyword(_) => e.with_hint(format!(
            "{fname} compares numbers only; for strings use compare, e.g. (neg? (compare a b)), or sort"
        )),
        Value::Nil => e.with_hint(
            "a value is nil: check the key name, or guard it, e.g. (and x (> x 10))",
        ),
        _ => e,
    }
}

#[inline]
fn num(fname: &str, v: &Value) -> Result<Num> {
    match v {
        Value::Int(i) => Ok(Num::I(*i)),
        Value::Float(f) => Ok(Num::F(*f)),
        _ => Err(not_a_number(fname, v)),
    }
}

fn nums(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Vec<Num>> {
    interp.tick(args.len() as u64)?;
    args.iter().map(|v| num(fname, v)).collect()
}

fn overflow(fname: &str) -> Error {
    Error::arithmetic(format!("integer overflow in {fname} (integers are 64-bit)"))
        .with_hint("for very large values use floats, e.g. (* 1.0 x y)")
}

fn div_by_zero(fname: &str) -> Error {
    Error::arithmetic(format!("{fname} cannot divide by zero")).with_hint(
        "check the divisor first, e.g. (if (zero? d) 0 (quot n d)); / gives ##Inf instead",
    )
}

fn add2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_add(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() + b.f())),
    }
}

fn sub2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_sub(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() - b.f())),
    }
}

fn mul2(fname: &str, a: Num, b: Num) -> Result<Num> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => x.checked_mul(y).map(Num::I).ok_or_else(|| overflow(fname)),
        _ => Ok(Num::F(a.f() * b.f())),
    }
}

fn add_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let mut acc = Num::I(0);
    for v in args {
        acc = add2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

fn sub_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let first = num(fname, &args[0])?;
    if args.len() == 1 {
        return Ok(match first {
            Num::I(i) => Value::Int(i.checked_neg().ok_or_else(|| overflow(fname))?),
            Num::F(f) => Value::Float(-f),
        });
    }
    let mut acc = first;
    for v in &args[1..] {
        acc = sub2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

fn mul_impl(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let mut acc = Num::I(1);
    for v in args {
        acc = mul2(fname, acc, num(fname, v)?)?;
    }
    Ok(acc.value())
}

fn add(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    add_impl(interp, "+", args)
}
fn add_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    add_impl(interp, "+'", args)
}
fn sub(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    sub_impl(interp, "-", args)
}
fn sub_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    sub_impl(interp, "-'", args)
}
fn mul(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    mul_impl(interp, "*", args)
}
fn mul_p(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    mul_impl(interp, "*'", args)
}

fn div(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let ns = nums(interp, "/", args)?;
    if ns.len() == 1 {
        return Ok(Value::Float(1.0 / ns[0].f()));
    }
    let mut acc = ns[0].f();
    for n in &ns[1..] {
        acc /= n.f();
    }
    Ok(Value::Float(acc))
}

fn step(fname: &str, v: &Value, delta: i64) -> Result<Value> {
    match num(fname, v)? {
        Num::I(i) => i
            .checked_add(delta)
            .map(Value::Int)
            .ok_or_else(|| overflow(fname)),
        Num::F(f) => Ok(Value::Float(f + delta as f64)),
    }
}

fn inc(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("inc", &args[0], 1)
}
fn inc_p(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("inc'", &args[0], 1)
}
fn dec(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("dec", &args[0], -1)
}
fn dec_p(_: &mut Interp, args: &[Value]) -> Result<Value> {
    step("dec'", &args[0], -1)
}

fn quot(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("quot", &args[0])?, num("quot", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("quot")),
        (Num::I(x), Num::I(y)) => x
            .checked_div(y)
            .map(Value::Int)
            .ok_or_else(|| overflow("quot")),
        _ if b.f() == 0.0 => Err(div_by_zero("quot")),
        _ => Ok(Value::Float((a.f() / b.f()).trunc())),
    }
}

fn rem(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("rem", &args[0])?, num("rem", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("rem")),
        // Only i64::MIN % -1 fails, and its remainder is 0.
        (Num::I(x), Num::I(y)) => Ok(Value::Int(x.checked_rem(y).unwrap_or(0))),
        _ if b.f() == 0.0 => Err(div_by_zero("rem")),
        _ => Ok(Value::Float(a.f() % b.f())),
    }
}

fn modulo(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (num("mod", &args[0])?, num("mod", &args[1])?);
    match (a, b) {
        (Num::I(_), Num::I(0)) => Err(div_by_zero("mod")),
        (Num::I(x), Num::I(y)) => {
            let m = x.checked_rem(y).unwrap_or(0);
            Ok(Value::Int(if m != 0 && ((m < 0) != (y < 0)) {
                m + y
            } else {
                m
            }))
        }
        _ if b.f() == 0.0 => Err(div_by_zero("mod")),
        _ => {
            let (x, y) = (a.f(), b.f());
            let m = x % y;
            Ok(Value::Float(if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                m + y
            } else {
                m
            }))
        }
    }
}

fn abs(_: &mut Interp, args: &[Value]) -> Result<Value> {
    match num("abs", &args[0])? {
        Num::I(i) => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| overflow("abs")),
        Num::F(f) => Ok(Value::Float(f.abs())),
    }
}

/// Numeric order of two numbers; `None` when either is NaN.
fn num_cmp(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => Some(x.cmp(&y)),
        (Num::F(x), Num::F(y)) => x.partial_cmp(&y),
        (Num::I(x), Num::F(y)) => (!y.is_nan()).then(|| cmp_int_float(x, y)),
        (Num::F(x), Num::I(y)) => (!x.is_nan()).then(|| cmp_int_float(y, x).reverse()),
    }
}

fn extreme(interp: &mut Interp, fname: &str, args: &[Value], want: Ordering) -> Result<Value> {
    let ns = nums(interp, fname, args)?;
    if ns.iter().any(|n| n.is_nan()) {
        return Ok(Value::Float(f64::NAN));
    }
    let mut best = 0;
    // On ties the later argument wins, as in Clojure: (max 1 1.0) is 1.0.
    for (i, n) in ns.iter().enumerate().skip(1) {
        if num_cmp(*n, ns[best]).is_some_and(|o| o == want || o == Ordering::Equal) {
            best = i;
        }
    }
    Ok(args[best].clone())
}

fn max(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme(interp, "max", args, Ordering::Greater)
}
fn min(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme(interp, "min", args, Ordering::Less)
}

/// `max-key` / `min-key`, as Clojure: the last of equal keys wins.
fn extreme_key(interp: &mut Interp, fname: &str, args: &[Value], want: Ordering) -> Result<Value> {
    let k = &args[0];
    args::callable(fname, k)?;
    let xs = &args[1..];
    if xs.len() == 1 {
        return Ok(xs[0].clone());
    }
    let key = |interp: &mut Interp, x: &Value| -> Result<Num> {
        let kv = interp.call(k, std::slice::from_ref(x))?;
        match kv {
            Value::Int(i) => Ok(Num::I(i)),
            Value::Float(f) => Ok(Num::F(f)),
            other => Err(Error::type_error(format!(
                "{fname} expects the key function to return numbers, got {}",
                other.describe()
            ))
            .with_hint("to pick by a non-numeric key use (first (sort-by k xs))")),
        }
    };
    let mut best = 0;
    let mut best_key = key(interp, &xs[0])?;
    for (i, x) in xs.iter().enumerate().skip(1) {
        interp.tick(1)?;
        let kx = key(interp, x)?;
        let take = match num_cmp(kx, best_key) {
            Some(o) if o == want => true,
            // The first pair picks y unless x is strictly better; later ties
            // move to the later item.
            Some(Ordering::Equal) => true,
            _ => false,
        };
        if take {
            best = i;
            best_key = kx;
        }
    }
    Ok(xs[best].clone())
}

fn max_key(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_key(interp, "max-key", args, Ordering::Greater)
}
fn min_key(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    extreme_key(interp, "min-key", args, Ordering::Less)
}

// ---------------------------------------------------------------------------
// Rounding and math (PTC-Lisp extensions)

/// 2^63: floats in `-TWO_63..TWO_63` convert to `i64` exactly (after
/// truncation).
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Applies `f` to a float and returns an integer when the result fits;
/// integers come back unchanged, NaN and infinities unchanged as floats.
fn to_integral(fname: &str, v: &Value, f: fn(f64) -> f64) -> Result<Value> {
    match num(fname, v)? {
        Num::I(i) => Ok(Value::Int(i)),
        Num::F(x) if !x.is_finite() => Ok(Value::Float(x)),
        Num::F(x) => {
            let r = f(x);
            if (-TWO_63..TWO_63).contains(&r) {
                Ok(Value::Int(r as i64))
            } else {
                Ok(Value::Float(r))
            }
        }
    }
}

fn floor(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("floor", &args[0], f64::floor)
}
fn ceil(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("ceil", &args[0], f64::ceil)
}
fn round(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("round", &args[0], f64::round)
}
fn trunc(_: &mut Interp, args: &[Value]) -> Result<Value> {
    to_integral("trunc", &args[0], f64::trunc)
}

fn sqrt(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Float(num("sqrt", &args[0])?.f().sqrt()))
}

fn pow(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (x, y) = (num("pow", &args[0])?.f(), num("pow", &args[1])?.f());
    let r = x.powf(y);
    // No negative zero: (pow ##-Inf -1) is 0.0.
    Ok(Value::Float(if r == 0.0 { 0.0 } else { r }))
}

// ---------------------------------------------------------------------------
// Comparison

fn eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    Ok(Value::Bool(
        args.windows(2).all(|w| lisp_equal(&w[0], &w[1])),
    ))
}

fn not_eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    Ok(Value::Bool(
        !args.windows(2).all(|w| lisp_equal(&w[0], &w[1])),
    ))
}

fn num_eq(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let ns = nums(interp, "==", args)?;
    Ok(Value::Bool(
        ns.windows(2)
            .all(|w| num_cmp(w[0], w[1]) == Some(Ordering::Equal)),
    ))
}

fn chain(
    interp: &mut Interp,
    fname: &str,
    args: &[Value],
    ok: fn(Ordering) -> bool,
) -> Result<Value> {
    interp.tick(args.len() as u64)?;
    let as_num = |v: &Value| match v {
        Value::Int(i) => Ok(Num::I(*i)),
        Value::Float(f) => Ok(Num::F(*f)),
        _ => Err(not_comparable(fname, v)),
    };
    if let [a, b] = args {
        return Ok(Value::Bool(num_cmp(as_num(a)?, as_num(b)?).is_some_and(ok)));
    }
    for v in args {
        as_num(v)?;
    }
    let mut all = true;
    for w in args.windows(2) {
        all = all && num_cmp(as_num(&w[0])?, as_num(&w[1])?).is_some_and(ok);
    }
    Ok(Value::Bool(all))
}

fn lt(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, "<", args, |o| o == Ordering::Less)
}
fn le(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, "<=", args, |o| o != Ordering::Greater)
}
fn gt(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, ">", args, |o| o == Ordering::Greater)
}
fn ge(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    chain(interp, ">=", args, |o| o != Ordering::Less)
}

fn ord_int(o: Ordering) -> i64 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

/// Java's `String.compareTo`: the difference of the first differing UTF-16
/// code units, else the difference of the lengths.
fn java_str_cmp(a: &str, b: &str) -> i64 {
    let mut x = a.encode_utf16();
    let mut y = b.encode_utf16();
    loop {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p != q => return p as i64 - q as i64,
            (Some(_), Some(_)) => {}
            (Some(_), None) => return 1 + x.count() as i64,
            (None, Some(_)) => return -1 - y.count() as i64,
            (None, None) => return 0,
        }
    }
}

/// Clojure's `Symbol.compareTo` (keywords compare by their symbol).
fn java_sym_cmp(a: &str, b: &str) -> i64 {
    fn split(s: &str) -> (Option<&str>, &str) {
        match s.find('/') {
            Some(i) if s != "/" => (Some(&s[..i]), &s[i + 1..]),
            _ => (None, s),
        }
    }
    if a == b {
        return 0;
    }
    let ((ans, aname), (bns, bname)) = (split(a), split(b));
    match (ans, bns) {
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) if x != y => java_str_cmp(x, y),
        _ => java_str_cmp(aname, bname),
    }
}

/// Clojure's `compare`; `None` when the two cannot be compared.
fn clojure_compare(a: &Value, b: &Value) -> Option<i64> {
    clojure_compare_in(a, b, &mut Seen::default())
}

/// [`clojure_compare`], remembering shared parts found equal ([`Seen`]).
fn clojure_compare_in(a: &Value, b: &Value, seen: &mut Seen) -> Option<i64> {
    use Value::*;
    match (a, b) {
        (Int(_) | Float(_), Int(_) | Float(_)) => {
            let (x, y) = (num("compare", a).ok()?, num("compare", b).ok()?);
            // Comparisons with NaN are neither less nor greater: 0.
            Some(num_cmp(x, y).map_or(0, ord_int))
        }
        (Str(x), Str(y)) => Some(java_str_cmp(x, y)),
        (Keyword(x), Keyword(y)) => Some(java_sym_cmp(x, y)),
        (Symbol(x), Symbol(y)) => Some(java_sym_cmp(x, y)),
        (Bool(x), Bool(y)) => Some(ord_int(x.cmp(y))),
        (Nil, Nil) => Some(0),
        (Nil, _) => Some(-1),
        (_, Nil) => Some(1),
        (Vector(x), Vector(y)) => {
            if x.len() != y.len() {
                return Some(ord_int(x.len().cmp(&y.len())));
            }
            let pair = shared_pair(a, b);
            if std::sync::Arc::ptr_eq(x, y) || seen.has(pair) {
                return Some(0);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                crate::eval::budget::charge_work(1);
                match clojure_compare_in(p, q, seen)? {
                    0 => {}
                    c => return Some(c),
                }
            }
            seen.note(pair, true);
            Some(0)
        }
        _ => compare_values(a, b).map(ord_int),
    }
}

fn compare(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let (a, b) = (&args[0], &args[1]);
    match clojure_compare(a, b) {
        Some(c) => Ok(Value::Int(c)),
        None => Err(Error::type_error(format!(
            "compare cannot compare {} with {}",
            a.describe(),
            b.describe()
        ))
        .with_hint(
            "compare works on two numbers, two strings, two keywords, two booleans or two vectors (nil is smallest)",
        )),
    }
}

// ---------------------------------------------------------------------------
// Numeric predicates

fn sign_test(fname: &str, v: &Value, ok: fn(Ordering) -> bool) -> Result<Value> {
    let n = num(fname, v)?;
    Ok(Value::Bool(num_cmp(n, Num::I(0)).is_some_and(ok)))
}

fn is_zero(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("zero?", &args[0], |o| o == Ordering::Equal)
}
fn is_pos(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("pos?", &args[0], |o| o == Ordering::Greater)
}
fn is_neg(_: &mut Interp, args: &[Value]) -> Result<Value> {
    sign_test("neg?", &args[0], |o| o == Ordering::Less)
}

fn parity(fname: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(i.rem_euclid(2)),
        _ => Err(args::type_error(fname, "an integer", v)),
    }
}

fn is_even(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(parity("even?", &args[0])? == 0))
}
fn is_odd(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(parity("odd?", &args[0])? == 1))
}

fn is_nan(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(num("NaN?", &args[0])?.is_nan()))
}
fn is_infinite(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(
        matches!(num("infinite?", &args[0])?, Num::F(f) if f.is_infinite()),
    ))
}

// ---------------------------------------------------------------------------
// Bit operations

fn ints(interp: &mut Interp, fname: &str, args: &[Value]) -> Result<Vec<i64>> {
    interp.tick(args.len() as u64)?;
    args.iter().map(|v| args::int(fname, v)).collect()
}

fn bit_fold(
    interp: &mut Interp,
    fname: &str,
    args: &[Value],
    f: fn(i64, i64) -> i64,
) -> Result<Value> {
    let xs = ints(interp, fname, args)?;
    Ok(Value::Int(xs[1..].iter().fold(xs[0], |a, b| f(a, *b))))
}

fn bit_and(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-and", args, |a, b| a & b)
}
fn bit_or(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-or", args, |a, b| a | b)
}
fn bit_xor(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-xor", args, |a, b| a ^ b)
}
fn bit_and_not(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-and-not", args, |a, b| a & !b)
}
fn bit_not(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Int(!args::int("bit-not", &args[0])?))
}

/// `(f x n)` with the shift count taken modulo 64, as Java does.
fn bit_n(args: &[Value], fname: &str, f: fn(i64, u32) -> Value) -> Result<Value> {
    let x = args::int(fname, &args[0])?;
    let n = args::int(fname, &args[1])?;
    Ok(f(x, (n & 63) as u32))
}

fn bit_set(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-set", |x, n| Value::Int(x | (1i64 << n)))
}
fn bit_clear(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-clear", |x, n| Value::Int(x & !(1i64 << n)))
}
fn bit_flip(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-flip", |x, n| Value::Int(x ^ (1i64 << n)))
}
fn bit_test(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-test", |x, n| Value::Bool((x >> n) & 1 == 1))
}
fn bit_shift_left(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-shift-left", |x, n| Value::Int(x.wrapping_shl(n)))
}
fn bit_shift_right(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-shift-right", |x, n| Value::Int(x >> n))
}

// ---------------------------------------------------------------------------
// Coercions

fn integer_of(fname: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Float(f) if f.is_nan() => Err(Error::arithmetic(format!(
            "{fname} cannot convert ##NaN to an integer"
        ))
        .with_hint("check with NaN? first")),
        Value::Float(f) if !f.is_finite() => Err(Error::arithmetic(format!(
            "{fname} cannot convert {} to an integer",
            if *f > 0.0 { "##Inf" } else { "##-Inf" }
        ))
        .with_hint("check with infinite? first; (/ x 0) gives ##Inf")),
        Value::Float(f) => {
            let t = f.trunc();
            if (-TWO_63..TWO_63).contains(&t) {
                Ok(Value::Int(t as i64))
            } else {
                Err(Error::arithmetic(format!(
                    "{fname} cannot convert {} to a 64-bit integer: out of range",
                    v.describe()
                )))
            }
        }
        Value::Str(s) => {
            let mut cs = s.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Ok(Value::Int(c as i64)),
                _ => Err(args::type_error(fname, "a number or a character", v)
                    .with_hint("to read a number from a string use parse-long or parse-double")),
            }
        }
        _ => Err(args::type_error(fname, "a number", v)),
    }
}

/// `int` range-checks to 32 bits as Clojure does (`(int 1e10)` throws
/// "Value out of range for int"): an `arithmetic-error` of class
/// `IllegalArgumentException`.
fn to_int(_: &mut Interp, args: &[Value]) -> Result<Value> {
    let v = integer_of("int", &args[0])?;
    match v {
        Value::Int(i) if i32::try_from(i).is_err() => Err(Error::arithmetic(format!(
            "Value out of range for int: {}",
            crate::format::to_clojure(&args[0], None, None).0
        ))
        .with_class("IllegalArgumentException")
        .with_hint("int is 32-bit (-2147483648 to 2147483647); use long for 64-bit integers")),
        v => Ok(v),
    }
}
fn to_long(_: &mut Interp, args: &[Value]) -> Result<Value> {
    integer_of("long", &args[0])
}

fn float_of(fname: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Int(i) => Ok(Value::Float(*i as f64)),
        Value::Float(f) => Ok(Value::Float(*f)),
        Value::Str(_) => Err(args::type_error(fname, "a number", v)
            .with_hint("to read a number from a string use parse-double")),
        _ => Err(args::type_error(fname, "a number", v)),
    }
}

fn to_double(_: &mut Interp, args: &[Value]) -> Result<Value> {
    float_of("double", &args[0])
}
fn to_float(_: &mut Interp, args: &[Value]) -> Result<Value> {
    float_of("float", &args[0])
}

fn to_num(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(num("num", &args[0])?.value())
}

fn to_boolean(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Bool(args[0].truthy()))
}

// ---------------------------------------------------------------------------
// Parsing

/// An optional sign followed by ASCII digits only.
fn parse_long_str(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// What Java's `Double.parseDouble` accepts, without surrounding
/// whitespace or type suffixes: `[+-]` then `Infinity`, `NaN`, or digits
/// with an optional fraction and exponent.
fn parse_double_str(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    match body {
        "Infinity" => return Some(sign * f64::INFINITY),
        "NaN" => return Some(f64::NAN),
        _ => {}
    }
    let b = body.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}

fn parse_long(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match &args[0] {
        Value::Str(s) => parse_long_str(s).map_or(Value::Nil, Value::Int),
        _ => Value::Nil,
    })
}

fn parse_double(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match &args[0] {
        Value::Str(s) => parse_double_str(s).map_or(Value::Nil, Value::Float),
        _ => Value::Nil,
    })
}

fn parse_boolean(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(match args[0].as_str() {
        Some("true") => Value::Bool(true),
        Some("false") => Value::Bool(false),
        _ => Value::Nil,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{i, s};
    use crate::error::ErrorKind;

    fn call(name: &str, args: &[Value]) -> Result<Value> {
        let b = BUILTINS
            .iter()
            .find(|b| b.name == name)
            .unwrap_or_else(|| panic!("no builtin {name}"));
        assert!(b.arity.accepts(args.len()), "{name} arity");
        let mut interp = Interp::standalone();
        (b.f)(&mut interp, args)
    }

    fn ok(name: &str, args: &[Value]) -> Value {
        call(name, args).unwrap_or_else(|e| panic!("({name} {args:?}) failed: {e}"))
    }

    fn err(name: &str, args: &[Value]) -> ErrorKind {
        match call(name, args) {
            Ok(v) => panic!("({name} {args:?}) gave {v:?}, expected an error"),
            Err(e) => e.kind(),
        }
    }

    fn f(x: f64) -> Value {
        Value::Float(x)
    }
    fn b(x: bool) -> Value {
        Value::Bool(x)
    }
    fn is_nan(v: &Value) -> bool {
        matches!(v, Value::Float(x) if x.is_nan())
    }
    const INF: f64 = f64::INFINITY;
    const NAN: f64 = f64::NAN;

    /// Exact value check that tells 1 from 1.0.
    fn same(a: &Value, b: &Value) -> bool {
        a == b && a.type_name() == b.type_name()
    }

    #[track_caller]
    fn check(name: &str, args: &[Value], want: Value) {
        let got = ok(name, args);
        assert!(
            same(&got, &want),
            "({name} {args:?}) = {got:?}, want {want:?}"
        );
    }

    #[test]
    fn arithmetic() {
        check("*", &[i(2), i(3), i(4)], i(24));
        check("+", &[], i(0));
        check("*", &[], i(1));
        check("+", &[i(1), f(2.5)], f(3.5));
        check("*", &[f(1.5), i(2)], f(3.0));
        check("-", &[i(10), i(3), i(2), i(1)], i(4));
        check("-", &[i(5)], i(-5));
        check("-", &[f(-INF)], f(INF));
        check("-", &[f(INF), i(1)], f(INF));
        check("*", &[f(INF), i(-2)], f(-INF));
        assert!(is_nan(&ok("+", &[f(INF), f(-INF)])));
        assert!(is_nan(&ok("*", &[f(NAN), i(10)])));
        assert!(is_nan(&ok("-", &[f(INF), f(INF)])));
        check("inc", &[i(5)], i(6));
        check("dec", &[i(5)], i(4));
        check("inc", &[f(1.5)], f(2.5));
        check("abs", &[i(-5)], i(5));
        check("abs", &[i(0)], i(0));
        check("abs", &[f(-2.5)], f(2.5));
    }

    #[test]
    fn overflow_is_an_arithmetic_error() {
        let big = i(1_000_000_000_000);
        assert_eq!(err("*", &[big.clone(), big]), ErrorKind::Arithmetic);
        assert_eq!(err("+", &[i(i64::MAX), i(1)]), ErrorKind::Arithmetic);
        assert_eq!(err("+'", &[i(i64::MAX), i(1)]), ErrorKind::Arithmetic);
        assert_eq!(err("-", &[i(i64::MIN)]), ErrorKind::Arithmetic);
        assert_eq!(err("inc", &[i(i64::MAX)]), ErrorKind::Arithmetic);
        assert_eq!(err("dec'", &[i(i64::MIN)]), ErrorKind::Arithmetic);
        assert_eq!(err("abs", &[i(i64::MIN)]), ErrorKind::Arithmetic);
        assert_eq!(err("quot", &[i(i64::MIN), i(-1)]), ErrorKind::Arithmetic);
    }

    #[test]
    fn nil_and_strings_are_type_errors_naming_them() {
        let e = call("+", &[i(1), Value::Nil]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.message().contains("nil"), "{e}");
        assert!(e.message().contains('+'), "{e}");
        let e = call("/", &[i(10), Value::Nil]).unwrap_err();
        assert!(e.message().contains("nil"), "{e}");
        let e = call("*", &[i(5), Value::Nil]).unwrap_err();
        assert!(e.message().contains("nil"), "{e}");
        assert_eq!(err("+", &[s("string"), i(42)]), ErrorKind::Type);
    }

    #[test]
    fn division_is_always_float() {
        check("/", &[i(10), i(2)], f(5.0));
        check("/", &[i(10), i(4)], f(2.5));
        check("/", &[i(5), i(0)], f(INF));
        check("/", &[i(1), i(0)], f(INF));
        check("/", &[i(-1), i(0)], f(-INF));
        assert!(is_nan(&ok("/", &[i(0), i(0)])));
        assert!(is_nan(&ok("/", &[f(0.0), f(0.0)])));
        check("/", &[f(INF), i(2)], f(INF));
        check("/", &[i(2), f(INF)], f(0.0));
        check("/", &[i(4)], f(0.25));
        check("/", &[i(100), i(2), i(5)], f(10.0));
    }

    #[test]
    fn quot_rem_mod() {
        check("quot", &[i(7), i(2)], i(3));
        check("quot", &[i(-7), i(2)], i(-3));
        check("quot", &[f(7.5), i(2)], f(3.0));
        check("rem", &[i(-7), i(2)], i(-1));
        check("rem", &[i(7), i(-2)], i(1));
        check("mod", &[i(10), i(3)], i(1));
        check("mod", &[i(-7), i(2)], i(1));
        check("mod", &[i(7), i(-2)], i(-1));
        check("mod", &[i(-6), i(3)], i(0));
        check("mod", &[f(-7.5), i(2)], f(0.5));
        check("rem", &[i(i64::MIN), i(-1)], i(0));
        check("mod", &[i(i64::MIN), i(-1)], i(0));
        for name in ["quot", "rem", "mod"] {
            assert_eq!(err(name, &[i(1), i(0)]), ErrorKind::Arithmetic);
            assert_eq!(err(name, &[f(1.5), f(0.0)]), ErrorKind::Arithmetic);
        }
    }

    #[test]
    fn max_min_keep_the_argument() {
        check("max", &[i(1), i(5), i(3)], i(5));
        check("min", &[i(4), i(2), i(8)], i(2));
        check("max", &[i(1), f(2.0)], f(2.0));
        check("max", &[i(2), f(1.0)], i(2));
        check("max", &[i(7)], i(7));
        assert!(is_nan(&ok("max", &[i(1), f(NAN), i(2)])));
        let e = call("max", &[Value::vector_from([i(1), i(2)])]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.hint().unwrap_or("").contains("apply max"));
    }

    #[test]
    fn max_key_and_min_key() {
        let second = Func::native("second", |_, a| {
            Ok(crate::eval::lookup(&a[0], &Value::Int(1)).unwrap_or(Value::Nil))
        });
        let pair = |k: &str, n: i64| Value::vector_from([s(k), i(n)]);
        check(
            "max-key",
            &[second.clone(), pair("a", 1), pair("b", 5), pair("c", 3)],
            pair("b", 5),
        );
        check(
            "min-key",
            &[second.clone(), pair("a", 5), pair("b", 1), pair("c", 3)],
            pair("b", 1),
        );
        // Last one wins on ties, as in Clojure.
        check(
            "max-key",
            &[second.clone(), pair("a", 5), pair("b", 5)],
            pair("b", 5),
        );
        check(
            "min-key",
            &[second.clone(), pair("a", 1), pair("b", 1), pair("c", 1)],
            pair("c", 1),
        );
        // A single argument is returned without calling k.
        check("max-key", &[second, s("hello")], s("hello"));
    }

    use crate::value::Func;

    #[test]
    fn rounding_gives_integers() {
        check("floor", &[f(3.7)], i(3));
        check("ceil", &[f(3.2)], i(4));
        check("round", &[f(3.4)], i(3));
        check("floor", &[f(-3.7)], i(-4));
        check("ceil", &[f(-3.2)], i(-3));
        check("floor", &[f(3.0)], i(3));
        check("ceil", &[i(5)], i(5));
        check("ceil", &[f(3.0)], i(3));
        check("round", &[f(-3.5)], i(-4));
        check("round", &[f(2.5)], i(3));
        check("round", &[i(5)], i(5));
        check("trunc", &[f(-3.7)], i(-3));
        check("round", &[f(INF)], f(INF));
        assert!(is_nan(&ok("floor", &[f(NAN)])));
        assert_eq!(err("round", &[Value::Nil]), ErrorKind::Type);
    }

    #[test]
    fn sqrt_and_pow() {
        assert!(is_nan(&ok("sqrt", &[i(-1)])));
        check("sqrt", &[i(16)], f(4.0));
        check("sqrt", &[i(25)], f(5.0));
        check("pow", &[i(3), i(2)], f(9.0));
        check("pow", &[i(2), i(10)], f(1024.0));
        check("pow", &[f(-INF), i(3)], f(-INF));
        check("pow", &[f(-INF), i(2)], f(INF));
        let z = ok("pow", &[f(-INF), i(-1)]);
        assert!(matches!(z, Value::Float(x) if x == 0.0 && x.is_sign_positive()));
    }

    #[test]
    fn equality() {
        check("=", &[i(1), i(1)], b(true));
        check("=", &[i(1), i(2)], b(false));
        check("=", &[i(1), f(1.0)], b(false));
        check("=", &[i(1)], b(true));
        check("=", &[s("a"), s("a")], b(true));
        check(
            "=",
            &[
                Value::map_from([(Value::keyword("a"), i(1)), (Value::keyword("b"), i(2))]),
                Value::map_from([(Value::keyword("b"), i(2)), (Value::keyword("a"), i(1))]),
            ],
            b(true),
        );
        check("=", &[Value::Nil, Value::Nil], b(true));
        check("=", &[i(5), Value::Nil], b(false));
        check("=", &[f(NAN), f(NAN)], b(false));
        check("=", &[f(INF), f(INF)], b(true));
        check("=", &[i(1), i(1), i(2)], b(false));
        check("not=", &[Value::keyword("a"), Value::keyword("b")], b(true));
        check("not=", &[i(1), i(1)], b(false));
        check("==", &[i(1), f(1.0)], b(true));
        check("==", &[i(1), f(1.0), i(2)], b(false));
        assert_eq!(err("==", &[s("a"), s("a")]), ErrorKind::Type);
        assert!(!BUILTINS
            .iter()
            .find(|b| b.name == "=")
            .is_some_and(|b| b.arity.accepts(0)));
    }

    #[test]
    fn ordering_comparisons() {
        check("<", &[i(1), i(2), i(3)], b(true));
        check("<", &[i(1), i(3), i(2)], b(false));
        check("<=", &[i(1), i(1)], b(true));
        check(">", &[i(2), i(3)], b(false));
        check(">", &[i(5), i(3)], b(true));
        check("<", &[f(1.5), f(2.0)], b(true));
        check("<", &[i(1), f(2.5)], b(true));
        check("<", &[f(1.0), f(INF)], b(true));
        check(">", &[f(-1.0), f(-INF)], b(true));
        check(">=", &[f(NAN), f(0.0)], b(false));
        check("<", &[f(NAN), i(1)], b(false));
        check(">", &[i(1000), f(-INF)], b(true));
        check("<=", &[i(1000), f(INF)], b(true));
        check("<", &[i(7)], b(true));
        let e = call(">", &[s("bob"), s("alice")]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(e.hint().unwrap_or("").contains("compare"), "{e:?}");
        assert_eq!(err("<=", &[s("a"), s("b")]), ErrorKind::Type);
        assert_eq!(err("<", &[Value::Nil, i(10)]), ErrorKind::Type);
        let m = Value::map_from([(Value::keyword("a"), i(1))]);
        assert_eq!(err("<", &[m.clone(), m]), ErrorKind::Type);
    }

    #[test]
    fn compare_like_clojure() {
        check("compare", &[i(2), i(2)], i(0));
        check("compare", &[i(3), i(1)], i(1));
        check("compare", &[f(1.5), i(1)], i(1));
        check("compare", &[i(1), f(1.0)], i(0));
        check("compare", &[f(NAN), i(1)], i(0));
        check("compare", &[s("a"), s("c")], i(-2));
        check("compare", &[s("abc"), s("ab")], i(1));
        check("compare", &[s("b"), s("b")], i(0));
        check(
            "compare",
            &[Value::keyword("a"), Value::keyword("b")],
            i(-1),
        );
        check("compare", &[Value::Nil, i(1)], i(-1));
        check("compare", &[b(true), b(false)], i(1));
        check(
            "compare",
            &[
                Value::vector_from([i(1), i(2)]),
                Value::vector_from([i(1), i(3)]),
            ],
            i(-1),
        );
        check(
            "compare",
            &[Value::vector_from([i(9)]), Value::vector_from([i(1), i(1)])],
            i(-1),
        );
        assert_eq!(err("compare", &[i(1), s("a")]), ErrorKind::Type);
        let m = Value::map_from([]);
        assert_eq!(err("compare", &[m.clone(), m]), ErrorKind::Type);
    }

    #[test]
    fn numeric_predicates() {
        check("zero?", &[f(0.0)], b(true));
        check("zero?", &[i(5)], b(false));
        check("neg?", &[i(-1)], b(true));
        check("neg?", &[i(0)], b(false));
        check("even?", &[i(4)], b(true));
        check("even?", &[i(0)], b(true));
        check("odd?", &[i(-3)], b(true));
        check("odd?", &[i(3)], b(true));
        assert_eq!(err("odd?", &[f(3.0)]), ErrorKind::Type);
        check("pos?", &[f(INF)], b(true));
        check("pos?", &[f(-INF)], b(false));
        check("pos?", &[f(NAN)], b(false));
        check("neg?", &[f(-INF)], b(true));
        check("zero?", &[f(NAN)], b(false));
        check("neg?", &[f(NAN)], b(false));
        check("NaN?", &[f(NAN)], b(true));
        check("NaN?", &[i(1)], b(false));
        check("infinite?", &[f(-INF)], b(true));
        check("infinite?", &[i(1)], b(false));
        assert_eq!(err("zero?", &[Value::Nil]), ErrorKind::Type);
    }

    #[test]
    fn bits() {
        check("bit-and", &[i(12), i(10)], i(8));
        check("bit-or", &[i(12), i(10)], i(14));
        check("bit-xor", &[i(12), i(10)], i(6));
        check("bit-and-not", &[i(12), i(10)], i(4));
        check("bit-not", &[i(0)], i(-1));
        check("bit-set", &[i(0), i(3)], i(8));
        check("bit-clear", &[i(15), i(0)], i(14));
        check("bit-flip", &[i(8), i(3)], i(0));
        check("bit-test", &[i(8), i(3)], b(true));
        check("bit-test", &[i(8), i(2)], b(false));
        check("bit-shift-left", &[i(1), i(4)], i(16));
        check("bit-shift-right", &[i(16), i(2)], i(4));
        check("bit-shift-right", &[i(-16), i(2)], i(-4));
        assert_eq!(err("bit-and", &[f(1.0), i(1)]), ErrorKind::Type);
    }

    #[test]
    fn coercions() {
        check("double", &[i(5)], f(5.0));
        check("int", &[f(3.7)], i(3));
        check("int", &[f(-3.7)], i(-3));
        check("int", &[i(7)], i(7));
        check("long", &[f(9.99)], i(9));
        check("int", &[s("a")], i(97));
        assert_eq!(err("int", &[f(INF)]), ErrorKind::Arithmetic);
        assert_eq!(err("int", &[f(NAN)]), ErrorKind::Arithmetic);
        assert_eq!(err("int", &[f(1e300)]), ErrorKind::Arithmetic);
        assert_eq!(err("int", &[s("42")]), ErrorKind::Type);
        assert!(is_nan(&ok("float", &[f(NAN)])));
        check("float", &[f(INF)], f(INF));
        check("float", &[f(-INF)], f(-INF));
        check("float", &[i(2)], f(2.0));
        check("num", &[i(2)], i(2));
        assert_eq!(err("num", &[s("2")]), ErrorKind::Type);
        check("boolean", &[i(0)], b(true));
        check("boolean", &[Value::Nil], b(false));
        check("boolean", &[b(false)], b(false));
    }

    #[test]
    fn parsing() {
        check("parse-long", &[s("42")], i(42));
        check("parse-long", &[s("-17")], i(-17));
        check("parse-long", &[s("+5")], i(5));
        check("parse-long", &[s("0")], i(0));
        for bad in [
            "abc",
            "3.14",
            " 42",
            "42abc",
            "",
            "3.5",
            "-",
            "99999999999999999999",
        ] {
            check("parse-long", &[s(bad)], Value::Nil);
        }
        check("parse-long", &[i(42)], Value::Nil);
        check("parse-long", &[Value::Nil], Value::Nil);
        check("parse-double", &[s("2.71")], f(2.71));
        check("parse-double", &[s("-0.5")], f(-0.5));
        check("parse-double", &[s("42")], f(42.0));
        check("parse-double", &[s("1e10")], f(1e10));
        check("parse-double", &[s("1.23e-4")], f(1.23e-4));
        check("parse-double", &[s(".5")], f(0.5));
        check("parse-double", &[s("5.")], f(5.0));
        check("parse-double", &[s("Infinity")], f(INF));
        check("parse-double", &[s("+Infinity")], f(INF));
        check("parse-double", &[s("-Infinity")], f(-INF));
        assert!(is_nan(&ok("parse-double", &[s("NaN")])));
        for bad in [
            "abc", " 3.14", "3.14abc", "invalid", "", ".", "1e", "inf", "nan", "1.5d",
        ] {
            check("parse-double", &[s(bad)], Value::Nil);
        }
        check("parse-double", &[Value::Nil], Value::Nil);
        check("parse-double", &[f(2.71)], Value::Nil);
        check("parse-boolean", &[s("true")], b(true));
        check("parse-boolean", &[s("false")], b(false));
        check("parse-boolean", &[s("yes")], Value::Nil);
        check("parse-boolean", &[i(1)], Value::Nil);
    }

    #[test]
    fn every_builtin_is_documented() {
        for b in BUILTINS {
            assert!(!b.doc.is_empty(), "{} has no doc", b.name);
        }
    }
}
