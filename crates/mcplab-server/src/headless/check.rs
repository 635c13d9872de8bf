//! [`CheckRenderer`]: `mcplab check --host`'s live render (the `host-app-live` rule), for the
//! CLI and the web Check route alike. Each app is rendered on a connection of its own, made
//! with the host profile's client declaration (the revision it asks for, its capabilities) on
//! a manager of its own — its frames never join the checked connection's — through a
//! [`LoopbackApi`], under the profile's app-host conditions, without a tool call unless the
//! check was asked to call one. Without Chromium every render is "unavailable", said once.

use std::path::PathBuf;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_check::live::{LiveApp, LiveOutcome, LiveRender, LiveReport};
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::ServerConfig;
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host_conditions::{HostConditions, Viewer};
use mcplab_protocol::host_profile::HostProfile;
use serde_json::json;

use super::loopback::LoopbackApi;

/// How long one app may take to initialize (and get its result, when called).
const RENDER_TIMEOUT: Duration = Duration::from_secs(10);

/// Renders apps for a check: `options` are the caller's connection options (the host
/// profile's declaration replaces their client's), `chromium` the browser (None: not found).
pub struct CheckRenderer {
    options: ManagerOptions,
    chromium: Option<PathBuf>,
}

impl CheckRenderer {
    pub fn new(options: ManagerOptions, chromium: Option<PathBuf>) -> Self {
        Self { options, chromium }
    }
}

impl LiveRender for CheckRenderer {
    fn render<'a>(
        &'a self,
        config: &'a ServerConfig,
        app: &'a LiveApp,
        profile: &'a HostProfile,
    ) -> BoxFuture<'a, LiveOutcome> {
        async move {
            let Some(chromium) = self.chromium.as_ref().filter(|p| p.is_file()) else {
                return LiveOutcome::Unavailable(
                    "no Chromium (install the `chromium` package, or pass --chromium PATH / set \
                     MCPLAB_CHROMIUM)"
                        .into(),
                );
            };
            let manager = ConnectionManager::new(ManagerOptions {
                client: profile.host_config.client.clone(),
                listen_for_changes: false,
                ..self.options.clone()
            });
            let outcome = render_on(&manager, chromium, config, app, profile).await;
            manager.shutdown().await;
            outcome
        }
        .boxed()
    }
}

async fn render_on(
    manager: &std::sync::Arc<ConnectionManager>,
    chromium: &std::path::Path,
    config: &ServerConfig,
    app: &LiveApp,
    profile: &HostProfile,
) -> LiveOutcome {
    if let Err(e) = manager.connect(config.clone()).await {
        let first = e.to_string();
        let first = first.lines().next().unwrap_or_default();
        return LiveOutcome::Unavailable(format!(
            "connecting as host `{}` failed: {first}",
            profile.name
        ));
    }
    let api = match LoopbackApi::start(manager.clone(), std::slice::from_ref(config)).await {
        Ok(api) => api,
        Err(e) => return LiveOutcome::Unavailable(e.to_string()),
    };
    let conditions =
        HostConditions::for_app_host(&profile.host_config.app_host, &Viewer::headless());
    let arguments = app.arguments.clone().unwrap_or_else(|| json!({}));
    let spec = AppRenderSpec {
        timeout_ms: Some(RENDER_TIMEOUT.as_millis() as u64),
        without_call: app.arguments.is_none(),
        ..AppRenderSpec::new(&config.name, &app.tool, arguments, conditions)
    };
    let rendered = api.render(chromium, &spec).await;
    api.stop().await;
    match rendered {
        Ok(r) => LiveOutcome::Rendered(LiveReport::from_render_report(&r.report)),
        Err(e) => LiveOutcome::Unavailable(format!("the render failed: {e}")),
    }
}
