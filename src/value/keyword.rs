//! [`Kw`]: a keyword's name, the payload of `Value::Keyword`.
//!
//! One word that derefs to `str`: a pointer to the keyword's [`Name`] (its
//! text and its hash), the pointer's low bit saying which of two kinds:
//!
//! * **interned** (names from source text and data, [`super::intern`], bit
//!   clear): the `&'static` reference to the one [`Name`] of that text.
//!   Copying it is copying a pointer, with no reference count, so threads
//!   sharing `:id` never write to the same cache line; equality of two
//!   interned names is pointer equality.
//! * **counted** (keywords a program computes, names past the interning
//!   bound, bit set): an `Arc<Name>` of its own, made with its hash,
//!   compared by content.
//!
//! Either way the text and the hash are read through the same pointer, the
//! tag masked off. Equality, order and hashing depend only on the text,
//! whichever the representation, so they agree with each other and with
//! `order.rs`. The `unsafe` of the tagged pointer is all in the `Repr`
//! section below.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::Arc;

use super::intern::{self, Name};
use super::Text;

/// A keyword's name without its colon (`:ns/a` is `"ns/a"`); derefs to
/// `str`. One word; cloning an interned name touches no shared counter.
pub struct Kw(NonNull<Name>);

// ---- Repr: the tagged pointer, the only unsafe code of keywords. ----

/// The low bit of a counted name's pointer; an interned one's is clear.
const COUNTED: usize = 1;

// The tag needs a free low bit in every `Name` pointer.
const _: () = assert!(std::mem::align_of::<Name>() >= 2);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Kw>() == 8 && std::mem::size_of::<Option<Kw>>() == 8);

// SAFETY: a `Kw` is a `&'static Name` or an `Arc<Name>` (the invariant
// below), and both are `Send` and `Sync` (checked below), `Name` being
// immutable text and a number: sending or sharing a `Kw` is sending or
// sharing one of them.
unsafe impl Send for Kw {}
// SAFETY: as for `Send`.
unsafe impl Sync for Kw {}
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<&'static Name>();
    send_sync::<Arc<Name>>();
};

// Invariant: `self.0` with `COUNTED` cleared points to a live `Name`: with
// the bit clear, a `&'static Name` (interned, never freed); with it set,
// the pointer `Arc::into_raw` gave for an `Arc<Name>`, one strong count of
// which this `Kw` owns (given back in `Drop`). Only `from_static`,
// `from_arc` and `clone` make a `Kw`.
impl Kw {
    /// An interned name: the pointer itself, untagged.
    #[inline]
    fn from_static(name: &'static Name) -> Kw {
        Kw(NonNull::from(name))
    }

    /// A counted name: `name`'s strong count moves into the `Kw`.
    fn from_arc(name: Arc<Name>) -> Kw {
        // SAFETY: `Arc::into_raw` gives the pointer of the `Arc`'s value
        // in its allocation, never null.
        let raw = unsafe { NonNull::new_unchecked(Arc::into_raw(name).cast_mut()) };
        Kw(raw.map_addr(|a| a | COUNTED))
    }

    /// The pointer as a number, tag included (compared, never followed).
    #[inline]
    fn word(&self) -> usize {
        self.0.as_ptr().addr()
    }

    /// The `Name`'s pointer without the tag.
    #[inline]
    fn untagged(&self) -> *const Name {
        self.0.as_ptr().map_addr(|a| a & !COUNTED)
    }

    /// Whether this name is interned (compares by pointer).
    #[inline]
    pub fn is_interned(&self) -> bool {
        self.word() & COUNTED == 0
    }

    /// The name this handle points to.
    #[inline]
    fn name(&self) -> &Name {
        // SAFETY: by the invariant the untagged pointer is to a live
        // `Name`: a `&'static` one, or one kept alive by the `Arc` count
        // this `Kw` owns for at least as long as `self` is borrowed.
        // Nothing writes to a `Name` once made.
        unsafe { &*self.untagged() }
    }
}

impl Clone for Kw {
    /// An interned name is copied; a counted one's count goes up.
    #[inline]
    fn clone(&self) -> Kw {
        if !self.is_interned() {
            // SAFETY: counted: the untagged pointer came from
            // `Arc::into_raw` and the count this `Kw` owns keeps it alive;
            // the new `Kw` owns the count added.
            unsafe { Arc::increment_strong_count(self.untagged()) }
        }
        Kw(self.0)
    }
}

impl Drop for Kw {
    #[inline]
    fn drop(&mut self) {
        if !self.is_interned() {
            // SAFETY: counted: the untagged pointer came from
            // `Arc::into_raw`, and this `Kw` owns one strong count, given
            // back here once (nothing uses `self` after `drop`).
            unsafe { Arc::decrement_strong_count(self.untagged()) }
        }
    }
}

// ---- end of Repr. ----

impl Kw {
    /// The interned name for `name` (source text, data keys); a counted
    /// one past the interning bound.
    pub fn interned(name: &str) -> Kw {
        match intern::intern(name) {
            Some(n) => Kw::from_static(n),
            None => Kw::counted(name),
        }
    }

    /// A counted (not interned) name: what computed keywords are. Its
    /// hash is computed here, once.
    pub fn counted(name: impl Into<Text>) -> Kw {
        Kw::from_arc(Arc::new(Name::new(name.into())))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.name().as_str()
    }

