//! Shorthands for building values in the builtin areas' unit tests.

use crate::value::Value;

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
