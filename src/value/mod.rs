//! PTC-Lisp values.
//!
//! This module owns the [`Value`] type and its helpers: constructors, type
//! names for error messages, truthiness, and conversions. Equality, ordering
//! and hashing (which must agree with each other and with `format.md` F-2) live
//! in [`order`]; JSON conversion in [`json`]; function values in [`function`];
//! the infinite sequences of `(range)`, `iterate`, `repeat`, `cycle` in [`lazy`].
//!
//! Collections are persistent: small ones are contiguous arrays copied on
//! write, large ones structurally shared imbl trees ([`vector`], [`map`],
//! [`set`]). There is one
//! sequential type, the vector: lists, `map`/`filter` results and seqs are all
//! vectors (`language.md`, deliberate differences). Maps iterate in the
//! order their keys were first added and sets in the canonical order, so
//! iteration and printing are deterministic.
//!
//! Values are `Send + Sync` (`Arc`, not `Rc`), so a session can move between
//! threads and evaluation can run on a big-stack thread.

pub mod depth;
pub mod function;
pub mod hash;
pub mod intern;
pub mod json;
pub mod lazy;
pub mod map;
pub mod order;
pub mod regex;
pub mod set;
pub mod size;
pub mod vector;

use std::sync::Arc;

pub use function::{Func, NativeFn};
pub use lazy::LazySeq;

pub use map::Map;
pub use set::Set;
pub use vector::Vector;

/// A PTC-Lisp value. 24 bytes; cloning is O(1) for every variant.
#[derive(Clone)]
pub enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string. Characters are one-character strings (`language.md`).
    Str(Arc<str>),
    /// A keyword without its colon: `:a` is `"a"`, `:ns/a` is `"ns/a"`.
    Keyword(Arc<str>),
    /// A symbol (only as quoted data).
    Symbol(Arc<str>),
    Vector(Arc<Vector>),
    Map(Map),
    Set(Set),
    Fn(Func),
    Regex(Arc<regex::Pattern>),
    /// `#'name`, what `def` returns.
    Var(Arc<str>),
    /// An infinite sequence, realized only as far as it is consumed.
    Lazy(Arc<LazySeq>),
    /// `(reduced x)`: stops a `reduce` early.
    Reduced(Arc<Value>),
}

/// The most bytes of a value [`Value::describe`] shows.
pub const DESCRIBE_BYTES: usize = 1024;

/// The address of `a`'s allocation when another handle holds it too.
pub(crate) fn shared_addr<T: ?Sized>(a: &Arc<T>) -> Option<usize> {
    (Arc::strong_count(a) > 1).then_some(Arc::as_ptr(a) as *const u8 as usize)
}

impl Value {
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::Str(s.into())
    }
    pub fn keyword(s: impl Into<Arc<str>>) -> Value {
        Value::Keyword(s.into())
    }
    /// The address of a collection's (or closure's) storage when another
    /// value holds it too; `None` for unshared values and scalars. The
    /// depth check and comparisons use it to visit each shared part of a
    /// self-sharing value (`[a a]` nested n times) once.
    pub fn shared_addr(&self) -> Option<usize> {
        match self {
            Value::Vector(items) => shared_addr(items),
            Value::Map(m) => m.shared_addr(),
            Value::Set(s) => s.shared_addr(),
            Value::Fn(Func::Closure(c)) => shared_addr(c),
            Value::Reduced(inner) => shared_addr(inner),
            Value::Lazy(seq) => shared_addr(seq),
            _ => None,
        }
    }

    /// A keyword whose name comes from source text or data: interned
    /// ([`intern`]), so lookups with it compare pointers.
    pub fn keyword_interned(name: &str) -> Value {
        Value::Keyword(intern::intern(name))
    }
    pub fn symbol(s: impl Into<Arc<str>>) -> Value {
        Value::Symbol(s.into())
    }
    /// A vector value; a small vector's spare capacity is dropped.
    pub fn vector(mut v: Vector) -> Value {
        v.shrink_to_fit();
        Value::Vector(Arc::new(v))
    }
    pub fn vector_from<I: IntoIterator<Item = Value>>(items: I) -> Value {
        Value::vector(items.into_iter().collect())
    }
    pub fn empty_vector() -> Value {
        Value::Vector(Arc::new(Vector::new()))
    }
    pub fn map(m: Map) -> Value {
        Value::Map(m)
    }
    pub fn map_from<I: IntoIterator<Item = (Value, Value)>>(entries: I) -> Value {
        Value::Map(entries.into_iter().collect())
    }
    pub fn set(s: Set) -> Value {
        Value::Set(s)
    }
    pub fn set_from<I: IntoIterator<Item = Value>>(items: I) -> Value {
        Value::Set(items.into_iter().collect())
    }
    /// A map entry `[k v]`.
    pub fn entry(k: Value, v: Value) -> Value {
        let mut vec = Vector::with_capacity(2);
        vec.push_back(k);
        vec.push_back(v);
        Value::vector(vec)
    }

    /// Clojure truthiness: everything but `nil` and `false` is true.
    #[inline]
    pub fn truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The type's name as error messages say it: `count expects a
    /// collection, got integer 5`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Keyword(_) => "keyword",
            Value::Symbol(_) => "symbol",
            Value::Vector(_) => "vector",
            Value::Map(_) => "map",
            Value::Set(_) => "set",
            Value::Fn(_) => "function",
            Value::Regex(_) => "regex",
            Value::Var(_) => "var",
            Value::Lazy(_) => "infinite sequence",
            Value::Reduced(_) => "reduced",
        }
    }

    /// `integer 5`, `string "abc"`, `vector [1 2 ...]`: the type and a short
    /// preview, for error messages: at most 3 items per collection, 40
    /// characters per string, and [`DESCRIBE_BYTES`] in all (a value that
    /// shares its parts shows 2^n items even 3 at a time).
    pub fn describe(&self) -> String {
        match self {
            Value::Nil => "nil".to_string(),
            _ => {
                let (text, _) =
                    crate::format::to_clojure_capped(self, Some(3), Some(40), Some(DESCRIBE_BYTES));
                format!("{} {}", self.type_name(), text)
            }
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_vector(&self) -> Option<&Vector> {
        match self {
            Value::Vector(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_))
    }
    pub fn is_fn(&self) -> bool {
        matches!(self, Value::Fn(_))
    }

    /// Keyword name without namespace: `:a/b` → `b`.
    pub fn keyword_name(k: &str) -> &str {
        match k.find('/') {
            Some(i) if i > 0 && i + 1 < k.len() => &k[i + 1..],
            _ => k,
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.into())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s.into())
    }
}
impl From<Vector> for Value {
    fn from(v: Vector) -> Value {
        Value::vector(v)
    }
}
impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Map(m)
    }
}
impl From<Set> for Value {
    fn from(s: Set) -> Value {
        Value::Set(s)
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::format::to_clojure(self, None, None).0)
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::format::to_clojure(self, None, None).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_stays_small() {
        assert_eq!(std::mem::size_of::<Value>(), 24);
    }

    #[test]
    fn truthiness_is_clojures() {
        assert!(!Value::Nil.truthy());
        assert!(!Value::Bool(false).truthy());
        assert!(Value::Int(0).truthy());
        assert!(Value::string("").truthy());
        assert!(Value::empty_vector().truthy());
    }
}
