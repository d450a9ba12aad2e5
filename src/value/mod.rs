//! PTC-Lisp values.
//!
//! This module owns the [`Value`] type and its helpers: constructors, type
//! names for error messages, truthiness, and conversions. Equality, ordering
//! and hashing (which must agree with each other and with `format.md` F-2) live
//! in `order.rs`; JSON conversion in `json.rs` ([`to_json`], [`from_json`],
//! and `Value`'s serde impls); function values in `function.rs`; the infinite
//! sequences of `(range)`, `iterate`, `repeat`, `cycle` in `lazy.rs`.
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
//! threads and host code can use what a program returns on any thread.

pub(crate) mod cost;
pub(crate) mod depth;
pub(crate) mod function;
pub(crate) mod hash;
pub(crate) mod intern;
pub(crate) mod json;
pub(crate) mod keyword;
pub(crate) mod lazy;
pub(crate) mod map;
pub(crate) mod order;
pub(crate) mod packed;
pub(crate) mod regex;
pub(crate) mod returned;
pub(crate) mod serial;
pub(crate) mod set;
pub(crate) mod shared_vec;
pub(crate) mod size;
pub(crate) mod text;
pub(crate) mod unique;
pub(crate) mod vector;

use std::sync::Arc;

pub(crate) use function::{ClosureFn, Func, FuncRef, NativeCode};
pub(crate) use lazy::{any_may_end, LazySeq, Link, Thunk};

pub use json::{from_json, to_json, to_json_lossless, to_json_within};

pub use keyword::Kw;
pub use map::Map;
pub use returned::Returned;
pub use set::Set;
pub use text::Text;
pub use vector::Vector;

/// A PTC-Lisp value. 16 bytes; cloning is O(1) for every variant.
///
/// **serde.** `Serialize` writes the value's lossless JSON form (the one
/// [`to_json_lossless`] gives: nil, booleans, integers, finite floats,
/// strings, vectors, keyword-keyed maps, nested freely) and *fails* with an
/// error naming the offending part for anything else (a keyword would read
/// back as a string, a set as a vector; NaN, functions …), so what is
/// stored reads back equal. `Deserialize` reads JSON as [`from_json`] does
/// (object keys become keywords). For a lossy conversion use [`to_json`];
/// for text, [`crate::to_clojure`].
///
/// Every payload is at most one word (strings, keywords, vectors, maps,
/// sets and functions are thin or tagged pointers: `text.rs`,
/// `keyword.rs`, `vector/handle.rs`, `map/handle.rs`, `set.rs`,
/// `function.rs`), so a value is two words: the tag, a whole word
/// (`repr(u64)`), then the payload. No payload lends the tag a niche (a
/// `match` jumps on the tag as it is), and with a one-byte tag every move
/// of a value out of a `Result` or a `match` copies the seven bytes after
/// it piecewise (+2 to +6 % instructions on the benchmark programs). A
/// value, an `Option<Value>` and a `Result<Value>` are 16 bytes (tested).
#[repr(u64)]
pub enum Value {
    /// `nil`.
    Nil,
    /// `true` or `false`.
    Bool(bool),
    /// A 64-bit integer (arithmetic that overflows is an `arithmetic-error`).
    Int(i64),
    /// A 64-bit float (`##NaN`, `##Inf` included).
    Float(f64),
    /// A string ([`Text`]: one word). Characters are one-character strings
    /// (`language.md`).
    Str(Text),
    /// A keyword without its colon: `:a` is `"a"`, `:ns/a` is `"ns/a"`
    /// ([`Kw`] derefs to `str`; names from source and data are interned).
    Keyword(Kw),
    /// A symbol (only as quoted data).
    Symbol(Text),
    /// A vector; also what lists, seqs and `map`/`filter` results are.
    Vector(Vector),
    /// A map, iterating in the order its keys were first added.
    Map(Map),
    /// A set, iterating in canonical order.
    Set(Set),
    /// A function: a builtin, a `fn` the program made, or a native closure.
    /// Opaque outside the interpreter: call it with [`crate::Interp::call`].
    Fn(Func),
    /// A regular expression (`#"…"`, Java syntax). Opaque outside the
    /// interpreter; it prints as its `#"…"` literal.
    Regex(Arc<regex::Pattern>),
    /// `#'name`, what `def` returns.
    Var(Text),
    /// A lazy sequence (infinite, or a `lazy-seq`), realized only as far as
    /// it is consumed.
    Lazy(Arc<Link>),
    /// `(reduced x)`: stops a `reduce` early.
    Reduced(Arc<Value>),
}

