//! Function values: builtins from the registry, closures made by `fn`/`defn`,
//! and native closures that builtins such as `partial` or `comp` return.
//!
//! Closures point up into compiled code ([`crate::eval::Closure`]); this is the
//! one place where a value refers to a higher layer, and it only holds it.
//!
//! A [`Func`] is one word: a tagged pointer. Its two low bits say what it
//! points to (all three are aligned to at least 4 bytes): `00` a closure
//! (the word is the closure's address inside its `Arc`, as
//! [`Arc::into_raw`] gives it, so reading a closure needs no untagging),
//! `01` a native closure (likewise, plus 1), `10` a builtin in the static
//! registry (its address plus 2). A clone adds to the `Arc`'s count of a
//! closure or native closure and touches nothing for a builtin, as the
//! enum of the three did. [`Func::kind`] tells the three apart, borrowed,
//! for matching, by tests of bits (the closure's two, then the builtin's
//! one), which cost what the enum's compares did. A [`ClosureFn`] is a
//! `Func` known to be a closure: code running a closure holds one by
//! reference, and a clone of it counts without testing the tag. All the
//! `unsafe` of the representation is in this file.

use std::borrow::Cow;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::builtins::Builtin;
use crate::error::Result;
use crate::eval::{Closure, Interp};
use crate::value::Value;

/// Bytes of a closure made by `fn` inside its `Arc`, its captures' array
/// aside (`value/cost.rs`).
pub(crate) const CLOSURE_BYTES: u64 = std::mem::size_of::<Closure>() as u64;

/// The body of a native closure.
pub type NativeBody = dyn Fn(&mut Interp, &[Value]) -> Result<Value> + Send + Sync;

/// The body of a native closure that may take its arguments' values
/// ([`Func::native_taking`]).
pub type NativeTakingBody = dyn Fn(&mut Interp, &mut [Value]) -> Result<Value> + Send + Sync;

/// What a native closure runs: a body that reads its arguments, or one
/// that may take them.
pub enum NativeCode {
    Reads(Box<NativeBody>),
    Takes(Box<NativeTakingBody>),
}

/// A function made by a builtin at run time (`partial`, `comp`, `juxt` …);
/// its name is not copied when it is a literal. (The body stays boxed: an
/// `Arc` of the unsized body would be a wide pointer, which a one-word
/// [`Func`] cannot hold.)
pub struct NativeFn {
    /// What `#fn[...]` shows: e.g. `partial`.
    pub name: Cow<'static, str>,
    pub body: NativeCode,
}

/// A callable value: a builtin, a closure or a native closure, in one word
/// (the module doc has the layout). Match on [`Func::kind`].
pub struct Func {
    /// The tagged address; the tag is [`Func::TAG_MASK`]'s bits.
    ptr: NonNull<u8>,
}

