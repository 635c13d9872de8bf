//! `mcplab` / `mcplab serve`: the web inspector. Opens the store (seeding the demo server on
//! first run), applies `--config` and ad-hoc targets, binds loopback (next free port when the
//! default is busy, said loudly), records the launch secret in the data directory
//! (`launch.json`, 0600), prints a one-time login URL, connects the servers in the background
//! (its own `mcplab demo-server` in this process, not as a child: a `BuiltinServer`),
//! opens the browser on another one-time code (through a 0600 redirect file, never in argv),
//! and on Ctrl-C/SIGTERM stops every server it started and removes its launch record.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use mcplab_core::config::parse_mcp_servers;
use mcplab_mcp::{BuiltinServer, ConnectionManager, ManagerOptions, RootEntry};
use mcplab_protocol::api::RootView;
use mcplab_protocol::{ServerConfig, ServerTransport};
use mcplab_server::headless::{serve_app, start_sandbox};
use mcplab_server::security::LOGIN_CODE_TTL;
use mcplab_server::{AppState, RenderHost, Security, generate_token};
use mcplab_store::Store;
use tokio::net::TcpListener;

use crate::failure::Failure;
use crate::launch::{Launch, open_browser};
use crate::output::outln;
use crate::settings::{DataDir, Settings};
use crate::target;

/// The inspector's default port (the official inspector's, so muscle memory works).
pub const DEFAULT_PORT: u16 = 6274;
/// How many ports after the default are tried when it is busy.
const PORT_ATTEMPTS: u16 = 20;

pub async fn run(settings: &Settings) -> Result<(), Failure> {
    let data = &settings.data;
    let (store, only) = open_store(settings)?;
    let manager = manager(settings, &store).await?;
    let (listener, host) = bind(&settings.serve.host, settings.serve.port).await?;
    let addr = Addresses::new(
        host,
        listener.local_addr().map(|a| a.port()).unwrap_or_default(),
    );
    let security = Security::new(generate_token(), addr.port, addr.extra_host.as_deref());
    let env: std::collections::HashMap<String, String> = std::env::vars().collect();
    let providers = mcplab_llm::ProviderSettings::from_vars(&env);
    let state = AppState::new(manager.clone(), store.clone(), security, providers);
    let sandbox = bind_sandbox(addr.sandbox_ip, addr.port).await?;
    outln!("mcplab is listening on {}", addr.base);
    let (sandbox_origin, sandbox_task) =
        start_sandbox(&state, sandbox, addr.port, addr.extra_host.as_deref());
    outln!("apps run on: {sandbox_origin}");
    if addr.extra_host.is_some() {
        eprintln!(
            "WARNING: with a non-loopback --host, every app shares the one origin \
             {sandbox_origin}, on the same site as the UI: a hostile app can reach other apps \
             shown on the same page. Listen on loopback for one origin per app."
        );
    }
    configure(&state, settings, &addr);
    configure_otlp(&state, settings.serve.otlp.otlp.as_deref(), &store)?;
    let login_url = announce(&state, data, &addr.base)?;
    connect_servers(&manager, &store, only.as_deref())?;
    if !settings.serve.no_open {
        // A code of its own: the printed one stays usable in another browser.
        let code = state.security.credentials().mint_login_code();
        if let Err(e) = open_browser(data, &login_url(code)) {
            eprintln!("{}", e.message);
        }
    }
    let shutdown = async {
        crate::session::wait_for_stop_signal().await;
        eprintln!("stopping: disconnecting servers");
    };
    let result = serve_app(listener, state, shutdown).await;
    Launch::remove_if_ours(data);
    sandbox_task.abort();
    manager.shutdown().await;
    result.map_err(|e| Failure::usage(format!("the web server failed: {e}")))
}

fn store_err(e: mcplab_store::StoreError) -> Failure {
    Failure::usage(e.to_string())
}

