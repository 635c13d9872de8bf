//! A minimal Chrome DevTools Protocol client over one browser-level WebSocket, in flat session
//! mode: commands are matched to replies by id (each with a deadline), events go to one
//! channel the caller takes. It knows nothing about pages, screenshots or mcplab; when the
//! socket closes every pending command fails at once instead of waiting out its timeout.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::RenderError;

/// An event Chromium sent (`method` + `params`), with the flat session it belongs to.
#[derive(Debug, Clone)]
pub struct CdpEvent {
    pub method: String,
    pub params: Value,
    pub session_id: Option<String>,
}

type Reply = Result<Value, RenderError>;
type Pending = Arc<Mutex<HashMap<u64, (String, oneshot::Sender<Reply>)>>>;

/// One DevTools connection. Dropping it stops its tasks (the socket closes with them).
pub struct Cdp {
    out: mpsc::UnboundedSender<Message>,
    pending: Pending,
    next_id: AtomicU64,
    events: Mutex<Option<mpsc::UnboundedReceiver<CdpEvent>>>,
    tasks: Vec<JoinHandle<()>>,
}

/// Screenshots arrive as one base64 message of several megabytes.
const MAX_MESSAGE: usize = 256 << 20;

impl Cdp {
    /// Connects to the browser endpoint `ws://127.0.0.1:<port>/devtools/browser/<id>`.
    pub async fn connect(url: &str, timeout: Duration) -> Result<Self, RenderError> {
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE))
            .max_frame_size(Some(MAX_MESSAGE));
        let connecting = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
        let (socket, _) = tokio::time::timeout(timeout, connecting)
            .await
            .map_err(|_| RenderError::Cdp(format!("no answer from {url} within {timeout:?}")))?
            .map_err(|e| RenderError::Cdp(format!("cannot connect to {url}: {e}")))?;
        let (mut sink, mut stream) = socket.split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let pending: Pending = Arc::default();

        let writer = tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                if sink.send(msg).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader_pending = pending.clone();
        let reader = tokio::spawn(async move {
            while let Some(Ok(msg)) = stream.next().await {
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                dispatch(v, &reader_pending, &events_tx);
            }
            // Whatever is still waiting will never get an answer.
            let waiting: Vec<_> = match reader_pending.lock() {
                Ok(mut p) => p.drain().collect(),
                Err(_) => Vec::new(),
            };
            for (_, (method, tx)) in waiting {
                let _ = tx.send(Err(RenderError::Cdp(format!(
                    "Chromium closed the DevTools connection before answering `{method}`"
                ))));
            }
        });
        Ok(Self {
            out,
            pending,
            next_id: AtomicU64::new(1),
            events: Mutex::new(Some(events_rx)),
            tasks: vec![writer, reader],
        })
    }

    /// The event stream (once; later calls get `None`).
    pub fn take_events(&self) -> Option<mpsc::UnboundedReceiver<CdpEvent>> {
        self.events.lock().ok()?.take()
    }

    /// Sends `method` (to the flat `session`, or the browser) and waits for its result.
    pub async fn call(
        &self,
        method: &str,
        params: Value,
        session: Option<&str>,
        timeout: Duration,
    ) -> Result<Value, RenderError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let (tx, rx) = oneshot::channel();
        if let Ok(mut p) = self.pending.lock() {
            p.insert(id, (method.to_owned(), tx));
        }
        if self
            .out
            .send(Message::Text(msg.to_string().into()))
            .is_err()
        {
            self.forget(id);
            return Err(RenderError::Cdp(format!(
                "the DevTools connection is closed; cannot send `{method}`"
            )));
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(RenderError::Cdp(format!(
                "the DevTools connection closed during `{method}`"
            ))),
            Err(_) => {
                self.forget(id);
                Err(RenderError::CommandTimeout {
                    method: method.to_owned(),
                    secs: timeout.as_secs_f64(),
                })
            }
        }
    }

    fn forget(&self, id: u64) {
        if let Ok(mut p) = self.pending.lock() {
            p.remove(&id);
        }
    }
}

impl Drop for Cdp {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

fn dispatch(v: Value, pending: &Pending, events: &mpsc::UnboundedSender<CdpEvent>) {
    if let Some(id) = v.get("id").and_then(Value::as_u64) {
        let waiter = pending.lock().ok().and_then(|mut p| p.remove(&id));
        let Some((method, tx)) = waiter else { return };
        let reply = match v.get("error") {
            Some(err) => Err(RenderError::Command {
                method,
                message: err
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error")
                    .to_owned(),
            }),
            None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
        };
        let _ = tx.send(reply);
        return;
    }
    if let Some(method) = v.get("method").and_then(Value::as_str) {
        let _ = events.send(CdpEvent {
            method: method.to_owned(),
            params: v.get("params").cloned().unwrap_or(Value::Null),
            session_id: v
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_owned),
        });
    }
}
