//! The approximate heap size of a value that arrives from outside the
//! program (a tool's result), in the units the evaluator charges when it
//! builds values (`max_heap_bytes`): 16 bytes per vector item, 48 per map
//! entry, 32 per set item, a string's bytes, plus 32 per collection or
//! string.
//!
//! The walk is iterative (no recursion on deep values) and stops as soon as
//! the total passes `cap`, so a value that shares its parts many times costs
//! at most `cap / 16` visits.

use super::Value;

/// The approximate size of `v` in bytes, or some number above `cap` once
/// it is known to be bigger than `cap`.
pub fn approx_bytes_upto(v: &Value, cap: u64) -> u64 {
    let mut total: u64 = 0;
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        total = total.saturating_add(match v {
            Value::Str(s) => 32 + s.len() as u64,
            Value::Keyword(k) => 32 + k.len() as u64,
            Value::Var(k) => 32 + k.len() as u64,
            Value::Vector(items) => {
                todo.extend(items.iter());
                32 + 16 * items.len() as u64
            }
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    todo.push(k);
                    todo.push(v);
                }
                32 + 48 * m.len() as u64
            }
            Value::Set(s) => {
                todo.extend(s.iter());
                32 + 32 * s.len() as u64
            }
            Value::Reduced(inner) => {
                todo.push(inner);
                32
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
        assert_eq!(approx_bytes_upto(&v, u64::MAX), 32 + 32 + 36);
        let mut shared = Value::vector_from(vec![Value::Int(1)]);
        for _ in 0..60 {
            shared = Value::vector_from(vec![shared.clone(), shared]);
        }
        assert!(approx_bytes_upto(&shared, 1 << 20) > 1 << 20);
    }
}
