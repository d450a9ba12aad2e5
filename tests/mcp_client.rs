//! MCP servers as tool sources (issue 24), against the real pinned servers
//! of tests/deps (installed by `bash tests/setup.sh`) and the fault server
//! tests/mcp/fault_server.py (the `mcp` SDK). A missing component fails
//! the test with the install command; nothing is skipped.
#![cfg(feature = "mcp")]

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;
use ptc_lisp::session::{McpServerConfig, Session, SessionFile};
use ptc_lisp::Limits;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn need(path: PathBuf) -> String {
    assert!(
        path.exists(),
        "{} is missing; run: bash tests/setup.sh",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

fn node_bin(name: &str) -> String {
    let ok = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "node is not on PATH; install Node.js, then run: bash tests/setup.sh"
    );
    need(root().join("tests/deps/node_modules/.bin").join(name))
}

fn python() -> String {
    need(root().join("tests/deps/.venv/bin/python"))
}

fn fault(mode: &str) -> McpServerConfig {
    McpServerConfig::command([
        python(),
        root()
            .join("tests/mcp/fault_server.py")
            .to_string_lossy()
            .into_owned(),
        mode.to_string(),
    ])
}

fn alive(pid: u32) -> bool {
    // A zombie is gone for our purposes only once reaped: /proc/PID exists
    // until then, so check its state too.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s.split(' ').nth(2).is_none_or(|st| st != "Z"),
        Err(_) => false,
    }
}

/// Runs `program` as the next turn: `Ok(printed value)` or `Err("kind: message")`.
fn turn(s: &mut Session, program: &str) -> Result<String, String> {
    let t = s.run_turn(&format!("```clojure\n{program}\n```")).unwrap();
    match &t.result {
        Ok(v) => Ok(ptc_lisp::to_clojure(v, None, None).0),
        Err(e) => Err(format!("{}: {}", e.kind(), e.message())),
    }
}

fn session(name: &str, cfg: McpServerConfig) -> Session {
    Session::builder("test MCP tools")
        .max_turns(50)
        .mcp_server(name, cfg)
        .build()
        .unwrap_or_else(|e| panic!("session: {e}"))
}

#[test]
fn filesystem_server_lists_reads_and_stops() {
    let dir = Scratch::dir("ptc-mcp-fs").canonical();
    std::fs::write(dir.join("notes.txt"), "alpha\nbeta\n").unwrap();
    std::fs::write(dir.join("b.md"), "# B").unwrap();
    let dir_s = dir.to_string_lossy().into_owned();
    let mut s = session(
        "fs",
        McpServerConfig::command([node_bin("mcp-server-filesystem"), dir_s.clone()]),
    );
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"fs.read_text_file"), "{names:?}");
    assert!(names.contains(&"fs.list_directory"), "{names:?}");
    let read = s
        .tools()
        .iter()
        .find(|t| t.name == "fs.read_text_file")
        .unwrap();
    assert!(
        read.signature.text().starts_with("(path :string"),
        "{}",
        read.signature.text()
    );
    let pid = s.mcp_server_pid("fs").expect("a running stdio server");
    assert!(alive(pid));
    // named and positional calls
    let p = format!("{dir_s}/notes.txt");
    assert_eq!(
        turn(&mut s, &format!("(tool/fs.read_text_file {{:path {p:?}}})")),
        Ok("{:content \"alpha\\nbeta\\n\"}".into())
    );
    assert_eq!(
        turn(&mut s, &format!("(tool/fs.read_text_file {p:?})")),
        Ok("{:content \"alpha\\nbeta\\n\"}".into())
    );
    let listing = turn(
        &mut s,
        &format!("(tool/fs.list_directory {{:path {dir_s:?}}})"),
    )
    .unwrap();
    assert!(
        listing.contains("notes.txt") && listing.contains("b.md"),
        "{listing}"
    );
    // checked before the call
    let e = turn(&mut s, "(tool/fs.read_text_file {:path 3})").unwrap_err();
    assert!(e.starts_with("type-error"), "{e}");
    // a server error is a tool-error with its text
    let e = turn(&mut s, "(tool/fs.read_text_file {:path \"/etc/passwd\"})").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("fs.read_text_file"),
        "{e}"
    );
    assert!(
        e.to_lowercase().contains("denied") || e.contains("outside"),
        "{e}"
    );
    // the saved file names the server and marks its tools
    let f = s.to_file();
    assert!(f.mcp.contains_key("fs"));
    assert_eq!(f.tools["fs.read_text_file"].mcp.as_deref(), Some("fs"));
    assert!(
        s.mcp_servers()[0].1.starts_with("running (stdio, pid"),
        "{:?}",
        s.mcp_servers()
    );
    drop(s);
    assert!(!alive(pid), "the server (pid {pid}) outlived its session");
}

