//! Reading the command line's input files with a bound: a program, a
//! `--data` JSON file or a session file larger than its limit is refused
//! while it is read (`/dev/zero`, `yes | ptc run -`), never read whole
//! first.
//!
//! Decisions: a program may be at most the source limit in force
//! (`max_source_bytes`: the flags over the session's or the default
//! limits), or [`MAX_INPUT_FILE_BYTES`] with no source limit; data and
//! session files at most [`MAX_INPUT_FILE_BYTES`]. Beyond it: an input
//! error (exit 2) naming the file and the limit.

use std::io::Read;
use std::path::Path;

/// The most bytes of a `--data` file, a session file, or a program when
/// no source limit is set: 256 MiB (the library's bound on session files).
pub const MAX_INPUT_FILE_BYTES: usize = crate::session::file::MAX_FILE_BYTES;

use crate::session::file::read_at_most;

/// Reads `path` (`-`: standard input) as UTF-8 text of at most `limit`
/// bytes; `what` names it in errors ("the program", "the data file").
pub fn read_bounded(path: &Path, limit: usize, what: &str, raise: &str) -> Result<String, String> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let reader: Box<dyn Read> = if stdin {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        }
    };
    let bytes = match read_at_most(reader, limit) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Err(format!(
                "{name}: {what} is larger than {raise} of {limit} bytes; stopped reading there"
            ))
        }
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    String::from_utf8(bytes).map_err(|e| format!("{name}: {what} is not UTF-8 text ({e})"))
}

/// The limits a session file sets, if it can be read.
pub fn session_limits(path: &Path) -> Option<crate::eval::Limits> {
    let text = read_json_file(path, "the session file").ok()?;
    crate::session::SessionFile::parse(&text, path).ok()?.limits
}

/// A `--data` or session file.
pub fn read_json_file(path: &Path, what: &str) -> Result<String, String> {
    read_bounded(path, MAX_INPUT_FILE_BYTES, what, "the input limit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_refuses_one_byte_more() {
        let text = vec![b'x'; (1 << 20) + 5];
        let at = |n: usize| read_at_most(&text[..n], 1 << 20).unwrap();
        assert_eq!(at(0), Some(Vec::new()));
        assert_eq!(at(1 << 20).map(|b| b.len()), Some(1 << 20));
        assert_eq!(at((1 << 20) + 1), None);
        assert_eq!(read_at_most(&text[..3], 2).unwrap(), None);
        assert_eq!(read_at_most(&text[..2], 2).unwrap(), Some(b"xx".to_vec()));
    }
}
