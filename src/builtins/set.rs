//! Builtins: set.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
