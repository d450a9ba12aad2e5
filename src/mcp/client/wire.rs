//! What an MCP server sends, bounded before it is parsed or kept (issue
//! 59): a server is another process, so its messages are hostile input.
//!
//! A stdio server's stdout is read by [`Stdio`], a transport of our own in
//! place of rmcp's: each line is read at most [`MAX_MESSAGE_BYTES`] into
//! memory (the rest of a longer line is read and dropped, never kept), and
//! its top-level `"id"` is found while it is read ([`Scan`]), so that an
//! answer is matched to the request it answers without parsing it:
//!
//! * the answer to a `tools/call` is not parsed here at all: its bytes are
//!   kept for the caller ([`Wire::take`]), who turns them into a value
//!   within the call's deadline and heap room (`result.rs`); rmcp gets a
//!   stand-in naming them. An answer over the limit is an error at once,
//!   not a wait for the deadline;
//! * the answers to `tools/list` may take [`MAX_LISTING_BYTES`] together
//!   (all pages of one listing), any other answer, and any request or
//!   notification of the server, [`MAX_OTHER_BYTES`]; over it, or not a
//!   valid MCP answer, the request gets an error saying so at once;
//! * a line that is not a message (a log line on stdout, a message over
//!   its limit with no readable id) is dropped and counted; a request that
//!   then times out says so ([`Wire::noise`]).
//!
//! A Streamable HTTP server goes through rmcp's client, its bodies and
//! events limited to [`MAX_MESSAGE_BYTES`], then the same matching on the
//! parsed messages ([`Relay`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolResult, ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorCode, ErrorData,
    JsonRpcMessage, RequestId, ServerJsonRpcMessage, ServerResult,
};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use super::redact::Redactor;
use super::result::MAX_RESULT_BYTES;

/// Room for the JSON-RPC envelope around a result.
pub const ENVELOPE_BYTES: usize = 64 * 1024;
/// The longest message read from a server: a result of
/// [`MAX_RESULT_BYTES`] and its envelope.
pub const MAX_MESSAGE_BYTES: usize = MAX_RESULT_BYTES + ENVELOPE_BYTES;
/// All pages of one `tools/list`, together.
pub const MAX_LISTING_BYTES: usize = 4 << 20;
/// Any other answer (`initialize`), and a server's own requests and
/// notifications.
pub const MAX_OTHER_BYTES: usize = 1 << 20;
/// The most bytes of an `"id"` read.
const MAX_ID_BYTES: usize = 128;
/// The start of a dropped line shown in errors, in characters.
const NOISE_CHARS: usize = 80;

/// What a request was, for its answer's limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Call,
    List,
    Other,
}

/// The answer to one `tools/call`, as read.
#[derive(Debug)]
pub enum Answer {
    /// The whole message (`{"jsonrpc", "id", "result" | "error"}`).
    Line(Vec<u8>),
    /// A message longer than [`MAX_MESSAGE_BYTES`]: at least this many bytes.
    TooLarge(usize),
}

/// The state one connection's transport shares with its server.
pub struct Wire {
    pending: Mutex<HashMap<String, Kind>>,
    answers: Mutex<HashMap<String, Answer>>,
    listing_left: AtomicUsize,
    noise: Mutex<(usize, String)>,
    redact: Arc<Redactor>,
}

