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

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use crate::analyze::expr::{Expr, FnProto};
use crate::builtins::Builtin;
use crate::error::{Result, Span};
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
    match OnceFn::of(b, i, e) {
        Some(once) => Box::new(move |it: &mut Interp, _| once.get(it).map(Cow::into_owned)),
        None => compile(e),
    }
}

/// A function built once per site (module docs), kept where the site's
/// code can lend it.
pub(super) enum OnceFn<'a> {
    /// An unnamed `fn` without captures: its closure built at the first
    /// evaluation, every evaluation charging the heap bytes building it
    /// charges (no step, as `build::make_fn`). No marks of hidden data go
    /// on a closure, so it is shared with hidden data about too.
    Made(&'a Arc<FnProto>, OnceLock<Value>),
    /// A builder's call with constant arguments: the builder, the
    /// arguments, the call's span, and the function with the steps and
    /// heap bytes building it charged.
    Built {
        fb: &'static Builtin,
        consts: Vec<Value>,
        span: Span,
        once: OnceLock<(Value, u64, u64)>,
    },
}

impl<'a> OnceFn<'a> {
    /// Argument `i` of a call of `b` when it is built once per site: the
    /// function `update`/`update-in` calls, made by an unnamed `fn`
    /// without captures or a builder's call with constant arguments.
    pub(super) fn of(b: &'static Builtin, i: usize, e: &'a Expr) -> Option<OnceFn<'a>> {
        let core = b.ns == crate::builtins::Ns::Core;
        let calls_it = i == 2 && core && matches!(b.name, "update" | "update-in");
        match e {
            Expr::CallBuiltin(fb, args, span) if calls_it => OnceFn::built(fb, args, *span),
            // Unnamed: a named `fn` could hand itself out.
            Expr::MakeFn(proto, captures)
                if calls_it && captures.is_empty() && proto.name.is_none() =>
            {
                Some(OnceFn::Made(proto, OnceLock::new()))
            }
            _ => None,
        }
    }

    /// A builder's call with constant arguments.
    fn built(fb: &'static Builtin, args: &[Expr], span: Span) -> Option<OnceFn<'static>> {
        if !BUILDERS.iter().any(|name| fb.is_core(name)) || !fb.arity.accepts(args.len()) {
            return None;
        }
        let consts: Vec<Value> = args
            .iter()
            .map(|a| match a {
                Expr::Const(v) => Some(v.clone()),
                Expr::Builtin(b) => Some(Value::Fn(Func::builtin(b))),
                _ => None,
            })
            .collect::<Option<_>>()?;
        Some(OnceFn::Built {
            fb,
            consts,
            span,
            once: OnceLock::new(),
        })
    }

    /// The function, charged what building it charges, at this point:
    /// lent where it is kept once built, or built afresh (with hidden data
    /// about, a builder's call is made each time).
    pub(super) fn get(&self, it: &mut Interp) -> Result<Cow<'_, Value>> {
        match self {
            OnceFn::Made(proto, once) => {
                it.budget.alloc(cost::closure_bytes(0))?;
                Ok(Cow::Borrowed(once.get_or_init(|| {
                    Value::Fn(Func::closure(Arc::new(Closure {
                        proto: Arc::clone(proto),
                        captures: Vec::new(),
                        group: None,
                    })))
                })))
            }
            OnceFn::Built {
                fb,
                consts,
                span,
                once,
            } => {
                let span = *span;
                let hidden = it.hidden.active();
                if let (Some((v, steps, heap)), false) = (once.get(), hidden) {
                    it.budget
                        .tick_settled(*steps)
                        .map_err(|e| e.or_span(span))?;
                    it.budget.alloc(*heap).map_err(|e| e.or_span(span))?;
                    return Ok(Cow::Borrowed(v));
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
                Ok(Cow::Owned(v))
            }
        }
    }
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
