//! The README's commands, run as written: each ```sh block marked
//! `<!-- readme-test: NAME -->` runs with the built `ptc` first on the PATH,
//! and the ```text block right after it, when there is one, is its output
//! (durations, token counts and process ids masked). The offline try-out
//! runs in a scratch directory holding the repository's `lisp-examples/` and
//! `examples/`, with its mock on a free port instead of 8089.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The marked ```sh block and the ```text block after it, if any.
fn marked(name: &str) -> (String, Option<String>) {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let marker = format!("<!-- readme-test: {name} -->\n```sh\n");
    let at = readme
        .find(&marker)
        .unwrap_or_else(|| panic!("README.md has no block marked {name}"))
        + marker.len();
    let end = at + readme[at..].find("```\n").expect("a closed block");
    let script = readme[at..end].to_string();
    let rest = readme[end + 4..].trim_start_matches('\n');
    let output = rest
        .strip_prefix("```text\n")
        .map(|r| r[..r.find("```\n").expect("a closed block")].to_string());
    (script, output)
}

/// Runs `script` with bash in `dir` (stop at the first failing line); its
/// stdout, or a panic with both streams.
fn run(script: &str, dir: &Path) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_ptc")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new("bash")
        .args(["-e", "-o", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script}\nfailed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Output with what differs from run to run masked.
fn masked(text: &str) -> String {
    let re = regex::Regex::new(r"\d+\.\d+s\b|pid \d+|tokens \d+/\d+").unwrap();
    re.replace_all(text.trim_end(), "…").into_owned()
}

#[test]
fn the_quick_start_prints_what_the_readme_shows() {
    let (script, output) = marked("quick-start");
    let out = run(&script, &root());
    assert_eq!(masked(&out), masked(&output.expect("an output block")));
}

/// Stops the mock on `port` when the test ends, passed or not.
struct StopMock(PathBuf, u16);

impl Drop for StopMock {
    fn drop(&mut self) {
        let _ = Command::new("python3")
            .arg(self.0.join("examples/mock_llm.py"))
            .args(["--stop", "--port", &self.1.to_string()])
            .output();
    }
}

#[test]
fn the_offline_try_out_works_pasted_as_written() {
    let (script, output) = marked("offline");
    let dir = Scratch::dir("ptc-readme-offline");
    for d in ["lisp-examples", "examples"] {
        std::os::unix::fs::symlink(root().join(d), dir.join(d)).unwrap();
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _stop = StopMock(dir.to_path_buf(), port);
    // The mock's port: the script's --stop gets it too.
    let script = script
        .replace("8089", &port.to_string())
        .replace(
            "examples/mock_llm.py --stop",
            &format!("examples/mock_llm.py --stop --port {port}"),
        )
        .replace(
            "examples/mock_llm.py lisp-examples",
            &format!("examples/mock_llm.py --port {port} lisp-examples"),
        );
    let out = run(&script, &dir);
    let expected = output
        .expect("an output block")
        .replace("8089", &port.to_string());
    assert_eq!(masked(&out), masked(&expected));
    // Both protocols reached the mock: the run saved under the text one
    // replays, and the tool protocol's run returned too (above).
    assert!(dir.join("run.json").exists());
}

#[test]
fn the_conformance_check_passes_as_written() {
    let (script, _) = marked("check");
    let out = run(&script, &root());
    assert!(out.contains(" passed, 0 failed"), "{out}");
}
