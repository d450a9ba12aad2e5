//! [`ScriptedLlm`]: a model that answers from a list, in order, and keeps
//! every request (tests, examples, benchmarks).

use std::collections::VecDeque;
use std::time::Duration;

use super::{Llm, LlmError, LlmErrorKind, LlmResponse, Usage};
use crate::session::Message;

/// Answers with its responses in order; once they run out, every call is
/// an [`LlmErrorKind::ScriptEnded`] error. Usage is reported as
/// characters/4 of the messages and of the response.
#[derive(Clone, Debug, Default)]
pub struct ScriptedLlm {
    responses: VecDeque<String>,
    requests: Vec<Vec<Message>>,
    keep_requests: bool,
}

impl ScriptedLlm {
    /// A model answering `responses` in order, keeping every request it
    /// receives.
    pub fn new<S: Into<String>>(responses: impl IntoIterator<Item = S>) -> ScriptedLlm {
        ScriptedLlm {
            responses: responses.into_iter().map(Into::into).collect(),
            requests: Vec::new(),
            keep_requests: true,
        }
    }

    /// Does not keep the requests (benchmarks).
    pub fn forgetful(mut self) -> ScriptedLlm {
        self.keep_requests = false;
        self
    }

    /// The messages of every call so far, in order.
    pub fn requests(&self) -> &[Vec<Message>] {
        &self.requests
    }

    /// Responses not given yet.
    pub fn remaining(&self) -> usize {
        self.responses.len()
    }
}

impl Llm for ScriptedLlm {
    fn complete(&mut self, messages: &[Message]) -> Result<LlmResponse, LlmError> {
        if self.keep_requests {
            self.requests.push(messages.to_vec());
        }
        let Some(text) = self.responses.pop_front() else {
            return Err(LlmError::new(
                LlmErrorKind::ScriptEnded,
                "the scripted LLM has no responses left",
            ));
        };
        let chars: usize = messages.iter().map(|m| m.content.len()).sum();
        Ok(LlmResponse {
            usage: Usage {
                input_tokens: Some(chars.div_ceil(4) as u64),
                output_tokens: Some(text.len().div_ceil(4) as u64),
                ..Usage::default()
            },
            text,
            model: "scripted".into(),
            finish_reason: Some("stop".into()),
            latency: Duration::ZERO,
            ..LlmResponse::default()
        })
    }
}
