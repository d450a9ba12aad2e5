//! Streamable HTTP (`http://ADDR/mcp`): rmcp's tower service
//! (`StreamableHttpService`, SSE and `Mcp-Session-Id`, one [`PtcServer`]
//! per session, idle sessions closed after `idle`) served by hyper, behind
//! checks of ours:
//!
//! * the path is `/mcp` (else 404);
//! * a browser `Origin` other than localhost, 127.0.0.1 or [::1] (any
//!   scheme and port) is refused with 403 unless `--allow-origin` names it
//!   (the transport spec's DNS-rebinding rule);
//! * with a token, every request carries `Authorization: Bearer TOKEN`,
//!   the scheme in any case (else 401);
//! * an `initialize` past `--max-sessions` live sessions is refused with
//!   503 and a JSON-RPC error ([`BUSY`]) naming the limit;
//! * a request whose response stream the client drops before its end (it
//!   disconnected) is cancelled in its session as if the client had sent
//!   `notifications/cancelled`: a running turn is interrupted;
//! * at most [`MAX_CONNECTIONS`] connections are open at once; the next
//!   waits to be accepted until one closes.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value as Json;

use super::handler::too_many_sessions;
use super::{malformed, PtcServer, Slot, Template, BUSY};

tokio::task_local! {
    /// The session place reserved for the `initialize` being served: the
    /// session factory, called inside rmcp's handling of it, takes it.
    static RESERVED: RefCell<Option<Slot>>;
}

type Service = TowerToHyperService<StreamableHttpService<PtcServer, LocalSessionManager>>;

const SESSION_ID: &str = "mcp-session-id";

