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
//! * `parse-int` (PTC-Lisp's name) is `parse-long`.
//!
//! This file holds the table and what the others share (`Num`, reading
//! arguments as numbers, numeric order); the functions are in `arith`,
//! `compare`, `math`, `bits` and `convert`.

mod arith;
mod bits;
mod compare;
mod convert;
mod math;
pub(crate) use math::int_test;
#[cfg(test)]
mod tests;

use arith::*;
use bits::*;
use compare::*;
use convert::*;
use math::*;

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
    Builtin::new("parse-int", Arity::exact(1), "The same as parse-long: the integer a string holds exactly; nil for anything else (PTC-Lisp).", parse_long)
        .example("(parse-int \"42\") ;=> 42"),
    Builtin::new("parse-double", Arity::exact(1), "Parses a string holding exactly a number as a float; nil for anything else.", parse_double)
        .example("(parse-double \"3.14\") ;=> 3.14"),
    Builtin::new("parse-boolean", Arity::exact(1), "\"true\" → true, \"false\" → false, anything else nil.", parse_boolean)
        .example("(parse-boolean \"true\") ;=> true"),
];

// ---------------------------------------------------------------------------
// Shared helpers

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

/// Numeric order of two numbers; `None` when either is NaN.
fn num_cmp(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::I(x), Num::I(y)) => Some(x.cmp(&y)),
        (Num::F(x), Num::F(y)) => x.partial_cmp(&y),
        (Num::I(x), Num::F(y)) => (!y.is_nan()).then(|| cmp_int_float(x, y)),
        (Num::F(x), Num::I(y)) => (!x.is_nan()).then(|| cmp_int_float(y, x).reverse()),
    }
}

/// 2^63: floats in `-TWO_63..TWO_63` convert to `i64` exactly (after
/// truncation).
const TWO_63: f64 = 9_223_372_036_854_775_808.0;