#[test]
fn doc_in_a_program_shows_a_cut_description_whole() {
    let dir = Scratch::dir("ptc-mcp-fsdoc").canonical();
    let dir_s = dir.to_string_lossy().into_owned();
    let mut s = session(
        "fs",
        McpServerConfig::command([node_bin("mcp-server-filesystem"), dir_s])
            .allow(["read_text_file", "list_directory"]),
    );
    // The server's description of read_text_file is longer than the
    // listing shows: the prompt has it cut, pointing to doc.
    let tail = "Operates on the file as text regardless of extension.";
    let listed = s
        .tools()
        .iter()
        .find(|t| t.name == "fs.read_text_file")
        .and_then(|t| t.description.clone())
        .unwrap();
    assert!(
        listed.ends_with("… (more: (doc tool/fs.read_text_file))") && !listed.contains(tail),
        "{listed}"
    );
    let prompt: String = s.next_prompt().iter().map(|m| m.content.clone()).collect();
    assert!(
        prompt.contains("(more: (doc tool/fs.read_text_file))") && !prompt.contains(tail),
        "{prompt}"
    );
    // (doc tool/fs.read_text_file) in a program prints it whole, with the
    // input schema, returns nil and calls no tool.
    let t = s
        .run_turn("```clojure\n(doc tool/fs.read_text_file)\n```")
        .unwrap()
        .clone();
    assert!(
        matches!(t.result, Ok(ptc_lisp::Value::Nil)),
        "{:?}",
        t.result
    );
    assert!(t.tool_calls.is_empty());
    let printed = t.prints.join("\n");
    assert!(
        printed.starts_with("tool/fs.read_text_file\n  (path :string"),
        "{printed}"
    );
    assert!(
        printed.contains("Read the complete contents of a file from the file system as text.")
            && printed.contains(tail)
            && printed.contains("Only works within allowed directories.")
            && printed.contains("input schema: {")
            && printed.contains("\"head\""),
        "{printed}"
    );
    // ... which the next prompt shows as the turn's output
    let prompt: String = s.next_prompt().iter().map(|m| m.content.clone()).collect();
    assert!(prompt.contains(tail), "{prompt}");
    // an unknown tool of the server: a clear error naming the tools
    assert_eq!(
        turn(&mut s, "(doc tool/fs.read_file)"),
        Err(
            "undefined-error: (doc tool/fs.read_file): tool/fs.read_file is not defined; \
             available: tool/fs.list_directory, tool/fs.read_text_file"
                .into()
        )
    );
}

