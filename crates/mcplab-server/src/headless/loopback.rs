//! An API and app sandbox of their own on loopback ports, over connections the caller owns:
//! what headless Chromium signs in to for a render. The store is in memory and lists only the
//! servers given; nothing is written to disk. Dropping the [`LoopbackApi`] stops serving.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::ConnectionManager;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_render::{RenderError, Rendered};
use mcplab_store::{Store, StoreError};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::listen::{serve_app, start_sandbox};
use crate::{AppState, Security, generate_token};

/// How long [`LoopbackApi::stop`] waits for the API to finish its responses.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Why a headless render could not happen (the app's own failures are in the report).
#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    #[error("cannot open the {what} listener on 127.0.0.1: {source}")]
    Listen {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("the in-memory store for the render failed: {0}")]
    Store(#[from] StoreError),
    #[error("the server has no tool named `{0}`")]
    NoSuchTool(String),
    #[error("tool `{0}` has no UI to render (no _meta.ui.resourceUri or openai/outputTemplate)")]
    NoUi(String),
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// This process's API and app sandbox, served on loopback ports of their own.
pub struct LoopbackApi {
    origin: String,
    state: Arc<AppState>,
    stop: CancellationToken,
    api: Option<JoinHandle<std::io::Result<()>>>,
    sandbox: JoinHandle<std::io::Result<()>>,
}

impl LoopbackApi {
    /// Serves the API over `manager`'s connections (connected or not: the caller decides) with
    /// a store listing `servers`, and the app sandbox beside it.
    pub async fn start(
        manager: Arc<ConnectionManager>,
        servers: &[ServerConfig],
    ) -> Result<Self, HeadlessError> {
        let listener = bind("render API").await?;
        let sandbox = bind("app sandbox").await?;
        let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
        let store = Store::open_in_memory()?;
        for s in servers {
            store.insert_server(s)?;
        }
        let state = AppState::new(
            manager,
            Arc::new(store),
            Security::new(generate_token(), port, None),
            mcplab_llm::ProviderSettings::default(),
        );
        let (_, sandbox) = start_sandbox(&state, sandbox, port, None);
        let stop = CancellationToken::new();
        let stopped = stop.clone();
        let api = tokio::spawn(serve_app(listener, state.clone(), async move {
            stopped.cancelled().await
        }));
        Ok(Self {
            origin: format!("http://127.0.0.1:{port}"),
            state,
            stop,
            api: Some(api),
            sandbox,
        })
    }

    /// Where the API is served, e.g. `http://127.0.0.1:41234`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The state the API serves (its security holds the launch secret).
    pub fn state(&self) -> &Arc<AppState> {
        &self.state
    }

    /// Renders `spec` in the Chromium at `chromium`, signed in to this API with a one-time
    /// code (the spec stays in this process; Chromium gets a single-use render id). Dropping
    /// the future stops Chromium.
    pub async fn render(
        &self,
        chromium: &Path,
        spec: &AppRenderSpec,
    ) -> Result<Rendered, RenderError> {
        let url = self.state.render_sign_in_url(&self.origin, spec.clone());
        mcplab_render::render(chromium, &url, spec).await
    }

    /// Stops serving, giving the API a moment to finish what it is answering.
    pub async fn stop(mut self) {
        self.stop.cancel();
        if let Some(api) = self.api.take()
            && tokio::time::timeout(STOP_GRACE, api).await.is_err()
        {
            tracing::debug!("the loopback API did not stop in time");
        }
    }
}

impl Drop for LoopbackApi {
    fn drop(&mut self) {
        self.stop.cancel();
        self.sandbox.abort();
    }
}

/// Renders `spec` once: serves a [`LoopbackApi`] over `manager` (its store listing
/// `servers`), renders in the Chromium at `chromium`, and stops serving. The app's own failures
/// are in the report (`mcplab_render::verdict` reads it).
pub async fn render_once(
    manager: Arc<ConnectionManager>,
    servers: &[ServerConfig],
    chromium: &Path,
    spec: &AppRenderSpec,
) -> Result<Rendered, HeadlessError> {
    let api = LoopbackApi::start(manager, servers).await?;
    let rendered = api.render(chromium, spec).await;
    api.stop().await;
    Ok(rendered?)
}

async fn bind(what: &'static str) -> Result<TcpListener, HeadlessError> {
    TcpListener::bind(SocketAddr::new(IpAddr::from([127, 0, 0, 1]), 0))
        .await
        .map_err(|source| HeadlessError::Listen { what, source })
}

/// The tool named `name` in a `tools/list` result, when it links an app (an MCP Apps
/// `_meta.ui.resourceUri` or an OpenAI `openai/outputTemplate`).
pub fn app_tool<'a>(tools: &'a Value, name: &str) -> Result<&'a Value, HeadlessError> {
    let tool = tools["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["name"].as_str() == Some(name))
        .ok_or_else(|| HeadlessError::NoSuchTool(name.to_owned()))?;
    match mcplab_apps::ui_link(tool) {
        Some(_) => Ok(tool),
        None => Err(HeadlessError::NoUi(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_tool_that_links_an_app_is_found() {
        let tools = json!({"tools": [
            {"name": "plain"},
            {"name": "app", "_meta": {"ui": {"resourceUri": "ui://app"}}},
        ]});
        assert_eq!(app_tool(&tools, "app").unwrap()["name"], "app");
        assert!(matches!(
            app_tool(&tools, "plain"),
            Err(HeadlessError::NoUi(_))
        ));
        assert!(matches!(
            app_tool(&tools, "nope"),
            Err(HeadlessError::NoSuchTool(_))
        ));
    }
}
