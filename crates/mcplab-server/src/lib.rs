//! The HTTP edge of mcplab: the `/api` routes over the core's connection manager and store,
//! the host event stream, the security checks of DESIGN.md §3 (per-launch token, Host
//! allow-list, Origin check) and the embedded web UI. It calls core; it spawns nothing itself
//! and reads no environment: the binary hands it everything in [`AppState`].

mod assets;
pub mod chat;
mod error;
pub mod events;
mod routes;
pub mod sandbox;
pub mod security;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use mcplab_core::mcp::ConnectionManager;
use mcplab_core::store::Store;
use tokio_util::sync::CancellationToken;

pub use error::ApiFailure;
pub use events::EventHub;
pub use security::{Security, generate_token};

/// Everything the routes need.
pub struct AppState {
    pub manager: Arc<ConnectionManager>,
    pub store: Arc<Store>,
    pub events: Arc<EventHub>,
    pub security: Security,
    /// In-flight tool calls by (server, callId), so the UI can cancel them.
    pub calls: Mutex<HashMap<(String, String), CancellationToken>>,
    /// LLM provider settings from the environment.
    pub llm: chat::LlmSettings,
    /// Live chat sessions.
    pub chats: chat::ChatHub,
    /// The sandbox origin UI HTML runs in (`http://127.0.0.1:<port>`), once its listener is
    /// bound; unset when no sandbox runs (apps then say so instead of rendering).
    pub sandbox_origin: std::sync::OnceLock<String>,
}

impl AppState {
    /// Wires the state together and starts forwarding manager events into the hub.
    pub fn new(
        manager: Arc<ConnectionManager>,
        store: Arc<Store>,
        security: Security,
        providers: mcplab_core::llm::ProviderSettings,
    ) -> Arc<Self> {
        let events = EventHub::start(&manager);
        Arc::new(Self {
            manager,
            store,
            events,
            security,
            calls: Mutex::new(HashMap::new()),
            llm: chat::LlmSettings::new(providers),
            chats: chat::ChatHub::default(),
            sandbox_origin: std::sync::OnceLock::new(),
        })
    }
}

/// The whole application: `/auth`, `/api/*` behind the security layer, and the UI.
pub fn router(state: Arc<AppState>) -> Router {
    let api = routes::api().route_layer(axum::middleware::from_fn_with_state(
        state.clone(),
        security::require_token,
    ));
    Router::new()
        .nest("/api", api)
        .route("/auth", axum::routing::get(security::auth_redirect))
        .fallback(assets::serve)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::check_host_and_origin,
        ))
        .with_state(state)
}