#[test]
fn everything_server_stdio_results_and_deadline() {
    let mut s = session(
        "ev",
        McpServerConfig::command([node_bin("mcp-server-everything"), "stdio".to_string()]),
    );
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"ev.echo"), "{names:?}");
    let sc = s
        .tools()
        .iter()
        .find(|t| t.name == "ev.get-structured-content")
        .unwrap();
    assert_eq!(
        sc.signature.text(),
        "(location :string) -> {temperature :float, conditions :string, humidity :float}"
    );
    assert_eq!(
        turn(&mut s, "(tool/ev.echo {:message \"hi\"})"),
        Ok("\"Echo: hi\"".into())
    );
    let weather = turn(&mut s, "(tool/ev.get-structured-content \"Chicago\")").unwrap();
    assert!(weather.starts_with("{:temperature "), "{weather}");
    let img = turn(&mut s, "(tool/ev.get-tiny-image)").unwrap();
    assert!(
        img.contains("{:type \"image\" :mime-type \"image/png\" :size "),
        "{img}"
    );
    assert!(!img.contains("iVBOR"), "no bytes: {img}");
    // A tool without parameters takes an empty map of named arguments too.
    let same = turn(&mut s, "(tool/ev.get-tiny-image {})").unwrap();
    assert_eq!(same, img);
    // a slow tool past the turn's deadline: the turn ends in timeout
    let mut s = Session::builder("slow")
        .limits(Limits {
            timeout_ms: Some(1500),
            ..Limits::default()
        })
        .mcp_server(
            "ev",
            McpServerConfig::command([node_bin("mcp-server-everything"), "stdio".to_string()]),
        )
        .build()
        .unwrap();
    let t0 = Instant::now();
    let e = turn(
        &mut s,
        "(tool/ev.trigger-long-running-operation {:duration 20 :steps 2})",
    )
    .unwrap_err();
    assert!(e.starts_with("timeout"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // the server still answers the next call
    assert_eq!(
        turn(&mut s, "(tool/ev.echo {:message \"again\"})"),
        Ok("\"Echo: again\"".into())
    );
}

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn everything_server_streamable_http() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(node_bin("mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _guard = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the HTTP server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::env::set_var("PTC_TEST_MCP_TOKEN", "tok-9f8e7d");
    let cfg = McpServerConfig::url(format!("http://127.0.0.1:{port}/mcp"))
        .header("Authorization", "Bearer ${PTC_TEST_MCP_TOKEN}");
    let mut s = session("web", cfg);
    assert_eq!(
        turn(&mut s, "(tool/web.echo {:message \"over http\"})"),
        Ok("\"Echo: over http\"".into())
    );
    let sum = turn(&mut s, "(tool/web.get-sum {:a 2 :b 3})").unwrap();
    assert!(sum.contains('5'), "{sum}");
    let json = s.to_file().to_json();
    assert!(
        json.contains("${PTC_TEST_MCP_TOKEN}") && !json.contains("tok-9f8e7d"),
        "{json}"
    );
    assert!(
        s.mcp_servers()[0].1.starts_with("running (http)"),
        "{:?}",
        s.mcp_servers()
    );
}

#[test]
fn fault_server_pagination_structured_errors_and_changes() {
    let mut s = session("f", fault("normal"));
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    // 8 tools on 4 pages
    for n in [
        "f.echo", "f.crash", "f.hang", "f.huge", "f.add", "f.boom", "f.change", "f.pid",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let add = s.tools().iter().find(|t| t.name == "f.add").unwrap();
    assert_eq!(add.signature.text(), "(a :int, b :int) -> {sum :int}");
    assert_eq!(turn(&mut s, "(tool/f.add 2 3)"), Ok("{:sum 5}".into()));
    assert_eq!(
        turn(&mut s, "(tool/f.echo \"{\\\"k\\\": [1, 2]}\")"),
        Ok("{:k [1 2]}".into())
    );
    let e = turn(&mut s, "(tool/f.boom)").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("boom: it failed"),
        "{e}"
    );
    assert_eq!(turn(&mut s, "(tool/f.change)"), Ok("\"changed\"".into()));
    // the server said its listing changed: the next prompt lists `late`
    assert!(
        s.tools().iter().any(|t| t.name == "f.late"),
        "{:?}",
        s.mcp_servers()
    );
    let prompt = format!("{:?}", s.next_prompt());
    assert!(prompt.contains("tool/f.late"), "{prompt}");
    assert_eq!(turn(&mut s, "(tool/f.late)"), Ok("\"late tool\"".into()));
    assert!(s.to_file().tools.contains_key("f.late"));
}

#[test]
fn fault_server_crash_restart_hang_and_huge() {
    let mut s = Session::builder("faults")
        .max_turns(20)
        .limits(Limits {
            timeout_ms: Some(20000),
            ..Limits::default()
        })
        .mcp_server("f", fault("normal"))
        .build()
        .unwrap();
    let pid1: u32 = turn(&mut s, "(tool/f.pid)").unwrap().parse().unwrap();
    let e = turn(&mut s, "(tool/f.crash)").unwrap_err();
    assert!(e.starts_with("tool-error"), "{e}");
    assert!(
        e.contains("stopped during the call") && e.contains("crashing now"),
        "{e}"
    );
    assert!(!alive(pid1));
    // restarted at the next call
    let pid2: u32 = turn(&mut s, "(tool/f.pid)").unwrap().parse().unwrap();
    assert_ne!(pid1, pid2);
    // a hang past the deadline ends the turn in timeout; the server lives on
    let t0 = Instant::now();
    let e = turn(&mut s, "(tool/f.hang 120)").unwrap_err();
    assert!(e.starts_with("timeout"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(60));
    assert_eq!(
        turn(&mut s, "(tool/f.echo \"still here\")"),
        Ok("\"still here\"".into())
    );
    // a huge result is refused with a clear error, memory intact
    let e = turn(&mut s, "(tool/f.huge 12)").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("over the 8 MiB"),
        "{e}"
    );
    let pid3 = s.mcp_server_pid("f").unwrap();
    drop(s);
    assert!(!alive(pid3));
}

#[test]
fn servers_that_fail_to_start_are_named_with_their_stderr() {
    std::env::set_var("FAULT_SECRET", "hunter2-secret");
    let cfg = fault("fail-start").env("FAULT_SECRET", "${FAULT_SECRET}");
    let e = Session::builder("x")
        .mcp_server("db", cfg)
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("MCP server db"), "{e}");
    assert!(e.contains("fault_server.py fail-start"), "{e}");
    assert!(e.contains("cannot open the database"), "{e}");
    assert!(!e.contains("hunter2-secret") && e.contains("***"), "{e}");

    let mut cfg = fault("no-init");
    cfg.startup_timeout_ms = Some(1500);
    let t0 = Instant::now();
    let e = Session::builder("x")
        .mcp_server("slow", cfg)
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("MCP server slow") && e.contains("did not answer `initialize`"),
        "{e}"
    );
    assert!(t0.elapsed() < Duration::from_secs(6));

    let mut cfg = fault("garbage");
    cfg.startup_timeout_ms = Some(1500);
    let e = Session::builder("x")
        .mcp_server("bad", cfg)
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("MCP server bad"), "{e}");

    let e = Session::builder("x")
        .mcp_server("none", McpServerConfig::command(["/no/such/mcp-server"]))
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("MCP server none") && e.contains("cannot start it"),
        "{e}"
    );
    let e = Session::builder("x")
        .mcp_server(
            "envless",
            fault("normal").env("K", "${PTC_SURELY_UNSET_VAR}"),
        )
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("PTC_SURELY_UNSET_VAR is not set"), "{e}");
}

