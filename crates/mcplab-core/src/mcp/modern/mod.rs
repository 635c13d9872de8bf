//! Protocol revision 2026-07-28 ("modern") beside the initialize-handshake revisions
//! ("legacy"): choosing the era per server ([`era`]), the request metadata headers of
//! streamable HTTP ([`headers`]) and its wire ([`http`]), multi-round-trip requests ([`mrtr`]),
//! cacheable results ([`cache`]) and the notifications only this era (and its extensions)
//! sends. The connection, manager and handler call in here; rmcp's lifecycle modes do the
//! per-request `_meta` stamping.

pub mod cache;
pub mod era;
pub mod headers;
pub mod http;
pub mod listen;
pub mod mrtr;

use mcplab_protocol::ServerEvent;
use rmcp::model::ServerNotification;
use serde_json::{Value, json};

use super::handler::{ClientSide, UI_EXTENSION};

/// The only modern revision.
pub const MODERN_REVISION: &str = "2026-07-28";
/// The legacy revision `auto` falls back to.
pub const LEGACY_REVISION: &str = "2025-11-25";
/// Extension identifiers mcplab declares.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
/// `_meta` keys of 2026-07-28 requests and notifications mcplab sets or reads.
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The client capabilities mcplab declares, in `initialize` and in every 2026-07-28 request.
pub fn client_capabilities() -> Value {
    json!({
        "roots": { "listChanged": true },
        "sampling": {},
        "elicitation": { "form": {}, "url": {} },
        "extensions": {
            UI_EXTENSION: { "mimeTypes": ["text/html;profile=mcp-app"] },
            TASKS_EXTENSION: {},
            SKILLS_EXTENSION: {},
        },
    })
}

impl ClientSide {
    /// Forgets cached results a change notification makes stale.
    pub(crate) fn forget_changed(&self, notification: &ServerNotification) {
        match notification {
            ServerNotification::ToolListChangedNotification(_) => {
                self.cache.invalidate("tools", None)
            }
            ServerNotification::PromptListChangedNotification(_) => {
                self.cache.invalidate("prompts", None)
            }
            ServerNotification::ResourceListChangedNotification(_) => {
                self.cache.invalidate("resources", None)
            }
            ServerNotification::ResourceUpdatedNotification(n) => self
                .cache
                .invalidate("resources", Some(n.params.uri.as_str())),
            _ => {}
        }
    }

    /// Notifications of 2026-07-28 and its extensions (and 2025-11-25 task status).
    pub(crate) fn modern_notification(&self, notification: ServerNotification) {
        let Ok(value) = serde_json::to_value(&notification) else {
            return;
        };
        let method = value.get("method").and_then(Value::as_str).unwrap_or("");
        let params = value.get("params").cloned().unwrap_or(Value::Null);
        match method {
            "notifications/tasks" | "notifications/tasks/status" => {
                if let Some(view) = self.tasks.observe(&self.server, &params, "notification") {
                    self.events.send(ServerEvent::Task {
                        task: Box::new(view),
                    });
                }
            }
            "notifications/subscriptions/acknowledged" => {
                let id = params
                    .pointer(&format!(
                        "/_meta/{}",
                        META_SUBSCRIPTION_ID.replace('/', "~1")
                    ))
                    .cloned()
                    .unwrap_or(Value::Null);
                self.events.send(ServerEvent::Log {
                    server: self.server.clone(),
                    level: "info".into(),
                    logger: Some("mcplab".into()),
                    data: json!({
                        "message": "subscription acknowledged",
                        "subscriptionId": id,
                        "notifications": params.get("notifications"),
                    }),
                });
            }
            _ => {}
        }
    }
}
