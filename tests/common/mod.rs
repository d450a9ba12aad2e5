//! Helpers shared by the integration tests: where the example sessions
//! are, and [`Scratch`], the temporary files and directories a test owns.
#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

/// The `lisp-examples/` directory.
pub fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lisp-examples")
}

/// The example session files (JSON objects with a `mission`), sorted.
pub fn example_sessions() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(examples())
        .expect("lisp-examples/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json"))
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("readable example");
            serde_json::from_str::<Json>(&text).is_ok_and(|json| json.get("mission").is_some())
        })
        .collect();
    out.sort();
    out
}

/// A path under the system's temporary directory that one test owns:
/// `NAME-PID`, the test binary's process id making it unique per run and
/// `NAME` (`ptc-` and the test's name) unique within the binary, as tests
/// run in parallel. Dropping it removes whatever is there — a directory
/// with its contents, or a file — so a test leaves nothing behind whether
/// it passes or panics: bind it to a named variable (`let dir = …`, never
/// `let _ = …`) that lives as long as anything, a child process included,
/// uses the path. It derefs to the [`Path`].
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty directory (a leftover of an earlier run removed first).
    pub fn dir(name: &str) -> Scratch {
        let scratch = Scratch::path(name);
        std::fs::create_dir_all(&scratch.0)
            .unwrap_or_else(|e| panic!("scratch directory {}: {e}", scratch.0.display()));
        scratch
    }

    /// A path where nothing is yet (a leftover of an earlier run removed),
    /// for the test or a program it runs to create a file or directory at.
    pub fn path(name: &str) -> Scratch {
        let scratch = Scratch(std::env::temp_dir().join(format!("{name}-{}", std::process::id())));
        scratch.remove();
        scratch
    }

    /// The same scratch, its path canonical (symbolic links resolved).
    pub fn canonical(mut self) -> Scratch {
        self.0 = self.0.canonicalize().expect("the scratch path exists");
        self
    }

    fn remove(&self) {
        let removed = match std::fs::symlink_metadata(&self.0) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&self.0),
            Ok(_) => std::fs::remove_file(&self.0),
            Err(e) => Err(e),
        };
        match removed {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                // No panic: this may run while a failed test unwinds.
                eprintln!("could not remove {}: {e}", self.0.display());
            }
            _ => {}
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.remove();
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}
