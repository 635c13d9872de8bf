//! Server configurations (CRUD, import/export) and connection lifecycle
//! (connect/disconnect/reconnect), plus each server's recorded traffic. Adding a server
//! connects it in the background unless asked not to (or unless it signs in through a browser
//! first); `connect` joins a connection already under way instead of starting a second one.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use mcplab_core::config::{import_mcp_servers, parse_mcp_servers, render_mcp_servers};
use mcplab_mcp::DeclaredAs;
use mcplab_protocol::api::{
    ConnectRequest, ImportRequest, ImportResult, ServerOrder, ServerView, TrafficSnapshotView,
};
use mcplab_protocol::oauth::OAuthGrant;
use mcplab_protocol::{ServerConfig, ServerEvent, ServerStatus};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::AppState;
use crate::error::ApiFailure;

/// What the UI shows for one server.
pub(super) fn view(state: &AppState, config: ServerConfig) -> ServerView {
    let status = state
        .manager
        .status(&config.name)
        .unwrap_or(ServerStatus::Disconnected);
    let conn = state.manager.get(&config.name).ok();
    ServerView {
        info: conn.as_ref().map(|c| c.initialize_result().clone()),
        era: conn.as_ref().map(|c| c.era().clone()),
        stderr: state.manager.stderr_tail(&config.name),
        connected_as: state.manager.declared_as(&config.name).map(|d| d.host),
        status,
        config,
    }
}

fn validate(config: &ServerConfig) -> Result<(), ApiFailure> {
    // Reuse the file format's validation so the API accepts exactly what files may hold.
    let doc = render_mcp_servers(std::slice::from_ref(config));
    parse_mcp_servers(&doc.to_string(), "request")
        .map(|_| ())
        .map_err(|e| ApiFailure::new(StatusCode::BAD_REQUEST, "invalid_config", e.to_string()))
}

pub(super) async fn list(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<ServerView>>, ApiFailure> {
    let servers = state.store.servers()?;
    Ok(Json(servers.into_iter().map(|c| view(&state, c)).collect()))
}

pub(super) async fn one(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<ServerView>, ApiFailure> {
    let config = state.store.server(&name)?;
    Ok(Json(view(&state, config)))
}

/// `POST /api/servers?connect=false` adds a server without connecting it.
#[derive(Debug, Deserialize)]
pub(super) struct CreateQuery {
    #[serde(default = "connect_by_default")]
    connect: bool,
}

fn connect_by_default() -> bool {
    true
}

/// A server configured for a browser sign-in waits for the user to start it: connecting on
/// add would register a client and open a sign-in nobody asked for yet.
fn signs_in_first(config: &ServerConfig) -> bool {
    config.transport.oauth().is_some_and(|o| {
        !o.disabled && matches!(o.grant, None | Some(OAuthGrant::AuthorizationCode))
    })
}

pub(super) async fn create(
    State(state): State<Arc<AppState>>,
    Query(query): Query<CreateQuery>,
    Json(config): Json<ServerConfig>,
) -> Result<(StatusCode, Json<ServerView>), ApiFailure> {
    validate(&config)?;
    state.store.insert_server(&config)?;
    // Told before it connects, so every page lists it before its status changes.
    state.manager.configured(&config.name, false);
    if query.connect && !signs_in_first(&config) {
        let mut events = state.manager.subscribe();
        let manager = state.manager.clone();
        let name = config.name.clone();
        // The answer does not wait for the handshake: `status` events carry connecting →
        // connected, or failed with the reason (and a sign-in request when asked for one).
        let connecting = config.clone();
        tokio::spawn(async move {
            let _ = manager.connect(connecting).await;
        });
        // It waits until the server is `connecting`, so the view says so and a `connect`
        // right after joins this connection.
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            // (A server deleted and added again keeps its old `disconnected` until then.)
            while matches!(
                state.manager.status(&name),
                None | Some(ServerStatus::Disconnected)
            ) {
                match events.recv().await {
                    Err(RecvError::Closed) => break,
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                }
            }
        })
        .await;
    }
    Ok((StatusCode::CREATED, Json(view(&state, config))))
}

pub(super) async fn replace(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(config): Json<ServerConfig>,
) -> Result<Json<ServerView>, ApiFailure> {
    validate(&config)?;
    state.store.replace_server(&name, &config)?;
    let renamed = config.name != name;
    if renamed {
        // Renamed: the old name is gone for every page, the new one is new to them.
        state.manager.remove(&name).await;
    }
    state.manager.configured(&config.name, !renamed);
    Ok(Json(view(&state, config)))
}

