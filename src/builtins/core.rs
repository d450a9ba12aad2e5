//! Builtins: core.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