/// Most HTTP connections open at once (each costs a task and buffers).
const MAX_CONNECTIONS: usize = 1024;
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// Serves until the process ends.
pub async fn serve(
    template: Arc<Template>,
    addr: SocketAddr,
    token: Option<String>,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(template.options().idle);
    let mut config = StreamableHttpServerConfig::default();
    if !addr.ip().is_loopback() {
        // Served beyond loopback on purpose: any Host header (DNS
        // rebinding only threatens servers on loopback).
        config = config.disable_allowed_hosts();
    }
    let factory_template = template.clone();
    let service = StreamableHttpService::new(
        move || {
            let t = &factory_template;
            let slot = RESERVED
                .try_with(|s| s.borrow_mut().take())
                .ok()
                .flatten()
                .or_else(|| t.session_slot());
            match slot {
                Some(slot) => PtcServer::with_slot(t.clone(), slot).map_err(std::io::Error::other),
                None => Err(std::io::Error::other(too_many_sessions(t))),
            }
        },
        Arc::new(manager),
        config,
    );
    let service: Service = TowerToHyperService::new(service);
    let token: Option<Arc<str>> = token.map(Into::into);
    ready(bound);
    let connections = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        // Past MAX_CONNECTIONS open ones, the next waits in the kernel's
        // backlog until one closes.
        let Ok(open) = connections.clone().acquire_owned().await else {
            return Err("the connection limit closed".into());
        };
        let (stream, _) = match listener.accept().await {
            Ok(conn) => conn,
            Err(e) => {
                eprintln!("ptc mcp: accept failed: {e}");
                // Out of file descriptors, say: let some close first.
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = service.clone();
        let token = token.clone();
        let template = template.clone();
        tokio::spawn(async move {
            let _open = open;
            let handler = hyper::service::service_fn(move |req: Request<Incoming>| {
                let service = service.clone();
                let token = token.clone();
                let template = template.clone();
                async move {
                    let origins = &template.options().allowed_origins;
                    if let Some(refusal) = refuse(&req, token.as_deref(), origins) {
                        return Ok::<_, std::convert::Infallible>(refusal);
                    }
                    let (req, bytes) = match checked(req).await {
                        Ok(checked) => checked,
                        Err(refusal) => return Ok(refusal),
                    };
                    Ok(serve_one(&service, &template, req, &bytes).await)
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

/// What a POST's JSON-RPC message is, as far as these checks care.
struct Message {
    id: Option<Json>,
    method: Option<String>,
}

fn message_of(req: &Request<Full<Bytes>>, bytes: &Bytes) -> Option<Message> {
    if req.method() != hyper::Method::POST {
        return None;
    }
    let v: Json = serde_json::from_slice(bytes).ok()?;
    Some(Message {
        id: v.get("id").cloned(),
        method: v.get("method").and_then(Json::as_str).map(str::to_string),
    })
}

/// Serves one checked request: a new session only within the limit, and a
/// request's stream armed to cancel it when dropped early.
async fn serve_one(
    service: &Service,
    template: &Template,
    req: Request<Full<Bytes>>,
    bytes: &Bytes,
) -> Response<Body> {
    let message = message_of(&req, bytes);
    let session = req.headers().get(SESSION_ID).cloned();
    let call = |req| hyper::service::Service::call(service, req);
    match (&message, &session) {
        (
            Some(Message {
                method: Some(m),
                id,
                ..
            }),
            None,
        ) if m == "initialize" => {
            let Some(slot) = template.session_slot() else {
                let err = serde_json::json!({"jsonrpc": "2.0", "id": id.clone().unwrap_or(Json::Null),
                    "error": {"code": BUSY, "message": too_many_sessions(template)}});
                let mut r = json_response(StatusCode::SERVICE_UNAVAILABLE, &err);
                r.headers_mut()
                    .insert(hyper::header::RETRY_AFTER, HeaderValue::from_static("5"));
                return r;
            };
            RESERVED
                .scope(RefCell::new(Some(slot)), call(req))
                .await
                .unwrap_or_else(|never| match never {})
        }
        (
            Some(Message {
                method: Some(_),
                id: Some(id),
                ..
            }),
            Some(sid),
        ) => {
            let cancel = Cancel {
                service: service.clone(),
                session: sid.clone(),
                protocol: req.headers().get(PROTOCOL_VERSION).cloned(),
                host: req.headers().get(hyper::header::HOST).cloned(),
                id: id.clone(),
            };
            let resp = call(req).await.unwrap_or_else(|never| match never {});
            if resp.status() != StatusCode::OK {
                return resp;
            }
            let (parts, body) = resp.into_parts();
            let body = CancelOnDrop {
                inner: body,
                cancel: Some(cancel),
            };
            Response::from_parts(parts, BodyExt::boxed(body))
        }
        _ if req.method() == hyper::Method::DELETE => {
            // rmcp answers a session's end 202; the Python SDK (and so
            // LangChain) warns on every close unless it is 200 or 204.
            let mut resp = call(req).await.unwrap_or_else(|never| match never {});
            if resp.status() == StatusCode::ACCEPTED {
                *resp.status_mut() = StatusCode::NO_CONTENT;
                *resp.body_mut() = Full::new(Bytes::new()).boxed();
                resp.headers_mut().remove(hyper::header::CONTENT_LENGTH);
                resp.headers_mut().remove(hyper::header::CONTENT_TYPE);
            }
            resp
        }
        _ => call(req).await.unwrap_or_else(|never| match never {}),
    }
}

/// How to cancel a request in its session.
struct Cancel {
    service: Service,
    session: HeaderValue,
    protocol: Option<HeaderValue>,
    host: Option<HeaderValue>,
    id: Json,
}

impl Cancel {
    /// Sends the session `notifications/cancelled` for the request.
    fn send(self) {
        let body = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": self.id, "reason": "the client disconnected before the answer"}});
        let mut req = Request::new(Full::new(Bytes::from(body.to_string())));
        *req.method_mut() = hyper::Method::POST;
        *req.uri_mut() = hyper::Uri::from_static("/mcp");
        let h = req.headers_mut();
        h.insert(
            hyper::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        h.insert(
            hyper::header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        h.insert(HeaderName::from_static(SESSION_ID), self.session);
        if let Some(p) = self.protocol {
            h.insert(HeaderName::from_static(PROTOCOL_VERSION), p);
        }
        if let Some(host) = self.host {
            h.insert(hyper::header::HOST, host);
        }
        let service = self.service;
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let _ = hyper::service::Service::call(&service, req).await;
            });
        }
    }
}

/// A response body that cancels its request when dropped before its end.
struct CancelOnDrop {
    inner: Body,
    cancel: Option<Cancel>,
}

impl hyper::body::Body for CancelOnDrop {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            self.cancel = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(c) = self.cancel.take() {
            c.send();
        }
    }
}

/// Most bytes of a request body (rmcp's own default).
const MAX_BODY: usize = 4 * 1024 * 1024;

/// A POST with its body read and checked ([`malformed::check`]): a
/// JSON-RPC error (HTTP 400, or 413 when too large) for a malformed one.
async fn checked(req: Request<Incoming>) -> Result<(Request<Full<Bytes>>, Bytes), Response<Body>> {
    let (parts, body) = req.into_parts();
    let bytes = match http_body_util::Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            let too_large = e
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some();
            let (status, message) = if too_large {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body is over {MAX_BODY} bytes"),
                )
            } else {
                (
                    StatusCode::BAD_REQUEST,
                    format!("cannot read the request body: {e}"),
                )
            };
            let err = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": message}});
            return Err(json_response(status, &err));
        }
    };
    if parts.method == hyper::Method::POST {
        if let Some(err) = malformed::check(&bytes) {
            return Err(json_response(StatusCode::BAD_REQUEST, &err));
        }
    }
    Ok((Request::from_parts(parts, Full::new(bytes.clone())), bytes))
}

fn json_response(status: StatusCode, body: &serde_json::Value) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

type Body = http_body_util::combinators::BoxBody<Bytes, std::convert::Infallible>;

/// A response refusing `req` (wrong path, a browser origin not allowed,
/// missing or wrong token).
fn refuse<B>(req: &Request<B>, token: Option<&str>, origins: &[String]) -> Option<Response<Body>> {
    if req.uri().path() != "/mcp" {
        return Some(plain(
            StatusCode::NOT_FOUND,
            "not found: the MCP endpoint is /mcp".into(),
        ));
    }
    if let Some(origin) = req.headers().get(hyper::header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        if !origin_allowed(&origin, origins) {
            return Some(plain(
                StatusCode::FORBIDDEN,
                format!(
                    "forbidden: requests from the browser origin {origin:?} are refused (only localhost, 127.0.0.1 and [::1] are allowed); \
                     to serve that web page, start the server with --allow-origin {origin}"
                ),
            ));
        }
    }
    let expected = token?;
    let given = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    match given {
        Some(t) if same(t.as_bytes(), expected.as_bytes()) => None,
        _ => {
            let mut r = plain(
                StatusCode::UNAUTHORIZED,
                "unauthorized: send the header Authorization: Bearer TOKEN".into(),
            );
            r.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer"),
            );
            Some(r)
        }
    }
}

/// The token of an `Authorization` value of the Bearer scheme (whose name
/// is case-insensitive, RFC 9110 §11.1).
fn bearer(value: &str) -> Option<&str> {
    let value = value.trim();
    let (scheme, rest) = value.split_once([' ', '\t'])?;
    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
}

/// Whether a browser `Origin` may call: localhost, 127.0.0.1 or [::1]
/// over any scheme and port, or one named by `--allow-origin` (`*`: all).
fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let origin = origin.trim();
    if allowed
        .iter()
        .any(|a| a == "*" || a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return false;
    }
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, port)) if port.is_empty() || port.starts_with(':') => {
                return h == "::1" && port_ok(port)
            }
            _ => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((h, port)) => {
                if !port_ok(&format!(":{port}")) {
                    return false;
                }
                h
            }
            None => rest,
        }
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1"
}

/// `""` or `:PORT` with a number for PORT.
fn port_ok(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Equality that takes the same time wherever the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn plain(status: StatusCode, text: String) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(text)).boxed());
    *r.status_mut() = status;
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer abc"), Some("abc"));
        assert_eq!(bearer("BEARER  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearerabc"), None);
    }

    #[test]
    fn only_local_origins_pass_unless_allowed() {
        for ok in [
            "http://localhost",
            "http://localhost:6274",
            "https://127.0.0.1:8443",
            "http://[::1]:3000",
            "HTTP://LOCALHOST",
        ] {
            assert!(origin_allowed(ok, &[]), "{ok}");
        }
        for bad in [
            "https://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "null",
            "http://[::2]",
            "file://localhost",
            "http://localhost:abc",
        ] {
            assert!(!origin_allowed(bad, &[]), "{bad}");
        }
        let allowed = vec!["https://app.example.com".to_string()];
        assert!(origin_allowed("https://app.example.com", &allowed));
        assert!(!origin_allowed("https://other.example.com", &allowed));
        assert!(origin_allowed("https://x.example", &["*".to_string()]));
    }
}
