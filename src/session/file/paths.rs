//! Reading a session file within its bound, and the paths it names.

use super::*;

/// A session file's text, read with [`MAX_FILE_BYTES`] as its bound.
pub(super) fn read_file(path: &Path) -> Result<String, SessionError> {
    let fail = |message: String| SessionError::File {
        file: path.to_path_buf(),
        place: None,
        message,
    };
    let f = std::fs::File::open(path)
        .map_err(|e| fail(format!("cannot read the session file: {e}")))?;
    match read_at_most(f, MAX_FILE_BYTES) {
        Ok(Some(bytes)) => String::from_utf8(bytes)
            .map_err(|e| fail(format!("the session file is not UTF-8 text ({e})"))),
        Ok(None) => Err(fail(format!(
            "the session file is larger than the limit of {MAX_FILE_BYTES} bytes; stopped reading there"
        ))),
        Err(e) => Err(fail(format!("cannot read the session file: {e}"))),
    }
}

/// All of `reader` if it holds at most `limit` bytes (`None`: more),
/// gathered in 1 MiB pieces joined only at the end (a growing buffer
/// would hold twice the limit while it is copied, and more with its
/// doubling).
pub(crate) fn read_at_most(
    mut reader: impl Read,
    limit: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let cap = limit.saturating_add(1);
    const PIECE: usize = 1 << 20;
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    let mut total = 0;
    while total < cap {
        let mut piece = vec![0u8; PIECE.min(cap - total)];
        let mut filled = 0;
        while filled < piece.len() {
            match reader.read(&mut piece[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        piece.truncate(filled);
        total += filled;
        let ended = filled == 0 || filled < PIECE.min(cap - (total - filled));
        pieces.push(piece);
        if ended {
            break;
        }
    }
    if total > limit {
        return Ok(None);
    }
    Ok(Some(pieces.concat()))
}

/// The directory a file at `path` is in (`.` for a bare name).
pub(super) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `p` made absolute against the current directory, `.` and `..` folded.
pub(super) fn absolute(p: &Path) -> PathBuf {
    normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// `.` and `..` folded lexically.
pub(super) fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `target` relative to directory `base` (both absolute, normalized);
/// `None` when they share no root.
pub(super) fn relative_to(target: &Path, base: &Path) -> Option<PathBuf> {
    let t: Vec<_> = target.components().collect();
    let b: Vec<_> = base.components().collect();
    if t.first() != b.first() {
        return None;
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c.as_os_str());
    }
    Some(rel)
}
