//! Tests of the local HTTP API: in process with `router(state).oneshot(...)` for security and
//! the REST surface, and over a real socket for the event stream (parsed with a real SSE
//! parser), including `Last-Event-ID` replay and resync.

use std::time::Duration;

use axum::http::{Request, StatusCode, header};
use mcplab_mcp::sse::SseParser;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::ServerEvent;
use mcplab_server::router;
use serde_json::{Value, json};

use crate::router_support::{PORT, TOKEN, authed, demo_config, req, send, state, state_with};

/// A stdio "server" that only proves it ran by creating a file.
fn marker_config(name: &str, marker: &std::path::Path) -> Value {
    json!({"name": name, "type": "stdio", "command": "sh", "args": ["-c", format!("touch {}", marker.display())]})
}

#[tokio::test]
async fn refused_requests_spawn_nothing() {
    let app = router(state());
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("spawned");
    let cfg = marker_config("evil", &marker);

    // No token.
    let (s, v, _) = send(
        &app,
        req("POST", "/api/servers", Some(cfg.clone())),
        Some(cfg.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(v["code"], "unauthorized");
    let (s, _, _) = send(&app, req("POST", "/api/servers/evil/connect", None), None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    // A foreign page, even with a valid bearer.
    let foreign = req("POST", "/api/servers", Some(cfg.clone()))
        .header(header::ORIGIN, "http://evil.example")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    let (s, v, _) = send(&app, foreign, Some(cfg.clone())).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(v["code"], "forbidden");

    // DNS rebinding: right token, attacker's Host.
    let rebound = Request::builder()
        .method("POST")
        .uri("/api/servers")
        .header(header::HOST, "attacker.example:6274")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    let (s, _, _) = send(&app, rebound, Some(cfg.clone())).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // Wrong token.
    let wrong =
        req("POST", "/api/servers", Some(cfg.clone())).header(header::AUTHORIZATION, "Bearer nope");
    let (s, _, _) = send(&app, wrong, Some(cfg.clone())).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    let (s, list) = authed(&app, "GET", "/api/servers", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list, json!([]), "nothing was created");

    // The control: an accepted request does start its process, and by the time it has, a
    // process a refused request had started would have run too.
    let control = dir.path().join("control");
    let (s, _) = authed(
        &app,
        "POST",
        "/api/servers",
        Some(marker_config("good", &control)),
    )
    .await;
    assert!(s.is_success(), "{s}");
    authed(&app, "POST", "/api/servers/good/connect", None).await;
    // A file appearing has no event to wait on: polled, bounded at 10 s.
    for _ in 0..100 {
        if control.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(control.exists(), "the accepted server never started");
    assert!(!marker.exists(), "a refused request started a process");
}

#[tokio::test]
async fn servers_crud_connect_call_and_traffic() {
    let state = state();
    let app = router(state.clone());
    let (s, v) = authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["status"]["state"], "connecting", "adding connects");
    let (s, _) = authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, v) = authed(
        &app,
        "POST",
        "/api/servers",
        Some(json!({"name": "bad name", "type": "stdio", "command": "x"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");

    let (s, v) = authed(&app, "POST", "/api/servers/demo/connect", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"]["state"], "connected", "{v}");
    assert_eq!(v["info"]["serverInfo"]["name"], "mcplab-demo");

    let (_, tools) = authed(&app, "GET", "/api/servers/demo/tools", None).await;
    assert!(
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "add")
    );
    let (s, out) = authed(
        &app,
        "POST",
        "/api/servers/demo/tools/call",
        Some(json!({"name": "add", "arguments": {"a": 1, "b": 2}, "callId": "c1"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(out["result"]["structuredContent"]["sum"], 3.0, "{out}");
    assert!(out["error"].is_null());
    let (_, out) = authed(
        &app,
        "POST",
        "/api/servers/demo/tools/call",
        Some(json!({"name": "nope"})),
    )
    .await;
    assert_eq!(out["error"]["kind"], "server", "{out}");

    let (_, read) = authed(
        &app,
        "POST",
        "/api/servers/demo/resources/read",
        Some(json!({"uri": "demo://readme"})),
    )
    .await;
    assert_eq!(read["result"]["contents"][0]["uri"], "demo://readme");
    let (_, got) = authed(
        &app,
        "POST",
        "/api/servers/demo/prompts/get",
        Some(json!({"name": "greeting", "arguments": {"name": "Ada"}})),
    )
    .await;
    assert!(
        got["result"]["messages"].to_string().contains("Ada"),
        "{got}"
    );
    let (_, done) = authed(
        &app,
        "POST",
        "/api/servers/demo/complete",
        Some(json!({"ref": {"type": "ref/prompt", "name": "code_review"}, "argument": {"name": "language", "value": "ru"}})),
    )
    .await;
    assert_eq!(
        done["result"]["completion"]["values"],
        json!(["ruby", "rust"])
    );

    let (_, traffic) = authed(&app, "GET", "/api/servers/demo/traffic", None).await;
    let frames = traffic["frames"].as_array().unwrap();
    assert!(frames.iter().any(|f| {
        f["text"]
            .as_str()
            .unwrap()
            .contains("\"method\":\"tools/call\"")
    }));

    let (_, exported) = authed(&app, "GET", "/api/servers/export", None).await;
    assert_eq!(
        exported["mcpServers"]["demo"]["args"],
        json!(["demo-server"])
    );
    let (s, imported) = import(
        &app,
        r#"{"mcpServers": {"r": {"url": "http://127.0.0.1:9/mcp"}}}"#,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(imported["added"], json!(["r"]));
    let (s, bad) = import(&app, r#"{"mcpServers": {"r": {}}}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        bad["message"].as_str().unwrap().contains("mcpServers.r"),
        "{bad}"
    );
    // B9: one bad entry is skipped with a warning; JSONC is accepted (B8).
    let (s, partial) = import(
        &app,
        "{\"servers\": {// c\n\"ok\": {\"command\": \"x\"}, \"bad\": {},}}",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{partial}");
    assert_eq!(partial["added"], json!(["ok"]));
    assert!(
        partial["warnings"][0]
            .as_str()
            .unwrap()
            .contains("skipped `bad`"),
        "{partial}"
    );

    let broken = json!({"name": "broken", "type": "stdio", "command": "sh", "args": ["-c", "echo 'missing API_KEY' >&2; exit 1"]});
    authed(&app, "POST", "/api/servers", Some(broken)).await;
    let (s, v) = authed(&app, "POST", "/api/servers/broken/connect", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"]["state"], "failed", "{v}");
    assert!(
        v["status"]["message"]
            .as_str()
            .unwrap()
            .contains("exit code 1"),
        "{v}"
    );
    assert_eq!(
        v["stderr"],
        json!(["missing API_KEY"]),
        "stderr is kept after a failure"
    );

    let (s, v) = authed(&app, "POST", "/api/servers/demo/disconnect", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"]["state"], "disconnected");
    let (s, _) = authed(&app, "DELETE", "/api/servers/demo", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = authed(&app, "GET", "/api/servers/demo", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// `POST /api/servers/import` of `text` (a config file's JSON or JSONC).
async fn import(app: &axum::Router, text: &str) -> (StatusCode, Value) {
    authed(
        app,
        "POST",
        "/api/servers/import",
        Some(json!({ "json": text })),
    )
    .await
}

/// Waits (30 s at most) for the first event `found` accepts; `what` names it in the failure.
async fn first_event(
    events: &mut mcplab_mcp::EventReceiver,
    what: &str,
    mut found: impl FnMut(ServerEvent) -> bool,
) {
    let wanted = async { while !found(events.recv().await.unwrap()) {} };
    tokio::time::timeout(Duration::from_secs(30), wanted)
        .await
        .unwrap_or_else(|_| panic!("{what} never came"));
}

/// Waits (bounded) for a `status` event of `server` in `state`.
async fn status_event(events: &mut mcplab_mcp::EventReceiver, server: &str, state: &str) {
    first_event(events, &format!("`{server}` becoming {state}"), |e| {
        matches!(e, ServerEvent::Status { server: s, status }
            if s == server && serde_json::to_value(&status).unwrap()["state"] == state)
    })
    .await;
}

#[tokio::test]
async fn a_tool_call_goes_on_when_its_request_goes_away_and_is_picked_up_again() {
    let state = state();
    let app = router(state.clone());
    authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    authed(&app, "POST", "/api/servers/demo/connect", None).await;
    let call =
        json!({"name": "slow_task", "arguments": {"steps": 4, "step_ms": 150}, "callId": "k1"});
    let app2 = app.clone();
    let request = tokio::spawn(async move {
        authed(&app2, "POST", "/api/servers/demo/tools/call", Some(call)).await
    });
    // The page goes away (a reload) once the call reported progress.
    let mut listed = Value::Null;
    for _ in 0..100 {
        let (_, v) = authed(&app, "GET", "/api/calls", None).await;
        if !v[0]["progress"].is_null() {
            listed = v;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    request.abort();
    assert_eq!(listed[0]["callId"], "k1", "{listed}");
    assert_eq!(listed[0]["tool"], "slow_task");
    assert!(listed[0]["endedAtMs"].is_null(), "{listed}");
    let (s, v) = authed(&app, "GET", "/api/servers/demo/calls/k1", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(
        v["endedAtMs"].is_u64(),
        "the wait returns once the call ended: {v}"
    );
    let text = v["outcome"]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(text.contains("Finished all 4 steps"), "{v}");
    // Its request is named by id and time, so its frames can be found exactly.
    let id = &v["outcome"]["requests"][0]["id"];
    let frames = state.manager.traffic().snapshot("demo").frames;
    assert!(
        frames
            .iter()
            .any(|f| f.text.contains("\"tools/call\"") && f.text.contains(&format!("\"id\":{id}"))),
        "no tools/call with id {id}"
    );
    let (s, _) = authed(&app, "GET", "/api/servers/demo/calls/nope", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    state.manager.shutdown().await;
}

#[tokio::test]
async fn adding_a_server_connects_it_unless_asked_not_to() {
    let state = state();
    let app = router(state.clone());
    let mut events = state.manager.subscribe();
    // Asked not to, or configured for a browser sign-in: saved, not connected.
    let (s, v) = authed(
        &app,
        "POST",
        "/api/servers?connect=false",
        Some(demo_config("later")),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["status"]["state"], "disconnected");
    let signin = json!({"name": "signin", "type": "http", "url": "http://127.0.0.1:9/mcp",
        "oauth": {"registration": "dcr"}});
    let (_, v) = authed(&app, "POST", "/api/servers", Some(signin)).await;
    assert_eq!(v["status"]["state"], "disconnected", "{v}");

    // Added: connecting at once, then connected with nobody asking for it.
    let (s, v) = authed(&app, "POST", "/api/servers", Some(demo_config("now"))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["status"]["state"], "connecting");
    status_event(&mut events, "now", "connected").await;
    let (_, v) = authed(&app, "GET", "/api/servers/now", None).await;
    assert_eq!(v["info"]["serverInfo"]["name"], "mcplab-demo", "{v}");
    assert_eq!(state.manager.status("later"), None, "never connected");
    assert_eq!(state.manager.status("signin"), None, "never connected");

    // A failure comes with its reason.
    let broken = json!({"name": "broken", "type": "stdio", "command": "sh",
        "args": ["-c", "echo 'missing API_KEY' >&2; exit 1"]});
    authed(&app, "POST", "/api/servers", Some(broken)).await;
    status_event(&mut events, "broken", "failed").await;
    let (_, v) = authed(&app, "GET", "/api/servers/broken", None).await;
    assert!(
        v["status"]["message"]
            .as_str()
            .unwrap()
            .contains("exit code 1"),
        "{v}"
    );

    // Connect right after adding joins the connection under way: one handshake, not two.
    let mut pinned = demo_config("joined");
    pinned["protocol"] = json!("2025-11-25");
    authed(&app, "POST", "/api/servers", Some(pinned)).await;
    let (_, v) = authed(&app, "POST", "/api/servers/joined/connect", None).await;
    assert_eq!(v["status"]["state"], "connected", "{v}");
    let (_, traffic) = authed(&app, "GET", "/api/servers/joined/traffic", None).await;
    let handshakes = traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["text"]
                .as_str()
                .unwrap_or_default()
                .contains(r#""method":"initialize""#)
        })
        .count();
    assert_eq!(handshakes, 1, "{traffic}");
}

#[tokio::test]
async fn human_requests_roots_and_prefs() {
    let state = state();
    let app = router(state.clone());
    authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    authed(&app, "POST", "/api/servers/demo/connect", None).await;
    let (s, roots) = authed(
        &app,
        "PUT",
        "/api/settings/roots",
        Some(json!([{"uri": "file:///srv/app", "name": "app"}])),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{roots}");
    let (s, _) = authed(
        &app,
        "PUT",
        "/api/settings/roots",
        Some(json!([{"uri": "not a uri"}])),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (_, listed) = authed(
        &app,
        "POST",
        "/api/servers/demo/tools/call",
        Some(json!({"name": "list_roots"})),
    )
    .await;
    assert!(listed.to_string().contains("file:///srv/app"), "{listed}");

    let app2 = app.clone();
    let call = tokio::spawn(async move {
        authed(
            &app2,
            "POST",
            "/api/servers/demo/tools/call",
            Some(json!({"name": "elicit_form"})),
        )
        .await
    });
    let mut pending = Value::Null;
    for _ in 0..100 {
        let (_, p) = authed(&app, "GET", "/api/human", None).await;
        if p.as_array().is_some_and(|a| !a.is_empty()) {
            pending = p;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let id = pending[0]["id"]
        .as_u64()
        .expect("an elicitation is pending");
    assert_eq!(pending[0]["kind"], "elicitation");
    let (s, _) = authed(
        &app,
        "POST",
        &format!("/api/human/{id}"),
        Some(json!({"action": "accept", "content": {"name": "Ada", "age": 36, "color": "red", "subscribe": true}})),
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, out) = call.await.unwrap();
    assert_eq!(
        out["result"]["structuredContent"]["action"], "accept",
        "{out}"
    );
    let (s, _) = authed(
        &app,
        "POST",
        &format!("/api/human/{id}"),
        Some(json!({"action": "cancel"})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "answered twice");

    let (s, _) = authed(&app, "PUT", "/api/prefs/theme", Some(json!("dark"))).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, prefs) = authed(&app, "GET", "/api/prefs", None).await;
    assert_eq!(prefs["theme"], "dark");
    state.manager.shutdown().await;
}

/// Reads SSE events from a live response until `pred` matches one (bounded).
async fn read_until(
    resp: &mut reqwest::Response,
    parser: &mut SseParser,
    seen: &mut Vec<(u64, Value)>,
    pred: impl Fn(&Value) -> bool,
) {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let chunk = resp.chunk().await.unwrap().expect("stream open");
            for e in parser.feed(&chunk) {
                if e.data.is_empty() {
                    continue; // the `retry:` hello
                }
                let v: Value = serde_json::from_str(&e.data).unwrap();
                let id = e.id.as_deref().and_then(|i| i.parse().ok()).unwrap_or(0);
                let done = pred(&v);
                seen.push((id, v));
                if done {
                    return;
                }
            }
        }
    })
    .await
    .expect("the event arrives");
}

#[tokio::test]
async fn event_stream_replays_after_last_event_id() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let manager = ConnectionManager::new(ManagerOptions::default());
    let state = state_with(manager.clone(), port, &Default::default());
    tokio::spawn(axum::serve(listener, router(state.clone())).into_future());
    let base = format!("http://127.0.0.1:{port}");
    let client = mcplab_net::tls::client();
    let auth = format!("Bearer {TOKEN}");

    let mut events = client
        .get(format!("{base}/api/events"))
        .header("authorization", &auth)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    assert!(
        events.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    client
        .post(format!("{base}/api/servers"))
        .header("authorization", &auth)
        .json(&demo_config("demo"))
        .send()
        .await
        .unwrap();
    client
        .post(format!("{base}/api/servers/demo/connect"))
        .header("authorization", &auth)
        .send()
        .await
        .unwrap();

    let mut parser = SseParser::new();
    let mut seen = Vec::new();
    read_until(&mut events, &mut parser, &mut seen, |v| {
        v["kind"] == "server"
            && v["event"]["type"] == "status"
            && v["event"]["status"]["state"] == "connected"
    })
    .await;
    assert!(
        seen.iter().any(|(_, v)| v["kind"] == "traffic"),
        "traffic frames are on the stream"
    );
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "ids increase");
    drop(events);

    // Reconnect from the middle: everything after that id comes again, in order.
    let (mid, _) = seen[seen.len() / 2];
    let mut again = client
        .get(format!("{base}/api/events"))
        .header("authorization", &auth)
        .header("last-event-id", mid.to_string())
        .send()
        .await
        .unwrap();
    let mut parser = SseParser::new();
    let mut replayed = Vec::new();
    let last = seen.last().unwrap().0;
    read_until(&mut again, &mut parser, &mut replayed, |_| true).await;
    while replayed.last().unwrap().0 < last {
        read_until(&mut again, &mut parser, &mut replayed, |_| true).await;
    }
    let expected: Vec<u64> = seen
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| *id > mid)
        .collect();
    let got: Vec<u64> = replayed
        .iter()
        .map(|(id, _)| *id)
        .take(expected.len())
        .collect();
    assert_eq!(got, expected);

    // An id from another launch cannot be replayed: the client is told to resync.
    let mut stale = client
        .get(format!("{base}/api/events"))
        .header("authorization", &auth)
        .header("last-event-id", "999999999")
        .send()
        .await
        .unwrap();
    let mut parser = SseParser::new();
    let mut got = Vec::new();
    read_until(&mut stale, &mut parser, &mut got, |v| v["kind"] == "resync").await;
    manager.shutdown().await;
}

/// A subresource another origin of this site (or another site) loads from `/api` carries no
/// Origin header; fetch metadata gives it away and it is refused, whatever it carries. The
/// UI's own same-origin requests pass.
#[tokio::test]
async fn api_requests_from_another_origin_of_the_same_site_are_refused() {
    let app = router(state());
    let bearer = format!("Bearer {TOKEN}");
    for site in ["same-site", "cross-site"] {
        let b = req("GET", "/api/servers", None)
            .header(header::AUTHORIZATION, &bearer)
            .header("sec-fetch-site", site);
        let (status, body, _) = send(&app, b, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{site}");
        assert_eq!(body["code"], "forbidden");
    }
    for site in ["same-origin", "none"] {
        let b = req("GET", "/api/servers", None)
            .header(header::AUTHORIZATION, &bearer)
            .header("sec-fetch-site", site);
        let (status, _, _) = send(&app, b, None).await;
        assert_eq!(status, StatusCode::OK, "{site}");
    }
}

#[tokio::test]
async fn host_info_reports_the_app_origins_once_set() {
    let st = state();
    let app = router(st.clone());
    let (status, body) = authed(&app, "GET", "/api/host", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["sandboxOriginTemplate"], Value::Null);
    assert_eq!(st.sandbox_frame_src(), None);
    let config = mcplab_server::sandbox::SandboxConfig::loopback(PORT, 6275);
    st.sandbox.set(config.origins()).unwrap();
    let (_, body) = authed(&app, "GET", "/api/host", None).await;
    assert_eq!(
        body["sandboxOriginTemplate"],
        "http://{label}.localhost:6275"
    );
    assert_eq!(body["sandboxPerApp"], true);
    assert_eq!(st.sandbox_frame_src(), Some("http://*.localhost:6275"));
}

/// Waits (bounded) for `removed` of `server`, failing on another server's removal.
async fn removed_event(events: &mut mcplab_mcp::EventReceiver, server: &str) {
    first_event(events, &format!("a `removed` event for `{server}`"), |e| {
        let ServerEvent::Removed { server: s } = e else {
            return false;
        };
        assert_eq!(s, server, "only `{server}` was removed");
        true
    })
    .await;
}

#[tokio::test]
async fn a_deleted_or_renamed_server_is_gone_for_every_subscriber() {
    let state = state();
    let app = router(state.clone());
    let mut events = state.manager.subscribe();
    // Connected: closed first, then removed.
    authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    status_event(&mut events, "demo", "connected").await;
    let (s, _) = authed(&app, "DELETE", "/api/servers/demo", None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    status_event(&mut events, "demo", "disconnected").await;
    removed_event(&mut events, "demo").await;
    assert_eq!(state.manager.status("demo"), None, "nothing kept of it");
    // Never connected: removed all the same.
    let later = "/api/servers?connect=false";
    authed(&app, "POST", later, Some(demo_config("later"))).await;
    authed(&app, "DELETE", "/api/servers/later", None).await;
    removed_event(&mut events, "later").await;
    // Renamed: the old name is gone.
    authed(&app, "POST", later, Some(demo_config("old"))).await;
    let (s, v) = authed(&app, "PUT", "/api/servers/old", Some(demo_config("new"))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    removed_event(&mut events, "old").await;
    // Added again under a removed name: connects as new.
    authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    status_event(&mut events, "demo", "connected").await;
    state.manager.shutdown().await;
}

/// The configuration events, in order, up to the one `last` accepts (bounded).
async fn config_events_until(
    events: &mut mcplab_mcp::EventReceiver,
    last: &ServerEvent,
) -> Vec<ServerEvent> {
    let mut seen = Vec::new();
    first_event(events, &format!("{last:?}"), |e| {
        let done = e == *last;
        if matches!(
            e,
            ServerEvent::Added { .. } | ServerEvent::Updated { .. } | ServerEvent::Removed { .. }
        ) {
            seen.push(e);
        }
        done
    })
    .await;
    seen
}

#[tokio::test]
async fn an_added_changed_or_imported_server_is_told_to_every_subscriber() {
    let state = state();
    let app = router(state.clone());
    let mut events = state.manager.subscribe();
    let added = |s: &str| ServerEvent::Added { server: s.into() };
    let updated = |s: &str| ServerEvent::Updated { server: s.into() };
    let later = "/api/servers?connect=false";
    let (s, _) = authed(&app, "POST", later, Some(demo_config("one"))).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(
        config_events_until(&mut events, &added("one")).await.len(),
        1
    );
    authed(&app, "PUT", "/api/servers/one", Some(demo_config("one"))).await;
    let seen = config_events_until(&mut events, &updated("one")).await;
    assert_eq!(seen, [updated("one")]);
    // Renamed: the old name removed, the new one added.
    authed(&app, "PUT", "/api/servers/one", Some(demo_config("two"))).await;
    let seen = config_events_until(&mut events, &added("two")).await;
    assert_eq!(
        seen,
        [
            ServerEvent::Removed {
                server: "one".into()
            },
            added("two")
        ]
    );
    let doc = json!({"mcpServers": {"two": {"command": "x"}, "three": {"command": "y"}}});
    let body = json!({"json": doc.to_string()});
    let (s, v) = authed(&app, "POST", "/api/servers/import", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let seen = config_events_until(&mut events, &added("three")).await;
    assert_eq!(seen, [updated("two"), added("three")]);
}

/// `import` and `export` are routes of their own under `/api/servers`, and also names a
/// server may have: such a server is still replaced and deleted by name.
#[tokio::test]
async fn servers_named_like_a_route_are_replaced_and_deleted_by_name() {
    let app = router(state());
    for name in ["import", "export"] {
        let later = "/api/servers?connect=false";
        let (s, v) = authed(&app, "POST", later, Some(demo_config(name))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let path = format!("/api/servers/{name}");
        let (s, v) = authed(&app, "PUT", &path, Some(demo_config(name))).await;
        assert_eq!(s, StatusCode::OK, "{name}: {v}");
        let (s, v) = authed(&app, "DELETE", &path, None).await;
        assert_eq!(s, StatusCode::NO_CONTENT, "{name}: {v}");
    }
    let (_, list) = authed(&app, "GET", "/api/servers", None).await;
    assert_eq!(list, json!([]), "both gone");
}
