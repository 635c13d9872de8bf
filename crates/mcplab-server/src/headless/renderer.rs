//! The `appRendered` check's renderer for eval runs, the CLI's and the Evals page's alike: on
//! the first render under a client declaration it starts a [`LoopbackApi`] over that
//! declaration's connections (one per declaration, so a host's app reads through its own
//! connections), then renders each app there, one at a time. The APIs stop when the renderer
//! is dropped. [`LoopbackRenderer::render_whole`] also returns the PNG (`mcplab mcp`'s
//! `render_app`).

use std::path::PathBuf;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_evalrun::AppRenderer;
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::ClientDeclaration;
use mcplab_render::Rendered;
use parking_lot::Mutex;
use serde_json::Value;

use super::loopback::LoopbackApi;

type Served = tokio::sync::OnceCell<Result<LoopbackApi, String>>;

struct Inner {
    servers: Vec<ServerConfig>,
    chromium: PathBuf,
    /// The API served per client declaration, started on first use.
    served: Mutex<Vec<(ClientDeclaration, Arc<Served>)>>,
    one_at_a_time: tokio::sync::Semaphore,
}

impl Inner {
    /// The API serving `client`'s connections (made on first use).
    fn cell(&self, client: &ClientDeclaration) -> Arc<Served> {
        let mut served = self.served.lock();
        if let Some((_, cell)) = served.iter().find(|(c, _)| c == client) {
            return cell.clone();
        }
        let cell = Arc::new(Served::new());
        served.push((client.clone(), cell.clone()));
        cell
    }
}

/// Renders each app through the connections of the host it ran under.
#[derive(Clone)]
pub struct LoopbackRenderer(Arc<Inner>);

impl LoopbackRenderer {
    /// A renderer over a run's `servers` with the Chromium at `chromium`.
    pub fn new(servers: Vec<ServerConfig>, chromium: PathBuf) -> Self {
        Self(Arc::new(Inner {
            servers,
            chromium,
            served: Mutex::new(Vec::new()),
            one_at_a_time: tokio::sync::Semaphore::new(1),
        }))
    }

    /// Renders one app and returns the PNG with the report. `server` joins the served store
    /// first (a caller that connects servers as it goes, like `mcplab mcp`).
    pub fn render_whole(
        &self,
        manager: Arc<ConnectionManager>,
        server: ServerConfig,
        spec: AppRenderSpec,
    ) -> BoxFuture<'static, Result<Rendered, String>> {
        render_in(self.0.clone(), manager, Some(server), spec).boxed()
    }
}

impl AppRenderer for LoopbackRenderer {
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

/// Renders through the API serving `manager`'s declaration (started on first use).
async fn render_in(
    inner: Arc<Inner>,
    manager: Arc<ConnectionManager>,
    server: Option<ServerConfig>,
    spec: AppRenderSpec,
) -> Result<Rendered, String> {
    let cell = inner.cell(manager.client());
    let api = cell
        .get_or_init(|| async {
            LoopbackApi::start(manager, &inner.servers)
                .await
                .map_err(|e| e.to_string())
        })
        .await
        .as_ref()
        .map_err(Clone::clone)?;
    if let Some(server) = server {
        api.state()
            .store
            .upsert_server(&server)
            .map_err(|e| e.to_string())?;
    }
    let _one = inner
        .one_at_a_time
        .acquire()
        .await
        .map_err(|e| e.to_string())?;
    api.render(&inner.chromium, &spec)
        .await
        .map_err(|e| e.to_string())
}
