//! `memoize` (registered with the function builders in `core`): a function
//! that remembers its results by arguments.
//!
//! Decision (issue 18): the cache lives for one turn only. Programs are
//! meant to be deterministic within a turn, but a memoized function kept in
//! user/ may call tools whose answers change between turns, so each turn
//! starts with an empty cache (keyed on [`crate::eval::Budget::serial`]).
//! Cached results are charged to the heap budget like any value built.

use std::collections::HashMap;
use std::sync::Mutex;

use super::args;
use crate::error::Result;
use crate::eval::Interp;
use crate::value::{cost, Func, Value};

/// The results of one turn: its budget's serial, argument list → result.
type Cache = (u64, HashMap<Vec<Value>, Value>);

pub(super) fn memoize(_interp: &mut Interp, a: &[Value]) -> Result<Value> {
    args::callable("memoize", &a[0])?;
    let f = a[0].clone();
    let cache: Mutex<Cache> = Mutex::new((u64::MAX, HashMap::new()));
    Ok(Func::native("memoize", move |interp, argv| {
        let turn = interp.budget.serial();
        if let Ok(mut c) = cache.lock() {
            if c.0 != turn {
                *c = (turn, HashMap::new());
            }
            if let Some(v) = c.1.get(argv) {
                return Ok(v.clone());
            }
        }
        let v = interp.call(&f, argv)?;
        // The cache's entry: its bucket and the arguments' array.
        interp
            .alloc(cost::boxed_bytes::<(Vec<Value>, Value)>() + argv.len() as u64 * cost::VALUE)?;
        if let Ok(mut c) = cache.lock() {
            if c.0 == turn {
                c.1.insert(argv.to_vec(), v.clone());
            }
        }
        Ok(v)
    }))
}
