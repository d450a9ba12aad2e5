//! Builtins: predicates.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
