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

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use ptc_lisp::{Host, Interp, Limits, Value};
use serde_json::Value as Json;

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

const PRELUDE: &str = r#"
(defn incident-evidence-list-sources [incident-id]
  (tool/evidence.list_sources {:incident_id incident-id}))
(defn incident-evidence-search [incident-id query source limit]
  (tool/evidence.search (into {} (remove (comp nil? val)
                                          {:incident_id incident-id :query query
                                           :source source :limit limit}))))
(defn incident-evidence-get-record [incident-id evidence-id]
  (tool/evidence.get {:incident_id incident-id :evidence_id evidence-id}))
(defn incident-evidence-resolve-citations [incident-id citations]
  (tool/evidence.resolve_citations {:incident_id incident-id :citations citations}))
nil
"#;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-llm")
}

fn lines(name: &str) -> Vec<Json> {
    let path = corpus_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "../shared/real-llm not found ({}: {e}): the project's shared folder must sit beside this checkout (README, \"What the tests need\")",
            path.display()
        )
    });
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect()
}

/// A JSON value as upstream's programs see it: objects keep string keys.
fn from_json_strings(j: &Json) -> Value {
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::string(s.as_str()),
        Json::Array(items) => Value::vector_from(items.iter().map(from_json_strings)),
        Json::Object(o) => {
            let mut m = ptc_lisp::value::Map::new();
            for (k, v) in o {
                m.insert(Value::string(k.as_str()), from_json_strings(v));
            }
            Value::Map(m)
        }
    }
}

/// Canonical text of a JSON value (keys sorted, numbers as f64).
fn canonical(j: &Json) -> String {
    match j {
        Json::Object(o) => {
            let sorted: BTreeMap<&String, String> =
                o.iter().map(|(k, v)| (k, canonical(v))).collect();
            let parts: Vec<String> = sorted.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
            format!("{{{}}}", parts.join(","))
        }
        Json::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        Json::Number(n) => format!("{}", n.as_f64().unwrap_or(f64::NAN)),
        other => other.to_string(),
    }
}

/// Recorded answers by (tool name, canonical arguments).
type Answers = HashMap<(String, String), Result<Value, String>>;

/// The tools of one incident, answering from the recording.
struct Recorded {
    calls: Answers,
}

impl Host for Recorded {
    fn data(&self, _: &str) -> Option<Value> {
        None
    }
    fn data_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn has_tool(&self, name: &str) -> bool {
        name.starts_with("evidence.")
    }
    fn tool_names(&self) -> Vec<String> {
        [
            "evidence.get",
            "evidence.list_sources",
            "evidence.resolve_citations",
            "evidence.search",
        ]
        .map(String::from)
        .to_vec()
    }
    fn call_tool(&mut self, name: &str, args: &[Value]) -> Result<Value, String> {
        let json = match args {
            [one] => ptc_lisp::to_json(one),
            _ => return Err(format!("{name}: expected one map of arguments")),
        };
        if name == "evidence.resolve_citations" {
            return self.resolve(&json);
        }
        self.calls
            .get(&(name.to_string(), canonical(&json)))
            .cloned()
            .unwrap_or_else(|| Err(format!("{name}: no recorded result for {json}")))
    }
}

impl Recorded {
    /// `resolve-citations`, which upstream ran outside its recorded tools:
    /// each citation `{evidence_id, content_digest}` checked against the
    /// records `evidence.get` returned — `checked`, `mismatched` (another
    /// digest) or `unresolved` (no such record).
    fn resolve(&self, args: &Json) -> Result<Value, String> {
        let Some(citations) = args["citations"].as_array() else {
            return Err("evidence.resolve_citations: citations must be a list".into());
        };
        let mut digests: HashMap<String, String> = HashMap::new();
        for ((name, _), answer) in &self.calls {
            if name != "evidence.get" {
                continue;
            }
            if let Ok(v) = answer {
                let j = ptc_lisp::to_json(v);
                if let (Some(id), Some(d)) = (
                    j["record"]["evidence_id"].as_str(),
                    j["record"]["content_digest"].as_str(),
                ) {
                    digests.insert(id.to_string(), d.to_string());
                }
            }
        }
        let results: Vec<Json> = citations
            .iter()
            .map(|c| {
                let id = c["evidence_id"].as_str().unwrap_or("");
                let status = match (digests.get(id), c["content_digest"].as_str()) {
                    (None, _) => "unresolved",
                    (Some(d), Some(given)) if d == given => "checked",
                    _ => "mismatched",
                };
                serde_json::json!({"evidence_id": c["evidence_id"], "status": status})
            })
            .collect();
        Ok(from_json_strings(
            &serde_json::json!({ "results": results }),
        ))
    }
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Returned,
    Continued,
    Failed,
}

/// Rewrites upstream's capability namespace to the prelude's functions.
fn rewrite(src: &str) -> String {
    src.replace("incident.evidence/", "user/incident-evidence-")
}

#[test]
fn real_model_programs_agree_with_upstream() {
    let runs = lines("runs.jsonl");
    let programs = lines("programs.jsonl");
    let tools = lines("tools.jsonl");
    let mut by_incident: HashMap<String, Answers> = HashMap::new();
    for t in &tools {
        let incident = t["incident"].as_str().unwrap_or("").to_string();
        let name = t["name"].as_str().unwrap_or("").to_string();
        let result = &t["result"];
        let answer = if result["status"] == "ok" {
            Ok(from_json_strings(&result["value"]))
        } else {
            Err(format!("{name} failed: {}", result))
        };
        by_incident
            .entry(incident)
            .or_default()
            .insert((name, canonical(&t["args"])), answer);
    }
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
        let mut mine: Vec<&Json> = programs.iter().filter(|p| p["run"] == run_id).collect();
        mine.sort_by_key(|p| p["turn"].as_u64());
        for p in mine {
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
