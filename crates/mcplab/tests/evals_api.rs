//! Tests of `/api/evals` in process: the suites folder confines every read and write to plain
//! files directly inside it (no `..`, no separators, no dot files, no symlinks out of it), a
//! suite that does not load is refused with its line and not written, and stored runs are
//! listed and shown.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use mcplab_core::llm::ProviderSettings;
use mcplab_core::mcp::{ConnectionManager, ManagerOptions};
use mcplab_core::store::Store;
use mcplab_server::{AppState, Security, router};
use serde_json::{Value, json};
use tower::ServiceExt;

const TOKEN: &str = "test-token-0123456789";

fn app() -> axum::Router {
    let store = Arc::new(Store::open_in_memory().unwrap());
    let manager = ConnectionManager::new(ManagerOptions::default());
    let providers = ProviderSettings::from_env(&std::collections::HashMap::new());
    router(AppState::new(
        manager,
        store,
        Security::new(TOKEN.into(), 6274, None),
        providers,
    ))
}

async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let b = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "127.0.0.1:6274")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json");
    let body = body.map_or(Body::empty(), |b| Body::from(b.to_string()));
    let resp = app.clone().oneshot(b.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

const SUITE: &str = "version: 1\nid: s\nmodels: [openai::m]\ncases:\n  - id: a\n    turns: [hi]\n    checks: [answerContains: hi]\n";

#[tokio::test]
async fn suites_are_read_and_written_only_inside_the_folder() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.yaml");
    std::fs::write(&secret, "the secret").unwrap();

    let (s, _) = call(&app, "GET", "/api/evals/suites", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "no folder yet");
    let (s, _) = call(
        &app,
        "PUT",
        "/api/evals/folder",
        Some(json!({"folder": "relative/dir"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, v) = call(
        &app,
        "PUT",
        "/api/evals/folder",
        Some(json!({"folder": dir.path()})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");

    // A symlink in the folder that points out of it is neither listed, read nor written through.
    std::os::unix::fs::symlink(&secret, dir.path().join("leak.yaml")).unwrap();
    let (s, v) = call(&app, "GET", "/api/evals/suites/leak.yaml", None).await;
    assert_ne!(s, StatusCode::OK, "{v}");
    assert!(!v.to_string().contains("the secret"));
    let (s, _) = call(
        &app,
        "PUT",
        "/api/evals/suites/leak.yaml",
        Some(json!({"text": SUITE})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "the secret");
    for name in [
        "..%2Fsecret.yaml",
        "%2E%2E%2Fx.yaml",
        ".hidden.yaml",
        "a%2Fb.yaml",
        "x.txt",
    ] {
        let (s, _) = call(&app, "GET", &format!("/api/evals/suites/{name}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name}");
    }

    // A suite that does not load is refused with its line, and not written.
    let (s, v) = call(
        &app,
        "PUT",
        "/api/evals/suites/s.yaml",
        Some(json!({"text": "version: 1\nid: s\nrepeat: many\ncases: []\n"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v.to_string().contains("3:"), "{v}");
    assert!(!dir.path().join("s.yaml").exists());
    let (s, v) = call(
        &app,
        "PUT",
        "/api/evals/suites/s.yaml",
        Some(json!({"text": SUITE})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.yaml")).unwrap(),
        SUITE
    );
    let (s, v) = call(&app, "GET", "/api/evals/suites", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, json!([{"name": "s.yaml", "id": "s", "title": null}]));

    let (s, v) = call(&app, "GET", "/api/evals/runs", None).await;
    assert_eq!((s, v), (StatusCode::OK, json!([])));
    let (s, _) = call(&app, "GET", "/api/evals/runs/nope", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