/// The most bytes of a value [`Value::describe`] shows.
pub const DESCRIBE_BYTES: usize = 1024;

/// A piece of outside or program text an error message quotes (a name, a
/// string a parser refused, a tool's stderr or exception): at most
/// [`DESCRIBE_BYTES`], cut at a character boundary with `...` appended as
/// [`crate::format::to_clojure_capped`] does, so no message grows with its
/// input and the next prompt gets at most 1 KB of it.
pub fn describe_text(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= DESCRIBE_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = DESCRIBE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned(format!("{}...", &text[..end]))
}

/// The address of `a`'s allocation when another handle holds it too.
pub(crate) fn shared_addr<T: ?Sized>(a: &Arc<T>) -> Option<usize> {
    (Arc::strong_count(a) > 1).then_some(Arc::as_ptr(a) as *const u8 as usize)
}

/// A scalar (`nil`, a boolean, a number) is copied inline, where it is
/// cloned: its bits are the whole value. Anything that holds an
/// allocation is cloned out of line (a reference count to add).
impl Clone for Value {
    #[inline(always)]
    fn clone(&self) -> Value {
        if matches!(
            self,
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_)
        ) {
            // SAFETY: these variants hold only `Copy` data, so a bitwise
            // copy is a clone and owns nothing the original owns.
            return unsafe { std::ptr::read(self) };
        }
        self.clone_held()
    }
}

impl Value {
    /// Writes `v` where `slot` holds `nil` (an argument array's or a
    /// value taken out for an update): a `nil` owns nothing, so no drop
    /// call is made for it, as `*slot = v` would.
    #[inline(always)]
    pub(crate) fn fill(slot: &mut Value, v: Value) {
        debug_assert!(matches!(slot, Value::Nil));
        std::mem::forget(std::mem::replace(slot, v));
    }

    /// `*slot = v` where `slot` usually holds a scalar (a shared frame's
    /// parameter slot, left `nil` by the last call's final read of it): a
    /// scalar is written over without the drop call.
    #[inline(always)]
    pub(crate) fn put(slot: &mut Value, v: Value) {
        if slot.is_scalar() {
            std::mem::forget(std::mem::replace(slot, v));
        } else {
            *slot = v;
        }
    }

    /// The value, taken out of `slot` (left nil): what a callee does with
    /// an argument it may take.
    #[inline(always)]
    pub fn take(slot: &mut Value) -> Value {
        std::mem::replace(slot, Value::Nil)
    }

    /// [`Value::clone`] of a value that holds an allocation.
    #[inline(never)]
    fn clone_held(&self) -> Value {
        match self {
            Value::Nil => Value::Nil,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(i) => Value::Int(*i),
            Value::Float(f) => Value::Float(*f),
            Value::Str(s) => Value::Str(s.clone()),
            Value::Keyword(k) => Value::Keyword(k.clone()),
            Value::Symbol(s) => Value::Symbol(s.clone()),
            Value::Vector(v) => Value::Vector(v.clone()),
            Value::Map(m) => Value::Map(m.clone()),
            Value::Set(s) => Value::Set(s.clone()),
            Value::Fn(f) => Value::Fn(f.clone()),
            Value::Regex(r) => Value::Regex(r.clone()),
            Value::Var(v) => Value::Var(v.clone()),
            Value::Lazy(l) => Value::Lazy(l.clone()),
            Value::Reduced(r) => Value::Reduced(r.clone()),
        }
    }

    /// The function this value is, if it is one.
    #[inline(always)]
    pub(crate) fn as_func(&self) -> Option<&Func> {
        match self {
            Value::Fn(f) => Some(f),
            _ => None,
        }
    }

    /// The closure this value is, if it is a function made by `fn`.
    #[inline(always)]
    pub(crate) fn as_closure(&self) -> Option<&ClosureFn> {
        match self {
            Value::Fn(f) => f.as_closure(),
            _ => None,
        }
    }

