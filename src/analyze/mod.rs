//! Analysis: spanned forms → resolved [`expr::Expr`] trees.

pub mod expr;
