//! Replays the real-model corpus of `../shared/real-llm/` (issue 27): 394
//! programs deepseek-v3.2 wrote in the reference implementation's recorded
//! incident-analysis runs, with what upstream recorded for each, and fails
//! on any disagreement not listed in [`KNOWN_DIFFERENCES`] (or on a listed
//! one that now agrees: the list may only shrink).
//!
//! How a run is replayed (the corpus has no README here; this is the rule):
//! * one interpreter per run (`runs.jsonl`), its programs run in turn order,
//!   so definitions carry over and a failed program changes none;
//! * a prelude turn first defines upstream's mission capabilities — the
//!   protected namespace `incident.evidence` (`list-sources`, `search`,
//!   `get-record`, `resolve-citations`) with upstream's positional
//!   parameters — as user/ functions calling the tools, and a program's
//!   `incident.evidence/NAME` is read as that user/ function (ptc has no
//!   host namespaces besides `tool/`);
//! * the tools answer from `tools.jsonl`: a call is looked up by tool name
//!   and arguments (nil arguments dropped, as upstream sends them); results
//!   keep their string keys; a recorded error, or a call never recorded (an
//!   argument upstream refused, `resolve-citations`, which upstream resolved
//!   outside its tools), is a tool error.
//!
//! A program agrees when ptc's outcome is upstream's: `returned` → the
//! program ended with `(return v)` (and `v` as JSON equals upstream's
//! `returned_json` when recorded); `continued` → it succeeded without
//! returning; `evaluation_error` or `failed` → it failed.

use std::collections::BTreeMap;

use ptc_lisp::{Interp, Limits};

#[path = "common/real_llm.rs"]
mod corpus;
use corpus::{answers_by_incident, canonical, lines, programs_of, rewrite, Recorded, PRELUDE};

/// The differences that remain, each with its reason (id → reason).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "loop/loop-checkout-5xx-7/mission-evaluation-54",
        "upstream's get on a string is a type_error; Clojure and ptc give nil (language.md: get on anything gives nil)",
    ),
    (
        "loop/loop-dual-cause-payments-9/mission-evaluation-90",
        "upstream has no transducer arity of map ((into {} (map f) coll) is an arity error there); ptc runs it as Clojure does",
    ),
    (
        "stress-loop/loop-schema-migration-stall-3/mission-evaluation-297",
        "follows from turn 113's (take -20 ids): empty in Clojure and ptc, everything upstream; so evidence-records is empty and (apply min []) is an arity error",
    ),
    (
        "stress-loop/loop-schema-migration-stall-3/mission-evaluation-321",
        "upstream rejects try/catch inside that fn (\"Undefined variables: try, catch, Exception, e\"); ptc runs it as Clojure does",
    ),
    (
        "stress-loop/loop-schema-migration-stall-3/mission-evaluation-64",
        "(doc \"incident.evidence/search\"): upstream documents its capabilities inside programs; ptc's doc is a REPL command, not a program function",
    ),
];

#[derive(Debug, PartialEq)]
enum Outcome {
    Returned,
    Continued,
    Failed,
}

#[test]
fn real_model_programs_agree_with_upstream() {
    let runs = lines("runs.jsonl");
    let programs = lines("programs.jsonl");
    let by_incident = answers_by_incident();
    let mut disagreements: BTreeMap<String, String> = BTreeMap::new();
    let mut total = 0;
    for run in &runs {
        let run_id = run["run"].as_str().unwrap();
        let incident = run["incident"].as_str().unwrap();
        let host = Recorded {
            calls: by_incident.get(incident).cloned().unwrap_or_default(),
        };
        let mut interp = Interp::new(Box::new(host), Limits::default());
        let prelude = interp.run_program(PRELUDE);
        assert!(prelude.is_ok(), "prelude: {:?}", prelude.result);
        for p in programs_of(&programs, run_id) {
            total += 1;
            let id = p["id"].as_str().unwrap().to_string();
            let up = &p["upstream"];
            let expected = match up["status"].as_str().unwrap_or("") {
                "returned" => Outcome::Returned,
                "continued" => Outcome::Continued,
                _ => Outcome::Failed,
            };
            let out = interp.run_program(&rewrite(p["source"].as_str().unwrap()));
            if std::env::var("PTC_REAL_LLM_RUN").is_ok_and(|r| r == run_id) {
                // Diagnosis: PTC_REAL_LLM_RUN=RUN shows each program's prints.
                println!(
                    "--- {id}: {:?}\n{}",
                    out.result.as_ref().map(|_| ()),
                    interp.prints.join("\n")
                );
            }
            if let Ok(v) = &out.result {
                // What `*1 *2 *3` see, as a session keeps them.
                interp.turn_history.push(v.clone());
            }
            let got = match (&out.result, out.returned) {
                (Ok(_), true) => Outcome::Returned,
                (Ok(_), false) => Outcome::Continued,
                (Err(_), _) => Outcome::Failed,
            };
            let detail = || match &out.result {
                Ok(v) => ptc_lisp::to_clojure(v, Some(3), Some(200)).0,
                Err(e) => format!("{:?}: {}", e.kind(), e.message()),
            };
            if got != expected {
                disagreements.insert(
                    id,
                    format!("upstream {expected:?}, ptc {got:?} ({})", detail()),
                );
                continue;
            }
            if let (Outcome::Returned, Some(json)) = (&got, up.get("returned_json")) {
                let v = out.result.as_ref().unwrap();
                if canonical(&ptc_lisp::to_json(v)) != canonical(json) {
                    disagreements.insert(id, format!("returned a different value: {}", detail()));
                }
            }
        }
    }
    assert_eq!(total, programs.len(), "every program belongs to a run");
    let known: BTreeMap<&str, &str> = KNOWN_DIFFERENCES.iter().copied().collect();
    let mut problems = Vec::new();
    for (id, why) in &disagreements {
        if !known.contains_key(id.as_str()) {
            problems.push(format!("NEW DIFFERENCE {id}: {why}"));
        }
    }
    for id in known.keys() {
        if !disagreements.contains_key(*id) {
            problems.push(format!(
                "AGREES NOW (remove it from KNOWN_DIFFERENCES) {id}"
            ));
        }
    }
    println!("{} of {total} agree", total - disagreements.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
