//! Where tool calls are made, and `pmap`/`pcalls` running their items'
//! tool calls concurrently.
//!
//! **Call sites (rule CALL-SITE-1).** Every tool call of a turn has a
//! site, the [`CallRequest::at`] the host sees and the recording keeps:
//! the turn's call sites are numbered from 0 in the order the program
//! reaches them (`"0"`, `"1"`, …); a `pmap` or `pcalls` takes one number
//! `g` for itself, and item `i`'s own call sites are numbered from 0 under
//! it (`"g.i.0"`, `"g.i.1"`, …, nested groups the same way). The same
//! program with the same answers makes the same calls at the same sites,
//! whether a group's items ran one after the other or together — what a
//! recording, an approval and an idempotency key name a call by.
//!
//! **Concurrent groups.** When the host allows more than one call at once
//! ([`Host::max_parallel`]) and the group is not itself inside an item
//! being tried, a group runs in two phases:
//!
//! 1. *Discovery rounds*: each unfinished item is tried from its start,
//!    its calls answered from the answers it has so far; at the first call
//!    without one the try stops there (the call is *wanted*) and everything
//!    it did is undone — steps, heap, prints, tool calls, definitions. The
//!    wanted calls of all items then go to the host at once
//!    ([`Host::call_batch`], at most `max_parallel` running together), and
//!    the next round tries again. An item that fails stops the rounds for
//!    the items after it (one after the other, they would not have run).
//! 2. *The run*: the items run one after the other, exactly as the
//!    sequential path runs them, each call answered from the answers the
//!    rounds collected (a call they lack runs then). So values, prints,
//!    errors, steps and the recorded calls are those of the sequential
//!    run; only the time differs.
//!
//! A group whose first item ends without calling a tool is not gathered:
//! its items run one after the other (a call a later item makes runs then,
//! on its own), so a `pmap` over plain data costs one extra try of its
//! first item, not a second run of every item.
//!
//! The rounds never make more calls than the turn's `max_tool_calls`
//! leaves, counting those gathered (items in order first).
//!
//! A call the host pauses (approval) or stops (`indeterminate`) in a
//! round ends the turn: the calls that ran are recorded in site order,
//! the paused ones are the turn's pending calls. Items are assumed
//! deterministic given their answers, which holds for PTC-Lisp (no
//! randomness, no clock inside a turn but `System/currentTimeMillis`,
//! which a try reads again).

use std::fmt::Write as _;

use super::host::{CallAnswer, CallRequest};
use super::{guard, stack, Interp, ToolCall};
use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;

/// The numbering of call sites (CALL-SITE-1).
#[derive(Default)]
pub(crate) struct Sites {
    prefix: String,
    next: u32,
    outer: Vec<(usize, u32)>,
}

impl Sites {
    /// Back to the turn's first site.
    pub(crate) fn reset(&mut self) {
        self.prefix.clear();
        self.next = 0;
        self.outer.clear();
    }

    /// The next site.
    pub(crate) fn take(&mut self) -> String {
        let at = format!("{}{}", self.prefix, self.next);
        self.next += 1;
        at
    }

    fn enter_item(&mut self, group: &str, item: usize) {
        self.outer.push((self.prefix.len(), self.next));
        let _ = write!(self.prefix, "{group}.{item}.");
        self.next = 0;
    }

    fn leave_item(&mut self) {
        if let Some((len, next)) = self.outer.pop() {
            self.prefix.truncate(len);
            self.next = next;
        }
    }
}

/// The answers gathered for an item, by site.
type Answers = Vec<(String, std::result::Result<Value, String>)>;

/// The answers an item being tried (or run after its rounds) has, and
/// the call it wanted.
pub(crate) struct Attempt {
    answers: Answers,
    /// Whether a call without an answer stops the try (discovery) or runs
    /// (the run).
    discovering: bool,
    wanted: Option<ToolCall>,
}

/// What an item's call finds in its attempt.
pub(crate) enum Found {
    /// Not inside an attempt, or the run's call without an answer: the
    /// host runs it.
    Live,
    /// The answer collected for this site.
    Answer(std::result::Result<Value, String>),
    /// A discovery try reached a call it has no answer for.
    Wanted(Error),
}

