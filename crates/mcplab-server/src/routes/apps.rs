//! What the browser needs to render MCP Apps and OpenAI widgets: a `ui://` resource read and
//! decoded, with the sandbox policy it gets (CSP, `allow`, the sanitized declared domains), and
//! tool calls made by a rendered UI, allowed only for tools of the UI's own server that its
//! kind may call (visibility / `openai/widgetAccessible`), checked before anything is sent.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_apps::{
    self as apps, AppCallRefusal, AppCaller, UiKind, check_app_call, csp_domains_json,
    resource_ui_meta, sandbox_policy,
};
use mcplab_mcp::{Listing, McpError, RequestOptions};
use mcplab_protocol::api::{
    AppResourceKind, AppResourceRequest, AppResourceView, AppToolCallRequest, AppUiKind,
    CallOutcome, ToolCallRequest,
};
use serde_json::{Value, json};

use super::mcp;
use crate::AppState;
use crate::error::{ApiFailure, mcp_failure};

fn bad_resource(name: &str, uri: &str, why: impl std::fmt::Display) -> ApiFailure {
    ApiFailure::new(
        StatusCode::BAD_GATEWAY,
        "bad_ui_resource",
        format!("server `{name}` sent a UI resource `{uri}` that cannot be rendered: {why}"),
    )
}

pub(super) async fn resource(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<AppResourceRequest>,
) -> Result<Json<AppResourceView>, ApiFailure> {
    let uri = req.uri.trim().to_owned();
    if !uri.starts_with("ui://") {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "not_a_ui_resource",
            format!(
                "`{uri}` is not a UI resource: apps are rendered from `ui://` URIs only (read \
                 other resources with /resources/read)"
            ),
        ));
    }
    let c = mcp::conn(&state, &name)?;
    let read = c.request(
        "resources/read",
        Some(json!({ "uri": uri })),
        RequestOptions::default(),
    );
    // Best effort: `_meta.ui` may also sit on the listing entry; servers may not list UIs.
    let list = c.list_all(Listing::Resources, RequestOptions::default());
    let (read, list) = tokio::join!(read, list);
    let result = read.map_err(|e| match e {
        McpError::NotConnected(_) | McpError::Misbehaved { .. } => ApiFailure::from(e),
        e => {
            let (status, code, _) = mcp_failure(&e);
            ApiFailure::new(
                status,
                code,
                format!("server `{name}` could not read `{uri}`: {e}"),
            )
        }
    })?;
    let listing_entry = list.ok().and_then(|l| {
        l["resources"]
            .as_array()?
            .iter()
            .find(|r| r["uri"].as_str() == Some(uri.as_str()))
            .cloned()
    });
    let item = result["contents"]
        .get(0)
        .filter(|i| i.is_object())
        .ok_or_else(|| bad_resource(&name, &uri, "its `resources/read` result has no contents"))?;
    let html = apps::ui_resource_html(item).map_err(|why| bad_resource(&name, &uri, why))?;
    let mime_type = item["mimeType"]
        .as_str()
        .or_else(|| listing_entry.as_ref()?["mimeType"].as_str())
        .map(str::to_owned);
    let kind = match apps::ui_kind_of_mime(mime_type.as_deref()) {
        Some(UiKind::McpApp) => AppResourceKind::McpApp,
        Some(UiKind::OpenAiWidget) => AppResourceKind::OpenAiWidget,
        None => AppResourceKind::Unknown,
    };
    let ui_meta = resource_ui_meta(item, listing_entry.as_ref());
    let policy = sandbox_policy(&ui_meta, &state.own_origins());
    if !policy.rejected.is_empty() {
        tracing::warn!(server = %name, %uri, rejected = ?policy.rejected, "refused declared CSP entries");
    }
    Ok(Json(AppResourceView {
        prefers_border: apps::prefers_border(&ui_meta, item, listing_entry.as_ref()),
        content_meta: item.get("_meta").cloned().unwrap_or(Value::Null),
        uri,
        mime_type,
        kind,
        html,
        csp: policy.csp,
        declared_csp: policy.declared.as_ref().map(csp_domains_json),
        allow: policy.allow,
        rejected: policy.rejected,
        ui_meta,
    }))
}

fn refused(refusal: AppCallRefusal) -> ApiFailure {
    let status = match refusal {
        AppCallRefusal::UnknownTool { .. } => StatusCode::NOT_FOUND,
        _ => StatusCode::FORBIDDEN,
    };
    ApiFailure::new(status, refusal.code(), refusal.to_string())
}

pub(super) async fn call_tool(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<AppToolCallRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let caller = match req.ui {
        AppUiKind::McpApp => AppCaller::McpApp,
        AppUiKind::OpenAiWidget => AppCaller::OpenAiWidget,
        AppUiKind::McpUi => AppCaller::McpUi,
    };
    // Cached until the server says its tools changed (or reconnects): a polling app would
    // otherwise cost a `tools/list` per call.
    let tools = match state.app_tools.get(&name) {
        Ok(tools) => tools,
        Err(generation) => {
            let Json(listed) = mcp::listing(&state, &name, Listing::Tools).await?;
            let list = listed["tools"].as_array().cloned().unwrap_or_default();
            state.app_tools.store(&name, generation, list)
        }
    };
    check_app_call(&tools, &name, &req.name, caller).map_err(refused)?;
    let call = ToolCallRequest {
        name: req.name,
        arguments: req.arguments,
        call_id: req.call_id,
        timeout_ms: None,
        task: None,
    };
    mcp::run_tool_call(&state, &name, call, mcp::Listed::No)
        .await
        .map(Json)
}
