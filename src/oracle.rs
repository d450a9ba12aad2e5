//! The oracle: a program run twice, optimised and as the reference (every
//! optimisation off, [`crate::reference`]), and the two runs compared.
//! `tests/oracle.rs` runs every corpus of the repository through it,
//! `tests/generated.rs` generated programs, `ptc check --oracle` a case file.
//!
//! **Rule ORACLE-1.** The two runs agree when they give the same outcome:
//! the same value (equal, and printed the same within 1 MB, so `1` and
//! `1.0` or a list and a vector differ, and a hidden mark does not matter)
//! or the same error kind; whether the program returned; the same printed
//! lines; the same tool calls with the same arguments; and the same value
//! of every user/ definition afterwards. The runs share their limits but
//! the clock: neither has one (a slow machine must not decide an outcome;
//! the step limit, charged alike by both paths under EVAL-STEPS-1, bounds
//! them, 10 million steps when nothing else does). A pair is
//! *inconclusive*, not a disagreement, when a run ran out of heap: the
//! reference run pays for every copy the optimisations avoid, so it may
//! where the optimised one does not, and an optimised run out of heap is
//! not run as the reference at all.

use std::collections::BTreeMap;

use crate::error::ErrorKind;
use crate::eval::{reference, Interp, Limits};
use crate::run::Outcome;
use crate::value::Value;

/// The step limit both runs get when their limits set none.
pub const DEFAULT_STEPS: u64 = 10_000_000;

/// What one run of a program did, as the oracle compares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// The value and how it prints (within 1 MB), or `Err` with the error
    /// kind's name.
    pub result: Result<(Value, String), String>,
    /// Whether it ended with `(return v)`.
    pub returned: bool,
    /// The lines it printed.
    pub prints: Vec<String>,
    /// Its tool calls: each name and its arguments as printed.
    pub tool_calls: Vec<String>,
    /// Every user/ definition afterwards, its value and how it prints.
    pub defines: BTreeMap<String, (Value, String)>,
    /// The error's message, for reports (not compared).
    pub message: Option<String>,
}

/// How much of a value's print the oracle compares (a self-sharing
/// value may print to far more).
const PRINT_CAP: usize = 1 << 20;

fn show(v: &Value) -> String {
    crate::format::to_clojure_capped(v, None, None, Some(PRINT_CAP)).0
}

fn kept(v: &Value) -> (Value, String) {
    (v.clone(), show(v))
}

impl Observed {
    /// What `interp`'s last program did (`outcome` its outcome).
    pub fn of(interp: &Interp, outcome: &Outcome) -> Observed {
        Observed {
            result: match &outcome.result {
                Ok(v) => Ok(kept(v)),
                Err(e) => Err(e.kind().name().to_string()),
            },
            returned: outcome.returned,
            prints: interp.prints.clone(),
            tool_calls: interp
                .tool_calls
                .iter()
                .map(|c| {
                    let args: Vec<String> = c.args.iter().map(show).collect();
                    format!("{}({})", c.name, args.join(" "))
                })
                .collect(),
            defines: interp
                .globals
                .iter()
                .map(|(name, d)| (name.to_string(), kept(&d.value)))
                .collect(),
            message: outcome
                .result
                .as_ref()
                .err()
                .map(|e| e.message().to_string()),
        }
    }

    fn out_of_heap(&self) -> bool {
        self.result.as_ref().err().map(String::as_str) == Some(ErrorKind::MemoryExceeded.name())
    }
}

/// How a pair of runs compares (ORACLE-1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Same outcome.
    Same,
    /// Different outcomes: what differs, optimised first.
    Differ(String),
    /// Not comparable (a run out of heap): why.
    Inconclusive(String),
}