impl Interp {
    /// What the call of `name` at `at` finds in the item being tried.
    pub(crate) fn attempted_call(&mut self, name: &str, args: &[Value], at: &str) -> Found {
        let Some(attempt) = self.attempt.as_mut() else {
            return Found::Live;
        };
        if let Some((_, answer)) = attempt.answers.iter().find(|(site, _)| site == at) {
            return Found::Answer(answer.clone());
        }
        if !attempt.discovering {
            return Found::Live;
        }
        attempt.wanted = Some(ToolCall {
            name: name.to_string(),
            args: args.to_vec(),
            result: Ok(Value::Nil),
            at: at.to_string(),
        });
        Found::Wanted(Error::new(
            ErrorKind::Paused,
            format!("tool/{name} (call {at}) is being gathered"),
        ))
    }

    /// Runs items `0..n` of a `pmap`/`pcalls` (`item(interp, i)` is item
    /// `i`'s value): one after the other, or with their tool calls
    /// concurrent (the module docs).
    pub(crate) fn run_group(
        &mut self,
        n: usize,
        item: &mut dyn FnMut(&mut Interp, usize) -> Result<Value>,
    ) -> Result<Vec<Value>> {
        let group = self.sites.take();
        let parallel = if self.reference || self.attempt.is_some() {
            1
        } else {
            self.host
                .max_parallel()
                .min(self.budget.limits.max_parallel_tool_calls)
        };
        if parallel > 1 && n > 1 {
            let answers = self.discover(&group, n, parallel, item)?;
            let mut out = Vec::with_capacity(n);
            for (i, answers) in answers.into_iter().enumerate() {
                self.attempt = Some(Attempt {
                    answers,
                    discovering: false,
                    wanted: None,
                });
                self.sites.enter_item(&group, i);
                let r = item(self, i);
                self.sites.leave_item();
                self.attempt = None;
                out.push(r?);
            }
            return Ok(out);
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            self.sites.enter_item(&group, i);
            let r = item(self, i);
            self.sites.leave_item();
            out.push(r?);
        }
        Ok(out)
    }

    /// The discovery rounds: each item's answers, by site; nothing is
    /// printed meanwhile.
    fn discover(
        &mut self,
        group: &str,
        n: usize,
        parallel: usize,
        item: &mut dyn FnMut(&mut Interp, usize) -> Result<Value>,
    ) -> Result<Vec<Answers>> {
        let sink = self.on_print.take();
        let mut answers: Vec<Answers> = vec![Vec::new(); n];
        let result = self
            .discovery_rounds(group, parallel, item, &mut answers)
            .map(|()| answers);
        self.on_print = sink;
        result
    }

