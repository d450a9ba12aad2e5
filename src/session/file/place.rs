//! Where in a session file's text a problem is: the key path of an
//! offset, the offset of a key path, journals of `ptc mcp --out`.

use super::*;

pub(super) fn display_path(path: &[&str]) -> String {
    let mut s = String::new();
    for (i, p) in path.iter().enumerate() {
        if p.starts_with('[') {
            s.push_str(p);
        } else {
            if i > 0 {
                s.push('.');
            }
            s.push_str(p);
        }
    }
    s
}

/// Byte offset of serde_json's 1-based line and column.
/// A journal's session file (see [`SessionFile::parse`]), or `None` when
/// `text` is not one (its first value is not a session file without
/// turns).
pub(super) fn parse_journal(text: &str, file: &Path) -> Option<Result<SessionFile, SessionError>> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Json>();
    let header = match values.next() {
        Some(Ok(Json::Object(o))) if !o.contains_key("turns") => o,
        _ => return None,
    };
    let mut f: SessionFile = serde_json::from_value(Json::Object(header)).ok()?;
    let err = |offset: usize, message: String| SessionError::File {
        file: file.to_path_buf(),
        place: Some(crate::error::line_col(text, offset)),
        message,
    };
    let mut calls = Vec::new();
    loop {
        let at = values.byte_offset();
        let at = at + text[at..].len() - text[at..].trim_start().len();
        let line = match values.next() {
            None => break,
            Some(Ok(Json::Object(o))) => o,
            Some(Ok(_)) => {
                return Some(Err(err(
                    at,
                    "a journal's turn must be an object {\"turn\": RAW, \"tool_calls\": [...]}"
                        .into(),
                )))
            }
            Some(Err(e)) => return Some(Err(err(at, format!("invalid JSON in the journal: {e}")))),
        };
        if let Some(k) = line.keys().find(|k| *k != "turn" && *k != "tool_calls") {
            return Some(Err(err(
                at,
                format!(
                    "unknown key {k:?} in a journal's turn (it has \"turn\" and \"tool_calls\")"
                ),
            )));
        }
        let Some(Json::String(turn)) = line.get("turn") else {
            return Some(Err(err(
                at,
                "a journal's turn needs \"turn\": the raw response, a string".into(),
            )));
        };
        let recorded: Vec<CallFile> = match line.get("tool_calls") {
            None => Vec::new(),
            Some(v) => match serde_json::from_value(v.clone()) {
                Ok(c) => c,
                Err(e) => return Some(Err(err(at, format!("tool_calls: {e}")))),
            },
        };
        f.turns.push(turn.clone());
        calls.push(recorded);
    }
    if !f.tools.is_empty() || calls.iter().any(|c| !c.is_empty()) {
        f.tool_calls = calls;
    }
    f.max_turns = f.max_turns.max(f.turns.len());
    Some(Ok(f))
}

pub(super) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_len = text[start..].find('\n').unwrap_or(text.len() - start);
    start + column.min(line_len)
}

pub(super) enum Frame {
    Object { key: Option<String>, want_key: bool },
    Array { index: usize },
}

/// Walks JSON text, tracking where it is; `visit` sees every object key
/// with the path to it and the key's byte offset, and stops the walk by
/// returning true. Returns the stack where the walk stopped.
pub(super) fn walk_json(
    text: &str,
    until: usize,
    visit: &mut dyn FnMut(&[Frame], &str, usize) -> bool,
) -> Vec<Frame> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len().min(until) {
        match bytes[i] {
            b'{' => stack.push(Frame::Object {
                key: None,
                want_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { want_key, .. }) => *want_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let raw = &text[start..(i + 1).min(text.len())];
                if let Some(Frame::Object {
                    key,
                    want_key: true,
                }) = stack.last_mut()
                {
                    let k: String = serde_json::from_str(raw).unwrap_or_default();
                    *key = Some(k.clone());
                    if visit(&stack, &k, start) {
                        return stack;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

pub(super) fn stack_path(stack: &[Frame]) -> Vec<String> {
    stack
        .iter()
        .filter_map(|f| match f {
            Frame::Object { key, .. } => key.clone(),
            Frame::Array { index } => Some(format!("[{index}]")),
        })
        .collect()
}

/// The key path (`tools.search.signature`) at a byte offset.
pub(super) fn path_at(text: &str, offset: usize) -> Option<String> {
    let stack = walk_json(text, offset, &mut |_, _, _| false);
    let parts = stack_path(&stack);
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    Some(display_path(&refs))
}

/// The byte offset of the key at `path` (array indices as `[i]`).
pub(super) fn find_key(text: &str, path: &[&str]) -> Option<usize> {
    let mut found = None;
    walk_json(text, text.len(), &mut |stack, _, at| {
        let parts = stack_path(stack);
        if parts.len() == path.len() && parts.iter().zip(path).all(|(a, b)| a == b) {
            found = Some(at);
            true
        } else {
            false
        }
    });
    found.or_else(|| {
        // an array element: point at its parent key
        match path.split_last() {
            Some((last, rest)) if last.starts_with('[') => find_key(text, rest),
            _ => None,
        }
    })
}