/// Opens the store (seeding the demo server on first run) and applies `--config` and an
/// ad-hoc target. Returns the store and the servers to connect (`None`: every stored one).
fn open_store(settings: &Settings) -> Result<(Arc<Store>, Option<Vec<String>>), Failure> {
    let store = Arc::new(settings.data.store()?);
    if store.is_new() {
        store.insert_server(&demo_server()?).map_err(store_err)?;
    }
    if let Some(file) = &settings.target.config {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
        for s in parse_mcp_servers(&text, &file.display().to_string()).map_err(Failure::config)? {
            store.upsert_server(&s).map_err(store_err)?;
        }
    }
    let ad_hoc = target::ad_hoc(&settings.target, target::AD_HOC_NAME)?;
    if let Some(cfg) = &ad_hoc {
        store.upsert_server(cfg).map_err(store_err)?;
    }
    let only = match &ad_hoc {
        Some(cfg) => Some(vec![cfg.name.clone()]),
        None if settings.target.servers.is_empty() => None,
        None => {
            for name in &settings.target.servers {
                store.server(name).map_err(store_err)?;
            }
            Some(settings.target.servers.clone())
        }
    };
    Ok((store, only))
}

/// The connection manager under the settings' limits, with the roots the UI saved.
async fn manager(settings: &Settings, store: &Store) -> Result<Arc<ConnectionManager>, Failure> {
    let mut opts = ManagerOptions {
        // 2026-07-28 servers announce list changes only to clients that listen for them.
        listen_for_changes: true,
        // The demo server runs in this process: the inspector is one process, not two copies
        // of this binary (DESIGN.md §6, memory idle with the UI open).
        builtins: demo_builtin().into_iter().collect(),
        // 2026-07-28 servers log only when a request asks: the Logs page asks for everything.
        log_level: Some("debug".into()),
        ..ManagerOptions::default()
    };
    settings.apply(&mut opts);
    let manager = ConnectionManager::new(opts);
    let roots: Vec<RootView> = store
        .setting("roots")
        .map_err(store_err)?
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let roots = roots.into_iter().map(|r| RootEntry {
        uri: r.uri,
        name: r.name,
    });
    manager.set_roots(roots.collect()).await;
    Ok(manager)
}

/// Where the inspector listens and how it names itself, from `--host` and the bound port.
struct Addresses {
    port: u16,
    /// A non-loopback `--host`: allowed as a Host header, and the apps' one shared origin.
    extra_host: Option<String>,
    /// Where the sandbox listens: beside the inspector.
    sandbox_ip: IpAddr,
    /// The inspector's URL as printed.
    base: String,
    /// The host Chromium reaches us on: loopback unless we listen on one other address only.
    self_host: String,
}

impl Addresses {
    fn new(host: Option<IpAddr>, port: u16) -> Addresses {
        let extra_host = host.filter(|h| !h.is_loopback()).map(|h| h.to_string());
        let shown_host = extra_host.clone().unwrap_or_else(|| "127.0.0.1".to_owned());
        let self_host = match host {
            Some(h) if !h.is_loopback() && !h.is_unspecified() => h.to_string(),
            _ => "127.0.0.1".to_owned(),
        };
        Addresses {
            port,
            extra_host,
            sandbox_ip: host.unwrap_or(IpAddr::from([127, 0, 0, 1])),
            base: format!("http://{shown_host}:{port}"),
            self_host,
        }
    }
}

/// Gives the web server what it needs beyond the store and manager: the host profiles
/// directory, the user's prices, and the headless renderer's origin and Chromium (the
/// playground's screenshots and page-started eval runs render with it).
fn configure(state: &AppState, settings: &Settings, addr: &Addresses) {
    let data = &settings.data;
    let chromium = crate::settings::chromium(settings.chromium.as_deref());
    let _ = state.hosts_dir.set(data.dir().join("hosts"));
    if let Some(home) = directories::BaseDirs::new().map(|d| d.home_dir().to_owned()) {
        let _ = state.home_dir.set(home);
    }
    // A price file that cannot be used is said loudly; costs then use the shipped table.
    match mcplab_core::agent::cost::load_prices(data.dir()) {
        Ok(prices) => state.sessions.set_prices(Arc::new(prices.table)),
        Err(e) => eprintln!("warning: {e}; costs use the shipped price table until then"),
    }
    let _ = state.render_host.set(RenderHost {
        self_origin: format!("http://{}:{}", addr.self_host, addr.port),
        chromium,
    });
}

