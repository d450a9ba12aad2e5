//! The standard traits of [`Vector`]: cloning (a flat vector's copies share
//! its items), indexing, equality, conversions and iteration.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

use super::{IntoIter, Iter, Repr, Vector, View, ViewMut, SMALL};
use crate::value::shared_vec::SharedVec;
use crate::value::unique::make_mut;
use crate::value::Value;

impl Default for Repr {
    fn default() -> Repr {
        Repr::Small(SharedVec::new())
    }
}

impl Index<usize> for Vector {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        match self.view() {
            View::Items(v) => &v[i],
            View::Large(v) => &v[i],
        }
    }
}

impl IndexMut<usize> for Vector {
    fn index_mut(&mut self, i: usize) -> &mut Value {
        self.unshare_items();
        match self.view_mut() {
            ViewMut::Small(v) => &mut v[i],
            ViewMut::Flat(f) => &mut f.items_mut()[i],
            ViewMut::Large(v) => &mut v[i],
        }
    }
}

impl PartialEq for Vector {
    fn eq(&self, other: &Vector) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Vector {}

impl std::fmt::Debug for Vector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Value>> for Vector {
    fn from(items: Vec<Value>) -> Vector {
        Vector::from_vec(items)
    }
}

impl FromIterator<Value> for Vector {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Vector {
        let mut out = Vector::new();
        out.extend(iter);
        out
    }
}

impl Extend<Value> for Vector {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        let mut iter = iter.into_iter();
        self.unshare_items();
        if let Some(v) = self.small_mut() {
            let (lower, _) = iter.size_hint();
            if v.is_empty() && lower > 0 && lower <= SMALL {
                *v = SharedVec::with_capacity(lower);
            }
            while v.len() < SMALL {
                match iter.next() {
                    Some(x) => v.push(x),
                    None => return,
                }
            }
            // Full: whatever comes next makes it flat.
            match iter.next() {
                Some(x) => self.push_back(x),
                None => return,
            }
        }
        if let Some(items) = self.flat_mut() {
            return items.extend(iter);
        }
        if let Repr::Large(v) = &mut *self.repr_mut() {
            make_mut(v).extend(iter);
        }
    }
}

impl IntoIterator for Vector {
    type Item = Value;
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        match self.into_repr() {
            Repr::Small(v) => IntoIter::Small(v.into_vec().into_iter()),
            Repr::Flat(f) => match Arc::try_unwrap(f) {
                Ok(f) => IntoIter::Small(f.take_items().into_iter()),
                // Shared: its items are copied (each is cloned when taken
                // anyway).
                Err(f) => IntoIter::Small(f.items.clone().into_iter()),
            },
            Repr::Large(v) => IntoIter::Large(Arc::unwrap_or_clone(v).into_iter()),
            Repr::Slice(s) => IntoIter::Small(s.items().to_vec().into_iter()),
        }
    }
}

impl<'a> IntoIterator for &'a Vector {
    type Item = &'a Value;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}
