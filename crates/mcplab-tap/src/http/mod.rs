//! The HTTP tap (`mcplab tap --url URL --listen ADDR`): a reverse proxy on loopback for a
//! host that connects by URL. Every request goes to the same path and query on the server's
//! origin with its method, headers (session, protocol, `Last-Event-ID`, `Authorization`…)
//! and body; the answer comes back with its status and headers and its body streamed chunk by
//! chunk as it arrives, so streamable HTTP (both eras), standalone and resumed SSE streams and
//! the legacy HTTP+SSE transport work as without the tap. Only hop-by-hop headers are dropped,
//! and `Accept-Encoding`, so that what the tap records is readable. Redirects are passed back
//! to the host. Recording (`record.rs`) sees copies: a failed recording never fails a request.

mod record;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures::StreamExt;
use http::{HeaderMap, HeaderName, StatusCode};
use tokio_util::sync::CancellationToken;
use url::Url;

use crate::TapError;
use crate::recorder::Recorder;
use record::{Exchange, Tee};

/// How long connecting to the server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Headers that belong to one connection, never passed on (RFC 9110 §7.6.1), plus `Host`
/// (the server's own is set) and `Accept-Encoding` (bodies stay readable for the recording).
const NOT_FORWARDED: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "accept-encoding",
];

/// What the HTTP tap needs.
#[derive(Debug, Clone)]
pub struct HttpTapConfig {
    /// The server's MCP endpoint.
    pub upstream: Url,
    /// The longest request body taken, and the longest frame recorded whole.
    pub max_body: usize,
    pub max_frame: usize,
}

struct Proxy {
    config: HttpTapConfig,
    client: reqwest::Client,
    recorder: Recorder,
}

/// Binds the listener (loopback only: the tap passes the host's credentials on).
pub async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, TapError> {
    let fail = |source| TapError::Listen {
        addr: addr.to_string(),
        source,
    };
    if !addr.ip().is_loopback() {
        return Err(fail(std::io::Error::other(
            "the tap listens on loopback addresses only (127.0.0.1 or [::1])",
        )));
    }
    tokio::net::TcpListener::bind(addr).await.map_err(fail)
}

/// The URL to give the host: the server's path and query on the tap's address.
pub fn host_url(listening: SocketAddr, upstream: &Url) -> String {
    let query = upstream
        .query()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    format!("http://{listening}{}{query}", upstream.path())
}

/// Serves until `cancel` fires.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: HttpTapConfig,
    recorder: Recorder,
    cancel: CancellationToken,
) -> Result<(), TapError> {
    let client = mcplab_net::tls::client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(CONNECT_TIMEOUT)
        .build()
        .map_err(|e| TapError::Listen {
            addr: config.upstream.to_string(),
            source: std::io::Error::other(e),
        })?;
    let proxy = Arc::new(Proxy {
        config,
        client,
        recorder,
    });
    let app = axum::Router::new().fallback(handle).with_state(proxy);
    let addr = listener.local_addr().map(|a| a.to_string());
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { cancel.cancelled().await })
        .await
        .map_err(|source| TapError::Listen {
            addr: addr.unwrap_or_default(),
            source,
        })
}

async fn handle(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, proxy.config.max_body).await {
        Ok(b) => b,
        Err(e) => {
            let why = format!("mcplab tap: the request body could not be read whole: {e}");
            return (StatusCode::PAYLOAD_TOO_LARGE, why).into_response();
        }
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let url = match proxy.config.upstream.join(path) {
        Ok(u) => u,
        Err(e) => return (StatusCode::BAD_REQUEST, format!("mcplab tap: {e}")).into_response(),
    };
    let mut exchange = Exchange::start(&parts.method, &url, &parts.headers, &body);
    exchange.sending(&proxy.recorder);
    let clock = Instant::now();
    let sent = proxy
        .client
        .request(parts.method.clone(), url.clone())
        .headers(forwarded(&parts.headers))
        .body(body.clone())
        .send()
        .await;
    let elapsed = clock.elapsed();
    match sent {
        Ok(response) => answer(&proxy, exchange, response, elapsed),
        Err(e) => {
            let why = mcplab_net::tls::describe_error(&e);
            exchange.failed(&proxy.recorder, &why, elapsed);
            let text = format!("mcplab tap: the server at {url} did not answer: {why}");
            (StatusCode::BAD_GATEWAY, text).into_response()
        }
    }
}

/// The server's answer, passed back with its body streamed through the recording's tee.
fn answer(
    proxy: &Proxy,
    exchange: Exchange,
    response: reqwest::Response,
    elapsed: Duration,
) -> Response {
    let status = response.status();
    let headers = forwarded(response.headers());
    let mut tee: Tee =
        exchange.answered(&proxy.recorder, &response, elapsed, proxy.config.max_frame);
    // Each chunk goes on to the host as it came; the tee sees it on the way and finishes when
    // the stream ends or is dropped (the host went away).
    let stream = response
        .bytes_stream()
        .map(move |chunk: reqwest::Result<Bytes>| {
            match &chunk {
                Ok(bytes) => tee.feed(bytes),
                Err(_) => tee.finish(),
            }
            chunk
        });
    let mut out = Response::new(Body::from_stream(stream));
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    out
}

/// `headers` without the ones that are not passed on.
fn forwarded(headers: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        if !NOT_FORWARDED.contains(&name.as_str()) {
            out.append(HeaderName::clone(name), value.clone());
        }
    }
    out
}
