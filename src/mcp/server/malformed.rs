//! Malformed messages get a JSON-RPC error, and the server keeps serving.
//! rmcp drops a line that is not JSON and answers a message it cannot
//! read without its `id`, or not at all: every message is checked here
//! first, over stdio ([`filter_stdio`]) and HTTP (`http.rs`).
//!
//! Not JSON: `-32700` (parse error). JSON that is not an MCP message
//! (wrong `jsonrpc`, `method` not a string, `params` of the wrong shape,
//! a batch): `-32600` (invalid request), with the message's `id` when it
//! has one, and serde's reason.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{json, Value as Json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The error response to `text`, or `None` when it is a message rmcp can
/// read.
pub fn check(text: &[u8]) -> Option<Json> {
    let value: Json = match serde_json::from_slice(text) {
        Ok(v) => v,
        Err(e) => {
            return Some(error(
                Json::Null,
                -32700,
                format!("Parse error: the message is not JSON ({e}); send one JSON-RPC 2.0 object per message"),
            ))
        }
    };
    if value.is_array() {
        return Some(error(
            Json::Null,
            -32600,
            "Invalid request: JSON-RPC batches are not supported by MCP; send one message at a time".into(),
        ));
    }
    let id = value.get("id").cloned().unwrap_or(Json::Null);
    if let Some(why) = envelope_problem(&value) {
        return Some(error(id, -32600, format!("Invalid request: {why}")));
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(_) => None,
        Err(e) => Some(error(
            id,
            -32600,
            format!("Invalid request: not an MCP client message ({e}); expected {{\"jsonrpc\": \"2.0\", \"id\": N, \"method\": \"tools/call\", \"params\": {{...}}}}"),
        )),
    }
}

/// What is wrong with the JSON-RPC 2.0 envelope of `v`, if anything.
fn envelope_problem(v: &Json) -> Option<String> {
    let Some(obj) = v.as_object() else {
        return Some("a message must be a JSON object".into());
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return Some("\"jsonrpc\" must be \"2.0\"".into());
    }
    if let Some(id) = obj.get("id") {
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Some(format!("\"id\" must be a string or an integer, got {id}"));
        }
    }
    match obj.get("method") {
        Some(Json::String(_)) => match obj.get("params") {
            None | Some(Json::Object(_)) => None,
            Some(p) => Some(format!("\"params\" must be an object, got {p}")),
        },
        Some(m) => Some(format!("\"method\" must be a string, got {m}")),
        None if obj.contains_key("id")
            && (obj.contains_key("result") || obj.contains_key("error")) =>
        {
            None
        }
        None => Some("a request needs a \"method\" (e.g. \"tools/call\")".into()),
    }
}

fn error(id: Json, code: i64, message: String) -> Json {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Most bytes of one message over stdio (as of an HTTP request body).
pub const MAX_MESSAGE: usize = 4 * 1024 * 1024;

/// The next line of `input` without its newline (`None` at the end), or
/// `Err(n)` for a line longer than `max` bytes (read past, not kept: `n`
/// is how many bytes it had when dropped).
async fn bounded_line(
    input: &mut (impl AsyncBufRead + Unpin),
    max: usize,
) -> std::io::Result<Option<Result<String, usize>>> {
    let mut line = Vec::new();
    let mut dropped = 0usize;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            if line.is_empty() && dropped == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if dropped > 0 || line.len() + chunk.len() > max {
            dropped = dropped.max(line.len()) + chunk.len();
            line = Vec::new();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if dropped > 0 {
        return Ok(Some(Err(dropped)));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
}

/// Copies newline-delimited messages from `input` to `to_server`,
/// answering malformed ones on `output` itself; the server's own lines
/// (`from_server`) go to `output` too, one whole line at a time.
pub async fn filter_stdio(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
    mut to_server: impl AsyncWrite + Unpin + Send + 'static,
    from_server: impl AsyncRead + Unpin + Send + 'static,
) {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(64);
    let errors = tx.clone();
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        loop {
            let line = match bounded_line(&mut input, MAX_MESSAGE).await {
                Ok(Some(Ok(line))) => line,
                Ok(Some(Err(len))) => {
                    let err = error(
                        Json::Null,
                        -32600,
                        format!("Invalid request: a message of over {len} bytes, more than the {MAX_MESSAGE} a message may have; send a shorter program (data belongs in the session file's data/)"),
                    );
                    if errors.send(err.to_string()).await.is_err() {
                        break;
                    }
                    continue;
                }
                Ok(None) | Err(_) => break,
            };
            if line.trim().is_empty() {
                continue;
            }
            match check(line.as_bytes()) {
                Some(err) => {
                    if errors.send(err.to_string()).await.is_err() {
                        break;
                    }
                }
                None => {
                    let sent = async {
                        to_server.write_all(line.as_bytes()).await?;
                        to_server.write_all(b"\n").await?;
                        to_server.flush().await
                    };
                    if sent.await.is_err() {
                        break;
                    }
                }
            }
        }
        // Dropping `to_server` tells the server the client is gone.
    });
    let forward = tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if tx.send(line).await.is_err() {
                break;
            }
        }
    });
    let mut output = output;
    while let Some(line) = rx.recv().await {
        let written = async {
            output.write_all(line.as_bytes()).await?;
            output.write_all(b"\n").await?;
            output.flush().await
        };
        if written.await.is_err() {
            break;
        }
    }
    reader.abort();
    forward.abort();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_messages_get_errors_with_their_id() {
        assert_eq!(check(b"{not json").unwrap()["error"]["code"], -32700);
        let e = check(br#"{"jsonrpc": "2.0", "id": 7, "method": 5}"#).unwrap();
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(7), json!(-32600))
        );
        assert_eq!(check(b"[1]").unwrap()["error"]["code"], -32600);
        let e = check(br#"{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": "x"}"#);
        assert!(e.unwrap()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("params"));
        assert!(check(br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#).is_none());
    }

    #[test]
    fn a_line_past_the_bound_is_dropped_and_the_next_read() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let text = format!("{}\nshort\nlast", "x".repeat(100));
        let mut input = BufReader::with_capacity(16, text.as_bytes());
        rt.block_on(async {
            assert_eq!(bounded_line(&mut input, 50).await.unwrap(), Some(Err(100)));
            assert_eq!(
                bounded_line(&mut input, 50).await.unwrap(),
                Some(Ok("short".into()))
            );
            assert_eq!(
                bounded_line(&mut input, 50).await.unwrap(),
                Some(Ok("last".into()))
            );
            assert_eq!(bounded_line(&mut input, 50).await.unwrap(), None);
        });
    }
}
