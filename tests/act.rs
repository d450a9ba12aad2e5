//! Tools that act (issue 61; rules ACT-1 … ACT-5 in `src/session/act.rs`,
//! CALL-SITE-1 in `src/eval/group.rs`): effects in the listing, approval
//! pauses and resumes, denials, idempotency keys, the intent journal with
//! `indeterminate`, previews, and `pmap` running tool calls concurrently —
//! through the Rust API and the `ptc` binary, including a crash test that
//! kills `ptc` with SIGKILL at each point of a write's life.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::Scratch;
use ptc_lisp::session::{Acts, Decision, Effect, FnTool, Session, Status, ToolInfo};
use ptc_lisp::{ErrorKind, Value};

const PTC: &str = env!("CARGO_BIN_EXE_ptc");

/// A closure tool `name` acting as `acts`, counting its calls.
fn counting(name: &str, acts: Acts, calls: &Arc<AtomicUsize>) -> FnTool {
    let calls = calls.clone();
    FnTool::new(name, "(x :int) -> :int", "", move |args| {
        calls.fetch_add(1, Ordering::SeqCst);
        Ok(Value::Int(args[0].as_int().unwrap_or(0) * 10))
    })
    .unwrap()
    .acting(acts)
}

fn approval_write() -> Acts {
    Acts {
        effect: Effect::Write,
        approval: true,
        ..Acts::default()
    }
}

fn session_with(tools: Vec<FnTool>) -> Session {
    let mut b = Session::builder("act").max_turns(5);
    for t in tools {
        b = b.tool(t);
    }
    b.build().unwrap()
}

#[test]
fn a_write_needing_approval_pauses_the_turn_and_changes_nothing() {
    let (reads, writes) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut s = session_with(vec![
        counting("look", Acts::default(), &reads),
        counting("charge", approval_write(), &writes),
    ]);
    s.run_program("(def before 1)").unwrap();
    let turn = s
        .run_program("(def a (tool/look 1)) (println \"looked\" a) (def b (tool/charge a)) (+ a b)")
        .unwrap()
        .clone();
    assert!(turn.is_paused(), "{:?}", turn.result);
    assert_eq!(turn.error().unwrap().kind(), ErrorKind::Paused);
    assert_eq!(turn.pending.len(), 1);
    assert_eq!(turn.pending[0].tool, "charge");
    assert_eq!(turn.pending[0].args, vec![Value::Int(10)]);
    assert_eq!(turn.pending[0].id, "1", "the second call site of the turn");
    assert!(turn.pending[0].key.as_deref().unwrap().ends_with(":2:1"));
    assert_eq!(writes.load(Ordering::SeqCst), 0, "the write did not run");
    assert!(s.memory().lookup("a").is_none(), "memory unchanged");
    assert_eq!(s.status(), &Status::Running);
    // No new turn until the paused one is resumed.
    assert!(s.run_program("1").is_err());

    let mut approve = BTreeMap::new();
    approve.insert("1".to_string(), Decision::Approve);
    let turn = s.resume(approve).unwrap().clone();
    assert_eq!(turn.result.as_ref().unwrap(), &Value::Int(110));
    assert_eq!(turn.number, 2, "the resumed turn replaces the paused one");
    assert_eq!(s.turns().len(), 2);
    assert_eq!(
        writes.load(Ordering::SeqCst),
        1,
        "the approved write ran once"
    );
    assert_eq!(
        reads.load(Ordering::SeqCst),
        1,
        "the call before the pause answered from the turn's record"
    );
    assert_eq!(turn.prints, vec!["looked 10".to_string()]);
    assert!(s.run_program("(+ a b)").is_ok());
}

#[test]
fn a_denied_call_is_a_tool_error_the_program_can_catch() {
    let writes = Arc::new(AtomicUsize::new(0));
    let mut s = session_with(vec![counting("charge", approval_write(), &writes)]);
    assert!(s
        .run_program("(try (tool/charge 1) (catch Exception e (ex-message e)))")
        .unwrap()
        .is_paused());
    let mut deny = BTreeMap::new();
    deny.insert("0".to_string(), Decision::Deny("over budget".into()));
    let turn = s.resume(deny).unwrap();
    assert_eq!(
        turn.result.as_ref().unwrap(),
        &Value::string("tool/charge failed: denied: over budget")
    );
    assert_eq!(writes.load(Ordering::SeqCst), 0);
}

