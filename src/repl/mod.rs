//! The REPL: a prompt designer's workbench (`ptc`, `ptc repl [SESSION.json]`).
//!
//! Each entry is one turn of a [`Session`] — the session file's mission,
//! data and tools, or an empty session — so what the REPL shows is what
//! the LLM would get: `:prompt` prints the exact next prompt after SYSTEM.
//!
//! [`Repl::eval_entry`] is the core that the terminal loop
//! ([`terminal::run_interactive`]), the non-interactive mode
//! ([`terminal::run_script`], `ptc repl < file`) and the tests all use. An
//! entry is one of:
//!
//! * a `:command` ([`commands`]);
//! * `(doc name)`, `(apropos "part")`, `(find-doc "part")` ([`doc`]),
//!   `(source name)`, `(dir ns)`, `(pst)` ([`inspect`]): answered by the
//!   REPL, not turns;
//! * code that mentions `*e` (the last error, as the map a `catch` binds:
//!   `{:message "…" :kind :type-error}`, `:data` too for `ex-info`): `*e`
//!   is not part of the language the LLM sees, so such an entry is
//!   evaluated outside the session — against a copy of user/ memory, the
//!   data and `*1 *2 *3`, without tools — and is not a turn;
//! * anything else runs as the session's next turn. Code that is neither
//!   fenced nor starts with `(` (`42`, `data/products`, `*1`) is wrapped in a
//!   ```` ```clojure ```` fence first, because R-70 would find no program in
//!   it; a pasted LLM response (prose and a fenced block) runs as it is.
//!
//! A turn shows its `println` output, its tool calls, then its value (a
//! bounded preview; `:full` prints the last value whole) or its error with
//! the source line and a caret. Errors never end the REPL. `(return v)` and
//! `(fail reason)` end the session as they would for the LLM; `:undo` takes
//! that turn back.
//!
//! Limits: the session's limits (the file's, or the defaults, with the
//! command-line flags on top) apply to each entry; `:save` writes the
//! file's own limits, not the flags. The session's
//! `max_turns` still drives the turn indicator of the prompt and is saved,
//! but the REPL never runs out of turns unless [`ReplConfig::max_turns`]
//! asks for it ([`Session::set_stop_at_max_turns`]).

pub mod approve;
pub mod commands;
pub mod doc;
pub mod helper;
pub mod input;
pub mod inspect;
pub mod output;
pub mod pretty;
pub mod terminal;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::eval::{error_value, Interp, Limits, StaticHost};
use crate::format::{to_clojure, to_clojure_capped};
use crate::reader::{read_all, Form, FormKind};
use crate::session::{
    extract_program, ReplayTools, Session, SessionError, SessionFile, Status, DEFAULT_MAX_TURNS,
};
use crate::value::Value;

pub use helper::ReplHelper;
pub use output::{Item, Output, Style};

/// Items per collection in a value preview.
pub const PREVIEW_ITEMS: usize = 50;
/// Characters per string in a value preview.
pub const PREVIEW_CHARS: usize = 1000;
/// Bytes of a whole value preview.
pub const PREVIEW_BYTES: usize = 16 * 1024;

/// Changes the limits of every session the REPL opens (the command line's
/// LIMITS flags over the file's limits).
pub type LimitsOverride = Arc<dyn Fn(Limits) -> Limits + Send + Sync>;

/// How the REPL opens sessions.
#[derive(Clone, Default)]
pub struct ReplConfig {
    /// End the session after this many turns, as an LLM's session would
    /// (it also replaces the file's `max_turns`). `None`: never run out.
    pub max_turns: Option<usize>,
    /// The compressed view's token budget for every session opened
    /// (`--budget-tokens`; `None` keeps the session file's).
    pub budget_tokens: Option<usize>,
    /// Recorded turns of the files opened run their tools again
    /// (`--live`) instead of answering from the recording.
    pub live: bool,
    /// Applied to the limits of every session opened (also by `:load`).
    pub limits: Option<LimitsOverride>,
}

impl ReplConfig {
    fn limits(&self, base: Limits) -> Limits {
        match &self.limits {
            Some(f) => f(base),
            None => base,
        }
    }
}

/// What the last turn cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct EntryStats {
    pub steps: u64,
    pub heap_bytes: u64,
    pub print_bytes: usize,
    pub tool_calls: usize,
    pub elapsed: Duration,
}

