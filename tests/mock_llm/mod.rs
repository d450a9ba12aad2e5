//! A mock LLM server for the agent tests: a real HTTP/1.1 server on
//! `127.0.0.1:0` (std `TcpListener`, one thread per connection) that speaks
//! OpenAI Chat Completions (`POST …/chat/completions`) and Anthropic
//! Messages (`POST …/v1/messages`), answers from a script in order and
//! records every request. Once the script runs out it answers 500
//! `script exhausted` (or, made with `repeat`, starts the script again).
//! (For trying `ptc agent` by hand: `examples/mock_llm.py`, docs/agents.md.)
//!
//! Like a strict provider, it answers 400 to a history it would reject
//! (`strict.rs`): an OpenAI `tool` message without its call in the
//! assistant message just before, an assistant `tool_calls` without a
//! result for each call; an Anthropic `tool_result` without its `tool_use`
//! in the previous assistant message, a `tool_use` without its result in
//! the next user message, roles out of turn, empty content. Usage reports
//! prompt caching: OpenAI `prompt_tokens_details.cached_tokens` is the
//! longest start shared with any earlier request, in bytes / 4 (at most the fixed
//! 100 prompt tokens); Anthropic reports
//! `cache_read_input_tokens` (or `cache_creation_input_tokens` the first
//! time) for a `cache_control`-marked `tools` + `system` prefix.
#![allow(dead_code)]

#[path = "strict.rs"]
mod strict;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A completion with this text, in the format of the request's path.
    Text(String),
    /// A status with headers and a body (`429` + `Retry-After`, `500`,
    /// `401` with an error body …).
    Status {
        code: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Closes the connection after reading the request, answering nothing.
    Drop,
    /// Waits, then answers.
    Slow(Duration, Box<Reply>),
    /// 200 with this body as it is (malformed JSON, empty body).
    Raw(String),
    /// A reply with prose, function calls `(name, arguments JSON text)`
    /// and a finish reason (`None`: the normal one).
    Full {
        text: String,
        calls: Vec<(String, String)>,
        finish: Option<String>,
    },
}

impl Reply {
    pub fn text(t: &str) -> Reply {
        Reply::Text(t.to_string())
    }
    pub fn status(code: u16, body: &str) -> Reply {
        Reply::Status {
            code,
            headers: Vec::new(),
            body: body.to_string(),
        }
    }
    pub fn rate_limited(retry_after_secs: u32) -> Reply {
        Reply::Status {
            code: 429,
            headers: vec![("Retry-After".into(), retry_after_secs.to_string())],
            body: r#"{"error": {"message": "Rate limit reached", "type": "rate_limit"}}"#.into(),
        }
    }
    /// One `run_ptc_lisp` call of `program`, with `prose` beside it.
    pub fn call(prose: &str, program: &str) -> Reply {
        Reply::Full {
            text: prose.into(),
            calls: vec![(
                "run_ptc_lisp".into(),
                json!({ "program": program }).to_string(),
            )],
            finish: None,
        }
    }
    /// Calls as given (several, other names, bad arguments).
    pub fn calls(prose: &str, calls: &[(&str, &str)]) -> Reply {
        Reply::Full {
            text: prose.into(),
            calls: calls
                .iter()
                .map(|(n, a)| (n.to_string(), a.to_string()))
                .collect(),
            finish: None,
        }
    }
    /// Text cut off at the token limit (`length` / `max_tokens`).
    pub fn cut(text: &str) -> Reply {
        Reply::Full {
            text: text.into(),
            calls: Vec::new(),
            finish: Some("cut".into()),
        }
    }
    /// No text, no call.
    pub fn empty() -> Reply {
        Reply::Full {
            text: String::new(),
            calls: Vec::new(),
            finish: None,
        }
    }
    pub fn slow(ms: u64, then: Reply) -> Reply {
        Reply::Slow(Duration::from_millis(ms), Box::new(then))
    }
}

/// A request as received.
#[derive(Clone, Debug)]
pub struct Request {
    pub path: String,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// When it arrived.
    pub at: Instant,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Json {
        serde_json::from_str(&self.body).expect("the request body is JSON")
    }
}

/// Picks the answer from the request (instead of a script in order).
pub type Router = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

struct State {
    /// Usage reports the prompt's tokens as a real server counts them
    /// ([`server_prompt_tokens`]) instead of a fixed 100.
    count_tokens: bool,
    router: Option<Router>,
    script: VecDeque<Reply>,
    /// The whole script, to start again from (repeat mode).
    again: Option<Vec<Reply>>,
    requests: Vec<Request>,
}

