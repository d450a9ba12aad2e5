//! Shorthands for building values and calling builtins in the builtin
//! areas' unit tests.

use super::Builtin;
use crate::error::Result;
use crate::eval::Interp;
use crate::value::Value;

/// Calls the builtin `name` of an area's `table` with `args` on a
/// standalone interpreter, after checking its arity accepts them.
pub fn call_in(table: &[Builtin], name: &str, args: &[Value]) -> Result<Value> {
    let b = table
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no builtin {name}"));
    assert!(b.arity.accepts(args.len()), "{name} arity");
    let mut interp = Interp::standalone();
    (b.f)(&mut interp, args)
}

pub fn kw(s: &str) -> Value {
    Value::keyword(s)
}
pub fn s(x: &str) -> Value {
    Value::string(x)
}
pub fn i(n: i64) -> Value {
    Value::Int(n)
}
pub fn v(items: &[Value]) -> Value {
    Value::vector_from(items.iter().cloned())
}
pub fn m(kvs: &[(Value, Value)]) -> Value {
    Value::map_from(kvs.iter().cloned())
}