#[test]
fn session_files_start_servers_and_saved_listings_start_them_lazily() {
    let dir = Scratch::dir("ptc-mcp-file").canonical();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/a.txt"), "from a").unwrap();
    let text = serde_json::json!({
        "mission": "read a",
        "limits": {"timeout_ms": 20000},
        "mcp": {"fs": {"command": [node_bin("mcp-server-filesystem"), "docs"],
                       "tools": ["read_text_file", "list_directory"]}},
    })
    .to_string();
    let path = dir.join("s.json");
    std::fs::write(&path, &text).unwrap();
    let mut s = Session::load(&path).unwrap();
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["fs.list_directory", "fs.read_text_file"]);
    let docs = dir.join("docs/a.txt").canonicalize().unwrap();
    assert_eq!(
        turn(
            &mut s,
            &format!("(tool/fs.read_text_file {:?})", docs.to_string_lossy())
        ),
        Ok("{:content \"from a\"}".into())
    );
    // saved: the listing is in the file; loading it starts no server
    let saved = s.to_file();
    drop(s);
    let mut f2 = saved.clone();
    f2.turns.clear();
    f2.tool_calls.clear();
    std::fs::write(&path, f2.to_json()).unwrap();
    let mut s2 = Session::load(&path).unwrap();
    assert_eq!(s2.tools().len(), 2);
    assert_eq!(s2.mcp_server_pid("fs"), None, "{:?}", s2.mcp_servers());
    assert!(s2.mcp_servers()[0].1.starts_with("not started"));
    assert_eq!(
        turn(
            &mut s2,
            &format!("(tool/fs.read_text_file {:?})", docs.to_string_lossy())
        ),
        Ok("{:content \"from a\"}".into())
    );
    assert!(s2.mcp_server_pid("fs").is_some());
    // a bad server entry is named with its key
    let bad = SessionFile::parse(
        r#"{"mission": "m", "mcp": {"x": {"url": "http://h", "command": ["a"]}}}"#,
        Path::new("b.json"),
    )
    .unwrap();
    let e = bad
        .session(Path::new("b.json"), None, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("mcp.x: has both"), "{e}");
}

