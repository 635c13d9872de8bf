//! The single place where raw frames become JSON-RPC messages and back. It implements rmcp's
//! `Transport` over a [`Wire`], records every frame exactly once (outbound as serialized,
//! inbound as received, unparsable lines included) and keeps the raw `result` of responses so
//! callers get the server's exact JSON rather than rmcp's typed re-serialization. A response
//! that cannot be used (unparsable, over a limit) fails its request at once with a synthetic
//! error naming why, instead of leaving it to time out.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use mcplab_protocol::{Direction, FrameKind, TrafficHttpExchange};
use parking_lot::Mutex;
use rmcp::model::{ClientRequest, GetExtensions, GetMeta, JsonRpcMessage};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::sync::mpsc;

use super::exchange_links::ExchangeLinks;
use super::handler::{ClientSide, ProgressListeners, ProgressTap, progress_key};
use super::modern::probe::{DiscoverProbe, Step};
use super::peek::peek;
use super::traffic::{FrameExtras, TrafficLog};
use super::wire::{Wire, WireEvent, bad_response, excerpt};

/// Characters of a frame quoted in an error.
const EXCERPT_CHARS: usize = 120;

/// How many unclaimed raw results are kept before the oldest is forgotten. Results are
/// claimed right after the typed response arrives, so this only bounds leaks from requests
/// whose caller went away.
const RAW_RESULT_CAPACITY: usize = 512;
/// How many ids of requests sent and not yet answered are remembered (only their results are
/// kept: a server answering ids nobody asked for cannot fill memory with results).
const EXPECTED_CAPACITY: usize = 4096;

/// Raw `result` values of responses, keyed by the request id's JSON text.
#[derive(Clone)]
pub(crate) struct RawResults {
    inner: Arc<Mutex<RawInner>>,
    closed: Arc<tokio::sync::watch::Sender<Option<String>>>,
}

impl Default for RawResults {
    fn default() -> Self {
        Self {
            inner: Arc::default(),
            closed: Arc::new(tokio::sync::watch::channel(None).0),
        }
    }
}

#[derive(Default)]
struct RawInner {
    by_id: HashMap<String, Value>,
    order: VecDeque<String>,
    /// Ids of requests sent whose response has not arrived, oldest first.
    expected: VecDeque<String>,
    first: Option<Value>,
    /// The first JSON-RPC error received (e.g. a legacy server refusing `server/discover`).
    first_error: Option<Value>,
    closed_reason: Option<String>,
    /// Why `auto`'s probe was given up (the manager starts the server again).
    probe_given_up: Option<(String, bool)>,
    /// The probe is out and the server has not been seen to read it (as of the last look).
    probe_unread: bool,
}

impl RawResults {
    /// Notes that a request with `id` was sent.
    fn expect(&self, id: String) {
        let mut inner = self.inner.lock();
        inner.expected.push_back(id);
        if inner.expected.len() > EXPECTED_CAPACITY {
            inner.expected.pop_front();
        }
    }

    fn put(&self, id: &Value, result: Value) {
        let key = id.to_string();
        let mut inner = self.inner.lock();
        let Some(at) = inner.expected.iter().position(|k| *k == key) else {
            return;
        };
        inner.expected.remove(at);
        if inner.first.is_none() {
            inner.first = Some(result.clone());
        }
        if inner.by_id.insert(key.clone(), result).is_none() {
            inner.order.push_back(key);
        }
        while inner.order.len() > RAW_RESULT_CAPACITY {
            if let Some(old) = inner.order.pop_front() {
                inner.by_id.remove(&old);
            }
        }
    }

    /// Takes the raw result for request `id` (as JSON), if it arrived.
    pub(crate) fn take(&self, id: &Value) -> Option<Value> {
        let key = id.to_string();
        let mut inner = self.inner.lock();
        let v = inner.by_id.remove(&key);
        if v.is_some() {
            inner.order.retain(|k| k != &key);
        }
        v
    }

    /// The first result received on the connection: the `initialize` result (legacy era) or
    /// the `server/discover` result (2026-07-28).
    pub(crate) fn first(&self) -> Option<Value> {
        self.inner.lock().first.clone()
    }

