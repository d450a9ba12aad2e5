//! A function built by a call with constant arguments and handed straight
//! to `update` or `update-in` (`(update m k (fnil inc 0))`, the counting
//! idiom, usually inside a loop), or an unnamed `fn` that closes over
//! nothing (`(update m k (fn [v] (assoc v :seen true)))`), is built once
//! per call site, not once per call: the value goes only to the builtin
//! that calls it and is dropped with the call, so no program can tell one
//! build from many (it cannot be compared, kept or printed). Every later
//! evaluation charges the steps and heap bytes the first build charged
//! (measured then), at the same point, so step counts and limits are
//! those of building it each time. With hidden data about, it is built
//! each time (its marks are per value).

use std::sync::{Arc, OnceLock};

use crate::analyze::expr::{Expr, FnProto};
use crate::builtins::Builtin;
use crate::error::Span;
use crate::eval::Closure;
use crate::value::{cost, Func, Value};

use super::{compile, Code, Interp};

/// The builtins whose calls build a function from their arguments and
/// do nothing else.
const BUILDERS: [&str; 8] = [
    "fnil",
    "partial",
    "comp",
    "complement",
    "constantly",
    "juxt",
    "every-pred",
    "some-fn",
];

/// The code of argument `i` of a call of `b`: built once per site when it
/// is the function `update`/`update-in` calls and a builder's call with
/// constant arguments (module docs); compiled as usual otherwise.
pub(super) fn arg<'a>(b: &'static Builtin, i: usize, e: &'a Expr) -> Code<'a> {
    let core = b.ns == crate::builtins::Ns::Core;
    let calls_it = i == 2 && core && matches!(b.name, "update" | "update-in");
    match e {
        Expr::CallBuiltin(fb, args, span) if calls_it => {
            built_once(fb, args, *span).unwrap_or_else(|| compile(e))
        }
        // Unnamed: a named `fn` could hand itself out.
        Expr::MakeFn(proto, captures)
            if calls_it && captures.is_empty() && proto.name.is_none() =>
        {
            made_once(proto)
        }
        _ => compile(e),
    }
}

/// The site's code for an unnamed `fn` without captures: its closure
/// built at the first evaluation, every evaluation charging the heap bytes
/// building it charges (no step, as `build::make_fn`). No marks of hidden
/// data go on a closure, so it is shared with hidden data about too.
fn made_once(proto: &Arc<FnProto>) -> Code<'_> {
    let once: OnceLock<Value> = OnceLock::new();
    Box::new(move |it: &mut Interp, _| {
        it.budget.alloc(cost::closure_bytes(0))?;
        Ok(once
            .get_or_init(|| {
                Value::Fn(Func::Closure(Arc::new(Closure {
                    proto: proto.clone(),
                    captures: Vec::new(),
                    group: None,
                })))
            })
            .clone())
    })
}

/// The site's code for a builder's call with constant arguments.
fn built_once(fb: &'static Builtin, args: &[Expr], span: Span) -> Option<Code<'static>> {
    if !BUILDERS.iter().any(|name| fb.is_core(name)) || !fb.arity.accepts(args.len()) {
        return None;
    }
    let consts: Vec<Value> = args
        .iter()
        .map(|a| match a {
            Expr::Const(v) => Some(v.clone()),
            Expr::Builtin(b) => Some(Value::Fn(Func::Builtin(b))),
            _ => None,
        })
        .collect::<Option<_>>()?;
    // The function, and the steps and heap bytes building it charged.
    let once: OnceLock<(Value, u64, u64)> = OnceLock::new();
    Some(Box::new(move |it: &mut Interp, _| {
        let hidden = it.hidden.active();
        if let (Some((v, steps, heap)), false) = (once.get(), hidden) {
            it.budget
                .tick_settled(*steps)
                .map_err(|e| e.or_span(span))?;
            it.budget.alloc(*heap).map_err(|e| e.or_span(span))?;
            return Ok(v.clone());
        }
        it.budget.tick_settled(0).map_err(|e| e.or_span(span))?;
        let (steps, heap) = (it.budget.steps(), it.budget.heap_bytes());
        let v = it
            .call_builtin_accepted(fb, &mut consts.clone())
            .map_err(|e| e.or_span(span))?;
        it.budget.tick_settled(0).map_err(|e| e.or_span(span))?;
        if !hidden {
            let charged = (it.budget.steps() - steps, it.budget.heap_bytes() - heap);
            let _ = once.set((v.clone(), charged.0, charged.1));
        }
        Ok(v)
    }))
}

#[cfg(test)]
mod tests {
    use crate::eval::{Interp, Limits, StaticHost};

    /// The result or error and the steps of `src` under `max_steps`.
    fn run(src: &str, max_steps: Option<u64>) -> (String, u64) {
        let limits = Limits {
            max_steps,
            ..Limits::none()
        };
        let mut i = Interp::new(Box::new(StaticHost::default()), limits);
        let shown = match i.run_program(src).result {
            Ok(v) => v.to_string(),
            Err(e) => format!("{:?}: {}", e.kind(), e.message()),
        };
        (shown, i.budget.steps())
    }

    /// A site built once (constant arguments) against the same program
    /// whose builder takes a definition (built at every call): the same
    /// values and errors, the same steps per iteration (reading the
    /// definition costs its analysis a constant few), and a step limit
    /// that fires at the same call.
    #[test]
    fn a_function_built_once_charges_what_building_it_each_time_does() {
        let programs = [
            "(reduce (fn [acc i] (update acc (mod i 7) (fnil inc Z))) {} (range N))",
            "(reduce (fn [acc i] (update-in acc [:a (mod i 3)] (fnil + Z) i)) {} (range N))",
            "(reduce (fn [acc i] (update acc (mod i 3) (partial + Z))) {0 1 1 2 2 3} (range N))",
            "(reduce (fn [acc i] (update acc (mod i 2) (comp inc (constantly Z)))) {} (range N))",
        ];
        let make = |p: &str, z: &str, arg: &str, n: u32| {
            format!(
                "(def z {z}) {}",
                p.replace('Z', arg).replace('N', &n.to_string())
            )
        };
        for p in programs {
            let (once, once_steps) = run(&make(p, "0", "0", 40), None);
            let (each, each_steps) = run(&make(p, "0", "z", 40), None);
            assert_eq!(once, each, "{p}");
            assert!(!once.contains("Error"), "{once}");
            let more_once = run(&make(p, "0", "0", 80), None).1 - once_steps;
            let more_each = run(&make(p, "0", "z", 80), None).1 - each_steps;
            assert_eq!(more_once, more_each, "{p}");
            let offset = each_steps - once_steps;
            for max in once_steps.saturating_sub(40)..=once_steps {
                let (a, _) = run(&make(p, "0", "0", 40), Some(max));
                let (b, _) = run(&make(p, "0", "z", 40), Some(max + offset));
                assert_eq!(
                    a.starts_with("LimitExceeded"),
                    b.starts_with("LimitExceeded")
                );
                assert_eq!(
                    a.starts_with("LimitExceeded"),
                    max < once_steps,
                    "{p} {max}"
                );
            }
            // A default of the wrong type fails at the same call either way.
            let bad = run(&make(p, "\"x\"", "\"x\"", 5), None).0;
            assert_eq!(bad, run(&make(p, "\"x\"", "z", 5), None).0, "{p}");
        }
    }
}
