//! A minimal Chrome DevTools Protocol client over Chromium's `--remote-debugging-pipe` (the
//! browser reads commands on its fd 3 and writes replies and events on its fd 4, each message
//! JSON followed by a NUL byte), in flat session mode: commands are matched to replies by id
//! (each with a deadline), events go to one channel the caller takes. A pipe belongs to the
//! process that made it: unlike a DevTools TCP port, no other local process or user can
//! connect. It knows nothing about pages, screenshots or mcplab; when the pipe closes every
//! pending command fails at once instead of waiting out its timeout.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::pipe;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

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

/// One DevTools connection. Dropping it stops its tasks (the pipe closes with them).
pub struct Cdp {
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    next_id: AtomicU64,
    events: Mutex<Option<mpsc::UnboundedReceiver<CdpEvent>>>,
    tasks: Vec<JoinHandle<()>>,
}

/// Screenshots arrive as one base64 message of several megabytes.
const MAX_MESSAGE: usize = 256 << 20;

impl Cdp {
    /// Speaks CDP over the pipe ends Chromium was started with: `to_browser` is written (its
    /// fd 3), `from_browser` read (its fd 4).
    pub fn over_pipe(to_browser: OwnedFd, from_browser: OwnedFd) -> Result<Self, RenderError> {
        let pipe_err = |e: std::io::Error| RenderError::Cdp(format!("cannot use the pipe: {e}"));
        let mut sink = pipe::Sender::from_owned_fd(to_browser).map_err(pipe_err)?;
        let source = pipe::Receiver::from_owned_fd(from_browser).map_err(pipe_err)?;
        let (out, mut out_rx) = mpsc::unbounded_channel::<String>();
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let pending: Pending = Arc::default();

        let writer = tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                let mut frame = msg.into_bytes();
                frame.push(0);
                if sink.write_all(&frame).await.is_err() {
                    break;
                }
            }
        });
        let reader_pending = pending.clone();
        let reader = tokio::spawn(async move {
            let mut source = BufReader::new(source);
            let mut message = Vec::new();
            while let Ok(true) = read_message(&mut source, &mut message).await {
                let Ok(v) = serde_json::from_slice::<Value>(&message) else {
                    continue;
                };
                dispatch(v, &reader_pending, &events_tx);
            }
            // Whatever is still waiting will never get an answer.
            let waiting: Vec<_> = reader_pending.lock().drain().collect();
            for (_, (method, tx)) in waiting {
                let _ = tx.send(Err(RenderError::Cdp(format!(
                    "Chromium closed the DevTools pipe before answering `{method}`"
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
        self.events.lock().take()
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
        self.pending.lock().insert(id, (method.to_owned(), tx));
        if self.out.send(msg.to_string()).is_err() {
            self.forget(id);
            return Err(RenderError::Cdp(format!(
                "the DevTools pipe is closed; cannot send `{method}`"
            )));
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(RenderError::Cdp(format!(
                "the DevTools pipe closed during `{method}`"
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
        self.pending.lock().remove(&id);
    }
}

impl Drop for Cdp {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Reads one NUL-terminated message into `into`; `Ok(false)` at the end of the pipe. A message
/// over [`MAX_MESSAGE`] is an error (the pipe is then abandoned).
async fn read_message(
    source: &mut (impl AsyncBufRead + Unpin),
    into: &mut Vec<u8>,
) -> std::io::Result<bool> {
    into.clear();
    loop {
        let available = source.fill_buf().await?;
        if available.is_empty() {
            return Ok(false);
        }
        if let Some(end) = available.iter().position(|b| *b == 0) {
            into.extend_from_slice(&available[..end]);
            source.consume(end + 1);
            return Ok(true);
        }
        let n = available.len();
        into.extend_from_slice(available);
        source.consume(n);
        if into.len() > MAX_MESSAGE {
            return Err(std::io::Error::other(format!(
                "a DevTools message is over {MAX_MESSAGE} bytes"
            )));
        }
    }
}

fn dispatch(v: Value, pending: &Pending, events: &mpsc::UnboundedSender<CdpEvent>) {
    if let Some(id) = v.get("id").and_then(Value::as_u64) {
        let waiter = pending.lock().remove(&id);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn messages_are_split_at_nul_bytes_across_reads() {
        let bytes: &[u8] = b"{\"id\":1}\0{\"method\":\"a\"}\0{\"partial";
        let mut source = BufReader::with_capacity(3, bytes);
        let mut m = Vec::new();
        assert!(read_message(&mut source, &mut m).await.unwrap());
        assert_eq!(m, br#"{"id":1}"#);
        assert!(read_message(&mut source, &mut m).await.unwrap());
        assert_eq!(m, br#"{"method":"a"}"#);
        assert!(
            !read_message(&mut source, &mut m).await.unwrap(),
            "no NUL: the end"
        );
    }
}