    /// Whether both are the same interned name: equal without reading text.
    #[inline]
    pub fn same_interned(&self, other: &Kw) -> bool {
        self.word() == other.word() && self.is_interned()
    }

    /// The hash of the keyword ([`super::hash::keyword_hash`]), stored in
    /// its name.
    #[inline]
    pub fn hash_code(&self) -> u64 {
        self.name().hash()
    }

    /// The text as a [`Text`]: a copy for an interned name (whose count
    /// threads would otherwise share), the counted name's own text else.
    pub fn to_text(&self) -> Text {
        if self.is_interned() {
            self.as_str().into()
        } else {
            self.name().text_handle().clone()
        }
    }

    /// The heap bytes this handle keeps alive on its own: nothing for an
    /// interned name (the table owns it), the text for a counted one.
    pub fn heap_bytes(&self) -> usize {
        if self.is_interned() {
            0
        } else {
            self.len()
        }
    }
}

impl Deref for Kw {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Kw {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Kw {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Kw {
    #[inline]
    fn eq(&self, other: &Kw) -> bool {
        let (a, b) = (self.word(), other.word());
        if a == b {
            // The same interned name, or the same counted one.
            return true;
        }
        if (a | b) & COUNTED == 0 {
            // One Name per text: different interned names differ.
            return false;
        }
        self.as_str() == other.as_str()
    }
}

impl Eq for Kw {}

impl PartialOrd for Kw {
    fn partial_cmp(&self, other: &Kw) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kw {
    fn cmp(&self, other: &Kw) -> Ordering {
        if self.same_interned(other) {
            Ordering::Equal
        } else {
            super::order::cmp_text(self, other)
        }
    }
}

impl Hash for Kw {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Kw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Kw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Arc<str>> for Kw {
    fn from(s: Arc<str>) -> Kw {
        Kw::counted(s)
    }
}
impl From<Text> for Kw {
    fn from(s: Text) -> Kw {
        Kw::counted(s)
    }
}
impl From<&str> for Kw {
    fn from(s: &str) -> Kw {
        Kw::counted(s)
    }
}
impl From<String> for Kw {
    fn from(s: String) -> Kw {
        Kw::counted(s)
    }
}
impl From<Box<str>> for Kw {
    fn from(s: Box<str>) -> Kw {
        Kw::counted(s)
    }
}
impl From<&Arc<str>> for Kw {
    fn from(s: &Arc<str>) -> Kw {
        Kw::counted(s)
    }
}

impl PartialEq<str> for Kw {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}
impl PartialEq<&str> for Kw {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn representations_agree_on_equality_order_and_hash() {
        let i = Kw::interned("kw-test-amount");
        let c = Kw::counted("kw-test-amount");
        assert!(i.is_interned() && !c.is_interned());
        assert_eq!(i, c);
        assert_eq!(c, i);
        assert_eq!(i.cmp(&c), Ordering::Equal);
        assert_eq!(i.hash_code(), c.hash_code());
        let other = Kw::interned("kw-test-amounts");
        assert_ne!(i, other);
        assert_eq!(i.cmp(&other), Ordering::Less);
        assert_eq!(&*i, "kw-test-amount");
    }

    #[test]
    fn stays_one_word() {
        assert_eq!(std::mem::size_of::<Kw>(), 8);
        assert_eq!(std::mem::size_of::<Option<Kw>>(), 8);
    }

    /// A counted name's clones share its count, each drop gives one back;
    /// an interned name's copies are the same pointer, and equal the
    /// counted name of the same text.
    #[test]
    fn clones_of_a_counted_name_count_and_interned_ones_do_not() {
        let name = Arc::new(Name::new("kw-test-counted".into()));
        let c = Kw::from_arc(name.clone());
        assert_eq!(Arc::strong_count(&name), 2);
        let c2 = c.clone();
        assert_eq!(Arc::strong_count(&name), 3);
        assert!(!c2.is_interned() && !c.same_interned(&c2));
        assert_eq!((c == c2, &*c2), (true, "kw-test-counted"));
        assert_eq!(
            c2.hash_code(),
            super::super::hash::keyword_hash("kw-test-counted")
        );
        assert!(Text::ptr_eq(&c.to_text(), &c2.to_text()));
        drop(c);
        assert_eq!(Arc::strong_count(&name), 2);
        drop(c2);
        assert_eq!(Arc::strong_count(&name), 1);

        let i = Kw::interned("kw-test-counted");
        let i2 = i.clone();
        assert!(i.is_interned() && i.same_interned(&i2) && i == i2);
        assert_eq!(i.word(), i2.word());
        let c = Kw::from_arc(name.clone());
        assert_eq!(i, c);
        assert_eq!(c, i);
        assert!(!i.same_interned(&c));
        assert_eq!(i.hash_code(), c.hash_code());
        assert_eq!(i.cmp(&c), Ordering::Equal);
        assert_eq!(
            (i.heap_bytes(), c.heap_bytes()),
            (0, "kw-test-counted".len())
        );
        drop((i, i2, c));
        assert_eq!(Arc::strong_count(&name), 1);
    }

    #[test]
    fn moves_between_threads() {
        let c = Kw::counted("kw-test-threads");
        let i = Kw::interned("kw-test-threads");
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (c, i) = (c.clone(), i.clone());
                std::thread::spawn(move || c == i && c.clone().len() == 15)
            })
            .collect();
        assert!(handles.into_iter().all(|h| h.join().unwrap()));
    }
}
