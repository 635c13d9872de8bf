//! Protocol revision 2026-07-28 ("modern") beside the initialize-handshake revisions
//! ("legacy"): choosing the era per server ([`era`]), the request metadata headers of
//! streamable HTTP ([`headers`]) and its wire ([`http`]), multi-round-trip requests ([`mrtr`]),
//! cacheable results ([`cache`]), the cost of `auto`'s probe on stdio ([`probe`]) and the
//! notifications only this era (and its extensions) sends. The connection, manager and handler call in here; rmcp's lifecycle modes do the
//! per-request `_meta` stamping.

pub mod cache;
pub mod era;
pub mod headers;
pub mod http;
pub mod listen;
pub mod mrtr;
pub mod probe;

use mcplab_protocol::ServerEvent;
use mcplab_protocol::host::ClientDeclaration;
use rmcp::model::{GetMeta, ServerNotification};
use serde_json::{Map, Value, json};

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
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The client capabilities mcplab declares, in `initialize` and in every 2026-07-28 request.
pub fn client_capabilities() -> Value {
    declared_capabilities(&ClientDeclaration::default())
}

/// The client capabilities a host declares (a host profile's `client` section): only what it
/// turns on, so a server sees exactly what that host would say.
pub fn declared_capabilities(d: &ClientDeclaration) -> Value {
    let mut caps = Map::new();
    if d.roots {
        caps.insert("roots".into(), json!({ "listChanged": true }));
    }
    if d.sampling {
        caps.insert("sampling".into(), json!({}));
    }
    let mut elicitation = Map::new();
    if d.elicitation_form {
        elicitation.insert("form".into(), json!({}));
    }
    if d.elicitation_url {
        elicitation.insert("url".into(), json!({}));
    }
    if !elicitation.is_empty() {
        caps.insert("elicitation".into(), Value::Object(elicitation));
    }
    let mut extensions = Map::new();
    if d.mcp_apps {
        extensions.insert(
            UI_EXTENSION.into(),
            json!({ "mimeTypes": ["text/html;profile=mcp-app"] }),
        );
    }
    if d.tasks {
        extensions.insert(TASKS_EXTENSION.into(), json!({}));
    }
    if d.skills {
        extensions.insert(SKILLS_EXTENSION.into(), json!({}));
    }
    if !extensions.is_empty() {
        caps.insert("extensions".into(), Value::Object(extensions));
    }
    Value::Object(caps)
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
                // The id is in `_meta`, which rmcp keeps beside the params, not in them.
                let id = notification
                    .get_meta()
                    .subscription_id()
                    .and_then(|id| serde_json::to_value(id).ok())
                    .unwrap_or(Value::Null);
                self.events.send(ServerEvent::SubscriptionAcknowledged {
                    server: self.server.clone(),
                    subscription_id: id,
                    notifications: params.get("notifications").cloned().unwrap_or_default(),
                });
            }
            _ => {}
        }
    }
}
