//! Tools: what `(tool/NAME args…)` runs.
//!
//! Every tool implements [`Tool`]: a [`ToolInfo`] (name, [`Signature`],
//! description — what the prompt shows) and `call`, which gets the
//! arguments as values and answers a value or an error message (which the
//! evaluator turns into a `tool-error` naming the tool). Three kinds ship:
//!
//! * [`FnTool`] — a Rust closure;
//! * [`ScriptedTool`] — the session file's tools: canned `responses` matched
//!   on the arguments, else a `command`, else the fixed `returns` value
//!   (`session.md`, in that order);
//! * [`CommandTool`] — a process started per call that gets
//!   `{"tool": NAME, "args": [...]}` as JSON on stdin and answers one JSON
//!   value on stdout, or exits non-zero with the error on stderr. It is
//!   killed when the session's `timeout_ms` passes. It runs in a process
//!   group of its own; when it exits (or is stopped), the group is
//!   killed, so a background child it left holding stdout open neither
//!   outlives the call nor keeps its answer from being read: what the
//!   pipes hold then (at most 500 ms more of reading) is the answer.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value as Json;
use wait_timeout::ChildExt;

use super::act::Acts;
use super::file::ToolFile;
use super::signature::{Signature, SignatureError};
use crate::value::json::{from_json, to_json};
use crate::value::Value;

/// What the prompt shows about a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    /// The name the program calls it by, without `tool/`.
    pub name: String,
    /// Parameters and return type, checked on every call.
    pub signature: Signature,
    /// One line on what the tool does.
    pub description: Option<String>,
    /// The whole documentation, when the description is a shortened
    /// form of it (an MCP tool's description and schemas): what
    /// `(doc tool/NAME)` shows.
    pub doc: Option<String>,
    /// Read or write, approval, idempotence, preview (`act.rs`).
    pub acts: Acts,
}

impl ToolInfo {
    /// Parses `signature`; the error says which tool.
    pub fn new(
        name: impl Into<String>,
        signature: &str,
        description: Option<&str>,
    ) -> Result<ToolInfo, SignatureError> {
        Ok(ToolInfo {
            name: name.into(),
            signature: Signature::parse(signature)?,
            description: description.map(str::to_string).filter(|d| !d.is_empty()),
            doc: None,
            acts: Acts::default(),
        })
    }

    /// The same tool acting as `acts`.
    pub fn acting(mut self, acts: Acts) -> ToolInfo {
        self.acts = acts;
        self
    }

    /// What `(doc tool/NAME)` shows (in a program and in the REPL):
    /// `tool/NAME`, the signature, then the whole documentation (or the
    /// description), each on its own line indented by two spaces.
    pub fn doc_text(&self) -> String {
        let mut s = format!("tool/{}\n  {}", self.name, self.signature);
        if let Some(d) = self.doc.as_ref().or(self.description.as_ref()) {
            s.push_str("\n  ");
            s.push_str(d);
        }
        s
    }
}

/// A tool the program can call.
pub trait Tool: Send {
    /// Name, signature and description.
    fn info(&self) -> &ToolInfo;

    /// Runs the tool; `Err` is the message of the `tool-error`.
    fn call(&mut self, args: &[Value]) -> Result<Value, String>;

    /// The session's time limit per call (`timeout_ms`); tools that run
    /// outside the interpreter should stop when it passes.
    fn set_timeout(&mut self, _timeout: Option<Duration>) {}

    /// Runs the tool with at most `time_left` before the turn's deadline
    /// (`None`: no turn deadline). Tools that run outside the interpreter
    /// stop at the earlier of it and their own time limit; by default the
    /// same as [`Tool::call`] (the interpreter checks the deadline after
    /// the call returns).
    fn call_within(
        &mut self,
        args: &[Value],
        _time_left: Option<Duration>,
    ) -> Result<Value, String> {
        self.call(args)
    }

