//! The REPL in a real pseudo-terminal (rexpect), and `ptc repl < file`.
//!
//! Each test runs the built `ptc` with HOME and XDG_DATA_HOME in a fresh
//! temporary directory (the history goes there). Timeouts are generous and
//! nothing is timed: every step waits for the text it needs.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::Scratch;
use ptc_lisp::session::{render_messages, Role, Session, View};
use rexpect::session::{spawn_with_options, Options, PtySession};

const TIMEOUT_MS: u64 = 60_000;
const PROMPT: &str = "user=> ";

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptc"));
    cmd.args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("TERM", "xterm")
        .env_remove("NO_COLOR");
    cmd
}

fn spawn(dir: &Path, args: &[&str]) -> PtySession {
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    spawn_with_options(command(dir, args), options).expect("ptc starts in a pty")
}

/// Sends one line, waits for `needle` (a regex that only the output can
/// match, not the echo of what was typed) and then for the next prompt;
/// returns the text up to the end of the match.
fn entry(p: &mut PtySession, line: &str, needle: &str) -> String {
    p.send_line(line).unwrap();
    let (before, found) = p
        .exp_regex(needle)
        .unwrap_or_else(|e| panic!("after {line:?}: no {needle:?}: {e}"));
    p.exp_string(PROMPT).unwrap();
    utf8(&format!("{before}{found}")).replace("\r\n", "\n")
}

