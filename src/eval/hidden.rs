//! The "hidden" mark (R-23 carried through derived values): which values a
//! session derived from hidden data (`data/_NAME`), so the renderer can show
//! them as `[hidden]` while programs and tools keep using the real values.
//!
//! # How a value gets the mark
//!
//! * Reading `data/_NAME` marks its value, and every string and collection
//!   inside it (numbers of 4 printed characters or more too).
//! * A builtin call with a marked argument marks its result when the call
//!   built it: `subs`, `str/upper-case`, `str`, `assoc`, `conj`, `+`…
//!   A value taken out of an argument (`first`, `get`: held elsewhere too)
//!   keeps its own mark instead, so `(:name (assoc user :key data/_key))`
//!   does not hide the user's name everywhere. Numbers are marked when a
//!   marked argument was a number or a string (arithmetic, parsing), and
//!   the result of `count` never (the data/ section shows sizes anyway).
//!   When no argument was a collection, the strings and collections built
//!   *by that call* inside the result are marked too (reference count 1:
//!   nothing else holds them), so `(first (str/split data/_csv #","))` and
//!   `(second (re-find #"(.+)=(.+)" data/_pair))` stay hidden. A result built
//!   from collections is marked as a whole only: it may share structure
//!   with non-hidden values (`(conj data/products data/_key)` must not hide
//!   the products); its items keep their own marks.
//! * The inline arithmetic of `+ - * < …` and `inc`/`dec` on numbers marks
//!   its result when an operand is marked.
//! * The builtins that flatten a collection into text or a number (`str`,
//!   `str/join`, `format`, `pr-str`…, `sum-by`, `avg-by`, `sum`, `avg`, the
//!   print family)
//!   also look *inside* collection arguments for a marked value.
//! * `symbol` and `re-pattern` of a marked string are marked (a symbol may
//!   share the string's storage: it is marked with it).
//! * `with-out-str` marks the string it returns when a print of a marked
//!   value went into it.
//! * A builtin call with a marked argument that fails, and `(throw v)` of
//!   a value holding a mark, have the texts of the marked values they
//!   quote replaced by `[hidden]` in the error's message and hint at the
//!   source ([`redact_pieces`]: any length; pieces under 4 characters only
//!   where they stand alone), so a caught `ex-message`, a `fail` reason
//!   and the rendered error show none of it.
//! * Printing (`println`, `prn`) with a marked argument marks the printed
//!   line: the Output section shows it with each argument that is or holds
//!   a marked value replaced by `[hidden]` (`(println "key:" k)` →
//!   `key: [hidden]`); a line that `print`/`pr` started shows as `[hidden]`
//!   as a whole.
//!
//! # What is not covered (documented limits)
//!
//! * Booleans and nil are never marked (`(= data/_key "x")` is not hidden),
//!   nor keywords (interned: `(keyword …)` names are shared with every
//!   keyword of that name), nor functions (closures show as `#fn[...]`).
//! * Numbers are marked by value and only when their printed text has 4
//!   characters or more (`1234`, `3.25`): a marked `7` would hide every 7 of
//!   the session. Numbers inside a *derived* collection are not marked
//!   (only inside the hidden data itself).
//! * Control flow: `(if (= data/_key "x") "yes" "no")` returns an unmarked
//!   constant; a value built without any builtin call (a literal vector
//!   holding hidden items, `for`, `loop`) is not marked itself, though the
//!   hidden items inside it are, and the flattening builtins above look
//!   inside it.
//! * Tool results are not marked: a tool called with a hidden key returns
//!   data the program is meant to see.
//! * Marks are kept for the whole session (a failed turn's marks stay:
//!   its prints and tool calls are recorded with the turn). The marked set
//!   holds a clone of each marked string and collection, so the address it
//!   is known by is not reused while it is marked; marks of values nothing
//!   else holds any more are dropped ([`HiddenMarks::prune`]).
//!
//! # Cost
//!
//! Nothing for sessions without hidden data: every hook checks one boolean
//! ([`HiddenMarks::active`]) that stays false until hidden data is read.
//! With hidden data: a hash lookup per builtin argument, and work
//! proportional to the size of the derived values when they are built.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::value::Value;

/// The values a session derived from hidden data.
#[derive(Clone, Default)]
pub struct HiddenMarks {
    /// Set by the first mark: the hooks of the evaluator test only this.
    active: bool,
    /// The marks, allocated at the first (a session without hidden data
    /// carries one pointer).
    marks: Option<Box<Marks>>,
}

