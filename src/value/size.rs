//! The approximate heap size of a value that arrives from outside the
//! program (a tool's result), in the bytes the evaluator charges when it
//! builds values (`max_heap_bytes`, rule HEAP-COST-1): each collection and
//! string costs what [`super::cost`] says one of its length costs (an
//! interned keyword nothing: the bounded table owns its name).
//!
//! The walk is iterative (no recursion on deep values) and stops as soon as
//! the total passes `cap`, so a value that shares its parts many times costs
//! at most about `cap / 16` visits (each item is charged its slot in its
//! collection).

use super::{cost, Value};

/// The approximate size of `v` in bytes, or some number above `cap` once
/// it is known to be bigger than `cap`.
pub fn approx_bytes_upto(v: &Value, cap: u64) -> u64 {
    let mut total: u64 = 0;
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        total = total.saturating_add(match v {
            Value::Str(s) | Value::Symbol(s) | Value::Var(s) => cost::string_bytes(s.len()),
            Value::Keyword(k) if k.is_interned() => 0,
            Value::Keyword(k) => cost::keyword_bytes(k.len()),
            Value::Vector(items) => {
                todo.extend(items.iter());
                cost::vector_bytes(items.len())
            }
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    todo.push(k);
                    todo.push(v);
                }
                cost::map_bytes_like(m, m.len())
            }
            Value::Set(s) => {
                todo.extend(s.iter());
                cost::set_bytes(s.len())
            }
            Value::Reduced(inner) => {
                todo.push(inner);
                cost::REDUCED_BYTES
            }
            Value::Regex(p) => p.heap_bytes(),
            _ => 0,
        });
        if total > cap {
            return total;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_add_up_and_stop_past_the_cap() {
        let v = Value::vector_from(vec![Value::string("abcd"), Value::Int(1)]);
        assert_eq!(
            approx_bytes_upto(&v, u64::MAX),
            cost::vector_bytes(2) + cost::string_bytes(4)
        );
        let m = Value::map_from((0..20).map(|i| (Value::keyword_interned("k"), Value::Int(i))));
        assert_eq!(approx_bytes_upto(&m, u64::MAX), cost::map_bytes(1));
        let s = Value::set_from((0..20).map(Value::Int));
        assert_eq!(approx_bytes_upto(&s, u64::MAX), cost::set_bytes(20));
        let mut shared = Value::vector_from(vec![Value::Int(1)]);
        for _ in 0..60 {
            shared = Value::vector_from(vec![shared.clone(), shared]);
        }
        assert!(approx_bytes_upto(&shared, 1 << 20) > 1 << 20);
    }
}
