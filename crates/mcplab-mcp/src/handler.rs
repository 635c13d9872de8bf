//! mcplab's side of a connection as rmcp sees it: the client capabilities we declare, and the
//! translation of every server-initiated request and notification into a domain event.
//! Requests that need a person go through the [`Broker`]; roots are answered from the
//! manager's shared list. Nothing here blocks without a deadline.

// Sampling, roots and logging are deprecated only in the 2026 draft revision; the revision we
// negotiate (2025-11-25) has them, and servers use them.
#![allow(deprecated)]

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use mcplab_protocol::{HumanAnswer, HumanRequestKind, ServerEvent};
use parking_lot::{Mutex, RwLock};
use rmcp::ErrorData;
use rmcp::model::{
    ClientConfig, ClientResult, CreateMessageResult, ElicitResult, ErrorCode, ListRootsResult,
    ServerNotification, ServerRequest,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, Service};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::broker::{Broker, BrokerError};
use super::event_gate::EventGate;

/// The protocol version mcplab asks for. rmcp defaults to a newer draft revision that most
/// servers (and the conformance suite) do not speak yet, so it is set explicitly.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// Every revision mcplab speaks; a server answering `initialize` with another is refused.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] =
    &["2024-11-05", "2025-03-26", "2025-06-18", PROTOCOL_VERSION];

/// The MCP Apps extension identifier declared in our capabilities.
pub(crate) const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// One progress update for a request that asked to be told.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// Progress listeners keyed by progress token (its JSON text).
pub(crate) type ProgressListeners =
    Arc<Mutex<HashMap<String, mpsc::UnboundedSender<ProgressUpdate>>>>;

/// Where a request's progress goes, carried in the request's extensions (never on the wire):
/// rmcp picks the progress token as it sends, so the transport registers the listener under
/// that token before it writes the frame — a server's first progress cannot come too early.
#[derive(Clone)]
pub(crate) struct ProgressTap(pub mpsc::UnboundedSender<ProgressUpdate>);

/// The listeners' key for `token`.
pub(crate) fn progress_key(token: &rmcp::model::ProgressToken) -> String {
    serde_json::to_value(token)
        .unwrap_or(Value::Null)
        .to_string()
}

/// A root offered to servers (`roots/list`).
#[derive(Debug, Clone, PartialEq)]
pub struct RootEntry {
    pub uri: String,
    pub name: Option<String>,
}

/// Shared, changeable list of roots.
pub(crate) type Roots = Arc<RwLock<Vec<RootEntry>>>;

/// Who we are in `initialize`.
#[derive(Debug, Clone)]
pub struct ClientIdentity {
    pub name: String,
    pub version: String,
}

#[derive(Clone)]
pub(crate) struct ClientSide {
    pub(crate) server: String,
    /// The revision asked for in `initialize` (legacy era; the modern era sets it per request).
    pub(crate) protocol_version: String,
    /// Results to forget when the server says they changed.
    pub(crate) cache: Arc<super::modern::cache::ResponseCache>,
    /// Tasks of this server, updated by `notifications/tasks`.
    pub(crate) tasks: Arc<super::tasks::TaskRegistry>,
    pub(crate) identity: ClientIdentity,
    /// The client capabilities declared (`initialize`, and each 2026-07-28 request's `_meta`).
    pub(crate) capabilities: Arc<Value>,
    /// Where server events go, rate-limited and size-capped.
    pub(crate) events: Arc<EventGate>,
    pub(crate) broker: Arc<Broker>,
    pub(crate) roots: Roots,
    pub(crate) progress: ProgressListeners,
    pub(crate) human_timeout: Duration,
}

impl ClientSide {
    fn emit(&self, event: ServerEvent) {
        self.events.send(event);
    }

