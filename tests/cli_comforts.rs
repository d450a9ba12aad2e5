//! What a newcomer meets first on the command line: `--help`'s examples,
//! shell completions, a hint naming `--data` for missing data, and a line
//! while a slow MCP server starts.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::Scratch;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ptc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ptc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_shows_examples_that_run_from_a_checkout() {
    let out = ptc_in(&root(), &["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    let examples = &help[help.find("Examples:").expect("an Examples section")..];
    // Every file an example names exists here.
    for word in examples.split_whitespace() {
        let word = word.trim_start_matches("orders=");
        if word.starts_with("lisp-examples/") {
            assert!(
                root().join(word).exists(),
                "{word} in --help does not exist"
            );
        }
    }
    // The `ptc run` example runs as written.
    let line = examples
        .lines()
        .find(|l| l.trim_start().starts_with("ptc run lisp-examples/"))
        .expect("a ptc run example");
    let args: Vec<&str> = line.split_whitespace().skip(1).collect();
    let out = ptc_in(&root(), &args);
    assert!(out.status.success(), "{line}: {}", text(&out.stderr));
}

#[test]
fn completions_are_written_for_bash_zsh_and_fish() {
    let dir = Scratch::dir("ptc-completions");
    let bash = ptc_in(&dir, &["completions", "bash"]);
    assert!(bash.status.success(), "{}", text(&bash.stderr));
    let script = text(&bash.stdout);
    // Every subcommand and a flag of each kind are completed.
    for word in [
        "repl",
        "run",
        "replay",
        "agent",
        "mcp",
        "completions",
        "--max-steps",
    ] {
        assert!(script.contains(word), "bash completions lack {word}");
    }
    std::fs::write(dir.join("ptc.bash"), &script).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(dir.join("ptc.bash"))
        .output()
        .unwrap();
    assert!(syntax.status.success(), "{}", text(&syntax.stderr));
    let zsh = text(&ptc_in(&dir, &["completions", "zsh"]).stdout);
    assert!(
        zsh.starts_with("#compdef ptc"),
        "{}",
        &zsh[..zsh.len().min(200)]
    );
    let fish = text(&ptc_in(&dir, &["completions", "fish"]).stdout);
    assert!(fish.contains("complete -c ptc"), "{fish}");
    let bad = ptc_in(&dir, &["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn undefined_data_under_plain_run_says_how_to_give_it() {
    let dir = Scratch::dir("ptc-no-data");
    std::fs::write(dir.join("p.clj"), "(count data/orders)").unwrap();
    let out = ptc_in(&dir, &["run", "p.clj"]);
    assert_eq!(out.status.code(), Some(1));
    // The report wraps its message: read it as one line.
    let err = text(&out.stderr).replace('│', " ");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        err.contains("data/orders is not defined; there is no data")
            && err.contains("--data orders=FILE.json"),
        "{err}"
    );
}

#[cfg(feature = "mcp")]
#[test]
fn a_slow_mcp_server_start_is_announced() {
    let dir = Scratch::dir("ptc-slow-mcp");
    let server = r#"
import json, sys, time
time.sleep(1.6)
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m["method"] == "initialize":
        r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}},
             "serverInfo": {"name": "slow", "version": "1"}}
    elif m["method"] == "tools/list":
        r = {"tools": [{"name": "hi", "inputSchema": {"type": "object", "properties": {}}}]}
    else:
        r = {"content": [{"type": "text", "text": "\"hello\""}]}
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"#;
    std::fs::write(dir.join("slow.py"), server).unwrap();
    std::fs::write(
        dir.join("s.json"),
        r#"{"mission": "m", "mcp": {"slow": {"command": ["python3", "slow.py"]}}}"#,
    )
    .unwrap();
    std::fs::write(dir.join("p.clj"), "(tool/slow.hi)").unwrap();
    let out = ptc_in(&dir, &["run", "p.clj", "--session", "s.json"]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(text(&out.stdout).trim(), "\"hello\"");
    assert!(
        err.contains("ptc: starting MCP server slow (`python3 slow.py`; up to 30 s)…"),
        "{err}"
    );
    // A quick start says nothing.
    std::fs::write(dir.join("slow.py"), server.replace("time.sleep(1.6)", "")).unwrap();
    let out = ptc_in(&dir, &["run", "p.clj", "--session", "s.json"]);
    assert!(out.status.success());
    assert!(
        !text(&out.stderr).contains("starting MCP server"),
        "{}",
        text(&out.stderr)
    );
}
