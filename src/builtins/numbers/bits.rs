//! Bit operations on 64-bit integers: `bit-and bit-or bit-xor bit-and-not
//! bit-not bit-set bit-clear bit-flip bit-test bit-shift-left
//! bit-shift-right` (shift counts modulo 64, as Java).

use super::*;

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

pub(super) fn bit_and(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-and", args, |a, b| a & b)
}
pub(super) fn bit_or(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-or", args, |a, b| a | b)
}
pub(super) fn bit_xor(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-xor", args, |a, b| a ^ b)
}
pub(super) fn bit_and_not(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_fold(interp, "bit-and-not", args, |a, b| a & !b)
}
pub(super) fn bit_not(_: &mut Interp, args: &[Value]) -> Result<Value> {
    Ok(Value::Int(!args::int("bit-not", &args[0])?))
}

/// `(f x n)` with the shift count taken modulo 64, as Java does.
fn bit_n(args: &[Value], fname: &str, f: fn(i64, u32) -> Value) -> Result<Value> {
    let x = args::int(fname, &args[0])?;
    let n = args::int(fname, &args[1])?;
    Ok(f(x, (n & 63) as u32))
}

pub(super) fn bit_set(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-set", |x, n| Value::Int(x | (1i64 << n)))
}
pub(super) fn bit_clear(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-clear", |x, n| Value::Int(x & !(1i64 << n)))
}
pub(super) fn bit_flip(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-flip", |x, n| Value::Int(x ^ (1i64 << n)))
}
pub(super) fn bit_test(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-test", |x, n| Value::Bool((x >> n) & 1 == 1))
}
pub(super) fn bit_shift_left(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-shift-left", |x, n| Value::Int(x.wrapping_shl(n)))
}
pub(super) fn bit_shift_right(_: &mut Interp, args: &[Value]) -> Result<Value> {
    bit_n(args, "bit-shift-right", |x, n| Value::Int(x >> n))
}
