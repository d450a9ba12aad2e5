//! Builtins: walk.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
