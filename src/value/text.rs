//! [`Text`]: the string of `Value::Str`, `Value::Symbol` and `Value::Var`
//! — immutable, reference-counted, in one allocation (a count and the
//! length, then the bytes) behind a thin pointer.
//!
//! An `Arc<str>` is a pointer and a length (16 bytes); a `Text` is one
//! pointer (8), its length read from the header beside the bytes it
//! points at. That is what lets every payload of a `Value` but one fit
//! in a word (the step towards a 16-byte `Value`). The allocation is the
//! same size as an `Arc<str>`'s: 16 bytes of header, then the bytes.
//!
//! The counting is `Arc`'s (and [`super::shared_vec::SharedVec`]'s): a
//! clone adds one (relaxed), a drop takes one (release), and the last one
//! (after an acquire fence) frees the allocation. Every empty text shares
//! one static header, never freed.
//!
//! The header's second word ([`Header::meta`]) holds the length in its low
//! 56 bits and two facts about the text beside it:
//! - **ASCII** (bit 63): every byte is ASCII, found once when a text of
//!   `SCAN_FROM` bytes or more is made (a scan at memory speed beside the
//!   copy that makes it) and kept by each append; a shorter text is
//!   scanned when asked (a few words). `count`, `subs` and `nth` of an ASCII text are then
//!   O(1) in its length ([`Text::is_ascii`]: characters are bytes), where a
//!   `str::is_ascii` per call made a loop over a long string quadratic
//!   (`(< i (count s))` as a loop test).
//! - **room** (bits 56..62): the base-2 logarithm of the allocation's
//!   byte capacity when the text was grown in place ([`Text::push_unique`]),
//!   0 when the allocation holds exactly its bytes (every text made any
//!   other way). `(str acc x ",")` onto an accumulator only this handle
//!   holds appends in place, doubling the room when it runs out, so a
//!   `reduce` building a string is linear, as `conj` onto a vector is.
//!
//! **Rule TEXT-APPEND-1 (soundness).** A text is written only through
//! [`Text::push_unique`], and only when its count is one: the caller's
//! `&mut` handle is then the only one, so no other value can see the bytes
//! change (texts are persistent values). A count of one is final for the
//! duration of the `&mut` borrow: nobody else holds a handle to clone. The
//! empty header's count is never one.

use std::alloc::{self, Layout};
use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::shared_vec::{count_down, count_up};

/// What comes before the bytes.
#[repr(C)]
struct Header {
    count: AtomicUsize,
    /// The length, the room and the ASCII bit (module docs).
    meta: usize,
}

/// The length's bits in [`Header::meta`]: a text is shorter than 2^56
/// bytes (64 PB; longer is the `overflow` panic).
const LEN_MASK: usize = (1 << 56) - 1;
/// Where the room's logarithm starts in [`Header::meta`].
const ROOM_SHIFT: u32 = 56;
/// The room's bits in [`Header::meta`] (0: the allocation holds exactly
/// the length).
const ROOM_MASK: usize = 0x7f << ROOM_SHIFT;
/// [`Header::meta`]'s bit for an all-ASCII text.
const ASCII: usize = 1 << 63;

/// The length a header's `meta` says.
#[inline(always)]
fn len_of(meta: usize) -> usize {
    meta & LEN_MASK
}

/// The bytes the allocation behind a header's `meta` has room for.
#[inline(always)]
fn room_of(meta: usize) -> usize {
    match (meta & ROOM_MASK) >> ROOM_SHIFT {
        0 => len_of(meta),
        k => 1 << k,
    }
}

/// Texts shorter than this are not scanned when made: most texts are
/// short (keys, words, numbers), and scanning each one cost 06-strings 5%
/// of its instructions. [`Text::is_ascii`] scans a short one when asked
/// (a few words); from this length on the ASCII bit is exact.
const SCAN_FROM: usize = 64;