/// What [`HiddenMarks`] holds once anything is marked.
#[derive(Clone, Default)]
struct Marks {
    /// Marked strings and collections by allocation address, each with a
    /// clone that keeps the address from being reused.
    heap: HashMap<usize, Value>,
    /// Texts of marked strings that an error message quoted (kept after
    /// the strings themselves are pruned).
    quoted: HashSet<String>,
    /// Prune unreachable marks when `heap` grows to this size.
    next_prune: usize,
    /// Marked integers by value.
    ints: HashSet<i64>,
    /// Marked floats by bit pattern.
    floats: HashSet<u64>,
    /// Printed lines (whole `println` entries) made from marked values,
    /// each with the text the prompt shows instead.
    lines: HashMap<String, String>,
}

impl HiddenMarks {
    /// The marks, read (empty ones before the first mark).
    fn m(&self) -> &Marks {
        static EMPTY: std::sync::OnceLock<Marks> = std::sync::OnceLock::new();
        self.marks
            .as_deref()
            .unwrap_or_else(|| EMPTY.get_or_init(Marks::default))
    }

    /// The marks, to change.
    fn m_mut(&mut self) -> &mut Marks {
        self.marks.get_or_insert_with(Box::default)
    }
}

impl std::fmt::Debug for HiddenMarks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HiddenMarks")
            .field("values", &self.m().heap.len())
            .field("numbers", &(self.m().ints.len() + self.m().floats.len()))
            .field("lines", &self.m().lines.len())
            .finish()
    }
}

/// The address `v` is marked under (`None`: a scalar, an empty value, a
/// keyword or a function, never marked by address).
fn addr(v: &Value) -> Option<usize> {
    match v {
        Value::Str(s) if !s.is_empty() => Some(s.addr()),
        Value::Vector(items) if !items.is_empty() => Some(items.addr()),
        Value::Map(m) if !m.is_empty() => m.shared_addr(),
        Value::Set(s) if !s.is_empty() => s.shared_addr(),
        Value::Symbol(s) if !s.is_empty() => Some(s.addr()),
        Value::Regex(r) => Some(Arc::as_ptr(r) as *const u8 as usize),
        _ => None,
    }
}

/// Whether a number's printed text is long enough to be marked.
fn long_number(v: &Value) -> bool {
    match v {
        Value::Int(i) => i.unsigned_abs() >= 1000 || *i <= -100,
        Value::Float(_) => crate::format::to_clojure(v, None, None).0.chars().count() >= 4,
        _ => false,
    }
}

/// Whether nobody else holds `v`'s storage (it was built just now).
fn unshared(v: &Value) -> bool {
    match v {
        Value::Str(s) => s.strong_count() == 1,
        Value::Vector(_) | Value::Map(_) | Value::Set(_) => v.shared_addr().is_none(),
        _ => false,
    }
}

impl HiddenMarks {
    /// Whether anything was ever marked.
    #[inline(always)]
    pub fn active(&self) -> bool {
        self.active
    }

    pub fn is_empty(&self) -> bool {
        !self.active
    }

    /// Whether `v` itself carries the mark.
    pub fn is_marked(&self, v: &Value) -> bool {
        if !self.active {
            return false;
        }
        match v {
            Value::Int(i) => self.m().ints.contains(i),
            Value::Float(f) => self.m().floats.contains(&f.to_bits()),
            _ => match v {
                // A marked value is held here too: its storage is shared.
                Value::Str(s) if s.strong_count() < 2 => false,
                _ => addr(v).is_some_and(|a| self.m().heap.contains_key(&a)),
            },
        }
    }

    /// Whether `v` or anything inside it carries the mark (iterative: no
    /// native recursion on deep values).
    pub fn contains_marked(&self, v: &Value) -> bool {
        if !self.active {
            return false;
        }
        let mut todo = vec![v];
        while let Some(x) = todo.pop() {
            if self.is_marked(x) {
                return true;
            }
            push_items(x, &mut todo);
        }
        false
    }

    /// Marks `v` itself (a scalar of 4 characters or more, a non-empty
    /// string or collection).
    pub fn mark(&mut self, v: &Value) {
        match v {
            Value::Int(i) if long_number(v) => {
                self.m_mut().ints.insert(*i);
            }
            Value::Float(f) if long_number(v) => {
                self.m_mut().floats.insert(f.to_bits());
            }
            _ => {
                let Some(a) = addr(v) else {
                    // An unshared map or set has no address until a second
                    // handle exists: keep the clone, then take it.
                    if matches!(v, Value::Map(_) | Value::Set(_)) && !is_empty_coll(v) {
                        let kept = v.clone();
                        if let Some(a) = addr(&kept) {
                            self.m_mut().heap.insert(a, kept);
                            self.active = true;
                        }
                    }
                    return;
                };
                let m = self.m_mut();
                m.heap.entry(a).or_insert_with(|| v.clone());
                if m.heap.len() >= m.next_prune {
                    self.prune();
                }
            }
        }
        self.active = true;
    }

