//! Builtins: numbers.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
