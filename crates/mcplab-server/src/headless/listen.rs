//! The router and the app sandbox on listeners the caller bound: the one place either is
//! served, for `mcplab serve` and for [`super::LoopbackApi`].

use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::sandbox::{SandboxConfig, sandbox_router};
use crate::{AppState, router};

/// Serves the app sandbox on `listener` for the host on `host_port`: one origin per app
/// (`http://<label>.localhost:<port>`), or, with a non-loopback `extra_host`, the one origin
/// `http://<extra_host>:<port>` for every app. Records the origins in `state` and returns the
/// origin template and the serving task (abort it to stop).
pub fn start_sandbox(
    state: &AppState,
    listener: TcpListener,
    host_port: u16,
    extra_host: Option<&str>,
) -> (String, JoinHandle<std::io::Result<()>>) {
    let sandbox_port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let config = match extra_host {
        Some(h) => SandboxConfig::shared(host_port, sandbox_port, h),
        None => SandboxConfig::loopback(host_port, sandbox_port),
    };
    let origins = config.origins();
    let origin = origins.template.clone();
    let _ = state.sandbox.set(origins);
    let app = sandbox_router(config);
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, task)
}

/// Serves `router(state)` on `listener` until `shutdown` completes.
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
