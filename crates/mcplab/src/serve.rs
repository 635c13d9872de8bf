//! `mcplab` / `mcplab serve`: the web inspector. Opens the store (seeding the demo server on
//! first run), applies `--config` and ad-hoc targets, binds loopback (next free port when the
//! default is busy), prints the one-time URL with the launch token, connects the servers in
//! the background, opens the browser, and on Ctrl-C/SIGTERM stops every server it started.
//! `start_sandbox` and `serve_app` are the listener plumbing `apps render` reuses.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use mcplab_core::config::parse_mcp_servers;
use mcplab_core::mcp::{ConnectionManager, ManagerOptions, RootEntry};
use mcplab_protocol::api::RootView;
use mcplab_protocol::{ServerConfig, ServerTransport};
use mcplab_server::sandbox::SandboxConfig;
use mcplab_server::{AppState, RenderHost, Security, generate_token, router};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::cli::Global;
use crate::failure::Failure;
use crate::settings::DataDir;
use crate::target;

/// The inspector's default port (the official inspector's, so muscle memory works).
pub const DEFAULT_PORT: u16 = 6274;
/// How many ports after the default are tried when it is busy.
const PORT_ATTEMPTS: u16 = 20;

pub async fn run(global: &Global, data: &DataDir) -> Result<(), Failure> {
    let store = Arc::new(data.store()?);
    let store_err = |e: mcplab_core::store::StoreError| Failure::usage(e.to_string());
    if store.is_new() {
        store.insert_server(&demo_server()?).map_err(store_err)?;
    }
    if let Some(file) = &global.serve.config {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
        for s in parse_mcp_servers(&text, &file.display().to_string()).map_err(Failure::config)? {
            store.upsert_server(&s).map_err(store_err)?;
        }
    }
    let ad_hoc = target::ad_hoc(&global.target, target::AD_HOC_NAME)?;
    if let Some(cfg) = &ad_hoc {
        store.upsert_server(cfg).map_err(store_err)?;
    }
    let only: Option<Vec<String>> = match &ad_hoc {
        Some(cfg) => Some(vec![cfg.name.clone()]),
        None if global.target.servers.is_empty() => None,
        None => {
            for name in &global.target.servers {
                store.server(name).map_err(store_err)?;
            }
            Some(global.target.servers.clone())
        }
    };

    let mut opts = ManagerOptions::default();
    global.limits.apply(global.timeout, &mut opts)?;
    let manager = ConnectionManager::new(opts);
    let roots: Vec<RootView> = store
        .setting("roots")
        .map_err(store_err)?
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    manager
        .set_roots(
            roots
                .into_iter()
                .map(|r| RootEntry {
                    uri: r.uri,
                    name: r.name,
                })
                .collect(),
        )
        .await;

    let (listener, host) = bind(&global.serve.host, global.serve.port).await?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let token = generate_token();
    let extra_host = host.filter(|h| !h.is_loopback()).map(|h| h.to_string());
    let security = Security::new(token.clone(), port, extra_host.as_deref());
    let env: std::collections::HashMap<String, String> = std::env::vars().collect();
    let providers = mcplab_core::llm::ProviderSettings::from_env(&env);
    let state = AppState::new(manager.clone(), store.clone(), security, providers);
    let sandbox_ip = host.unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let sandbox = bind_sandbox(sandbox_ip, port).await?;
    let shown_host = match host {
        Some(h) if !h.is_loopback() => h.to_string(),
        _ => "127.0.0.1".to_owned(),
    };
    let url = format!("http://{shown_host}:{port}/auth?token={token}");
    println!("mcplab is listening on http://{shown_host}:{port}");
    let (sandbox_origin, sandbox_task) =
        start_sandbox(&state, sandbox, port, &shown_host, extra_host.as_deref());
    println!("app sandbox origin: {sandbox_origin}");
    // Chromium reaches us on loopback unless we listen on one other address only.
    let self_host = match host {
        Some(h) if !h.is_loopback() && !h.is_unspecified() => h.to_string(),
        _ => "127.0.0.1".to_owned(),
    };
    let _ = state.render_host.set(RenderHost {
        self_origin: format!("http://{self_host}:{port}"),
        chromium: crate::settings::chromium(global.chromium.as_deref()),
    });
    println!("open {url}");

    let servers = store.servers().map_err(store_err)?;
    for cfg in servers {
        if only
            .as_ref()
            .is_some_and(|names| !names.contains(&cfg.name))
        {
            continue;
        }
        let m = manager.clone();
        tokio::spawn(async move {
            // Failures show as the server's status in the UI.
            let _ = m.connect(cfg).await;
        });
    }
    if !global.serve.no_open {
        open_browser(&url);
    }

    let shutdown = async {
        crate::session::wait_for_stop_signal().await;
        eprintln!("stopping: disconnecting servers");
    };
    let result = serve_app(listener, state, shutdown).await;
    sandbox_task.abort();
    manager.shutdown().await;
    result.map_err(|e| Failure::usage(format!("the web server failed: {e}")))
}

