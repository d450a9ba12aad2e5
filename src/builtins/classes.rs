//! The Java exception classes ptc knows, and their hierarchy (issue 27
//! item 11): what `catch` matches and what `instance?` answers for errors.
//!
//! Rule (language.md §Java interop, decided here): `(catch C e …)` catches
//! an error when C is the error's class or one of its ancestors in
//! [`CLASSES`]. An error built as a Java exception (`(throw
//! (IllegalStateException. "m"))`, a failed `Integer/parseInt`, a `case`
//! without a match) has that class. An error of ptc's own has the class its
//! kind corresponds to: `arithmetic-error` → `ArithmeticException`, an
//! `ex-info` → `ExceptionInfo`, `arity-error` → `ArityException`,
//! `type-error` → `ClassCastException` (and also `IllegalArgumentException`
//! and `NullPointerException`, the classes Clojure raises for a wrong
//! argument), any other catchable error → `RuntimeException`. `Exception`
//! and `Throwable` therefore catch every catchable error except
//! `AssertionError` (a failed `assert`), which like Clojure's is an `Error`:
//! `Throwable`, `Error` and `AssertionError` catch it, `Exception` does not.
//! A class name outside the table is a `validation-error` listing the
//! known ones.

use crate::error::{Error, ErrorKind};

/// Every class ptc knows, with its parent (`None` for `Throwable`).
pub const CLASSES: &[(&str, Option<&str>)] = &[
    ("Throwable", None),
    ("Exception", Some("Throwable")),
    ("Error", Some("Throwable")),
    ("AssertionError", Some("Error")),
    ("RuntimeException", Some("Exception")),
    ("ExceptionInfo", Some("RuntimeException")),
    ("IllegalArgumentException", Some("RuntimeException")),
    ("NumberFormatException", Some("IllegalArgumentException")),
    ("ArityException", Some("IllegalArgumentException")),
    ("IllegalStateException", Some("RuntimeException")),
    ("ArithmeticException", Some("RuntimeException")),
    ("ClassCastException", Some("RuntimeException")),
    ("NullPointerException", Some("RuntimeException")),
    ("UnsupportedOperationException", Some("RuntimeException")),
    ("IndexOutOfBoundsException", Some("RuntimeException")),
    (
        "StringIndexOutOfBoundsException",
        Some("IndexOutOfBoundsException"),
    ),
    (
        "ArrayIndexOutOfBoundsException",
        Some("IndexOutOfBoundsException"),
    ),
    ("DateTimeParseException", Some("RuntimeException")),
];

/// The known class `name` denotes (simple or qualified: `java.lang.Exception`,
/// `clojure.lang.ExceptionInfo`), as its `'static` simple name.
pub fn known(name: &str) -> Option<&'static str> {
    let simple = name.rsplit('.').next().unwrap_or(name);
    CLASSES.iter().find(|(c, _)| *c == simple).map(|(c, _)| *c)
}

/// Whether `class` is `ancestor` or below it.
pub fn is_a(class: &str, ancestor: &str) -> bool {
    let mut at = Some(class);
    let mut guard = 0;
    while let Some(c) = at {
        if c == ancestor {
            return true;
        }
        guard += 1;
        if guard > CLASSES.len() {
            return false;
        }
        at = CLASSES.iter().find(|(n, _)| *n == c).and_then(|(_, p)| *p);
    }
    false
}

/// The classes an error is an instance of, most specific first (a
/// `type-error` is several: see the module docs).
pub fn classes_of(e: &Error) -> &'static [&'static str] {
    if let Some(c) = e.class() {
        return match CLASSES.iter().position(|(n, _)| *n == c) {
            Some(i) => std::slice::from_ref(&CLASSES[i].0),
            None => &["RuntimeException"],
        };
    }
    match e.kind() {
        ErrorKind::Arithmetic => &["ArithmeticException"],
        ErrorKind::Arity => &["ArityException"],
        ErrorKind::Type => &[
            "ClassCastException",
            "IllegalArgumentException",
            "NullPointerException",
        ],
        ErrorKind::Execution if e.data().is_some() => &["ExceptionInfo"],
        _ => &["RuntimeException"],
    }
}

/// Whether `(catch class …)` catches `e`.
pub fn catches(class: &str, e: &Error) -> bool {
    classes_of(e).iter().any(|c| is_a(c, class))
}

/// The error for a `catch` (or `instance?`) naming a class ptc does not know.
pub fn unknown_class(name: &str) -> Error {
    let names: Vec<&str> = CLASSES.iter().map(|(c, _)| *c).collect();
    Error::validation(format!("unknown exception class {name}")).with_hint(format!(
        "the classes ptc knows: {}; (catch Exception e ...) catches every error",
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierarchy() {
        assert!(is_a("NumberFormatException", "Exception"));
        assert!(is_a("AssertionError", "Throwable"));
        assert!(!is_a("AssertionError", "Exception"));
        assert!(!is_a("IllegalStateException", "IllegalArgumentException"));
        assert_eq!(
            known("java.lang.IllegalStateException"),
            Some("IllegalStateException")
        );
        assert_eq!(known("IOException"), None);
    }
}