    /// The first JSON-RPC `error` object received on the connection.
    pub(crate) fn first_error(&self) -> Option<Value> {
        self.inner.lock().first_error.clone()
    }

    fn note_error(&self, error: &Value) {
        let mut inner = self.inner.lock();
        if inner.first_error.is_none() {
            inner.first_error = Some(error.clone());
        }
    }

    /// Why the transport closed, in words for the user, once it has.
    pub(crate) fn closed_reason(&self) -> Option<String> {
        self.inner.lock().closed_reason.clone()
    }

    /// Why the `server/discover` probe of `protocol: auto` went unanswered, when it did.
    pub(crate) fn probe_given_up(&self) -> Option<String> {
        self.inner
            .lock()
            .probe_given_up
            .as_ref()
            .map(|(why, _)| why.clone())
    }

    /// Whether the probe was given up without the server having read it (a slow start).
    pub(crate) fn probe_never_read(&self) -> bool {
        matches!(self.inner.lock().probe_given_up, Some((_, true)))
    }

    /// Whether the probe is still out unread: the handshake's deadline came before the probe
    /// gave up on a server that reads nothing (a busy machine can delay the give-up).
    pub(crate) fn probe_unread(&self) -> bool {
        self.inner.lock().probe_unread
    }

    /// Resolves with the close reason once the transport has closed.
    pub(crate) fn closed_watch(&self) -> tokio::sync::watch::Receiver<Option<String>> {
        self.closed.subscribe()
    }

    fn set_closed(&self, reason: String) {
        let mut inner = self.inner.lock();
        if inner.closed_reason.is_none() {
            inner.closed_reason = Some(reason.clone());
            self.closed.send_replace(Some(reason));
        }
    }
}

/// Sends a JSON-RPC frame that could not be delivered.
#[derive(Debug, thiserror::Error)]
#[error("the connection to the server is closed")]
pub(crate) struct WireClosed;

/// rmcp `Transport` over a [`Wire`], recording as it goes.
pub(crate) struct FrameTransport {
    server: String,
    inbound: super::wire::InboundRx,
    outbound: Option<mpsc::Sender<Bytes>>,
    traffic: Arc<TrafficLog>,
    raw: RawResults,
    /// Set for 2026-07-28 streamable HTTP: the headers each frame is sent with are recorded
    /// with it (computed by the same function the wire uses).
    headers: Option<HeaderRecorder>,
    /// HTTP wires: which exchange posted which frame and carried which.
    links: ExchangeLinks,
    /// Handles progress and log notifications in the order they arrive (see
    /// [`ClientSide::in_order`]); log lines are not handed on to rmcp.
    in_order: Option<ClientSide>,
    /// Where requests that carry a [`ProgressTap`] register it, before their frame is written.
    progress: Option<ProgressListeners>,
    /// `protocol: auto` on stdio: keeps the `server/discover` probe from costing 10 s or a
    /// second start.
    probe: Option<DiscoverProbe>,
}

/// Computes the protocol headers of outbound frames for the traffic view.
#[derive(Clone)]
pub(crate) struct HeaderRecorder {
    pub tools: Arc<super::modern::headers::ToolHeaders>,
    version: Arc<Mutex<Option<String>>>,
}

impl HeaderRecorder {
    pub(crate) fn new(tools: Arc<super::modern::headers::ToolHeaders>) -> Self {
        Self {
            tools,
            version: Arc::default(),
        }
    }

    fn headers_for(&self, bytes: &[u8]) -> Option<Vec<(String, String)>> {
        let value: Value = serde_json::from_slice(bytes).ok()?;
        if value.get("method").and_then(Value::as_str) == Some("notifications/cancelled") {
            // Not sent over 2026-07-28 HTTP: the wire closes the request's stream instead.
            return None;
        }
        let mut last = self.version.lock();
        let headers = super::modern::headers::frame_headers(&value, last.as_deref(), &self.tools);
        if let Some((_, v)) = headers
            .iter()
            .find(|(k, _)| k == super::modern::headers::VERSION_HEADER)
        {
            *last = Some(v.clone());
        }
        Some(headers)
    }
}

