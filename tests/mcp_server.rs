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
        let mut line = String::new();
        let mut reader = BufReader::new(child.stderr.take().unwrap());
        reader.read_line(&mut line).unwrap();
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
        let mut child = Command::new(PTC)
            .args(["mcp", session.to_str().unwrap()])
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
    assert_eq!(
        text,
        ";; Tool calls made:\n;   lookup(2)\n\n;; Output:\ntotal 35\n\nResult: {:name \"Ada\"}"
    );
    assert_eq!(call["structuredContent"]["value"]["name"], "Ada");
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
    assert_eq!(call["content"][0]["text"], "Result: 2");
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
