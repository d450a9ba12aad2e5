//! Streamable HTTP (`http://ADDR/mcp`): rmcp's tower service
//! (`StreamableHttpService`, SSE and `Mcp-Session-Id`, one [`PtcServer`]
//! per session, idle sessions closed after `idle`) served by hyper, behind
//! two checks of ours: the path is `/mcp`, and with a token every request
//! carries `Authorization: Bearer TOKEN` (else 401).

use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::{malformed, PtcServer, Template};

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
        move || PtcServer::new(factory_template.clone()).map_err(std::io::Error::other),
        Arc::new(manager),
        config,
    );
    let service = TowerToHyperService::new(service);
    let token: Option<Arc<str>> = token.map(Into::into);
    ready(bound);
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(conn) => conn,
            Err(e) => {
                eprintln!("ptc mcp: accept failed: {e}");
                continue;
            }
        };
        let service = service.clone();
        let token = token.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |req: Request<Incoming>| {
                let service = service.clone();
                let token = token.clone();
                async move {
                    if let Some(refusal) = refuse(&req, token.as_deref()) {
                        return Ok::<_, std::convert::Infallible>(refusal);
                    }
                    let req = match checked(req).await {
                        Ok(req) => req,
                        Err(refusal) => return Ok(refusal),
                    };
                    let resp = hyper::service::Service::call(&service, req)
                        .await
                        .unwrap_or_else(|never| match never {});
                    Ok(resp)
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

/// Most bytes of a request body (rmcp's own default).
const MAX_BODY: usize = 4 * 1024 * 1024;

/// A POST with its body read and checked ([`malformed::check`]): a
/// JSON-RPC error (HTTP 400, or 413 when too large) for a malformed one.
async fn checked(req: Request<Incoming>) -> Result<Request<Full<Bytes>>, Response<Body>> {
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
    Ok(Request::from_parts(parts, Full::new(bytes)))
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

/// A response refusing `req` (wrong path, missing or wrong token).
fn refuse<B>(req: &Request<B>, token: Option<&str>) -> Option<Response<Body>> {
    if req.uri().path() != "/mcp" {
        return Some(plain(
            StatusCode::NOT_FOUND,
            "not found: the MCP endpoint is /mcp",
        ));
    }
    let expected = token?;
    let given = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match given {
        Some(t) if same(t.as_bytes(), expected.as_bytes()) => None,
        _ => {
            let mut r = plain(
                StatusCode::UNAUTHORIZED,
                "unauthorized: send the header Authorization: Bearer TOKEN",
            );
            r.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                hyper::header::HeaderValue::from_static("Bearer"),
            );
            Some(r)
        }
    }
}

/// Equality that takes the same time wherever the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *r.status_mut() = status;
    r
}