/// A REPL over one session.
pub struct Repl {
    session: Session,
    config: ReplConfig,
    /// The session file opened, loaded or saved last (`:save` without a
    /// file writes there).
    path: Option<PathBuf>,
    /// The session's own limits (the file's `limits`), which `:save`
    /// writes; the command line's flags apply to entries only.
    own_limits: Option<Limits>,
    last_error: Option<Error>,
    last_value: Option<Value>,
    last_stats: Option<EntryStats>,
    /// The session file the REPL was opened on (or `:load`ed) and its JSON
    /// as read: a bare `:save` never overwrites it, and saving keeps its
    /// keys, their order and its limits, replacing only `turns`.
    origin: Option<(PathBuf, serde_json::Value)>,
    /// Set by Ctrl-C during an evaluation ([`Repl::interrupt_flag`]).
    interrupt: Arc<AtomicBool>,
    /// What opening the session file did besides replaying it.
    opened_note: Option<String>,
    /// Results pretty-printed (`:pp`).
    pretty: bool,
}

impl Repl {
    /// A REPL over `session` (turns already run stay).
    pub fn new(mut session: Session, config: ReplConfig) -> Repl {
        session.set_stop_at_max_turns(config.max_turns.is_some());
        let interrupt = Arc::new(AtomicBool::new(false));
        session.set_interrupt(Some(interrupt.clone()));
        Repl {
            interrupt,
            pretty: false,
            origin: None,
            session,
            config,
            path: None,
            own_limits: None,
            last_error: None,
            last_value: None,
            last_stats: None,
            opened_note: None,
        }
    }

    /// A REPL over a new session with no data and no tools.
    pub fn empty(mission: &str, config: ReplConfig) -> Result<Repl, SessionError> {
        let session = Session::builder(mission)
            .max_turns(config.max_turns.unwrap_or(DEFAULT_MAX_TURNS))
            .limits(config.limits(Limits::default()))
            .build()?;
        let mut session = session;
        session.set_budget_tokens(config.budget_tokens);
        Ok(Repl::new(session, config))
    }

    /// A REPL over a session file, its turns replayed. A file whose turns
    /// ended the session (`return`/`fail`) opens before that last turn, so
    /// the first entry can run ([`Repl::opened_note`] says so).
    pub fn open(path: &Path, config: ReplConfig) -> Result<Repl, SessionError> {
        let (mut session, own_limits) = open_session(path, &config)?;
        let note = reopen_before_end(&mut session);
        let mut repl = Repl::new(session, config);
        repl.opened_note = note;
        repl.path = Some(path.to_path_buf());
        repl.own_limits = own_limits;
        repl.origin = origin_of(path);
        Ok(repl)
    }

    /// Set when the session file's turns had ended the session and the
    /// REPL opened before the last one (the file is unchanged).
    pub fn opened_note(&self) -> Option<&str> {
        self.opened_note.as_deref()
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The flag that interrupts the running evaluation: set it (Ctrl-C)
    /// and the entry fails with an "interrupted" error and is taken back —
    /// memory, turns and the session stay as they were.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Turns pretty-printing of results on or off (`:pp`).
    pub fn set_pretty(&mut self, on: bool) {
        self.pretty = on;
    }

    /// The session file opened, loaded or saved last.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The last value shown (what `:full` prints).
    pub fn last_value(&self) -> Option<&Value> {
        self.last_value.as_ref()
    }

    /// What the last turn cost.
    pub fn last_stats(&self) -> Option<&EntryStats> {
        self.last_stats.as_ref()
    }

    /// The number the next turn will have.
    pub fn next_turn(&self) -> usize {
        self.session.turns().len() + 1
    }

    /// Runs one entry (see the module documentation).
    pub fn eval_entry(&mut self, text: &str) -> Output {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Output::default();
        }
        if input::is_command_line(trimmed) {
            return commands::run(self, trimmed);
        }
        let raw = as_response(trimmed);
        if let Some(program) = extract_program(&raw) {
            if let Ok(forms) = read_all(&program) {
                if forms.is_empty() {
                    return Output::default(); // only comments
                }
                if let [form] = forms.as_slice() {
                    if let Some(out) = doc::repl_form(&self.session, form) {
                        return out;
                    }
                    if let Some(out) =
                        inspect::repl_form(&self.session, self.last_error.as_ref(), form)
                    {
                        return out;
                    }
                }
                if forms.iter().any(mentions_star_e) {
                    return self.eval_outside(&program);
                }
            }
        }
        self.run_turn(&raw)
    }

    /// Runs `raw` as the session's next turn.
    fn run_turn(&mut self, raw: &str) -> Output {
        if !self.session.status().is_running() {
            return Output::note(format!(
                "the session has ended ({}); :undo takes the last turn back, :reset starts over",
                self.session.status()
            ));
        }
        let started = Instant::now();
        self.interrupt.store(false, Ordering::SeqCst);
        let turn = match self.session.run_turn(raw) {
            Ok(t) => t.clone(),
            Err(e) => return Output::note(e.to_string()),
        };
        self.show_turn(turn, started)
    }

