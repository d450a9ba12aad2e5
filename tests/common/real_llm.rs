//! The real-model corpus of `../shared/real-llm/` (issue 27), shared by
//! `tests/real_llm.rs` (ptc against upstream's recorded outcomes) and
//! `tests/oracle.rs` (optimised against the reference run). See
//! `tests/real_llm.rs` for how a run is replayed.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use ptc_lisp::{Host, Value};
use serde_json::Value as Json;

pub const PRELUDE: &str = r#"
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

pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/real-llm")
}

pub fn lines(name: &str) -> Vec<Json> {
    let path = corpus_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "../shared/real-llm not found ({}: {e}): the project's shared folder must sit beside this checkout (docs/contributing.md, \"What the tests need\")",
            path.display()
        )
    });
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect()
}

/// A JSON value as upstream's programs see it: objects keep string keys.
pub fn from_json_strings(j: &Json) -> Value {
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
pub fn canonical(j: &Json) -> String {
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
pub type Answers = HashMap<(String, String), Result<Value, String>>;

/// The tools of one incident, answering from the recording.
pub struct Recorded {
    pub calls: Answers,
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

/// Rewrites upstream's capability namespace to the prelude's functions.
pub fn rewrite(src: &str) -> String {
    src.replace("incident.evidence/", "user/incident-evidence-")
}

/// The recorded tool answers of every incident.
pub fn answers_by_incident() -> HashMap<String, Answers> {
    let mut by_incident: HashMap<String, Answers> = HashMap::new();
    for t in &lines("tools.jsonl") {
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
    by_incident
}

/// The programs of the run `run_id`, in turn order.
pub fn programs_of<'a>(programs: &'a [Json], run_id: &str) -> Vec<&'a Json> {
    let mut mine: Vec<&Json> = programs.iter().filter(|p| p["run"] == run_id).collect();
    mine.sort_by_key(|p| p["turn"].as_u64());
    mine
}
