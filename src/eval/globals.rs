//! The user/ namespace: every definition made by `def`/`defn`.
//!
//! Names get a [`GlobalId`] the first time they are defined (or first seen
//! in a `def` during analysis), so compiled code reads definitions by index,
//! and ids follow the order of first definition (the prelude's order, R-24).
//! Everything is persistent: [`Globals::clone`] is O(1) and shares structure,
//! which makes per-turn snapshots and rollback of failed turns cheap.

use std::sync::Arc;

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
/// are O(1) snapshots (see the module docs).
#[derive(Clone, Default)]
pub struct Globals {
    names: imbl::Vector<Arc<str>>,
    index: imbl::OrdMap<Arc<str>, GlobalId>,
    defs: imbl::Vector<Option<Definition>>,
    /// `(require '[clojure.string :as cs])`: alias → namespace (issue 27
    /// item 3); kept like definitions, rolled back with a failed turn.
    aliases: imbl::OrdMap<Arc<str>, crate::builtins::Ns>,
    /// `(require '[clojure.string :refer [join]])`: bare name → namespace.
    refers: imbl::OrdMap<Arc<str>, crate::builtins::Ns>,
}

impl Globals {
    /// No definitions.
    pub fn new() -> Globals {
        Globals::default()
    }

    /// The id of `name`, allocating one if it has none.
    pub(crate) fn intern(&mut self, name: &str) -> GlobalId {
        if let Some(id) = self.index.get(name) {
            return *id;
        }
        let id = self.names.len() as GlobalId;
        let name: Arc<str> = name.into();
        self.names.push_back(name.clone());
        self.index.insert(name, id);
        self.defs.push_back(None);
        id
    }

    pub(crate) fn id(&self, name: &str) -> Option<GlobalId> {
        self.index.get(name).copied()
    }

    pub(crate) fn name(&self, id: GlobalId) -> &Arc<str> {
        &self.names[id as usize]
    }

    #[inline]
    pub(crate) fn get(&self, id: GlobalId) -> Option<&Definition> {
        self.defs.get(id as usize).and_then(|d| d.as_ref())
    }

    /// The namespace a `require` alias names.
    pub(crate) fn alias(&self, alias: &str) -> Option<crate::builtins::Ns> {
        self.aliases.get(alias).copied()
    }

    /// The namespace a `require … :refer` made `name` refer to.
    pub(crate) fn refer(&self, name: &str) -> Option<crate::builtins::Ns> {
        self.refers.get(name).copied()
    }

    pub(crate) fn add_alias(&mut self, alias: &str, ns: crate::builtins::Ns) {
        self.aliases.insert(alias.into(), ns);
    }

    pub(crate) fn add_refer(&mut self, name: &str, ns: crate::builtins::Ns) {
        self.refers.insert(name.into(), ns);
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
