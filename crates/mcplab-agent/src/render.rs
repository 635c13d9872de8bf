//! The `render_app` tool: a tool's app rendered headless under a host profile (its device,
//! theme, display modes, CSP mode and `window.openai`; `device`/`theme` override it), through
//! the agent's connection of that server. The reply holds the PNG as image content, the bridge
//! log, the app's console errors and CSP violations, and the time until the app was ready.
//! The rendering itself (an API and sandbox for the render page, Chromium) is an
//! [`AppRender`] the binary hands in.

use std::sync::Arc;

use base64::Engine as _;
use futures::future::BoxFuture;
use mcplab_apps::ui_link;
use mcplab_evalrun::render::{ready_ms, spec_for};
use mcplab_mcp::tool_server::{CallScope, ImageBlock, ToolReply};
use mcplab_mcp::{ConnectionManager, Listing, RequestOptions};
use mcplab_protocol::api::AppRenderSpec;
use mcplab_protocol::host::{AppHostProfile, DeviceKind, HostConfig, ThemeChoice};
pub use mcplab_render::Rendered;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::Agent;
use crate::reply::{self, fail, ok};

/// What one render needs: the spec and the server it calls through.
pub struct RenderRequest {
    pub spec: AppRenderSpec,
    pub server: mcplab_protocol::ServerConfig,
}

/// Renders one app through `manager`'s connections; `Err` when it could not render at all.
pub trait AppRender: Send + Sync {
    fn render(
        &self,
        manager: Arc<ConnectionManager>,
        request: RenderRequest,
    ) -> BoxFuture<'static, Result<Rendered, String>>;
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenderArgs {
    server: String,
    tool: String,
    #[serde(default)]
    arguments: Map<String, Value>,
    host: Option<String>,
    device: Option<DeviceKind>,
    theme: Option<ThemeChoice>,
}

impl Agent {
    pub(crate) async fn render_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let args: RenderArgs = match reply::args("render_app", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let renderer = match &self.inner.setup.renderer {
            Ok(r) => r.clone(),
            Err(why) => return fail(format!("apps cannot be rendered here: {why}")),
        };
        let conn = match self.connection(&args.server) {
            Ok(c) => c,
            Err(r) => return *r,
        };
        let opts = RequestOptions {
            cancel: Some(scope.cancel.clone()),
            ..Default::default()
        };
        let tools = match conn.list_all(Listing::Tools, opts).await {
            Ok(t) => t,
            Err(e) => return fail(format!("`{}` tools/list failed: {e}", args.server)),
        };
        let tool = tools["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["name"] == args.tool.as_str());
        match tool {
            None => return fail(format!("`{}` has no tool `{}`", args.server, args.tool)),
            Some(t) if ui_link(t).is_none() => {
                return fail(format!(
                    "tool `{}` has no UI (no _meta.ui.resourceUri or openai/outputTemplate)",
                    args.tool
                ));
            }
            Some(_) => {}
        }
        let profile = match self.profile(&args) {
            Ok(p) => p,
            Err(why) => return fail(why),
        };
        let spec = spec_for(
            &profile,
            &args.server,
            &args.tool,
            &Value::Object(args.arguments),
        );
        let request = RenderRequest {
            spec,
            server: conn.config().clone(),
        };
        scope
            .progress
            .report(0.0, None, Some("rendering".into()))
            .await;
        let rendered = tokio::select! {
            r = renderer.render(self.inner.manager.clone(), request) => r,
            _ = scope.cancel.cancelled() => return fail("render cancelled; Chromium was stopped"),
        };
        match rendered {
            Ok(r) => rendered_reply(&args.tool, r),
            Err(why) => fail(format!("the render failed: {why}")),
        }
    }

    /// The app host profile to render under: the named host's, else mcplab's own; with the
    /// device and theme asked for.
    fn profile(&self, args: &RenderArgs) -> Result<AppHostProfile, String> {
        let mut profile = match &args.host {
            Some(name) => self
                .inner
                .setup
                .hosts
                .require(name)?
                .host_config
                .app_host
                .clone(),
            None => HostConfig::default().app_host,
        };
        if let Some(d) = args.device {
            profile.device = d;
        }
        if let Some(t) = args.theme {
            profile.theme = t;
        }
        Ok(profile)
    }
}

fn rendered_reply(tool: &str, rendered: Rendered) -> ToolReply {
    let r = &rendered.report;
    let (width, height) = mcplab_render::png_size(&rendered.png).unwrap_or_default();
    let mut console: Vec<Value> = r["appErrors"].as_array().cloned().unwrap_or_default();
    console.extend(r["pageErrors"].as_array().cloned().unwrap_or_default());
    let structured = json!({
        "initialized": r["initialized"],
        "readyMs": ready_ms(r),
        "durationMs": r["durationMs"],
        "bridge": r["bridgeMessages"],
        "consoleErrors": console,
        "cspViolations": r["cspViolations"],
        "toolError": r["toolError"],
        "error": r["error"],
        "png": { "width": width, "height": height, "bytes": rendered.png.len() },
        "warnings": r["warnings"],
    });
    let state = if r["initialized"] == true {
        "initialized"
    } else {
        "did NOT initialize"
    };
    let summary = format!(
        "`{tool}`'s app {state}; {} console error(s), {} CSP violation(s), {} bridge message(s); \
         {width}×{height} PNG attached",
        console.len(),
        r["cspViolations"].as_array().map_or(0, Vec::len),
        r["bridgeMessages"].as_array().map_or(0, Vec::len),
    );
    let is_error = r["initialized"] != true || !console.is_empty();
    let mut reply = ok(summary, structured);
    reply.is_error = is_error;
    reply.images.push(ImageBlock {
        mime_type: "image/png".into(),
        data_base64: base64::engine::general_purpose::STANDARD.encode(&rendered.png),
    });
    reply
}
