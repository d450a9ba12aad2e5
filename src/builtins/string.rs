//! Builtins: string.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