/// The key in [`Wire`]'s maps and in a stand-in answer of an id.
fn key_of(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// The key a stand-in answer names.
pub const STAND_IN: &str = "ptc-wire";

impl Wire {
    /// A new connection's state; `redact` hides its secrets in notes.
    pub fn new(redact: Arc<Redactor>) -> Arc<Wire> {
        Arc::new(Wire {
            pending: Mutex::new(HashMap::new()),
            answers: Mutex::new(HashMap::new()),
            listing_left: AtomicUsize::new(MAX_LISTING_BYTES),
            noise: Mutex::new((0, String::new())),
            redact,
        })
    }

    /// A listing starts: its pages get [`MAX_LISTING_BYTES`] together.
    pub fn start_listing(&self) {
        self.listing_left.store(MAX_LISTING_BYTES, Ordering::SeqCst);
    }

    /// The answer a stand-in `structuredContent` names (taken).
    pub fn take(&self, stand_in: &serde_json::Value) -> Option<Answer> {
        let key = stand_in.get(STAND_IN)?.as_str()?;
        lock(&self.answers).remove(key)
    }

    /// `; it wrote N lines that are not MCP messages (the last: "…")`,
    /// when it did: said when a request gets no answer.
    pub fn noise(&self) -> String {
        let n = lock(&self.noise);
        match n.0 {
            0 => String::new(),
            1 => format!("; it wrote a line that is not an MCP message: {}", n.1),
            k => format!(
                "; it wrote {k} lines that are not MCP messages (the last: {})",
                n.1
            ),
        }
    }

    fn note(&self, what: String) {
        let mut n = lock(&self.noise);
        n.0 += 1;
        n.1 = self.redact.text(&what).into_owned();
    }

    /// Notes what we send: requests wait for their answers; a cancelled
    /// request's answer is no longer waited for (nor kept).
    fn on_send(&self, item: &ClientJsonRpcMessage) {
        match item {
            JsonRpcMessage::Request(r) => {
                let kind = match &r.request {
                    ClientRequest::CallToolRequest(_) => Kind::Call,
                    ClientRequest::ListToolsRequest(_) => Kind::List,
                    _ => Kind::Other,
                };
                lock(&self.pending).insert(key_of(&r.id), kind);
            }
            JsonRpcMessage::Notification(n) => {
                if let ClientNotification::CancelledNotification(c) = &n.notification {
                    if let Some(id) = &c.params.request_id {
                        let key = key_of(id);
                        lock(&self.pending).remove(&key);
                        lock(&self.answers).remove(&key);
                    }
                }
            }
            _ => {}
        }
    }

    /// One line read from a stdio server: `line` its bytes (`None` when
    /// it was over [`MAX_MESSAGE_BYTES`] and dropped), `len` its length,
    /// `scan` what was found in it. The message for rmcp, if any.
    fn on_line(
        &self,
        line: Option<Vec<u8>>,
        len: usize,
        scan: &Scan,
    ) -> Option<ServerJsonRpcMessage> {
        let line = line.map(|mut l| {
            while matches!(l.last(), Some(b'\n' | b'\r')) {
                l.pop();
            }
            l
        });
        if line
            .as_ref()
            .is_some_and(|l| l.iter().all(u8::is_ascii_whitespace))
        {
            return None;
        }
        if let (Some(id), false) = (scan.id(), scan.has_method) {
            let key = key_of(&id);
            let kind = lock(&self.pending).remove(&key);
            return match kind {
                Some(Kind::Call) => {
                    let answer = match line {
                        Some(l) => Answer::Line(l),
                        None => Answer::TooLarge(len),
                    };
                    lock(&self.answers).insert(key.clone(), answer);
                    Some(stand_in(&id, &key))
                }
                Some(kind) => {
                    let (method, limit) = match kind {
                        Kind::List => ("tools/list", self.listing_left.load(Ordering::SeqCst)),
                        _ => ("this request", MAX_OTHER_BYTES),
                    };
                    let Some(l) = line.filter(|_| len <= limit) else {
                        return Some(refuse(
                            &id,
                            &if kind == Kind::List {
                                format!(
                                    "its tool listing is over {} bytes (all pages together), the most ptc reads; \
                                     offer fewer tools from this server",
                                    MAX_LISTING_BYTES
                                )
                            } else {
                                format!(
                                    "its answer to {method} is over {limit} bytes, the most ptc reads"
                                )
                            },
                        ));
                    };
                    if kind == Kind::List {
                        self.listing_left.fetch_sub(len, Ordering::SeqCst);
                    }
                    Some(match serde_json::from_slice::<ServerJsonRpcMessage>(&l) {
                        Ok(m) => m,
                        Err(e) => refuse(
                            &id,
                            &format!(
                                "its answer to {method} is not a valid MCP answer: {}",
                                plain_serde(&e)
                            ),
                        ),
                    })
                }
                None => {
                    self.note(format!(
                        "an answer to request {key}, which nothing waits for"
                    ));
                    None
                }
            };
        }
        // A request or notification of the server's, or noise.
        let Some(l) = line.filter(|_| len <= MAX_OTHER_BYTES) else {
            self.note(format!(
                "a line of {len} bytes, over the {MAX_OTHER_BYTES} a message that answers no call may have"
            ));
            return None;
        };
        match serde_json::from_slice::<ServerJsonRpcMessage>(&l) {
            Ok(m) => Some(m),
            Err(_) => {
                self.note(snippet(&l));
                None
            }
        }
    }

    /// A message an HTTP server sent (parsed by rmcp within its limits):
    /// the same matching as [`Wire::on_line`].
    fn on_message(&self, msg: ServerJsonRpcMessage) -> Option<ServerJsonRpcMessage> {
        let id = match &msg {
            JsonRpcMessage::Response(r) => r.id.clone(),
            JsonRpcMessage::Error(e) => match &e.id {
                Some(id) => id.clone(),
                None => return Some(msg),
            },
            _ => return Some(msg),
        };
        let key = key_of(&id);
        let kind = lock(&self.pending).remove(&key);
        match kind {
            Some(Kind::Call) => {
                let answer = match serde_json::to_vec(&msg) {
                    Ok(l) if l.len() <= MAX_MESSAGE_BYTES => Answer::Line(l),
                    Ok(l) => Answer::TooLarge(l.len()),
                    Err(_) => Answer::Line(b"{}".to_vec()),
                };
                lock(&self.answers).insert(key.clone(), answer);
                Some(stand_in(&id, &key))
            }
            Some(Kind::List) => {
                let len = serde_json::to_vec(&msg).map_or(0, |l| l.len());
                let left = self.listing_left.load(Ordering::SeqCst);
                if len > left {
                    return Some(refuse(
                        &id,
                        &format!(
                            "its tool listing is over {MAX_LISTING_BYTES} bytes (all pages together), \
                             the most ptc reads; offer fewer tools from this server"
                        ),
                    ));
                }
                self.listing_left.fetch_sub(len, Ordering::SeqCst);
                Some(msg)
            }
            Some(Kind::Other) => Some(msg),
            None => {
                self.note(format!(
                    "an answer to request {key}, which nothing waits for"
                ));
                None
            }
        }
    }
}

/// The stand-in rmcp gets for the answer to a call: an empty result whose
/// `structuredContent` names the answer kept in the [`Wire`].
fn stand_in(id: &RequestId, key: &str) -> ServerJsonRpcMessage {
    let result = CallToolResult::structured(json!({ STAND_IN: key }));
    ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id.clone())
}