pub(super) async fn remove(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    state.store.server(&name)?;
    state.manager.disconnect(&name).await;
    state.store.delete_server(&name)?;
    // Its sign-ins go with it (a new server of that name must not inherit them).
    state.store.clear_oauth_credentials(&name)?;
    // Gone from the store first, so a page that reloads on the event no longer lists it.
    state.manager.remove(&name).await;
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /api/server-order`: the user's order; 409 when it does not name exactly the
/// configured servers (one added or removed in another tab since this one read the list).
pub(super) async fn reorder(
    State(state): State<Arc<AppState>>,
    Json(order): Json<ServerOrder>,
) -> Result<StatusCode, ApiFailure> {
    state.store.set_server_order(&order.names)?;
    state.manager.reordered(order.names);
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn import(
    State(state): State<Arc<AppState>>,
    Json(req): Json<ImportRequest>,
) -> Result<Json<ImportResult>, ApiFailure> {
    let imported = import_mcp_servers(&req.json, "pasted JSON")
        .map_err(|e| ApiFailure::new(StatusCode::BAD_REQUEST, "invalid_config", e.to_string()))?;
    if imported.servers.is_empty() && !imported.warnings.is_empty() {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "invalid_config",
            format!("no server imported: {}", imported.warnings.join("; ")),
        ));
    }
    // All or none: a store that fails half-way writes nothing.
    let replacing = state.store.upsert_servers(&imported.servers)?;
    let (mut added, mut replaced) = (Vec::new(), Vec::new());
    for (s, replaced_one) in imported.servers.into_iter().zip(replacing) {
        state.manager.configured(&s.name, replaced_one);
        match replaced_one {
            true => replaced.push(s.name),
            false => added.push(s.name),
        }
    }
    Ok(Json(ImportResult {
        added,
        replaced,
        warnings: imported.warnings,
    }))
}

pub(super) async fn export(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiFailure> {
    Ok(Json(render_mcp_servers(&state.store.servers()?)))
}

/// Connects the server; with a body, declaring that host profile's revision and client
/// capabilities (`host: null`: mcplab's own), else keeping the declaration it had.
pub(super) async fn connect(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<ServerView>, ApiFailure> {
    let request = connect_request(&body)?;
    let config = state.store.server(&name)?;
    match request {
        None => {
            // A connection under way (the one adding started) is joined: a second one would
            // start the server twice.
            if settled(&state, &name).await.is_none() {
                // A failure is a status with a message, shown in the view, not an HTTP error.
                let _ = state.manager.connect(config.clone()).await;
            }
        }
        // Asked to connect as a host: a new handshake with that declaration.
        Some(ConnectRequest { host }) => {
            let declared = match host {
                Some(host) => {
                    let profiles = super::hosts::load(&state)?;
                    let profile = profiles.require(&host).map_err(ApiFailure::not_found)?;
                    Some(DeclaredAs {
                        client: profile.host_config.client.clone(),
                        host,
                    })
                }
                None => None,
            };
            let _ = state.manager.connect_as(config.clone(), declared).await;
        }
    }
    Ok(Json(view(&state, config)))
}

/// The optional body of `connect`: an empty one — with or without a JSON content type, as
/// many clients send it — is a plain connect.
fn connect_request(body: &[u8]) -> Result<Option<ConnectRequest>, ApiFailure> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(body).map(Some).map_err(|e| {
        ApiFailure::bad_request(format!(
            "the body must be empty or {{\"host\": PROFILE | null}}: {e}"
        ))
    })
}

pub(super) async fn reconnect(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<ServerView>, ApiFailure> {
    let config = state.store.server(&name)?;
    let _ = state.manager.connect(config.clone()).await;
    Ok(Json(view(&state, config)))
}

/// How long a caller waits on a connection someone else started: its handshake deadline,
/// paused while a person signs in, is bounded by the browser's.
const JOIN_TIMEOUT: Duration =
    crate::oauth::BROWSER_TIMEOUT.saturating_add(Duration::from_secs(60));

/// Waits for the connection of `name` under way to end connecting and gives its status; None
/// when none is under way (or it outlived [`JOIN_TIMEOUT`]).
pub(crate) async fn settled(state: &AppState, name: &str) -> Option<ServerStatus> {
    // Subscribed before looking, so the end cannot slip between the two.
    let mut events = state.manager.subscribe();
    if state.manager.status(name) != Some(ServerStatus::Connecting) {
        return None;
    }
    let wait = async {
        loop {
            match events.recv().await {
                Ok(ServerEvent::Status { server, status })
                    if server == name && status != ServerStatus::Connecting =>
                {
                    return Some(status);
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => match state.manager.status(name) {
                    Some(ServerStatus::Connecting) => {}
                    other => return other,
                },
                Err(RecvError::Closed) => return state.manager.status(name),
            }
        }
    };
    tokio::time::timeout(JOIN_TIMEOUT, wait)
        .await
        .ok()
        .flatten()
}

pub(super) async fn disconnect(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<ServerView>, ApiFailure> {
    let config = state.store.server(&name)?;
    state.manager.disconnect(&name).await;
    crate::memory::release();
    Ok(Json(view(&state, config)))
}

pub(super) async fn traffic(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Json<TrafficSnapshotView> {
    let snap = state.manager.traffic().snapshot(&name);
    Json(TrafficSnapshotView {
        frames: snap.frames,
        dropped: snap.dropped,
    })
}

/// One whole recorded frame (the list and the event stream truncate long ones).
pub(super) async fn traffic_frame(
    State(state): State<Arc<AppState>>,
    Path((name, seq)): Path<(String, u64)>,
) -> Result<Json<mcplab_protocol::TrafficFrame>, ApiFailure> {
    state
        .manager
        .traffic()
        .frame(&name, seq)
        .map(Json)
        .ok_or_else(|| {
            ApiFailure::new(
                StatusCode::NOT_FOUND,
                "frame_gone",
                format!(
                    "frame {seq} of `{name}` is no longer recorded (the traffic ring keeps the \
                 newest frames within its byte budget; raise it with --limit traffic=SIZE)"
                ),
            )
        })
}

pub(super) async fn clear_traffic(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> StatusCode {
    state.manager.traffic().clear(&name);
    crate::memory::release();
    StatusCode::NO_CONTENT
}
