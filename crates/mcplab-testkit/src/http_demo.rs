//! The fixture server over streamable HTTP (`mcplab demo-server --http ADDR`, and tests that
//! need a real HTTP server): rmcp's streamable HTTP service at `/mcp`, which serves 2026-07-28
//! requests statelessly (validating the `Mcp-*` request headers) and older clients in
//! sessions. Every request and session shares one fixture state, so a task created by one
//! request is found by the next. Loopback hosts only.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio_util::sync::CancellationToken;

use crate::{FixtureServer, ServeError};

/// Serves until `cancel` fires; returns the address it listens on once bound.
pub async fn serve_http(
    listener: tokio::net::TcpListener,
    cancel: CancellationToken,
) -> Result<(), ServeError> {
    let server = FixtureServer::new();
    let config =
        StreamableHttpServerConfig::default().with_cancellation_token(cancel.child_token());
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { cancel.cancelled().await })
        .await?;
    Ok(())
}

/// Binds `addr` (use port 0 for a free one) and serves in the background.
pub async fn spawn_http(addr: SocketAddr) -> Result<(SocketAddr, CancellationToken), ServeError> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        if let Err(error) = serve_http(listener, stop).await {
            tracing::warn!(%error, "the HTTP demo server stopped");
        }
    });
    Ok((bound, cancel))
}
