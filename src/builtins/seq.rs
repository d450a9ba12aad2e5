//! Builtins: seq.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
