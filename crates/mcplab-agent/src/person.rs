//! With `mcplab mcp --attach`: what the person does in the running inspector, for the agent to
//! read. The inspector's own connections — the browser's calls, its chat and evals — are the
//! person's (the agent's show up there as taps). [`Inspector`], handed in by the binary, is
//! that inspector's API: its servers and each one's recorded traffic. `traffic` merges those
//! frames with the agent's own, each marked `by` (`agent` or `person`); `servers` lists the
//! inspector's servers; `notifications` adds the notifications the person's connections
//! received since the agent last asked.

use std::collections::HashMap;

use futures::future::BoxFuture;
use mcplab_protocol::{Direction, TrafficFrame};
use parking_lot::Mutex;
use serde_json::{Value, json};

use crate::inbox::{Inbox, Stream};
use crate::reply::cut;

/// Characters of a person's notification kept in the inbox.
const NOTIFICATION_EXCERPT: usize = 600;

/// The running inspector's API (`GET /api/servers`, `GET /api/servers/{name}/traffic`).
pub trait Inspector: Send + Sync + 'static {
    /// Where it runs, for messages.
    fn url(&self) -> String;
    /// Its servers (`ServerView`s: config, status, …).
    fn servers(&self) -> BoxFuture<'static, Result<Vec<Value>, String>>;
    /// The frames it recorded with `server` (cut like its traffic view) and how many older
    /// ones it evicted.
    fn traffic(&self, server: &str)
    -> BoxFuture<'static, Result<(Vec<TrafficFrame>, u64), String>>;
}

/// The person's side, as far as the agent has read it.
pub(crate) struct Person {
    pub inspector: std::sync::Arc<dyn Inspector>,
    /// Per server, the last of its frames whose notifications went to the inbox.
    seen: Mutex<HashMap<String, u64>>,
}

impl Person {
    pub(crate) fn new(inspector: std::sync::Arc<dyn Inspector>) -> Self {
        Self {
            inspector,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// The inspector's servers as `servers` shows them: name, status, transport.
    pub(crate) async fn servers(&self) -> Result<Vec<Value>, String> {
        let views = self.inspector.servers().await?;
        Ok(views
            .iter()
            .map(|v| {
                json!({ "name": v["config"]["name"], "status": status_text(&v["status"]),
                    "transport": v["config"]["type"], "by": "person" })
            })
            .collect())
    }

    /// Puts the notifications the person's connection to `server` (or to each connected
    /// server) received since the last look into `inbox`, marked `by: person`.
    pub(crate) async fn collect_notifications(&self, server: Option<&str>, inbox: &Inbox) {
        let names = match server {
            Some(s) => vec![s.to_owned()],
            None => match self.inspector.servers().await {
                Ok(views) => views
                    .iter()
                    .filter(|v| v["status"]["state"] == "connected")
                    .filter_map(|v| v["config"]["name"].as_str().map(str::to_owned))
                    .collect(),
                Err(why) => return self.unreachable(inbox, &why),
            },
        };
        for name in names {
            let frames = match self.inspector.traffic(&name).await {
                Ok((frames, _)) => frames,
                Err(why) => return self.unreachable(inbox, &why),
            };
            let mut seen = self.seen.lock();
            let last = seen.get(&name).copied().unwrap_or(0);
            for f in frames.iter().filter(|f| f.seq > last) {
                if let Some(event) = notification(f) {
                    inbox.push(&name, Stream::Events, event);
                }
            }
            if let Some(newest) = frames.last() {
                seen.insert(name, newest.seq.max(last));
            }
        }
    }

    fn unreachable(&self, inbox: &Inbox, why: &str) {
        let note = json!({ "type": "inspectorUnreachable", "by": "person",
            "note": format!("the person's notifications could not be read from {}: {why}",
                self.inspector.url()) });
        inbox.push("mcplab", Stream::Events, note);
    }
}

/// A notification the server sent the person's connection, as an inbox event.
fn notification(f: &TrafficFrame) -> Option<Value> {
    if f.direction != Direction::Inbound {
        return None;
    }
    let v: Value = serde_json::from_str(&f.text).ok()?;
    if v.get("id").is_some() {
        return None;
    }
    let method = v["method"].as_str()?;
    let params = v
        .get("params")
        .map(|p| cut(&p.to_string(), NOTIFICATION_EXCERPT));
    Some(
        json!({ "type": "notification", "by": "person", "server": f.server,
        "method": method, "params": params, "ms": f.ts_ms }),
    )
}

fn status_text(status: &Value) -> String {
    match status["state"].as_str() {
        Some("failed") => format!("failed: {}", status["message"].as_str().unwrap_or("?")),
        Some(state) => state.to_owned(),
        None => "unknown".into(),
    }
}
