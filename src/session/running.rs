//! Running turns: a reply or a program as the next turn, recorded turns,
//! and the status a turn leaves.

use super::*;

impl Session {
    /// Runs one LLM response as the next turn and records it.
    ///
    /// A response without code makes a failed turn (a `parse-error`); so
    /// does any error. Only successful turns change memory. It is an error
    /// to call this once the session has ended.
    pub fn run_turn(&mut self, raw_response: &str) -> Result<&Turn, SessionError> {
        self.run_llm_turn(raw_response, None)
    }

    /// [`Session::run_turn`], recording what the LLM reported about the
    /// response in [`Turn::llm`] (and so in the session file).
    pub fn run_llm_turn(
        &mut self,
        raw_response: &str,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        let found = reply::program_in(raw_response, None, llm.as_ref());
        self.run_extracted(raw_response.to_string(), None, found, llm)
    }

    /// [`Session::run_llm_turn`] for a recorded turn: its tool calls are
    /// answered from `calls`, in order, and no tool runs (`recording.rs`).
    /// A call that is not the recorded one, or recorded calls the turn
    /// did not make, is a [`SessionError::Recording`]; the turn is then
    /// not kept.
    pub fn run_recorded_turn(
        &mut self,
        raw_response: &str,
        llm: Option<LlmInfo>,
        calls: Vec<RecordedCall>,
    ) -> Result<&Turn, SessionError> {
        self.run_recorded_reply(&Reply::text(raw_response), llm, calls)
    }

    /// [`Session::run_recorded_turn`] for a model's reply (tool protocol
    /// calls too).
    pub fn run_recorded_reply(
        &mut self,
        reply: &Reply,
        llm: Option<LlmInfo>,
        calls: Vec<RecordedCall>,
    ) -> Result<&Turn, SessionError> {
        if !self.status.is_running() {
            return Err(SessionError::Ended(self.status.clone()));
        }
        let number = self.turns.len() + 1;
        self.replay.start(calls);
        let ran = self.run_reply(reply, llm).map(|_| ());
        let mismatch = self.replay.finish();
        ran?;
        if let Some(message) = mismatch {
            self.truncate_turns(number - 1);
            return Err(SessionError::Recording {
                turn: number,
                message,
            });
        }
        Ok(&self.turns[number - 1])
    }

    /// Runs a model's reply — text, and function calls under the tool
    /// protocol — as the next turn (`session/reply.rs` says which program
    /// runs, and which replies are failed turns: empty, cut off, no code,
    /// protocol problems).
    pub fn run_reply(
        &mut self,
        reply: &Reply,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        self.run_reply_owned(reply.clone(), llm)
    }

    /// [`Session::run_reply`] taking the reply (nothing of it is copied).
    pub(crate) fn run_reply_owned(
        &mut self,
        reply: Reply,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        let found = reply::program_of(&reply, llm.as_ref());
        self.run_extracted(reply.text, reply.calls, found, llm)
    }

    /// Runs `source` as the next turn, as written: a front end's program
    /// (`ptc mcp`), not an LLM response, so there is no R-70 extraction
    /// (`x` alone is a program). The turn's raw response is `source`, in a
    /// ```` ```clojure ```` fence when extraction would not give it back,
    /// so that a saved session replays the same programs.
    pub fn run_program(&mut self, source: &str) -> Result<&Turn, SessionError> {
        let raw = if extract_program(source).as_deref() == Some(source.trim()) {
            source.to_string()
        } else {
            format!("```clojure\n{source}\n```")
        };
        self.run_extracted(raw, None, Ok(source.to_string()), None)
    }

