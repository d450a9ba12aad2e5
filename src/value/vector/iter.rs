//! The iterators of [`Vector`](super::Vector): borrowing, mutable and
//! owning, each over either representation.
//!
//! A large vector is walked leaf by leaf ([`Chunked`]): imbl's own
//! iterator looks each item up through its focus (tens of instructions an
//! item), a leaf's slice is walked like a `Vec`'s.

use crate::value::Value;

/// Borrowing iterator over a [`Vector`]'s items.
pub enum Iter<'a> {
    Small(std::slice::Iter<'a, Value>),
    /// Boxed: the leaf iterator carries imbl's focus (a path through the
    /// tree), which would make every iterator over a vector that big.
    Large(Box<Chunked<'a, Value>>),
}

/// Borrowing iterator over an imbl vector, a leaf (a slice of up to 64
/// items) at a time, from both ends.
pub struct Chunked<'a, T> {
    leaves: imbl::vector::Chunks<'a, T>,
    front: std::slice::Iter<'a, T>,
    back: std::slice::Iter<'a, T>,
    len: usize,
}

impl<'a, T: Clone> Chunked<'a, T> {
    /// Iterates `v`'s items in order.
    pub fn new(v: &'a imbl::Vector<T>) -> Chunked<'a, T> {
        Chunked {
            leaves: v.leaves(),
            front: [].iter(),
            back: [].iter(),
            len: v.len(),
        }
    }
}

impl<'a, T> Iterator for Chunked<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.front.next() {
                self.len -= 1;
                return Some(x);
            }
            match self.leaves.next() {
                Some(leaf) => self.front = leaf.iter(),
                None => {
                    let x = self.back.next()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }

    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.front.fold(init, &mut f);
        for leaf in self.leaves {
            acc = leaf.iter().fold(acc, &mut f);
        }
        self.back.fold(acc, f)
    }

    fn nth(&mut self, mut n: usize) -> Option<&'a T> {
        // Whole leaves are skipped without visiting their items.
        loop {
            let here = self.front.len();
            if n < here {
                self.len -= n + 1;
                return self.front.nth(n);
            }
            n -= here;
            self.len -= here;
            self.front = [].iter();
            match self.leaves.next() {
                Some(leaf) => self.front = leaf.iter(),
                None => {
                    let x = self.back.nth(n);
                    self.len = self.back.len();
                    return x;
                }
            }
        }
    }
}

impl<T> DoubleEndedIterator for Chunked<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(x) = self.back.next_back() {
                self.len -= 1;
                return Some(x);
            }
            match self.leaves.next_back() {
                Some(leaf) => self.back = leaf.iter(),
                None => {
                    let x = self.front.next_back()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }
}

impl<T> ExactSizeIterator for Chunked<'_, T> {}

/// Mutable iterator over a [`Vector`]'s items.
pub enum IterMut<'a> {
    Small(std::slice::IterMut<'a, Value>),
    Large(imbl::vector::IterMut<'a, Value>),
}

/// Owning iterator over a [`Vector`]'s items.
pub enum IntoIter {
    Small(std::vec::IntoIter<Value>),
    Large(imbl::vector::ConsumingIter<Value>),
}

/// `Iterator`, `DoubleEndedIterator` and `ExactSizeIterator` for an
/// iterator enum whose variants are iterators of `$item`.
macro_rules! either_iter {
    ($ty:ty, $item:ty) => {
        impl<'a> Iterator for $ty {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> Option<$item> {
                match self {
                    Self::Small(i) => i.next(),
                    Self::Large(i) => i.next(),
                }
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                match self {
                    Self::Small(i) => i.size_hint(),
                    Self::Large(i) => i.size_hint(),
                }
            }
            #[inline]
            fn fold<B, F: FnMut(B, $item) -> B>(self, init: B, f: F) -> B {
                match self {
                    Self::Small(i) => i.fold(init, f),
                    Self::Large(i) => i.fold(init, f),
                }
            }
            fn nth(&mut self, n: usize) -> Option<$item> {
                match self {
                    Self::Small(i) => i.nth(n),
                    Self::Large(i) => i.nth(n),
                }
            }
        }
        impl<'a> DoubleEndedIterator for $ty {
            #[inline]
            fn next_back(&mut self) -> Option<$item> {
                match self {
                    Self::Small(i) => i.next_back(),
                    Self::Large(i) => i.next_back(),
                }
            }
        }
        impl<'a> ExactSizeIterator for $ty {}
    };
}

either_iter!(Iter<'a>, &'a Value);
either_iter!(IterMut<'a>, &'a mut Value);
either_iter!(IntoIter, Value);