/// A [`Func`] borrowed as what it is.
#[derive(Clone, Copy)]
pub enum FuncRef<'a> {
    Builtin(&'static Builtin),
    /// A closure; [`ClosureFn`] reads as the [`Closure`] and clones into a
    /// counted handle.
    Closure(&'a ClosureFn),
    Native(&'a NativeFn),
}

/// A [`Func`] that is a closure: reads as the [`Closure`] (`c.captures`),
/// `clone` adds to its count, [`ClosureFn::to_value`] makes the function
/// value again. Borrowed from a `Func` by [`Func::as_closure`].
#[repr(transparent)]
pub struct ClosureFn(ManuallyDrop<Func>);

const _: () = assert!(std::mem::size_of::<Func>() == 8);
const _: () = assert!(std::mem::size_of::<Option<Func>>() == 8);
const _: () = assert!(std::mem::size_of::<ClosureFn>() == 8);
// `Func::is_builtin` tests the builtin tag's one bit, set in no other tag.
const _: () =
    assert!(Func::BUILTIN.is_power_of_two() && Func::BUILTIN & (Func::CLOSURE | Func::NATIVE) == 0);
// The tags need two low bits of each address.
const _: () = assert!(std::mem::align_of::<Builtin>() > Func::TAG_MASK);
const _: () = assert!(std::mem::align_of::<Closure>() > Func::TAG_MASK);
const _: () = assert!(std::mem::align_of::<NativeFn>() > Func::TAG_MASK);

/// What a `Func` stands for must be shareable across threads for `Func`
/// to be (see the `Send`/`Sync` impls).
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<&'static Builtin>();
    shareable::<Arc<Closure>>();
    shareable::<Arc<NativeFn>>();
};

// SAFETY: a `Func` owns exactly what one of `&'static Builtin`,
// `Arc<Closure>` or `Arc<NativeFn>` owns (its tag says which; `Clone` and
// `Drop` count as those do) and gives out only shared references to it,
// and each of the three is `Send + Sync` (asserted above).
unsafe impl Send for Func {}
// SAFETY: as for `Send`.
unsafe impl Sync for Func {}

impl Func {
    const TAG_MASK: usize = 0b11;
    const CLOSURE: usize = 0;
    const NATIVE: usize = 1;
    const BUILTIN: usize = 2;

    /// A builtin from the registry.
    #[inline]
    pub fn builtin(b: &'static Builtin) -> Func {
        Func::tagged(NonNull::from(b).cast(), Func::BUILTIN)
    }

    /// A closure made by `fn`.
    #[inline]
    pub fn closure(c: Arc<Closure>) -> Func {
        // The count `c` held is the new `Func`'s: `Drop` gives it back.
        let p = Arc::into_raw(c) as *mut u8;
        // SAFETY: `Arc::into_raw` never gives a null pointer.
        Func::tagged(unsafe { NonNull::new_unchecked(p) }, Func::CLOSURE)
    }

    /// A native closure.
    #[inline]
    pub fn native_arc(n: Arc<NativeFn>) -> Func {
        let p = Arc::into_raw(n) as *mut u8;
        // SAFETY: `Arc::into_raw` never gives a null pointer.
        Func::tagged(unsafe { NonNull::new_unchecked(p) }, Func::NATIVE)
    }

    /// Wraps a Rust closure as a PTC-Lisp function.
    pub fn native(
        name: impl Into<Cow<'static, str>>,
        body: impl Fn(&mut Interp, &[Value]) -> Result<Value> + Send + Sync + 'static,
    ) -> Value {
        Value::Fn(Func::native_arc(Arc::new(NativeFn {
            name: name.into(),
            body: NativeCode::Reads(Box::new(body)),
        })))
    }

    /// Wraps a Rust closure that may take its arguments' values, as a
    /// builtin's `_owned` variant does: a transducer's reducing function
    /// takes the accumulator and hands it on, so a collection built by
    /// `(into [] xform coll)` is added to in place instead of copied at
    /// every step. Called with arguments its caller keeps, it gets copies.
    pub fn native_taking(
        name: impl Into<Cow<'static, str>>,
        body: impl Fn(&mut Interp, &mut [Value]) -> Result<Value> + Send + Sync + 'static,
    ) -> Value {
        Value::Fn(Func::native_arc(Arc::new(NativeFn {
            name: name.into(),
            body: NativeCode::Takes(Box::new(body)),
        })))
    }

    /// `p` (aligned past the tag bits) with `tag` in its low bits; the
    /// address moves within `p`'s allocation's alignment, keeping its
    /// provenance.
    #[inline(always)]
    fn tagged(p: NonNull<u8>, tag: usize) -> Func {
        debug_assert_eq!(p.as_ptr().addr() & Func::TAG_MASK, 0);
        // SAFETY: `p` is aligned to 4, so adding a tag below 4 neither
        // wraps nor makes it null.
        let ptr = unsafe { NonNull::new_unchecked(p.as_ptr().wrapping_add(tag)) };
        Func { ptr }
    }

    #[inline(always)]
    fn tag(&self) -> usize {
        self.ptr.as_ptr().addr() & Func::TAG_MASK
    }

    /// Whether this is a builtin: its tag is the only one with bit 1 set,
    /// so one bit test (what `Clone` and `Drop` check first: builtins are
    /// the most common functions, and have no count).
    #[inline(always)]
    fn is_builtin(&self) -> bool {
        self.ptr.as_ptr().addr() & Func::BUILTIN != 0
    }

    /// The address under `tag` (which must be this function's tag), with
    /// the pointer's provenance.
    #[inline(always)]
    fn at<T>(&self, tag: usize) -> *const T {
        debug_assert_eq!(self.tag(), tag);
        self.ptr.as_ptr().wrapping_sub(tag) as *const T
    }

    /// The untagged address, with the pointer's provenance.
    #[inline(always)]
    fn untagged(&self) -> *const u8 {
        self.ptr.as_ptr().wrapping_sub(self.tag())
    }

    /// What this function is, borrowed for matching.
    #[inline(always)]
    pub fn kind(&self) -> FuncRef<'_> {
        // Tests of bits, not a switch on the tag: they leave the word as
        // it is (a switch masks it), one register fewer in hot callers.
        //
        // SAFETY: the tags are set by the constructors only: the word is
        // the address of a `Closure` an `Arc` holds (a count of it ours),
        // of a `NativeFn` likewise plus 1, or of a static `Builtin` plus 2;
        // each lives at least as long as `self`.
        unsafe {
            if self.tag() == Func::CLOSURE {
                FuncRef::Closure(self.closure_unchecked())
            } else if self.is_builtin() {
                FuncRef::Builtin(&*self.at::<Builtin>(Func::BUILTIN))
            } else {
                FuncRef::Native(&*self.at::<NativeFn>(Func::NATIVE))
            }
        }
    }

    /// The closure, if this is one (one test of the tag).
    #[inline(always)]
    pub fn as_closure(&self) -> Option<&ClosureFn> {
        if self.tag() == Func::CLOSURE {
            // SAFETY: the tag says this is a closure.
            Some(unsafe { self.closure_unchecked() })
        } else {
            None
        }
    }

    /// The builtin, if this is one.
    #[inline(always)]
    pub fn as_builtin(&self) -> Option<&'static Builtin> {
        if self.is_builtin() {
            // SAFETY: the tag says the word is a static `Builtin`'s address
            // plus 2.
            Some(unsafe { &*self.at::<Builtin>(Func::BUILTIN) })
        } else {
            None
        }
    }

    /// # Safety
    /// The tag must be [`Func::CLOSURE`].
    #[inline(always)]
    unsafe fn closure_unchecked(&self) -> &ClosureFn {
        debug_assert_eq!(self.tag(), Func::CLOSURE);
        // SAFETY: `ClosureFn` is a `repr(transparent)` `ManuallyDrop<Func>`
        // (itself `repr(transparent)`) whose tag is `CLOSURE`, which the
        // caller promises.
        unsafe { &*(self as *const Func as *const ClosureFn) }
    }

    /// The function's name (`fn` for anonymous closures).
    pub fn name(&self) -> &str {
        match self.kind() {
            FuncRef::Builtin(b) => b.name,
            FuncRef::Closure(c) => c.name(),
            FuncRef::Native(n) => &n.name,
        }
    }

    /// Identity, for ordering functions deterministically within one run:
    /// the address of the builtin, closure or native closure.
    pub fn addr(&self) -> usize {
        self.untagged().addr()
    }

    /// Whether `self` and `other` are the same function (the same builtin,
    /// the same closure or native closure).
    pub fn ptr_eq(&self, other: &Func) -> bool {
        self.ptr == other.ptr
    }

    /// What goes inside `#fn[...]` (format.md): parameter names for closures,
    /// the name for builtins and native closures.
    pub fn display_params(&self) -> String {
        match self.kind() {
            FuncRef::Builtin(b) => b.name.to_string(),
            FuncRef::Closure(c) => c.display_params(),
            FuncRef::Native(n) => n.name.to_string(),
        }
    }
}

