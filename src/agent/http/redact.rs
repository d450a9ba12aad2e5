//! The API key taken out of everything a provider sends back: its text,
//! `model`, `usage`, error bodies and `Location` headers are redacted as
//! soon as they are read, before anything is cut, stored or printed. Any
//! piece of the key of [`MIN_PIECE`] bytes or more is replaced (a body cut
//! at 500 characters would otherwise show most of the key), each run of
//! them by one `[redacted]`.

use serde_json::Value as Json;

/// The shortest piece of the key that is redacted.
pub const MIN_PIECE: usize = 8;

/// What replaces the key (or a piece of it).
pub const REDACTED: &str = "[redacted]";

/// The key's pieces, ready to search for.
pub struct Redactor {
    /// Every `MIN_PIECE`-byte window of the key (the whole key when shorter).
    windows: std::collections::HashSet<Vec<u8>>,
    width: usize,
}

impl Redactor {
    pub fn new(key: Option<&str>) -> Redactor {
        let key = key.unwrap_or("").as_bytes();
        let width = MIN_PIECE.min(key.len());
        let windows = if key.is_empty() {
            Default::default()
        } else {
            key.windows(width).map(<[u8]>::to_vec).collect()
        };
        Redactor { windows, width }
    }

    /// `text` with every run of key pieces replaced by `[redacted]`.
    pub fn text(&self, text: &str) -> String {
        if self.windows.is_empty() || text.len() < self.width {
            return text.to_string();
        }
        let bytes = text.as_bytes();
        // Byte ranges covered by a window of the key, merged.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for start in 0..=bytes.len() - self.width {
            if self.windows.contains(&bytes[start..start + self.width]) {
                let end = start + self.width;
                match ranges.last_mut() {
                    Some(last) if start <= last.1 => last.1 = last.1.max(end),
                    _ => ranges.push((start, end)),
                }
            }
        }
        if ranges.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (mut s, mut e) in ranges {
            while !text.is_char_boundary(s) {
                s -= 1;
            }
            while !text.is_char_boundary(e) {
                e += 1;
            }
            if s < at {
                s = at;
            }
            out.push_str(&text[at..s]);
            out.push_str(REDACTED);
            at = e;
        }
        out.push_str(&text[at..]);
        out
    }

    /// `json` with its strings (and object keys) redacted; iterative.
    pub fn json(&self, json: Json) -> Json {
        if self.windows.is_empty() {
            return json;
        }
        // serde_json values from a parsed body are bounded by its 128-level
        // recursion limit; walking the printed text is simpler and total.
        let printed = json.to_string();
        let redacted = self.text(&printed);
        if redacted == printed {
            return json;
        }
        serde_json::from_str(&redacted).unwrap_or(Json::String(REDACTED.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_and_any_piece_of_eight_or_more_are_redacted() {
        let r = Redactor::new(Some("sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"));
        assert_eq!(
            r.text("key sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH end"),
            "key [redacted] end"
        );
        // A body cut in the middle of the key.
        assert_eq!(
            r.text("...xx sk-abcdefghijklmnopqrstuvwxyz01"),
            "...xx [redacted]"
        );
        assert_eq!(r.text("mnopqrst and sk-abcd"), "[redacted] and sk-abcd");
        let none = Redactor::new(None);
        assert_eq!(none.text("sk-abcdefgh"), "sk-abcdefgh");
    }
}