    pub(crate) async fn elicit(&self, params: Value) -> Result<ClientResult, ErrorData> {
        let answer = self
            .broker
            .ask(
                &self.server,
                HumanRequestKind::Elicitation,
                params,
                self.human_timeout,
            )
            .await;
        if let Err(refused @ BrokerError::TooMany { .. }) = &answer {
            return Err(ErrorData::new(ErrorCode(-32000), refused.to_string(), None));
        }
        let body = match answer {
            Ok(HumanAnswer::Accept { content }) => json!({"action": "accept", "content": content}),
            Ok(HumanAnswer::Decline { .. }) => json!({"action": "decline"}),
            Ok(HumanAnswer::Cancel) | Err(_) => json!({"action": "cancel"}),
        };
        let result: ElicitResult = serde_json::from_value(body)
            .map_err(|e| ErrorData::internal_error(format!("bad elicitation answer: {e}"), None))?;
        Ok(ClientResult::ElicitResult(result))
    }

    pub(crate) async fn sample(&self, params: Value) -> Result<ClientResult, ErrorData> {
        let answer = self
            .broker
            .ask(
                &self.server,
                HumanRequestKind::Sampling,
                params,
                self.human_timeout,
            )
            .await;
        match answer {
            Ok(HumanAnswer::Accept { content }) => {
                let result: CreateMessageResult = serde_json::from_value(content).map_err(|e| {
                    ErrorData::internal_error(format!("bad sampling answer: {e}"), None)
                })?;
                Ok(ClientResult::CreateMessageResult(Box::new(result)))
            }
            Ok(HumanAnswer::Decline { reason }) => Err(ErrorData::new(
                ErrorCode(-1),
                reason.unwrap_or_else(|| "the user declined the sampling request".into()),
                None,
            )),
            Ok(HumanAnswer::Cancel) => Err(ErrorData::new(
                ErrorCode(-1),
                "the user cancelled the sampling request",
                None,
            )),
            Err(BrokerError::TimedOut(d)) => Err(ErrorData::new(
                ErrorCode(-1),
                format!(
                    "nobody answered the sampling request within {}s",
                    d.as_secs()
                ),
                None,
            )),
            Err(BrokerError::Withdrawn) => Err(ErrorData::new(
                ErrorCode(-1),
                "the sampling request was withdrawn",
                None,
            )),
            Err(refused @ BrokerError::TooMany { .. }) => {
                Err(ErrorData::new(ErrorCode(-32000), refused.to_string(), None))
            }
        }
    }

    /// Progress and log notifications, handled as the transport reads them (see
    /// `FrameTransport::with_in_order`): rmcp handles each notification on a task of its own,
    /// which showed a server's log lines out of the order it sent them. Returns whether rmcp
    /// has no use for the notification (a log line; progress also resets rmcp's timeouts).
    pub(crate) fn in_order(&self, notification: &ServerNotification) -> bool {
        let server = self.server.clone();
        match notification {
            ServerNotification::ProgressNotification(n) => {
                let p = &n.params;
                let token = serde_json::to_value(&p.progress_token).unwrap_or(Value::Null);
                let listener = self
                    .progress
                    .lock()
                    .get(&progress_key(&p.progress_token))
                    .cloned();
                if let Some(tx) = listener {
                    let _ = tx.send(ProgressUpdate {
                        progress: p.progress,
                        total: p.total,
                        message: p.message.clone(),
                    });
                }
                self.emit(ServerEvent::Progress {
                    server,
                    token,
                    progress: p.progress,
                    total: p.total,
                    message: p.message.clone(),
                });
                false
            }
            ServerNotification::LoggingMessageNotification(n) => {
                let level = serde_json::to_value(n.params.level)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "info".into());
                self.emit(ServerEvent::Log {
                    server,
                    level,
                    logger: n.params.logger.clone(),
                    data: n.params.data.clone(),
                });
                true
            }
            _ => false,
        }
    }

    pub(crate) fn list_roots(&self) -> Result<ClientResult, ErrorData> {
        let roots = self.roots.read().clone();
        let roots: Vec<Value> = roots
            .iter()
            .map(|r| match &r.name {
                Some(name) => json!({"uri": r.uri, "name": name}),
                None => json!({"uri": r.uri}),
            })
            .collect();
        self.emit(ServerEvent::RootsListed {
            server: self.server.clone(),
            count: roots.len(),
        });
        let result: ListRootsResult = serde_json::from_value(json!({ "roots": roots }))
            .map_err(|e| ErrorData::internal_error(format!("bad roots: {e}"), None))?;
        Ok(ClientResult::ListRootsResult(result))
    }
}

