//! `ptc mcp` driven by real MCP clients (issue 25): the official Python SDK
//! client (`tests/mcp_server/clients.py`, stdio and Streamable HTTP) and the
//! MCP Inspector CLI, both installed by `bash tests/setup.sh` (a missing one
//! fails the test naming that command). Malformed messages and a client
//! vanishing mid-call over stdio are sent raw: no SDK client sends them.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;

const PTC: &str = env!("CARGO_BIN_EXE_ptc");
const SECRET: &str = "s3cr3t-api-token-9f8e7d";
/// The note of the first answer of an MCP session (SRV-3).
const FRESH: &str = "New MCP session: definitions persist only within this MCP session (a client \
                     that opens a new session for each call starts empty each time).";

fn deps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/deps")
}

fn python() -> PathBuf {
    let p = deps().join(".venv/bin/python");
    assert!(
        p.exists(),
        "the MCP Python SDK is not installed ({}): run: bash tests/setup.sh",
        p.display()
    );
    p
}

/// The Inspector CLI's entry point (run with its own directory as the
/// working directory: it finds its package.json relative to it).
fn inspector() -> PathBuf {
    let p = deps().join("node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
    assert!(
        p.exists(),
        "the MCP Inspector CLI is not installed ({}): run: bash tests/setup.sh",
        p.display()
    );
    p
}

/// A fresh directory (removed when dropped) with the session file of these
/// tests, `limits` being its `limits` object.
fn session_file(name: &str, limits: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::dir(&format!("ptc-mcp-{name}"));
    let file = dir.join("session.json");
    std::fs::write(
        &file,
        format!(
            r#"{{"mission": "Explore the orders.",
  "data": {{"orders": [{{"id": 1, "total": 10}}, {{"id": 2, "total": 25}}], "_key": "{SECRET}"}},
  "tools": {{"lookup": {{"signature": "(id :any) -> :map", "description": "Finds a customer", "returns": {{"name": "Ada"}}}}}},
  "limits": {limits}}}"#
        ),
    )
    .unwrap();
    (dir, file)
}

