//! `with-out-str`: `(with-out-str body…)` compiles to a call of the
//! unlisted builtin [`crate::builtins::core::WITH_OUT_STR`] with the body as
//! a function of no arguments, whose output is captured into the string the
//! form returns (`Interp::capture_output`).

use super::expr::Expr;
use super::Analyzer;
use crate::error::{Result, Span};
use crate::reader::{Form, FormKind};

impl Analyzer<'_> {
    pub(super) fn with_out_str(&mut self, args: &[Form], span: Span) -> Result<Expr> {
        let mut items = vec![
            Form {
                kind: FormKind::Symbol("fn".into()),
                span,
            },
            Form {
                kind: FormKind::Vector(Vec::new()),
                span,
            },
        ];
        items.extend_from_slice(args);
        let thunk = self.analyze(
            &Form {
                kind: FormKind::List(items),
                span,
            },
            false,
        )?;
        Ok(Expr::CallBuiltin(
            &crate::builtins::core::WITH_OUT_STR,
            vec![thunk],
            span,
        ))
    }
}
