//! `ptc_lisp.Session`: a [`Session`] driven from Python.
//!
//! The session sits behind a mutex: a turn runs with the GIL released
//! (other Python threads go on; tool callbacks take the GIL back), and a
//! second thread touching the same session meanwhile gets a
//! `SessionError` instead of waiting (one session per thread at a time;
//! separate sessions run in parallel). A `KeyboardInterrupt` — raised in a
//! tool, or Ctrl-C arriving while the turn runs, which stops it
//! ([`super::ctrl_c`]) — drops the turn
//! ([`Session::truncate_turns`]: memory, status and prompts as before it)
//! and propagates.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::config::{data_from, limits_from, render_from};
use super::convert::ToPython;
use super::errors::{session_error, session_error_msg};
use super::tools::{tools_from, Interrupt};
use super::turn::{memory_of, PyPreview, PyTurn};
use super::{ctrl_c, native};
use crate::agent::wire;
use crate::session::messages::{render_messages, turns_text};
use crate::session::{
    Decision, LlmInfo, Message, Protocol, ReplayTools, Reply, ReplyCall, Role, Session,
    SessionError, SessionFile, Status, Tool, Turn, View, DEFAULT_MAX_TURNS,
};

/// The ids of `approve=`/`deny=`: `"all"` (every pending call), a list
/// of ids, or none.
fn ids_of(ids: Option<&Bound<'_, PyAny>>, pending: &[String], what: &str) -> PyResult<Vec<String>> {
    let Some(ids) = ids.filter(|i| !i.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(s) = ids.extract::<String>() {
        if s == "all" {
            return Ok(pending.to_vec());
        }
        return Err(PyValueError::new_err(format!(
            "resume({what}={s:?}): give \"all\" or a list of pending call ids"
        )));
    }
    let mut out = Vec::new();
    for id in ids.try_iter()? {
        let id: String = id?.extract()?;
        known(&id, pending, what)?;
        out.push(id);
    }
    Ok(out)
}

/// An error unless `id` is a pending call's.
fn known(id: &str, pending: &[String], what: &str) -> PyResult<()> {
    if pending.iter().any(|p| p == id) {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "resume({what}=...): {id:?} is not a pending call; the pending ones are {pending:?}"
    )))
}

// `max_turns=5` in `Session(...)`'s signature (written out so that Python
// shows it) is the library's default.
const _: () = assert!(DEFAULT_MAX_TURNS == 5);

/// A mission and its turns.
#[pyclass(module = "ptc_lisp", name = "Session", frozen)]
pub struct PySession {
    inner: Mutex<Session>,
    interrupt: Interrupt,
    tp: ToPython,
    /// The `tools` argument as given, pickled with the session so that its
    /// tools are attached again by name on load (`__reduce__`).
    live_tools: Option<Py<PyAny>>,
}

impl PySession {
    /// Runs a turn with `f` (the GIL released, Ctrl-C and a tool's
    /// `KeyboardInterrupt` dropping it): the turn and its `ptc mcp` answer
    /// text.
    fn running(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Session) -> Result<Turn, SessionError> + Send,
    ) -> PyResult<(Turn, Option<String>)> {
        let interrupt = &self.interrupt;
        let watch = ctrl_c::Watch::new();
        let (flag, starter) = (watch.flag(), watch.starter());
        let ran = py.allow_threads(|| -> PyResult<_> {
            let mut s = self.lock()?;
            let before = s.turns().len();
            s.set_interrupt(Some(flag));
            s.set_long_turn(Some(starter));
            let turn = f(&mut s);
            s.set_interrupt(None);
            s.set_long_turn(None);
            if interrupt.is_set() {
                s.truncate_turns(before);
            }
            // The answer text `ptc mcp` gives for this turn.
            let feedback = turn
                .is_ok()
                .then(|| crate::session::turn_feedback(&s).map(|f| f.text))
                .flatten();
            Ok((before, turn, feedback))
        })?;
        drop(watch);
        let (before, turn, feedback) = ran;
        if let Some(e) = self.interrupt.take() {
            return Err(e);
        }
        if let Err(e) = py.check_signals() {
            self.lock()?.truncate_turns(before);
            return Err(e);
        }
        let turn = turn.map_err(|e| match e {
            crate::session::SessionError::Ended(_) => session_error_msg(format!(
                "{e}. A session that goes on after (return v), as a framework's code tool \
                 needs, is made with Session(..., open_ended=True)"
            )),
            e => session_error(&e),
        })?;
        Ok((turn, feedback))
    }

    fn lock(&self) -> PyResult<MutexGuard<'_, Session>> {
        match self.inner.try_lock() {
            Ok(g) => Ok(g),
            Err(TryLockError::WouldBlock) => Err(session_error_msg(
                "the session is busy in another thread (use one session per thread at a time)"
                    .into(),
            )),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        }
    }
}

