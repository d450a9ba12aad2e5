//! A mock LLM server for the agent tests: a real HTTP/1.1 server on
//! `127.0.0.1:0` (std `TcpListener`, one thread per connection) that speaks
//! OpenAI Chat Completions (`POST …/chat/completions`) and Anthropic
//! Messages (`POST …/v1/messages`), answers from a script in order and
//! records every request. Once the script runs out it answers 500
//! `script exhausted` (or, made with `repeat`, starts the script again).
//! `examples/mock_llm.rs` serves it on a fixed port for trying `ptc agent`
//! by hand (README, "Run an agent").
#![allow(dead_code)]

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

struct State {
    /// Usage reports the prompt's tokens as a real server counts them
    /// ([`server_prompt_tokens`]) instead of a fixed 100.
    count_tokens: bool,
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
        let port = listener.local_addr()?.port();
        let state = Arc::new(Mutex::new(State {
            count_tokens: false,
            again: repeat.then(|| script.clone()),
            script: script.into(),
            requests: Vec::new(),
        }));
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
    let body = String::from_utf8_lossy(&body).into_owned();
    let reply = {
        let mut s = state.lock().expect("state");
        s.requests.push(Request {
            path: path.clone(),
            headers,
            body: body.clone(),
            at: Instant::now(),
        });
        if !known {
            drop(s);
            let body = format!(r#"{{"error": {{"message": "no route for POST {path}"}}}}"#);
            return answer(stream, &path, Reply::status(404, &body), 0);
        }
        if s.script.is_empty() {
            if let Some(again) = s.again.clone() {
                s.script = again.into();
            }
        }
        s.script
            .pop_front()
            .unwrap_or_else(|| Reply::status(500, r#"{"error": {"message": "script exhausted"}}"#))
    };
    let input = if state.lock().expect("state").count_tokens {
        server_prompt_tokens(&body)
    } else {
        100
    };
    answer(stream, &path, reply, input);
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

fn answer(mut stream: TcpStream, path: &str, reply: Reply, input: u64) {
    let (code, headers, body) = match reply {
        Reply::Drop => {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            return;
        }
        Reply::Slow(wait, then) => {
            std::thread::sleep(wait);
            return answer(stream, path, *then, input);
        }
        Reply::Text(text) => (200, Vec::new(), completion(path, &text, input)),
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

/// A completion body in the format the path asks for; usage counts are
/// characters/4 of the response and `input` for the prompt (100 unless the
/// mock counts tokens).
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
