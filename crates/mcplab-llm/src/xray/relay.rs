//! The capture point: a loopback relay that lives for one model step. The provider library
//! (genai) is pointed at `http://127.0.0.1:<port>/<secret>/` instead of the provider; the relay
//! records each request exactly as the library wrote it, sends it on to the real endpoint with
//! the shared HTTP client, and streams the response back while recording every chunk before
//! passing it on. genai takes only a finished `reqwest::Client` (no middleware, no connector
//! hook that sees plaintext), so this is the one place that sees the bytes both ways.
//!
//! It must not change what is sent: the body is forwarded byte for byte, headers as they came
//! except the hop-by-hop ones and `host` (which the HTTP client sets to the provider's, and is
//! recorded as such); a `user:password@` in the base URL goes out as Basic authorization (the
//! HTTP client's doing) and is recorded masked like any key. It answers only requests under its random path on its own
//! `Host`, and stops when the step's stream is dropped.

use std::net::Ipv4Addr;
use std::sync::Arc;

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::{BodyExt, Full, Limited, StreamBody, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::{AbortHandle, JoinSet};

use super::capture::{Capture, ExchangeId};
use crate::genai_errors::describe;

/// The largest request body the relay takes from the provider library (bodies with images).
const MAX_REQUEST_BODY: usize = 64 << 20;

/// Headers that belong to one connection, not to the request or response.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

type Body = BoxBody<Bytes, Failure>;

/// A running relay; dropping it stops it and every connection it serves.
pub struct Relay {
    endpoint: String,
    task: AbortHandle,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Target {
    /// The provider endpoint genai would have used (`…/v1/`).
    upstream: String,
    /// `/<secret>/`.
    prefix: String,
    /// `127.0.0.1:<port>`.
    host: String,
    http: reqwest::Client,
    capture: Capture,
}

impl Relay {
    /// Starts a relay in front of `upstream` (an endpoint ending in `/`), sending through
    /// `http` and recording into `capture`.
    pub async fn start(
        upstream: &str,
        http: reqwest::Client,
        capture: Capture,
    ) -> std::io::Result<Relay> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let port = listener.local_addr()?.port();
        let secret = secret()?;
        let target = Arc::new(Target {
            upstream: upstream.to_owned(),
            prefix: format!("/{secret}/"),
            host: format!("127.0.0.1:{port}"),
            http,
            capture,
        });
        let task = tokio::spawn(serve(listener, target)).abort_handle();
        Ok(Relay {
            endpoint: format!("http://127.0.0.1:{port}/{secret}/"),
            task,
        })
    }

    /// The endpoint to hand the provider library instead of the provider's.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }
}

/// Accepts connections until aborted; the connections end with it (the set is dropped).
async fn serve(listener: TcpListener, target: Arc<Target>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((tcp, _)) = accepted else { continue };
                let _ = tcp.set_nodelay(true);
                let target = target.clone();
                connections.spawn(async move {
                    // An error closes the connection without an answer: the provider library
                    // then sees what it would have seen (a connection that failed).
                    let service = hyper::service::service_fn(move |req| {
                        relay(target.clone(), req)
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// 16 random bytes as hex: the path only the provider library is told.
fn secret() -> std::io::Result<String> {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 16];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| std::io::Error::other("no system random source for the x-ray relay"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let body = Full::new(Bytes::from(text.to_owned()))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// One request: recorded, forwarded, and its response streamed back (and recorded). An
/// `Err` (the provider could not be reached) drops the connection.
async fn relay(target: Arc<Target>, req: Request<Incoming>) -> Result<Response<Body>, Failure> {
    let host_ok = req
        .headers()
        .get(hyper::header::HOST)
        .and_then(|h| h.to_str().ok())
        == Some(target.host.as_str());
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let Some(rest) = path.strip_prefix(&target.prefix).filter(|_| host_ok) else {
        return Ok(plain(StatusCode::NOT_FOUND, "not found"));
    };
    let Ok(url) = url::Url::parse(&format!("{}{rest}", target.upstream)) else {
        return Ok(plain(
            StatusCode::BAD_GATEWAY,
            "the provider URL is not valid",
        ));
    };
    let (parts, body) = req.into_parts();
    let body = match Limited::new(body, MAX_REQUEST_BODY).collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return Ok(plain(StatusCode::PAYLOAD_TOO_LARGE, &e.to_string())),
    };
    let mut forwarded = reqwest::header::HeaderMap::new();
    let mut recorded = Vec::new();
    for (name, value) in &parts.headers {
        if HOP_BY_HOP.contains(&name.as_str()) {
            continue;
        }
        let shown = String::from_utf8_lossy(value.as_bytes()).into_owned();
        if name == hyper::header::HOST {
            // The HTTP client sets the provider's own host (without any `user:password@`);
            // that is what it receives.
            recorded.push((name.to_string(), host_of(&url)));
            continue;
        }
        recorded.push((name.to_string(), shown));
        forwarded.append(name.clone(), value.clone());
    }
    let request = target
        .http
        .request(parts.method.clone(), url.clone())
        .headers(forwarded.clone())
        .body(body.clone())
        .build();
    if let Ok(request) = &request {
        // A `user:password@` in the base URL becomes Basic authorization, unless the provider
        // library sent its own.
        for (name, value) in request.headers() {
            if !forwarded.contains_key(name) {
                let shown = String::from_utf8_lossy(value.as_bytes()).into_owned();
                recorded.push((name.to_string(), shown));
            }
        }
    }
    let id = target
        .capture
        .begin(parts.method.as_str(), &url, &recorded, &body);
    let sent = match request {
        Ok(request) => target.http.execute(request).await,
        Err(e) => Err(e),
    };
    match sent {
        Ok(response) => Ok(respond(target.capture.clone(), id, response)),
        Err(e) => {
            target.capture.fail(id, describe(&e));
            Err(Box::new(e) as Failure)
        }
    }
}

/// `host` or `host:port` of `url`, as the `Host` header the HTTP client sends.
fn host_of(url: &url::Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

/// The provider's response passed back, each chunk recorded before it goes on.
fn respond(capture: Capture, id: ExchangeId, response: reqwest::Response) -> Response<Body> {
    let status = response.status();
    let mut headers = Vec::new();
    let mut out = Response::builder().status(status.as_u16());
    for (name, value) in response.headers() {
        headers.push((
            name.to_string(),
            String::from_utf8_lossy(value.as_bytes()).into_owned(),
        ));
        // The HTTP client already decoded the body and frames it anew.
        let framing = matches!(name.as_str(), "content-length" | "content-encoding");
        if !framing && !HOP_BY_HOP.contains(&name.as_str()) {
            out = out.header(name, value);
        }
    }
    capture.response(id, status.as_u16(), &headers);
    let chunks = response.bytes_stream().map(move |chunk| match chunk {
        Ok(bytes) => {
            capture.chunk(id, &bytes);
            Ok(Frame::data(bytes))
        }
        Err(e) => {
            capture.fail(id, format!("the response broke off: {}", describe(&e)));
            Err(Box::new(e) as Failure)
        }
    });
    out.body(BodyExt::boxed(StreamBody::new(chunks)))
        .unwrap_or_else(|e| plain(StatusCode::BAD_GATEWAY, &e.to_string()))
}