/// `--otlp` (fixed for this process), else the address saved in Settings (a stored address
/// that no longer works is a warning: the inspector starts without it).
fn configure_otlp(state: &AppState, flag: Option<&str>, store: &Store) -> Result<(), Failure> {
    if let Some(url) = flag.map(str::trim).filter(|u| !u.is_empty()) {
        state
            .otlp
            .set(Some(url), true)
            .map_err(|e| Failure::usage(format!("--otlp: {e}")))?;
        outln!("OpenTelemetry spans go to {url}");
        return Ok(());
    }
    let stored = store.setting(mcplab_server::otlp::OTLP_KEY).ok().flatten();
    if let Some(url) = stored.as_ref().and_then(|v| v.as_str())
        && let Err(e) = state.otlp.set(Some(url), false)
    {
        eprintln!("warning: the OTLP address saved in Settings is not used: {e}");
    }
    Ok(())
}

/// Records the launch secret (`launch.json`, 0600) and prints a one-time login URL. Returns
/// how to make a login URL from a code.
fn announce(
    state: &AppState,
    data: &DataDir,
    base: &str,
) -> Result<impl Fn(String) -> String + use<>, Failure> {
    let credentials = state.security.credentials();
    Launch {
        url: base.to_owned(),
        secret: credentials.launch_secret().to_owned(),
        pid: std::process::id(),
    }
    .write(data)?;
    let base = base.to_owned();
    let login_url = move |code: String| format!("{base}/auth?code={code}");
    outln!("open {}", login_url(credentials.mint_login_code()));
    outln!(
        "  (valid once, for {} minutes; `mcplab open` opens a new one)",
        LOGIN_CODE_TTL.as_secs() / 60
    );
    Ok(login_url)
}

/// Connects the stored servers (only those named in `only`, when given) in the background;
/// a failure shows as the server's status in the UI.
fn connect_servers(
    manager: &Arc<ConnectionManager>,
    store: &Store,
    only: Option<&[String]>,
) -> Result<(), Failure> {
    for cfg in store.servers().map_err(store_err)? {
        if only.is_some_and(|names| !names.contains(&cfg.name)) {
            continue;
        }
        let m = manager.clone();
        tokio::spawn(async move {
            let _ = m.connect(cfg).await;
        });
    }
    Ok(())
}

/// The demo server's command line: this binary's `demo-server`.
fn demo_command() -> Result<(String, Vec<String>), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot find the mcplab binary: {e}")))?;
    Ok((exe.display().to_string(), vec!["demo-server".into()]))
}

/// `mcplab demo-server` as a server this process runs itself when connected (a stored config
/// with exactly that command line; one written by hand with other arguments still spawns).
fn demo_builtin() -> Option<BuiltinServer> {
    let (command, args) = demo_command().ok()?;
    Some(BuiltinServer {
        command,
        args,
        start: Arc::new(|pipe| {
            tokio::spawn(async move {
                let (read, write) = tokio::io::split(pipe);
                if let Err(e) = mcplab_testkit::serve_io(read, write).await {
                    tracing::debug!(%e, "the built-in demo server stopped");
                }
            });
        }),
    })
}

fn demo_server() -> Result<ServerConfig, Failure> {
    let (command, args) = demo_command()?;
    Ok(ServerConfig {
        name: "demo".into(),
        transport: ServerTransport::Stdio {
            command,
            args,
            env: Default::default(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
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
            "WARNING: listening on {ip}, not loopback. mcplab speaks plain HTTP: the login code \
             and the session secret travel in clear text, so anyone who can see this network's \
             traffic can take over this mcplab and start processes on this machine. Use it only \
             on a network you trust (an SSH tunnel to 127.0.0.1 is safer)."
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
                    eprintln!(
                        "WARNING: port {DEFAULT_PORT} is busy; using {p} instead. Something else \
                         listens on {DEFAULT_PORT}: links and bookmarks to \
                         127.0.0.1:{DEFAULT_PORT} reach that program, not this mcplab, so do not \
                         sign in there. Choose the port with --port."
                    );
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
