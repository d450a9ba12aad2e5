//! The builtin function registry.
//!
//! Every builtin is a [`Builtin`] row — name, namespace, arity, one-line doc,
//! example, and the Rust function — in the table of its area's module. This
//! one registry feeds name resolution in [`crate::analyze`], arity errors,
//! "did you mean" hints, the REPL's `doc`/`apropos`, and the system prompt.
//!
//! Areas: [`core`] (functions on functions, printing, errors, control),
//! [`numbers`], [`predicates`], [`seq`] (sequence functions and infinite
//! sequences), [`coll`] (collections and maps), [`string`] (clojure.string,
//! regexes, `format`), [`set`] (clojure.set), [`walk`] (clojure.walk),
//! [`query`] (`where`, `all-of`, the aggregators: PTC-Lisp extensions),
//! [`interop`] (the date helpers, the only Java interop).
//!
//! Names resolve by namespace: `clojure.string/join`, `str/join` and
//! `string/join` are [`Ns::String`]'s `join`; a bare name is looked up in
//! clojure.core first, then clojure.string, clojure.set, clojure.walk.

pub mod args;
pub mod classes;
pub mod coll;
pub mod core;
#[cfg(test)]
mod idiom_tests;
pub mod interop;
pub mod java;
pub mod java_methods;
pub mod json;
mod memo;
pub mod numbers;
pub mod predicates;
pub mod query;
#[cfg(test)]
mod reference;
pub mod seq;
pub mod set;
pub mod strformat;
pub mod string;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests_vars;
pub mod walk;

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::error::Result;
use crate::eval::Interp;
use crate::value::Value;

/// The Rust side of a builtin. Arguments have already been checked against
/// the declared [`Arity`], so `args[i]` for `i < arity.min` is safe.
pub type BuiltinFn = fn(&mut Interp, &[Value]) -> Result<Value>;

/// A builtin that may take its arguments' values (`std::mem::replace`),
/// used when the caller will not read them again: a collection owned only by
/// the argument is then updated in place instead of copied (`assoc` on a
/// `reduce` accumulator). It must behave exactly like the row's `f`.
pub type OwnedBuiltinFn = fn(&mut Interp, &mut [Value]) -> Result<Value>;

/// The namespace a builtin belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ns {
    Core,
    String,
    Set,
    Walk,
    /// JSON (`json.rs`): clojure.data.json and cheshire.core names.
    Json,
}

impl Ns {
    /// The namespace a qualifier names: `clojure.string`, `str`, `string` …
    pub fn from_qualifier(q: &str) -> Option<Ns> {
        match q {
            "clojure.core" | "core" => Some(Ns::Core),
            "clojure.string" | "str" | "string" | "s" => Some(Ns::String),
            "clojure.set" | "set" => Some(Ns::Set),
            "clojure.walk" | "walk" => Some(Ns::Walk),
            "clojure.data.json" | "json" | "cheshire.core" | "cheshire" => Some(Ns::Json),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ns::Core => "clojure.core",
            Ns::String => "clojure.string",
            Ns::Set => "clojure.set",
            Ns::Walk => "clojure.walk",
            Ns::Json => "clojure.data.json",
        }
    }
}

/// How many arguments a builtin takes: `min..=max` (`max: None` = variadic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: u16,
    pub max: Option<u16>,
}

impl Arity {
    pub const fn exact(n: u16) -> Arity {
        Arity {
            min: n,
            max: Some(n),
        }
    }
    pub const fn range(min: u16, max: u16) -> Arity {
        Arity {
            min,
            max: Some(max),
        }
    }
    pub const fn at_least(min: u16) -> Arity {
        Arity { min, max: None }
    }
    pub fn accepts(self, n: usize) -> bool {
        n >= self.min as usize && self.max.is_none_or(|m| n <= m as usize)
    }
    /// `1 argument`, `2 or 3 arguments`, `at least 1 argument`.
    pub fn describe(self) -> String {
        let plural = |n: u16| if n == 1 { "argument" } else { "arguments" };
        match self.max {
            Some(m) if m == self.min => format!("{} {}", m, plural(m)),
            Some(m) if m == self.min + 1 => format!("{} or {} {}", self.min, m, plural(m)),
            Some(m) => format!("{} to {} {}", self.min, m, plural(m)),
            None => format!("at least {} {}", self.min, plural(self.min)),
        }
    }
}

