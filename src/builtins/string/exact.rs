//! Strings whose length is known before they are written (`join` of
//! strings, an ASCII text's case changed, one ASCII byte replaced by
//! another): written straight into the string's own allocation — no
//! buffer to grow, no copy out of it.

use crate::value::text::TextBuf;
use crate::value::Text;
use std::mem::MaybeUninit;

use crate::error::Result;
use crate::eval::Interp;
use crate::value::{cost, Value};

/// The bytes of a string being written: pieces are appended in order
/// until exactly the length asked for is written.
pub(super) struct Exact<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    at: usize,
}

impl Exact<'_> {
    /// Appends `s`.
    ///
    /// # Panics
    /// Past the length asked for (a wrong length is a bug in the caller).
    #[inline]
    pub(super) fn push(&mut self, s: &str) {
        let n = s.len();
        let end = self.at + n;
        let place = &mut self.buf[self.at..end];
        let (from, to) = (s.as_ptr(), place.as_mut_ptr().cast::<u8>());
        // SAFETY: `place` is the `n` bytes at `to`, which `s` (borrowed
        // elsewhere) does not overlap; every read and write below is
        // within the `n` bytes (two pieces of 8, 4 or 1 byte that overlap
        // when `n` is not twice their size).
        unsafe {
            // Up to 16 bytes (a number, a word, a separator: most pieces)
            // in two moves of its first and last bytes, not a call.
            if n > 16 {
                std::ptr::copy_nonoverlapping(from, to, n);
            } else if n >= 8 {
                move_ends::<u64>(from, to, n);
            } else if n >= 4 {
                move_ends::<u32>(from, to, n);
            } else if n > 0 {
                move_ends::<u8>(from, to, n);
                *to.add(n / 2) = *from.add(n / 2);
            }
        }
        self.at = end;
    }

    /// The bytes written so far, to change in place.
    ///
    /// # Safety
    /// They must stay valid UTF-8 (an ASCII byte changed only into
    /// another ASCII byte, say).
    #[inline]
    pub(super) unsafe fn written_mut(&mut self) -> &mut [u8] {
        let done = &mut self.buf[..self.at];
        // SAFETY: the first `at` bytes were written by `push`.
        unsafe { &mut *(std::ptr::from_mut(done) as *mut [u8]) }
    }
}

/// The first and the last `size_of::<T>()` of the `n` bytes at `from`
/// moved to `to`: all of them when `n` is at most twice that.
///
/// # Safety
/// `n` is at least `size_of::<T>()`, and the `n` bytes at `from` and at
/// `to` are valid to read and to write and do not overlap.
#[inline(always)]
unsafe fn move_ends<T: Copy>(from: *const u8, to: *mut u8, n: usize) {
    let k = std::mem::size_of::<T>();
    // SAFETY: both pieces are within the `n` bytes (the caller's
    // contract); unaligned reads and writes of plain integers.
    unsafe {
        let (a, b) = (
            from.cast::<T>().read_unaligned(),
            from.add(n - k).cast::<T>().read_unaligned(),
        );
        to.cast::<T>().write_unaligned(a);
        to.add(n - k).cast::<T>().write_unaligned(b);
    }
}

