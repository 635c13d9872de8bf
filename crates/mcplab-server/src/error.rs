//! `ApiFailure`: every API error as an HTTP status plus the protocol's `ApiError` body with a
//! stable machine code and a message for people. Mapping from core errors lives here, once.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcplab_mcp::McpError;
use mcplab_protocol::api::{ApiError, CallErrorKind};
use mcplab_store::StoreError;

#[derive(Debug)]
pub struct ApiFailure {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiFailure {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        let body = ApiError {
            code: self.code.to_owned(),
            message: self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<StoreError> for ApiFailure {
    fn from(e: StoreError) -> Self {
        match &e {
            StoreError::NotFound(_) => Self::not_found(e.to_string()),
            StoreError::Conflict(_) => Self::new(StatusCode::CONFLICT, "conflict", e.to_string()),
            StoreError::OrderMismatch { .. } => {
                Self::new(StatusCode::CONFLICT, "order_mismatch", e.to_string())
            }
            _ => Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
        }
    }
}

/// How an MCP failure is answered, decided once for every route (listings, calls, tasks,
/// skills, apps): the HTTP status and stable code of an `ApiError`, and the `CallErrorKind` a
/// call route puts in its `CallOutcome` instead. The table is documented on `ApiError`.
pub(crate) fn mcp_failure(e: &McpError) -> (StatusCode, &'static str, CallErrorKind) {
    use CallErrorKind as K;
    match e {
        // The caller's fault: nothing (useful) reached the server.
        McpError::InvalidConfig(_) => (StatusCode::BAD_REQUEST, "invalid_config", K::Invalid),
        McpError::InvalidParams(_) => (StatusCode::BAD_REQUEST, "invalid_params", K::Invalid),
        McpError::NotConnected(_) => (StatusCode::CONFLICT, "not_connected", K::NotConnected),
        // Cancelled by another request (a cancel route, a disconnect): the state changed under
        // this one. 409 rather than nginx's 499, which no client ever reads.
        McpError::Cancelled => (StatusCode::CONFLICT, "cancelled", K::Cancelled),
        McpError::Spawn { .. } | McpError::Connect { .. } => {
            (StatusCode::BAD_GATEWAY, "connect_failed", K::Transport)
        }
        McpError::Transport { .. } => (StatusCode::BAD_GATEWAY, "connection_lost", K::Transport),
        McpError::Server { .. } => (StatusCode::BAD_GATEWAY, "server_error", K::Server),
        McpError::BadResponse { .. } => (StatusCode::BAD_GATEWAY, "bad_response", K::BadResponse),
        McpError::Misbehaved { .. } => (
            StatusCode::BAD_GATEWAY,
            "server_misbehaved",
            K::ServerMisbehaved,
        ),
        McpError::Timeout { .. } => (StatusCode::GATEWAY_TIMEOUT, "timeout", K::Timeout),
        McpError::Other(_) => (StatusCode::BAD_GATEWAY, "mcp_failed", K::Other),
    }
}

impl From<McpError> for ApiFailure {
    fn from(e: McpError) -> Self {
        let (status, code, _) = mcp_failure(&e);
        Self::new(status, code, e.to_string())
    }
}

impl From<mcplab_render::RenderError> for ApiFailure {
    fn from(e: mcplab_render::RenderError) -> Self {
        use mcplab_render::RenderError as R;
        let (status, code) = match &e {
            R::ChromiumNotFound { .. } => (StatusCode::SERVICE_UNAVAILABLE, "chromium_not_found"),
            R::Launch { .. } => (StatusCode::SERVICE_UNAVAILABLE, "chromium_failed"),
            R::ReportTimeout { .. } => (StatusCode::GATEWAY_TIMEOUT, "render_timeout"),
            R::NoReport { .. }
            | R::Navigation(_)
            | R::Page(_)
            | R::Cdp(_)
            | R::Command { .. }
            | R::CommandTimeout { .. } => (StatusCode::BAD_GATEWAY, "render_failed"),
        };
        // The web shows these messages; the fixes are this binary's (core names none).
        let advice = match &e {
            R::ChromiumNotFound { .. } => {
                ": install the `chromium` package, or restart with `mcplab serve --chromium PATH`"
            }
            R::NoReport { .. } => {
                " (rebuild it with `npm --prefix web run build`, then restart mcplab)"
            }
            _ => "",
        };
        Self::new(status, code, format!("{e}{advice}"))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// Every MCP failure keeps its own code; none is labelled a connect failure but connects.
    #[test]
    fn each_mcp_failure_has_its_own_code_and_status() {
        let cases = [
            (McpError::InvalidParams("x".into()), 400, "invalid_params"),
            (McpError::NotConnected("s".into()), 409, "not_connected"),
            (McpError::Cancelled, 409, "cancelled"),
            (
                McpError::Server {
                    code: -32603,
                    message: "boom".into(),
                    data: None,
                },
                502,
                "server_error",
            ),
            (
                McpError::Timeout {
                    method: "tools/list".into(),
                    after: Duration::from_secs(1),
                },
                504,
                "timeout",
            ),
            (
                McpError::Misbehaved {
                    server: "s".into(),
                    message: "m".into(),
                },
                502,
                "server_misbehaved",
            ),
            (
                McpError::Transport {
                    message: "gone".into(),
                },
                502,
                "connection_lost",
            ),
            (McpError::Other("?".into()), 502, "mcp_failed"),
        ];
        for (e, status, code) in cases {
            let f = ApiFailure::from(e);
            assert_eq!((f.status.as_u16(), f.code), (status, code), "{}", f.message);
        }
    }
}
