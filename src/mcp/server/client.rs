//! One client's session: its [`Session`], the turns it runs (one at a time,
//! on a blocking thread, interruptible) and its recording (`--out`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::Template;
use crate::session::{self, Feedback, Session};

/// What one `run_ptc_lisp` call gives back.
pub struct Ran {
    /// The turn's feedback (hidden data redacted).
    pub feedback: Feedback,
    /// Names the turn defined.
    pub defined: Vec<String>,
    /// The error's line and column in the program.
    pub position: Option<(usize, usize)>,
}

/// A client's session.
pub struct ClientSession {
    template: Arc<Template>,
    inner: Mutex<Inner>,
    record: Option<PathBuf>,
}

struct Inner {
    session: Session,
    /// How many times `ptc_reset` ran.
    resets: usize,
}

/// Numbers the recordings of one server process.
static NEXT: AtomicUsize = AtomicUsize::new(1);

impl ClientSession {
    /// A fresh session from `template`.
    pub fn new(template: Arc<Template>) -> Result<ClientSession, String> {
        let session = template.session()?;
        let record = template.options().out_dir.as_ref().map(|dir| {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            dir.join(format!("mcp-{secs}-{}-{n}.json", std::process::id()))
        });
        Ok(ClientSession {
            template,
            inner: Mutex::new(Inner { session, resets: 0 }),
            record,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic inside a turn is caught by the interpreter; a poisoned
        // lock still holds a consistent session (turns are atomic).
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `program` as the next turn; `interrupt`, once set, stops it.
    /// Blocking: call it off the async runtime.
    pub fn run(&self, program: &str, interrupt: Arc<AtomicBool>) -> Result<Ran, String> {
        let mut inner = self.lock();
        let session = &mut inner.session;
        session.set_interrupt(Some(interrupt));
        // A program sent in a code fence (as models like to) is taken out
        // of it (R-70); anything else runs as written.
        let fenced = program.lines().any(|l| l.trim_start().starts_with("```"));
        let turn = if fenced {
            session.run_turn(program)
        } else {
            session.run_program(program)
        };
        let ran = turn.map(|turn| {
            (
                turn.defined.clone(),
                turn.error().and_then(|e| e.line_col()),
            )
        });
        session.set_interrupt(None);
        let (defined, position) = ran.map_err(|e| e.to_string())?;
        let feedback =
            session::turn_feedback(session).ok_or_else(|| "the turn left no record".to_string())?;
        let saved = self.save(&inner);
        if let Err(e) = saved {
            eprintln!("ptc mcp: {e}");
        }
        Ok(Ran {
            feedback,
            defined,
            position,
        })
    }

    /// The `tool/`, `data/` and `user/` listing.
    pub fn listing(&self) -> String {
        session::listing(&self.lock().session)
    }

    /// Drops every turn (and so every definition); with a recording, the
    /// turns before stay in their own file.
    pub fn reset(&self) -> Result<usize, String> {
        let mut inner = self.lock();
        let before = inner.session.turns().len();
        if before == 0 {
            return Ok(0);
        }
        if let Some(path) = &self.record {
            inner.resets += 1;
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let old = path.with_file_name(format!("{stem}-before-reset-{}.json", inner.resets));
            if let Err(e) = std::fs::rename(path, &old) {
                eprintln!("ptc mcp: cannot keep {}: {e}", path.display());
            }
        }
        // A fresh session: also forgets what the interpreter keeps beside
        // user/ (*1 *2 *3, recorded return values, hidden marks).
        inner.session = self.template.session()?;
        Ok(before)
    }

    /// Writes the recording, when there is one.
    fn save(&self, inner: &Inner) -> Result<(), String> {
        let Some(path) = &self.record else {
            return Ok(());
        };
        let mut file = inner.session.to_file_at(path);
        file.max_turns = file.max_turns.max(file.turns.len());
        let json = serde_json::to_string_pretty(&file)
            .map_err(|e| format!("cannot write the session as JSON: {e}"))?;
        write_atomically(path, &(json + "\n"))
            .map_err(|e| format!("{}: cannot write the recording: {e}", path.display()))
    }
}

/// `text` to `path` through a temporary file beside it and a rename.
fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
