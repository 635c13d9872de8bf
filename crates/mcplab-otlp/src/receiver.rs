//! A loopback OTLP/HTTP receiver for tests: decodes each `POST /v1/traces` (protobuf) into
//! the spans it carried, flattened with their attributes as JSON-ish values. Real HTTP, real
//! protobuf: what a collector would see.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use parking_lot::Mutex;
use prost::Message;
use tokio::sync::Notify;

/// One received span.
#[derive(Debug, Clone)]
pub struct ReceivedSpan {
    pub name: String,
    pub trace_id: Vec<u8>,
    pub span_id: Vec<u8>,
    pub parent_span_id: Vec<u8>,
    /// Attribute values as text (arrays joined with `,`).
    pub attributes: BTreeMap<String, String>,
    /// `0` unset, `1` ok, `2` error.
    pub status_code: i32,
    pub status_message: String,
    pub start_ns: u64,
    pub end_ns: u64,
    /// The resource's `service.name`.
    pub service: String,
}

#[derive(Default)]
struct Received {
    spans: Mutex<Vec<ReceivedSpan>>,
    content_types: Mutex<Vec<String>>,
    changed: Notify,
}

/// A running receiver; stops when dropped.
pub struct Receiver {
    pub addr: SocketAddr,
    received: Arc<Received>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Listens on 127.0.0.1 on a free port.
    pub async fn start() -> Receiver {
        let received = Arc::new(Received::default());
        let app = axum::Router::new()
            .route("/v1/traces", axum::routing::post(accept))
            .with_state(received.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Receiver {
            addr,
            received,
            task,
        }
    }

    /// The base URL to give `--otlp`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every span so far.
    pub fn spans(&self) -> Vec<ReceivedSpan> {
        self.received.spans.lock().clone()
    }

    /// The request content types seen.
    pub fn content_types(&self) -> Vec<String> {
        self.received.content_types.lock().clone()
    }

    /// Waits until at least `n` spans arrived, or `within` passed; the spans then.
    pub async fn wait_for(&self, n: usize, within: std::time::Duration) -> Vec<ReceivedSpan> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let changed = self.received.changed.notified();
            let spans = self.spans();
            if spans.len() >= n || tokio::time::Instant::now() >= deadline {
                return spans;
            }
            let _ = tokio::time::timeout_at(deadline, changed).await;
        }
    }
}

async fn accept(
    State(received): State<Arc<Received>>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> (StatusCode, Vec<u8>) {
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    received.content_types.lock().push(content_type);
    let Ok(request) = ExportTraceServiceRequest::decode(body) else {
        return (StatusCode::BAD_REQUEST, Vec::new());
    };
    let mut out = Vec::new();
    for rs in request.resource_spans {
        let service = rs
            .resource
            .iter()
            .flat_map(|r| r.attributes.iter())
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| kv.value.as_ref()?.value.as_ref().map(text))
            .unwrap_or_default();
        for ss in rs.scope_spans {
            for s in ss.spans {
                let attributes = s
                    .attributes
                    .iter()
                    .filter_map(|kv| {
                        Some((kv.key.clone(), text(kv.value.as_ref()?.value.as_ref()?)))
                    })
                    .collect();
                let status = s.status.unwrap_or_default();
                out.push(ReceivedSpan {
                    name: s.name,
                    trace_id: s.trace_id,
                    span_id: s.span_id,
                    parent_span_id: s.parent_span_id,
                    attributes,
                    status_code: status.code,
                    status_message: status.message,
                    start_ns: s.start_time_unix_nano,
                    end_ns: s.end_time_unix_nano,
                    service: service.clone(),
                });
            }
        }
    }
    received.spans.lock().extend(out);
    received.changed.notify_waiters();
    // An empty ExportTraceServiceResponse.
    (StatusCode::OK, Vec::new())
}

fn text(value: &Any) -> String {
    match value {
        Any::StringValue(s) => s.clone(),
        Any::BoolValue(b) => b.to_string(),
        Any::IntValue(i) => i.to_string(),
        Any::DoubleValue(d) => d.to_string(),
        Any::ArrayValue(a) => a
            .values
            .iter()
            .filter_map(|v| v.value.as_ref().map(text))
            .collect::<Vec<_>>()
            .join(","),
        other => format!("{other:?}"),
    }
}
