//! `ptc mcp` in the hosts people run (issue 60): Claude Code and Codex
//! (npm), pydantic-ai and the OpenAI Agents SDK (tests/deps/.venv),
//! LangChain's MCP adapters (tests/deps/.venv-langchain), all installed
//! pinned by `bash tests/setup.sh` (a missing one fails its test naming
//! that command). Each runs offline against a mock model on 127.0.0.1
//! (`tests/mcp_hosts/mock_model.py`) with docs/mcp.md's own configuration,
//! and the test asserts on what the host showed its model for a keyword
//! map, a set, a string-keyed map, a capped big value and an error with
//! its hint (`tests/mcp_hosts/hosts.py`). The JSON line each prints (what
//! the model saw, the median latency of a trivial call) is reported, never
//! asserted on.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Scratch;

const PTC: &str = env!("CARGO_BIN_EXE_ptc");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn python(venv: &str) -> PathBuf {
    let p = root().join("tests/deps").join(venv).join("bin/python");
    assert!(
        p.exists(),
        "the Python hosts are not installed ({}): run: bash tests/setup.sh",
        p.display()
    );
    p
}

/// Drives `ptc mcp` through `host`; panics with what failed.
fn host(name: &str, venv: &str) {
    let dir = Scratch::dir(&format!("ptc-host-{name}"));
    let out = Command::new(python(venv))
        .arg(root().join("tests/mcp_hosts/hosts.py"))
        .args([name, PTC])
        .arg(root().join("docs/mcp.md"))
        .arg(dir.join(""))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{name}: {stdout}");
    assert!(
        out.status.success(),
        "{name} did not show its model the answers of ptc mcp:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn claude_code_shows_its_model_every_kind_of_answer() {
    host("claude-code", ".venv");
}

#[test]
fn codex_shows_its_model_every_kind_of_answer() {
    host("codex", ".venv");
}

#[test]
fn pydantic_ai_shows_its_model_every_kind_of_answer() {
    host("pydantic-ai", ".venv");
}

#[test]
fn openai_agents_shows_its_model_every_kind_of_answer() {
    host("openai-agents", ".venv");
}

#[test]
fn langchain_keeps_definitions_within_one_session() {
    host("langchain", ".venv-langchain");
}
