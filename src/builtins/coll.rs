//! Builtins: coll.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