/// Compares an optimised run with the reference run of the same program.
pub fn compare(optimised: &Observed, reference: &Observed) -> Verdict {
    if optimised.out_of_heap() {
        return Verdict::Inconclusive("the optimised run ran out of heap".into());
    }
    if reference.out_of_heap() && !optimised.out_of_heap() {
        return Verdict::Inconclusive("the reference run ran out of heap".into());
    }
    let mut diffs = Vec::new();
    let same_result = match (&optimised.result, &reference.result) {
        (Ok(a), Ok(b)) => same_value(a, b),
        (a, b) => a == b,
    };
    if !same_result {
        let side = |o: &Observed| match (&o.result, &o.message) {
            (Ok((_, v)), _) => v.chars().take(2000).collect(),
            (Err(k), Some(m)) => format!("{k}: {m}"),
            (Err(k), None) => k.clone(),
        };
        diffs.push(format!(
            "result {} vs reference {}",
            side(optimised),
            side(reference)
        ));
    }
    if optimised.returned != reference.returned {
        diffs.push(format!(
            "returned {} vs reference {}",
            optimised.returned, reference.returned
        ));
    }
    if optimised.prints != reference.prints {
        diffs.push(format!(
            "prints {:?} vs reference {:?}",
            optimised.prints, reference.prints
        ));
    }
    if optimised.tool_calls != reference.tool_calls {
        diffs.push(format!(
            "tool calls {:?} vs reference {:?}",
            optimised.tool_calls, reference.tool_calls
        ));
    }
    let same_defines = optimised.defines.len() == reference.defines.len()
        && optimised
            .defines
            .iter()
            .all(|(k, v)| reference.defines.get(k).is_some_and(|r| same_value(v, r)));
    if !same_defines {
        let names: Vec<&String> = optimised
            .defines
            .iter()
            .filter(|(k, v)| !reference.defines.get(*k).is_some_and(|r| same_value(v, r)))
            .map(|(k, _)| k)
            .chain(
                reference
                    .defines
                    .keys()
                    .filter(|k| !optimised.defines.contains_key(*k)),
            )
            .collect();
        diffs.push(format!("definitions differ: {names:?}"));
    }
    if diffs.is_empty() {
        Verdict::Same
    } else {
        Verdict::Differ(diffs.join("; "))
    }
}

/// Two values agree when they print the same and are equal. Printed the
/// same is enough for a value holding `##NaN` (not equal to itself) or a
/// function (equal only to itself: each run makes its own).
fn same_value(a: &(Value, String), b: &(Value, String)) -> bool {
    a.1 == b.1 && (a.0 == b.0 || compared_by_identity(&a.0, 0))
}

/// Whether `v` holds a part equality compares by identity or finds unequal
/// to itself: a function, a lazy sequence, a regex, `##NaN` (looked for
/// down to 64 levels; deeper counts as holding one).
fn compared_by_identity(v: &Value, depth: usize) -> bool {
    if depth > 64 {
        return true;
    }
    let any = |items: &mut dyn Iterator<Item = &Value>| {
        for x in items {
            if compared_by_identity(x, depth + 1) {
                return true;
            }
        }
        false
    };
    match v {
        Value::Fn(_) | Value::Lazy(_) | Value::Regex(_) => true,
        Value::Float(f) => f.is_nan(),
        Value::Vector(items) => any(&mut items.iter()),
        Value::Set(items) => any(&mut items.iter()),
        Value::Map(m) => m
            .iter()
            .any(|(k, v)| compared_by_identity(k, depth + 1) || compared_by_identity(v, depth + 1)),
        Value::Reduced(x) => compared_by_identity(x, depth + 1),
        _ => false,
    }
}

/// The limits of the two runs of a program meant to run under `limits`
/// (ORACLE-1): no clock, the step limit kept (10 million when there is
/// none).
pub fn limits_of_pair(limits: &Limits) -> (Limits, Limits) {
    let mut optimised = limits.clone();
    optimised.timeout_ms = None;
    if optimised.max_steps.is_none() {
        optimised.max_steps = Some(DEFAULT_STEPS);
    }
    (optimised.clone(), optimised)
}