/// lisp-examples/mcp-docs, live: its recorded turns run against the
/// pinned filesystem server (the file says `npx`; the test points the
/// command at tests/deps) and return the expected answer.
#[test]
fn the_mcp_docs_example_runs_live() {
    let path = root().join("lisp-examples/mcp-docs/session.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut f = SessionFile::parse(&text, &path).unwrap();
    let fs = f.mcp.get_mut("fs").expect("the example's fs server");
    fs.command = Some(ptc_lisp::session::McpCommand::Program(node_bin(
        "mcp-server-filesystem",
    )));
    fs.args = vec!["docs".into()];
    let mut s = f.session(&path, None, None).unwrap();
    f.run_turns(&mut s, ptc_lisp::session::ReplayTools::Live)
        .unwrap();
    assert_eq!(
        s.status().state(),
        "returned",
        "{:?}",
        s.turns().last().map(|t| &t.result)
    );
    let v = match s.status() {
        ptc_lisp::session::Status::Returned(v) => ptc_lisp::to_clojure(v, None, None).0,
        _ => unreachable!(),
    };
    assert_eq!(
        v,
        "{:files [\"handbook.md\" \"oncall.md\"] :freeze_starts \"2026-12-18\"}"
    );
}

/// lisp-examples/mcp-docs replays from its recording: its server's
/// program is made unfindable, and the session still returns (no server
/// starts for recorded turns).
#[test]
fn the_mcp_docs_example_replays_without_its_server() {
    let path = root().join("lisp-examples/mcp-docs/session.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut f = SessionFile::parse(&text, &path).unwrap();
    let fs = f.mcp.get_mut("fs").expect("the example's fs server");
    fs.command = Some(ptc_lisp::session::McpCommand::Program(
        "/nonexistent/npx".into(),
    ));
    let mut s = f.session(&path, None, None).unwrap();
    f.run_turns(&mut s, ptc_lisp::session::ReplayTools::Recorded)
        .unwrap();
    assert_eq!(s.status().state(), "returned");
    assert_eq!(s.mcp_server_pid("fs"), None);
    assert!(s.mcp_servers()[0].1.starts_with("not started"));
}

// ---- Issue 59: MCP servers as untrusted input (tests/mcp/hostile_server.py)

fn hostile(mode: &str, n: &str) -> McpServerConfig {
    McpServerConfig::command([
        python(),
        root()
            .join("tests/mcp/hostile_server.py")
            .to_string_lossy()
            .into_owned(),
        mode.to_string(),
        n.to_string(),
    ])
}

fn hostile_session(cfg: McpServerConfig, limits: Limits) -> Result<Session, String> {
    Session::builder("hostile")
        .max_turns(20)
        .limits(limits)
        .mcp_server("h", cfg)
        .build()
        .map_err(|e| e.to_string())
}

fn roomy() -> Limits {
    Limits {
        timeout_ms: Some(60_000),
        max_heap_bytes: Some(1 << 30),
        ..Limits::default()
    }
}

/// An answer over the 8 MiB limit is a tool-error as soon as it is read
/// (rmcp dropped the line, and the call waited for its whole deadline: a
/// `timeout`); one within it but past the turn's heap room is refused while
/// it is read, saying so; a small one still works on the same connection.
#[test]
fn hostile_results_are_bounded_while_read() {
    let mut s = hostile_session(hostile("big", "16"), roomy()).unwrap();
    let t0 = Instant::now();
    let e = turn(&mut s, "(tool/h.bigline)").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("over the 8 MiB") && e.contains("MCP server h"),
        "{e}"
    );
    assert!(t0.elapsed() < Duration::from_secs(50), "{:?}", t0.elapsed());
    assert_eq!(turn(&mut s, "(tool/h.echo \"ok\")"), Ok("\"ok\"".into()));

    // 6 MiB of small rows with the default heap limit (10 MiB): refused
    // while read, naming the room left
    let mut s = hostile_session(
        hostile("big", "6"),
        Limits {
            timeout_ms: Some(60_000),
            ..Limits::default()
        },
    )
    .unwrap();
    let e = turn(&mut s, "(tool/h.big)").unwrap_err();
    assert!(
        e.starts_with("tool-error")
            && e.contains("bytes left of the turn's heap limit")
            && e.contains("raise max_heap_bytes"),
        "{e}"
    );
    // within a large heap it is read whole, as values
    let mut s = hostile_session(hostile("big", "2"), roomy()).unwrap();
    let n: usize = turn(&mut s, "(count (tool/h.big))")
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 100_000, "{n}");
}

