//! Running one program: read it all, then analyze and evaluate each top-level
//! form in turn (a `def` is visible to the next form, as in Clojure), on a
//! big stack (`eval/stack.rs`), all or nothing.
//!
//! A program that fails leaves user/ exactly as it was (definitions and
//! the recorded return values of its functions); its prints and tool
//! calls stay recorded on the interpreter (they happened). `(return v)` ends
//! the program successfully with `v`.

use std::sync::Arc;

use crate::analyze::{Analyzer, Context};
use crate::error::{Error, ErrorKind, Result};
use crate::eval::{budget, run_on_big_stack, Frame, Globals, Interp};
use crate::reader::{read_program, Form, FormKind};
use crate::value::{depth, regex, Returned, Value};

/// How a program ended.
#[derive(Debug)]
pub struct Outcome {
    /// The value of the last form (or of `return`), or the error.
    pub result: Result<Value>,
    /// Whether the program ended with `(return v)`.
    pub returned: bool,
    /// Remarks on how the program was read, shown with the turn (e.g.
    /// surplus closing brackets at the end were ignored).
    pub notes: Vec<String>,
}

impl Outcome {
    /// Whether the program succeeded (its definitions were kept).
    pub fn is_ok(&self) -> bool {
        self.result.is_ok()
    }
}

impl Interp {
    /// Runs `source` as one program (one turn): budget reset, prints and tool
    /// calls cleared, memory rolled back if it fails.
    pub fn run_program(&mut self, source: &str) -> Outcome {
        let src: Arc<str> = source.into();
        let snapshot = self.globals.clone();
        // The turn's own per-thread state: an empty meter and regex cache
        // (what ran on this thread before cannot change what it is charged).
        let outer_meter = budget::swap_meter((0, 0));
        let outer_stop = budget::swap_stop(budget::Stop::default());
        let outer_regexes = regex::swap_regex_cache(Default::default());
        let ran = run_on_big_stack(|| self.run_program_here(&src, &snapshot));
        budget::swap_meter(outer_meter);
        budget::swap_stop(outer_stop);
        drop(regex::swap_regex_cache(outer_regexes));
        match ran {
            Ok(outcome) => outcome,
            Err(crash) => {
                self.globals = snapshot;
                Outcome {
                    result: Err(crash),
                    returned: false,
                    notes: Vec::new(),
                }
            }
        }
    }

    /// [`Interp::run_program`] on the current thread (whose stack must be
    /// large enough for the configured call depth); `snapshot` is user/ as
    /// the program found it.
    pub(crate) fn run_program_here(&mut self, src: &Arc<str>, snapshot: &Globals) -> Outcome {
        self.prints.clear();
        self.tool_calls.clear();
        self.pending_calls.clear();
        self.sites.reset();
        self.attempt = None;
        self.defined.clear();
        self.budget.reset();
        budget::swap_stop(self.budget.stop());
        let returns_snapshot = self.fn_returns.clone();
        let mut notes = Vec::new();
        let result = self
            .check_source_size(src)
            .and_then(|()| read_program(src))
            .and_then(|(forms, surplus)| {
                notes.extend(surplus.map(|s| s.note(src)));
                self.run_forms(&forms, src)
            });
        // `(return v)` ends the program as successfully as its last form.
        let (result, returned) = match result {
            Err(e) if e.kind() == ErrorKind::Return => {
                (Ok(e.data().cloned().unwrap_or(Value::Nil)), true)
            }
            other => (other, false),
        };
        let what = if returned {
            "the value of return"
        } else {
            "the result"
        };
        let result = result
            // A `lazy-seq` result is printed as its items (eval/realise.rs).
            .and_then(|v| self.realise(what, &v))
            // Work and memory charged through the per-thread meter by the
            // last builtin are settled before the turn ends.
            .and_then(|v| self.budget.tick_settled(0).map(|()| v))
            .and_then(|v| self.check_escaping(what, v, snapshot))
            .map_err(|e| self.check_error_leaving(e));
        self.flush_print();
        if result.is_ok() {
            self.forget_deep_returns(&returns_snapshot);
        }
        if self.hidden.active() {
            if let Err(e) = &result {
                self.hidden.keep_quoted(e.message());
                if let Some(h) = e.hint() {
                    self.hidden.keep_quoted(h);
                }
            }
            self.hidden.prune();
        }
        match result {
            Ok(v) => Outcome {
                result: Ok(v),
                returned,
                notes,
            },
            Err(e) => {
                self.globals = snapshot.clone();
                self.fn_returns = returns_snapshot;
                Outcome {
                    result: Err(e.or_source(src)),
                    returned: false,
                    notes,
                }
            }
        }
    }