    /// Continues the paused turn with `decisions` (`:approve`, `:deny`).
    pub(crate) fn resume(
        &mut self,
        decisions: std::collections::BTreeMap<String, crate::session::Decision>,
    ) -> Output {
        let started = Instant::now();
        self.interrupt.store(false, Ordering::SeqCst);
        let turn = match self.session.resume(decisions) {
            Ok(t) => t.clone(),
            Err(e) => return Output::note(e.to_string()),
        };
        self.show_turn(turn, started)
    }

    /// What an entry's turn shows: its notes, prints, tool calls, then its
    /// value or error, and what the session's status became.
    fn show_turn(&mut self, turn: crate::session::Turn, started: Instant) -> Output {
        if self.interrupt.swap(false, Ordering::SeqCst) && !turn.success && !turn.is_paused() {
            // Ctrl-C: the entry is taken back, as if never run.
            self.session.truncate_turns(turn.number - 1);
            let mut out = Output::default();
            out.items
                .extend(turn.prints.iter().map(|p| Item::Print(p.clone())));
            if let Err(e) = turn.result {
                out.items.push(Item::Error(e.clone()));
                self.last_error = Some(e);
            }
            out.push_note("interrupted: the entry was not kept (memory and turns unchanged)");
            return out;
        }
        let budget = &self.session.interp().budget;
        self.last_stats = Some(EntryStats {
            steps: budget.steps(),
            heap_bytes: budget.heap_bytes(),
            print_bytes: budget.print_bytes,
            tool_calls: turn.tool_calls.len(),
            elapsed: started.elapsed(),
        });
        let mut out = Output::default();
        for note in &turn.notes {
            out.push_note(note.clone());
        }
        out.items
            .extend(turn.prints.iter().map(|p| Item::Print(p.clone())));
        for call in &turn.tool_calls {
            out.items.push(Item::ToolCall {
                name: call.name.clone(),
                args: to_clojure(
                    &Value::vector_from(call.args.iter().cloned()),
                    Some(10),
                    Some(200),
                )
                .0,
                result: match &call.result {
                    Ok(v) => Ok(to_clojure(v, Some(10), Some(200)).0),
                    Err(e) => Err(e.clone()),
                },
            });
        }
        let paused = turn.is_paused();
        self.show_result(&mut out, turn.result);
        if paused {
            out.push_note(
                ":approve ID|all runs the calls (once), :deny ID|all [reason] fails them; \
                 nothing else runs until then",
            );
        }
        let status = self.session.status();
        match status {
            crate::session::Status::Returned(v) => out.push_note(format!(
                "the session returned {}: the mission is done (:undo takes it back)",
                to_clojure(v, Some(10), Some(200)).0
            )),
            crate::session::Status::Failed(_) => {
                out.push_note("the session failed (fail was called); :undo takes it back")
            }
            crate::session::Status::Exhausted => out.push_note(format!(
                "max_turns ({}) reached: the session is exhausted; :undo takes the turn back",
                self.session.max_turns()
            )),
            crate::session::Status::Running => {}
        }
        out
    }

    /// Adds a value (or an error) to `out` and remembers it.
    fn show_result(&mut self, out: &mut Output, result: Result<Value, Error>) {
        match result {
            Ok(v) => {
                let (text, cut) = to_clojure_capped(
                    &v,
                    Some(PREVIEW_ITEMS),
                    Some(PREVIEW_CHARS),
                    Some(PREVIEW_BYTES),
                );
                let text = if self.pretty {
                    pretty::pretty(&v)
                } else {
                    text
                };
                out.items.push(Item::Value(text));
                if cut {
                    out.push_note("a preview: :full prints the whole value");
                }
                self.last_value = Some(v);
            }
            Err(e) => {
                out.items.push(Item::Error(e.clone()));
                self.last_error = Some(e);
            }
        }
    }

    /// Evaluates `program` outside the session, with `*e` bound.
    fn eval_outside(&mut self, program: &str) -> Output {
        let host = StaticHost {
            data: self.session.data().clone(),
            ..StaticHost::default()
        };
        let mut interp = Interp::new(Box::new(host), self.session.limits().clone());
        self.interrupt.store(false, Ordering::SeqCst);
        interp.budget.set_interrupt(Some(self.interrupt.clone()));
        interp.globals = self.session.memory().clone();
        interp.turn_history = self.session.interp().turn_history.clone();
        let e = self.last_error.as_ref().map_or(Value::Nil, error_value);
        interp.globals.define("*e", e, None);
        let outcome = interp.run_program(program);
        let mut out = Output::default();
        out.items.extend(interp.prints.drain(..).map(Item::Print));
        self.show_result(&mut out, outcome.result);
        out.push_note("*e is REPL-only: evaluated outside the session (not a turn)");
        out
    }