impl FrameTransport {
    /// Transport diagnostics (notes, unparsable frames) are recorded as traffic.
    pub(crate) fn new(
        server: String,
        wire: Wire,
        traffic: Arc<TrafficLog>,
        raw: RawResults,
    ) -> Self {
        Self {
            server,
            inbound: wire.inbound,
            outbound: Some(wire.outbound),
            traffic,
            raw,
            headers: None,
            links: ExchangeLinks::default(),
            in_order: None,
            progress: None,
            probe: None,
        }
    }

    /// Watches the `server/discover` probe of `protocol: auto` (see [`DiscoverProbe`]).
    pub(crate) fn with_discover_probe(mut self, probe: DiscoverProbe) -> Self {
        self.probe = Some(probe);
        self
    }

    /// Records the 2026-07-28 HTTP headers of every outbound frame.
    pub(crate) fn with_headers(mut self, recorder: HeaderRecorder) -> Self {
        self.headers = Some(recorder);
        self
    }

    /// Parses one inbound frame; `None` when it is not a JSON-RPC message we can use.
    fn parse(&self, bytes: &[u8]) -> Result<RxJsonRpcMessage<RoleClient>, String> {
        let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
        if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err("missing \"jsonrpc\": \"2.0\"".into());
        }
        if let (Some(id), Some(result)) = (value.get("id"), value.get("result")) {
            self.raw.put(id, result.clone());
        }
        if let Some(error) = value.get("error").filter(|_| value.get("id").is_some()) {
            self.raw.note_error(error);
        }
        serde_json::from_value(value).map_err(|e| format!("not a valid JSON-RPC message: {e}"))
    }

    /// Handles progress and log notifications as they are read, in the server's order.
    pub(crate) fn with_in_order(mut self, handler: ClientSide) -> Self {
        self.progress = Some(handler.progress.clone());
        self.in_order = Some(handler);
        self
    }

    /// Registers the progress listener a request carries under the token rmcp gave it.
    fn register_progress(&self, request: &ClientRequest) {
        let (Some(listeners), Some(tap)) =
            (&self.progress, request.extensions().get::<ProgressTap>())
        else {
            return;
        };
        if let Some(token) = request.get_meta().get_progress_token() {
            listeners.lock().insert(progress_key(&token), tap.0.clone());
        }
    }

    /// `msg`, unless it is a notification handled here and now that rmcp has no use for.
    fn handle_in_order(
        &mut self,
        msg: RxJsonRpcMessage<RoleClient>,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        match (&self.in_order, &msg) {
            (Some(handler), JsonRpcMessage::Notification(n))
                if handler.in_order(&n.notification) =>
            {
                None
            }
            _ => Some(msg),
        }
    }
}

impl FrameTransport {
    /// The probe's deadline passed: when it is given up, the session ends (`false`).
    fn probe_step(&mut self) -> bool {
        let Some(probe) = self.probe.as_mut() else {
            return true;
        };
        match probe.step(tokio::time::Instant::now()) {
            Step::GiveUp { why, unread } => {
                self.traffic.record(
                    &self.server,
                    Direction::Inbound,
                    FrameKind::Note,
                    why.as_bytes(),
                );
                self.raw.inner.lock().probe_given_up = Some((why.clone(), unread));
                self.raw.set_closed(why);
                self.probe = None;
                self.outbound = None;
                false
            }
            Step::Nothing => {
                self.raw.inner.lock().probe_unread = probe.unread_so_far();
                true
            }
        }
    }

    /// An inbound frame that answers the probe with something other than a discover result:
    /// recorded as it came, and replaced by the refusal rmcp falls back on.
    fn judged(&mut self, bytes: &[u8]) -> Option<RxJsonRpcMessage<RoleClient>> {
        let probe = self.probe.as_mut()?;
        let reply = probe.judge(bytes);
        self.raw.inner.lock().probe_unread = probe.unread_so_far();
        let reply = reply?;
        let kind = FrameKind::Message;
        self.traffic
            .record(&self.server, Direction::Inbound, kind, bytes);
        self.traffic.record(
            &self.server,
            Direction::Inbound,
            FrameKind::Synthetic,
            &reply,
        );
        self.parse(&reply).ok()
    }
}

