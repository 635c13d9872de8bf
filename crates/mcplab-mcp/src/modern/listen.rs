//! Change notifications in both eras. 2026-07-28 has no `resources/subscribe` and no standalone
//! stream: a client opts in with a `subscriptions/listen` request whose response stream stays
//! open. A connection keeps its listen requests by key (a resource uri, or `lists` for the
//! list-changed notifications the server offers), each cancelled on unsubscribe or close.
//! Legacy servers get `resources/subscribe`/`unsubscribe` as before.

use std::sync::Arc;
use std::time::Duration;

use mcplab_protocol::ServerEvent;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::connection::{Connection, RequestOptions};
use crate::error::McpError;

/// How long a new listen request may take to be acknowledged.
const ACK_TIMEOUT: Duration = Duration::from_secs(10);
/// Key of the list-changed subscription.
const LISTS: &str = "lists";

impl Connection {
    /// Tells the server to report changes of `uri` (`subscriptions/listen` in 2026-07-28,
    /// `resources/subscribe` before).
    pub async fn subscribe_resource(self: &Arc<Self>, uri: &str) -> Result<Value, McpError> {
        if !self.is_modern() {
            let params = Some(json!({ "uri": uri }));
            return self
                .request("resources/subscribe", params, RequestOptions::default())
                .await;
        }
        let filter = json!({ "resourceSubscriptions": [uri] });
        self.listen(uri.to_owned(), filter).await
    }

    /// Stops what [`Self::subscribe_resource`] started.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<Value, McpError> {
        if !self.is_modern() {
            let params = Some(json!({ "uri": uri }));
            return self
                .request("resources/unsubscribe", params, RequestOptions::default())
                .await;
        }
        match self.listens.lock().remove(uri) {
            Some(token) => {
                token.cancel();
                Ok(json!({}))
            }
            None => Err(McpError::InvalidParams(format!(
                "no subscription for {uri}"
            ))),
        }
    }

    /// 2026-07-28: listens for the list changes the server's capabilities announce, so lists
    /// refresh as they do with a legacy server's notifications. No-op otherwise.
    pub async fn listen_for_list_changes(self: &Arc<Self>) -> Result<Value, McpError> {
        let caps = self
            .initialize
            .get("capabilities")
            .cloned()
            .unwrap_or_default();
        let mut filter = serde_json::Map::new();
        for (cap, key) in [
            ("tools", "toolsListChanged"),
            ("prompts", "promptsListChanged"),
            ("resources", "resourcesListChanged"),
        ] {
            if caps.pointer(&format!("/{cap}/listChanged")) == Some(&Value::Bool(true)) {
                filter.insert(key.into(), Value::Bool(true));
            }
        }
        if !self.is_modern() || filter.is_empty() {
            return Ok(json!({}));
        }
        self.listen(LISTS.into(), json!(filter)).await
    }

    /// Opens a listen request kept under `key` and waits (bounded) for its acknowledgement.
    async fn listen(self: &Arc<Self>, key: String, filter: Value) -> Result<Value, McpError> {
        let mut events = self.answerer.events.subscribe();
        let stop = CancellationToken::new();
        if let Some(old) = self.listens.lock().insert(key.clone(), stop.clone()) {
            old.cancel();
        }
        let conn = self.clone();
        let opts = RequestOptions {
            cancel: Some(stop.clone()),
            ..Default::default()
        };
        let params = json!({ "notifications": filter });
        let mut running = tokio::spawn(async move {
            conn.request("subscriptions/listen", Some(params), opts)
                .await
        });
        let acked = tokio::time::timeout(ACK_TIMEOUT, async {
            loop {
                tokio::select! {
                    ended = &mut running => return Err(match ended {
                        Ok(Err(e)) => e,
                        _ => self.misbehaved("it ended the subscription at once"),
                    }),
                    event = events.recv() => match event {
                        Ok(ServerEvent::SubscriptionAcknowledged { server, notifications, .. })
                            if server == self.name =>
                        {
                            return Ok(json!({ "acknowledged": notifications }));
                        }
                        Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                        Err(_) => return Err(McpError::Other("events closed".into())),
                    },
                }
            }
        })
        .await;
        match acked {
            Ok(Ok(ack)) => Ok(ack),
            Ok(Err(e)) => {
                self.listens.lock().remove(&key);
                Err(e)
            }
            Err(_) => {
                stop.cancel();
                self.listens.lock().remove(&key);
                Err(McpError::Timeout {
                    method: "subscriptions/listen".into(),
                    after: ACK_TIMEOUT,
                })
            }
        }
    }

    /// Cancels every listen request (on close).
    pub(crate) fn stop_listening(&self) {
        for (_, token) in self.listens.lock().drain() {
            token.cancel();
        }
    }
}
