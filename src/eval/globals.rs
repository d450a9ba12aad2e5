//! The user/ namespace: every definition made by `def`/`defn`.
//!
//! Names get a [`GlobalId`] the first time they are defined (or first seen
//! in a `def` during analysis), so compiled code reads definitions by index,
//! and ids follow the order of first definition (the prelude's order, R-24).
//! Everything is persistent: a [`Globals::clone`] shares every definition
//! with the original (it copies two pointers), and a change after it
//! copies the list of 8-name chunks (one pointer each) and the one chunk
//! it falls in, which makes per-turn snapshots and rollback of failed
//! turns cheap: a session's memory after a turn costs the chunks that turn
//! changed, not the whole namespace, and a turn that changes nothing
//! shares the snapshot before it. A
//! clone has no name index until it is looked up in (up to 16 names are
//! scanned), so the snapshots a session keeps per turn carry none.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use crate::analyze::expr::GlobalId;
use crate::value::Value;

/// One definition.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The value the name is bound to.
    pub value: Value,
    /// The docstring of `defn`/`def` with a doc, if one was given.
    pub doc: Option<Arc<str>>,
}

/// Every user/ name defined so far, in order of first definition; clones
/// are snapshots that share structure (see the module docs).
#[derive(Default)]
pub struct Globals {
    names: Chunked<Arc<str>>,
    defs: Chunked<Option<Definition>>,
    /// name → id, built at the first lookup in more than [`SCAN`] names and
    /// kept up to date by [`Globals::intern`]; a clone starts without it.
    #[allow(clippy::box_collection)] // a clone carries one pointer, not a table
    index: OnceLock<Box<HashMap<Arc<str>, GlobalId>>>,
    /// `(require '[clojure.string :as cs])`: alias → namespace (issue 27
    /// item 3); kept like definitions, rolled back with a failed turn.
    aliases: Option<Arc<BTreeMap<Arc<str>, crate::builtins::Ns>>>,
    /// `(require '[clojure.string :refer [join]])`: bare name → namespace.
    refers: Option<Arc<BTreeMap<Arc<str>, crate::builtins::Ns>>>,
}

/// Names up to this many are found by a scan, without an index.
const SCAN: usize = 16;

impl Clone for Globals {
    fn clone(&self) -> Globals {
        Globals {
            names: self.names.clone(),
            defs: self.defs.clone(),
            index: OnceLock::new(),
            aliases: self.aliases.clone(),
            refers: self.refers.clone(),
        }
    }
}

/// A sequence in shared chunks of up to [`CHUNK`] items: the list of
/// chunks is shared too, so a clone copies one pointer, a change copies
/// the list (one pointer per chunk) when another clone shares it, and the
/// one chunk it is in when another clone shares that.
struct Chunked<T> {
    /// `None` when empty (an empty list is not allocated).
    chunks: Option<Arc<[Arc<[T]>]>>,
}

/// Items per chunk of [`Chunked`].
const CHUNK: usize = 8;

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: None }
    }
}

impl<T> Clone for Chunked<T> {
    fn clone(&self) -> Self {
        Chunked {
            chunks: self.chunks.clone(),
        }
    }
}

impl<T: Clone> Chunked<T> {
    fn chunks(&self) -> &[Arc<[T]>] {
        self.chunks.as_deref().unwrap_or(&[])
    }

    /// The chunks, to change: the list is copied first when shared.
    fn chunks_mut(&mut self) -> &mut [Arc<[T]>] {
        let Some(list) = &mut self.chunks else {
            return &mut [];
        };
        if Arc::get_mut(list).is_none() {
            *list = list.iter().cloned().collect();
        }
        Arc::get_mut(list).unwrap_or(&mut [])
    }

    fn len(&self) -> usize {
        let chunks = self.chunks();
        match chunks.last() {
            Some(last) => (chunks.len() - 1) * CHUNK + last.len(),
            None => 0,
        }
    }

