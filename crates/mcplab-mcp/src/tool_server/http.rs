//! A [`ToolHost`] over streamable HTTP at `/mcp`: rmcp's service, which keeps sessions for
//! clients of the handshake revisions and serves 2026-07-28 requests statelessly. Loopback
//! only: the listener must be bound to a loopback address, the `Host` header must name one
//! (DNS rebinding), and a request carrying any `Origin` is refused, so no web page can drive
//! it (MCP transports spec, "Security Warning"; the MCP clients of coding agents send none).

use std::sync::Arc;

use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio_util::sync::CancellationToken;

use super::{Handler, ServeError, ToolHost};

/// Serves `host` on `listener` until `cancel` fires. Refuses a listener that is not bound to
/// a loopback address.
pub async fn serve_http(
    listener: tokio::net::TcpListener,
    host: Arc<dyn ToolHost>,
    cancel: CancellationToken,
) -> Result<(), ServeError> {
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Listen(e.to_string()))?;
    if !addr.ip().is_loopback() {
        return Err(ServeError::Listen(format!(
            "{addr} is not a loopback address; mcplab serves MCP on 127.0.0.1 or ::1 only"
        )));
    }
    let handler = Handler::new(host)?;
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1", "[::1]"])
        .enforce_origin_validation()
        .with_cancellation_token(cancel.child_token());
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { cancel.cancelled().await })
        .await
        .map_err(|e| ServeError::Listen(e.to_string()))
}