/// The JSON-RPC error code of the errors ptc answers a request with
/// itself (the server's answer was over its limit, or not an answer).
pub const REFUSED_HERE: i32 = -32090;

/// An error answer for request `id`, saying `why`.
fn refuse(id: &RequestId, why: &str) -> ServerJsonRpcMessage {
    let error = ErrorData::new(ErrorCode(REFUSED_HERE), why.to_string(), None);
    ServerJsonRpcMessage::error(error, Some(id.clone()))
}

/// The start of a line that is not a message, quoted, controls escaped.
fn snippet(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(NOISE_CHARS * 4)]);
    let cut: String = text.chars().take(NOISE_CHARS).collect();
    let more = if text.chars().count() > NOISE_CHARS || line.len() > NOISE_CHARS * 4 {
        "…"
    } else {
        ""
    };
    format!("{:?}{more}", cut)
}

/// A serde error in words, without Rust's type names (`untagged enum
/// ServerResult`, `struct Tool`).
pub fn plain_serde(e: &serde_json::Error) -> String {
    let text = e.to_string();
    if text.contains("untagged enum") || text.contains("variant") {
        return format!(
            "it has none of the shapes MCP gives an answer (line {}, column {})",
            e.line(),
            e.column()
        );
    }
    let mut out: Vec<&str> = Vec::new();
    let mut words = text.split(' ').peekable();
    while let Some(w) = words.next() {
        match w {
            "struct" | "enum" | "map"
                if words
                    .peek()
                    .is_some_and(|n| n.starts_with(char::is_uppercase)) =>
            {
                let next = words.next().unwrap_or("");
                out.push(if w == "enum" {
                    "one of its values"
                } else {
                    "an object"
                });
                if next.ends_with(',') {
                    let last = out.pop().unwrap_or("");
                    out.push(if last == "an object" {
                        "an object,"
                    } else {
                        "one of its values,"
                    });
                }
            }
            _ => out.push(w),
        }
    }
    out.join(" ")
}