    /// [`Tool::call_within`] for a call with a context: a write's
    /// idempotency key (`act.rs`, ACT-3). By default the key is not
    /// passed on.
    fn call_with(&mut self, args: &[Value], ctx: &CallContext) -> Result<Value, String> {
        self.call_within(args, ctx.time_left)
    }

    /// The call as a job that may run on another thread, concurrently with
    /// other calls (`pmap`, `eval/group.rs`); `None` (the default) when the
    /// tool can only run through [`Tool::call_with`] on the calling thread,
    /// one call at a time.
    fn start(&mut self, _args: &[Value], _ctx: &CallContext) -> Option<Job> {
        None
    }

    /// How the tool is written in a session file (saving a session).
    /// By default its signature and description only, marked
    /// `recorded_only`: loaded again, it answers from the recording
    /// (`recording.rs`).
    fn to_file(&self) -> ToolFile {
        ToolFile {
            signature: Some(self.info().signature.text().to_string()),
            description: self.info().description.clone(),
            recorded_only: true,
            ..ToolFile::default()
        }
    }
}

/// What a call knows besides its arguments.
#[derive(Clone, Debug, Default)]
pub struct CallContext {
    /// Time left before the turn's deadline (`None`: no deadline).
    pub time_left: Option<Duration>,
    /// A write's idempotency key (ACT-3).
    pub idempotency_key: Option<String>,
}

/// A call that runs on its own ([`Tool::start`]).
pub type Job = Box<dyn FnOnce() -> Result<Value, String> + Send>;

/// The function type of a closure tool.
pub type ToolFn = Box<dyn FnMut(&[Value]) -> Result<Value, String> + Send>;

/// A tool backed by a Rust closure.
pub struct FnTool {
    info: ToolInfo,
    f: ToolFn,
}

impl FnTool {
    /// A tool named `name` running `f`; `signature` is parsed here
    /// (`(query :string) -> [:map]`), so a bad one is an error now, not at
    /// the first call.
    pub fn new(
        name: impl Into<String>,
        signature: &str,
        description: &str,
        f: impl FnMut(&[Value]) -> Result<Value, String> + Send + 'static,
    ) -> Result<FnTool, SignatureError> {
        Ok(FnTool {
            info: ToolInfo::new(name, signature, Some(description))?,
            f: Box::new(f),
        })
    }
}

impl FnTool {
    /// The same tool acting as `acts` (ACT-1: a closure reads unless
    /// declared otherwise).
    pub fn acting(mut self, acts: Acts) -> FnTool {
        self.info.acts = acts;
        self
    }
}

impl Tool for FnTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }
    fn call(&mut self, args: &[Value]) -> Result<Value, String> {
        (self.f)(args)
    }
}

/// One canned answer: when the arguments equal `args`.
#[derive(Clone, Debug)]
pub struct Response {
    /// The arguments this answer is for.
    pub args: Vec<Value>,
    /// The value returned, or the tool's error message.
    pub answer: Result<Value, String>,
}

/// A session file's tool: canned responses, else a command, else `returns`.
pub struct ScriptedTool {
    info: ToolInfo,
    responses: Vec<Response>,
    command: Option<CommandTool>,
    returns: Value,
    /// As written in the file (for saving).
    file: ToolFile,
}

impl ScriptedTool {
    /// A tool answering `returns` to every call.
    pub fn returning(info: ToolInfo, returns: Value) -> ScriptedTool {
        ScriptedTool {
            file: ToolFile {
                signature: Some(info.signature.text().to_string()),
                description: info.description.clone(),
                returns: Some(to_json(&returns)),
                ..ToolFile::default()
            },
            info,
            responses: Vec::new(),
            command: None,
            returns,
        }
    }

    /// The tool of a session file entry (already checked).
    pub(crate) fn from_parts(
        info: ToolInfo,
        responses: Vec<Response>,
        command: Option<CommandTool>,
        returns: Value,
        file: ToolFile,
    ) -> ScriptedTool {
        ScriptedTool {
            info,
            responses,
            command,
            returns,
            file,
        }
    }