/// The running server (it lives until the test process ends).
#[derive(Clone)]
pub struct MockLlm {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl MockLlm {
    pub fn start(script: Vec<Reply>) -> MockLlm {
        MockLlm::start_on(0, script, false).expect("bind 127.0.0.1:0")
    }

    /// On `127.0.0.1:port` (0: any free port); with `repeat`, the script
    /// starts again once it runs out.
    pub fn start_on(port: u16, script: Vec<Reply>, repeat: bool) -> std::io::Result<MockLlm> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        MockLlm::serve_state(
            listener,
            State {
                router: None,
                count_tokens: false,
                again: repeat.then(|| script.clone()),
                script: script.into(),
                requests: Vec::new(),
            },
        )
    }

    /// Answers each request with `router(request)` (any order of arrival,
    /// e.g. concurrent runs).
    pub fn start_routed(router: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> MockLlm {
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind 127.0.0.1:0");
        MockLlm::serve_state(
            listener,
            State {
                router: Some(Arc::new(router)),
                count_tokens: false,
                again: None,
                script: VecDeque::new(),
                requests: Vec::new(),
            },
        )
        .expect("serve")
    }

    fn serve_state(listener: TcpListener, state: State) -> std::io::Result<MockLlm> {
        let port = listener.local_addr()?.port();
        let state = Arc::new(Mutex::new(state));
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Ok(MockLlm { port, state })
    }

    /// `http://127.0.0.1:PORT/v1`, the OpenAI-style base URL.
    pub fn openai_base(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// `http://127.0.0.1:PORT`, the Anthropic-style base URL.
    pub fn anthropic_base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// From now on, usage reports each request's prompt tokens as the
    /// llama.cpp server of issue 30 counted them ([`server_prompt_tokens`]).
    pub fn count_prompt_tokens(self) -> MockLlm {
        self.state.lock().expect("state").count_tokens = true;
        self
    }

    pub fn requests(&self) -> Vec<Request> {
        self.state.lock().expect("state").requests.clone()
    }

    pub fn remaining(&self) -> usize {
        self.state.lock().expect("state").script.len()
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            return;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    // Like a real server: only the API's paths exist (the request is
    // still recorded; the script is not consumed).
    let known = path == "/v1/chat/completions" || path == "/v1/messages";
    let body_text = String::from_utf8_lossy(&body).into_owned();
    if let Some(problem) = strict::problem(&path, &body_text) {
        state.lock().expect("state").requests.push(Request {
            path: path.clone(),
            headers,
            body: body_text,
            at: Instant::now(),
        });
        let body = json!({"error": {"type": "invalid_request_error", "message": problem}});
        return answer(
            stream,
            &path,
            Reply::status(400, &body.to_string()),
            100,
            0,
            0,
        );
    }
    // Counted and recorded under one lock: requests made at once (`ptc
    // eval --jobs`) each see every request before them, never two of them
    // the same empty history.
    let (cached, written, reply) = {
        let mut s = state.lock().expect("state");
        let (cached, written) = strict::cache_counts(&path, &body_text, &s.requests);
        let request = Request {
            path: path.clone(),
            headers,
            body: body_text,
            at: Instant::now(),
        };
        let routed = s.router.clone().map(|r| r(&request));
        s.requests.push(request);
        if !known {
            drop(s);
            let body = format!(r#"{{"error": {{"message": "no route for POST {path}"}}}}"#);
            return answer(stream, &path, Reply::status(404, &body), 100, 0, 0);
        }
        if let Some(reply) = routed {
            drop(s);
            return answer(stream, &path, reply, 100, cached, written);
        }
        if s.script.is_empty() {
            if let Some(again) = s.again.clone() {
                s.script = again.into();
            }
        }
        let reply = s
            .script
            .pop_front()
            .unwrap_or_else(|| Reply::status(500, r#"{"error": {"message": "script exhausted"}}"#));
        (cached, written, reply)
    };
    let input = if state.lock().expect("state").count_tokens {
        server_prompt_tokens(&String::from_utf8_lossy(&body))
    } else {
        100
    };
    answer(stream, &path, reply, input, cached, written);
}

/// A request's prompt tokens as a real OpenAI-compatible server counted
/// them (issue 30: llama.cpp serving SmolLM2 reported 1.135× the cl100k
/// count, plus its chat template's ~14 tokens and ~11 per message pair):
/// `ceil(1.135 × cl100k of every message's content) + 14 + 5.5 per
/// message`. A real BPE underneath, so budgets are checked against a count
/// that is not the one ptc makes.
pub fn server_prompt_tokens(body: &str) -> u64 {
    let json: Json = serde_json::from_str(body).unwrap_or(Json::Null);
    let mut texts: Vec<String> = Vec::new();
    if let Some(system) = json.get("system") {
        // Anthropic: a string or content blocks.
        texts.push(match system {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        });
    }
    for m in json["messages"].as_array().into_iter().flatten() {
        texts.push(match &m["content"] {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        });
    }
    let bpe: usize = texts
        .iter()
        .map(|t| {
            ptc_lisp::render::exact_tokens(t)
                .expect("the mock counts tokens with the `tokens` feature")
                .cl100k_base
        })
        .sum();
    (bpe as f64 * 1.135).ceil() as u64 + 14 + (texts.len() as u64 * 11).div_ceil(2)
}

fn answer(mut stream: TcpStream, path: &str, reply: Reply, input: u64, cached: u64, written: u64) {
    let (code, headers, body) = match reply {
        Reply::Drop => {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            return;
        }
        Reply::Slow(wait, then) => {
            std::thread::sleep(wait);
            return answer(stream, path, *then, input, cached, written);
        }
        Reply::Text(text) => (
            200,
            Vec::new(),
            full_completion(path, &text, &[], None, input, cached, written),
        ),
        Reply::Full {
            text,
            calls,
            finish,
        } => (
            200,
            Vec::new(),
            full_completion(
                path,
                &text,
                &calls,
                finish.as_deref(),
                input,
                cached,
                written,
            ),
        ),
        Reply::Raw(body) => (200, Vec::new(), body),
        Reply::Status {
            code,
            headers,
            body,
        } => (code, headers, body),
    };
    let mut head = format!(
        "HTTP/1.1 {code} Mock\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

/// A completion body in the format the path asks for, with calls and a
/// finish reason (`"cut"`: the provider's token-limit reason); usage
/// counts are characters/4 of the response (input fixed at 100, plus the
/// cache counts).
fn full_completion(
    path: &str,
    text: &str,
    calls: &[(String, String)],
    finish: Option<&str>,
    input: u64,
    cached: u64,
    written: u64,
) -> String {
    let out = (text.len() + calls.iter().map(|(_, a)| a.len()).sum::<usize>()).div_ceil(4);
    if path.ends_with("/v1/messages") {
        let mut content = Vec::new();
        if !text.is_empty() {
            content.push(json!({"type": "text", "text": text}));
        }
        for (i, (name, args)) in calls.iter().enumerate() {
            // Anthropic's input is an object; a malformed one is sent as a
            // string so the client sees something wrong.
            let input = serde_json::from_str::<Json>(args).unwrap_or(json!(args));
            content.push(json!({"type": "tool_use", "id": format!("toolu_mock{i}"), "name": name, "input": input}));
        }
        let stop = match finish {
            Some("cut") => "max_tokens",
            Some(other) => other,
            None if calls.is_empty() => "end_turn",
            None => "tool_use",
        };
        json!({
            "id": "msg_mock",
            "type": "message",
            "role": "assistant",
            "model": "mock-claude",
            "content": content,
            "stop_reason": stop,
            "usage": {"input_tokens": input, "output_tokens": out,
                      "cache_creation_input_tokens": written, "cache_read_input_tokens": cached}
        })
        .to_string()
    } else {
        let mut message = json!({"role": "assistant", "content": if text.is_empty() { Json::Null } else { json!(text) }});
        if !calls.is_empty() {
            message["tool_calls"] = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| json!({"id": format!("call_mock{i}"), "type": "function", "function": {"name": name, "arguments": args}}))
                .collect();
        }
        let stop = match finish {
            Some("cut") => "length",
            Some(other) => other,
            None if calls.is_empty() => "stop",
            None => "tool_calls",
        };
        json!({
            "id": "chatcmpl-mock",
            "object": "chat.completion",
            "model": "mock-gpt",
            "choices": [{"index": 0, "message": message, "finish_reason": stop}],
            "usage": {"prompt_tokens": input, "completion_tokens": out, "total_tokens": input + out as u64,
                      "prompt_tokens_details": {"cached_tokens": cached.min(input)}}
        })
        .to_string()
    }
}

/// A plain text completion (no calls, no cache counts).
fn completion(path: &str, text: &str, input: u64) -> String {
    let out = text.len().div_ceil(4);
    if path.ends_with("/v1/messages") {
        json!({
            "id": "msg_mock",
            "type": "message",
            "role": "assistant",
            "model": "mock-claude",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": input, "output_tokens": out}
        })
        .to_string()
    } else {
        json!({
            "id": "chatcmpl-mock",
            "object": "chat.completion",
            "model": "mock-gpt",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": input, "completion_tokens": out, "total_tokens": input + out as u64}
        })
        .to_string()
    }
}
