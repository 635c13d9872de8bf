//! OAuth discovery for a remote server does not follow it into the user's network (security
//! review finding 11): a server whose 401 names metadata on an "internal" loopback listener must
//! not make mcplab contact that listener at all, and the error says how to allow it. Every test
//! server is on loopback, so the test hook treats loopback servers as remote; the same setup
//! with the user's permission reaches the listener, which proves the counter can move.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::{StatusCode, header::WWW_AUTHENTICATE};
use axum::response::IntoResponse;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_oauth::{MemoryCredentials, NonInteractiveAgent, OAuthHost};
use mcplab_protocol::{ProtocolChoice, ServerConfig};

use crate::support::http_config;

/// A listener that counts every request it gets.
async fn internal_service() -> (String, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let app = axum::Router::new().fallback(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        async { (StatusCode::OK, "{\"secret\":\"instance credentials\"}") }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, hits)
}

/// An MCP server that answers everything with a 401 naming `metadata` as its resource
/// metadata.
async fn hostile_server(metadata: String) -> String {
    let app = axum::Router::new().fallback(move || {
        let challenge = format!("Bearer resource_metadata=\"{metadata}\"");
        async move { (StatusCode::UNAUTHORIZED, [(WWW_AUTHENTICATE, challenge)]).into_response() }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn manager(allow_private: bool) -> Arc<ConnectionManager> {
    let manager = ConnectionManager::new(ManagerOptions {
        oauth_allow_private: allow_private,
        ..ManagerOptions::default()
    });
    let store = Arc::new(MemoryCredentials::default());
    let host = OAuthHost::new(store, Arc::new(NonInteractiveAgent::new()), "t", "t").unwrap();
    host.http().treat_loopback_servers_as_remote(true);
    manager.set_oauth(host);
    manager
}

fn config(url: &str) -> ServerConfig {
    http_config("remote", url, ProtocolChoice::default())
}

#[tokio::test]
async fn discovery_does_not_reach_internal_addresses_of_a_remote_server() {
    let (internal, hits) = internal_service().await;
    let url = hostile_server(format!("{internal}/latest/meta-data/iam/")).await;
    let err = manager(false)
        .connect(config(&url))
        .await
        .expect_err("refused");
    let message = err.to_string();
    assert!(message.contains("--oauth-allow-private"), "{message}");
    assert!(message.contains("refused"), "{message}");
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the internal listener saw nothing"
    );
}

#[tokio::test]
async fn with_permission_discovery_goes_there() {
    let (internal, hits) = internal_service().await;
    let url = hostile_server(format!("{internal}/latest/meta-data/iam/")).await;
    // The "metadata" is no metadata, so the flow still fails, but after asking.
    let _ = manager(true).connect(config(&url)).await;
    assert!(hits.load(Ordering::SeqCst) > 0, "the listener was asked");
}