/// `"text"` or `"tool"`.
fn protocol_of(name: &str) -> PyResult<Protocol> {
    Protocol::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "protocol must be \"text\" or \"tool\", got {name:?}"
        ))
    })
}

/// A JSON value as Python objects (through the `json` module).
fn json_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

/// The function calls of a reply: dicts in OpenAI's shape (`{"function":
/// {"name", "arguments"}}`), Anthropic's (`{"name", "input"}`) or ours
/// (`{"name", "arguments"}`), or objects with `model_dump()` (the SDKs').
fn calls_from(calls: &Bound<'_, PyAny>) -> PyResult<Vec<ReplyCall>> {
    let py = calls.py();
    let json = py.import("json")?;
    let mut out = Vec::new();
    for c in calls.try_iter()? {
        let mut c = c?;
        if c.hasattr("model_dump")? {
            c = c.call_method0("model_dump")?;
        }
        let d = c.downcast::<PyDict>().map_err(|_| {
            PyValueError::new_err(
                "calls: each call must be a dict (an OpenAI tool call or an Anthropic tool_use block)",
            )
        })?;
        let f = match d.get_item("function")? {
            Some(f) => f.downcast_into::<PyDict>().map_err(|_| {
                PyValueError::new_err("calls: \"function\" must be a dict {name, arguments}")
            })?,
            None => d.clone(),
        };
        let name: String = match f.get_item("name")? {
            Some(n) => n.extract()?,
            None => String::new(),
        };
        let arguments = match (f.get_item("arguments")?, f.get_item("input")?) {
            (Some(a), _) if a.is_instance_of::<pyo3::types::PyString>() => a.extract()?,
            (Some(a), _) | (None, Some(a)) => json.call_method1("dumps", (a,))?.extract()?,
            (None, None) => String::new(),
        };
        out.push(ReplyCall { name, arguments });
    }
    Ok(out)
}