/// Runs `run` twice, optimised and as the reference (every interpreter it
/// makes on this thread is one or the other), with the limits of
/// [`limits_of_pair`] handed to it, and compares what each observed.
pub fn run_pair(
    limits: &Limits,
    mut run: impl FnMut(Limits) -> Observed,
) -> (Verdict, Observed, Observed) {
    let (lo, lr) = limits_of_pair(limits);
    let optimised = reference::scope(false, || run(lo));
    if optimised.out_of_heap() {
        // Inconclusive whatever the reference does: not run.
        let verdict = Verdict::Inconclusive("the optimised run ran out of heap".into());
        return (verdict, optimised.clone(), optimised);
    }
    let reference = reference::scope(true, || run(lr));
    (compare(&optimised, &reference), optimised, reference)
}

/// Runs the programs of `sources` in turn in one interpreter (a session's
/// turns: definitions carry over, a failed one changes nothing), optimised
/// and as the reference, and compares each turn's outcome; the first
/// turn that does not agree stops the comparison. `make` builds the
/// interpreter for the limits given.
pub fn run_turns_pair(
    sources: &[&str],
    limits: &Limits,
    make: impl Fn(Limits) -> Interp,
) -> Vec<Verdict> {
    let (lo, lr) = limits_of_pair(limits);
    let run_all = |reference: bool, limits: Limits| {
        reference::scope(reference, || {
            let mut interp = make(limits);
            sources
                .iter()
                .map(|src| {
                    let outcome = interp.run_program(src);
                    if let Ok(v) = &outcome.result {
                        interp.turn_history.push(v.clone());
                    }
                    Observed::of(&interp, &outcome)
                })
                .collect::<Vec<_>>()
        })
    };
    let optimised = run_all(false, lo);
    let reference = run_all(true, lr);
    let mut verdicts = Vec::new();
    for (o, r) in optimised.iter().zip(&reference) {
        let v = compare(o, r);
        let stop = matches!(v, Verdict::Differ(_));
        verdicts.push(v);
        if stop {
            break;
        }
    }
    verdicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::StaticHost;

    fn observe(src: &str, limits: Limits) -> Observed {
        let mut interp = Interp::new(Box::new(StaticHost::default()), limits);
        let outcome = interp.run_program(src);
        Observed::of(&interp, &outcome)
    }

    #[test]
    fn the_reference_agrees_and_a_wrong_value_is_a_disagreement() {
        let src =
            "(def v [1 2]) (println (conj v 3)) (reduce (fn [acc x] (conj acc x)) v (range 3))";
        let (verdict, o, r) = run_pair(&Limits::default(), |l| observe(src, l));
        assert_eq!(verdict, Verdict::Same, "{o:?} {r:?}");
        assert_eq!(o.prints, ["[1 2 3]"]);
        let mut other = r.clone();
        let wrong = Value::vector_from([1, 2, 0, 1].map(Value::Int));
        other.result = Ok(kept(&wrong));
        assert!(matches!(compare(&o, &other), Verdict::Differ(d) if d.contains("[1 2 0 1]")));
        other = r.clone();
        other.defines.insert("v".into(), kept(&Value::Nil));
        assert!(matches!(compare(&o, &other), Verdict::Differ(d) if d.contains("\"v\"")));
    }

    #[test]
    fn running_out_of_heap_is_inconclusive_and_no_clock_decides() {
        let limits = Limits {
            max_heap_bytes: Some(64 * 1024),
            timeout_ms: Some(1),
            ..Limits::default()
        };
        let (lo, lr) = limits_of_pair(&limits);
        assert_eq!((lo.timeout_ms, lr.timeout_ms), (None, None));
        assert_eq!(lr.max_heap_bytes, Some(64 * 1024));
        let src = "(count (vec (range 100000)))";
        let (verdict, o, _) = run_pair(&limits, |l| observe(src, l));
        assert_eq!(o.result, Err("memory-exceeded".into()));
        assert!(matches!(verdict, Verdict::Inconclusive(_)));
    }
}