/// Runs a scenario of clients.py; panics with its output when it fails.
fn scenario(name: &str, session: &Path, server: Option<&Server>) {
    let mut cmd = Command::new(python());
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_server/clients.py"))
        .arg(name)
        .arg(PTC)
        .arg(session);
    if let Some(s) = server {
        cmd.arg(&s.url).arg(s.child.id().to_string());
    }
    let out = cmd.output().expect("python runs");
    assert!(
        out.status.success(),
        "scenario {name} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `ptc mcp --http 0` in the background, killed when dropped.
struct Server {
    child: Child,
    url: String,
    /// What the server wrote on stderr after its first line.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    fn start(session: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(PTC)
            .args(["mcp", session.to_str().unwrap(), "--http", "0"])
            .args(extra)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The line with the URL; lines before it (`ptc: starting MCP
        // server …` when one starts slowly) are skipped.
        let mut line = String::new();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        while reader.read_line(&mut line).unwrap() > 0 && !line.contains("http://") {
            line.clear();
        }
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for l in reader.lines() {
                let Ok(l) = l else { break };
                let mut s = sink.lock().unwrap();
                s.push_str(&l);
                s.push('\n');
            }
        });
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server { child, url, stderr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn python_client_over_stdio_keeps_definitions_and_rolls_back_failed_calls() {
    let (_dir, file) = session_file("defs", "{}");
    scenario("definitions_and_rollback", &file, None);
}

#[test]
fn structured_content_carries_the_whole_answer_for_every_kind_of_value() {
    let (_dir, file) = session_file("standalone", "{}");
    scenario("answers_stand_alone", &file, None);
}

#[test]
fn a_capped_answer_is_cut_alike_in_text_and_structured_content() {
    let (_dir, file) = session_file("capped", "{}");
    scenario("capped_answer", &file, None);
}

#[test]
fn python_client_over_stdio_gets_a_timeout_and_keeps_its_memory() {
    let (_dir, file) = session_file("timeout", "{}");
    scenario("timeout", &file, None);
}

#[test]
fn hidden_data_stays_out_of_every_answer() {
    let (_dir, file) = session_file("hidden", "{}");
    scenario("hidden", &file, None);
}

#[test]
fn eight_concurrent_http_clients_have_separate_sessions() {
    let (_dir, file) = session_file("concurrent", r#"{"timeout_ms": 30000}"#);
    let server = Server::start(&file, &[], &[]);
    scenario("http_concurrent", &file, Some(&server));
}

#[test]
fn http_client_leaving_mid_call_leaves_no_running_evaluation() {
    let (_dir, file) = session_file("disconnect", r#"{"timeout_ms": 60000, "max_steps": null}"#);
    let server = Server::start(&file, &[], &[]);
    scenario("http_disconnect", &file, Some(&server));
    // The abandoned turn (limit 60 s, no step limit) is interrupted as soon
    // as its session ends, not at its deadline.
    let start = Instant::now();
    while !server
        .stderr
        .lock()
        .unwrap()
        .contains("its turn was interrupted")
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the abandoned turn still runs: {}",
            server.stderr.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn malformed_http_requests_get_json_rpc_errors_and_the_server_goes_on() {
    let (_dir, file) = session_file("malformed-http", "{}");
    let server = Server::start(&file, &[], &[]);
    scenario("http_malformed", &file, Some(&server));
}

#[test]
fn bearer_token_is_required_when_configured() {
    let (_dir, file) = session_file("token", "{}");
    let server = Server::start(
        &file,
        &["--token-env", "PTC_TEST_TOKEN"],
        &[("PTC_TEST_TOKEN", "tok-123")],
    );
    scenario("http_token", &file, Some(&server));
}

#[test]
fn idle_http_sessions_expire() {
    let (_dir, file) = session_file("idle", "{}");
    let server = Server::start(&file, &["--idle-secs", "1"], &[]);
    scenario("http_idle", &file, Some(&server));
}

/// Raw newline-delimited JSON-RPC over a `ptc mcp` child's stdio.
struct Raw {
    child: Child,
    lines: std::sync::mpsc::Receiver<serde_json::Value>,
}

impl Raw {
    fn start(session: &Path) -> Raw {
        Raw::start_with(session, &[], None)
    }

    /// `ptc mcp SESSION EXTRA...`, under an address-space limit of
    /// `vm_kib` KiB when given (`ulimit -v`).
    fn start_with(session: &Path, extra: &[&str], vm_kib: Option<u64>) -> Raw {
        let mut cmd = match vm_kib {
            None => Command::new(PTC),
            Some(kib) => {
                let mut c = Command::new("sh");
                c.args(["-c", &format!("ulimit -v {kib} && exec \"$0\" \"$@\""), PTC]);
                c
            }
        };
        let mut child = cmd
            .args(["mcp", session.to_str().unwrap()])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the server wrote a line that is not JSON ({e}): {line}")
                });
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut raw = Raw { child, lines: rx };
        raw.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#);
        assert_eq!(raw.next()["id"], 0);
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        raw
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> serde_json::Value {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers")
    }

    /// The answer to request `id`, skipping others.
    fn answer(&self, id: i64) -> serde_json::Value {
        loop {
            let a = self.next();
            if a["id"] == id {
                return a;
            }
        }
    }

    /// Sends `tools/call run_ptc_lisp {program}` as request `id`.
    fn call(&mut self, id: i64, program: &str) {
        let msg = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "run_ptc_lisp", "arguments": {"program": program}}});
        self.send(&msg.to_string());
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn malformed_stdio_messages_get_json_rpc_errors_and_the_server_goes_on() {
    let (_dir, file) = session_file("malformed-stdio", "{}");
    let mut raw = Raw::start(&file);
    let cases: [(&str, serde_json::Value, i64, &str); 4] = [
        ("{not json", serde_json::Value::Null, -32700, "not JSON"),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":7}"#,
            2.into(),
            -32600,
            "method",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"x"}"#,
            3.into(),
            -32600,
            "params",
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":7}}}"#,
            4.into(),
            -32602,
            "must be a string",
        ),
    ];
    for (line, id, code, says) in cases {
        raw.send(line);
        let answer = raw.next();
        assert_eq!(answer["id"], id, "{line}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{line}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{line}: {message}");
    }
    raw.send(r#"{"jsonrpc":"2.0","id":5,"method":"no/such"}"#);
    assert_eq!(raw.next()["error"]["code"], -32601);
    raw.send(r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(* 6 7)"}}}"#);
    let answer = raw.next();
    assert_eq!(
        answer["result"]["structuredContent"]["value"], 42,
        "{answer}"
    );
}

#[test]
fn stdio_client_closing_mid_call_stops_the_evaluation() {
    let (_dir, file) = session_file("stdio-close", r#"{"timeout_ms": 60000, "max_steps": null}"#);
    let mut raw = Raw::start(&file);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(loop [] (recur))"}}}"#);
    std::thread::sleep(Duration::from_millis(500));
    drop(raw.child.stdin.take());
    let start = Instant::now();
    // The turn's own limit is 60 s: the process ends long before only if
    // the abandoned turn was interrupted.
    loop {
        if raw.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "ptc mcp still running 20 s after its client closed stdin"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn stdio_cancelled_request_is_interrupted_and_the_session_goes_on() {
    let (_dir, file) = session_file("cancel", r#"{"timeout_ms": 60000, "max_steps": null}"#);
    let mut raw = Raw::start(&file);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(def x 1)"}}}"#);
    raw.next();
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(def x 2) (loop [] (recur))"}}}"#);
    std::thread::sleep(Duration::from_millis(300));
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user"}}"#);
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"x"}}}"#);
    let start = Instant::now();
    let answer = loop {
        let a = raw.next();
        if a["id"] == 3 {
            break a;
        }
    };
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "the cancelled turn ran on"
    );
    assert_eq!(
        answer["result"]["structuredContent"]["value"], 1,
        "{answer}"
    );
}

fn inspector_cli(args: &[&str]) -> serde_json::Value {
    let cli = inspector();
    let out = Command::new("node")
        .arg(&cli)
        .arg("--cli")
        .args(args)
        .current_dir(cli.parent().unwrap())
        .output()
        .expect("node runs (run: bash tests/setup.sh)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "inspector failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn inspector_cli_lists_and_calls_tools_over_stdio() {
    let (_dir, file) = session_file("inspector", "{}");
    let file = file.to_str().unwrap();
    let list = inspector_cli(&[PTC, "mcp", file, "--method", "tools/list"]);
    let tools = list["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["run_ptc_lisp", "ptc_state", "ptc_reset"]);
    for t in tools {
        assert!(t["description"].as_str().unwrap().len() <= 2048, "{t}");
    }
    let run = tools[0]["description"].as_str().unwrap();
    assert!(
        run.contains("(tool/lookup id)") && run.contains("data/orders"),
        "{run}"
    );
    assert!(!run.contains(SECRET));
    let call = inspector_cli(&[
        PTC,
        "mcp",
        file,
        "--method",
        "tools/call",
        "--tool-name",
        "run_ptc_lisp",
        "--tool-arg",
        "program=(println \"total\" (sum-by :total data/orders)) (tool/lookup 2)",
    ]);
    let text = call["content"][0]["text"].as_str().unwrap();
    // Each Inspector CLI run is a new MCP session: its one answer is a
    // first one, with the note.
    assert_eq!(
        text,
        format!(";; Tool calls made:\n;   lookup(2)\n\n;; Output:\ntotal 35\n\nResult: {{:name \"Ada\"}}\n\n;; Note: {FRESH}")
    );
    assert_eq!(call["structuredContent"]["value"]["name"], "Ada");
    assert_eq!(call["structuredContent"]["result"], "{:name \"Ada\"}");
    assert_eq!(call["structuredContent"]["tool_calls"][0], "lookup(2)");
    assert_eq!(call["structuredContent"]["note"], FRESH);
    assert_eq!(call["isError"], false);
}

#[test]
fn inspector_cli_calls_tools_over_http() {
    let (_dir, file) = session_file("inspector-http", "{}");
    let server = Server::start(&file, &[], &[]);
    let call = inspector_cli(&[
        &server.url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "run_ptc_lisp",
        "--tool-arg",
        "program=(count data/orders)",
    ]);
    assert_eq!(
        call["content"][0]["text"],
        format!("Result: 2\n\n;; Note: {FRESH}")
    );
    let state = inspector_cli(&[
        &server.url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "ptc_state",
    ]);
    let text = state["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("data/_key                        ; string, [hidden]"),
        "{text}"
    );
}

#[test]
fn out_records_each_session_as_a_replayable_session_file() {
    let (dir, file) = session_file("out", "{}");
    let out = dir.join("recorded");
    let mut child = Command::new(PTC)
        .args([
            "mcp",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(def big (filter #(> (:total %) 12) data/orders))"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"(return (count big))"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_ptc_lisp","arguments":{"program":"big"}}}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while seen.matches("\"id\":").count() < 4 {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "server closed early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    drop(stdin);
    child.wait().unwrap();
    let files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let recorded = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!recorded.contains("\"turns\": []"), "{recorded}");
    // The recording replays: ptc replay runs its three programs.
    let replay = Command::new(PTC)
        .args(["replay", files[0].to_str().unwrap(), "--view", "turns"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(text.contains("(def big"), "{text}");
    assert!(text.contains("(return (count big))"), "{text}");
}

/// ptc in front of an upstream MCP server (the pinned filesystem server):
/// the session file's `mcp` key makes its tools `tool/fs.*` of every
/// client session, reached from programs, while the client sees ptc's
/// three tools.
#[test]
fn an_upstream_mcp_server_is_reached_through_ptc() {
    let fs = deps().join("node_modules/.bin/mcp-server-filesystem");
    assert!(
        fs.exists(),
        "the filesystem MCP server is not installed ({}): run: bash tests/setup.sh",
        fs.display()
    );
    let dir = Scratch::dir("ptc-mcp-upstream");
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/a.md"), "hello from upstream\n").unwrap();
    std::fs::write(dir.join("docs/b.md"), "second\n").unwrap();
    let file = dir.join("session.json");
    let session = serde_json::json!({
        "mission": "Read the docs.",
        "mcp": {"fs": {"command": [fs.to_string_lossy(), "docs"],
                       "tools": ["list_directory", "read_text_file"]}},
        "limits": {"timeout_ms": 30000},
    });
    std::fs::write(&file, session.to_string()).unwrap();
    scenario("upstream", &file, None);
}

/// Issue 59: 200 calls sent at once without waiting for answers, under an
/// address-space limit that a thread (and evaluation stack) per call
/// passes: every call is answered — run, or refused with the JSON-RPC
/// error -32000 naming --max-queued — and the server goes on.
#[test]
fn stdio_flood_of_calls_is_queued_or_refused_and_the_server_lives() {
    let (_dir, file) = session_file("flood", r#"{"timeout_ms": 20000}"#);
    // 2 workers of 1 GiB stacks and the rest: far below 200 stacks.
    let mut raw = Raw::start_with(&file, &["--workers", "2"], Some(6 << 20));
    let program = "(loop [i 0] (if (< i 20000) (recur (inc i)) i))";
    let mut lines = String::new();
    for id in 1..=200 {
        let msg = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "run_ptc_lisp", "arguments": {"program": program}}});
        lines.push_str(&msg.to_string());
        lines.push('\n');
    }
    raw.send(lines.trim_end());
    let (mut ran, mut refused) = (0, 0);
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 200 {
        let a = raw.next();
        assert!(
            seen.insert(a["id"].as_i64().unwrap()),
            "answered twice: {a}"
        );
        if a["result"]["structuredContent"]["value"] == 20000 {
            ran += 1;
        } else {
            assert_eq!(a["error"]["code"], -32000, "{a}");
            let m = a["error"]["message"].as_str().unwrap();
            assert!(
                m.contains("--max-queued") && m.contains("one call at a time"),
                "{m}"
            );
            refused += 1;
        }
    }
    assert!(
        ran >= 1 && ran + refused == 200,
        "{ran} ran, {refused} refused"
    );
    assert!(raw.child.try_wait().unwrap().is_none(), "the server died");
    raw.call(500, "(+ 1 2)");
    assert_eq!(raw.answer(500)["result"]["structuredContent"]["value"], 3);
}

/// Issue 59: a session's definitions are bounded; the call that would
/// pass the bound fails (memory unchanged) and the session goes on.
#[test]
fn a_session_past_its_memory_bound_fails_the_call_and_goes_on() {
    let (_dir, file) = session_file("held", "{}");
    let mut raw = Raw::start_with(&file, &["--max-session-bytes", "20000000"], None);
    let mut failed_at = None;
    for n in 1..=12 {
        raw.call(n, &format!("(def v{n} (vec (range 350000)))"));
        let a = raw.answer(n);
        let r = &a["result"];
        if r["isError"] == true {
            let e = &r["structuredContent"]["error"];
            assert_eq!(e["kind"], "limit-exceeded", "{a}");
            let m = e["message"].as_str().unwrap();
            assert!(m.contains("limit of 20000000 bytes"), "{m}");
            assert!(e["hint"].as_str().unwrap().contains("ptc_reset"), "{a}");
            failed_at = Some(n);
            break;
        }
    }
    let n = failed_at.expect("the definitions were never bounded");
    assert!(n > 1, "the first definition already failed");
    // The failed call defined nothing; the others stay.
    raw.call(100, &format!("v{n}"));
    assert_eq!(
        raw.answer(100)["result"]["structuredContent"]["error"]["kind"],
        "undefined-error"
    );
    raw.call(101, "(count v1)");
    assert_eq!(
        raw.answer(101)["result"]["structuredContent"]["value"],
        350000
    );
    // Freeing one makes room again.
    raw.call(102, "(def v1 nil)");
    raw.answer(102);
    raw.call(
        103,
        &format!("(def v{n} (vec (range 350000))) (count v{n})"),
    );
    let a = raw.answer(103);
    assert_eq!(a["result"]["structuredContent"]["value"], 350000, "{a}");
}

/// Issue 59: prompts/get caps the listing as ptc_state does.
#[test]
fn the_prompt_listing_is_capped() {
    let (_dir, file) = session_file("prompt-cap", "{}");
    let mut raw = Raw::start_with(&file, &["--max-output-tokens", "300"], None);
    let defs: String = (0..300)
        .map(|i| format!("(def a-rather-long-definition-name-{i} {i})\n"))
        .collect();
    raw.call(1, &defs);
    assert_eq!(raw.answer(1)["result"]["isError"], false);
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"ptc-lisp"}}"#);
    let a = raw.answer(2);
    let listing = a["result"]["messages"][1]["content"]["text"]
        .as_str()
        .unwrap();
    assert!(
        listing.chars().count() < 300 * 4 + 200,
        "{} characters",
        listing.len()
    );
    assert!(listing.contains("output cut at 300 tokens"), "{listing}");
}

/// Issue 59: `--out` appends each call to the recording (each version of
/// the file begins with the one before), and it replays.
#[test]
fn out_appends_each_call_to_the_recording() {
    let (dir, file) = session_file("out-append", "{}");
    let out = dir.join("recorded");
    let out_s = out.to_str().unwrap().to_string();
    let mut raw = Raw::start_with(&file, &["--out", &out_s], None);
    let big = format!("(def s \"{}\") (count s)", "x".repeat(100_000));
    let programs = [
        "(def a (tool/lookup 1))".to_string(),
        big,
        "(+ 1 \"no\")".to_string(),
        "(return (:name a))".to_string(),
    ];
    let mut versions: Vec<Vec<u8>> = Vec::new();
    let mut inode = None;
    for (i, p) in programs.iter().enumerate() {
        raw.call(i as i64 + 1, p);
        raw.answer(i as i64 + 1);
        let files: Vec<PathBuf> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        use std::os::unix::fs::MetadataExt;
        let ino = std::fs::metadata(&files[0]).unwrap().ino();
        assert_eq!(*inode.get_or_insert(ino), ino, "the recording was replaced");
        let bytes = std::fs::read(&files[0]).unwrap();
        if let Some(before) = versions.last() {
            assert!(
                bytes.starts_with(before),
                "call {} rewrote the recording",
                i + 1
            );
            // What a call adds is about its own size.
            assert!(
                bytes.len() - before.len() < p.len() + 1000,
                "call {} wrote {} bytes",
                i + 1,
                bytes.len() - before.len()
            );
        }
        versions.push(bytes);
    }
    drop(raw);
    let path = std::fs::read_dir(&out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let replay = Command::new(PTC)
        .args([
            "replay",
            path.to_str().unwrap(),
            "--view",
            "turns",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let turns = json["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 4, "{text}");
    assert_eq!(json["turns"][2]["success"], false, "{}", json["turns"][2]);
    assert_eq!(
        json["turns"][3]["result_json"], "Ada",
        "{}",
        json["turns"][3]
    );
}

/// Issue 59: a template's MCP server is one process for all sessions.
#[test]
fn sessions_share_the_templates_mcp_server() {
    let fs = deps().join("node_modules/.bin/mcp-server-filesystem");
    assert!(fs.exists(), "run: bash tests/setup.sh");
    let dir = Scratch::dir("ptc-mcp-shared-upstream");
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/a.md"), "hello\n").unwrap();
    let file = dir.join("session.json");
    let session = serde_json::json!({
        "mission": "Read the docs.",
        "mcp": {"fs": {"command": [fs.to_string_lossy(), "docs"], "tools": ["read_text_file"]}},
        "limits": {"timeout_ms": 30000},
    });
    std::fs::write(&file, session.to_string()).unwrap();
    let server = Server::start(&file, &[], &[]);
    scenario("http_shared_upstream", &file, Some(&server));
}

/// Issue 59: past --max-sessions an initialize gets 503 with a JSON-RPC
/// error; a session ending makes room.
#[test]
fn http_sessions_are_bounded() {
    let (_dir, file) = session_file("max-sessions", "{}");
    let server = Server::start(&file, &["--max-sessions", "3"], &[]);
    scenario("http_session_limit", &file, Some(&server));
}

/// Issue 59: browser origins other than local ones are refused (403)
/// unless allowed; the bearer scheme is case-insensitive.
#[test]
fn http_origin_is_validated_and_bearer_is_case_insensitive() {
    let (_dir, file) = session_file("origin", "{}");
    let server = Server::start(
        &file,
        &[
            "--token-env",
            "PTC_TEST_TOKEN",
            "--allow-origin",
            "https://app.example.com",
        ],
        &[("PTC_TEST_TOKEN", "tok-123")],
    );
    scenario("http_origin_and_bearer", &file, Some(&server));
}

/// Issue 59: a client whose connection closes while its call runs stops
/// that call: the next call of the same session is answered at once, not
/// after the abandoned turn's 60 s.
#[test]
fn http_disconnect_interrupts_the_running_turn() {
    let (_dir, file) = session_file("http-drop", r#"{"timeout_ms": 60000, "max_steps": null}"#);
    let server = Server::start(&file, &[], &[]);
    scenario("http_drop_connection", &file, Some(&server));
    assert!(
        server
            .stderr
            .lock()
            .unwrap()
            .contains("its turn was interrupted"),
        "{}",
        server.stderr.lock().unwrap()
    );
}

/// A session whose tool `append` writes a line to `appended.log` beside
/// it, and needs approval for every call (ACT-2).
fn approval_session(name: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::dir(&format!("ptc-mcp-{name}"));
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    std::fs::write(
        dir.join("tools/append.sh"),
        "#!/bin/sh\nread req\necho \"$req\" >> appended.log\necho '\"appended\"'\n",
    )
    .unwrap();
    let file = dir.join("session.json");
    let session = serde_json::json!({
        "mission": "Append lines.",
        "tools": {"append": {"signature": "(line :string) -> :string", "description": "Appends a line",
                             "command": ["sh", "tools/append.sh"], "approval": true}}
    });
    std::fs::write(&file, session.to_string()).unwrap();
    (dir, file)
}

#[test]
fn a_paused_call_is_approved_or_declined_by_the_user_through_elicitation() {
    let (_dir, file) = approval_session("elicit");
    scenario("approval_by_elicitation", &file, None);
}

#[test]
fn a_paused_call_is_denied_when_the_client_cannot_elicit() {
    let (_dir, file) = approval_session("no-elicit");
    scenario("approval_denied_without_elicitation", &file, None);
}
