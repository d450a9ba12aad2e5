//! clojure.string's substring tests and searches: `starts-with? ends-with?
//! includes? index-of last-index-of` (indices in characters).

use super::*;

fn two_strings<'a>(fname: &str, args: &'a [Value]) -> Result<(&'a str, &'a str)> {
    Ok((text(fname, &args[0])?, text(fname, &args[1])?))
}

/// clojure.string's `starts-with?`, `ends-with?` and `includes?`: the
/// answer for two texts, and the steps it charges beyond the call's own
/// for a haystack of `len` bytes. The builtins are these; a compiled call
/// with a constant needle answers a text in place through the same one
/// ([`text_test`], `eval/compile/call.rs`), the test inlined there (a
/// `match` on the kind, not a call through a pointer).
#[derive(Clone, Copy)]
pub(crate) enum TextTest {
    StartsWith,
    EndsWith,
    Includes,
}

impl TextTest {
    fn name(self) -> &'static str {
        match self {
            TextTest::StartsWith => "starts-with?",
            TextTest::EndsWith => "ends-with?",
            TextTest::Includes => "includes?",
        }
    }

    /// Whether `s` passes the test against `p`.
    #[inline(always)]
    pub(crate) fn test(self, s: &str, p: &str) -> bool {
        match self {
            TextTest::StartsWith => s.starts_with(p),
            TextTest::EndsWith => s.ends_with(p),
            TextTest::Includes => contains(s.as_bytes(), p.as_bytes()),
        }
    }

    /// The steps the test charges for a haystack of `len` bytes.
    #[inline(always)]
    pub(crate) fn ticks(self, len: usize) -> u64 {
        match self {
            TextTest::StartsWith | TextTest::EndsWith => 1,
            TextTest::Includes => scan_ticks(len),
        }
    }

    fn call(self, interp: &mut Interp, args: &[Value]) -> Result<Value> {
        let (s, p) = two_strings(self.name(), args)?;
        interp.tick(self.ticks(s.len()))?;
        Ok(Value::Bool(self.test(s, p)))
    }
}

/// The text test `b` is, when it is one of clojure.string's through its
/// plain entry.
pub(crate) fn text_test(b: &Builtin) -> Option<TextTest> {
    if b.ns != Ns::String || b.owned.is_some() {
        return None;
    }
    [TextTest::StartsWith, TextTest::EndsWith, TextTest::Includes]
        .into_iter()
        .find(|t| t.name() == b.name)
}

pub(super) fn starts_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    TextTest::StartsWith.call(interp, args)
}

pub(super) fn ends_with(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    TextTest::EndsWith.call(interp, args)
}

pub(super) fn includes(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    TextTest::Includes.call(interp, args)
}

/// The haystacks at most this long are searched by [`find_short`].
const SHORT: usize = 64;

/// Whether `needle` occurs in `hay`. A short haystack (a name, a line of a
/// few words) is scanned for the needle's first byte ([`find_short`]):
/// setting up memchr's searchers costs more than that scan. A longer one
/// goes to memchr's searcher (the std one sets up a two-way search per
/// call).
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    if hay.len() <= SHORT {
        find_short(hay, needle)
    } else {
        memchr::memmem::find(hay, needle).is_some()
    }
}

/// [`contains`] by the needle's first byte, eight bytes at a time
/// ([`bytes_equal`]), then the rest compared (memchr's setup costs more
/// than it saves on a few dozen bytes).
fn find_short(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let Some(last) = hay.len().checked_sub(needle.len()) else {
        return false;
    };
    let starts = &hay[..=last];
    let at = |at: usize| &hay[at + 1..at + needle.len()] == rest;
    let found = |base: usize, word: u64| {
        let mut hits = bytes_equal(word, first);
        while hits != 0 {
            if at(base + (hits.trailing_zeros() / 8) as usize) {
                return true;
            }
            hits &= hits - 1;
        }
        false
    };
    let mut chunks = starts.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([!first; 8]));
        if found(i * 8, word) {
            return true;
        }
    }
    let tail = chunks.remainder();
    let base = starts.len() - tail.len();
    (tail.iter().enumerate()).any(|(j, &b)| b == first && at(base + j))
}

/// The bytes of `word` equal to `b`, each marked by its high bit (exact:
/// no borrow runs from one byte into the next).
pub(super) fn bytes_equal(word: u64, b: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ u64::from_le_bytes([b; 8]);
    // A byte of `x` is zero exactly when neither its low seven bits
    // (carried into the high bit by the add) nor its high bit are set.
    !(((x & LOW7) + LOW7) | x | LOW7)
}

