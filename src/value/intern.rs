//! Interned keyword names: every `:price` in a program's source (and every
//! key of JSON data) is one [`Name`] for the whole process, so comparing a
//! looked-up key with a map's key is a pointer comparison, its hash is
//! computed once, and copying it touches no reference count
//! ([`super::keyword::Kw`]): threads that share keywords never contend.
//!
//! **Bounded (rule V-KW-1).** An interned name lives until the process
//! ends. Only names from source text and data are interned, never keywords
//! a program computes (`(keyword (str "k" i))`), and the table stops
//! growing at [`MAX_INTERNED`] names, [`MAX_INTERNED_BYTES`] bytes of
//! text, or for a name longer than [`MAX_NAME_BYTES`]: a long-running host
//! cannot be made to leak through it (at most about 10 MiB in all). Past the
//! bound, names are reference-counted as before (still correct, compared
//! by content): a [`Name`] of their own in an `Arc`, hashed when made.

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use super::Text;

/// Most names the table keeps.
pub const MAX_INTERNED: usize = 1 << 16;
/// Most bytes of text the table keeps, all names together.
pub const MAX_INTERNED_BYTES: usize = 4 << 20;
/// Longest name interned.
pub const MAX_NAME_BYTES: usize = 256;

/// A keyword's name and its hash ([`super::hash::keyword_hash`]): an
/// interned one, one per distinct text and alive for the rest of the
/// process, or a counted one's own (`keyword.rs`). The text is a
/// [`Text`], so a counted name made from a string shares its text.
pub struct Name {
    text: Text,
    hash: u64,
}

impl Name {
    /// The name of `text`, its hash computed now.
    pub fn new(text: Text) -> Name {
        let hash = super::hash::keyword_hash(&text);
        Name { text, hash }
    }
    /// The text, without a colon, of a name of any lifetime.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The text as the [`Text`] it is kept in.
    #[inline]
    pub fn text_handle(&self) -> &Text {
        &self.text
    }
    /// The text, without a colon.
    #[inline]
    pub fn text(&'static self) -> &'static str {
        &self.text
    }
    /// The keyword's hash, computed when it was interned.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
}

#[derive(Default)]
struct Table {
    /// Hashed as values are ([`super::hash`]: foldhash, seeded at random
    /// once per process); every keyword of a program's source is looked
    /// up here.
    names: HashMap<&'static str, &'static Name, foldhash::fast::RandomState>,
    bytes: usize,
}

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

/// The interned [`Name`] of `name`, or `None` past the bound (V-KW-1).
pub fn intern(name: &str) -> Option<&'static Name> {
    if name.len() > MAX_NAME_BYTES {
        return None;
    }
    // A thread panicked while holding the lock: intern nothing more.
    if let Some(found) = table().read().ok()?.names.get(name) {
        return Some(found);
    }
    let mut table = table().write().ok()?;
    if let Some(found) = table.names.get(name) {
        return Some(found);
    }
    if table.names.len() >= MAX_INTERNED || table.bytes + name.len() > MAX_INTERNED_BYTES {
        return None;
    }
    let interned: &'static Name = Box::leak(Box::new(Name::new(name.into())));
    table.bytes += name.len();
    table.names.insert(interned.text(), interned);
    Some(interned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_same_allocation() {
        let a = intern("intern-test-price").unwrap();
        let b = intern(&String::from("intern-test-price")).unwrap();
        assert!(std::ptr::eq(a, b));
        assert!(!std::ptr::eq(a, intern("intern-test-other").unwrap()));
        assert_eq!(a.text(), "intern-test-price");
        assert_eq!(
            a.hash(),
            super::super::hash::keyword_hash("intern-test-price")
        );
    }

    #[test]
    fn long_names_are_not_interned() {
        assert!(intern(&"x".repeat(MAX_NAME_BYTES + 1)).is_none());
        assert!(intern(&"x".repeat(MAX_NAME_BYTES)).is_some());
    }
}
