//! The evaluator's hooks for the hidden mark ([`super::hidden`]): what a
//! builtin call with marked arguments marks (its result, its printed
//! lines), and the inline arithmetic's results. Every hook runs only once
//! [`super::hidden::HiddenMarks::active`] is set; they are kept out of line
//! (`#[cold]`) so the evaluator's hot paths pay one predictable branch.

use super::hidden;
use super::Interp;
use crate::builtins::Builtin;
use crate::error::Result;
use crate::value::Value;

/// What a builtin call with marked arguments marks afterwards.
pub(super) struct HiddenCall {
    /// No argument was a collection: parts of the result are the call's own.
    fresh_parts: bool,
    /// A marked argument was a number or a string.
    from_scalars: bool,
    /// Prints made by the call start here.
    prints_before: usize,
    /// `print`/`pr` had started the line the call ends.
    line_started: bool,
    /// `println`/`prn`: the line with marked arguments as `[hidden]`.
    shown: Option<String>,
}

impl Interp {
    /// Before a builtin call in a session that read hidden data: whether an
    /// argument carries the hidden mark (see [`hidden`]), and what to mark
    /// after the call.
    #[cold]
    #[inline(never)]
    pub(super) fn hidden_args(&self, b: &'static Builtin, args: &[Value]) -> Option<HiddenCall> {
        let marked = args.iter().any(|a| self.hidden.is_marked(a))
            || (hidden::flattens(b.name) && args.iter().any(|a| self.hidden.contains_marked(a)));
        marked.then(|| HiddenCall {
            fresh_parts: !args.iter().any(hidden::is_collection),
            from_scalars: args.iter().any(|a| {
                matches!(a, Value::Int(_) | Value::Float(_) | Value::Str(_))
                    && self.hidden.is_marked(a)
            }),
            prints_before: self.prints.len(),
            line_started: !self.pending_line.is_empty(),
            shown: matches!(b.name, "println" | "prn").then(|| {
                let shown: Vec<Value> = args
                    .iter()
                    .map(|a| {
                        if self.hidden.contains_marked(a) {
                            Value::symbol("[hidden]")
                        } else {
                            a.clone()
                        }
                    })
                    .collect();
                crate::builtins::core::show_args(&shown, b.name == "prn", usize::MAX / 2)
            }),
        })
    }

    /// After a builtin call with marked arguments: marks its result and
    /// what it printed.
    #[cold]
    #[inline(never)]
    pub(super) fn mark_hidden_result(
        &mut self,
        b: &'static Builtin,
        seen: Option<HiddenCall>,
        r: Result<Value>,
    ) -> Result<Value> {
        let (Some(call), Ok(v)) = (seen, &r) else {
            return r;
        };
        if b.name != "count" {
            self.hidden
                .mark_derived(v, call.fresh_parts, call.from_scalars);
        }
        if hidden::prints(b.name) {
            // Lines printed by functions this call ran mark themselves.
            let shown = match call.shown {
                Some(text) if !call.line_started => text,
                _ => "[hidden]".to_string(),
            };
            for line in &self.prints[call.prints_before.min(self.prints.len())..] {
                self.hidden.mark_line(line, &shown);
            }
            if !self.pending_line.is_empty() {
                self.pending_line_hidden = true;
            }
        }
        r
    }

    /// Marks the result of inline arithmetic on a marked operand.
    #[cold]
    #[inline(never)]
    pub(super) fn mark_hidden_arith(&mut self, operands: &[&Value], v: &Value) {
        if operands.iter().any(|x| self.hidden.is_marked(x)) {
            self.hidden.mark(v);
        }
    }
}