/// rexpect hands over each byte as one `char`: the text as UTF-8 again.
fn utf8(s: &str) -> String {
    let bytes: Vec<u8> = s.chars().map(|c| c as u32 as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A regex matching `text` as a whole output line.
fn line(text: &str) -> String {
    format!("(?m)^{}\r?$", regex_escape(text))
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if "\\.+*?()|[]{}^$#&-~".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}

const SESSION: &str = r#"{
  "mission": "Find the most expensive product",
  "data": { "products": [ {"name": "Laptop", "price": 1200}, {"name": "Mouse", "price": 25} ] },
  "tools": { "notify": { "signature": "(message :string) -> :nil", "description": "Sends a notification", "returns": null } }
}"#;

#[test]
fn a_session_in_a_real_terminal() {
    let dir = Scratch::dir("ptc-repl-pty-session");
    std::fs::write(dir.join("products.json"), SESSION).unwrap();
    let mut p = spawn(&dir, &["repl", "products.json"]);
    let banner = p.exp_string(PROMPT).unwrap();
    assert!(
        banner.contains("mission: Find the most expensive product"),
        "{banner}"
    );
    assert!(banner.contains("data/products tool/notify"), "{banner}");

    // a definition typed over two lines: the reader decides it is not done
    p.send_line("(defn top [ps]").unwrap();
    entry(&mut p, "  (first (sort-by :price > ps)))", &line("#'top"));
    entry(&mut p, "(:name (top data/products))", &line("\"Laptop\""));

    // println first, tool calls, then the value
    let out = entry(
        &mut p,
        "(println (str \"check\" \"ing\")) (tool/notify \"found it\") (count data/products)",
        &line("2"),
    );
    let printed = out.find("\nchecking").expect("the print");
    let called = out
        .find(";; tool/notify [\"found it\"] => nil")
        .expect("the tool call");
    assert!(printed < called, "{out}");

    // an error: the source line and a caret, and the REPL goes on
    let out = entry(&mut p, "(+ 1 (count 5))", "here");
    assert!(
        out.contains("count expects a collection, got integer 5"),
        "{out}"
    );
    assert!(out.contains("1 │ (+ 1 (count 5))"), "{out}");
    entry(&mut p, "(:kind *e)", &line(":type-error"));
    entry(&mut p, "*1", &line("2"));

    // tab completion of data/ names
    p.send("(count data/pro").unwrap();
    p.send("\t").unwrap();
    p.flush().unwrap();
    p.exp_string("data/products").unwrap();
    entry(&mut p, ")", &line("2"));

    // Ctrl-C clears the line
    p.send("(this is never run").unwrap();
    p.flush().unwrap();
    p.exp_string("never run").unwrap();
    p.send_control('c').unwrap();
    p.exp_string(PROMPT).unwrap();
    entry(&mut p, "(+ 2 2)", &line("4"));

    // (doc …) is not a turn
    entry(&mut p, "(doc top)", &line("user/top"));

    // :prompt is the exact next USER message (checked against the library
    // once the session is saved)
    // (what the REPL prints between the echo of the accepted line and the
    // next prompt; input typed ahead of a prompt is lost by rustyline, so
    // every step waits for the prompt)
    p.send_line(":prompt").unwrap();
    p.exp_string(":prompt\r\n").unwrap();
    let shown = utf8(&p.exp_string(PROMPT).unwrap()).replace("\r\n", "\n");
    entry(&mut p, ":save saved.json", "saved 7 turns to saved.json");
    let saved = Session::load(&dir.join("saved.json")).unwrap();
    assert_eq!(saved.turns().len(), 7);
    let expected = render_messages(&saved, View::of(&saved))
        .into_iter()
        .rev()
        .find(|m| m.role == Role::User)
        .unwrap()
        .content;
    assert!(
        shown.contains(expected.trim()),
        "{shown:?} should contain {expected:?}"
    );

    // :reset forgets, :load brings the saved turns back
    entry(&mut p, ":reset", "dropped 7 turns");
    entry(&mut p, "(top data/products)", "undefined");
    entry(&mut p, ":load saved.json", "7 turns replayed");
    entry(&mut p, "(:price (top data/products))", &line("1200"));

    // Ctrl-D leaves
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();

    let history = std::fs::read_to_string(dir.join("data/ptc/history")).unwrap();
    assert!(history.contains("(+ 1 (count 5))"), "{history}");
    assert!(!history.contains("this is never run"), "{history}");
}

#[test]
fn ptc_without_a_command_opens_the_repl() {
    let dir = Scratch::dir("ptc-repl-pty-bare");
    let mut p = spawn(&dir, &[]);
    p.exp_string(PROMPT).unwrap();
    p.send_line("(defn f [x]").unwrap();
    entry(&mut p, "(* x 3))", &line("#'f"));
    entry(&mut p, "(f 14)", &line("42"));
    entry(&mut p, ":help", "exact next prompt the LLM would get");
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn colour_on_a_terminal_and_never_with_plain() {
    let dir = Scratch::dir("ptc-repl-pty-colour");
    let raw = |args: &[&str]| {
        let options = Options::new().timeout_ms(Some(TIMEOUT_MS));
        let mut p = spawn_with_options(command(&dir, args), options).unwrap();
        p.exp_string(PROMPT).unwrap();
        p.send_line("(count 5)").unwrap();
        let out = p.exp_string("here").unwrap();
        p.send_line(":quit").unwrap();
        p.exp_eof().unwrap();
        utf8(&out)
    };
    let coloured = raw(&["repl"]);
    assert!(
        coloured.contains("\x1b[31m")
            || coloured.contains("\x1b[1;31m")
            || coloured.contains("\x1b[3"),
        "{coloured:?}"
    );
    assert!(coloured.contains('╭'), "{coloured:?}");
    let plain = raw(&["repl", "--plain"]);
    let error_part = &plain[plain.find("type-error").unwrap()..];
    assert!(!error_part.contains('\x1b'), "{error_part:?}");
}

#[test]
fn a_script_on_standard_input_runs_one_entry_per_form() {
    let dir = Scratch::dir("ptc-repl-pty-script");
    std::fs::write(dir.join("products.json"), SESSION).unwrap();
    let mut child = command(&dir, &["repl", "products.json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script =
        "(def n (count data/products)) (def m\n  (* n 10))\n(+ n m)\n(count 5)\n:save out.json\n";
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), script.as_bytes()).unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    // (count 5) failed: the script's exit status says so.
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("#'n\n#'m\n22\ntype-error"), "{text}");
    assert!(!text.contains('\x1b'), "{text}");
    assert!(!text.contains(PROMPT), "{text}");
    assert!(text.contains("saved 4 turns to out.json"), "{text}");
}

/// Runs `script` through `ptc repl ARGS < script`; its exit code and stdout.
fn script(dir: &Path, args: &[&str], script: &str) -> (Option<i32>, String) {
    let mut child = command(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), script.as_bytes()).unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn a_script_without_failures_exits_zero() {
    let dir = Scratch::dir("ptc-repl-pty-script-ok");
    let (code, text) = script(&dir, &["repl"], "(def a 1)\n(+ a 1)\n");
    assert_eq!(code, Some(0), "{text}");
    let (code, _) = script(&dir, &["repl"], "(def a 1)\n(undefined-fn a)\n(+ a 1)\n");
    assert_eq!(code, Some(1));
}

#[test]
fn ctrl_c_interrupts_the_evaluation_and_keeps_the_session() {
    let dir = Scratch::dir("ptc-repl-pty-interrupt");
    let mut p = spawn(
        &dir,
        &[
            "repl",
            "--timeout-ms",
            "600000",
            "--max-steps",
            "100000000000",
        ],
    );
    p.exp_string(PROMPT).unwrap();
    entry(&mut p, "(def x 41)", &line("#'x"));
    p.send_line("(def y (loop [i 0] (recur (inc i))))").unwrap();
    p.exp_string("(recur (inc i))))").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    p.send_control('c').unwrap();
    p.exp_string("interrupted").unwrap();
    p.exp_string("[2] user=> ").unwrap();
    // the REPL, the session and its memory are still there
    entry(&mut p, "(inc x)", &line("42"));
    entry(&mut p, "y", "undefined");
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn the_repl_never_loses_work() {
    let dir = Scratch::dir("ptc-repl-pty-work");
    std::fs::write(dir.join("products.json"), SESSION).unwrap();
    let mut p = spawn(&dir, &["repl", "products.json"]);
    p.exp_string("[1] user=> ").unwrap();

    // An LLM response pasted without bracketed paste: the prose lines are
    // gathered with the fence into one entry, one turn.
    p.send(
        "I'll count the products first.\r\rThen I can compare prices:\r```clojure\r(defn top [ps] (first (sort-by :price > ps)))\r(count data/products)\r```\r",
    )
    .unwrap();
    p.flush().unwrap();
    p.exp_regex(&line("2")).unwrap();
    p.exp_string("[2] user=> ").unwrap();

    // str/, string/, set/ and walk/ complete like clojure.string/
    p.send("(str/upper-ca").unwrap();
    p.send("\t").unwrap();
    p.flush().unwrap();
    p.exp_string("str/upper-case").unwrap();
    entry(&mut p, " \"ok\")", &line("\"OK\""));

    // (source …), (dir …) and (pst) answer like doc: not turns
    entry(
        &mut p,
        "(source top)",
        &line("(defn top [ps] (first (sort-by :price > ps)))"),
    );
    entry(&mut p, "(dir clojure.set)", &line("union"));
    entry(&mut p, "(count 5)", "here");
    let out = entry(&mut p, "(pst)", "here");
    assert!(out.contains("count expects a collection"), "{out}");

    // :pp pretty-prints results
    entry(&mut p, ":pp on", "pretty-printed");
    let out = entry(
        &mut p,
        "(vec (repeat 2 {:name \"a long product name here\" :price 1200 :category \"Electronics\"}))",
        "Electronics\"\\}\\]",
    );
    assert!(
        out.contains("[{:name \"a long product name here\" :price 1200 :category \"Electronics\"}\r\n {:name")
            || out.contains("[{:name \"a long product name here\" :price 1200 :category \"Electronics\"}\n {:name"),
        "{out:?}"
    );

    // a bare :save never overwrites the file the REPL was opened on
    entry(&mut p, ":save", "saved 4 turns to products-1.json");
    assert_eq!(
        std::fs::read_to_string(dir.join("products.json")).unwrap(),
        SESSION
    );
    let saved = Session::load(&dir.join("products-1.json")).unwrap();
    assert_eq!(saved.turns().len(), 4);
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();
}

/// The quick start's example: its recorded turns returned. The REPL opens
/// before that last turn (saying so), so the first entry runs; `:prompt`
/// shows the whole next prompt in the uncompressed view too.
#[test]
fn an_example_that_returned_opens_where_the_user_can_type() {
    let dir = Scratch::dir("ptc-repl-pty-returned-example");
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lisp-examples/products-in-stock.json");
    let example = example.to_string_lossy();
    let mut p = spawn(&dir, &["repl", &example, "--plain"]);
    p.exp_string("the file's turn 3 returned").unwrap();
    p.exp_string("the REPL opens before it").unwrap();
    p.exp_string(PROMPT).unwrap();
    entry(&mut p, "(count well-reviewed)", &line("2"));
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();

    // The uncompressed view's next prompt is the whole history, not only
    // its last USER message.
    let (code, text) = script(&dir, &["repl", &example], ":prompt uncompressed\n:prompt\n");
    assert_eq!(code, Some(0), "{text}");
    // The compressed view's one USER message comes last.
    let at = text
        .rfind("Find well-reviewed products in stock\n\n;; ===")
        .unwrap();
    let (uncompressed, compressed) = text.split_at(at);
    assert!(
        uncompressed.starts_with("[USER]\nFind well-reviewed"),
        "{text}"
    );
    assert!(uncompressed.contains("\n[ASSISTANT]\n"), "{text}");
    assert!(
        uncompressed.contains("\n[USER]\nResult: #'reviews"),
        "{text}"
    );
    assert!(!compressed.contains("[ASSISTANT]"), "{text}");
}

/// A REPL `:save` of a session with MCP tools lists them (`"mcp":
/// "SERVER"`), as `Session::save` does: the file replays from its
/// recording with the server gone (issue 60).
#[test]
fn save_of_a_session_with_mcp_tools_replays_without_the_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join("tests/deps/.venv/bin/python");
    assert!(
        python.exists(),
        "the MCP Python SDK is not installed ({}): run: bash tests/setup.sh",
        python.display()
    );
    let dir = Scratch::dir("ptc-repl-save-mcp");
    let server = serde_json::json!([python, root.join("tests/mcp/fault_server.py"), "normal"]);
    std::fs::write(
        dir.join("mcp.json"),
        format!(r#"{{"mission": "echo", "mcp": {{"f": {{"command": {server}}}}}}}"#),
    )
    .unwrap();
    let (code, text) = script(
        &dir,
        &["repl", "mcp.json"],
        "(def said (tool/f.echo {:text \"hi\"}))\n:save out.json\n",
    );
    assert_eq!(code, Some(0), "{text}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out.json")).unwrap()).unwrap();
    assert_eq!(saved["tools"]["f.echo"]["mcp"], "f", "{saved:#}");
    // The same tools as the library writes.
    let session = Session::load(&dir.join("out.json")).unwrap();
    let lib = dir.join("lib.json");
    session.save(&lib).unwrap();
    let by_lib: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&lib).unwrap()).unwrap();
    assert_eq!(saved["tools"], by_lib["tools"]);
    // The server gone: the recording answers.
    let mut gone = saved.clone();
    gone["mcp"]["f"]["command"] = serde_json::json!(["/nonexistent/mcp-server"]);
    std::fs::write(dir.join("gone.json"), gone.to_string()).unwrap();
    let out = command(&dir, &["replay", "gone.json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