/// `[{"role": ..., "content": ...}]`.
fn messages_py(py: Python<'_>, messages: &[Message]) -> PyResult<Vec<PyObject>> {
    messages
        .iter()
        .map(|m| {
            let d = PyDict::new(py);
            d.set_item("role", m.role.name())?;
            d.set_item("content", &m.content)?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

/// The `mcp` argument: the session file's "mcp" form, `{name: {"command":
/// [...]} or {"url": ...}}` (session/mcp.rs), read through JSON.
fn mcp_servers(
    py: Python<'_>,
    mcp: Option<&Bound<'_, PyAny>>,
    method: &str,
) -> PyResult<std::collections::BTreeMap<String, crate::session::McpServerConfig>> {
    let Some(m) = mcp.filter(|m| !m.is_none()) else {
        return Ok(Default::default());
    };
    let text: String = py.import("json")?.call_method1("dumps", (m,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "{method}(mcp=...): {e}; write {{\"name\": {{\"command\": [\"program\", \"arg\"]}}}} or {{\"name\": {{\"url\": \"http://...\"}}}}"
        ))
    })
}

#[pymethods]
impl PySession {
    #[new]
    #[pyo3(signature = (mission, *, data=None, tools=None, max_turns=5, limits=None, compression=false, render=None, keep_keywords=false, mcp=None, open_ended=false, approval=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        mission: String,
        data: Option<&Bound<'_, PyAny>>,
        tools: Option<&Bound<'_, PyAny>>,
        max_turns: usize,
        limits: Option<&Bound<'_, PyAny>>,
        compression: bool,
        render: Option<&Bound<'_, PyAny>>,
        keep_keywords: bool,
        mcp: Option<&Bound<'_, PyAny>>,
        open_ended: bool,
        approval: Option<&str>,
    ) -> PyResult<PySession> {
        let limits = limits_from(py, limits)?;
        let tp = ToPython::new(keep_keywords, &limits);
        let interrupt = Interrupt::default();
        let mut b = Session::builder(mission)
            .max_turns(max_turns)
            .compression(compression)
            .limits(limits.clone())
            .render(render_from(py, render)?);
        for (name, value) in data_from(data)? {
            b = b.data(name, value);
        }
        for t in tools_from(tools, tp, &limits, &interrupt)? {
            b = b.tool(t);
        }
        // MCP servers: the session file's "mcp" form, {name: {"command": [...]}
        // or {"url": ...}} (session/mcp.rs); they start here, in the current
        // directory, and stop with the session.
        for (name, config) in mcp_servers(py, mcp, "Session")? {
            b = b.mcp_server(name, config);
        }
        // As `ptc mcp`'s sessions: `(return v)` answers v and the session
        // goes on, `(fail why)` is a failed turn, no `max_turns`.
        if open_ended {
            b = b.open_ended();
        }
        // Every write waits for approval (ACT-2).
        match approval {
            None => {}
            Some("writes") => b = b.approval_for_writes(true),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "Session(approval={other:?}): the only value is \"writes\" (every write waits for approval; \
                     a single tool asks with @tool(approval=True))"
                )))
            }
        }
        let session = py
            .allow_threads(|| b.build())
            .map_err(|e| session_error(&e))?;
        Ok(PySession {
            inner: Mutex::new(session),
            interrupt,
            tp,
            live_tools: tools.map(|t| t.clone().unbind()),
        })
    }

    /// Loads a session file and replays its turns. Recorded turns answer
    /// their tool calls from the file's recording ("tool_calls"): no
    /// command or callable runs, and tools saved from Python callables
    /// replay what they answered. `tools` (as in `Session(...)`) attaches
    /// live implementations for new turns, each replacing the file's tool
    /// of its name; `live=True` runs the tools of the recorded turns again.
    /// `mcp` (as in `Session(...)`) adds MCP servers, each replacing the
    /// file's of that name; they become the file's servers (a stdio one
    /// starts in the file's directory, rule MCP-9 of session/file.rs).
    #[staticmethod]
    #[pyo3(signature = (path, *, tools=None, live=false, mcp=None, keep_keywords=false))]
    fn from_file(
        py: Python<'_>,
        path: PathBuf,
        tools: Option<&Bound<'_, PyAny>>,
        live: bool,
        mcp: Option<&Bound<'_, PyAny>>,
        keep_keywords: bool,
    ) -> PyResult<PySession> {
        let servers = mcp_servers(py, mcp, "Session.from_file")?;
        // The file's limits bound what the attached tools convert.
        let limits = crate::session::SessionFile::load(&path)
            .map_err(|e| session_error(&e))?
            .limits
            .unwrap_or_default();
        let tp = ToPython::new(keep_keywords, &limits);
        let interrupt = Interrupt::default();
        // The tools attached by name (mcp-client's `mcp=` adds its tools here).
        let attached: Vec<Box<dyn Tool>> = tools_from(tools, tp, &limits, &interrupt)?
            .into_iter()
            .map(|t| Box::new(t) as Box<dyn Tool>)
            .collect();
        let replay = if live {
            ReplayTools::Live
        } else {
            ReplayTools::Recorded
        };
        let loaded = py.allow_threads(|| Session::load_with_mcp(&path, attached, servers, replay));
        if let Some(e) = interrupt.take() {
            return Err(e);
        }
        let session = loaded.map_err(|e| session_error(&e))?;
        Ok(PySession {
            inner: Mutex::new(session),
            interrupt,
            tp,
            live_tools: None,
        })
    }

    /// Runs one LLM response as the next turn (the GIL is released while
    /// it evaluates). A failing program is a failed turn, not an exception.
    /// `None` (an SDK's empty `content`) is an empty reply: a failed turn
    /// with a hint. Under the tool protocol pass the reply's function
    /// calls as `calls` (OpenAI `tool_calls` or Anthropic `tool_use`
    /// blocks, as dicts); `finish_reason` `"length"`/`"max_tokens"` makes
    /// the cut-off failed turn.
    #[pyo3(signature = (raw_response, *, calls=None, finish_reason=None))]
    fn run_turn(
        &self,
        py: Python<'_>,
        raw_response: Option<String>,
        calls: Option<&Bound<'_, PyAny>>,
        finish_reason: Option<String>,
    ) -> PyResult<PyTurn> {
        let _entered = native::enter("Session.run_turn")?;
        let reply = Reply {
            text: raw_response.unwrap_or_default(),
            calls: calls.map(calls_from).transpose()?,
        };
        let llm = finish_reason.map(|f| LlmInfo {
            finish_reason: Some(f),
            ..LlmInfo::default()
        });
        let (turn, feedback) = self.running(py, move |s| s.run_reply_owned(reply, llm).cloned())?;
        Ok(PyTurn::new(turn, self.tp).with_feedback(feedback))
    }

    /// Continues the paused turn (ACT-2): `approve` and `deny` name its
    /// pending calls by id (`turn.pending[i]["id"]`) or say `"all"`; `deny`
    /// may map ids to reasons, else `reason` is the denied calls' reason.
    /// The turn runs again from its start, the calls made before the pause
    /// answered from its record; an approved call runs once, a denied one
    /// fails with a `tool-error` "denied: REASON" (the program may catch
    /// it). Returns the resumed turn, which may pause again at a later call.
    #[pyo3(signature = (*, approve=None, deny=None, reason="denied by the user"))]
    fn resume(
        &self,
        py: Python<'_>,
        approve: Option<&Bound<'_, PyAny>>,
        deny: Option<&Bound<'_, PyAny>>,
        reason: &str,
    ) -> PyResult<PyTurn> {
        let _entered = native::enter("Session.resume")?;
        let pending: Vec<String> = self
            .lock()?
            .pending()
            .iter()
            .map(|c| c.id.clone())
            .collect();
        if pending.is_empty() {
            return Err(session_error_msg(
                "resume: no turn is paused (a turn pauses at a call awaiting approval: turn.status == \"paused\")"
                    .into(),
            ));
        }
        let mut decisions = BTreeMap::new();
        for id in ids_of(approve, &pending, "approve")? {
            decisions.insert(id, Decision::Approve);
        }
        if let Some(d) = deny.and_then(|d| d.downcast::<PyDict>().ok()) {
            for (id, why) in d.iter() {
                let id: String = id.extract()?;
                known(&id, &pending, "deny")?;
                decisions.insert(id, Decision::Deny(why.str()?.to_string()));
            }
        } else {
            for id in ids_of(deny, &pending, "deny")? {
                decisions.insert(id, Decision::Deny(reason.to_string()));
            }
        }
        let (turn, feedback) = self.running(py, move |s| s.resume(decisions).cloned())?;
        Ok(PyTurn::new(turn, self.tp).with_feedback(feedback))
    }

    /// The calls the paused turn waits on (`[]` when none is paused).
    #[getter]
    fn pending(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        super::turn::pending_of(py, self.tp, self.lock()?.pending())
    }

    /// Runs `program` as a preview (ACT-5): every write answered with its
    /// tool's preview value (else nil) without running it, reads run.
    /// Returns a `Preview`: `.turn` and `.writes` (`[{"at", "tool",
    /// "args"}]`, in order); the session is left as it was.
    fn preview(&self, py: Python<'_>, program: String) -> PyResult<PyPreview> {
        let _entered = native::enter("Session.preview")?;
        let interrupt = &self.interrupt;
        let watch = ctrl_c::Watch::new();
        let flag = watch.flag();
        let ran = py.allow_threads(|| -> PyResult<_> {
            let mut s = self.lock()?;
            s.set_interrupt(Some(flag));
            let preview = s.preview(&program);
            s.set_interrupt(None);
            Ok(preview)
        })?;
        drop(watch);
        if let Some(e) = interrupt.take() {
            return Err(e);
        }
        py.check_signals()?;
        PyPreview::new(py, ran.map_err(|e| session_error(&e))?, self.tp)
    }

    /// The messages for the next turn, `[{"role", "content"}]`, ready for
    /// OpenAI-style chat APIs (exactly what `ptc replay` prints). With
    /// `protocol` (`"text"` or `"tool"`) the session switches to it first;
    /// under the tool protocol earlier program calls are OpenAI
    /// `tool_calls` + `tool` messages (pass `request()`'s `tools` too).
    #[pyo3(signature = (protocol=None))]
    fn next_prompt(&self, py: Python<'_>, protocol: Option<&str>) -> PyResult<PyObject> {
        let mut s = self.lock()?;
        if let Some(p) = protocol {
            s.set_protocol(protocol_of(p)?);
        }
        if s.protocol() == Protocol::Text {
            return Ok(PyList::new(py, messages_py(py, s.next_prompt())?)?
                .into_any()
                .unbind());
        }
        json_py(
            py,
            &serde_json::json!(wire::openai_messages(s.next_prompt())),
        )
    }

    /// Everything to pass to the SDK besides the model: OpenAI
    /// `{"messages", "tools"?, "tool_choice"?}` for
    /// `client.chat.completions.create(model=…, **session.request())`;
    /// Anthropic `{"system", "messages", "tools"?, "tool_choice"?}` for
    /// `client.messages.create(model=…, max_tokens=…, **session.request("anthropic"))`,
    /// SYSTEM marked for prompt caching unless `cache=False`. `protocol`
    /// switches the session first, as in `next_prompt`.
    #[pyo3(signature = (provider="openai", *, protocol=None, cache=true))]
    fn request(
        &self,
        py: Python<'_>,
        provider: &str,
        protocol: Option<&str>,
        cache: bool,
    ) -> PyResult<PyObject> {
        let mut s = self.lock()?;
        if let Some(p) = protocol {
            s.set_protocol(protocol_of(p)?);
        }
        let sampling = wire::Sampling::default();
        let mut body = match provider {
            "openai" => wire::openai_body("", s.next_prompt(), s.protocol(), &sampling),
            "anthropic" => {
                wire::anthropic_body("", s.next_prompt(), s.protocol(), &sampling, 0, cache)
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "request: provider must be \"openai\" or \"anthropic\", got {other:?}"
                )))
            }
        };
        if let Some(o) = body.as_object_mut() {
            o.shift_remove("model");
            o.shift_remove("max_tokens");
        }
        json_py(py, &body)
    }

    /// `"text"` or `"tool"`: how the model hands over its program.
    #[getter]
    fn protocol(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.protocol().name())
    }

    /// Pickles as the session file (its turns with what the LLM reported
    /// and the calls of tool-protocol replies) and the `tools` given;
    /// unpickling builds the session again with those tools attached by
    /// name and replays its turns. Tools must be picklable (module-level
    /// functions are).
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        let me = slf.get();
        let text = me.lock()?.to_file().to_json();
        let tools = me
            .live_tools
            .as_ref()
            .map_or_else(|| py.None(), |t| t.clone_ref(py));
        let rebuild = slf.get_type().getattr("_from_pickle")?;
        let args = (text, tools, me.tp.keep_keywords).into_pyobject(py)?;
        Ok((rebuild, args).into_pyobject(py)?.into_any().unbind())
    }

    /// The other half of `__reduce__`.
    #[staticmethod]
    #[pyo3(signature = (text, tools, keep_keywords))]
    fn _from_pickle(
        py: Python<'_>,
        text: String,
        tools: Option<&Bound<'_, PyAny>>,
        keep_keywords: bool,
    ) -> PyResult<PySession> {
        let interrupt = Interrupt::default();
        let path = PathBuf::from("<pickled session>");
        let mut file = SessionFile::parse(&text, &path).map_err(|e| session_error(&e))?;
        // The session's limits bound what conversions and its tools make.
        let limits = file.limits.clone().unwrap_or_default();
        let tp = ToPython::new(keep_keywords, &limits);
        let live = tools_from(tools.filter(|t| !t.is_none()), tp, &limits, &interrupt)?;
        for t in &live {
            file.tools.remove(&crate::session::Tool::info(t).name);
        }
        let mut b = file
            .builder(&path, Some(&text))
            .map_err(|e| session_error(&e))?;
        for t in live {
            b = b.tool(t);
        }
        let mut session = b.build().map_err(|e| session_error(&e))?;
        // Recorded turns answer their tool calls from the recording.
        py.allow_threads(|| file.run_turns(&mut session, ReplayTools::Recorded))
            .map_err(|e| session_error(&e))?;
        Ok(PySession {
            inner: Mutex::new(session),
            interrupt,
            tp,
            live_tools: tools.filter(|t| !t.is_none()).map(|t| t.clone().unbind()),
        })
    }

    /// The next prompt in Anthropic's shape: `{"system": str, "messages":
    /// [...]}` (system messages joined by a blank line), to pass as
    /// `client.messages.create(**session.next_prompt_anthropic(), ...)`.
    fn next_prompt_anthropic(&self, py: Python<'_>) -> PyResult<PyObject> {
        let s = self.lock()?;
        let (system, rest): (Vec<&Message>, Vec<&Message>) =
            s.next_prompt().iter().partition(|m| m.role == Role::System);
        let system = system
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        let rest: Vec<Message> = rest.into_iter().cloned().collect();
        let d = PyDict::new(py);
        d.set_item("system", system)?;
        d.set_item("messages", messages_py(py, &rest)?)?;
        Ok(d.into_any().unbind())
    }

    /// `view="compressed"` or `"uncompressed"`: the messages for the next
    /// turn in that view; `view="turns"`: the turns as text, for people.
    /// Without a view, the session's own.
    #[pyo3(signature = (view=None))]
    fn render(&self, py: Python<'_>, view: Option<&str>) -> PyResult<PyObject> {
        let s = self.lock()?;
        let view = match view {
            None => View::of(&s),
            Some(v) => View::parse(v).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "render: view must be \"compressed\", \"uncompressed\" or \"turns\", got {v:?}"
                ))
            })?,
        };
        if view == View::Turns {
            return Ok(turns_text(&s).into_pyobject(py)?.into_any().unbind());
        }
        let messages = messages_py(py, &render_messages(&s, view))?;
        Ok(PyList::new(py, messages)?.into_any().unbind())
    }

    /// Writes the session as a session file (its definitions and every
    /// turn's raw response; Python tools as their signature and description).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.lock()?
            .save(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))
    }

    /// `"running"`, `"returned"`, `"failed"` or `"exhausted"`.
    #[getter]
    fn status(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.status().state())
    }

    /// The value of `(return v)` once returned, the reason of `(fail why)`
    /// once failed, else `None`.
    #[getter]
    fn result(&self, py: Python<'_>) -> PyResult<PyObject> {
        match self.lock()?.status() {
            Status::Returned(v) | Status::Failed(v) => self.tp.convert(py, v, "Session.result"),
            _ => Ok(py.None()),
        }
    }

    /// The turns so far, oldest first.
    #[getter]
    fn turns(&self) -> PyResult<Vec<PyTurn>> {
        Ok(self
            .lock()?
            .turns()
            .iter()
            .map(|t| PyTurn::new(t.clone(), self.tp))
            .collect())
    }

    /// user/ now: name → value, in order of first definition.
    #[getter]
    fn memory(&self, py: Python<'_>) -> PyResult<PyObject> {
        memory_of(py, self.tp, self.lock()?.memory())
    }

    #[getter]
    fn mission(&self) -> PyResult<String> {
        Ok(self.lock()?.mission().to_string())
    }

    #[getter]
    fn max_turns(&self) -> PyResult<usize> {
        Ok(self.lock()?.max_turns())
    }

    /// `max_turns` minus the turns run.
    #[getter]
    fn turns_left(&self) -> PyResult<usize> {
        Ok(self.lock()?.turns_left())
    }

    fn __repr__(&self) -> PyResult<String> {
        let s = self.lock()?;
        Ok(format!(
            "Session(mission={:?}, status={}, turns={}/{})",
            s.mission(),
            s.status().state(),
            s.turns().len(),
            s.max_turns()
        ))
    }
}