/// One row of the registry.
pub struct Builtin {
    pub name: &'static str,
    pub ns: Ns,
    pub arity: Arity,
    /// One line: what it does.
    pub doc: &'static str,
    /// A short call with its result, e.g. `(inc 1) ;=> 2`; may be empty.
    pub example: &'static str,
    pub f: BuiltinFn,
    /// The same function taking ownership of its arguments, if it gains
    /// from it.
    pub owned: Option<OwnedBuiltinFn>,
}

impl Builtin {
    /// Whether this is clojure.core's `name` through its plain entry (what
    /// the evaluator's in-place shortcuts for a builtin stand in for).
    pub(crate) fn is_core(&self, name: &str) -> bool {
        self.name == name && self.ns == Ns::Core && self.owned.is_none()
    }

    /// A clojure.core builtin without example.
    pub const fn new(name: &'static str, arity: Arity, doc: &'static str, f: BuiltinFn) -> Builtin {
        Builtin {
            name,
            ns: Ns::Core,
            arity,
            doc,
            example: "",
            f,
            owned: None,
        }
    }
    /// The same builtin in another namespace.
    pub const fn ns(mut self, ns: Ns) -> Builtin {
        self.ns = ns;
        self
    }
    /// Adds the variant that takes ownership of its arguments.
    pub const fn owned(mut self, f: OwnedBuiltinFn) -> Builtin {
        self.owned = Some(f);
        self
    }
    pub const fn example(mut self, example: &'static str) -> Builtin {
        self.example = example;
        self
    }

    /// The qualified name, e.g. `clojure.string/join`.
    pub fn qualified_name(&self) -> String {
        format!("{}/{}", self.ns.name(), self.name)
    }

    /// What `(doc name)` shows: the qualified name, the arity, the doc
    /// line and the example, each on its own line indented by two spaces.
    pub fn doc_text(&self) -> String {
        let mut s = format!(
            "{}\n  {}\n  {}",
            self.qualified_name(),
            self.arity.describe(),
            self.doc
        );
        if !self.example.is_empty() {
            s.push_str("\n  ");
            s.push_str(self.example);
        }
        s
    }
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#builtin[{}]", self.qualified_name())
    }
}

/// Every area's table.
fn tables() -> [&'static [Builtin]; 13] {
    [
        core::BUILTINS,
        numbers::BUILTINS,
        predicates::BUILTINS,
        seq::BUILTINS,
        coll::BUILTINS,
        string::BUILTINS,
        set::BUILTINS,
        walk::BUILTINS,
        query::BUILTINS,
        interop::BUILTINS,
        java::BUILTINS,
        java_methods::BUILTINS,
        json::BUILTINS,
    ]
}

struct Registry {
    by_name: HashMap<(Ns, &'static str), &'static Builtin>,
    all: Vec<&'static Builtin>,
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut by_name = HashMap::new();
        let mut all = Vec::new();
        for table in tables() {
            for b in table {
                by_name.insert((b.ns, b.name), b);
                all.push(b);
            }
        }
        all.sort_by_key(|b| (b.name, b.ns as u8));
        Registry { by_name, all }
    })
}

/// Looks a builtin up in one namespace.
pub fn lookup_in(ns: Ns, name: &str) -> Option<&'static Builtin> {
    registry().by_name.get(&(ns, name)).copied()
}

/// Looks a bare name up: clojure.core first, then clojure.string, clojure.set,
/// clojure.walk.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    [Ns::Core, Ns::String, Ns::Set, Ns::Walk]
        .into_iter()
        .find_map(|ns| lookup_in(ns, name))
}

/// Every builtin, sorted by name.
pub fn all() -> &'static [&'static Builtin] {
    &registry().all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_name_is_registered_twice_in_one_namespace() {
        let mut seen = std::collections::HashSet::new();
        for table in tables() {
            for b in table {
                assert!(
                    seen.insert((b.ns, b.name)),
                    "duplicate builtin {}",
                    b.qualified_name()
                );
            }
        }
    }

    #[test]
    fn arity_descriptions_read_well() {
        assert_eq!(Arity::exact(1).describe(), "1 argument");
        assert_eq!(Arity::range(2, 3).describe(), "2 or 3 arguments");
        assert_eq!(Arity::at_least(0).describe(), "at least 0 arguments");
    }
}