/// The top-level `"id"` of a JSON object read piece by piece, without
/// keeping it: brackets and strings are tracked, the id's text is kept
/// (at most [`MAX_ID_BYTES`]), and whether the object has a `"method"`.
#[derive(Default)]
pub struct Scan {
    depth: u32,
    in_str: bool,
    esc: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    /// The string being read is a top-level key.
    reading_key: bool,
    key: Vec<u8>,
    /// The top-level value being read is the id's.
    in_id: bool,
    id: Vec<u8>,
    /// An object at the top.
    object: bool,
    /// It has a top-level `"method"`.
    pub has_method: bool,
}

impl Scan {
    /// Reads `bytes`, the next piece of the line.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &c in bytes {
            self.byte(c);
        }
    }

    fn keep(&mut self, c: u8) {
        if self.reading_key {
            if self.key.len() < 16 {
                self.key.push(c);
            }
        } else if self.in_id && self.id.len() <= MAX_ID_BYTES {
            self.id.push(c);
        }
    }

    fn byte(&mut self, c: u8) {
        if self.in_str {
            if self.esc {
                self.esc = false;
                self.keep(c);
            } else if c == b'\\' {
                self.esc = true;
                self.keep(c);
            } else if c == b'"' {
                self.in_str = false;
                if self.reading_key {
                    self.reading_key = false;
                } else {
                    self.keep(c);
                }
            } else {
                self.keep(c);
            }
            return;
        }
        match c {
            b'"' => {
                self.in_str = true;
                if self.depth == 1 && self.expect_key {
                    self.reading_key = true;
                    self.expect_key = false;
                    self.key.clear();
                } else {
                    self.keep(c);
                }
            }
            b'{' | b'[' => {
                if self.depth == 0 && c == b'{' {
                    self.object = true;
                    self.expect_key = true;
                } else {
                    self.keep(c);
                }
                self.depth += 1;
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.in_id = false;
                } else {
                    self.keep(c);
                }
            }
            b':' if self.depth == 1 => {
                self.in_id = self.key == b"id";
                if self.key == b"method" {
                    self.has_method = true;
                }
                if self.in_id {
                    self.id.clear();
                }
            }
            b',' if self.depth == 1 => {
                self.in_id = false;
                self.expect_key = true;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => self.keep(c),
        }
    }

    /// The id, when the line is an object with a readable one.
    pub fn id(&self) -> Option<RequestId> {
        if !self.object || self.id.is_empty() || self.id.len() > MAX_ID_BYTES {
            return None;
        }
        serde_json::from_slice(&self.id).ok()
    }
}

/// A stdio server's connection: the child's stdout read line by line
/// within the bounds above, its stdin written.
pub struct Stdio<R, W> {
    read: BufReader<R>,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    wire: Arc<Wire>,
    line: Vec<u8>,
    len: usize,
    scan: Scan,
}

impl<R: AsyncRead + Unpin, W> Stdio<R, W> {
    /// The transport over `read` (the server's stdout) and `write` (its
    /// stdin), sharing `wire` with the server.
    pub fn new(read: R, write: W, wire: Arc<Wire>) -> Stdio<R, W> {
        Stdio {
            read: BufReader::with_capacity(64 * 1024, read),
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            wire,
            line: Vec::new(),
            len: 0,
            scan: Scan::default(),
        }
    }

    /// Reads up to the end of a line into `line` (only its first
    /// [`MAX_MESSAGE_BYTES`]); `None` at the end of the stream. Safe to
    /// cancel: what was read stays in `self` (rmcp polls `receive` in a
    /// `select!`).
    async fn read_line(&mut self) -> Option<()> {
        loop {
            let buf = self.read.fill_buf().await.ok()?;
            if buf.is_empty() {
                return None;
            }
            let newline = memchr::memchr(b'\n', buf);
            let take = newline.map_or(buf.len(), |i| i + 1);
            let piece = &buf[..take];
            self.scan.feed(piece);
            self.len += take;
            if self.len <= MAX_MESSAGE_BYTES {
                self.line.extend_from_slice(piece);
            } else if !self.line.is_empty() {
                self.line = Vec::new();
            }
            self.read.consume(take);
            if newline.is_some() {
                return Some(());
            }
        }
    }
}