/// The string of exactly `len` bytes `write` appends (one allocation, no
/// copy).
///
/// # Panics
/// When `write` appends fewer or more than `len` bytes (a caller's bug).
///
/// Always inlined, as are [`exact_value`] and [`exact_in_room`]: each
/// caller's `write` is then one function with it (where a thin-LTO build
/// declined to inline them, 06-strings ran 1.9 % slower).
#[inline(always)]
pub(super) fn exact_text(len: usize, write: impl FnOnce(&mut Exact<'_>)) -> Text {
    let mut text = TextBuf::new(len);
    let mut out = Exact {
        buf: text.bytes(),
        at: 0,
    };
    write(&mut out);
    assert_eq!(
        out.at, len,
        "exact_text: the text written is not the length asked for"
    );
    // SAFETY: all `len` bytes were written (just checked), as whole
    // `&str`s changed only as `written_mut` allows: valid UTF-8.
    unsafe { text.finish() }
}

/// `bytes` mapped eight at a time by `f`, which maps each byte of a word
/// on its own and leaves a byte it already mapped as it is (a word seen
/// twice is the same): a text of eight bytes or more ends with its last
/// eight, overlapping the word before; a shorter one is mapped in a word
/// padded with zeros.
pub(super) fn map_words(bytes: &mut [u8], f: impl Fn(u64) -> u64) {
    let n = bytes.len();
    if n < 8 {
        let mut word = [0; 8];
        word[..n].copy_from_slice(bytes);
        let mapped = f(u64::from_le_bytes(word)).to_le_bytes();
        bytes.copy_from_slice(&mapped[..n]);
        return;
    }
    let mut map = |at: usize| {
        if let Ok(word) = <&mut [u8; 8]>::try_from(&mut bytes[at..at + 8]) {
            *word = f(u64::from_le_bytes(*word)).to_le_bytes();
        }
    };
    let mut at = 0;
    while at + 8 <= n {
        map(at);
        at += 8;
    }
    if at < n {
        map(n - 8);
    }
}

/// Every `from` byte of `bytes` made `to` (both ASCII), eight at a time:
/// the bytes equal to `from` marked by their high bit
/// ([`bytes_equal`](super::search::bytes_equal)), the mark spread over
/// the byte, the bits that differ flipped there.
pub(super) fn swap_byte(bytes: &mut [u8], from: u8, to: u8) {
    let change = u64::from_le_bytes([from ^ to; 8]);
    map_words(bytes, |x| {
        x ^ (((super::search::bytes_equal(x, from) >> 7) * 0xff) & change)
    });
}

/// [`exact_value`] of a string of `len` bytes (`None`: past `usize`)
/// that must fit the heap room, as a printed one must: past it, the
/// printing path's error ([`out_of_room`](super::out_of_room)).
#[inline(always)]
pub(super) fn exact_in_room(
    interp: &mut Interp,
    len: Option<usize>,
    write: impl FnOnce(&mut Exact<'_>),
) -> Result<Value> {
    match len {
        Some(len) if len <= super::heap_room(interp) => exact_value(interp, len, write),
        _ => Err(super::out_of_room(interp)),
    }
}

/// [`exact_text`] as a value, charged to the heap before it is made (the
/// charge [`super::build::in_text_buf`] makes for the same string).
#[inline(always)]
pub(super) fn exact_value(
    interp: &mut Interp,
    len: usize,
    write: impl FnOnce(&mut Exact<'_>),
) -> Result<Value> {
    interp.alloc(cost::string_bytes(len))?;
    Ok(Value::Str(exact_text(len, write)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_written_in_order_into_one_string() {
        let s = exact_text(11, |out| {
            out.push("hello");
            out.push(", ");
            out.push("éa");
            out.push("!");
        });
        assert_eq!(&*s, "hello, éa!");
        assert_eq!(&*exact_text(0, |_| {}), "");
    }

    #[test]
    fn pieces_of_every_length_are_copied_whole() {
        let text: String = (0..40u8).map(|i| char::from(b'a' + i % 26)).collect();
        for n in 0..=40 {
            for m in [0, 1, 3, 7, 9] {
                let (a, b) = (&text[..n], &text[40 - m..]);
                let s = exact_text(n + m, |out| {
                    out.push(a);
                    out.push(b);
                });
                assert_eq!(*s, format!("{a}{b}"), "{n} then {m}");
            }
        }
    }

    #[test]
    fn written_bytes_can_be_changed_in_place() {
        let s = exact_text(3, |out| {
            out.push("a-b");
            // SAFETY: an ASCII byte for another.
            for b in unsafe { out.written_mut() } {
                if *b == b'-' {
                    *b = b'_';
                }
            }
        });
        assert_eq!(&*s, "a_b");
    }

    #[test]
    fn one_byte_is_swapped_for_another_wherever_it_is() {
        // Every length around a word, the byte at every place, and bytes
        // next to it that differ from it in one bit only.
        for n in 0..=20 {
            for at in 0..n {
                let mut text: Vec<u8> = (0..n).map(|i| b"-,/.m"[i % 5]).collect();
                text[at] = b'-';
                let want: Vec<u8> = text
                    .iter()
                    .map(|&b| if b == b'-' { b'_' } else { b })
                    .collect();
                swap_byte(&mut text, b'-', b'_');
                assert_eq!(text, want, "length {n}, a dash at {at}");
            }
        }
        let mut wide = "é-ü-€-x".as_bytes().to_vec();
        swap_byte(&mut wide, b'-', b'_');
        assert_eq!(wide, "é_ü_€_x".as_bytes());
        let mut nul = *b"a\0b\0\0cdefgh\0";
        swap_byte(&mut nul, 0, b' ');
        assert_eq!(&nul, b"a b  cdefgh ");
    }

    #[test]
    #[should_panic(expected = "not the length asked for")]
    fn a_short_text_is_a_bug_not_garbage() {
        exact_text(4, |out| out.push("abc"));
    }

    #[test]
    #[should_panic]
    fn a_long_text_is_a_bug_not_an_overrun() {
        exact_text(2, |out| out.push("abc"));
    }
}