/// Listings are bounded in bytes, pages and tools; a cursor that repeats
/// ends one; a wide schema is unchecked and quick.
#[test]
fn hostile_listings_are_bounded() {
    let quick = || Limits {
        timeout_ms: Some(60_000),
        ..Limits::default()
    };
    let t0 = Instant::now();
    let e = hostile_session(hostile("pages", "500"), quick())
        .err()
        .unwrap();
    assert!(
        e.contains("MCP server h") && e.contains("tool listing is over 4194304 bytes"),
        "{e}"
    );
    let e = hostile_session(hostile("pages", "0"), quick())
        .err()
        .unwrap();
    assert!(e.contains("past 100 pages"), "{e}");
    let e = hostile_session(hostile("loop", "0"), quick())
        .err()
        .unwrap();
    assert!(e.contains("gave the cursor \"again\" twice"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(50), "{:?}", t0.elapsed());

    let s = hostile_session(hostile("many", "1000"), quick()).unwrap();
    assert_eq!(s.tools().len(), 128);
    let state = &s.mcp_servers()[0].1;
    assert!(
        state.contains("873 skipped: 873 past the first 128"),
        "{state}"
    );

    let mut cfg = hostile("wide", "100000");
    cfg.startup_timeout_ms = Some(60_000);
    let t0 = Instant::now();
    let mut s = hostile_session(cfg, quick()).unwrap();
    assert!(t0.elapsed() < Duration::from_secs(50), "{:?}", t0.elapsed());
    let wide = s.tools().iter().find(|t| t.name == "h.wide").unwrap();
    assert_eq!(wide.signature.text(), "-> :any");
    assert_eq!(turn(&mut s, "(tool/h.echo \"w\")"), Ok("\"w\"".into()));
}

/// MCP tool names follow the session's rule for tool names; the others are
/// skipped, counted, and reach no prompt.
#[test]
fn hostile_tool_names_are_skipped_and_counted() {
    let s = hostile_session(hostile("names", "0"), roomy()).unwrap();
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["h.9digit", "h.echo"]);
    let state = &s.mcp_servers()[0].1;
    assert!(state.contains("(6 skipped: 6 whose names"), "{state}");
    let prompt: String = s.next_prompt().iter().map(|m| m.content.clone()).collect();
    assert!(
        !prompt.contains('\u{202e}')
            && !prompt.contains("[bracket]")
            && !prompt.contains("nnnnnnnn"),
        "the prompt shows a skipped name"
    );
    assert!(prompt.len() < 20_000, "{}", prompt.len());
}