    /// Forgets marked values nothing but the marks holds any more (the
    /// intermediate values of a loop): they can never be rendered, and
    /// keeping them would hold their memory for the whole session. Runs
    /// when the marks doubled since the last prune (amortized O(1) per
    /// mark), and after every turn.
    pub fn prune(&mut self) {
        let Some(m) = self.marks.as_deref_mut() else {
            return;
        };
        m.heap.retain(|_, v| match v {
            Value::Str(s) | Value::Symbol(s) => s.strong_count() > 1,
            Value::Regex(r) => Arc::strong_count(r) > 1,
            other => other.shared_addr().is_some(),
        });
        m.next_prune = (m.heap.len() * 2).max(1024);
    }

    /// Marks hidden data as read: the value, every string and collection
    /// inside it, and its long numbers. Skipped when already marked.
    pub fn mark_hidden_data(&mut self, v: &Value) {
        if self.is_marked(v) {
            return;
        }
        let mut todo = vec![v];
        while let Some(x) = todo.pop() {
            self.mark(x);
            push_items(x, &mut todo);
        }
        // Hidden scalars too short to be marked by value still make the
        // session active, so derived values are tracked.
        self.active = true;
    }

    /// Marks a value a builtin derived from marked arguments: itself, and,
    /// when `fresh_parts` (no argument was a collection, so the result
    /// shares no structure with one), the strings and collections inside it
    /// that nothing else shares (built by the call: `str/split` or
    /// `re-find` of a hidden string).
    ///
    /// Only values the call built are marked: a string or collection that
    /// something else holds too was taken out of an argument (`(:name
    /// (assoc user :key data/_key))` returns the user's name, which must not
    /// become hidden everywhere it appears) and keeps its own mark. A number
    /// is marked when `from_scalars`: a marked argument was a number or a
    /// string (arithmetic, parsing), not when it came out of a collection.
    pub fn mark_derived(&mut self, v: &Value, fresh_parts: bool, from_scalars: bool) {
        match v {
            Value::Int(_) | Value::Float(_) if from_scalars => {
                self.mark(v);
                return;
            }
            // Made from a marked string (`symbol`, `re-pattern`); a symbol
            // may share the string's storage, which is marked already.
            Value::Symbol(_) | Value::Regex(_) => {
                self.mark(v);
                return;
            }
            Value::Str(_) | Value::Vector(_) | Value::Map(_) | Value::Set(_) if unshared(v) => {}
            _ => return,
        }
        if !fresh_parts {
            self.mark(v);
            return;
        }
        // Whether each part is shared is decided before any is marked
        // (marking keeps a clone, which shares it).
        let mut fresh = Vec::new();
        let mut todo: Vec<&Value> = Vec::new();
        push_items(v, &mut todo);
        while let Some(x) = todo.pop() {
            if unshared(x) {
                fresh.push(x.clone());
                push_items(x, &mut todo);
            }
        }
        self.mark(v);
        for x in &fresh {
            self.mark(x);
        }
    }

    /// Marks one printed line; the prompt shows `shown` instead.
    pub fn mark_line(&mut self, line: &str, shown: &str) {
        self.m_mut()
            .lines
            .insert(line.to_string(), shown.to_string());
        self.active = true;
    }

    /// What the prompt shows of a printed line made from marked values.
    pub fn shown_line(&self, line: &str) -> Option<&str> {
        if !self.active {
            return None;
        }
        self.m().lines.get(line).map(String::as_str)
    }

    /// The texts of marked strings and symbols (the renderer replaces them
    /// in free text, error messages, by [`redact_pieces`]'s rule).
    pub fn marked_texts(&self) -> impl Iterator<Item = &str> {
        let m = self.m();
        m.heap
            .values()
            .filter_map(|v| match v {
                Value::Str(s) | Value::Symbol(s) => Some(&**s),
                _ => None,
            })
            .chain(m.quoted.iter().map(String::as_str))
    }

