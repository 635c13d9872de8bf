//! The export queue: spans go in without waiting (a byte budget decides, past it they are
//! dropped and counted), one task on the caller's tokio runtime sends them in batches through
//! `opentelemetry-otlp`'s HTTP/protobuf exporter, each send bounded by a timeout. A failed send
//! is counted, its first reason kept and told once through the caller's `warn`; nothing here
//! is ever fatal to a turn or a run. `flush` waits (bounded) for what is queued.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SpanData, SpanExporter};
use parking_lot::Mutex;
use tokio::sync::{mpsc, oneshot};

use crate::spans::weight;

/// Bytes of spans waiting to be sent, at most (see [`crate::spans::weight`]).
pub const QUEUE_BYTES: usize = 4 * 1024 * 1024;
/// Spans per request, at most.
const BATCH_SPANS: usize = 512;
/// How long spans wait for more before a batch goes.
const BATCH_DELAY: Duration = Duration::from_secs(1);
/// One send, retries included.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an exporter could not be made.
#[derive(Debug, thiserror::Error)]
pub enum OtlpError {
    #[error(
        "{0:?} is not an http(s) URL: give the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318"
    )]
    BadUrl(String),
    #[error("could not set up the OTLP exporter for {url}: {reason}")]
    Build { url: String, reason: String },
}

/// What the exporter did so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportReport {
    pub sent_spans: u64,
    /// Spans left out because the queue was full.
    pub dropped_spans: u64,
    pub failed_batches: u64,
    /// Why the first failed batch failed.
    pub first_error: Option<String>,
}

impl ExportReport {
    /// One line for a person when something went wrong, `None` when all went out.
    pub fn problem(&self, endpoint: &str) -> Option<String> {
        if self.failed_batches == 0 && self.dropped_spans == 0 {
            return None;
        }
        let mut line = format!("OTLP export to {endpoint}:");
        if self.failed_batches > 0 {
            line.push_str(&format!(
                " {} batch(es) could not be sent ({})",
                self.failed_batches,
                self.first_error.as_deref().unwrap_or("no reason given")
            ));
        }
        if self.dropped_spans > 0 {
            line.push_str(&format!(
                " {} span(s) dropped (queue full)",
                self.dropped_spans
            ));
        }
        line.push_str("; the run itself is unaffected");
        Some(line)
    }
}

#[derive(Default)]
struct Counters {
    queued_bytes: AtomicUsize,
    sent: AtomicU64,
    dropped: AtomicU64,
    failed: AtomicU64,
    first_error: Mutex<Option<String>>,
    warned: AtomicBool,
}

enum Msg {
    Spans(Vec<SpanData>),
    Flush(oneshot::Sender<()>),
}

/// Sends spans to one OTLP/HTTP endpoint. Cheap to clone; the sending task ends when the last
/// clone is dropped (after sending what is queued).
#[derive(Clone)]
pub struct Exporter {
    endpoint: Arc<str>,
    tx: mpsc::UnboundedSender<Msg>,
    counters: Arc<Counters>,
}

impl Exporter {
    /// An exporter to `url` (a collector's OTLP/HTTP base such as `http://127.0.0.1:4318`;
    /// `/v1/traces` is added unless the path already ends with it), its task on the current
    /// tokio runtime. `warn` hears the first failure, once.
    pub fn start(
        url: &str,
        warn: Arc<dyn Fn(String) + Send + Sync>,
    ) -> Result<Exporter, OtlpError> {
        let endpoint = traces_endpoint(url)?;
        let build = |reason: String| OtlpError::Build {
            url: endpoint.clone(),
            reason,
        };
        let http = mcplab_net::tls::client_builder()
            .timeout(SEND_TIMEOUT)
            .build()
            .map_err(|e| build(e.to_string()))?;
        let mut inner = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(http)
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(endpoint.clone())
            .with_timeout(SEND_TIMEOUT)
            .build()
            .map_err(|e| build(e.to_string()))?;
        inner.set_resource(
            &Resource::builder_empty()
                .with_service_name("mcplab")
                .with_attribute(opentelemetry::KeyValue::new(
                    "service.version",
                    env!("CARGO_PKG_VERSION"),
                ))
                .build(),
        );
        let (tx, rx) = mpsc::unbounded_channel();
        let counters = Arc::new(Counters::default());
        let endpoint: Arc<str> = endpoint.into();
        let sender = Sender {
            inner,
            counters: counters.clone(),
            warn,
            endpoint: endpoint.clone(),
        };
        tokio::spawn(sender.run(rx));
        Ok(Exporter {
            endpoint,
            tx,
            counters,
        })
    }

