//! Events the MCP layer emits about servers: status changes, stderr, server notifications
//! and server-initiated requests that wait for a human. The CLI, the HTTP event stream and
//! tests all consume this one type, so they cannot disagree about what happened.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// How a request that waited for a person ended (`humanResolved.outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HumanOutcome {
    Accept,
    Decline,
    /// Cancelled by the person, or withdrawn (the call ended first).
    Cancel,
    /// Nobody answered in time.
    Timeout,
}

/// The status of one server connection; a failure always carries a message a user can act on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum ServerStatus {
    Connecting,
    Connected,
    Failed { message: String },
    Disconnected,
}

/// What a pending human request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum HumanRequestKind {
    /// `elicitation/create` (form or URL mode; see `params.mode`).
    Elicitation,
    /// `sampling/createMessage`.
    Sampling,
}

/// A server-initiated request waiting on a person (or a policy acting for one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HumanRequest {
    /// Broker key, unique within this mcplab process.
    pub id: u64,
    pub server: String,
    pub kind: HumanRequestKind,
    /// The request's params exactly as the server sent them.
    pub params: Value,
    /// When the request is answered with `cancel` automatically.
    pub timeout_ms: u64,
}

/// The answer to a [`HumanRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum HumanAnswer {
    /// Elicitation: accept with content. Sampling: the `CreateMessageResult` to return.
    Accept {
        #[serde(default)]
        content: Value,
    },
    Decline {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Cancel,
}

/// Something that happened on a server connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ServerEvent {
    Status {
        server: String,
        status: ServerStatus,
    },
    /// The server was added to the configuration (by a page, an import or the CLI): lists
    /// fetch its view. A connection it starts follows as `status` events.
    Added { server: String },
    /// The server's configuration changed in place: lists fetch its view again. A live
    /// connection keeps the old configuration until it reconnects.
    Updated { server: String },
    /// The server was removed from the configuration (its connection closed first): lists
    /// drop it, and selections of it fall back.
    Removed { server: String },
    /// The user put the configured servers in a new order (a page's drag, `mcplab servers
    /// move`): every list shows them as `servers` names them. Not about one server:
    /// [`ServerEvent::server`] is empty.
    Reordered { servers: Vec<String> },
    /// One line the server process wrote to stderr.
    Stderr { server: String, line: String },
    /// `notifications/message`.
    Log {
        server: String,
        level: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        logger: Option<String>,
        data: Value,
    },
    /// `notifications/progress`.
    Progress {
        server: String,
        token: Value,
        progress: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// `notifications/{tools,resources,prompts}/list_changed`; `list` is `tools`,
    /// `resources` or `prompts`.
    ListChanged { server: String, list: String },
    /// `notifications/resources/updated`.
    ResourceUpdated { server: String, uri: String },
    /// `notifications/cancelled` from the server.
    Cancelled {
        server: String,
        request_id: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The server asked something a person must answer.
    HumanRequested { request: HumanRequest },
    /// A human request got its answer (or timed out).
    HumanResolved {
        server: String,
        id: u64,
        outcome: HumanOutcome,
    },
    /// The server listed our roots.
    RootsListed { server: String, count: usize },
    /// Connecting needs the user to sign in: open `url` in a browser; the redirect back to
    /// mcplab continues the connection (its status follows as usual).
    AuthorizationRequired { server: String, url: String },
    /// A task was created or changed (status, result, input requests).
    Task { task: Box<crate::tasks::TaskView> },
    /// 2026-07-28 `notifications/subscriptions/acknowledged`: a `subscriptions/listen` request
    /// is open, honouring `notifications` (the subset of what was asked for the server agreed
    /// to) under `subscriptionId` (the listen request's id).
    SubscriptionAcknowledged {
        server: String,
        subscription_id: Value,
        notifications: Value,
    },
}

impl ServerEvent {
    /// The server the event is about (empty for `reordered`, which is about all of them).
    pub fn server(&self) -> &str {
        match self {
            ServerEvent::Status { server, .. }
            | ServerEvent::Stderr { server, .. }
            | ServerEvent::Log { server, .. }
            | ServerEvent::Progress { server, .. }
            | ServerEvent::ListChanged { server, .. }
            | ServerEvent::ResourceUpdated { server, .. }
            | ServerEvent::Cancelled { server, .. }
            | ServerEvent::Added { server }
            | ServerEvent::Updated { server }
            | ServerEvent::Removed { server }
            | ServerEvent::HumanResolved { server, .. }
            | ServerEvent::RootsListed { server, .. }
            | ServerEvent::AuthorizationRequired { server, .. }
            | ServerEvent::SubscriptionAcknowledged { server, .. } => server,
            ServerEvent::HumanRequested { request } => &request.server,
            ServerEvent::Task { task } => &task.server,
            ServerEvent::Reordered { .. } => "",
        }
    }
}