impl FrameTransport {
    /// Records, parses and (for the probe) judges a frame from the server.
    fn frame(
        &mut self,
        bytes: &[u8],
        exchange: Option<u64>,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        if let Some(refusal) = self.judged(bytes) {
            return Some(refusal);
        }
        let msg = self.inbound_frame(bytes, exchange);
        msg.and_then(|m| self.handle_in_order(m))
    }
}

/// Sleeps until `at`, or for ever without one.
async fn sleep_until_some(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl FrameTransport {
    /// Records an unusable frame and builds the error that fails the request it answers:
    /// `request`, or the response id found in `bytes`.
    fn unusable(
        &self,
        bytes: &[u8],
        error: String,
        why: String,
        request: Option<Value>,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        let kind = FrameKind::Unparsable { error };
        self.traffic
            .record(&self.server, Direction::Inbound, kind, bytes);
        let id = request.or_else(|| peek(bytes).response_id().cloned())?;
        let reply = bad_response(&id, &why);
        self.traffic.record(
            &self.server,
            Direction::Inbound,
            FrameKind::Synthetic,
            &reply,
        );
        serde_json::from_slice(&reply).ok()
    }
}

impl FrameTransport {
    /// Records and parses a frame from the server (`exchange`: the record of the HTTP exchange
    /// that carried it); an unusable one fails the request it answers.
    fn inbound_frame(
        &self,
        bytes: &[u8],
        exchange: Option<u64>,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        match self.parse(bytes) {
            Ok(msg) => {
                let extras = FrameExtras {
                    exchange,
                    ..FrameExtras::default()
                };
                let kind = FrameKind::Message;
                self.traffic
                    .record_with(&self.server, Direction::Inbound, kind, bytes, extras);
                Some(msg)
            }
            Err(error) => {
                let why = format!(
                    "the server sent an unparsable response ({error}); it starts with: {}",
                    excerpt(bytes, EXCERPT_CHARS)
                );
                self.unusable(bytes, error, why, None)
            }
        }
    }

    /// Records an HTTP exchange as a note with the exchange attached, linked to the frame it
    /// posted, and remembers its `seq` for the frames its response carries.
    fn record_exchange(&self, id: u64, mut exchange: TrafficHttpExchange, sent: Option<Bytes>) {
        exchange.request_seq = sent.and_then(|b| self.links.request_seq(&b));
        let outcome = match (&exchange.status, &exchange.error) {
            (Some(status), _) => format!("HTTP {status}"),
            (None, Some(error)) => format!("failed: {error}"),
            (None, None) => "no answer".to_owned(),
        };
        let summary = format!(
            "{} {} → {outcome} ({} ms)",
            exchange.method, exchange.url, exchange.elapsed_ms
        );
        let extras = FrameExtras {
            http: Some(exchange),
            ..FrameExtras::default()
        };
        let recorded = self.traffic.record_with(
            &self.server,
            Direction::Inbound,
            FrameKind::Note,
            summary.as_bytes(),
            extras,
        );
        self.links.exchange(id, recorded.seq);
    }
}

impl Transport<RoleClient> for FrameTransport {
    type Error = WireClosed;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let outbound = self.outbound.clone();
        let bytes = serde_json::to_vec(&item).map(Bytes::from);
        let traffic = self.traffic.clone();
        let server = self.server.clone();
        if let JsonRpcMessage::Request(request) = &item {
            let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
            self.raw.expect(id.to_string());
            self.register_progress(&request.request);
            if let Some(probe) = self.probe.as_mut() {
                probe.sent(&request.request, &request.id);
            }
        }
        let recorder = self.headers.clone();
        let raw = self.raw.clone();
        let links = self.links.clone();
        async move {
            let bytes = bytes.map_err(|_| WireClosed)?;
            let headers = recorder.and_then(|r| r.headers_for(&bytes));
            let recorded = traffic.record_with_headers(
                &server,
                Direction::Outbound,
                FrameKind::Message,
                &bytes,
                headers,
            );
            links.sent(&bytes, recorded.seq);
            let outbound = outbound.ok_or(WireClosed)?;
            // A frame that cannot be written means the server is gone, even before its
            // closed stream is read: say so at once (an eval judges a crash by this).
            outbound.send(bytes).await.map_err(|_| {
                raw.set_closed("the server stopped reading: its connection is closed".into());
                WireClosed
            })
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let probe_due = self.probe.as_ref().and_then(DiscoverProbe::deadline);
            let event = tokio::select! {
                event = self.inbound.recv() => event,
                _ = sleep_until_some(probe_due) => {
                    if !self.probe_step() {
                        return None;
                    }
                    continue;
                }
            };
            match event {
                Some(WireEvent::Frame(bytes)) => {
                    if let Some(msg) = self.frame(&bytes, None) {
                        return Some(msg);
                    }
                }
                Some(WireEvent::Carried { frame, exchange }) => {
                    let exchange = self.links.exchange_seq(exchange);
                    if let Some(msg) = self.frame(&frame, exchange) {
                        return Some(msg);
                    }
                }
                Some(WireEvent::Exchange { id, exchange, sent }) => {
                    self.record_exchange(id, exchange, sent);
                }
                Some(WireEvent::Unusable {
                    start,
                    why,
                    request,
                }) => {
                    if let Some(failed) = self.unusable(&start, why.clone(), why, request) {
                        return Some(failed);
                    }
                }
                Some(WireEvent::Synthetic(bytes)) => {
                    self.traffic.record(
                        &self.server,
                        Direction::Inbound,
                        FrameKind::Synthetic,
                        &bytes,
                    );
                    if let Ok(msg) = self.parse(&bytes) {
                        return Some(msg);
                    }
                }
                Some(WireEvent::Note(note)) => {
                    self.traffic.record(
                        &self.server,
                        Direction::Inbound,
                        FrameKind::Note,
                        note.as_bytes(),
                    );
                }
                Some(WireEvent::Closed(reason)) => {
                    self.traffic.record(
                        &self.server,
                        Direction::Inbound,
                        FrameKind::Note,
                        reason.as_bytes(),
                    );
                    self.raw.set_closed(reason);
                    return None;
                }
                None => {
                    self.raw
                        .set_closed("the transport stopped unexpectedly".into());
                    return None;
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.probe = None;
        // Dropping the sender tells the wire task to shut down (close stdin, DELETE the session).
        self.outbound = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handler::ProgressUpdate;
    use serde_json::json;

    /// A server may send progress the moment it reads a request: the listener must be in
    /// place before the frame is written (the send future not yet run), not after rmcp returns.
    #[test]
    fn a_requests_progress_listener_is_registered_before_its_frame_is_written() {
        let (mut wire, end) = crate::wire::wire_pair();
        let (outbound, mut written) = mpsc::channel(1);
        wire.outbound = outbound;
        let _server = end;
        let listeners = ProgressListeners::default();
        let mut transport = FrameTransport::new(
            "s".into(),
            wire,
            Arc::new(TrafficLog::new(1 << 20)),
            RawResults::default(),
        );
        transport.progress = Some(listeners.clone());
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut request: ClientRequest =
            serde_json::from_value(json!({"method": "tools/call", "params": {"name": "t"}}))
                .unwrap();
        request.extensions_mut().insert(ProgressTap(tx));
        let token = rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(3));
        request.get_meta_mut().set_progress_token(token.clone());
        let id = rmcp::model::RequestId::Number(1);
        let send = transport.send(JsonRpcMessage::request(request, id));
        assert!(written.try_recv().is_err(), "nothing written yet");
        let listener = listeners.lock().get(&progress_key(&token)).cloned();
        let update = ProgressUpdate {
            progress: 1.0,
            total: None,
            message: None,
        };
        listener
            .expect("registered at send")
            .send(update.clone())
            .unwrap();
        assert_eq!(rx.try_recv().unwrap(), update);
        drop(send);
    }

    #[test]
    fn only_results_of_requests_sent_are_kept() {
        let raw = RawResults::default();
        // A server answering an id nobody asked for leaves nothing behind.
        raw.put(&json!(7), json!({"big": "x"}));
        assert_eq!(raw.take(&json!(7)), None);
        raw.expect(json!(8).to_string());
        raw.put(&json!(8), json!({"ok": true}));
        assert_eq!(raw.take(&json!(8)), Some(json!({"ok": true})));
        // Answered once: a second answer to the same id is not kept either.
        raw.put(&json!(8), json!({"again": true}));
        assert_eq!(raw.take(&json!(8)), None);
    }
}