    fn get(&self, i: usize) -> Option<&T> {
        self.chunks().get(i / CHUNK)?.get(i % CHUNK)
    }

    fn push(&mut self, item: T) {
        match self.chunks().last() {
            // Chunks grow by copying (at most CHUNK - 1 items).
            Some(last) if last.len() < CHUNK => {
                let grown: Arc<[T]> = last.iter().cloned().chain([item]).collect();
                if let Some(last) = self.chunks_mut().last_mut() {
                    *last = grown;
                }
            }
            _ => {
                let list = self
                    .chunks()
                    .iter()
                    .cloned()
                    .chain([Arc::from([item])])
                    .collect();
                self.chunks = Some(list);
            }
        }
    }

    fn set(&mut self, i: usize, item: T) {
        if i >= self.len() {
            return;
        }
        let Some(chunk) = self.chunks_mut().get_mut(i / CHUNK) else {
            return;
        };
        match Arc::get_mut(chunk) {
            Some(items) => items[i % CHUNK] = item,
            None => {
                let mut items: Vec<T> = chunk.to_vec();
                items[i % CHUNK] = item;
                *chunk = items.into();
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks().iter().flat_map(|c| c.iter())
    }
}

impl Globals {
    /// No definitions.
    pub fn new() -> Globals {
        Globals::default()
    }

    /// The id of `name`, allocating one if it has none.
    pub(crate) fn intern(&mut self, name: &str) -> GlobalId {
        if let Some(id) = self.id(name) {
            return id;
        }
        let id = self.names.len() as GlobalId;
        let name: Arc<str> = name.into();
        if let Some(index) = self.index.get_mut() {
            index.insert(name.clone(), id);
        }
        self.names.push(name);
        self.defs.push(None);
        id
    }

    pub(crate) fn id(&self, name: &str) -> Option<GlobalId> {
        if self.names.len() <= SCAN {
            return self
                .names
                .iter()
                .position(|n| &**n == name)
                .map(|i| i as GlobalId);
        }
        self.index
            .get_or_init(|| {
                Box::new(
                    self.names
                        .iter()
                        .enumerate()
                        .map(|(i, n)| (n.clone(), i as GlobalId))
                        .collect(),
                )
            })
            .get(name)
            .copied()
    }

    pub(crate) fn name(&self, id: GlobalId) -> &Arc<str> {
        let i = id as usize;
        &self.names.chunks()[i / CHUNK][i % CHUNK]
    }

    #[inline]
    pub(crate) fn get(&self, id: GlobalId) -> Option<&Definition> {
        self.defs.get(id as usize).and_then(|d| d.as_ref())
    }

    /// The namespace a `require` alias names.
    pub(crate) fn alias(&self, alias: &str) -> Option<crate::builtins::Ns> {
        self.aliases.as_ref()?.get(alias).copied()
    }

    /// The namespace a `require … :refer` made `name` refer to.
    pub(crate) fn refer(&self, name: &str) -> Option<crate::builtins::Ns> {
        self.refers.as_ref()?.get(name).copied()
    }

    pub(crate) fn add_alias(&mut self, alias: &str, ns: crate::builtins::Ns) {
        Arc::make_mut(self.aliases.get_or_insert_with(Default::default)).insert(alias.into(), ns);
    }

    pub(crate) fn add_refer(&mut self, name: &str, ns: crate::builtins::Ns) {
        Arc::make_mut(self.refers.get_or_insert_with(Default::default)).insert(name.into(), ns);
    }

    /// The definition of `name` (without `user/`), if it has one.
    pub fn lookup(&self, name: &str) -> Option<&Definition> {
        self.id(name).and_then(|id| self.get(id))
    }

    pub(crate) fn set(&mut self, id: GlobalId, def: Definition) {
        self.defs.set(id as usize, Some(def));
    }

    /// Defines `name` directly (memory given by the host, tests).
    pub fn define(&mut self, name: &str, value: Value, doc: Option<Arc<str>>) {
        let id = self.intern(name);
        self.set(id, Definition { value, doc });
    }

    /// Every defined name with its definition, in order of first definition.
    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Definition)> {
        self.names
            .iter()
            .zip(self.defs.iter())
            .filter_map(|(n, d)| d.as_ref().map(|d| (n, d)))
    }

    /// Whether nothing is defined yet.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(g: &Globals, name: &str) -> Option<Value> {
        g.lookup(name).map(|d| d.value.clone())
    }