/// The `meta` of a text of `bytes`, exactly allocated: the ASCII bit set
/// when it is long enough to be scanned and every byte is ASCII.
#[inline]
fn meta_of(bytes: &[u8]) -> usize {
    if bytes.len() >= SCAN_FROM && bytes.is_ascii() {
        bytes.len() | ASCII
    } else {
        bytes.len()
    }
}

/// Bytes of the header before a text's bytes (`value/cost.rs`).
pub(crate) const HEADER_BYTES: u64 = std::mem::size_of::<Header>() as u64;

/// The header every empty text shares: its count starts at 2^62 and is
/// never the last one (a clone adds one, a drop takes one; no text is
/// made from it without a clone), so it is never freed.
static EMPTY: Header = Header {
    count: AtomicUsize::new(1 << 62),
    meta: ASCII,
};

/// An immutable reference-counted string in one word (module docs).
/// Derefs to `str`; compares, orders and hashes as its `str` does.
pub struct Text {
    ptr: NonNull<Header>,
}

// Like `Arc<str>`: the bytes are never written after construction and the
// count is atomic.
unsafe impl Send for Text {}
unsafe impl Sync for Text {}

const _: () = assert!(std::mem::size_of::<Text>() == 8);
const _: () = assert!(std::mem::size_of::<Option<Text>>() == 8);

impl Text {
    /// The layout of a text with room for `len` bytes: the header, then
    /// the bytes, rounded up to the header's alignment.
    #[inline]
    fn layout(len: usize) -> Layout {
        const ALIGN: usize = std::mem::align_of::<Header>();
        if len > LEN_MASK {
            overflow()
        }
        let size = (std::mem::size_of::<Header>() + len).next_multiple_of(ALIGN);
        // SAFETY: ALIGN is a power of two and `size`, a multiple of it, is
        // at most `isize::MAX` (`len` is below 2^56, checked above).
        unsafe { Layout::from_size_align_unchecked(size, ALIGN) }
    }

    /// An empty text (no allocation).
    #[inline]
    pub fn empty() -> Text {
        EMPTY.count.fetch_add(1, Ordering::Relaxed);
        Text {
            ptr: NonNull::from(&EMPTY),
        }
    }