    /// The texts of the marked strings, symbols and numbers inside `vals`
    /// (iterative; at most [`MAX_PIECES`] of them, each shared part
    /// visited once, at most [`MAX_VISITS`] values visited: the renderer's
    /// pass still replaces marked texts of 4 characters or more).
    pub fn marked_texts_in(&self, vals: &[Value]) -> Vec<String> {
        let mut out = Vec::new();
        if !self.active {
            return out;
        }
        let mut seen = HashSet::new();
        let mut todo: Vec<&Value> = vals.iter().collect();
        let mut visits = 0usize;
        while let Some(x) = todo.pop() {
            if out.len() >= MAX_PIECES || visits >= MAX_VISITS {
                break;
            }
            visits += 1;
            if let Some(a) = x.shared_addr() {
                if !seen.insert(a) {
                    continue;
                }
            }
            if self.is_marked(x) {
                match x {
                    Value::Str(s) | Value::Symbol(s) => out.push(s.to_string()),
                    Value::Int(_) | Value::Float(_) => {
                        out.push(crate::format::to_clojure(x, None, None).0)
                    }
                    _ => {}
                }
            }
            push_items(x, &mut todo);
        }
        out
    }

    /// `v` with every part that is or holds a marked value replaced
    /// by the symbol `[hidden]` (what `fail`'s message shows of a reason
    /// holding hidden data). Iterative over the path to marked parts;
    /// below depth 64 a part holding a mark becomes `[hidden]` whole.
    pub fn replace_marked(&self, v: &Value) -> Value {
        self.replace_at(v, 0)
    }

    fn replace_at(&self, v: &Value, depth: usize) -> Value {
        if !self.contains_marked(v) {
            return v.clone();
        }
        if self.is_marked(v) || depth >= 64 {
            return Value::symbol(HIDDEN);
        }
        match v {
            Value::Vector(items) => {
                Value::vector_from(items.iter().map(|x| self.replace_at(x, depth + 1)))
            }
            Value::Map(m) => Value::map_from(
                m.iter()
                    .map(|(k, x)| (self.replace_at(k, depth + 1), self.replace_at(x, depth + 1))),
            ),
            Value::Set(s) => Value::set_from(s.iter().map(|x| self.replace_at(x, depth + 1))),
            _ => Value::symbol(HIDDEN),
        }
    }

    /// Keeps the texts of marked strings that `message` (an error's message
    /// or hint) quotes, so they are still replaced once the strings are
    /// gone.
    pub fn keep_quoted(&mut self, message: &str) {
        if !self.active {
            return;
        }
        let found: Vec<String> = self
            .m()
            .heap
            .values()
            .filter_map(|v| match v {
                Value::Str(s) | Value::Symbol(s)
                    if redact_pieces(message, std::slice::from_ref(&s.to_string())) != message =>
                {
                    Some(s.to_string())
                }
                _ => None,
            })
            .collect();
        self.m_mut().quoted.extend(found);
    }
}

/// How values derived from hidden data are shown.
pub const HIDDEN: &str = "[hidden]";

/// The most marked pieces one error message is checked for.
pub const MAX_PIECES: usize = 4096;

/// The most values [`HiddenMarks::marked_texts_in`] visits.
pub const MAX_VISITS: usize = 100_000;

/// Pieces shorter than this are replaced only where they stand alone.
pub const SHORT_PIECE: usize = 4;

/// `text` with each of `pieces` (texts of marked values, any length)
/// replaced by `[hidden]`, longest first: a piece of 4 characters or more
/// wherever it occurs; a shorter one where it stands alone — not next to
/// a letter, digit, `-` or `_` (`"s3c"`, `[s3c other]`, a message that is
/// only `s3c`) — so that a marked `"e"` does not mangle every word.
pub fn redact_pieces<S: AsRef<str>>(text: &str, pieces: &[S]) -> String {
    let mut sorted: Vec<&str> = pieces
        .iter()
        .map(AsRef::as_ref)
        .filter(|p| !p.is_empty() && p.as_bytes() != HIDDEN.as_bytes())
        .collect();
    sorted.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    sorted.dedup();
    let mut out = text.to_string();
    for p in sorted {
        if !out.contains(p) {
            continue;
        }
        if p.chars().count() >= SHORT_PIECE {
            out = out.replace(p, HIDDEN);
            continue;
        }
        let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        let mut next = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(i) = rest.find(p) {
            let before = match rest[..i].chars().next_back() {
                Some(c) => Some(c),
                None => next.chars().next_back(),
            };
            let after = rest[i + p.len()..].chars().next();
            next.push_str(&rest[..i]);
            if before.is_some_and(word) || after.is_some_and(word) {
                next.push_str(p);
            } else {
                next.push_str(HIDDEN);
            }
            rest = &rest[i + p.len()..];
        }
        next.push_str(rest);
        out = next;
    }
    out
}