#[test]
fn session_level_approval_covers_every_write_and_the_listing_says_so() {
    let n = Arc::new(AtomicUsize::new(0));
    let mut s = Session::builder("act")
        .tool(counting("look", Acts::default(), &n))
        .tool(counting("save", Acts::write(), &n))
        .approval_for_writes(true)
        .build()
        .unwrap();
    let prompt = s.next_prompt().last().unwrap().content.clone();
    let line = |name: &str| {
        prompt
            .lines()
            .find(|l| l.starts_with(&format!("(tool/{name}")))
            .unwrap()
            .to_string()
    };
    assert!(
        line("save").ends_with(", writes, asks approval"),
        "{prompt}"
    );
    assert!(!line("look").contains("writes"), "{prompt}");
    assert!(s.run_program("(tool/look 1)").unwrap().success);
    assert!(s.run_program("(tool/save 1)").unwrap().is_paused());
}

#[test]
fn a_preview_lists_the_writes_and_runs_none() {
    let (reads, writes) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut s = session_with(vec![
        counting("look", Acts::default(), &reads),
        counting(
            "charge",
            Acts {
                preview: Some(Value::Int(-1)),
                ..Acts::write()
            },
            &writes,
        ),
    ]);
    let p = s
        .preview("(def a (tool/look 2)) [(tool/charge a) (tool/charge 3)]")
        .unwrap();
    assert_eq!(writes.load(Ordering::SeqCst), 0);
    assert_eq!(reads.load(Ordering::SeqCst), 1, "reads run");
    let made: Vec<(String, String, Vec<Value>)> = p
        .writes
        .iter()
        .map(|w| (w.at.clone(), w.tool.clone(), w.args.clone()))
        .collect();
    assert_eq!(
        made,
        vec![
            ("1".into(), "charge".into(), vec![Value::Int(20)]),
            ("2".into(), "charge".into(), vec![Value::Int(3)]),
        ]
    );
    assert_eq!(p.turn.result.unwrap().to_string(), "[-1 -1]");
    assert!(s.turns().is_empty(), "the session has no new turn");
    assert!(s.memory().lookup("a").is_none());
}

/// A scratch directory with `tool.py`, a command tool serving every tool
/// of the session files below (stdlib only).
fn tool_dir(name: &str) -> Scratch {
    let dir = Scratch::dir(name);
    std::fs::write(
        dir.join("tool.py"),
        r#"import json, os, signal, sys, time
req = json.load(sys.stdin)
name, args, key = req["tool"], req["args"], req.get("idempotency_key")
here = os.path.dirname(os.path.abspath(__file__))
def once(mark):
    # True the first time only (the crash points happen once).
    p = os.path.join(here, mark)
    if os.path.exists(p):
        return False
    open(p, "w").close()
    return True
def die():
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(5)
if name == "slow":
    t0 = time.time(); time.sleep(0.3); t1 = time.time()
    with open(os.path.join(here, "spans.log"), "a") as f:
        f.write(json.dumps([t0, t1]) + "\n")
    print(json.dumps(args[0]))
elif name == "look":
    if args[0] == "crash" and once("look.crashed"):
        die()
    print(json.dumps(len(args[0])))
elif name in ("charge", "charge_idem"):
    crash = args[1] if len(args) > 1 else ""
    if crash == "before-write" and once("charge.crashed"):
        die()
    log = os.path.join(here, "charges.log")
    done = open(log).read().split() if os.path.exists(log) else []
    if name == "charge_idem" and key in done:
        print(json.dumps("already"))
        sys.exit(0)
    with open(log, "a") as f:
        f.write(key + "\n")
        f.flush(); os.fsync(f.fileno())
    if crash == "after-write" and once("charge.crashed"):
        die()
    print(json.dumps("charged"))
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("s.json"),
        serde_json::json!({
            "mission": "act",
            "limits": {"timeout_ms": 20000},
            "tools": {
                "slow": {"signature": "(x :any) -> :any", "command": ["python3", "tool.py"], "effect": "read"},
                "look": {"signature": "(x :string) -> :int", "command": ["python3", "tool.py"], "effect": "read"},
                "charge": {"signature": "(who :string, crash :string) -> :string", "command": ["python3", "tool.py"]},
                "charge_idem": {"signature": "(who :string, crash :string) -> :string", "command": ["python3", "tool.py"], "idempotent": true}
            }
        })
        .to_string(),
    )
    .unwrap();
    dir
}

