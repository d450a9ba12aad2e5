//! [`Kw`]: a keyword's name, the payload of `Value::Keyword`.
//!
//! Two representations behind one type that derefs to `str`:
//!
//! * **interned** (names from source text and data, [`super::intern`]): a
//!   `&'static` reference to the one [`Name`] of that text. Copying it is
//!   copying a pointer, with no reference count, so threads sharing `:id`
//!   never write to the same cache line; equality of two interned names is
//!   pointer equality; the hash is stored.
//! * **counted** (keywords a program computes, names past the interning
//!   bound): an `Arc<str>`, compared by content.
//!
//! Equality, order and hashing depend only on the text, whichever the
//! representation, so they agree with each other and with `order.rs`.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use super::intern::{self, Name};

/// A keyword's name without its colon (`:ns/a` is `"ns/a"`); derefs to
/// `str`. 16 bytes; cloning an interned name touches no shared counter.
#[derive(Clone)]
pub struct Kw(Repr);

#[derive(Clone)]
enum Repr {
    Interned(&'static Name),
    Counted(Arc<str>),
}

impl Kw {
    /// The interned name for `name` (source text, data keys); a counted
    /// one past the interning bound.
    pub fn interned(name: &str) -> Kw {
        match intern::intern(name) {
            Some(n) => Kw(Repr::Interned(n)),
            None => Kw(Repr::Counted(name.into())),
        }
    }

    /// A counted (not interned) name: what computed keywords are.
    pub fn counted(name: impl Into<Arc<str>>) -> Kw {
        Kw(Repr::Counted(name.into()))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Interned(n) => n.text(),
            Repr::Counted(s) => s,
        }
    }

    /// Whether this name is interned (compares by pointer, hash stored).
    pub fn is_interned(&self) -> bool {
        matches!(self.0, Repr::Interned(_))
    }

    /// Whether both are the same interned name: equal without reading text.
    #[inline]
    pub fn same_interned(&self, other: &Kw) -> bool {
        matches!((&self.0, &other.0), (Repr::Interned(a), Repr::Interned(b)) if std::ptr::eq(*a, *b))
    }

    /// The hash of the keyword ([`super::hash::keyword_hash`]), stored for
    /// an interned name.
    #[inline]
    pub fn hash_code(&self) -> u64 {
        match &self.0 {
            Repr::Interned(n) => n.hash(),
            Repr::Counted(s) => super::hash::keyword_hash(s),
        }
    }

    /// The text as an `Arc<str>` (a copy for an interned name).
    pub fn to_arc(&self) -> Arc<str> {
        match &self.0 {
            Repr::Interned(n) => n.text().into(),
            Repr::Counted(s) => s.clone(),
        }
    }

    /// The heap bytes this handle keeps alive on its own: nothing for an
    /// interned name (the table owns it), the text for a counted one.
    pub fn heap_bytes(&self) -> usize {
        match &self.0 {
            Repr::Interned(_) => 0,
            Repr::Counted(s) => s.len(),
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
        match (&self.0, &other.0) {
            // One Name per text: different interned names differ.
            (Repr::Interned(a), Repr::Interned(b)) => std::ptr::eq(*a, *b),
            (Repr::Counted(a), Repr::Counted(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.as_str() == other.as_str(),
        }
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
        Kw::counted(s.clone())
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
    fn stays_two_words() {
        assert_eq!(std::mem::size_of::<Kw>(), 16);
    }
}