    /// Runs `found` — the reply's program, or why it has none — as the
    /// next turn of the reply of `text` and `calls`.
    pub(super) fn run_extracted(
        &mut self,
        text: String,
        calls: Option<Vec<ReplyCall>>,
        found: Result<String, (Error, reply::ReplyIssue)>,
        llm: Option<LlmInfo>,
    ) -> Result<&Turn, SessionError> {
        if !self.status.is_running() {
            return Err(SessionError::Ended(self.status.clone()));
        }
        if self.paused.is_some() {
            return Err(SessionError::Paused);
        }
        let raw_response = text.as_str();
        let number = self.forgotten + self.turns.len() + 1;
        self.begin_acting(number)?;
        // A failed program leaves user/ as it was (`run.rs`); a returned
        // value of the wrong shape fails the turn after its program ran, and
        // then user/ goes back to this.
        let before =
            (self.returns.is_some() || self.held.is_some()).then(|| self.interp.globals.clone());
        let (program, issue) = match found {
            Ok(p) => (Some(p), None),
            Err((e, issue)) => (None, Some((e, issue))),
        };
        let (mut result, mut returned, prints, tool_calls, notes) = match &program {
            None => (
                Err(issue
                    .as_ref()
                    .map_or_else(|| extract::no_code_error(raw_response), |(e, _)| e.clone())),
                false,
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
            // A lone fence or an empty block: a failed turn, not `nil`.
            Some(p) if extract::is_empty_program(p) => (
                Err(extract::empty_program_error()),
                false,
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
            Some(p) => {
                let out = self.interp.run_program(p);
                (
                    out.result,
                    out.returned,
                    std::mem::take(&mut self.interp.prints),
                    std::mem::take(&mut self.interp.tool_calls),
                    out.notes,
                )
            }
        };
        let pending = self.end_acting();
        if let (true, Ok(v), Some((text, ty))) = (returned, &result, &self.returns) {
            if let Some(m) = shape::mismatch(ty, v) {
                result = Err(Error::type_error(format!(
                    "return expects the mission's result shape {text}; {m}"
                ))
                .with_hint("return a value of that shape (the session goes on)"));
                returned = false;
            }
        }
        self.over_memory = false;
        let mut sizes = None;
        if let (Some(held), Some(_), Ok(_)) = (&self.held, &program, &result) {
            let names = defined_names(&mut self.interp);
            match held.measure(&self.interp.globals, &names) {
                Ok(s) => sizes = Some(s),
                Err(e) => {
                    result = Err(e);
                    returned = false;
                    self.over_memory = true;
                }
            }
        }
        let success = result.is_ok();
        if let (false, Some(before)) = (success, before) {
            self.interp.globals = before;
        }
        if let (Some(held), Some(sizes), true) = (&mut self.held, sizes, success) {
            held.commit(sizes);
        }
        let memory = self.interp.globals.clone();
        let defined = match (&program, success) {
            (Some(_), true) => defined_names(&mut self.interp),
            _ => Vec::new(),
        };
        if let Ok(v) = &result {
            self.interp.turn_history.push(v.clone());
        }
        // A paused turn ends nothing: it is resumed (ACT-2).
        if pending.is_empty() {
            self.status = self.status_after(number, &result, returned);
        }
        reserve_gently(&mut self.turns);
        self.turns.push(Turn {
            number,
            raw_response: text,
            program,
            result,
            returned,
            prints,
            tool_calls,
            memory,
            defined,
            success,
            notes,
            llm: llm.map(Box::new),
            calls,
            issue: issue.map(|(_, i)| i),
            pending,
        });
        self.note_paused();
        self.refresh_mcp_tools();
        self.record_next_prompt();
        Ok(&self.turns[self.turns.len() - 1])
    }

    /// The status once turn `number` ended with `result`.
    pub(super) fn status_after(
        &self,
        number: usize,
        result: &Result<Value, Error>,
        returned: bool,
    ) -> Status {
        if self.open_ended {
            return Status::Running;
        }
        match result {
            Ok(v) if returned => Status::Returned(v.clone()),
            Err(e) if e.kind() == ErrorKind::Fail => Status::Failed(
                e.data()
                    .cloned()
                    .unwrap_or_else(|| Value::string(e.message())),
            ),
            _ if self.stop_at_max_turns && number >= self.max_turns => Status::Exhausted,
            _ => Status::Running,
        }
    }
}

/// Makes room for one more item, growing by a quarter (at least one)
/// instead of doubling: a live session keeps its turns and prompts for its
/// whole life, and a doubled vector of turns is mostly empty room.
pub(super) fn reserve_gently<T>(items: &mut Vec<T>) {
    if items.len() == items.capacity() {
        items.reserve_exact((items.len() / 4).max(1));
    }
}

/// Names the turn's program defined or redefined (every `def`/`defn` it
/// ran, a redefinition with an equal value included), in user/ order (the
/// program's list of them is sorted in place: nothing reads it after).
fn defined_names(interp: &mut Interp) -> Vec<String> {
    interp.defined.sort_unstable();
    interp.defined.dedup();
    interp
        .defined
        .iter()
        .map(|&id| interp.globals.name(id).to_string())
        .collect()
}
