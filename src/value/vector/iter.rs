//! The iterators of [`Vector`](super::Vector): borrowing, mutable and
//! owning, each over either representation.

use crate::value::Value;

/// Borrowing iterator over a [`Vector`]'s items.
#[derive(Clone)]
pub enum Iter<'a> {
    Small(std::slice::Iter<'a, Value>),
    Large(imbl::vector::Iter<'a, Value>),
}

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