    /// The builtin this value is, if it is one.
    #[inline(always)]
    pub(crate) fn as_builtin(&self) -> Option<&'static crate::builtins::Builtin> {
        match self {
            Value::Fn(f) => f.as_builtin(),
            _ => None,
        }
    }

    /// A string value.
    pub fn string(s: impl Into<Text>) -> Value {
        Value::Str(s.into())
    }
    /// A keyword, named without its colon: `Value::keyword("a")` is `:a`.
    pub fn keyword(s: impl Into<Text>) -> Value {
        Value::Keyword(Kw::counted(s))
    }
    /// The address of a collection's (or closure's) storage when another
    /// value holds it too; `None` for unshared values and scalars. The
    /// depth check and comparisons use it to visit each shared part of a
    /// self-sharing value (`[a a]` nested n times) once.
    pub(crate) fn shared_addr(&self) -> Option<usize> {
        match self {
            Value::Vector(items) => items.shared_addr(),
            Value::Map(m) => m.shared_addr(),
            Value::Set(s) => s.shared_addr(),
            Value::Fn(f) => f.as_closure()?.shared_addr(),
            Value::Reduced(inner) => shared_addr(inner),
            Value::Lazy(seq) => shared_addr(seq),
            _ => None,
        }
    }

    /// A keyword whose name comes from source text or data: interned
    /// (`intern`), so lookups with it compare pointers.
    pub(crate) fn keyword_interned(name: &str) -> Value {
        Value::Keyword(Kw::interned(name))
    }
    /// A symbol (the value of a quoted name), named without a quote.
    pub fn symbol(s: impl Into<Text>) -> Value {
        Value::Symbol(s.into())
    }
    /// A vector holding `v`; a small vector's spare capacity is dropped.
    pub fn vector(mut v: Vector) -> Value {
        v.shrink_to_fit();
        Value::Vector(v)
    }
    /// A vector of `items`, in order.
    pub fn vector_from<I: IntoIterator<Item = Value>>(items: I) -> Value {
        Value::vector(items.into_iter().collect())
    }
    /// `[]`.
    pub fn empty_vector() -> Value {
        Value::Vector(Vector::new())
    }
    /// A map holding `m`.
    pub fn map(m: Map) -> Value {
        Value::Map(m)
    }
    /// A map of `entries`, in order; a later entry's value replaces an
    /// earlier one's with the same key.
    pub fn map_from<I: IntoIterator<Item = (Value, Value)>>(entries: I) -> Value {
        Value::Map(entries.into_iter().collect())
    }
    /// A set holding `s`.
    pub fn set(s: Set) -> Value {
        Value::Set(s)
    }
    /// A set of `items` (duplicates collapse).
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

    /// [`Value::truthy`] of a value the caller is done with (a predicate's
    /// answer): a boolean or `nil` is not passed to the out-of-line drop.
    #[inline(always)]
    pub(crate) fn into_truthy(self) -> bool {
        let t = self.truthy();
        Value::release(self);
        t
    }

    /// Whether this value owns no heap memory (`nil`, booleans, numbers):
    /// copying it is a bit copy and dropping it does nothing.
    #[inline(always)]
    pub(crate) fn is_scalar(&self) -> bool {
        matches!(
            self,
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_)
        )
    }

    /// Drops `v`, skipping the out-of-line drop for a scalar (the frames
    /// of hot functions hold mostly numbers).
    #[inline(always)]
    pub(crate) fn release(v: Value) {
        if v.is_scalar() {
            std::mem::forget(v);
        } else {
            drop(v);
        }
    }

    /// Whether this is `nil`.
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

    /// The text of a string, `None` for anything else.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The integer, `None` for anything else (floats included).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The items of a vector, `None` for anything else.
    pub fn as_vector(&self) -> Option<&Vector> {
        match self {
            Value::Vector(v) => Some(v),
            _ => None,
        }
    }
    /// The map, `None` for anything else.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    /// Whether this is an integer or a float.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_))
    }
    /// Whether this can be called as a function value (`fn?`).
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
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<crate::error::Result<Value>>(), 16);
        assert_eq!(std::mem::size_of::<Option<Value>>(), 16);
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
