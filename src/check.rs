//! Conformance cases (`conformance/README.md`): parse a `.jsonl` file, run
//! each case in a fresh interpreter, and compare every field the case gives —
//! `expect` or `error`/`error_contains`, `prints`, `tool_calls`, `defines`,
//! `signal` — under its `data`, `memory`, `tools`, `limits` and
//! `turn_history`. `ptc check` and the test suite both use [`run_file`]; an
//! embedder can check its own case files the same way.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::eval::{CannedTool, Interp, Limits, StaticHost};
use crate::format::to_clojure;
use crate::reader::read_value;
use crate::run::Outcome;
use crate::value::Value;

/// One case. Informational fields (`clojure`, `section`, `note` …) are
/// accepted and ignored.
#[derive(Debug, Deserialize)]
pub(crate) struct Case {
    pub id: String,
    pub program: String,
    pub expect: Option<String>,
    pub error: Option<String>,
    pub error_contains: Option<String>,
    #[serde(default)]
    pub data: BTreeMap<String, String>,
    #[serde(default)]
    pub memory: BTreeMap<String, String>,
    #[serde(default)]
    pub tools: BTreeMap<String, ToolSpec>,
    pub prints: Option<Vec<String>>,
    pub tool_calls: Option<Vec<ExpectedCall>>,
    pub defines: Option<BTreeMap<String, String>>,
    pub limits: Option<Limits>,
    pub turn_history: Option<Vec<String>>,
    pub signal: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ToolSpec {
    pub returns: Option<String>,
    pub error: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ExpectedCall {
    pub name: String,
    pub args: String,
}

/// Parses a `.jsonl` file's text; blank lines are skipped. The error names
/// the line.
pub(crate) fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("line {}: not a conformance case ({e}); {CASE_SHAPE}", i + 1))
        })
        .collect()
}

/// What a line of a case file must be, for errors on lines that are not.
const CASE_SHAPE: &str = "a case file (.jsonl) holds one JSON object per line, e.g. \
{\"id\": \"add-1\", \"program\": \"(+ 1 2)\", \"expect\": \"3\"} \
(`id` and `program` required; then `expect`, or `error`/`error_contains`; \
see the conformance README)";

fn literal(what: &str, src: &str) -> Result<Value, String> {
    read_value(src).map_err(|e| format!("cannot read {what} literal {src:?}: {e}"))
}

/// Runs a case; `Err` says what did not match.
pub(crate) fn run_case(case: &Case) -> Result<(), String> {
    let mut interp = Inputs::read(case)?.interp(case.limits.clone().unwrap_or_default());
    let outcome = interp.run_program(&case.program);
    compare(case, &interp, &outcome)
}

/// Runs a case optimised and as the reference and compares what they did
/// (rule ORACLE-1, `oracle.rs`), whatever the case expects.
pub(crate) fn oracle_case(case: &Case) -> Result<crate::oracle::Verdict, String> {
    let inputs = Inputs::read(case)?;
    let limits = case.limits.clone().unwrap_or_default();
    let (verdict, _, _) = crate::oracle::run_pair(&limits, |limits| {
        let mut interp = inputs.interp(limits);
        let outcome = interp.run_program(&case.program);
        crate::oracle::Observed::of(&interp, &outcome)
    });
    Ok(verdict)
}

/// A case's data, tools, memory and history, read from their literals.
struct Inputs {
    host: StaticHost,
    memory: Vec<(String, Value)>,
    history: Option<Vec<Value>>,
}

impl Inputs {
    /// Reads the case's literals; the error names the one that is not.
    fn read(case: &Case) -> Result<Inputs, String> {
        let mut host = StaticHost::default();
        for (name, src) in &case.data {
            host.data.insert(name.clone(), literal("data", src)?);
        }
        for (name, spec) in &case.tools {
            let tool = match (&spec.error, &spec.returns) {
                (Some(e), _) => CannedTool::Error(e.clone()),
                (None, Some(r)) => CannedTool::Returns(literal("tool result", r)?),
                (None, None) => CannedTool::Returns(Value::Nil),
            };
            host.tools.insert(name.clone(), tool);
        }
        let memory = case
            .memory
            .iter()
            .map(|(name, src)| Ok((name.clone(), literal("memory", src)?)))
            .collect::<Result<_, String>>()?;
        let history = match &case.turn_history {
            Some(h) => Some(
                h.iter()
                    .map(|h| literal("turn_history", h))
                    .collect::<Result<_, _>>()?,
            ),
            None => None,
        };
        Ok(Inputs {
            host,
            memory,
            history,
        })
    }

    /// A fresh interpreter over the inputs, running within `limits`.
    fn interp(&self, limits: Limits) -> Interp {
        let mut interp = Interp::new(Box::new(self.host.clone()), limits);
        for (name, v) in &self.memory {
            interp.globals.define(name, v.clone(), None);
        }
        if let Some(history) = &self.history {
            interp.turn_history = history.clone();
        }
        interp
    }
}