fn ptc(dir: &Path, args: &[&str]) -> Output {
    Command::new(PTC)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ptc runs")
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn charges(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("charges.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn pmap_runs_tool_calls_together_with_the_sequential_outcome() {
    let dir = tool_dir("ptc-act-pmap");
    let program = "(def r (pmap #(tool/slow {:i %}) (range 6))) (println (count r)) (mapv :i r)";
    std::fs::write(dir.join("p.clj"), program).unwrap();
    let run = |n: &str| {
        let _ = std::fs::remove_file(dir.join("spans.log"));
        let o = ptc(
            &dir,
            &[
                "run",
                "--session",
                "s.json",
                "--out",
                "o.json",
                "--max-parallel-tool-calls",
                n,
                "p.clj",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let spans: Vec<(f64, f64)> = std::fs::read_to_string(dir.join("spans.log"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // The most calls under way at one moment.
        let most = spans
            .iter()
            .map(|(t0, _)| spans.iter().filter(|(a, b)| a <= t0 && t0 < b).count())
            .max()
            .unwrap();
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("o.json")).unwrap()).unwrap();
        (
            String::from_utf8_lossy(&o.stdout).to_string(),
            most,
            saved["tool_calls"].clone(),
        )
    };
    let (out1, most1, calls1) = run("1");
    let (out4, most4, calls4) = run("4");
    assert_eq!(out1, "6\n[0 1 2 3 4 5]\n");
    assert_eq!(out4, out1, "the same prints and value");
    assert_eq!(calls4, calls1, "the same calls recorded, in the same order");
    assert_eq!(most1, 1, "one at a time");
    assert!(
        (2..=4).contains(&most4),
        "calls overlap, at most 4 at once: {most4}"
    );
    // The saved file replays (recorded answers, in order).
    let o = ptc(&dir, &["replay", "o.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn resume_approves_once_and_a_changed_record_is_an_error_not_a_rerun() {
    let dir = tool_dir("ptc-act-resume");
    let mut s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
    s["tools"]["charge"]["approval"] = true.into();
    std::fs::write(dir.join("s.json"), s.to_string()).unwrap();
    std::fs::write(
        dir.join("p.clj"),
        "(def n (tool/look \"abc\")) (tool/charge \"ann\" \"\") n",
    )
    .unwrap();
    let o = ptc(
        &dir,
        &["run", "--session", "s.json", "--out", "o.json", "p.clj"],
    );
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(
        text(&o).contains("[1] (tool/charge \"ann\" \"\")"),
        "{}",
        text(&o)
    );
    assert!(charges(&dir).is_empty());
    // An unknown id is refused, and nothing runs.
    let o = ptc(&dir, &["resume", "o.json", "--approve", "7"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // A record that no longer matches the program: an error, no re-run.
    let saved = std::fs::read_to_string(dir.join("o.json")).unwrap();
    let mut changed: serde_json::Value = serde_json::from_str(&saved).unwrap();
    changed["resume"]["tool_calls"][0]["args"][0] = "abd".into();
    std::fs::write(dir.join("changed.json"), changed.to_string()).unwrap();
    let o = ptc(&dir, &["resume", "changed.json", "--approve", "all"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no longer matches"), "{}", text(&o));
    assert!(charges(&dir).is_empty(), "nothing ran");

    let o = ptc(&dir, &["resume", "o.json", "--approve", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "3\n");
    let keys = charges(&dir);
    assert_eq!(keys.len(), 1);
    let id = changed["id"].as_str().unwrap().to_string();
    assert_eq!(
        keys[0],
        format!("{id}:1:1"),
        "the key names session, turn and call"
    );
    let o = ptc(&dir, &["resume", "o.json"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "nothing left to resume: {}",
        text(&o)
    );
    // The next turn runs after the replayed one (whose write is recorded).
    std::fs::write(dir.join("q.clj"), "(inc n)").unwrap();
    let o = ptc(&dir, &["run", "--session", "o.json", "q.clj"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "4\n", "{}", text(&o));
    assert_eq!(charges(&dir).len(), 1);
}

/// Kills `ptc` (SIGKILL, from a tool) at one point of a write's life, then
/// resumes: the write's count is 0 or 1, never 2, and the outcome is
/// named. Returns the resumed outcome and the count.
fn crash_then_resume(name: &str, program: &str) -> (Output, usize) {
    let dir = tool_dir(name);
    std::fs::write(dir.join("p.clj"), program).unwrap();
    let o = ptc(
        &dir,
        &["run", "--session", "s.json", "--out", "o.json", "p.clj"],
    );
    assert_eq!(o.status.code(), None, "killed: {}", text(&o));
    let o = ptc(&dir, &["resume", "o.json"]);
    let count = charges(&dir).len();
    assert!(count <= 1, "{name}: the write ran {count} times");
    // Resuming again finds nothing to do, and runs nothing.
    let again = ptc(&dir, &["resume", "o.json"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert_eq!(charges(&dir).len(), count);
    (o, count)
}

#[test]
fn a_crash_at_any_point_of_a_write_never_runs_it_twice() {
    // Before the intent: the write never started; resuming runs it.
    let (o, n) = crash_then_resume(
        "ptc-act-crash-before",
        "(tool/look \"crash\") (tool/charge \"a\" \"\")",
    );
    assert_eq!((o.status.code(), n), (Some(0), 1), "{}", text(&o));
    // Between intent and answer, the tool having written or not: never run
    // again; the turn ends `indeterminate`, naming the call and its key.
    for (point, written) in [("before-write", 0), ("after-write", 1)] {
        let (o, n) = crash_then_resume(
            &format!("ptc-act-crash-{point}"),
            &format!("(tool/charge \"a\" \"{point}\")"),
        );
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("indeterminate") && err.contains("tool/charge (call 0, idempotency key"),
            "{err}"
        );
        assert_eq!(n, written, "{point}");
    }
    // After the answer: the answer comes from the journal.
    let (o, n) = crash_then_resume(
        "ptc-act-crash-after",
        "(def r (tool/charge \"a\" \"\")) (tool/look \"crash\") r",
    );
    assert_eq!((o.status.code(), n), (Some(0), 1), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "\"charged\"\n");
    // An idempotent tool is run again with the same key instead.
    let (o, n) = crash_then_resume(
        "ptc-act-crash-idempotent",
        "(tool/charge_idem \"a\" \"after-write\")",
    );
    assert_eq!((o.status.code(), n), (Some(0), 1), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "\"already\"\n");
}

#[test]
fn preview_on_the_command_line_lists_writes_and_saves_nothing() {
    let dir = tool_dir("ptc-act-preview");
    std::fs::write(
        dir.join("p.clj"),
        "(doseq [w [\"a\" \"b\"]] (tool/charge w \"\")) (tool/look \"xy\")",
    )
    .unwrap();
    let o = ptc(&dir, &["run", "--session", "s.json", "--preview", "p.clj"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("would write: [0] (tool/charge \"a\" \"\")")
            && err.contains("would write: [1] (tool/charge \"b\" \"\")"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), "2\n");
    assert!(charges(&dir).is_empty());
}

#[test]
fn command_and_canned_tools_default_to_write_and_read() {
    let dir = tool_dir("ptc-act-effects");
    let o = ptc(&dir, &["replay", "s.json"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("(tool/{name} ")))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    assert!(line("charge").ends_with(", writes"), "{out}");
    assert!(!line("look").contains("writes"), "declared a read: {out}");
    let info = ToolInfo::new("t", "-> :any", None).unwrap();
    assert_eq!(info.acts.effect, Effect::Read, "a closure reads by default");
}

/// A session whose tools answer from their arguments (one fails on
/// negative numbers), with `max_parallel_tool_calls` = `parallel`.
fn echo_session(parallel: usize) -> Session {
    let limits = ptc_lisp::Limits {
        max_parallel_tool_calls: parallel,
        ..ptc_lisp::Limits::default()
    };
    Session::builder("act")
        .limits(limits)
        .tool(
            FnTool::new("sq", "(x :int) -> :int", "", |args| {
                let x = args[0].as_int().unwrap_or(0);
                if x < 0 {
                    Err(format!("negative: {x}"))
                } else {
                    Ok(Value::Int(x * x))
                }
            })
            .unwrap(),
        )
        .tool(
            FnTool::new("put", "(k :any, v :any) -> :any", "", |args| {
                Ok(Value::vector_from(args.iter().cloned()))
            })
            .unwrap()
            .acting(Acts::write()),
        )
        .build()
        .unwrap()
}

/// What a turn did, for comparing two runs.
fn observed(s: &mut Session, program: &str) -> String {
    let t = s.run_program(program).unwrap();
    let calls: Vec<String> = t
        .tool_calls
        .iter()
        .map(|c| format!("{}@{} {:?} -> {:?}", c.name, c.at, c.args, c.result))
        .collect();
    let memory: Vec<String> = s
        .memory()
        .iter()
        .map(|(k, d)| format!("{k}={:?}", d.value))
        .collect();
    format!(
        "{:?}\nprints {:?}\ncalls {calls:?}\nmemory {memory:?}",
        s.turns()
            .last()
            .unwrap()
            .result
            .as_ref()
            .map(|v| v.to_string()),
        s.turns().last().unwrap().prints,
    )
}

/// `pmap`/`pcalls` with concurrent tool calls give what the one-at-a-time
/// run gives — values, prints, errors, the recorded calls and their
/// sites, memory — over shapes that stress the gathering rounds.
#[test]
fn concurrent_groups_agree_with_sequential_ones() {
    let programs = [
        "(pmap #(tool/sq %) (range 5))",
        "(pmap (fn [x] (println \"item\" x) (+ (tool/sq x) (tool/sq (inc x)))) [1 2 3])",
        "(pmap (fn [x] (let [a (tool/sq x)] (if (even? a) (tool/sq a) a))) (range 6))",
        "(pmap (fn [x] (try (tool/sq x) (catch Exception e (ex-message e)))) [2 -1 3])",
        "(pmap #(tool/sq %) [1 -2 3 -4])",
        "(pmap (fn [xs] (pmap #(tool/sq %) xs)) [[1 2] [3] []])",
        "(pcalls #(tool/sq 2) #(tool/put :a 1) #(do (print \"x\") (tool/sq 3)))",
        "(with-out-str (pmap #(do (print %) (tool/sq %)) [1 2 3]))",
        "(def r (pmap #(tool/put % (tool/sq %)) [3 1 2])) (count r)",
        "(pmap (fn [x y] (tool/put x y)) [1 2 3] [:a :b])",
        "(pmap (fn [x] (when (= x 2) (fail \"two\")) (tool/sq x)) [1 2 3])",
        "(tool/sq 1) (pmap #(tool/sq %) [4 5]) (tool/sq 2)",
        "(reduce + (pmap (fn [x] (reduce + (map #(tool/sq %) (range x)))) [1 2 3 4]))",
    ];
    for p in programs {
        let one = observed(&mut echo_session(1), p);
        let many = observed(&mut echo_session(8), p);
        assert_eq!(many, one, "{p}");
    }
}

/// The tool-call limit holds for the turn as a whole: gathering a `pmap`'s
/// calls runs no more of them than the limit allows.
#[test]
fn gathered_calls_count_against_the_tool_call_limit() {
    let calls = Arc::new(AtomicUsize::new(0));
    let limits = ptc_lisp::Limits {
        max_tool_calls: Some(3),
        ..ptc_lisp::Limits::default()
    };
    let mut s = Session::builder("act")
        .limits(limits)
        .tool(counting("sq", Acts::default(), &calls))
        .build()
        .unwrap();
    let t = s
        .run_program("(tool/sq 1) (pmap #(tool/sq %) (range 8))")
        .unwrap();
    assert_eq!(t.error().unwrap().kind(), ErrorKind::LimitExceeded);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        3,
        "no call past the limit ran"
    );
}