/// MCP-2: a secret the server echoes (in a tool name, a description, a
/// schema, a result, an error) reaches no prompt, value, saved file or
/// error.
#[test]
fn hostile_servers_cannot_echo_secrets() {
    let secret = "sk-59-0123456789abcdefghij";
    std::env::set_var("PTC_TEST_SECRET_59", secret);
    let cfg = hostile("secret", "0").env("SECRET", "${PTC_TEST_SECRET_59}");
    let mut s = hostile_session(cfg, roomy()).unwrap();
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["h.echo", "h.leak"]);
    assert!(s.mcp_servers()[0].1.contains("1 whose names hold a secret"));
    let leak = s.tools().iter().find(|t| t.name == "h.leak").unwrap();
    assert!(leak.description.as_deref().unwrap().contains("***"));
    let mut seen = String::new();
    for program in [
        "(tool/h.leak)",
        "(tool/h.leak {:structured true})",
        "(tool/h.leak {:fail true})",
        "(tool/h.leak {:rpc true})",
        "(doc tool/h.leak)",
    ] {
        let mut out = match turn(&mut s, program) {
            Ok(v) => v,
            Err(e) => e,
        };
        out.push_str(&s.turns().last().unwrap().prints.join("\n"));
        assert!(out.contains("***"), "{program}: {out}");
        seen.push_str(&out);
    }
    seen.push_str(&format!("{:?}", s.next_prompt()));
    seen.push_str(&s.to_file().to_json());
    for piece in secret.as_bytes().windows(8) {
        let piece = std::str::from_utf8(piece).unwrap();
        assert!(!seen.contains(piece), "{piece:?} of the secret leaked");
    }
}

/// The stderr tail of a failed start is redacted before it is cut: a tail
/// that begins in the middle of a secret shows none of it.
#[test]
fn a_stderr_tail_cut_mid_secret_shows_none_of_it() {
    let secret = "tok-59-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
    std::env::set_var("PTC_TEST_SECRET_59B", secret);
    // the tail's 2048 bytes begin 20 bytes into the secret
    let pad = 2048 - (secret.len() - 20) - "\nthe database refused the key\n".len();
    let cfg = hostile("stderr", &pad.to_string()).env("SECRET", "${PTC_TEST_SECRET_59B}");
    let e = hostile_session(cfg, roomy()).err().unwrap();
    assert!(
        e.contains("MCP server h") && e.contains("the database refused the key"),
        "{e}"
    );
    for piece in secret.as_bytes().windows(8) {
        let piece = std::str::from_utf8(piece).unwrap();
        assert!(!e.contains(piece), "{piece:?} of the secret leaked: {e}");
    }
}

/// What rmcp would drop (an answer that is not JSON, a result of the wrong
/// shape) fails the call at once, in words (no Rust type names); an answer
/// to a request nobody made is named when the call times out.
#[test]
fn malformed_answers_fail_at_once_in_words() {
    let rust = [
        "Vec<",
        "struct ",
        "enum ",
        "ContentBlock",
        "JsonRpc",
        "Some(",
        "rmcp",
    ];
    let clean = |e: &str| rust.iter().all(|r| !e.contains(r));
    let mut s = hostile_session(hostile("garbage", "0"), roomy()).unwrap();
    let t0 = Instant::now();
    let e = turn(&mut s, "(tool/h.echo \"x\")").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("not a tool result") && clean(&e),
        "{e}"
    );
    assert!(t0.elapsed() < Duration::from_secs(50));
    let mut s = hostile_session(hostile("wrongshape", "0"), roomy()).unwrap();
    let e = turn(&mut s, "(tool/h.echo \"x\")").unwrap_err();
    assert!(
        e.starts_with("tool-error") && e.contains("not a tool result") && clean(&e),
        "{e}"
    );
    let e = hostile_session(hostile("typed", "0"), roomy())
        .err()
        .unwrap();
    assert!(
        e.contains("MCP server h") && e.contains("initialize") && clean(&e),
        "{e}"
    );
    let mut s = hostile_session(
        hostile("unknown-id", "0"),
        Limits {
            timeout_ms: Some(1500),
            ..Limits::default()
        },
    )
    .unwrap();
    let e = turn(&mut s, "(tool/h.echo \"x\")").unwrap_err();
    assert!(e.starts_with("timeout"), "{e}");
    let call = &s.turns().last().unwrap().tool_calls[0];
    let e = call.result.as_ref().unwrap_err();
    assert!(
        e.contains("did not answer") && e.contains("request 987654, which nothing waits for"),
        "{e}"
    );
}