/// Whether `v` is a non-empty collection (a result built from one may share
/// its structure).
pub fn is_collection(v: &Value) -> bool {
    match v {
        Value::Vector(items) => !items.is_empty(),
        Value::Map(_) | Value::Set(_) => !is_empty_coll(v),
        Value::Lazy(_) => true,
        _ => false,
    }
}

/// The builtins that print their arguments.
pub fn prints(name: &str) -> bool {
    matches!(name, "println" | "print" | "prn" | "pr")
}

/// The builtins that flatten collection arguments into text or a number
/// without calling other builtins on the items: the mark is looked for
/// inside their collection arguments.
pub fn flattens(name: &str) -> bool {
    prints(name)
        || matches!(
            name,
            "str"
                | "format"
                | "print-str"
                | "println-str"
                | "pr-str"
                | "prn-str"
                | "join"
                | "sum-by"
                | "avg-by"
                | "sum"
                | "avg"
        )
}

fn is_empty_coll(v: &Value) -> bool {
    match v {
        Value::Map(m) => m.is_empty(),
        Value::Set(s) => s.is_empty(),
        _ => true,
    }
}

/// Pushes the items of a collection (map keys and values) onto `todo`.
fn push_items<'a>(v: &'a Value, todo: &mut Vec<&'a Value>) {
    match v {
        Value::Vector(items) => todo.extend(items.iter()),
        Value::Map(m) => {
            for (k, x) in m.iter() {
                todo.push(k);
                todo.push(x);
            }
        }
        Value::Set(s) => todo.extend(s.iter()),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_marked_until_something_is() {
        let m = HiddenMarks::default();
        assert!(!m.active());
        assert!(!m.is_marked(&Value::string("abc")));
    }

    #[test]
    fn strings_are_marked_by_identity_not_by_text() {
        let mut m = HiddenMarks::default();
        let secret = Value::string("s3cr3t");
        m.mark(&secret);
        assert!(m.is_marked(&secret.clone()));
        assert!(!m.is_marked(&Value::string("s3cr3t")));
    }

    #[test]
    fn short_numbers_are_never_marked() {
        let mut m = HiddenMarks::default();
        m.mark(&Value::Int(7));
        m.mark(&Value::Int(1234));
        assert!(!m.is_marked(&Value::Int(7)));
        assert!(m.is_marked(&Value::Int(1234)));
    }

    #[test]
    fn derived_values_mark_their_fresh_parts_only() {
        let mut m = HiddenMarks::default();
        let shared = Value::string("Laptop");
        let keep = shared.clone();
        let fresh = Value::string("pass-word");
        let v = Value::vector_from([shared, fresh.clone()]);
        drop(fresh);
        m.mark_derived(&v, true, false);
        assert!(m.is_marked(&v));
        assert!(!m.is_marked(&keep));
        let Value::Vector(items) = &v else { panic!() };
        assert!(m.is_marked(&items[1]));
        assert!(m.contains_marked(&Value::vector_from([items[1].clone()])));
        // Taken out of an argument (held elsewhere too): not marked.
        m.mark_derived(&keep, true, true);
        assert!(!m.is_marked(&keep));
    }

    #[test]
    fn marks_of_values_nobody_holds_are_pruned() {
        let mut m = HiddenMarks::default();
        let kept = Value::string("kept-value");
        m.mark(&kept);
        m.mark(&Value::string("dropped-value"));
        assert_eq!(m.m().heap.len(), 2);
        m.prune();
        assert_eq!(m.m().heap.len(), 1);
        assert!(m.is_marked(&kept));
        // A loop's intermediate values do not pile up.
        for i in 0..5000 {
            m.mark(&Value::string(format!("intermediate-{i}")));
        }
        assert!(m.m().heap.len() <= 1024, "{}", m.m().heap.len());
    }

    #[test]
    fn pieces_of_any_length_are_redacted_short_ones_where_they_stand_alone() {
        let pieces = vec!["s3c".to_string(), "oken-".to_string()];
        assert_eq!(redact_pieces("s3c", &pieces), "[hidden]");
        assert_eq!(
            redact_pieces("got string \"s3c\" and xoken-y", &pieces),
            "got string \"[hidden]\" and x[hidden]y"
        );
        // Inside a word, a short piece stays: it is not the value.
        assert_eq!(
            redact_pieces("as3cb [s3c other]", &pieces),
            "as3cb [[hidden] other]"
        );
    }

    #[test]
    fn maps_without_a_second_handle_still_get_marked() {
        let mut m = HiddenMarks::default();
        let v = Value::map_from([(Value::keyword("k"), Value::Int(1))]);
        m.mark(&v);
        assert!(m.is_marked(&v));
    }
}
