//! Issue 23: the command line refuses endless or oversized inputs while
//! reading them — `ptc run /dev/zero`, `yes | ptc run -`, `--data
//! a=/dev/zero`, `ptc replay /dev/zero` — with a clear error and exit 2,
//! instead of reading them whole first (10 GB of RSS before). Each run is
//! under a 2 GB address-space limit (`ulimit -v`) and a 60 s guard, so the
//! old behaviour fails the test instead of the machine.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Scratch;
use wait_timeout::ChildExt;

/// Runs `ptc ARGS` under the limits, with `stdin_text` repeated forever on
/// its standard input when given; exit code and stderr.
fn ptc_bounded(args: &[&str], endless_stdin: Option<&'static [u8]>) -> (Option<i32>, String) {
    let exe = env!("CARGO_BIN_EXE_ptc");
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 2000000; exec \"$@\"")
        .arg("sh")
        .arg(exe)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .stdin(if endless_stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("ptc starts");
    if let (Some(text), Some(mut stdin)) = (endless_stdin, child.stdin.take()) {
        std::thread::spawn(move || while stdin.write_all(text).is_ok() {});
    }
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let started = Instant::now();
    let status = child.wait_timeout(Duration::from_secs(60)).expect("wait");
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("ptc {args:?} still reading after {:?}", started.elapsed());
    }
    (status.unwrap().code(), reader.join().unwrap_or_default())
}

fn assert_refused(args: &[&str], endless_stdin: Option<&'static [u8]>, says: &str) {
    let (code, err) = ptc_bounded(args, endless_stdin);
    assert_eq!(code, Some(2), "ptc {args:?}: {err}");
    assert!(err.contains(says), "ptc {args:?}: {err}");
}

#[test]
fn an_endless_program_file_is_refused_at_the_source_limit() {
    assert_refused(
        &["run", "/dev/zero"],
        None,
        "/dev/zero: the program is larger than",
    );
    assert_refused(
        &["run", "--max-source-bytes", "1000", "/dev/zero"],
        None,
        "larger than the source limit (max_source_bytes) of 1000 bytes",
    );
}

#[test]
fn endless_standard_input_is_refused_at_the_source_limit() {
    assert_refused(
        &["run", "-"],
        Some(b"y\ny\ny\ny\n"),
        "standard input: the program is larger than",
    );
}

#[test]
fn endless_data_and_session_files_are_refused() {
    let dir = Scratch::dir("ptc-cli-inputs");
    let program = dir.join("p.clj");
    std::fs::write(&program, "(count data/a)").expect("program file");
    let program = program.display().to_string();
    assert_refused(
        &["run", "--data", "a=/dev/zero", &program],
        None,
        "/dev/zero: the data file is larger than",
    );
    assert_refused(
        &["replay", "/dev/zero"],
        None,
        "/dev/zero: the session file is larger than",
    );
}

#[test]
fn a_tool_signature_30000_levels_deep_is_bad_input_naming_the_file_and_key() {
    let dir = Scratch::dir("ptc-cli-deep-sig");
    for (name, ty) in [
        (
            "vector",
            format!("{}:int{}", "[".repeat(30_000), "]".repeat(30_000)),
        ),
        (
            "record",
            format!("{}:int{}", "{a ".repeat(30_000), "}".repeat(30_000)),
        ),
    ] {
        let session = serde_json::json!({
            "mission": "m",
            "tools": {"deep": {"signature": format!("(x {ty}) -> :int"), "returns": 1}},
            "turns": []
        });
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, session.to_string()).expect("session file");
        let shown = path.display().to_string();
        let (code, err) = ptc_bounded(&["replay", &shown], None);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(
            err.contains(&shown) && err.contains("deep"),
            "{name}: {err}"
        );
        assert!(err.contains("nest"), "{name}: {err}");
        assert!(err.len() < 4096, "{name}: {} bytes of error", err.len());
    }
}
