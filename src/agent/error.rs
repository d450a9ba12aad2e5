//! [`LlmError`]: why a model gave no response, typed by what the caller
//! can do about it (retry, fix the request, fix the key).

use std::fmt;

/// The kind of an [`LlmError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlmErrorKind {
    /// The provider refused the request for good (400, 404, 422 …): a bad
    /// model name, too many tokens.
    Rejected,
    /// 401 or 403: the key is missing, wrong or lacks access.
    Auth,
    /// 429 still after the retries.
    RateLimited,
    /// 5xx still after the retries.
    Server,
    /// The connection failed or dropped (still after the retries).
    Connection,
    /// The connect or request timeout passed (still after the retries).
    Timeout,
    /// A 2xx answer that is not the provider's format: empty, not JSON,
    /// no message text.
    BadResponse,
    /// The client is misconfigured (no key in the environment, bad URL).
    Config,
    /// A scripted model ran out of responses.
    ScriptEnded,
}

impl LlmErrorKind {
    /// Whether trying the same request again may succeed.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            LlmErrorKind::RateLimited
                | LlmErrorKind::Server
                | LlmErrorKind::Connection
                | LlmErrorKind::Timeout
        )
    }

    /// The kind's name in progress lines and `ptc eval`'s table
    /// (`rate-limited`, `auth` …).
    pub fn name(self) -> &'static str {
        match self {
            LlmErrorKind::Rejected => "rejected",
            LlmErrorKind::Auth => "auth",
            LlmErrorKind::RateLimited => "rate-limited",
            LlmErrorKind::Server => "server-error",
            LlmErrorKind::Connection => "connection",
            LlmErrorKind::Timeout => "timeout",
            LlmErrorKind::BadResponse => "bad-response",
            LlmErrorKind::Config => "config",
            LlmErrorKind::ScriptEnded => "script-ended",
        }
    }
}

/// A model call that gave no response. The message never holds the API
/// key (provider messages that echo it are redacted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmError {
    /// What went wrong, and so whether a retry can help.
    pub kind: LlmErrorKind,
    /// The HTTP status, when there was one.
    pub status: Option<u16>,
    /// The provider's own message when it sent one, else ours.
    pub message: String,
    /// Requests sent (1 when the first failed for good).
    pub attempts: u32,
    /// The connection was refused: nothing listens at the address (not
    /// retried against this machine or a private network).
    pub refused: bool,
}

impl LlmError {
    /// An error of `kind` after one attempt, without HTTP status.
    pub fn new(kind: LlmErrorKind, message: impl Into<String>) -> LlmError {
        LlmError {
            kind,
            status: None,
            message: message.into(),
            attempts: 1,
            refused: false,
        }
    }

    /// The same error, recording the HTTP status the provider answered.
    pub fn with_status(mut self, status: u16) -> LlmError {
        self.status = Some(status);
        self
    }
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        if let Some(s) = self.status {
            write!(f, " (HTTP {s})")?;
        }
        write!(f, ": {}", self.message)?;
        if self.attempts > 1 {
            write!(f, " (after {} attempts)", self.attempts)?;
        }
        Ok(())
    }
}

impl std::error::Error for LlmError {}
