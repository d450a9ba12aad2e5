//! Secrets taken out of everything an MCP server sends back (rule MCP-2):
//! the values `${NAME}` expanded to in a server's `env` or `headers` never
//! reach a prompt, a saved file, a log line or an error. Redacted as soon as
//! they are read, before anything is cut or kept: tool names (a tool whose
//! name holds one is skipped), descriptions, schemas, results (every string
//! and key), error texts, the tail of its stderr.
//!
//! A secret of at least [`MIN_SECRET`] bytes is replaced by [`REDACTED`]
//! wherever it appears, and so is any piece of it of [`MIN_PIECE`] bytes or
//! more (a text cut in the middle of a secret would otherwise show most of
//! it), each run of them by one `***`. Shorter values (`1`, `true`) are
//! settings, not secrets, and stay.

use std::borrow::Cow;
use std::collections::HashSet;

/// The shortest expanded value treated as a secret.
pub const MIN_SECRET: usize = 4;
/// The shortest piece of a secret that is redacted.
pub const MIN_PIECE: usize = 8;
/// What replaces a secret (or a piece of it).
pub const REDACTED: &str = "***";

/// The secrets of one server, ready to search for.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    /// Secrets shorter than `MIN_PIECE` bytes, searched whole.
    short: Vec<String>,
    /// Every `MIN_PIECE`-byte window of the longer ones ([`window`]).
    windows: HashSet<u64>,
    /// The longest secret's length (a tail kept for redaction keeps this
    /// much more).
    longest: usize,
}

impl Redactor {
    /// A redactor of `secrets` (those shorter than [`MIN_SECRET`] are not).
    pub fn new<'a>(secrets: impl IntoIterator<Item = &'a str>) -> Redactor {
        let mut r = Redactor::default();
        for s in secrets {
            if s.len() < MIN_SECRET {
                continue;
            }
            r.longest = r.longest.max(s.len());
            if s.len() < MIN_PIECE {
                r.short.push(s.to_string());
            } else {
                for w in s.as_bytes().windows(MIN_PIECE) {
                    r.windows.insert(window(w));
                }
            }
        }
        r
    }

    /// Whether there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.short.is_empty() && self.windows.is_empty()
    }

    /// The longest secret's length in bytes.
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// Whether `text` holds a secret or a piece of one.
    pub fn finds(&self, text: &str) -> bool {
        matches!(self.text(text), Cow::Owned(_))
    }

    /// `text` with every secret and run of secret pieces replaced by `***`.
    pub fn text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.is_empty() {
            return Cow::Borrowed(text);
        }
        let bytes = text.as_bytes();
        // Byte ranges covered by a secret or a window of one, merged.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        if !self.windows.is_empty() && bytes.len() >= MIN_PIECE {
            for start in 0..=bytes.len() - MIN_PIECE {
                if self
                    .windows
                    .contains(&window(&bytes[start..start + MIN_PIECE]))
                {
                    ranges.push((start, start + MIN_PIECE));
                }
            }
        }
        for s in &self.short {
            for (at, _) in text.match_indices(s.as_str()) {
                ranges.push((at, at + s.len()));
            }
        }
        if ranges.is_empty() {
            return Cow::Borrowed(text);
        }
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (s, e) in ranges {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (mut s, mut e) in merged {
            while !text.is_char_boundary(s) {
                s -= 1;
            }
            while e < text.len() && !text.is_char_boundary(e) {
                e += 1;
            }
            let s = s.max(at);
            out.push_str(&text[at..s]);
            out.push_str(REDACTED);
            at = e.max(s);
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// `json` with every string and key redacted (iterative).
    pub fn json(&self, json: &mut serde_json::Value) {
        use serde_json::Value as Json;
        if self.is_empty() {
            return;
        }
        let mut todo: Vec<&mut Json> = vec![json];
        while let Some(j) = todo.pop() {
            match j {
                Json::String(s) => {
                    if let Cow::Owned(o) = self.text(s) {
                        *s = o;
                    }
                }
                Json::Array(items) => todo.extend(items.iter_mut()),
                Json::Object(obj) => {
                    if obj.keys().any(|k| self.finds(k)) {
                        let old = std::mem::take(obj);
                        for (k, v) in old {
                            obj.insert(self.text(&k).into_owned(), v);
                        }
                    }
                    todo.extend(obj.values_mut());
                }
                _ => {}
            }
        }
    }
}

/// `MIN_PIECE` bytes as one number.
fn window(w: &[u8]) -> u64 {
    w.iter().fold(0, |a, b| (a << 8) | u64::from(*b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_their_pieces_are_redacted() {
        let r = Redactor::new(["tok-0123456789abcdef", "pw12", "1"]);
        assert_eq!(r.text("Bearer tok-0123456789abcdef!"), "Bearer ***!");
        // cut in the middle: the piece left is still redacted
        assert_eq!(r.text("...89abcdef and"), "...*** and");
        assert_eq!(r.text("key tok-0123 x"), "key *** x");
        assert_eq!(r.text("pw12 and 1 stay? 1"), "*** and 1 stay? 1");
        assert_eq!(
            r.text("tok-012"),
            "tok-012",
            "under 8 bytes of the long one"
        );
        assert!(matches!(r.text("nothing"), Cow::Borrowed(_)));
        assert_eq!(r.longest(), 20);
        let mut j = serde_json::json!({"pw12": ["a pw12", {"k": "tok-0123456789abcdef"}]});
        r.json(&mut j);
        assert_eq!(j.to_string(), r#"{"***":["a ***",{"k":"***"}]}"#);
        assert!(Redactor::new(["abc"]).is_empty());
    }
}
