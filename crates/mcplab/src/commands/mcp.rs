//! `mcplab mcp`: mcplab as an MCP server for the coding agent that writes a server. This file
//! only composes: the configured servers and the `--allow-*` patterns become the allow-list,
//! the data directory gives host profiles, providers, prices and the store for evals, and
//! Chromium (when there is one) a renderer; `--timeout` and `--limit` set the deadlines and byte
//! budget of the servers under test; `--attach` mirrors the agent's traffic into a running
//! `mcplab serve` and lets the agent read the person's there (`mcp_attach.rs`). `mcplab_agent::Agent` holds the tools and mcplab-mcp's
//! `tool_server` serves them on stdio or loopback HTTP. When serving ends — the
//! client closed stdin, Ctrl-C, SIGTERM — every server the agent started is stopped.

use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_agent::{Agent, AllowList, AppRender, EvalSetup, RenderRequest, Rendered, Setup};
use mcplab_evalrun::AppRenderer;
use mcplab_mcp::tool_server::{self, ToolHost};
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::headless::LoopbackRenderer;
use mcplab_store::Store;
use tokio_util::sync::CancellationToken;

use crate::cli::McpArgs;
use crate::failure::Failure;
use crate::settings::{self, Settings};

pub async fn run(args: McpArgs, settings: &Settings) -> Result<(), Failure> {
    let store = Arc::new(settings.data.store()?);
    let configured = store.servers().map_err(|e| Failure::usage(e.to_string()))?;
    let allow = AllowList::new(configured.clone(), &args.allow_commands, &args.allow_urls)
        .map_err(|e| Failure::usage(format!("{e} (--allow-command/--allow-url)")))?;
    let mut options = ManagerOptions {
        // The agent lists again after `restart`; nothing refreshes lists unasked.
        listen_for_changes: false,
        // 2026-07-28 servers log only when a request asks: `notifications` shows everything.
        log_level: Some("debug".into()),
        ..ManagerOptions::default()
    };
    let timeout = args
        .timeout
        .map(|secs| crate::cli::limits::seconds(secs, "--timeout"))
        .transpose()?;
    args.limits.resolve(timeout)?.apply(timeout, &mut options);
    let attached = match args.attach {
        true => {
            options.identity.name = super::mcp_attach::AGENT_CLIENT.into();
            Some(super::mcp_attach::inspector(&settings.data).await?)
        }
        false => None,
    };
    let chromium = settings::chromium(settings.chromium.as_deref()).filter(|p| p.is_file());
    let renderer: Result<Arc<dyn AppRender>, String> = match &chromium {
        Some(path) => Ok(Arc::new(AgentRenderer(LoopbackRenderer::new(
            configured.clone(),
            path.clone(),
        )))),
        None => Err(
            "Chromium not found: install the `chromium` package or start mcplab mcp \
                     with --chromium PATH"
                .into(),
        ),
    };
    let inspector = match &attached {
        Some(target) => Some(
            Arc::new(super::mcp_attach::InspectorApi::new(target.clone())?)
                as Arc<dyn mcplab_agent::Inspector>,
        ),
        None => None,
    };
    let setup = Setup {
        inspector,
        allow,
        hosts: super::hosts::load(&settings.data)?,
        manager_options: options.clone(),
        evals: Ok(eval_setup(store, settings, chromium, configured)?),
        renderer,
    };
    let manager = ConnectionManager::new(options);
    let mirror_stop = CancellationToken::new();
    let mirror = attached.map(|target| {
        tokio::spawn(super::mcp_attach::mirror(
            manager.clone(),
            target,
            mirror_stop.clone(),
        ))
    });
    let agent = Agent::start(manager, setup);
    let host: Arc<dyn ToolHost> = Arc::new(agent.clone());
    let served = serve(host, args.http).await;
    agent.shutdown().await;
    mirror_stop.cancel();
    if let Some(task) = mirror {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), task).await;
    }
    served
}

/// Serves until the client goes away (stdio) or Ctrl-C / SIGTERM.
async fn serve(host: Arc<dyn ToolHost>, http: Option<std::net::SocketAddr>) -> Result<(), Failure> {
    let stop = CancellationToken::new();
    tokio::spawn(stop_on_signal(stop.clone()));
    let result = match http {
        None => tokio::select! {
            r = tool_server::serve_stdio(host) => r,
            _ = stop.cancelled() => Ok(()),
        },
        Some(addr) => {
            if !addr.ip().is_loopback() {
                return Err(Failure::usage(format!(
                    "--http {addr}: mcplab mcp listens on loopback only (127.0.0.1 or [::1])"
                )));
            }
            let listener = super::listen_for_mcp(addr, "mcplab mcp").await?;
            tool_server::serve_http(listener, host, stop).await
        }
    };
    result.map_err(|e| Failure::call(e.to_string()))
}

async fn stop_on_signal(stop: CancellationToken) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            stop.cancel();
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    stop.cancel();
}

/// What `eval_run` needs, as `mcplab eval run` gets it.
fn eval_setup(
    store: Arc<Store>,
    settings: &Settings,
    chromium: Option<std::path::PathBuf>,
    configured: Vec<mcplab_protocol::ServerConfig>,
) -> Result<EvalSetup, Failure> {
    let prices = mcplab_core::agent::cost::load_prices(settings.data.dir())
        .map_err(Failure::usage)?
        .table;
    let renderer: Result<Arc<dyn AppRenderer>, String> = match chromium {
        Some(path) => Ok(Arc::new(LoopbackRenderer::new(configured, path))),
        None => Err("Chromium not found (start mcplab mcp with --chromium PATH)".into()),
    };
    Ok(EvalSetup {
        providers: super::eval::provider_settings(&store),
        store,
        prices,
        http: mcplab_net::tls::client(),
        hosts_dir: Some(settings.data.dir().join("hosts")),
        renderer,
    })
}

/// `render_app` through the eval renderer's loopback API and sandbox.
struct AgentRenderer(LoopbackRenderer);

impl AppRender for AgentRenderer {
    fn render(
        &self,
        manager: Arc<ConnectionManager>,
        request: RenderRequest,
    ) -> BoxFuture<'static, Result<Rendered, String>> {
        self.0
            .render_whole(manager, request.server, request.spec)
            .boxed()
    }
}
