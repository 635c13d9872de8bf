//! `POST /api/apps/render`: 503 with a code and a fix when the renderer is not set up or has
//! no Chromium (in process), and one real render over real loopback listeners (API + app
//! sandbox, as `mcplab serve` runs them) with real Chromium and the demo server's counter app.

use std::path::PathBuf;

use axum::http::StatusCode;
use base64::Engine;
use mcplab_server::sandbox::{SandboxConfig, sandbox_router};
use mcplab_server::{AppState, RenderHost, router};
use serde_json::{Value, json};

use crate::router_support::{TOKEN, authed, state_on};

fn spec(server: &str) -> Value {
    json!({"server": server, "tool": "show_counter_app", "arguments": {},
           "conditions": {"theme": "light"}, "width": 640, "height": 480})
}

async fn connect_demo(state: &AppState, name: &str) {
    let config = serde_json::from_value(json!({
        "name": name, "type": "stdio", "command": env!("CARGO_BIN_EXE_mcplab"), "args": ["demo-server"]
    }))
    .unwrap();
    state.store.insert_server(&config).unwrap();
    state.manager.connect(config).await.expect("demo connects");
}

#[tokio::test]
async fn without_a_renderer_or_chromium_the_answer_is_503_with_the_fix() {
    let s = state_on(6274);
    let app = router(s.clone());
    let (status, v) = authed(&app, "POST", "/api/apps/render", Some(spec("demo"))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "renderer_unavailable", "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("mcplab apps render"),
        "{v}"
    );

    s.render_host
        .set(RenderHost {
            self_origin: "http://127.0.0.1:6274".into(),
            chromium: None,
        })
        .unwrap();
    let (status, v) = authed(&app, "POST", "/api/apps/render", Some(spec("demo"))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "chromium_not_found", "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("install the `chromium` package") && message.contains("--chromium PATH"),
        "{v}"
    );
}

#[tokio::test]
async fn a_chromium_path_that_does_not_exist_is_503_and_an_unknown_server_409() {
    let s = state_on(6274);
    s.render_host
        .set(RenderHost {
            self_origin: "http://127.0.0.1:6274".into(),
            chromium: Some(PathBuf::from("/nonexistent/chromium")),
        })
        .unwrap();
    let app = router(s.clone());
    let (status, v) = authed(&app, "POST", "/api/apps/render", Some(spec("nope"))).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not_connected", "{v}");

    connect_demo(&s, "demo").await;
    let (status, v) = authed(&app, "POST", "/api/apps/render", Some(spec("demo"))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "chromium_not_found", "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("Chromium not found at /nonexistent/chromium"),
        "{v}"
    );
    let bad = json!({"server": "demo", "tool": "x", "width": 0, "height": 10});
    let (status, v) = authed(&app, "POST", "/api/apps/render", Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    s.manager.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_renders_an_app_against_itself() {
    let chromium = PathBuf::from(
        std::env::var("MCPLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
    );
    assert!(
        chromium.is_file(),
        "this test needs Chromium at {}",
        chromium.display()
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let sandbox = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let sandbox_port = sandbox.local_addr().unwrap().port();
    let s = state_on(port);
    let config = SandboxConfig::loopback(port, sandbox_port);
    s.sandbox.set(config.origins()).unwrap();
    let origin = format!("http://127.0.0.1:{port}");
    s.render_host
        .set(RenderHost {
            self_origin: origin.clone(),
            chromium: Some(chromium),
        })
        .unwrap();
    connect_demo(&s, "demo").await;
    let sandbox_task =
        tokio::spawn(async move { axum::serve(sandbox, sandbox_router(config)).await });
    let app = router(s.clone());
    let app_task = tokio::spawn(async move { axum::serve(listener, app).await });

    let resp = mcplab_net::tls::client()
        .post(format!("{origin}/api/apps/render"))
        .bearer_auth(TOKEN)
        .json(&spec("demo"))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let v: Value = resp.json().await.unwrap();
    assert_eq!(status, reqwest::StatusCode::OK, "{v}");
    assert_eq!(v["report"]["initialized"], true, "{v}");
    let png = base64::engine::general_purpose::STANDARD
        .decode(v["pngBase64"].as_str().unwrap())
        .unwrap();
    assert_eq!(mcplab_render::png_size(&png).map(|(w, _)| w), Some(640));
    app_task.abort();
    sandbox_task.abort();
    s.manager.shutdown().await;
}
