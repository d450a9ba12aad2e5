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
    /// The marked strings, symbols and numbers among the arguments (an
    /// owned builtin may have taken them by the time it fails).
    scalars: Vec<Value>,
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
            scalars: args
                .iter()
                .filter(|a| {
                    matches!(
                        a,
                        Value::Str(_) | Value::Symbol(_) | Value::Int(_) | Value::Float(_)
                    ) && self.hidden.is_marked(a)
                })
                .cloned()
                .collect(),
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
    /// what it printed; a failure has the marked values it quotes taken
    /// out of its message (any length, [`hidden::redact_pieces`]), so a
    /// caught message (`ex-message`) or a `fail` reason shows none.
    #[cold]
    #[inline(never)]
    pub(super) fn mark_hidden_result(
        &mut self,
        b: &'static Builtin,
        args: &[Value],
        seen: Option<HiddenCall>,
        r: Result<Value>,
    ) -> Result<Value> {
        let Some(call) = seen else {
            return r;
        };
        let v = match &r {
            Ok(v) => v,
            Err(_) => {
                let mut pieces = self.hidden.marked_texts_in(&call.scalars);
                pieces.extend(self.hidden.marked_texts_in(args));
                crate::eval::budget::charge_work(pieces.len() as u64 + 1);
                return r.map_err(|e| e.map_text(|t| hidden::redact_pieces(t, &pieces)));
            }
        };
        if b.name != "count" {
            self.hidden
                .mark_derived(v, call.fresh_parts, call.from_scalars);
        }
        if b.name == "ex-info" && args.first().is_some_and(|m| self.hidden.contains_marked(m)) {
            // A message printed from a collection holding hidden data.
            if let Value::Map(m) = v {
                if let Some(msg) = m.get(&Value::keyword("message")) {
                    let msg = msg.clone();
                    self.hidden.mark(&msg);
                }
            }
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
            if let Some(capture) = self.captures.last_mut() {
                capture.1 = true;
            }
        }
        r
    }

    /// The error `(throw v)` raises when `v` holds hidden data: the marked
    /// values it quotes taken out of its message.
    #[cold]
    #[inline(never)]
    pub(super) fn redact_thrown(&self, v: &Value, e: crate::error::Error) -> crate::error::Error {
        let pieces = self.hidden.marked_texts_in(std::slice::from_ref(v));
        if pieces.is_empty() {
            return e;
        }
        e.map_text(|t| hidden::redact_pieces(t, &pieces))
    }

    /// A caught error in a session that read hidden data: the texts of
    /// the marked values its message quotes replaced (errors raised
    /// outside a builtin call, such as calling a marked string, were not
    /// redacted at the source).
    #[cold]
    #[inline(never)]
    pub(super) fn redact_caught(&self, e: crate::error::Error) -> crate::error::Error {
        let pieces: Vec<&str> = self.hidden.marked_texts().collect();
        // Work proportional to the marks and the message, charged to the
        // turn (a loop catching errors in a session with big hidden data).
        let len = e.message().len() + e.hint().map_or(0, str::len);
        crate::eval::budget::charge_work(pieces.len() as u64 * (len as u64 / 64 + 1));
        e.map_text(|t| hidden::redact_pieces(t, &pieces))
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
