//! A turn as recorded, where a session stands, and what can go wrong
//! driving one.

use super::*;

/// `max_turns` when not given.
pub const DEFAULT_MAX_TURNS: usize = 5;

/// Where a session stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// More turns may run.
    Running,
    /// A turn called `(return v)`.
    Returned(Value),
    /// A turn called `(fail reason)`.
    Failed(Value),
    /// `max_turns` turns ran without `return` or `fail`.
    Exhausted,
}

impl Status {
    /// Whether the session can take another turn.
    pub fn is_running(&self) -> bool {
        matches!(self, Status::Running)
    }
    /// `running`, `returned`, `failed` or `exhausted` (`session.md`).
    pub fn state(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Returned(_) => "returned",
            Status::Failed(_) => "failed",
            Status::Exhausted => "exhausted",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.state())
    }
}

/// One turn, as recorded (immutable once made). Serializes (serde) as its
/// [`json::TurnJson`], the turn of `ptc replay --format json`.
#[derive(Clone)]
pub struct Turn {
    /// 1-based.
    pub number: usize,
    /// The full LLM output, prose included.
    pub raw_response: String,
    /// The program extracted from it (cleaned, R-70); `None` when the
    /// response held no code.
    pub program: Option<String>,
    /// The value of the last form (or of `return`), or the error.
    pub result: Result<Value, Error>,
    /// The turn ended with `(return v)`.
    pub returned: bool,
    /// One entry per output line, in order: each `println` call ends one
    /// (newlines in its text stay in it), as does each newline `print`
    /// writes.
    pub prints: Vec<String>,
    /// Tool calls in call order, failed ones too.
    pub tool_calls: Vec<ToolCall>,
    /// user/ after the turn (unchanged if the turn failed); shares structure
    /// with the previous turn's snapshot.
    pub memory: Globals,
    /// Names this turn defined or redefined, in user/ order.
    pub defined: Vec<String>,
    /// False when extraction, parsing or evaluation failed.
    pub success: bool,
    /// Remarks on how the program was read (surplus closing brackets at
    /// the end ignored, …); not errors.
    pub notes: Vec<String>,
    /// What the LLM reported for `raw_response` (model, usage, latency),
    /// when the turn came from an LLM ([`Session::run_llm_turn`]).
    pub llm: Option<Box<LlmInfo>>,
    /// The function calls of a tool-protocol reply ([`Protocol::Tool`]);
    /// `None` for a text reply.
    pub calls: Option<Vec<ReplyCall>>,
    /// Why the reply gave no program to run (empty, cut off, no code,
    /// protocol), when it did not (`session/reply.rs`).
    pub issue: Option<ReplyIssue>,
    /// The calls a paused turn waits on (ACT-2, `act.rs`): empty unless
    /// the turn paused ([`Turn::is_paused`]).
    pub pending: Vec<PendingCall>,
}

impl Turn {
    /// Whether the turn paused at calls awaiting approval (`paused`); it
    /// changed nothing and [`Session::resume`] continues it.
    pub fn is_paused(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The error, if the turn failed.
    pub fn error(&self) -> Option<&Error> {
        self.result.as_ref().err()
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("number", &self.number)
            .field("program", &self.program)
            .field("result", &self.result)
            .field("returned", &self.returned)
            .field("prints", &self.prints)
            .field("tool_calls", &self.tool_calls)
            .field("defined", &self.defined)
            .field("success", &self.success)
            .field("llm", &self.llm)
            .finish_non_exhaustive()
    }
}

/// What can go wrong building or driving a session.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionError {
    /// An invalid definition: bad signature, duplicate or bad name, bad
    /// `data_lisp` literal, `max_turns` of 0.
    Invalid(String),
    /// `run_turn` after the session ended.
    Ended(Status),
    /// A session file problem: the file, the place (line and column) when
    /// known, and a message that names the key.
    File {
        /// The session file's path.
        file: PathBuf,
        /// 1-based line and column of the problem, when known.
        place: Option<(usize, usize)>,
        /// What is wrong, naming the key.
        message: String,
    },
    /// Replaying a recorded turn went wrong: the program's tool calls no
    /// longer match the recording, or the recording does not read.
    Recording {
        /// The 1-based turn.
        turn: usize,
        /// `call N (tool/T): the recording no longer matches: …`.
        message: String,
    },
    /// A new turn, or a preview, while the last turn is paused (ACT-2).
    Paused,
    /// [`Session::resume`] without a paused turn.
    NothingToResume,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Invalid(m) => f.write_str(m),
            SessionError::Ended(s) => {
                write!(f, "the session has ended ({s}); no more turns can run")
            }
            SessionError::Paused => f.write_str(
                "the last turn is paused at calls awaiting approval; resume it first \
                 (`ptc resume FILE --approve ID|all` or `--deny ID|all`, Python \
                 session.resume(approve=..., deny=...))",
            ),
            SessionError::NothingToResume => {
                f.write_str("there is no paused or unfinished turn to resume")
            }
            SessionError::File {
                file,
                place: Some((line, column)),
                message,
            } => write!(f, "{}:{line}:{column}: {message}", file.display()),
            SessionError::File {
                file,
                place: None,
                message,
            } => write!(f, "{}: {message}", file.display()),
            SessionError::Recording { turn, message } => write!(f, "turn {turn}, {message}"),
        }
    }
}

impl std::error::Error for SessionError {}
