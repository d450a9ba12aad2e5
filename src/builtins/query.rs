//! Builtins: query.

use super::Builtin;

pub const BUILTINS: &[Builtin] = &[];
