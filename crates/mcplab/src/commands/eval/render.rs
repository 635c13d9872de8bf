//! The `appRendered` check's renderer for `mcplab eval run` (and for runs started from the
//! Evals page: `serve` hands it to the web server): on the first render under a host
//! declaration it serves this process's API and app sandbox on loopback ports of its own over
//! that declaration's connections (the plumbing `mcplab apps render` uses; one pair of
//! listeners per declaration, so a host's app reads through its own connections), then renders
//! each app with core's headless renderer, one at a time (`render_whole`: with the PNG, for
//! `mcplab mcp`). It stops serving when dropped.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_core::mcp::ConnectionManager;
use mcplab_core::store::Store;
use mcplab_evalrun::AppRenderer;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::ClientDeclaration;
use mcplab_server::{AppState, Security, generate_token};
use parking_lot::Mutex;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::serve::{serve_app, start_sandbox};

struct Inner {
    servers: Vec<ServerConfig>,
    chromium: PathBuf,
    /// The API and sandbox served per client declaration, started on first use.
    served: Mutex<Vec<(ClientDeclaration, Arc<ServedCell>)>>,
    one_at_a_time: tokio::sync::Semaphore,
}

type ServedCell = tokio::sync::OnceCell<Result<Served, String>>;

struct Served {
    origin: String,
    state: Arc<AppState>,
    stop: CancellationToken,
}

impl Drop for Inner {
    fn drop(&mut self) {
        let served = self.served.get_mut();
        for (_, cell) in served.iter() {
            if let Some(Ok(s)) = cell.get() {
                s.stop.cancel();
            }
        }
    }
}

impl Inner {
    /// The cell serving `client`'s connections (made on first use).
    fn cell(&self, client: &ClientDeclaration) -> Arc<ServedCell> {
        let mut served = self.served.lock();
        if let Some((_, cell)) = served.iter().find(|(c, _)| c == client) {
            return cell.clone();
        }
        let cell = Arc::new(ServedCell::new());
        served.push((client.clone(), cell.clone()));
        cell
    }
}

/// Renders each app through the connections of the host it ran under.
#[derive(Clone)]
pub struct CliRenderer(Arc<Inner>);

impl CliRenderer {
    pub fn new(servers: Vec<ServerConfig>, chromium: PathBuf) -> Self {
        Self(Arc::new(Inner {
            servers,
            chromium,
            served: Mutex::new(Vec::new()),
            one_at_a_time: tokio::sync::Semaphore::new(1),
        }))
    }
}

impl CliRenderer {
    /// Renders one app and returns the PNG with the report (`mcplab mcp`'s `render_app`).
    /// `server` joins the served store first: the agent connects servers as it goes.
    pub fn render_whole(
        &self,
        manager: Arc<ConnectionManager>,
        server: ServerConfig,
        spec: AppRenderSpec,
    ) -> BoxFuture<'static, Result<mcplab_core::render::Rendered, String>> {
        render_in(self.0.clone(), manager, Some(server), spec).boxed()
    }
}

impl AppRenderer for CliRenderer {
    fn render(
        &self,
        manager: Arc<ConnectionManager>,
        spec: AppRenderSpec,
    ) -> BoxFuture<'static, Result<Value, String>> {
        render_in(self.0.clone(), manager, None, spec)
            .map(|r| r.map(|r| r.report))
            .boxed()
    }
}

/// Renders through the API and sandbox serving `manager`'s declaration (started on first use).
async fn render_in(
    inner: Arc<Inner>,
    manager: Arc<ConnectionManager>,
    server: Option<ServerConfig>,
    spec: AppRenderSpec,
) -> Result<mcplab_core::render::Rendered, String> {
    let cell = inner.cell(manager.client());
    let served = cell
        .get_or_init(|| serve(manager, inner.servers.clone()))
        .await
        .as_ref()
        .map_err(Clone::clone)?;
    if let Some(server) = server {
        served
            .state
            .store
            .upsert_server(&server)
            .map_err(|e| e.to_string())?;
    }
    let _one = inner
        .one_at_a_time
        .acquire()
        .await
        .map_err(|e| e.to_string())?;
    // Chromium gets a one-time code and a single-use render id; the spec stays here.
    let url = served
        .state
        .render_sign_in_url(&served.origin, spec.clone());
    mcplab_core::render::render(&inner.chromium, &url, &spec)
        .await
        .map_err(|e| e.to_string())
}

/// Serves the API and the sandbox for the render page.
async fn serve(
    manager: Arc<ConnectionManager>,
    servers: Vec<ServerConfig>,
) -> Result<Served, String> {
    let loopback = IpAddr::from([127, 0, 0, 1]);
    let bind = |what: &'static str| async move {
        TcpListener::bind(SocketAddr::new(loopback, 0))
            .await
            .map_err(|e| format!("cannot open the {what} listener: {e}"))
    };
    let listener = bind("render API").await?;
    let sandbox = bind("app sandbox").await?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let store = Store::open_in_memory().map_err(|e| e.to_string())?;
    for s in &servers {
        store.insert_server(s).map_err(|e| e.to_string())?;
    }
    let state = AppState::new(
        manager,
        Arc::new(store),
        Security::new(generate_token(), port, None),
        mcplab_core::llm::ProviderSettings::default(),
    );
    let (_, sandbox_task) = start_sandbox(&state, sandbox, port, None);
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    let serving = state.clone();
    tokio::spawn(async move {
        let _ = serve_app(listener, serving, async move { stopped.cancelled().await }).await;
        sandbox_task.abort();
    });
    Ok(Served {
        origin: format!("http://127.0.0.1:{port}"),
        state,
        stop,
    })
}
