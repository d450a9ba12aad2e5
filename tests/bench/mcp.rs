//! MCP tool calls: the per-call cost of an MCP stdio call and a Streamable
//! HTTP call (server-everything's `echo`), against a command tool (a
//! process per call) and a canned tool (an answer in memory); and the
//! start-up of a session with two MCP servers (filesystem + everything).
//! Each row is the mean of a turn making N calls in a loop. Needs the
//! pinned servers (`bash tests/setup.sh`). Prints a table; not a test.
//!
//! `cargo bench --bench mcp` (release), or `--profile dev` for a quick look.

#[path = "../common/mod.rs"]
mod common;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;
use ptc_lisp::session::{CommandTool, McpServerConfig, ScriptedTool, Session, ToolInfo};
use ptc_lisp::{Limits, Value};

const CALLS: usize = 200;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin(name: &str) -> String {
    let p = root().join("tests/deps/node_modules/.bin").join(name);
    assert!(
        p.exists(),
        "{} missing; run: bash tests/setup.sh",
        p.display()
    );
    p.to_string_lossy().into_owned()
}

fn limits() -> Limits {
    Limits {
        timeout_ms: Some(600_000),
        ..Limits::default()
    }
}

/// Mean time per call of `CALLS` calls of `call` in one turn.
fn per_call(s: &mut Session, call: &str) -> Duration {
    let program = format!("```clojure\n(dotimes [i {CALLS}] {call})\n```");
    let t0 = Instant::now();
    let t = s.run_turn(&program).expect("a turn");
    assert!(t.result.is_ok(), "{:?}", t.result);
    t0.elapsed() / CALLS as u32
}

fn main() {
    let mut rows: Vec<(String, Duration)> = Vec::new();

    let echo = ToolInfo::new("echo", "(message :string) -> :string", None).unwrap();
    let mut canned = Session::builder("bench")
        .limits(limits())
        .tool(ScriptedTool::returning(
            echo.clone(),
            Value::string("Echo: x"),
        ))
        .build()
        .unwrap();
    rows.push((
        "canned tool".into(),
        per_call(&mut canned, "(tool/echo \"x\")"),
    ));

    let script_dir = Scratch::dir("ptc-bench-echo");
    let script = script_dir.join("echo.sh");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\necho '\"Echo: x\"'\n").unwrap();
    let mut command = Session::builder("bench")
        .limits(limits())
        .tool(CommandTool::new(
            echo,
            vec!["sh".into(), script.to_string_lossy().into_owned()],
        ))
        .build()
        .unwrap();
    rows.push((
        "command tool (sh, a process per call)".into(),
        per_call(&mut command, "(tool/echo \"x\")"),
    ));

    let mut stdio = Session::builder("bench")
        .limits(limits())
        .mcp_server(
            "ev",
            McpServerConfig::command([bin("mcp-server-everything"), "stdio".into()]),
        )
        .build()
        .unwrap();
    rows.push((
        "MCP stdio (server-everything echo)".into(),
        per_call(&mut stdio, "(tool/ev.echo {:message \"x\"})"),
    ));
    drop(stdio);

    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(bin("mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut http = Session::builder("bench")
        .limits(limits())
        .mcp_server(
            "web",
            McpServerConfig::url(format!("http://127.0.0.1:{port}/mcp")),
        )
        .build()
        .unwrap();
    rows.push((
        "MCP Streamable HTTP (server-everything echo)".into(),
        per_call(&mut http, "(tool/web.echo {:message \"x\"})"),
    ));
    drop(http);
    let _ = server.kill();
    let _ = server.wait();

    let dir = std::env::temp_dir();
    let mut starts = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        let s = Session::builder("bench")
            .mcp_server(
                "fs",
                McpServerConfig::command([
                    bin("mcp-server-filesystem"),
                    dir.to_string_lossy().into_owned(),
                ]),
            )
            .mcp_server(
                "ev",
                McpServerConfig::command([bin("mcp-server-everything"), "stdio".into()]),
            )
            .build()
            .unwrap();
        starts.push(t0.elapsed());
        drop(s);
    }
    starts.sort();

    println!("| what | per call |");
    println!("|---|---|");
    for (what, d) in &rows {
        println!("| {what} | {:.1} µs |", d.as_secs_f64() * 1e6);
    }
    println!(
        "| session start-up with two stdio servers (fs + everything; median of 3, build to listing) | {:.0} ms |",
        starts[1].as_secs_f64() * 1e3
    );
}
