//! Nesting depth of values that leave the evaluator.
//!
//! Evaluation runs on a thread with a very large stack, but results, user/
//! definitions and tool arguments are dropped, compared, hashed and turned
//! into JSON by the host on ordinary threads, and those operations recurse.
//! So a value leaving a turn may be at most [`MAX_DEPTH`] levels deep —
//! far beyond any real data (and the reader's own nesting limit), and
//! shallow enough for the recursive drop, equality and JSON conversion on an
//! ordinary 8 MB main-thread stack even in debug builds (tested below).
//! The check itself is iterative.

use super::{Func, Value};

/// The deepest nesting a value may have when it leaves a turn.
pub const MAX_DEPTH: usize = 1000;

/// Whether `v` nests deeper than `max` levels (closures count their
/// captured values as nested).
pub fn exceeds(v: &Value, max: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(v, 1)];
    while let Some((v, depth)) = stack.pop() {
        let children = depth + 1;
        match v {
            Value::Vector(items) => {
                if !items.is_empty() && children > max {
                    return true;
                }
                stack.extend(items.iter().filter(|x| is_nested(x)).map(|x| (x, children)));
            }
            Value::Set(items) => {
                if !items.is_empty() && children > max {
                    return true;
                }
                stack.extend(items.iter().filter(|x| is_nested(x)).map(|x| (x, children)));
            }
            Value::Map(m) => {
                if !m.is_empty() && children > max {
                    return true;
                }
                for (k, x) in m.iter() {
                    if is_nested(k) {
                        stack.push((k, children));
                    }
                    if is_nested(x) {
                        stack.push((x, children));
                    }
                }
            }
            Value::Fn(Func::Closure(c)) => {
                if !c.captures.is_empty() && children > max {
                    return true;
                }
                stack.extend(
                    c.captures
                        .iter()
                        .filter(|x| is_nested(x))
                        .map(|x| (x, children)),
                );
            }
            Value::Reduced(inner) => stack.push((inner, children)),
            _ => {}
        }
    }
    false
}

fn is_nested(v: &Value) -> bool {
    matches!(
        v,
        Value::Vector(_)
            | Value::Set(_)
            | Value::Map(_)
            | Value::Fn(Func::Closure(_))
            | Value::Reduced(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> Value {
        let mut v = Value::Int(0);
        for _ in 1..depth {
            v = Value::vector_from([v]);
        }
        v
    }

    #[test]
    fn measures_depth_exactly() {
        assert!(!exceeds(&Value::Int(1), 1));
        assert!(!exceeds(&nested(10), 10));
        assert!(exceeds(&nested(11), 10));
        let m = Value::map_from([(Value::keyword("a"), nested(5))]);
        assert!(exceeds(&m, 5));
        assert!(!exceeds(&m, 6));
    }

    #[test]
    fn a_value_at_the_limit_drops_and_prints_on_a_main_thread_stack() {
        let v = nested(MAX_DEPTH);
        assert!(!exceeds(&v, MAX_DEPTH));
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                let printed = crate::format::to_clojure(&v, None, None).0;
                let json = super::super::json::to_json(&v);
                assert!(printed.starts_with("[[[["));
                assert_eq!(v, v.clone());
                drop(json);
                drop(v);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