/// `ptc replay` (and `Session::load`) of a file whose turns are all
/// recorded starts no MCP server, even when the file lists none of the
/// server's tools: the recording's tools are offered, unchecked, and the
/// server would start at the first live call.
#[test]
fn replaying_recorded_turns_starts_no_server_without_saved_tools() {
    let dir = Scratch::dir("ptc-mcp-replay59").canonical();
    let marker = dir.join("STARTED");
    // a live run against the hostile server, saved
    let mut s = hostile_session(hostile("names", "0"), roomy()).unwrap();
    let t = s
        .run_turn("```clojure\n(return (tool/h.echo \"from the recording\"))\n```")
        .unwrap();
    assert!(t.result.is_ok(), "{:?}", t.result);
    let mut f = s.to_file();
    drop(s);
    // no saved listing, and a command that leaves a mark when it runs
    f.tools.retain(|_, t| t.mcp.is_none());
    let h = f.mcp.get_mut("h").unwrap();
    h.command = Some(ptc_lisp::session::McpCommand::Argv(vec![
        "sh".into(),
        "-c".into(),
        format!("touch {} && exit 1", marker.display()),
    ]));
    h.args.clear();
    let path = dir.join("run.json");
    std::fs::write(&path, f.to_json()).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_ptc"))
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("from the recording"), "{stdout}");
    assert!(!marker.exists(), "ptc replay started the server");

    let s = Session::load(&path).unwrap();
    assert_eq!(s.status().state(), "returned");
    assert!(!marker.exists(), "Session::load started the server");
    assert!(s.mcp_servers()[0].1.starts_with("not started"));
    let names: Vec<&str> = s.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["h.echo"]);
}

/// A session file is read with a bound (Python's `Session.from_file` reads
/// through `Session::load_with_mcp`): `/dev/zero` is refused, not read
/// whole.
#[test]
fn session_files_are_read_with_a_bound() {
    let zero = Path::new("/dev/zero");
    let e = Session::load(zero).err().unwrap().to_string();
    assert!(
        e.contains("larger than the limit of 268435456 bytes"),
        "{e}"
    );
    let e = SessionFile::load(zero).err().unwrap().to_string();
    assert!(e.contains("larger than the limit"), "{e}");
}

#[test]
fn read_only_hint_makes_a_read_and_a_write_gets_its_key_in_meta() {
    let mut s = session("f", fault("normal"));
    let acts = |name: &str| {
        s.tools()
            .iter()
            .find(|t| t.name == name)
            .unwrap()
            .acts
            .clone()
    };
    assert!(!acts("f.peek").writes() && acts("f.peek").idempotent);
    assert!(acts("f.meta").writes() && !acts("f.meta").idempotent);
    let prompt = format!("{:?}", s.next_prompt());
    let line = |name: &str| {
        prompt
            .split("\\n")
            .find(|l| l.contains(&format!("(tool/{name}")))
            .unwrap_or_else(|| panic!("no {name} in {prompt}"))
            .to_string()
    };
    assert!(!line("f.peek").contains(", writes"), "{}", line("f.peek"));
    assert!(line("f.meta").contains(", writes"), "{}", line("f.meta"));
    assert_eq!(turn(&mut s, "(tool/f.peek)"), Ok("\"peeked\"".into()));
    let meta = turn(&mut s, "(:meta (tool/f.meta))").unwrap();
    let key = format!("{}:", s.id());
    assert!(
        meta.contains(":ptc/idempotency_key") || meta.contains("\"ptc/idempotency_key\""),
        "{meta}"
    );
    assert!(meta.contains(&key), "{meta} lacks the key {key}...");
    // A recorded-only MCP tool keeps its effect.
    let file = s.to_file();
    assert_eq!(
        file.tools["f.peek"].effect,
        Some(ptc_lisp::session::Effect::Read)
    );
    assert_eq!(
        file.tools["f.meta"].effect,
        Some(ptc_lisp::session::Effect::Write)
    );
}

#[test]
fn pmap_calls_of_an_mcp_tool_are_in_flight_together() {
    let limits = Limits {
        max_parallel_tool_calls: 8,
        timeout_ms: Some(30_000),
        ..Limits::default()
    };
    let mut s = Session::builder("test MCP tools")
        .limits(limits)
        .mcp_server("f", fault("normal"))
        .build()
        .unwrap();
    // Each call waits until all 8 are in: only calls made at once answer 8.
    assert_eq!(
        turn(&mut s, "(pmap (fn [_] (tool/f.together {:n 8})) (range 8))"),
        Ok("[8 8 8 8 8 8 8 8]".into())
    );
}
