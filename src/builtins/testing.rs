//! Shorthands for building values and calling builtins in the builtin
//! areas' unit tests.

use super::Builtin;
use crate::error::Result;
use crate::eval::{reference, Interp, Limits, StaticHost};
use crate::value::Value;

/// What a whole program's run showed: its value, or its error's kind,
/// message and line and column; the steps and heap bytes it charged.
#[derive(Debug, PartialEq)]
pub struct Run {
    pub ok: bool,
    pub shown: String,
    pub steps: u64,
    pub heap: u64,
}

/// Runs the program `src` under the default limits (no clock, so a slow
/// debug build decides nothing; `max_steps` if given), optimised or as the
/// reference (every optimisation off, `eval/reference.rs`).
pub fn run_program(src: &str, max_steps: Option<u64>, as_reference: bool) -> Run {
    reference::scope(as_reference, || {
        let limits = Limits {
            max_steps,
            timeout_ms: None,
            ..Limits::default()
        };
        let mut interp = Interp::new(Box::new(StaticHost::default()), limits);
        let out = interp.run_program(src);
        let ok = out.result.is_ok();
        let shown = match out.result {
            Ok(v) => v.to_string(),
            Err(e) => format!("{:?}: {} at {:?}", e.kind(), e.message(), e.line_col()),
        };
        Run {
            ok,
            shown,
            steps: interp.budget.steps(),
            heap: interp.budget.heap_bytes(),
        }
    })
}

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