    /// Where spans go.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Queues `spans` (all or none) without waiting; past the byte budget they are dropped
    /// and counted.
    pub fn push(&self, spans: Vec<SpanData>) {
        if spans.is_empty() {
            return;
        }
        let bytes: usize = spans.iter().map(weight).sum();
        let queued = &self.counters.queued_bytes;
        let admitted = queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
                (q + bytes <= QUEUE_BYTES).then_some(q + bytes)
            })
            .is_ok();
        let n = spans.len() as u64;
        if !admitted || self.tx.send(Msg::Spans(spans)).is_err() {
            if admitted {
                queued.fetch_sub(bytes, Ordering::AcqRel);
            }
            self.counters.dropped.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Sends what is queued, waiting at most `within`; then what happened so far.
    pub async fn flush(&self, within: Duration) -> ExportReport {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Msg::Flush(done)).is_ok() {
            let _ = tokio::time::timeout(within, wait).await;
        }
        self.report()
    }

    /// What happened so far.
    pub fn report(&self) -> ExportReport {
        let c = &self.counters;
        ExportReport {
            sent_spans: c.sent.load(Ordering::Relaxed),
            dropped_spans: c.dropped.load(Ordering::Relaxed),
            failed_batches: c.failed.load(Ordering::Relaxed),
            first_error: c.first_error.lock().clone(),
        }
    }
}

/// The collector URL with the traces path.
pub fn traces_endpoint(url: &str) -> Result<String, OtlpError> {
    let url = url.trim();
    let scheme_ok = url.starts_with("http://") || url.starts_with("https://");
    if !scheme_ok || url.parse::<reqwest::Url>().is_err() {
        return Err(OtlpError::BadUrl(url.to_owned()));
    }
    let base = url.trim_end_matches('/');
    Ok(if base.ends_with("/v1/traces") {
        base.to_owned()
    } else {
        format!("{base}/v1/traces")
    })
}

struct Sender {
    inner: opentelemetry_otlp::SpanExporter,
    counters: Arc<Counters>,
    warn: Arc<dyn Fn(String) + Send + Sync>,
    endpoint: Arc<str>,
}

impl Sender {
    async fn run(self, mut rx: mpsc::UnboundedReceiver<Msg>) {
        let mut batch: Vec<SpanData> = Vec::new();
        loop {
            let msg = if batch.is_empty() {
                rx.recv().await
            } else {
                match tokio::time::timeout(BATCH_DELAY, rx.recv()).await {
                    Ok(msg) => msg,
                    Err(_) => {
                        self.send(std::mem::take(&mut batch)).await;
                        continue;
                    }
                }
            };
            match msg {
                Some(Msg::Spans(spans)) => {
                    batch.extend(spans);
                    while batch.len() >= BATCH_SPANS {
                        let rest = batch.split_off(BATCH_SPANS);
                        self.send(std::mem::replace(&mut batch, rest)).await;
                    }
                }
                Some(Msg::Flush(done)) => {
                    self.send(std::mem::take(&mut batch)).await;
                    let _ = done.send(());
                }
                None => {
                    self.send(std::mem::take(&mut batch)).await;
                    return;
                }
            }
        }
    }

    async fn send(&self, batch: Vec<SpanData>) {
        if batch.is_empty() {
            return;
        }
        let bytes: usize = batch.iter().map(weight).sum();
        let n = batch.len() as u64;
        // The exporter bounds its own retries by SEND_TIMEOUT; this bounds everything else.
        let sent = tokio::time::timeout(SEND_TIMEOUT * 2, self.inner.export(batch)).await;
        self.counters
            .queued_bytes
            .fetch_sub(bytes, Ordering::AcqRel);
        let error = match sent {
            Ok(Ok(())) => {
                self.counters.sent.fetch_add(n, Ordering::Relaxed);
                return;
            }
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no answer within {} s", (SEND_TIMEOUT * 2).as_secs()),
        };
        self.counters.failed.fetch_add(1, Ordering::Relaxed);
        self.counters
            .first_error
            .lock()
            .get_or_insert(error.clone());
        if !self.counters.warned.swap(true, Ordering::AcqRel) {
            (self.warn)(format!(
                "OTLP export to {} failed ({error}); spans are dropped, the rest goes on (told once)",
                self.endpoint
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_traces_path_is_added_once_and_other_schemes_are_refused() {
        assert_eq!(
            traces_endpoint("http://127.0.0.1:4318").unwrap(),
            "http://127.0.0.1:4318/v1/traces"
        );
        assert_eq!(
            traces_endpoint("https://c.example/otlp/").unwrap(),
            "https://c.example/otlp/v1/traces"
        );
        assert_eq!(
            traces_endpoint("http://h:1/v1/traces").unwrap(),
            "http://h:1/v1/traces"
        );
        assert!(matches!(
            traces_endpoint("grpc://h:4317"),
            Err(OtlpError::BadUrl(_))
        ));
        assert!(traces_endpoint("localhost:4318").is_err());
    }
}