impl<R, W> Transport<RoleClient> for Stdio<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn name() -> Cow<'static, str> {
        "stdio".into()
    }

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.wire.on_send(&item);
        let bytes = serde_json::to_vec(&item).map(|mut b| {
            b.push(b'\n');
            b
        });
        let write = self.write.clone();
        async move {
            let bytes = bytes.map_err(std::io::Error::other)?;
            let mut w = write.lock().await;
            match w.as_mut() {
                Some(w) => {
                    w.write_all(&bytes).await?;
                    w.flush().await
                }
                None => Err(std::io::Error::new(
                    std::io::ErrorKind::NotConnected,
                    "the connection is closed",
                )),
            }
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        loop {
            self.read_line().await?;
            let len = std::mem::take(&mut self.len);
            let line = std::mem::take(&mut self.line);
            let scan = std::mem::take(&mut self.scan);
            let line = (len <= MAX_MESSAGE_BYTES).then_some(line);
            if let Some(m) = self.wire.on_line(line, len, &scan) {
                return Some(m);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.take();
        Ok(())
    }
}

/// An rmcp transport (Streamable HTTP) with its answers matched as a
/// stdio server's are.
pub struct Relay<T> {
    inner: T,
    wire: Arc<Wire>,
}

impl<T> Relay<T> {
    /// `inner` relayed, sharing `wire` with the server.
    pub fn new(inner: T, wire: Arc<Wire>) -> Relay<T> {
        Relay { inner, wire }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Relay<T> {
    type Error = T::Error;

    fn name() -> Cow<'static, str> {
        "http".into()
    }

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.wire.on_send(&item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        loop {
            let m = self.inner.receive().await?;
            if let Some(m) = self.wire.on_message(m) {
                return Some(m);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Scan {
        let mut s = Scan::default();
        // in pieces, as read
        for chunk in text.as_bytes().chunks(3) {
            s.feed(chunk);
        }
        s
    }

    #[test]
    fn the_id_is_found_wherever_it_is() {
        let id = |t: &str| scan(t).id().map(|i| key_of(&i));
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#).as_deref(),
            Some("7")
        );
        assert_eq!(
            id(r#"{"result":{"id":1,"x":["id",{"id":2}]},"id":"a\"b"}"#).as_deref(),
            Some(r#""a\"b""#)
        );
        assert_eq!(
            id(r#"{"jsonrpc": "2.0", "id": 12 , this is not JSON"#).as_deref(),
            Some("12")
        );
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":"#), None);
        assert_eq!(id(r#"["id", 3]"#), None);
        assert_eq!(id(r#"{"id": {"x": 1}}"#), None);
        assert!(scan(r#"{"id":1,"method":"ping"}"#).has_method);
        assert!(!scan(r#"{"id":1,"result":{"method":"x"}}"#).has_method);
    }

    #[test]
    fn stand_ins_are_call_results() {
        let id = RequestId::Number(3);
        let m = stand_in(&id, "3");
        let JsonRpcMessage::Response(r) = m else {
            panic!("not a response")
        };
        let ServerResult::CallToolResult(c) = r.result else {
            panic!("not a call result: {:?}", r.result)
        };
        let answer = c.structured_content.unwrap();
        assert_eq!(answer[STAND_IN], "3");
        assert!(matches!(refuse(&id, "no"), JsonRpcMessage::Error(_)));
    }

    #[test]
    fn serde_errors_lose_their_type_names() {
        let mut errors = 0;
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":"x"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","method":5}"#,
            r#"{"jsonrpc":"2.0","id":{},"result":{}}"#,
        ] {
            if let Err(e) = serde_json::from_str::<ServerJsonRpcMessage>(text) {
                errors += 1;
                let p = plain_serde(&e);
                assert!(!p.contains("Server") && !p.contains("enum "), "{p}");
            }
        }
        assert!(errors > 0);
        let e = serde_json::from_str::<rmcp::model::Tool>(r#"{"name": 3}"#).unwrap_err();
        let p = plain_serde(&e);
        assert!(!p.contains("struct"), "{p}");
        let e = serde_json::from_str::<rmcp::model::Tool>(r#"[1]"#).unwrap_err();
        let p = plain_serde(&e);
        assert!(!p.contains("struct") && !p.contains("Tool"), "{p}");
    }
}
