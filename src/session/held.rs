//! What a session's user/ definitions hold, against a limit
//! ([`Session::set_memory_limit`](super::Session::set_memory_limit), `ptc
//! mcp --max-session-bytes`): a turn whose definitions would make the total
//! pass it fails with a `limit` error and changes nothing.
//!
//! Sizes are the heap costs the evaluator charges (HEAP-COST-1, those of
//! [`approx_bytes_upto`]), measured when a turn (re)defines a name,
//! closures with what they captured; a part shared by several definitions
//! counts once per definition, so the total errs high. A lazy sequence
//! counts nothing (what it realises is charged to the turn that does).

use std::collections::HashMap;

use crate::error::Error;
use crate::eval::Globals;
use crate::value::size::approx_bytes_upto;
use crate::value::{cost, Value};

/// The size of `v` as [`approx_bytes_upto`] counts it, closures (at any
/// depth) with their captures; some number above `cap` once it is known
/// to be bigger. Iterative, as the walk it extends.
fn held_bytes(v: &Value, cap: u64) -> u64 {
    let mut total: u64 = 0;
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        total = total.saturating_add(match v {
            Value::Fn(f) => match f.as_closure() {
                Some(c) => {
                    todo.extend(c.captures.iter());
                    if let Some(g) = &c.group {
                        todo.extend(g.members.iter().flat_map(|(_, caps)| caps.iter()));
                    }
                    cost::closure_bytes(c.captures.len())
                }
                None => 0,
            },
            Value::Vector(items) => {
                todo.extend(items.iter());
                cost::vector_bytes(items.len())
            }
            Value::Map(m) => {
                for (k, x) in m.iter() {
                    todo.push(k);
                    todo.push(x);
                }
                cost::map_bytes_like(m, m.len())
            }
            Value::Set(items) => {
                todo.extend(items.iter());
                cost::set_bytes(items.len())
            }
            Value::Reduced(inner) => {
                todo.push(inner);
                cost::REDUCED_BYTES
            }
            // Strings, keywords, regexes: as values from outside count.
            other => approx_bytes_upto(other, u64::MAX),
        });
        if total > cap {
            return total;
        }
    }
    total
}

/// The bytes each definition holds, and the limit.
#[derive(Debug)]
pub(super) struct Held {
    max: u64,
    bytes: HashMap<String, u64>,
    total: u64,
}

impl Held {
    pub(super) fn new(max: u64) -> Held {
        Held {
            max,
            bytes: HashMap::new(),
            total: 0,
        }
    }

    pub(super) fn max(&self) -> u64 {
        self.max
    }

    pub(super) fn total(&self) -> u64 {
        self.total
    }

    /// The sizes after a turn that (re)defined `names` in `globals`, or the
    /// error when they pass the limit. Nothing changes until
    /// [`Held::commit`].
    pub(super) fn measure(
        &self,
        globals: &Globals,
        names: &[String],
    ) -> Result<Vec<(String, u64)>, Error> {
        let mut total = self.total;
        let mut sizes = Vec::with_capacity(names.len());
        for name in names {
            total -= self.bytes.get(name).copied().unwrap_or(0);
            let cap = self.max.saturating_sub(total).saturating_add(1);
            let size = globals
                .lookup(name)
                .map_or(0, |d| held_bytes(&d.value, cap));
            total = total.saturating_add(size);
            sizes.push((name.clone(), size));
            if total > self.max {
                return Err(Error::limit(format!(
                    "this session's definitions would hold more than its limit of {} bytes ({name} alone about {size} bytes); the definitions of this call were not kept",
                    self.max
                ))
                .with_hint("keep less: select the fields or rows you need, aggregate, free an old definition with (def NAME nil), or clear them all with ptc_reset"));
            }
        }
        Ok(sizes)
    }

    /// Takes the sizes [`Held::measure`] gave.
    pub(super) fn commit(&mut self, sizes: Vec<(String, u64)>) {
        for (name, size) in sizes {
            let old = self.bytes.insert(name, size).unwrap_or(0);
            self.total = self.total - old + size;
        }
    }

    /// Measures every definition again (after memory went back).
    pub(super) fn recount(&mut self, globals: &Globals) {
        self.bytes.clear();
        self.total = 0;
        for (name, def) in globals.iter() {
            let size = held_bytes(&def.value, self.max.saturating_add(1));
            self.total = self.total.saturating_add(size);
            self.bytes.insert(name.to_string(), size);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::session::Session;

    #[test]
    fn definitions_past_the_limit_fail_and_freeing_makes_room() {
        let mut s = Session::builder("m").open_ended().build().unwrap();
        s.set_memory_limit(Some(1_000_000));
        assert!(
            s.run_program("(def a (vec (range 50000)))")
                .unwrap()
                .success
        );
        let t = s.run_program("(def b (vec (range 50000))) 1").unwrap();
        assert!(!t.success);
        assert_eq!(t.error().unwrap().kind().name(), "limit-exceeded");
        assert!(s.last_turn_over_memory());
        assert!(s.memory().lookup("b").is_none());
        assert!(s.run_program("(def a nil)").unwrap().success);
        assert!(!s.last_turn_over_memory());
        assert!(
            s.run_program("(def b (vec (range 50000)))")
                .unwrap()
                .success
        );
        let (held, max) = s.memory_held().unwrap();
        assert!(held > 50000 * 8 && held <= max, "{held}");
    }

    #[test]
    fn what_closures_capture_counts() {
        let mut s = Session::builder("m").open_ended().build().unwrap();
        s.set_memory_limit(Some(1_000_000));
        let t = s
            .run_program("(def f (let [v (vec (range 100000))] (fn [] (count v))))")
            .unwrap();
        assert!(!t.success, "{:?}", t.result);
        let t = s
            .run_program("(def fs [(let [v (vec (range 100000))] (fn [] (count v)))])")
            .unwrap();
        assert!(!t.success, "{:?}", t.result);
        assert!(s.run_program("(def g (fn [x] x))").unwrap().success);
    }

    #[test]
    fn forgotten_turns_keep_memory_and_numbers() {
        let mut s = Session::builder("m").open_ended().build().unwrap();
        for i in 0..5 {
            s.run_program(&format!("(def x{i} {i})")).unwrap();
            s.forget_turns(1);
        }
        assert_eq!(s.turns().len(), 1);
        assert_eq!(s.turns()[0].number, 5);
        let t = s.run_program("[x0 x4 *1]").unwrap();
        assert_eq!(t.number, 6);
        assert_eq!(t.result.as_ref().unwrap().to_string(), "[0 4 #'x4]");
    }
}
