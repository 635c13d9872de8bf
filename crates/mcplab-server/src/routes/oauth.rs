//! OAuth routes: a server's sign-in status (masked), sign-in (which returns the authorization
//! URL to open, or says the connection just went ahead) and sign-out, and the OAuth
//! debugger's runs (start, snapshot, live steps, cancel). The redirect endpoint itself is
//! `crate::oauth::callback`, outside `/api`.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use futures::Stream;
use mcplab_net::mask_secret;
use mcplab_oauth::CredentialStore;
use mcplab_protocol::oauth::{
    OAuthAuthorizeRequest, OAuthAuthorizeResult, OAuthDebugRequest, OAuthDebugRun,
    OAuthDebugStarted, OAuthStatusView,
};
use mcplab_protocol::{ServerConfig, ServerStatus};

use crate::AppState;
use crate::error::ApiFailure;

/// Whether mcplab runs OAuth for this server (the protocol's one rule), and its URL.
fn oauth_target(config: &ServerConfig) -> (bool, Option<String>) {
    (
        config.transport.oauth_applies(),
        config.transport.url().map(str::to_owned),
    )
}

fn status_view(app: &AppState, config: &ServerConfig) -> Result<OAuthStatusView, ApiFailure> {
    let (applicable, url) = oauth_target(config);
    let name = &config.name;
    let creds = match &url {
        Some(url) => app.store.load_credentials(name, url).map_err(|e| {
            ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?,
        None => None,
    };
    let tokens = creds.as_ref().and_then(|c| c.tokens.as_ref());
    Ok(OAuthStatusView {
        server: name.clone(),
        applicable,
        url,
        signed_in: tokens.is_some(),
        access_token: tokens.map(|t| mask_secret(&t.access_token)),
        expires_at_ms: tokens.and_then(|t| t.expires_at_ms),
        has_refresh_token: tokens.is_some_and(|t| t.refresh_token.is_some()),
        scope: tokens.and_then(|t| t.scope.clone()),
        client_id: creds.as_ref().map(|c| c.client.client_id.clone()),
        registration: creds.as_ref().map(|c| c.client.method),
        issuer: creds.as_ref().and_then(|c| c.issuer.clone()),
        pending_authorization_url: app.oauth.pending_url(name),
        last_steps: app
            .manager
            .oauth()
            .map(|h| h.last_steps(name))
            .unwrap_or_default(),
    })
}

/// `GET /api/servers/{name}/oauth`.
pub(super) async fn status(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<OAuthStatusView>, ApiFailure> {
    let config = app.store.server(&name)?;
    Ok(Json(status_view(&app, &config)?))
}

/// `DELETE /api/servers/{name}/oauth`: forgets tokens and registrations, disconnects.
pub(super) async fn sign_out(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    app.store.server(&name)?;
    app.store.clear_oauth_credentials(&name)?;
    if app.manager.status(&name) == Some(ServerStatus::Connected) {
        app.manager.disconnect(&name).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/servers/{name}/oauth/authorize`: connects (signing in on the way). Answers as
/// soon as the connection waits for the browser, with the URL to open; or when it is done.
pub(super) async fn authorize(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    body: Option<Json<OAuthAuthorizeRequest>>,
) -> Result<Json<OAuthAuthorizeResult>, ApiFailure> {
    let force = body.map(|Json(b)| b.force).unwrap_or(false);
    let config = app.store.server(&name)?;
    let (applicable, url) = oauth_target(&config);
    if !applicable {
        return Err(ApiFailure::bad_request(format!(
            "`{name}` does not use OAuth: only http/sse servers without their own Authorization \
             header (and with OAuth not disabled) sign in"
        )));
    }
    // Subscribed before looking, so a sign-in announced in between is not missed.
    let mut started = app.oauth.subscribe_started();
    if let Some(url) = app.oauth.pending_url(&name) {
        return Ok(Json(OAuthAuthorizeResult::AuthorizationUrl { url }));
    }
    if force {
        forget_tokens(&app, &name, url.as_deref().unwrap_or_default())?;
    } else if app.manager.status(&name) == Some(ServerStatus::Connected) {
        return Ok(Json(OAuthAuthorizeResult::Connected));
    }
    let mut connect = if !force && app.manager.status(&name) == Some(ServerStatus::Connecting) {
        // The connection adding started is joined (a second one would sign in twice).
        let app = app.clone();
        let joined = name.clone();
        tokio::spawn(async move {
            match super::servers::settled(&app, &joined).await {
                Some(ServerStatus::Connected) => Ok(()),
                Some(ServerStatus::Failed { message }) => Err(message),
                _ => Err(format!(
                    "the connection of `{joined}` ended before it connected"
                )),
            }
        })
    } else {
        let manager = app.manager.clone();
        tokio::spawn(async move {
            manager
                .connect(config)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
    };
    loop {
        tokio::select! {
            event = started.recv() => match event {
                Ok((server, url)) if server == name => {
                    return Ok(Json(OAuthAuthorizeResult::AuthorizationUrl { url }));
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                    let done = (&mut connect).await;
                    return Ok(Json(outcome(done)));
                }
            },
            done = &mut connect => return Ok(Json(outcome(done))),
        }
    }
}

fn outcome(done: Result<Result<(), String>, tokio::task::JoinError>) -> OAuthAuthorizeResult {
    match done {
        Ok(Ok(())) => OAuthAuthorizeResult::Connected,
        Ok(Err(message)) => OAuthAuthorizeResult::Failed { message },
        Err(e) => OAuthAuthorizeResult::Failed {
            message: format!("the connection task failed: {e}"),
        },
    }
}

/// Drops the stored tokens of `name` at `url` but keeps its client registration.
fn forget_tokens(app: &AppState, name: &str, url: &str) -> Result<(), ApiFailure> {
    let internal = |e: mcplab_oauth::OAuthError| {
        ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
    };
    if let Some(mut creds) = app.store.load_credentials(name, url).map_err(internal)? {
        creds.tokens = None;
        app.store.save_credentials(name, &creds).map_err(internal)?;
    }
    Ok(())
}

/// `POST /api/oauth/debug` → 202 with the run id.
pub(super) async fn debug_start(
    State(app): State<Arc<AppState>>,
    Json(request): Json<OAuthDebugRequest>,
) -> Result<(StatusCode, Json<OAuthDebugStarted>), ApiFailure> {
    let run_id = crate::oauth::debug::start(&app, request)?;
    Ok((StatusCode::ACCEPTED, Json(OAuthDebugStarted { run_id })))
}

fn run(app: &AppState, id: &str) -> Result<Arc<crate::oauth::debug::DebugRun>, ApiFailure> {
    app.oauth.runs.get(id).ok_or_else(|| {
        ApiFailure::not_found(format!(
            "no OAuth debugger run `{id}` (runs are kept while mcplab runs, the newest {})",
            crate::oauth::debug::MAX_RUNS
        ))
    })
}

/// `GET /api/oauth/debug/{runId}`.
pub(super) async fn debug_get(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<OAuthDebugRun>, ApiFailure> {
    Ok(Json(run(&app, &id)?.snapshot()))
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct EventsQuery {
    last_event_id: Option<u64>,
}

/// `GET /api/oauth/debug/{runId}/events`: SSE of `OAuthDebugEvent`.
pub(super) async fn debug_events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    let run = run(&app, &id)?;
    Ok(crate::events::sse(&run.ring, &headers, q.last_event_id))
}

/// `POST /api/oauth/debug/{runId}/cancel`.
pub(super) async fn debug_cancel(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    run(&app, &id)?.cancel.cancel();
    Ok(StatusCode::NO_CONTENT)
}