impl Service<RoleClient> for ClientSide {
    async fn handle_request(
        &self,
        request: ServerRequest,
        _context: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        match request {
            ServerRequest::PingRequest(_) => Ok(ClientResult::empty(())),
            ServerRequest::ElicitRequest(r) => {
                let params = serde_json::to_value(&r.params).unwrap_or(Value::Null);
                self.elicit(params).await
            }
            ServerRequest::CreateMessageRequest(r) => {
                let params = serde_json::to_value(&r.params).unwrap_or(Value::Null);
                self.sample(params).await
            }
            ServerRequest::ListRootsRequest(_) => self.list_roots(),
            // rmcp's typed params are narrower than the spec's schemas (an optional field as
            // `anyOf [T, null]`, nested objects, new fields): a known method whose params it
            // could not type arrives here and is still answered, from the raw params.
            ServerRequest::CustomRequest(r) => match r.method.as_str() {
                "elicitation/create" => self.elicit(known_params(r.params)?).await,
                "sampling/createMessage" => self.sample(known_params(r.params)?).await,
                "roots/list" => self.list_roots(),
                "ping" => Ok(ClientResult::empty(())),
                _ => Err(ErrorData::new(
                    ErrorCode::METHOD_NOT_FOUND,
                    format!("mcplab does not implement `{}`", r.method),
                    None,
                )),
            },
            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "mcplab does not implement this request",
                None,
            )),
        }
    }

    async fn handle_notification(
        &self,
        notification: ServerNotification,
        _context: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        let server = self.server.clone();
        self.forget_changed(&notification);
        match notification {
            // Handled in order by the transport (`in_order`).
            ServerNotification::ProgressNotification(_)
            | ServerNotification::LoggingMessageNotification(_) => {}
            ServerNotification::ResourceUpdatedNotification(n) => {
                self.emit(ServerEvent::ResourceUpdated {
                    server,
                    uri: n.params.uri.to_string(),
                });
            }
            ServerNotification::ResourceListChangedNotification(_) => {
                self.emit(list_changed(server, "resources"))
            }
            ServerNotification::ToolListChangedNotification(_) => {
                self.emit(list_changed(server, "tools"))
            }
            ServerNotification::PromptListChangedNotification(_) => {
                self.emit(list_changed(server, "prompts"))
            }
            ServerNotification::CancelledNotification(n) => {
                self.emit(ServerEvent::Cancelled {
                    server,
                    request_id: serde_json::to_value(&n.params.request_id).unwrap_or(Value::Null),
                    reason: n.params.reason,
                });
            }
            // Tasks and subscription acknowledgements (2026-07-28, the tasks extension) and
            // 2025-11-25 task status; custom notifications are visible in the traffic view.
            other => self.modern_notification(other),
        }
        Ok(())
    }

    fn get_info(&self) -> ClientConfig {
        let info = json!({
            "protocolVersion": self.protocol_version,
            "capabilities": self.capabilities.as_ref(),
            "clientInfo": { "name": self.identity.name, "version": self.identity.version },
        });
        serde_json::from_value(info).expect("the client info literal matches the MCP schema")
    }
}

/// The params of a request we answer from raw JSON: they must at least be an object.
fn known_params(params: Option<Value>) -> Result<Value, ErrorData> {
    match params {
        Some(p @ Value::Object(_)) => Ok(p),
        other => Err(ErrorData::invalid_params(
            format!(
                "the request's params must be an object, got {}",
                other.unwrap_or(Value::Null)
            ),
            None,
        )),
    }
}

fn list_changed(server: String, list: &str) -> ServerEvent {
    ServerEvent::ListChanged {
        server,
        list: list.to_owned(),
    }
}
