//! `POST /api/apps/render`: the playground's screenshot. The server renders against itself:
//! it registers the spec under a single-use id, and `mcplab_render` starts Chromium on this
//! server's own render page (signed in with a one-time login code, over the DevTools pipe),
//! one render at a time per process. Without the renderer set up (or without Chromium) it
//! answers 503 with what to do. `GET /api/render-specs/{id}` hands a registered spec to the
//! render page, once.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use base64::Engine;
use mcplab_protocol::api::{AppRenderResult, AppRenderSpec};
use mcplab_render::{self as render, DEFAULT_TIMEOUT};

use crate::AppState;
use crate::error::ApiFailure;

/// The largest viewport side accepted (a 4K screen's long side, with room).
const MAX_SIDE: u32 = 8192;

pub(super) async fn render(
    State(state): State<Arc<AppState>>,
    Json(spec): Json<AppRenderSpec>,
) -> Result<Json<AppRenderResult>, ApiFailure> {
    let unavailable = |code, message: &str| {
        ApiFailure::new(StatusCode::SERVICE_UNAVAILABLE, code, message.to_owned())
    };
    let host = state.render_host.get().ok_or_else(|| {
        unavailable(
            "renderer_unavailable",
            "this mcplab process has no headless renderer set up (it is set up by `mcplab \
             serve`); take screenshots with `mcplab apps render` instead",
        )
    })?;
    let chromium = host.chromium.as_deref().ok_or_else(|| {
        unavailable(
            "chromium_not_found",
            "no Chromium was found when mcplab started: install the `chromium` package, or \
             restart with `mcplab serve --chromium PATH` (or MCPLAB_CHROMIUM=PATH)",
        )
    })?;
    if !(1..=MAX_SIDE).contains(&spec.width) || !(1..=MAX_SIDE).contains(&spec.height) {
        return Err(ApiFailure::bad_request(format!(
            "width and height must be 1…{MAX_SIDE} px, got {}×{}",
            spec.width, spec.height
        )));
    }
    // Fail fast on an unknown or disconnected server instead of after a browser start.
    state.manager.get(&spec.server)?;
    let timeout = spec
        .timeout_ms
        .map(Duration::from_millis)
        .unwrap_or(DEFAULT_TIMEOUT);
    let _slot = tokio::time::timeout(timeout, state.render_slot.acquire())
        .await
        .map_err(|_| {
            unavailable(
                "render_busy",
                "another render was still running after the render timeout; try again",
            )
        })?
        .map_err(|_| unavailable("renderer_unavailable", "the renderer is shutting down"))?;
    let url = state.render_sign_in_url(&host.self_origin, spec.clone());
    let out = render::render(chromium, &url, &spec).await?;
    Ok(Json(AppRenderResult {
        png_base64: base64::engine::general_purpose::STANDARD.encode(&out.png),
        report: out.report,
    }))
}

/// `GET /api/render-specs/{id}`: the spec a render registered, once.
pub(super) async fn spec(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<AppRenderSpec>, ApiFailure> {
    state.render_specs.take(&id).map(Json).ok_or_else(|| {
        ApiFailure::not_found(
            "no render is waiting under this id (each id is used once, within 2 minutes): a \
             render page opens only from `mcplab apps render` or the playground's screenshot",
        )
    })
}