impl Clone for Func {
    #[inline]
    fn clone(&self) -> Func {
        // A builtin first: one bit test, and no count to add.
        if !self.is_builtin() {
            if self.tag() == Func::CLOSURE {
                // SAFETY: the word is `Arc::into_raw` of a closure whose
                // count `self` holds, so the `Arc` is alive.
                unsafe { Arc::increment_strong_count(self.at::<Closure>(Func::CLOSURE)) }
            } else {
                // SAFETY: as for a closure, of a `NativeFn` (the word plus 1).
                unsafe { Arc::increment_strong_count(self.at::<NativeFn>(Func::NATIVE)) }
            }
        }
        Func { ptr: self.ptr }
    }
}

impl Drop for Func {
    #[inline]
    fn drop(&mut self) {
        if !self.is_builtin() {
            if self.tag() == Func::CLOSURE {
                // SAFETY: the word is `Arc::into_raw` of a closure, one of
                // whose counts is `self`'s; it is given back once, here.
                unsafe { Arc::decrement_strong_count(self.at::<Closure>(Func::CLOSURE)) }
            } else {
                // SAFETY: as for a closure, of a `NativeFn` (the word plus 1).
                unsafe { Arc::decrement_strong_count(self.at::<NativeFn>(Func::NATIVE)) }
            }
        }
    }
}