    /// A fresh allocation for `len` bytes, its header written (a count of
    /// one, not ASCII until the caller says so), its bytes not.
    #[inline]
    fn allocate(len: usize) -> NonNull<Header> {
        let layout = Text::layout(len);
        // SAFETY: the layout has a nonzero size (the header, even for no
        // bytes).
        let raw = unsafe { alloc::alloc(layout) }.cast::<Header>();
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout)
        };
        // SAFETY: a fresh allocation for a header and `len` bytes.
        unsafe {
            ptr.as_ptr().write(Header {
                count: AtomicUsize::new(1),
                meta: len,
            })
        };
        ptr
    }

    #[inline]
    fn header(&self) -> &Header {
        // SAFETY: a live text points at its header (or `EMPTY`).
        unsafe { self.ptr.as_ref() }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        let len = len_of(self.header().meta);
        // SAFETY: `len` initialised UTF-8 bytes follow the header (every
        // constructor writes them) and are never written again.
        unsafe {
            let bytes = self.ptr.as_ptr().add(1).cast::<u8>();
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(bytes, len))
        }
    }

    /// Whether both are the same allocation (equal without reading text).
    #[inline]
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        a.ptr == b.ptr
    }

    /// The allocation's address: identity while it lives.
    #[inline]
    pub fn addr(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// The number of handles to this text (the empty one's is meaningless).
    pub fn strong_count(&self) -> usize {
        self.header().count.load(Ordering::Acquire)
    }

    /// Whether every byte is ASCII (so characters are bytes): O(1), known
    /// since the text was made for one of [`SCAN_FROM`] bytes or more, a
    /// scan of at most that many for a shorter one (module docs). Shadows
    /// `str::is_ascii`.
    #[inline]
    pub fn is_ascii(&self) -> bool {
        let meta = self.header().meta;
        meta & ASCII != 0 || (len_of(meta) < SCAN_FROM && self.as_str().as_bytes().is_ascii())
    }

    /// Appends `s` in place when this handle is the text's only one
    /// (TEXT-APPEND-1), growing the allocation to the next power of two
    /// (at least 32 bytes) when it is short of room; false, with nothing
    /// changed, when another handle shares the text (or it is the shared
    /// empty one).
    pub(crate) fn push_unique(&mut self, s: &str) -> bool {
        if self.header().count.load(Ordering::Relaxed) != 1 {
            return false;
        }
        // Pairs with the release decrement of a handle another thread
        // dropped, so its reads happen before our writes (as `Arc`).
        std::sync::atomic::fence(Ordering::Acquire);
        let meta = self.header().meta;
        let len = len_of(meta);
        let Some(new_len) = len.checked_add(s.len()).filter(|&n| n <= LEN_MASK) else {
            overflow()
        };
        let mut meta = meta;
        if new_len > room_of(meta) {
            let room = new_len.max(32).next_power_of_two();
            let new = Text::layout(room);
            // SAFETY: `self.ptr` is an allocation of `layout(room_of(meta))`
            // (what every constructor and earlier growth made), only this
            // handle points at it (count one, `&mut self`), and the new size
            // is nonzero and at most `isize::MAX` (`layout` checked it). The
            // bytes up to `len` are kept by `realloc`.
            let raw = unsafe {
                alloc::realloc(
                    self.ptr.as_ptr().cast(),
                    Text::layout(room_of(meta)),
                    new.size(),
                )
            };
            let Some(ptr) = NonNull::new(raw.cast::<Header>()) else {
                alloc::handle_alloc_error(new)
            };
            self.ptr = ptr;
            meta = (meta & !ROOM_MASK) | ((room.trailing_zeros() as usize) << ROOM_SHIFT);
        }
        // Exact from here on: the text's own answer (a scan when it was
        // short) and the piece's.
        if self.is_ascii() && s.is_ascii() {
            meta |= ASCII;
        } else {
            meta &= !ASCII;
        }
        // SAFETY: the allocation has room for `new_len` bytes after the
        // header (just made sure), `s` cannot overlap the bytes past `len`
        // (no handle but this one reaches them, and `s` is borrowed
        // elsewhere), and only this handle reads the header or the bytes
        // while it is borrowed mutably (TEXT-APPEND-1): writing the header's
        // plain `meta` races with nothing. The bytes stay UTF-8: a whole
        // `str` appended to a whole `str`.
        unsafe {
            let bytes = self.ptr.as_ptr().add(1).cast::<u8>();
            std::ptr::copy_nonoverlapping(s.as_ptr(), bytes.add(len), s.len());
            (*self.ptr.as_ptr()).meta = (meta & !LEN_MASK) | new_len;
        }
        true
    }

    /// The bytes the allocation has room for (its length, or more once
    /// grown in place).
    #[cfg(test)]
    fn room(&self) -> usize {
        room_of(self.header().meta)
    }

    /// The last handle's drop: frees the allocation.
    #[inline(never)]
    fn drop_last(&mut self) {
        let layout = Text::layout(room_of(self.header().meta));
        // SAFETY: the last handle of an allocation made with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) }
    }
}

/// A text of a known length being written in place: its bytes to fill,
/// then [`TextBuf::finish`] (`builtins/string/exact.rs`). Dropped
/// unfinished, it frees its allocation without reading it.
pub(crate) struct TextBuf {
    ptr: NonNull<Header>,
    len: usize,
}

impl TextBuf {
    /// Room for `len` bytes (a header of its own even for none: the
    /// common lengths take no test for zero).
    #[inline]
    pub(crate) fn new(len: usize) -> TextBuf {
        TextBuf {
            ptr: Text::allocate(len),
            len,
        }
    }