    /// Adds a canned answer for calls with exactly these arguments.
    pub fn respond(mut self, args: Vec<Value>, answer: Result<Value, String>) -> ScriptedTool {
        self.file.responses.push(super::file::ResponseFile {
            args: args.iter().map(to_json).collect(),
            returns: answer.as_ref().ok().map(to_json),
            error: answer.as_ref().err().cloned(),
        });
        self.responses.push(Response { args, answer });
        self
    }
}

impl Tool for ScriptedTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }
    fn call(&mut self, args: &[Value]) -> Result<Value, String> {
        if let Some(r) = self.responses.iter().find(|r| r.args == args) {
            return r.answer.clone();
        }
        if let Some(cmd) = self.command.as_mut() {
            return cmd.call(args);
        }
        Ok(self.returns.clone())
    }
    fn call_within(
        &mut self,
        args: &[Value],
        time_left: Option<Duration>,
    ) -> Result<Value, String> {
        match self.command.as_mut() {
            Some(cmd) if !self.responses.iter().any(|r| r.args == args) => {
                cmd.call_within(args, time_left)
            }
            _ => self.call(args),
        }
    }
    fn call_with(&mut self, args: &[Value], ctx: &CallContext) -> Result<Value, String> {
        match self.command.as_mut() {
            Some(cmd) if !self.responses.iter().any(|r| r.args == args) => cmd.call_with(args, ctx),
            _ => self.call(args),
        }
    }
    fn start(&mut self, args: &[Value], ctx: &CallContext) -> Option<Job> {
        match self.command.as_mut() {
            Some(cmd) if !self.responses.iter().any(|r| r.args == args) => cmd.start(args, ctx),
            _ => None,
        }
    }
    fn set_timeout(&mut self, timeout: Option<Duration>) {
        if let Some(cmd) = self.command.as_mut() {
            cmd.set_timeout(timeout);
        }
    }
    fn to_file(&self) -> ToolFile {
        self.file.clone()
    }
}

/// Most bytes read from a command's stdout or stderr.
const MAX_OUTPUT_BYTES: u64 = 16 * 1024 * 1024;

/// A tool that runs a process per call (`session.md`).
#[derive(Clone)]
pub struct CommandTool {
    info: ToolInfo,
    argv: Vec<String>,
    dir: Option<PathBuf>,
    timeout: Option<Duration>,
}

impl CommandTool {
    /// `argv[0]` is the program, the rest its arguments. It is started in
    /// the current directory unless [`CommandTool::current_dir`] says
    /// otherwise, and killed after one second unless
    /// [`Tool::set_timeout`] says otherwise.
    pub fn new(info: ToolInfo, argv: Vec<String>) -> CommandTool {
        CommandTool {
            info,
            argv,
            dir: None,
            timeout: Some(Duration::from_millis(1000)),
        }
    }

    /// The directory the process starts in (relative program paths too).
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> CommandTool {
        self.dir = Some(dir.into());
        self
    }

    /// The command and its arguments, as run.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    fn display_command(&self) -> String {
        self.argv.join(" ")
    }
}

