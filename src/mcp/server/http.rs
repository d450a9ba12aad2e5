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

use super::{PtcServer, Template};

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