    /// The bytes to write.
    #[inline]
    pub(crate) fn bytes(&mut self) -> &mut [MaybeUninit<u8>] {
        // SAFETY: the `len` bytes after the header of an allocation only
        // this buffer points at, borrowed through `&mut self`.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.ptr.as_ptr().add(1).cast::<MaybeUninit<u8>>(),
                self.len,
            )
        }
    }

    /// The text written.
    ///
    /// # Safety
    /// Every byte of [`TextBuf::bytes`] is initialised, and they are UTF-8.
    #[inline]
    pub(crate) unsafe fn finish(mut self) -> Text {
        // SAFETY: every byte is initialised (the caller's contract).
        let meta = meta_of(unsafe { &*(std::ptr::from_mut(self.bytes()) as *const [u8]) });
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: the header of an allocation only this buffer points at.
        unsafe { (*this.ptr.as_ptr()).meta = meta };
        Text { ptr: this.ptr }
    }
}

impl Drop for TextBuf {
    fn drop(&mut self) {
        // SAFETY: an allocation of this layout only this buffer owns.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), Text::layout(self.len)) }
    }
}

/// A text past the address space: never allocated (as `Vec`'s panic).
#[cold]
fn overflow() -> ! {
    panic!("text length overflow")
}

impl From<&str> for Text {
    #[inline]
    fn from(s: &str) -> Text {
        if s.is_empty() {
            return Text::empty();
        }
        let ptr = Text::allocate(s.len());
        // SAFETY: the fresh allocation has room for `s.len()` bytes after
        // the header, and only this function points at it; `s` is UTF-8.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), ptr.as_ptr().add(1).cast::<u8>(), s.len());
            (*ptr.as_ptr()).meta = meta_of(s.as_bytes());
        };
        Text { ptr }
    }
}

impl From<String> for Text {
    #[inline]
    fn from(s: String) -> Text {
        Text::from(s.as_str())
    }
}

impl From<&String> for Text {
    #[inline]
    fn from(s: &String) -> Text {
        Text::from(s.as_str())
    }
}

impl From<Box<str>> for Text {
    #[inline]
    fn from(s: Box<str>) -> Text {
        Text::from(&*s)
    }
}

impl From<Cow<'_, str>> for Text {
    #[inline]
    fn from(s: Cow<'_, str>) -> Text {
        Text::from(&*s)
    }
}

impl From<&Arc<str>> for Text {
    #[inline]
    fn from(s: &Arc<str>) -> Text {
        Text::from(&**s)
    }
}

impl From<Arc<str>> for Text {
    #[inline]
    fn from(s: Arc<str>) -> Text {
        Text::from(&*s)
    }
}

impl From<char> for Text {
    fn from(c: char) -> Text {
        Text::from(c.encode_utf8(&mut [0; 4]) as &str)
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.as_str().to_owned()
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::empty()
    }
}

impl Clone for Text {
    #[inline]
    fn clone(&self) -> Text {
        count_up(&self.header().count);
        Text { ptr: self.ptr }
    }
}

impl Drop for Text {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.header().count) {
            self.drop_last();
        }
    }
}

impl Deref for Text {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Text {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_str().as_bytes()
    }
}

impl AsRef<std::ffi::OsStr> for Text {
    #[inline]
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.as_str().as_ref()
    }
}