    fn discovery_rounds(
        &mut self,
        group: &str,
        parallel: usize,
        item: &mut dyn FnMut(&mut Interp, usize) -> Result<Value>,
        answers: &mut [Answers],
    ) -> Result<()> {
        let n = answers.len();
        let mut finished = vec![false; n];
        // Items from the first failing one on are not tried again.
        let mut limit = n;
        // The calls that ran, for the record of a turn that pauses here.
        let mut ran: Vec<(usize, ToolCall)> = Vec::new();
        let mut first_round = true;
        loop {
            let mut wanted: Vec<(usize, ToolCall)> = Vec::new();
            for i in 0..n {
                // Items after a failed one would not run one after the other.
                if i >= limit {
                    break;
                }
                if finished[i] {
                    continue;
                }
                let mark = self.mark();
                self.attempt = Some(Attempt {
                    answers: std::mem::take(&mut answers[i]),
                    discovering: true,
                    wanted: None,
                });
                self.sites.enter_item(group, i);
                let r = item(self, i);
                self.sites.leave_item();
                let (gathered, wanted_call) = match self.attempt.take() {
                    Some(a) => (a.answers, a.wanted),
                    None => (Vec::new(), None),
                };
                answers[i] = gathered;
                self.rewind(mark);
                match (r, wanted_call) {
                    (Err(e), Some(call)) if e.kind() == ErrorKind::Paused => wanted.push((i, call)),
                    // Limits end the turn whichever item reached them.
                    (Err(e), _)
                        if !e.kind().catchable()
                            && !matches!(e.kind(), ErrorKind::Fail | ErrorKind::Return) =>
                    {
                        return Err(e)
                    }
                    (Ok(_), _) => finished[i] = true,
                    (Err(_), _) => {
                        finished[i] = true;
                        limit = i + 1;
                    }
                }
                // The first item ended without a call: a group that calls
                // no tool (`(pmap f xs)` over plain data) is not tried
                // twice over; its items just run.
                if first_round && i == 0 && finished[0] {
                    return Ok(());
                }
            }
            first_round = false;
            wanted.retain(|(i, _)| *i < limit);
            // The turn's tool-call limit counts the calls gathered too: no
            // more run than one after the other could (the run then stops
            // at the limit where the sequential run would).
            if let Some(max) = self.budget.limits.max_tool_calls {
                let made = self.budget.tool_calls + answers.iter().map(Vec::len).sum::<usize>();
                wanted.truncate(max.saturating_sub(made));
            }
            if wanted.is_empty() {
                return Ok(());
            }
            let got = self.call_together(&wanted, parallel);
            let mut ended: Option<Error> = None;
            for ((i, mut call), answer) in wanted.into_iter().zip(got) {
                match answer {
                    CallAnswer::Done(result) => {
                        answers[i].push((call.at.clone(), result.clone()));
                        call.result = result;
                        ran.push((i, call));
                    }
                    CallAnswer::Pause => {
                        call.result = Err("awaits approval".into());
                        self.pending_calls.push(call);
                        ended.get_or_insert_with(|| self.paused_error());
                    }
                    CallAnswer::Stop(e) => {
                        call.result = Err(e.message().to_string());
                        ran.push((i, call));
                        ended = Some(match ended {
                            Some(p) if p.kind() == ErrorKind::Paused => e,
                            Some(first) => first,
                            None => e,
                        });
                    }
                }
            }
            if let Some(e) = ended {
                ran.sort_by(|a, b| site_order(&a.1.at, &b.1.at));
                self.tool_calls.extend(ran.into_iter().map(|(_, c)| c));
                return Err(e);
            }
            self.budget.check_clock()?;
        }
    }

    /// Runs `calls` through the host, at most `parallel` at once.
    fn call_together(&mut self, calls: &[(usize, ToolCall)], parallel: usize) -> Vec<CallAnswer> {
        let time_left = self.budget.time_left();
        let host = &mut self.host;
        let reqs: Vec<CallRequest<'_>> = calls
            .iter()
            .map(|(_, c)| CallRequest {
                name: &c.name,
                args: &c.args,
                at: &c.at,
            })
            .collect();
        guard::catch_quietly(|| {
            stack::on_caller_stack(|| host.call_batch(&reqs, time_left, parallel))
        })
        .unwrap_or_else(|panic| {
            reqs.iter()
                .map(|_| CallAnswer::Done(Err(format!("the tool panicked: {panic}"))))
                .collect()
        })
    }

    /// The error a turn pauses with.
    pub(crate) fn paused_error(&self) -> Error {
        let calls: Vec<String> = self
            .pending_calls
            .iter()
            .map(|c| format!("tool/{} (call {})", c.name, c.at))
            .collect();
        Error::new(
            ErrorKind::Paused,
            format!("the turn is paused: {} awaits approval", calls.join(", ")),
        )
        .with_hint("approve or deny the call (`ptc resume FILE --approve ID` or `--deny ID`)")
    }

    fn mark(&mut self) -> Mark {
        Mark {
            budget: self.budget.mark(),
            prints: self.prints.len(),
            tool_calls: self.tool_calls.len(),
            pending_line: self.pending_line.clone(),
            captures: self.captures.clone(),
            globals: self.globals.clone(),
            defined: self.defined.len(),
        }
    }

    fn rewind(&mut self, mark: Mark) {
        self.budget.rewind(mark.budget);
        self.prints.truncate(mark.prints);
        self.tool_calls.truncate(mark.tool_calls);
        self.pending_line = mark.pending_line;
        self.captures = mark.captures;
        self.globals = mark.globals;
        self.defined.truncate(mark.defined);
    }
}

/// What a discovery try undoes.
struct Mark {
    budget: super::budget::BudgetMark,
    prints: usize,
    tool_calls: usize,
    pending_line: String,
    captures: Vec<(String, bool)>,
    globals: super::Globals,
    defined: usize,
}

/// Sites in the order the sequential run makes them: component by
/// component, numerically.
pub fn site_order(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |s: &str| -> Vec<u64> { s.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    parts(a).cmp(&parts(b))
}
