//! The OAuth routes of the local API against the testkit's real authorization server and
//! protected MCP server: the loopback callback (no API token, only a pending state), the
//! debugger's runs (non-interactive and interactive through the callback, steps live on SSE),
//! and a configured server's sign-in, status and sign-out. In process with
//! `router(state).oneshot(...)`, and over a real socket where a browser's redirects must land.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use mcplab_mcp::sse::SseParser;
use mcplab_server::{AppState, router};
use mcplab_testkit::oauth::{OAuthTestConfig, OAuthTestServer};
use serde_json::{Value, json};

use crate::router_support::{TOKEN, authed, req, send, state_on};

/// A request without credentials (a page that is not signed in, a redirect from elsewhere).
async fn anonymous(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (s, v, _) = send(app, req(method, path, body.clone()), body).await;
    (s, v)
}

async fn serve() -> (String, Arc<AppState>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let state = state_on(port);
    let app = router(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://127.0.0.1:{port}"), state)
}

fn api() -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        format!("Bearer {TOKEN}").parse().unwrap(),
    );
    mcplab_net::tls::client_builder()
        .default_headers(headers)
        .build()
        .unwrap()
}

/// A browser: carries no API token; redirects are followed by [`browse`].
fn browser() -> reqwest::Client {
    mcplab_net::tls::client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Follows redirects from `url` like a browser and returns the last `Location` (fragments
/// included, which HTTP clients drop).
async fn browse(url: &str) -> String {
    let client = browser();
    let mut url = reqwest::Url::parse(url).unwrap();
    let mut last = String::new();
    for _ in 0..5 {
        let resp = client.get(url.clone()).send().await.unwrap();
        let Some(location) = resp.headers().get(reqwest::header::LOCATION) else {
            break;
        };
        last = location.to_str().unwrap().to_string();
        url = url.join(&last).unwrap();
        if url.fragment().is_some() {
            break;
        }
    }
    last
}

/// `GET url` with `client`: the answer's JSON body.
async fn get_json(client: &reqwest::Client, url: String) -> Value {
    client.get(url).send().await.unwrap().json().await.unwrap()
}

/// `POST url` with `client` (and `body` as JSON when given): the answer's JSON body.
async fn post_json(client: &reqwest::Client, url: String, body: Option<Value>) -> Value {
    let mut request = client.post(url);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap().json().await.unwrap()
}

/// A token shown masked, revealing none of the tokens `server` issued.
fn assert_masked(masked: &Value, server: &OAuthTestServer) {
    let masked = masked.as_str().unwrap();
    assert!(masked.contains('…'), "{masked}");
    let issued = server.access_tokens();
    assert!(!issued.is_empty());
    for token in &issued {
        assert!(!masked.contains(token.as_str()), "{masked} reveals {token}");
    }
}

/// The first of `run`'s steps that `pred` accepts.
fn find_step(run: &Value, pred: impl Fn(&Value) -> bool) -> Option<&Value> {
    run["steps"].as_array().unwrap().iter().find(|s| pred(s))
}

async fn wait_run(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let run = get_json(client, format!("{base}/api/oauth/debug/{id}")).await;
            if pred(&run) {
                return run;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the run got there")
}

#[tokio::test]
async fn callback_needs_no_token_but_a_pending_state() {
    let app = router(state_on(6274));
    let (s, body) = anonymous(&app, "GET", "/oauth/callback?code=abc&state=unknown", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        body.as_str()
            .unwrap()
            .contains("unknown or already finished"),
        "{body}"
    );
    let (s, body) = anonymous(&app, "GET", "/oauth/callback?code=abc", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(body.as_str().unwrap().contains("no state"), "{body}");
    // The debugger itself is behind the token like all of /api.
    let req = json!({"url": "http://127.0.0.1:1/mcp"});
    let (s, body) = anonymous(&app, "POST", "/api/oauth/debug", Some(req)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{body}");
    let bad = json!({"url": "ftp://x"});
    let (s, body) = authed(&app, "POST", "/api/oauth/debug", Some(bad)).await;
    assert_eq!(
        (s, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request"))
    );
    let (s, _) = authed(&app, "GET", "/api/oauth/debug/nope", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn non_interactive_debug_run_streams_its_steps() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let (base, _state) = serve().await;
    let client = api();
    let body = json!({"url": server.mcp_url(), "interactive": false, "revision": "2025-11-25"});
    let started = post_json(&client, format!("{base}/api/oauth/debug"), Some(body)).await;
    let id = started["runId"].as_str().unwrap().to_string();
    let mut events = client
        .get(format!("{base}/api/oauth/debug/{id}/events?lastEventId=0"))
        .send()
        .await
        .unwrap();
    let mut parser = SseParser::new();
    let mut steps = Vec::new();
    let finished = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let chunk = events.chunk().await.unwrap().expect("stream open");
            for e in parser.feed(&chunk) {
                if e.data.is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(&e.data).unwrap();
                match v["kind"].as_str() {
                    Some("step") => steps.push(v["step"].clone()),
                    Some("finished") => return v["run"].clone(),
                    other => panic!("unexpected event {other:?}"),
                }
            }
        }
    })
    .await
    .expect("finished");
    assert_eq!(finished["state"], "succeeded", "{finished}");
    assert_eq!(finished["steps"].as_array().unwrap().len(), steps.len());
    let seqs: Vec<u64> = steps.iter().map(|s| s["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=steps.len() as u64).collect::<Vec<_>>());
    assert_masked(&finished["result"]["accessToken"], &server);
    assert_eq!(finished["request"]["revision"], "2025-11-25");
    let whole = wait_run(&client, &base, &id, |r| r["state"] != "running").await;
    assert_eq!(whole, finished);
}

#[tokio::test]
async fn interactive_debug_run_finishes_through_the_callback() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let (base, _state) = serve().await;
    let client = api();
    let body = json!({"url": server.mcp_url(), "clientSecret": "s3cr3t-s3cr3t-s3cr3t"});
    let started = post_json(&client, format!("{base}/api/oauth/debug"), Some(body)).await;
    let id = started["runId"].as_str().unwrap().to_string();
    let is_browser = |s: &Value| s["kind"] == "browser";
    let waiting = wait_run(&client, &base, &id, |r| find_step(r, is_browser).is_some()).await;
    assert_eq!(waiting["request"]["clientSecret"], "s3cr… (20 chars)");
    let step = find_step(&waiting, is_browser).unwrap();
    let url = step["data"]["authorizationUrl"].as_str().unwrap();
    assert!(
        step["data"]["redirectUri"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{base}/oauth/callback"))
    );
    // The browser: authorization endpoint → our callback → the UI.
    assert_eq!(
        browse(url).await,
        format!("/#/oauth/{id}"),
        "back to the UI"
    );
    let done = wait_run(&client, &base, &id, |r| r["state"] != "running").await;
    assert_eq!(done["state"], "succeeded", "{done}");
    // The state was used once: coming back again is refused.
    let came_back = "The redirect came back with a code and the expected state";
    let callback = find_step(&done, |s| s["title"] == came_back).unwrap();
    let state = callback["data"]["state"].as_str().unwrap();
    let again = browser()
        .get(format!("{base}/oauth/callback?code=x&state={state}"))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), reqwest::StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn server_sign_in_status_and_sign_out() {
    let server = OAuthTestServer::start(OAuthTestConfig::default()).await;
    let (base, state) = serve().await;
    let client = api();
    let config = json!({"name": "remote", "type": "http", "url": server.mcp_url()});
    let resp = client
        .post(format!("{base}/api/servers"))
        .json(&config)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), reqwest::StatusCode::CREATED);

    let result = post_json(
        &client,
        format!("{base}/api/servers/remote/oauth/authorize"),
        None,
    )
    .await;
    assert_eq!(result["outcome"], "authorizationUrl", "{result}");
    let url = result["url"].as_str().unwrap();
    let status = get_json(&client, format!("{base}/api/servers/remote/oauth")).await;
    assert_eq!(status["pendingAuthorizationUrl"], url);
    assert_eq!(status["signedIn"], false);

    assert_eq!(browse(url).await, "/#/servers/remote");
    tokio::time::timeout(Duration::from_secs(20), async {
        while state.manager.get("remote").is_err() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the connection went on after the redirect");
    let status = get_json(&client, format!("{base}/api/servers/remote/oauth")).await;
    assert_eq!(status["signedIn"], true, "{status}");
    assert_eq!(status["registration"], "dcr");
    assert_masked(&status["accessToken"], &server);
    assert!(status["pendingAuthorizationUrl"].is_null());
    assert!(!status["lastSteps"].as_array().unwrap().is_empty());

    // A check connects afresh, signed in with the server's stored credentials, and records
    // under a name of its own: none of its frames mix with the live connection's.
    let report = post_json(
        &client,
        format!("{base}/api/servers/remote/check"),
        Some(json!({"protocol": "auto"})),
    )
    .await;
    let eras = report["eras"].as_array().unwrap();
    assert!(eras.iter().any(|e| e["connected"] == true), "{report}");
    assert!(
        eras.iter().all(|e| e["traffic"] == "remote (check)"),
        "{report}"
    );
    // The check lists resource templates; the live connection never did.
    let templates = |name: &str| {
        let frames = state.manager.traffic().snapshot(name).frames;
        frames
            .iter()
            .any(|f| f.text.contains("resources/templates/list"))
    };
    assert!(
        templates("remote (check)"),
        "the check's frames are under `remote (check)`"
    );
    assert!(!templates("remote"), "no check frame under `remote`");

    // Signed in and connected: authorizing again just says so.
    let result = post_json(
        &client,
        format!("{base}/api/servers/remote/oauth/authorize"),
        None,
    )
    .await;
    assert_eq!(result["outcome"], "connected");

    let resp = client
        .delete(format!("{base}/api/servers/remote/oauth"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), reqwest::StatusCode::NO_CONTENT);
    let status = get_json(&client, format!("{base}/api/servers/remote/oauth")).await;
    assert_eq!(status["signedIn"], false);
    assert!(
        status["clientId"].is_null(),
        "the registration is forgotten too"
    );
    assert!(state.manager.get("remote").is_err(), "disconnected");

    // Stdio servers do not sign in.
    let demo = json!({"name": "local", "type": "stdio", "command": "true"});
    client
        .post(format!("{base}/api/servers"))
        .json(&demo)
        .send()
        .await
        .unwrap();
    let resp = client
        .post(format!("{base}/api/servers/local/oauth/authorize"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), reqwest::StatusCode::BAD_REQUEST);
}