fn show(v: &Value) -> String {
    to_clojure(v, None, None).0
}

fn compare(case: &Case, interp: &Interp, outcome: &Outcome) -> Result<(), String> {
    match (&case.error, &outcome.result) {
        (Some(kind), Err(e)) => {
            if e.kind().name() != kind {
                return Err(format!(
                    "expected {kind}, got {}: {}",
                    e.kind(),
                    e.message()
                ));
            }
            if let Some(sub) = &case.error_contains {
                if !e.message().contains(sub.as_str()) {
                    return Err(format!(
                        "error message {:?} does not contain {sub:?}",
                        e.message()
                    ));
                }
            }
        }
        (Some(kind), Ok(v)) => return Err(format!("expected {kind}, got value {}", show(v))),
        (None, Err(e)) => return Err(format!("unexpected {}: {}", e.kind(), e.message())),
        (None, Ok(v)) => {
            if let Some(expect) = &case.expect {
                let want = literal("expect", expect)?;
                if *v != want {
                    return Err(format!("expected {}, got {}", show(&want), show(v)));
                }
            }
        }
    }
    let want_return = case.signal.as_deref() == Some("return");
    if outcome.result.is_ok() && want_return != outcome.returned {
        return Err(if want_return {
            "expected the program to end with (return v)".to_string()
        } else {
            "the program ended with (return v), which the case does not expect".to_string()
        });
    }
    if let Some(prints) = &case.prints {
        if &interp.prints != prints {
            return Err(format!(
                "expected prints {prints:?}, got {:?}",
                interp.prints
            ));
        }
    }
    if let Some(calls) = &case.tool_calls {
        let got: Vec<(String, Value)> = interp
            .tool_calls
            .iter()
            .map(|c| (c.name.clone(), Value::vector_from(c.args.iter().cloned())))
            .collect();
        let mut want = Vec::new();
        for c in calls {
            want.push((c.name.clone(), literal("tool_calls args", &c.args)?));
        }
        if got != want {
            let fmt = |calls: &[(String, Value)]| {
                calls
                    .iter()
                    .map(|(n, a)| format!("{n}{}", show(a)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(format!(
                "expected tool calls [{}], got [{}]",
                fmt(&want),
                fmt(&got)
            ));
        }
    }
    if let Some(defines) = &case.defines {
        for (name, src) in defines {
            let want = literal("defines", src)?;
            match interp.globals.lookup(name) {
                Some(d) if d.value == want => {}
                Some(d) => {
                    return Err(format!(
                        "expected {name} = {}, got {}",
                        show(&want),
                        show(&d.value)
                    ))
                }
                None => return Err(format!("expected {name} to be defined")),
            }
        }
    }
    Ok(())
}

/// The result of running one file.
pub struct FileReport {
    /// How many cases passed.
    pub passed: usize,
    /// `(id, reason)` of every failed case.
    pub failures: Vec<(String, String)>,
}

/// Runs every case of a file's text (what `ptc check FILE` runs): each case
/// in a fresh interpreter. `Err` when the text is not a valid case file (a
/// line that is not a case, naming the line).
pub fn run_file(text: &str) -> Result<FileReport, String> {
    let cases = parse_cases(text)?;
    let mut report = FileReport {
        passed: 0,
        failures: Vec::new(),
    };
    for case in &cases {
        match run_case(case) {
            Ok(()) => report.passed += 1,
            Err(why) => report.failures.push((case.id.clone(), why)),
        }
    }
    Ok(report)
}

/// [`run_file`] as the oracle: every case run optimised and as the
/// reference (`ptc check --oracle`); a failure is a pair that disagrees,
/// and the cases that were inconclusive are counted apart.
pub fn oracle_file(text: &str) -> Result<OracleReport, String> {
    let cases = parse_cases(text)?;
    let mut report = OracleReport::default();
    for case in &cases {
        match oracle_case(case) {
            Ok(crate::oracle::Verdict::Same) => report.same += 1,
            Ok(crate::oracle::Verdict::Inconclusive(_)) => report.inconclusive += 1,
            Ok(crate::oracle::Verdict::Differ(why)) | Err(why) => {
                report.differ.push((case.id.clone(), why))
            }
        }
    }
    Ok(report)
}

/// What [`oracle_file`] found.
#[derive(Debug, Default)]
pub struct OracleReport {
    /// Cases whose two runs agree.
    pub same: usize,
    /// Cases one of whose runs ran out of heap (ORACLE-1).
    pub inconclusive: usize,
    /// Cases whose runs disagree (or could not be set up), with what
    /// differs.
    pub differ: Vec<(String, String)>,
}