impl Borrow<str> for Text {
    #[inline]
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        Text::ptr_eq(self, other) || self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    #[inline]
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    #[inline]
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Text {
    #[inline]
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    #[inline]
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn one_word_and_the_bytes_after_a_two_word_header() {
        assert_eq!(std::mem::size_of::<Text>(), 8);
        assert_eq!(super::HEADER_BYTES, 16);
        assert_eq!(Text::layout(5).size(), 24);
        let t = Text::from("héllo");
        assert_eq!(&*t, "héllo");
        assert_eq!(t.len(), 6);
    }

    #[test]
    fn clones_share_and_the_last_drop_frees() {
        let a = Text::from(String::from("shared"));
        let b = a.clone();
        assert!(Text::ptr_eq(&a, &b));
        assert_eq!(a.strong_count(), 2);
        drop(b);
        assert_eq!(a.strong_count(), 1);
        let c = Text::from("shared");
        assert!(!Text::ptr_eq(&a, &c));
        assert_eq!(a, c);
    }

    #[test]
    fn empty_texts_share_one_header() {
        let a = Text::from("");
        let b = Text::default();
        let c = Text::from(String::new());
        assert!(Text::ptr_eq(&a, &b) && Text::ptr_eq(&b, &c));
        assert!(a.is_empty());
        assert_eq!(a.clone(), b);
    }

    #[test]
    fn orders_and_hashes_as_its_str() {
        use std::hash::BuildHasher;
        let s = std::collections::hash_map::RandomState::new();
        let (a, b) = (Text::from("apple"), Text::from("banana"));
        assert!(a < b);
        assert_eq!(s.hash_one(&a), s.hash_one("apple"));
        assert_eq!(format!("{a} {b:?}"), "apple \"banana\"");
    }

    #[test]
    fn written_in_place() {
        let mut buf = super::TextBuf::new(3);
        for (i, x) in buf.bytes().iter_mut().enumerate() {
            x.write(b'a' + i as u8);
        }
        // SAFETY: every byte written, ASCII.
        let t = unsafe { buf.finish() };
        assert_eq!(&*t, "abc");
        let mut none = super::TextBuf::new(0);
        assert!(none.bytes().is_empty());
        // SAFETY: nothing to write.
        let e = unsafe { none.finish() };
        assert!(e.is_empty());
        // Dropped unfinished: freed, never read.
        drop(super::TextBuf::new(5));
    }

    #[test]
    fn knows_whether_it_is_ascii() {
        assert!(Text::from("plain").is_ascii() && Text::empty().is_ascii());
        assert!(!Text::from("héllo").is_ascii());
        let long = "x".repeat(super::SCAN_FROM);
        assert!(Text::from(long.as_str()).is_ascii());
        assert!(!Text::from(format!("{long}é")).is_ascii());
        let mut grown = Text::from("ab");
        assert!(grown.push_unique(&long) && grown.is_ascii());
        assert!(grown.push_unique("é") && !grown.is_ascii());
        let mut buf = super::TextBuf::new(2);
        buf.bytes()[0].write(b'o');
        buf.bytes()[1].write(b'k');
        // SAFETY: both bytes written, ASCII.
        assert!(unsafe { buf.finish() }.is_ascii());
    }

    #[test]
    fn only_the_only_handle_is_appended_to_in_place() {
        let mut a = Text::from("ab");
        assert!(a.push_unique("cd"));
        assert_eq!((&*a, a.is_ascii(), a.room()), ("abcd", true, 32));
        let at = a.addr();
        for _ in 0..7 {
            assert!(a.push_unique("wxyz"));
        }
        assert_eq!((a.len(), a.room(), a.addr()), (32, 32, at), "no growth");
        assert!(a.push_unique("é"));
        assert_eq!((a.len(), a.room(), a.is_ascii()), (34, 64, false));
        assert!(a.ends_with("wxyzé"));

        // Shared: never written, the other handle sees what it saw.
        let b = a.clone();
        assert!(!a.push_unique("!"));
        assert_eq!(a, b);
        drop(b);
        assert!(a.push_unique("!"));
        // The shared empty text is never the only handle.
        let mut e = Text::empty();
        assert!(!e.push_unique("x") && e.is_empty());
        // A grown text is freed with the layout it grew to (ASan, Miri).
        drop(a);
    }

    #[test]
    fn shared_across_threads() {
        let t = Text::from("across");
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let t = t.clone();
                std::thread::spawn(move || {
                    for _ in 0..1000 {
                        drop(t.clone());
                    }
                    t.len()
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), 6);
        }
        assert_eq!(t.strong_count(), 1);
    }
}
