//! Interned keyword names: every `:price` in a program's source (and every
//! key of JSON data) shares one `Arc<str>`, so comparing a looked-up key
//! with a map's key is usually a pointer comparison ([`super::order`]).
//!
//! Only names from source text and data are interned, never keywords a
//! program computes (`(keyword (str i))`), and the table stops growing at
//! [`MAX_INTERNED`] names: a long-running host cannot be made to leak
//! through it. Past the cap, names are allocated as before (still correct,
//! just compared by content).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

/// Most names the table keeps.
pub const MAX_INTERNED: usize = 1 << 16;

fn table() -> &'static Mutex<HashSet<Arc<str>>> {
    static TABLE: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashSet::new()))
}

/// The shared `Arc<str>` for `name`.
pub fn intern(name: &str) -> Arc<str> {
    let Ok(mut table) = table().lock() else {
        // A thread panicked while holding the lock: intern nothing more.
        return name.into();
    };
    if let Some(shared) = table.get(name) {
        return shared.clone();
    }
    let shared: Arc<str> = name.into();
    if table.len() < MAX_INTERNED {
        table.insert(shared.clone());
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_same_allocation() {
        let a = intern("intern-test-price");
        let b = intern(&String::from("intern-test-price"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &intern("intern-test-other")));
    }
}
