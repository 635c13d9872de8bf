//! `ApiFailure`: every API error as an HTTP status plus the protocol's `ApiError` body with a
//! stable machine code and a message for people. Mapping from core errors lives here, once.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use mcplab_core::mcp::McpError;
use mcplab_core::store::StoreError;
use mcplab_protocol::api::ApiError;

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
            _ => Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
        }
    }
}

impl From<McpError> for ApiFailure {
    fn from(e: McpError) -> Self {
        match &e {
            McpError::InvalidConfig(_) | McpError::InvalidRequest(_) => {
                Self::new(StatusCode::BAD_REQUEST, "invalid_config", e.to_string())
            }
            McpError::NotConnected(_) => {
                Self::new(StatusCode::CONFLICT, "not_connected", e.to_string())
            }
            _ => Self::new(StatusCode::BAD_GATEWAY, "connect_failed", e.to_string()),
        }
    }
}

impl From<mcplab_core::render::RenderError> for ApiFailure {
    fn from(e: mcplab_core::render::RenderError) -> Self {
        use mcplab_core::render::RenderError as R;
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
        Self::new(status, code, e.to_string())
    }
}