pub(super) fn index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("index-of", args)?;
    interp.tick(scan_ticks(s.len()))?;
    let from = match args.get(2) {
        Some(f) => args::index("index-of", f)?.max(0) as usize,
        None => 0,
    };
    let n = char_count(s);
    if from > n {
        return Ok(if p.is_empty() {
            Value::Int(n as i64)
        } else {
            Value::Nil
        });
    }
    let b0 = byte_at(s, from);
    Ok(match s[b0..].find(p) {
        Some(b) => Value::Int((from + char_count(&s[b0..b0 + b])) as i64),
        None => Value::Nil,
    })
}

pub(super) fn last_index_of(interp: &mut Interp, args: &[Value]) -> Result<Value> {
    let (s, p) = two_strings("last-index-of", args)?;
    interp.tick(scan_ticks(s.len()))?;
    let end = match args.get(2) {
        Some(f) => {
            let from = args::index("last-index-of", f)?;
            if from < 0 {
                return Ok(Value::Nil);
            }
            // A match starting at or before `from` ends by from + len(p).
            let end_char = (from as usize).saturating_add(char_count(p));
            byte_at(s, end_char)
        }
        None => s.len(),
    };
    Ok(match s[..end].rfind(p) {
        Some(b) => Value::Int(char_count(&s[..b]) as i64),
        None => Value::Nil,
    })
}

#[cfg(test)]
mod short_search_tests {
    /// Every haystack of up to 6 bytes over a three-letter alphabet
    /// against every needle of up to 3: the short search and memchr's
    /// agree.
    #[test]
    fn the_short_search_finds_what_memchr_finds() {
        fn words(max: usize) -> Vec<Vec<u8>> {
            let mut all = vec![vec![]];
            let mut last = vec![vec![]];
            for _ in 0..max {
                let next: Vec<Vec<u8>> = last
                    .iter()
                    .flat_map(|w: &Vec<u8>| {
                        b"abz".iter().map(move |c| {
                            let mut w = w.clone();
                            w.push(*c);
                            w
                        })
                    })
                    .collect();
                all.extend(next.iter().cloned());
                last = next;
            }
            all
        }
        let (hays, needles) = (words(6), words(3));
        let mut found = 0;
        for h in &hays {
            for n in &needles {
                let want = memchr::memmem::find(h, n).is_some();
                assert_eq!(super::find_short(h, n), want, "{h:?} {n:?}");
                found += usize::from(want);
            }
        }
        assert!(found > 1000 && found < hays.len() * needles.len());
    }

    /// Haystacks of every length up to 64 (across the eight-byte chunks),
    /// of bytes with and without the high bit (`0x00`, `0x7f`, `0x80`,
    /// `0xff`: where a borrow or a padding byte would show), against
    /// needles of one to four of those bytes: the short search and
    /// memchr's agree.
    #[test]
    fn the_short_search_agrees_across_chunks_and_high_bytes() {
        const BYTES: [u8; 6] = [0x00, 0x7f, 0x80, 0xff, b'a', b'b'];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            BYTES[(seed % BYTES.len() as u64) as usize]
        };
        let (mut found, mut tried) = (0, 0);
        for len in 0..=64 {
            for _ in 0..40 {
                let hay: Vec<u8> = (0..len).map(|_| next()).collect();
                for n in 1..=4 {
                    let needle: Vec<u8> = (0..n).map(|_| next()).collect();
                    let want = memchr::memmem::find(&hay, &needle).is_some();
                    assert_eq!(super::find_short(&hay, &needle), want, "{hay:?} {needle:?}");
                    found += usize::from(want);
                    tried += 1;
                }
                // A longer needle: one cut from the haystack itself (found)
                // and the same with its last byte changed.
                for n in 5..=9.min(len) {
                    let at = usize::from(next()) % (len - n + 1);
                    let mut needle = hay[at..at + n].to_vec();
                    assert!(super::find_short(&hay, &needle), "{hay:?} {needle:?}");
                    needle[n - 1] ^= 0x01;
                    let want = memchr::memmem::find(&hay, &needle).is_some();
                    assert_eq!(super::find_short(&hay, &needle), want, "{hay:?} {needle:?}");
                    found += usize::from(want);
                    tried += 1;
                }
            }
        }
        assert!(found > tried / 10 && found < tried);
    }
}