    #[test]
    fn snapshots_keep_their_definitions_across_chunks_and_the_index() {
        let mut g = Globals::new();
        let mut snapshots = Vec::new();
        for i in 0..40i64 {
            g.define(&format!("n{i}"), Value::Int(i), None);
            // redefine an early name: its chunk is shared with every snapshot
            g.define("n0", Value::Int(-i), None);
            snapshots.push(g.clone());
        }
        for (i, s) in snapshots.iter().enumerate() {
            let i = i as i64;
            assert_eq!(s.iter().count(), i as usize + 1);
            assert_eq!(value(s, "n0"), Some(Value::Int(-i)));
            assert_eq!(value(s, &format!("n{i}")), Some(Value::Int(i)));
            assert_eq!(value(s, &format!("n{}", i + 1)), None);
            let names: Vec<String> = s.iter().map(|(n, _)| n.to_string()).collect();
            let expected: Vec<String> = (0..=i).map(|k| format!("n{k}")).collect();
            assert_eq!(names, expected);
        }
        // past 16 names lookups go through the index, kept up to date
        assert_eq!(g.id("n39"), Some(39));
        let id = g.intern("fresh");
        assert_eq!(g.id("fresh"), Some(id));
        assert_eq!(g.name(id).as_ref(), "fresh");
        assert_eq!(snapshots[39].id("fresh"), None);
        // rolling back to a snapshot and defining other names
        let mut back = snapshots[20].clone();
        back.define("other", Value::Int(7), None);
        assert_eq!(back.id("other"), Some(21));
        assert_eq!(value(&back, "other"), Some(Value::Int(7)));
        assert_eq!(value(&g, "other"), None);
        assert_eq!(value(&snapshots[21], "n21"), Some(Value::Int(21)));
    }

    #[test]
    fn a_snapshot_shares_everything_until_one_side_changes() {
        let shared = |a: &Globals, b: &Globals| match (&a.defs.chunks, &b.defs.chunks) {
            (Some(x), Some(y)) => Arc::ptr_eq(x, y),
            _ => false,
        };
        let mut g = Globals::new();
        assert!(g.defs.chunks.is_none(), "nothing allocated while empty");
        for i in 0..10i64 {
            g.define(&format!("n{i}"), Value::Int(i), None);
        }
        let snapshot = g.clone();
        assert!(shared(&g, &snapshot));
        g.define("n9", Value::Int(-9), None);
        assert!(!shared(&g, &snapshot));
        // the first chunk (n0..n7) is still shared, the second was copied
        let (Some(a), Some(b)) = (&g.defs.chunks, &snapshot.defs.chunks) else {
            panic!("both defined")
        };
        assert!(Arc::ptr_eq(&a[0], &b[0]));
        assert!(!Arc::ptr_eq(&a[1], &b[1]));
        assert_eq!(value(&snapshot, "n9"), Some(Value::Int(9)));
        assert_eq!(value(&g, "n9"), Some(Value::Int(-9)));
    }

    #[test]
    fn aliases_and_refers_are_snapshotted_too() {
        let mut g = Globals::new();
        g.add_alias("s", crate::builtins::Ns::String);
        let before = g.clone();
        g.add_refer("join", crate::builtins::Ns::String);
        assert_eq!(g.refer("join"), Some(crate::builtins::Ns::String));
        assert_eq!(before.refer("join"), None);
        assert_eq!(before.alias("s"), Some(crate::builtins::Ns::String));
    }
}