/// Serves the app sandbox origin on `listener` for the host on `host_port`, records its origin
/// in `state`, and returns the origin and the serving task (abort it to stop). Shared by
/// `serve` and `apps render`.
pub fn start_sandbox(
    state: &AppState,
    listener: TcpListener,
    host_port: u16,
    shown_host: &str,
    extra_host: Option<&str>,
) -> (String, JoinHandle<std::io::Result<()>>) {
    let sandbox_port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let config = SandboxConfig::loopback(host_port, sandbox_port, extra_host);
    let origin = format!("http://{shown_host}:{sandbox_port}");
    let _ = state.sandbox_origin.set(origin.clone());
    let app = mcplab_server::sandbox::sandbox_router(config);
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, task)
}

/// Serves `router(state)` on `listener` until `shutdown` completes. Shared by `serve` and
/// `apps render`.
pub async fn serve_app(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Events are small writes: without TCP_NODELAY, Nagle plus delayed ACKs can hold one back
    // for ~40 ms.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

fn demo_server() -> Result<ServerConfig, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot find the mcplab binary: {e}")))?;
    Ok(ServerConfig {
        name: "demo".into(),
        transport: ServerTransport::Stdio {
            command: exe.display().to_string(),
            args: vec!["demo-server".into()],
            env: Default::default(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
    })
}

/// Binds the listener: loopback by default; `--host` elsewhere with a warning. Without
/// `--port`, a busy default moves on to the next free port (said clearly).
async fn bind(
    host: &Option<String>,
    port: Option<u16>,
) -> Result<(TcpListener, Option<IpAddr>), Failure> {
    let ip: IpAddr = match host {
        Some(h) => h
            .parse()
            .map_err(|_| Failure::usage(format!("--host `{h}` is not an IP address")))?,
        None => IpAddr::from([127, 0, 0, 1]),
    };
    if !ip.is_loopback() {
        eprintln!(
            "WARNING: listening on {ip}, not loopback: anyone who can reach this address and \
             learns the token can start processes on this machine."
        );
    }
    let chosen = host.as_ref().map(|_| ip);
    if let Some(p) = port {
        let l = TcpListener::bind(SocketAddr::new(ip, p))
            .await
            .map_err(|e| Failure::usage(format!("cannot listen on {ip}:{p}: {e}")))?;
        return Ok((l, chosen));
    }
    for p in DEFAULT_PORT..DEFAULT_PORT + PORT_ATTEMPTS {
        match TcpListener::bind(SocketAddr::new(ip, p)).await {
            Ok(l) => {
                if p != DEFAULT_PORT {
                    eprintln!("port {DEFAULT_PORT} is busy; using {p}");
                }
                return Ok((l, chosen));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => continue,
            Err(e) => return Err(Failure::usage(format!("cannot listen on {ip}:{p}: {e}"))),
        }
    }
    Err(Failure::usage(format!(
        "ports {DEFAULT_PORT}-{} are all busy; choose one with --port",
        DEFAULT_PORT + PORT_ATTEMPTS - 1
    )))
}

/// Binds the sandbox origin's listener: the port after the inspector's when free, else any
/// free port (the UI learns the origin from `/api/host`).
async fn bind_sandbox(ip: IpAddr, host_port: u16) -> Result<TcpListener, Failure> {
    if let Some(next) = host_port.checked_add(1)
        && let Ok(l) = TcpListener::bind(SocketAddr::new(ip, next)).await
    {
        return Ok(l);
    }
    TcpListener::bind(SocketAddr::new(ip, 0))
        .await
        .map_err(|e| Failure::usage(format!("cannot open the app sandbox listener on {ip}: {e}")))
}

pub(crate) fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("could not open a browser; open the URL above yourself");
    }
}