    /// Every name worth completing: builtins (bare, and qualified outside
    /// clojure.core), special forms, the REPL forms, user/ definitions,
    /// `tool/` and `data/` names, `*1 *2 *3 *e`.
    pub fn completion_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for b in crate::builtins::all() {
            names.push(b.name.to_string());
            if b.ns != crate::builtins::Ns::Core {
                names.push(b.qualified_name());
            }
        }
        names.extend(crate::analyze::SPECIAL_NAMES.iter().map(|s| s.to_string()));
        names.extend(doc::REPL_FORMS.iter().map(|s| s.to_string()));
        names.extend(inspect::INSPECT_FORMS.iter().map(|s| s.to_string()));
        // The short qualifiers the language accepts complete too.
        for b in crate::builtins::all() {
            let aliases: &[&str] = match b.ns {
                crate::builtins::Ns::String => &["str", "string"],
                crate::builtins::Ns::Set => &["set"],
                crate::builtins::Ns::Walk => &["walk"],
                crate::builtins::Ns::Json => &["json"],
                crate::builtins::Ns::Core => &[],
            };
            names.extend(aliases.iter().map(|a| format!("{a}/{}", b.name)));
        }
        names.extend(self.session.memory().iter().map(|(n, _)| n.to_string()));
        names.extend(
            self.session
                .tools()
                .iter()
                .map(|t| format!("tool/{}", t.name)),
        );
        names.extend(self.session.data().keys().map(|n| format!("data/{n}")));
        names.extend(["*1", "*2", "*3", "*e"].map(String::from));
        names.sort();
        names.dedup();
        names
    }

    /// Replaces the session (`:load`).
    fn replace_session(&mut self, mut session: Session, path: PathBuf, own_limits: Option<Limits>) {
        session.set_interrupt(Some(self.interrupt.clone()));
        self.origin = origin_of(&path);
        self.session = session;
        self.path = Some(path);
        self.own_limits = own_limits;
        self.last_error = None;
        self.last_value = None;
        self.last_stats = None;
    }
}

/// Opens a session file for the REPL: `max_turns` and limits from
/// `config`, then its turns replayed. Also returns the file's own limits.
pub fn open_session(
    path: &Path,
    config: &ReplConfig,
) -> Result<(Session, Option<Limits>), SessionError> {
    let text = std::fs::read_to_string(path).map_err(|e| SessionError::File {
        file: path.to_path_buf(),
        place: None,
        message: format!("cannot read the session file: {e}"),
    })?;
    let mut file = SessionFile::parse(&text, path)?;
    if let Some(n) = config.max_turns {
        file.max_turns = n;
    }
    let limits = config.limits(file.limits.clone().unwrap_or_default());
    let tools = if config.live {
        ReplayTools::Live
    } else {
        ReplayTools::Recorded
    };
    let mut session = file.session_with(path, Some(&text), Some(limits), tools)?;
    session.set_stop_at_max_turns(config.max_turns.is_some());
    session.set_budget_tokens(config.budget_tokens);
    file.run_turns(&mut session, tools)?;
    Ok((session, file.limits))
}

/// A session whose replayed turns ended it with `return` or `fail` cannot
/// take an entry: take that last turn back (the file is unchanged), so the
/// REPL opens where the user can type; the note says what was taken back.
pub(crate) fn reopen_before_end(session: &mut Session) -> Option<String> {
    let (Status::Returned(v) | Status::Failed(v)) = session.status().clone() else {
        return None;
    };
    let n = session.turns().len();
    let how = format!(
        "{} {}",
        session.status().state(),
        to_clojure(&v, Some(5), Some(80)).0
    );
    session.truncate_turns(n - 1);
    Some(format!(
        "the file's turn {n} {how}; the REPL opens before it so you can take that turn \
         yourself (the file is unchanged)"
    ))
}

/// A session file's path and JSON (keys in file order), if it reads.
fn origin_of(path: &Path) -> Option<(PathBuf, serde_json::Value)> {
    let text = std::fs::read_to_string(path).ok()?;
    let json = serde_json::from_str(&text).ok()?;
    Some((path.to_path_buf(), json))
}

/// The LLM response an entry stands for: as typed when R-70 finds its
/// program, else the code in a fence.
fn as_response(text: &str) -> String {
    if extract_program(text).is_some() {
        text.to_string()
    } else {
        format!("```clojure\n{text}\n```")
    }
}

/// Whether `form` uses the symbol `*e`.
fn mentions_star_e(form: &Form) -> bool {
    let mut stack = vec![form];
    while let Some(f) = stack.pop() {
        match &f.kind {
            FormKind::Symbol(s) if s == "*e" => return true,
            FormKind::List(items)
            | FormKind::Vector(items)
            | FormKind::Map(items)
            | FormKind::Set(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests;
