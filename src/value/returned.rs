//! [`Returned`]: what is kept of the value a `defn` function returned from
//! its last successful call — all the prelude shows of it is its type label
//! (rendering.md R-25: `-> map[3]`).
//!
//! A collection is kept as its kind and size only. Keeping the collection
//! would share it, and a function that updates its argument in place —
//! `(defn tally [acc x] (assoc acc …))` folded by `reduce`, the accumulator
//! it returned coming back as its next argument — would then copy the whole
//! accumulator at every call (quadratic: 20k items into a 5k-key map took
//! 8.3 G instructions). Anything else is kept as the value (a number, a
//! string, a function, which nothing updates in place).

use super::Value;

/// What is kept of a function's last return (module docs).
#[derive(Clone, Debug, PartialEq)]
pub enum Returned {
    /// A vector (or list, or `map`/`filter` result) of this many items.
    List(usize),
    /// A map of this many entries.
    Map(usize),
    /// A set of this many items.
    Set(usize),
    /// Any other value, itself.
    Value(Value),
}

impl Returned {
    /// What is kept of `v`.
    #[inline]
    pub fn of(v: &Value) -> Returned {
        match v {
            Value::Vector(items) => Returned::List(items.len()),
            Value::Map(m) => Returned::Map(m.len()),
            Value::Set(s) => Returned::Set(s.len()),
            _ => Returned::Value(v.clone()),
        }
    }

    /// The value, when it was kept whole (not a collection).
    pub fn value(&self) -> Option<&Value> {
        match self {
            Returned::Value(v) => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Returned;
    use crate::eval::Interp;
    use crate::value::Value;

    fn run(i: &mut Interp, src: &str) -> (String, u64) {
        i.run_for_heap(src)
    }

    /// A `defn` folded over its own last return updates it in place: it
    /// charges what the same fold through an anonymous function charges
    /// (no copy of the accumulator per call), and what is kept of its
    /// return is the kind and size the prelude shows.
    #[test]
    fn a_function_fed_its_last_return_updates_it_in_place() {
        let items = "(def xs (mapv (fn [i] (mod (* i 7) 50)) (range 2000)))";
        let mut i = Interp::standalone();
        run(&mut i, items);
        let (anon, anon_heap) = run(
            &mut i,
            "(count (reduce (fn [acc x] (assoc acc x (inc (get acc x 0)))) {} xs))",
        );
        let mut j = Interp::standalone();
        run(&mut j, items);
        let (named, named_heap) = run(
            &mut j,
            "(defn tally [acc x] (assoc acc x (inc (get acc x 0)))) (count (reduce tally {} xs))",
        );
        assert_eq!((anon.as_str(), named.as_str()), ("50", "50"));
        // The definition's own few bytes apart, the same.
        assert!(named_heap < anon_heap + 1024, "{named_heap} {anon_heap}");
        let id = j.globals.id("tally").expect("tally");
        assert_eq!(j.last_return(id), Some(&Returned::Map(50)));
        run(
            &mut j,
            "(defn f [] [1 2 3]) (defn g [] #{1}) (defn h [] :k) (f) (g) (h)",
        );
        let kept = |name: &str| j.last_return(j.globals.id(name).expect("defined")).cloned();
        assert_eq!(kept("f"), Some(Returned::List(3)));
        assert_eq!(kept("g"), Some(Returned::Set(1)));
        assert_eq!(kept("h"), Some(Returned::Value(Value::keyword("k"))));
    }
}