impl Tool for CommandTool {
    fn info(&self) -> &ToolInfo {
        &self.info
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn to_file(&self) -> ToolFile {
        ToolFile {
            signature: Some(self.info.signature.text().to_string()),
            description: self.info.description.clone(),
            command: Some(self.argv.clone()),
            cwd: self.dir.as_ref().map(|d| d.display().to_string()),
            ..ToolFile::default()
        }
    }

    fn call(&mut self, args: &[Value]) -> Result<Value, String> {
        self.run(args, self.timeout, None)
    }

    fn call_within(
        &mut self,
        args: &[Value],
        time_left: Option<Duration>,
    ) -> Result<Value, String> {
        self.run(args, call_limit(self.timeout, time_left), None)
    }

    fn call_with(&mut self, args: &[Value], ctx: &CallContext) -> Result<Value, String> {
        self.run(
            args,
            call_limit(self.timeout, ctx.time_left),
            ctx.idempotency_key.as_deref(),
        )
    }

    fn start(&mut self, args: &[Value], ctx: &CallContext) -> Option<Job> {
        let tool = self.clone();
        let args = args.to_vec();
        let ctx = ctx.clone();
        Some(Box::new(move || {
            tool.run(
                &args,
                call_limit(tool.timeout, ctx.time_left),
                ctx.idempotency_key.as_deref(),
            )
        }))
    }
}

/// How long a tool running outside the interpreter may take: the earlier
/// of its own time limit and the time left before the turn's deadline.
pub fn call_limit(timeout: Option<Duration>, time_left: Option<Duration>) -> Option<Duration> {
    match (timeout, time_left) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl CommandTool {
    /// Runs the command once, killing it when `timeout` passes; a write's
    /// request carries its `idempotency_key` (ACT-3).
    fn run(
        &self,
        args: &[Value],
        timeout: Option<Duration>,
        key: Option<&str>,
    ) -> Result<Value, String> {
        let Some((program, rest)) = self.argv.split_first() else {
            return Err("the tool's command is empty".into());
        };
        let mut request = serde_json::json!({
            "tool": self.info.name,
            "args": args.iter().map(to_json).collect::<Vec<Json>>(),
        });
        if let Some(key) = key {
            request["idempotency_key"] = Json::String(key.to_string());
        }
        let mut cmd = Command::new(resolve_program(program, self.dir.as_ref()));
        cmd.args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.display_command()))?;
        // Feed stdin and drain stdout/stderr on their own threads, so that a
        // large request or answer cannot deadlock on a full pipe.
        if let Some(mut stdin) = child.stdin.take() {
            let body = request.to_string();
            std::thread::spawn(move || {
                let _ = stdin.write_all(body.as_bytes());
            });
        }
        // Chunks as they are read (`None`: the pipe closed), so what a
        // command wrote is there even if a child keeps the pipe open.
        // The answer is parsed whole: read no more than the turn's heap room
        // allows (`budget::tool_answer_cap`), one byte more to tell.
        let answer_cap = crate::eval::budget::tool_answer_cap()
            .unwrap_or(MAX_OUTPUT_BYTES)
            .min(MAX_OUTPUT_BYTES);
        let (tx, rx) = mpsc::channel::<(bool, Option<Vec<u8>>)>();
        for (is_out, pipe) in [
            (
                true,
                child
                    .stdout
                    .take()
                    .map(|p| Box::new(p) as Box<dyn Read + Send>),
            ),
            (
                false,
                child
                    .stderr
                    .take()
                    .map(|p| Box::new(p) as Box<dyn Read + Send>),
            ),
        ] {
            if let Some(pipe) = pipe {
                let tx = tx.clone();
                let cap = if is_out {
                    answer_cap.saturating_add(1)
                } else {
                    MAX_OUTPUT_BYTES
                };
                std::thread::spawn(move || {
                    let mut whole = pipe;
                    let mut pipe = (&mut whole).take(cap);
                    let mut buf = vec![0; 64 * 1024];
                    loop {
                        match pipe.read(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(n) => {
                                if tx.send((is_out, Some(buf[..n].to_vec()))).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                    let _ = tx.send((is_out, None));
                    // Drain the rest unread, so the command can finish.
                    let _ = std::io::copy(&mut whole, &mut std::io::sink());
                });
            }
        }
        drop(tx);

        let waited = match timeout {
            Some(limit) => child.wait_timeout(limit),
            None => child.wait().map(Some),
        };
        let status = match waited {
            Ok(Some(status)) => status,
            Ok(None) => {
                kill_group(&child);
                let _ = child.kill();
                let _ = child.wait();
                let limit = timeout.unwrap_or_default();
                let why = if timeout == self.timeout {
                    format!("within {} ms", limit.as_millis())
                } else {
                    format!("within the {} ms left of the turn", limit.as_millis())
                };
                return Err(format!(
                    "`{}` did not answer {why} and was stopped",
                    self.display_command()
                ));
            }
            Err(e) => return Err(format!("cannot wait for `{}`: {e}", self.display_command())),
        };

        // The process has exited; children it left holding the pipes go
        // with its group, then the readers get what is left (waiting a
        // little for any that escaped the group).
        kill_group(&child);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let grace = Instant::now() + Duration::from_millis(500);
        let mut open = 2;
        while open > 0 {
            let left = grace.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok((is_out, Some(chunk))) => {
                    if is_out { &mut out } else { &mut err }.extend_from_slice(&chunk)
                }
                Ok((_, None)) => open -= 1,
                Err(_) => break,
            }
        }
        if out.len() as u64 > answer_cap {
            return Err(format!(
                "`{}` answered more than {answer_cap} bytes, more JSON than the turn's heap room \
                 allows (one byte of text per {} bytes of max_heap_bytes left); ask it for \
                 less (a page, a summary) or raise max_heap_bytes",
                self.display_command(),
                crate::eval::budget::ANSWER_TEXT_PER_ROOM,
            ));
        }
        let stdout = String::from_utf8_lossy(&out);
        let stderr = String::from_utf8_lossy(&err);
        if !status.success() {
            let why = stderr.trim();
            let code = match status.code() {
                Some(c) => format!("exit code {c}"),
                None => "killed by a signal".to_string(),
            };
            return Err(if why.is_empty() {
                format!("`{}` failed ({code})", self.display_command())
            } else {
                format!("{why} ({code})")
            });
        }
        let text = stdout.trim();
        if text.is_empty() {
            return Err(format!(
                "`{}` answered nothing; a command tool prints one JSON value",
                self.display_command()
            ));
        }
        match serde_json::from_str::<Json>(text) {
            Ok(json) => Ok(from_json(&json)),
            Err(e) => Err(format!(
                "`{}` did not answer one JSON value ({e}): {}",
                self.display_command(),
                shorten(text, 200)
            )),
        }
    }
}

/// Kills what is left of the command's process group (children it
/// started); the command itself has exited or is killed next.
fn kill_group(child: &std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group
        // the command leads (made by `process_group(0)`); it touches no
        // memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// A program given as a relative path (`tools/x.py`, `./run.sh`) is looked
/// up in the tool's directory; a bare name (`python3`) on PATH.
fn resolve_program(program: &str, dir: Option<&PathBuf>) -> PathBuf {
    let path = PathBuf::from(program);
    match dir {
        Some(dir) if path.is_relative() && path.components().count() > 1 => dir.join(path),
        _ => path,
    }
}

/// Whether `program` can be started: an existing file (relative paths
/// against `dir`), or a bare name found on PATH.
pub fn program_exists(program: &str, dir: Option<&PathBuf>) -> bool {
    let path = PathBuf::from(program);
    if path.components().count() > 1 || path.is_absolute() {
        return resolve_program(program, dir).is_file();
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
        .unwrap_or(false)
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let cut: String = s.chars().take(n).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, sig: &str) -> ToolInfo {
        ToolInfo::new(name, sig, None).unwrap()
    }

    #[test]
    fn closure_tools_get_their_arguments() {
        let mut t = FnTool::new(
            "add",
            "(a :int, b :int) -> :int",
            "Adds",
            |args| match args {
                [Value::Int(a), Value::Int(b)] => Ok(Value::Int(a + b)),
                _ => Err("add expects two integers".into()),
            },
        )
        .unwrap();
        assert_eq!(t.call(&[Value::Int(2), Value::Int(3)]), Ok(Value::Int(5)));
        assert!(t.call(&[]).is_err());
        assert_eq!(t.info().description.as_deref(), Some("Adds"));
    }

    #[test]
    fn scripted_tools_answer_responses_first_then_returns() {
        let mut t = ScriptedTool::returning(info("lookup", "(id :int) -> :map"), Value::Nil)
            .respond(vec![Value::Int(1)], Ok(Value::string("one")))
            .respond(vec![Value::Int(2)], Err("not found".into()));
        assert_eq!(t.call(&[Value::Int(1)]), Ok(Value::string("one")));
        assert_eq!(t.call(&[Value::Int(2)]), Err("not found".into()));
        assert_eq!(t.call(&[Value::Int(3)]), Ok(Value::Nil));
        // 1.0 is not 1
        assert_eq!(t.call(&[Value::Float(1.0)]), Ok(Value::Nil));
    }

    fn sh(script: &str) -> CommandTool {
        CommandTool::new(
            info("t", "(x :any) -> :any"),
            vec!["sh".into(), "-c".into(), script.into()],
        )
    }

    #[test]
    fn command_tools_read_json_on_stdin_and_answer_json() {
        let mut t = sh("cat");
        let v = t.call(&[Value::Int(7)]).unwrap();
        let m = v.as_map().unwrap();
        assert_eq!(m.get(&Value::keyword("tool")), Some(&Value::string("t")));
        assert_eq!(
            m.get(&Value::keyword("args")),
            Some(&Value::vector_from([Value::Int(7)]))
        );
    }

    #[test]
    fn command_tool_errors_come_from_stderr_and_exit_code() {
        let e = sh("echo 'city not found' >&2; exit 3")
            .call(&[])
            .unwrap_err();
        assert_eq!(e, "city not found (exit code 3)");
        let e = sh("exit 1").call(&[]).unwrap_err();
        assert!(e.contains("exit code 1"), "{e}");
        let e = sh("echo not json").call(&[]).unwrap_err();
        assert!(e.contains("did not answer one JSON value"), "{e}");
        let e = sh("true").call(&[]).unwrap_err();
        assert!(e.contains("answered nothing"), "{e}");
        let mut missing = CommandTool::new(info("t", "-> :any"), vec!["/no/such/program".into()]);
        assert!(missing.call(&[]).unwrap_err().contains("cannot start"));
    }

    #[test]
    fn command_tools_are_killed_at_the_timeout() {
        let mut t = sh("sleep 5; echo 1");
        t.set_timeout(Some(Duration::from_millis(100)));
        let started = Instant::now();
        let e = t.call(&[]).unwrap_err();
        assert!(e.contains("within 100 ms"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn command_tools_stop_at_the_turns_deadline_when_it_comes_first() {
        let mut t = sh("sleep 5; echo 1");
        t.set_timeout(Some(Duration::from_secs(10)));
        let started = Instant::now();
        let e = t
            .call_within(&[], Some(Duration::from_millis(100)))
            .unwrap_err();
        assert!(e.contains("within the 100 ms left of the turn"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn a_background_child_holding_stdout_open_does_not_hide_the_answer() {
        let pid_file = std::env::temp_dir().join(format!("ptc-bg-child-{}", std::process::id()));
        let script = format!(
            "sleep 30 & echo $! > {}; echo '{{\"ok\": 1}}'",
            pid_file.display()
        );
        let mut t = sh(&script);
        t.set_timeout(Some(Duration::from_secs(20)));
        let started = Instant::now();
        let v = t.call(&[]).expect("answers");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(
            v.as_map()
                .and_then(|m| m.get(&Value::keyword("ok")).cloned()),
            Some(Value::Int(1))
        );
        // The background child was stopped with the tool's process group.
        let pid: i32 = std::fs::read_to_string(&pid_file)
            .expect("pid file")
            .trim()
            .parse()
            .expect("pid");
        let _ = std::fs::remove_file(&pid_file);
        let deadline = Instant::now() + Duration::from_secs(5);
        let alive = |pid: i32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .map(|s| !s.contains(") Z "))
                .unwrap_or(false)
        };
        while alive(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!alive(pid), "the background child {pid} still runs");
    }

    #[test]
    fn programs_are_found_on_path_or_relative_to_the_directory() {
        assert!(program_exists("sh", None));
        assert!(!program_exists("no-such-program-ptc", None));
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        assert!(program_exists("src/lib.rs", Some(&dir)));
        assert!(!program_exists("src/nope.rs", Some(&dir)));
    }
}