/// A closure's handle counts as the `Func` it is, without testing its tag
/// again.
impl Clone for ClosureFn {
    #[inline]
    fn clone(&self) -> ClosureFn {
        ClosureFn(ManuallyDrop::new(self.counted()))
    }
}

impl Drop for ClosureFn {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the word is `Arc::into_raw` of a closure, one of whose
        // counts is `self`'s (the `ManuallyDrop` keeps `Func`'s drop from
        // giving it back a second time); given back once, here.
        unsafe { Arc::decrement_strong_count(self.closure_ptr()) }
    }
}

impl ClosureFn {
    /// The closure's address: its word, whose tag is 0.
    #[inline(always)]
    fn closure_ptr(&self) -> *const Closure {
        self.0.ptr.as_ptr() as *const Closure
    }

    /// A new `Func` of this closure, with a count of its own.
    #[inline]
    fn counted(&self) -> Func {
        // SAFETY: the word is `Arc::into_raw` of a closure whose count
        // `self` holds, so the `Arc` is alive; the count added is the new
        // `Func`'s.
        unsafe { Arc::increment_strong_count(self.closure_ptr()) };
        Func { ptr: self.0.ptr }
    }

    /// The function value of this closure (a count added).
    #[inline]
    pub fn to_value(&self) -> Value {
        Value::Fn(self.counted())
    }

    /// This closure as a [`Func`].
    #[inline]
    pub fn as_func(&self) -> &Func {
        &self.0
    }

    /// Whether `self` and `other` are the same closure.
    #[inline(always)]
    pub fn ptr_eq(&self, other: &ClosureFn) -> bool {
        self.0.ptr == other.0.ptr
    }

    /// A new counted `Arc` of the closure.
    pub fn to_arc(&self) -> Arc<Closure> {
        let p = self.closure_ptr();
        // SAFETY: the word is `Arc::into_raw` of a closure whose count
        // `self` holds; the count added here is the new `Arc`'s.
        unsafe {
            Arc::increment_strong_count(p);
            Arc::from_raw(p)
        }
    }

    /// The closure's address when another handle holds it too
    /// ([`crate::value::Value::shared_addr`]).
    pub(crate) fn shared_addr(&self) -> Option<usize> {
        let p = self.closure_ptr();
        // SAFETY: the word is `Arc::into_raw` of a live closure; the `Arc`
        // made from it here is never dropped, so the count stays `self`'s.
        let a = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(p) });
        crate::value::shared_addr(&a)
    }
}

impl std::ops::Deref for ClosureFn {
    type Target = Closure;
    #[inline(always)]
    fn deref(&self) -> &Closure {
        // SAFETY: a `ClosureFn`'s tag is `CLOSURE` (0), so its word is the
        // address of a `Closure` an `Arc` holds, alive while `self` is.
        unsafe { &*self.closure_ptr() }
    }
}

#[cfg(test)]
mod tests;