    fn check_source_size(&self, src: &str) -> Result<()> {
        match self.budget.limits.max_source_bytes {
            Some(max) if src.len() > max => Err(Error::limit(format!(
                "the program is {} bytes, more than the limit of {max} bytes",
                src.len()
            ))
            .with_hint("send a shorter program (data belongs in data/, not in the source), or raise max_source_bytes")),
            _ => Ok(()),
        }
    }

    /// Values leaving the turn (its result, new or changed definitions)
    /// must be shallow enough for the host's threads ([`depth::MAX_DEPTH`])
    /// and the result short enough to print ([`Interp::check_leaving`]).
    fn check_escaping(&self, what: &str, result: Value, before: &Globals) -> Result<Value> {
        self.check_leaving(what, &result)?;
        // Only what this program (re)defined can have changed.
        for &id in &self.defined {
            let Some(def) = self.globals.get(id) else {
                continue;
            };
            let name = self.globals.name(id);
            let unchanged = before
                .lookup(name)
                .is_some_and(|old| same_storage(&old.value, &def.value));
            if !unchanged && depth::exceeds(&def.value, depth::MAX_DEPTH) {
                return Err(Error::limit(format!(
                    "the value of {name} nests more than {} levels deep, the most a value kept after a turn may have",
                    depth::MAX_DEPTH
                ))
                .with_hint("flatten the data (e.g. a vector of records instead of nesting each in the next)"));
            }
        }
        Ok(result)
    }

    /// The last return value of each `defn` function is kept across turns
    /// (the prompt shows it): one recorded this turn that nests deeper
    /// than [`depth::MAX_DEPTH`] is forgotten here, on the big stack, rather
    /// than kept for the host to drop (the turn itself did not fail: the
    /// program never asked to keep that value).
    fn forget_deep_returns(&mut self, before: &[Option<Returned>]) {
        for (i, slot) in self.fn_returns.iter_mut().enumerate() {
            let Some(v) = slot.as_ref().and_then(Returned::value) else {
                continue;
            };
            let unchanged = before
                .get(i)
                .and_then(Option::as_ref)
                .and_then(Returned::value)
                .is_some_and(|old| same_storage(old, v));
            if !unchanged && depth::exceeds(v, depth::MAX_DEPTH) {
                *slot = None;
            }
        }
    }

    fn run_forms(&mut self, forms: &[Form], src: &Arc<str>) -> Result<Value> {
        let mut last = Value::Nil;
        for form in forms {
            last = self.run_top_level(form, src)?;
        }
        Ok(last)
    }

    /// Top-level `do` is unrolled so each inner form is analyzed after the
    /// previous one ran, as Clojure does.
    fn run_top_level(&mut self, form: &Form, src: &Arc<str>) -> Result<Value> {
        if let FormKind::List(items) = &form.kind {
            if let Some(FormKind::Symbol(head)) = items.first().map(|f| &f.kind) {
                if head == "do" {
                    let mut last = Value::Nil;
                    for f in &items[1..] {
                        last = self.run_top_level(f, src)?;
                    }
                    return Ok(last);
                }
            }
        }
        let top = {
            let mut analyzer = Analyzer::new(Context {
                globals: &mut self.globals,
                host: &*self.host,
                source: src.clone(),
                budget: &mut self.budget,
                moves: !self.reference,
            });
            analyzer.top_level(form)?
        };
        // What analysing charged through the meter, charged now: the form
        // starts with nothing pending (rule KERNEL-1's loops and calls
        // start only then).
        self.budget.tick_settled(0)?;
        let bp = self.push_top_frame(top.frame_size);
        #[cfg(test)]
        if self.compile_top {
            let result = crate::eval::compile::compile(&top.expr)(self, Frame::top(bp));
            self.pop_frame(bp);
            return result;
        }
        let result = self.eval(&top.expr, Frame::top(bp));
        self.pop_frame(bp);
        result
    }
}

/// Whether two values are the same stored value (cheap: no deep compare).
fn same_storage(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Vector(x), Value::Vector(y)) => x.ptr_eq(y),
        (Value::Map(x), Value::Map(y)) => x.ptr_eq(y),
        (Value::Set(x), Value::Set(y)) => x.ptr_eq(y),
        (Value::Fn(x), Value::Fn(y)) => match (x.as_closure(), y.as_closure()) {
            (Some(x), Some(y)) => x.ptr_eq(y),
            _ => true,
        },
        _ => a == b,
    }
}
