//! The apps API in process (`router(state).oneshot(...)`) against the real demo server
//! (`mcplab demo-server` over stdio) and, for chat, the testkit's scripted LLM server over real
//! HTTP: `ui://` resources read and given their sandbox policy, tool calls made by rendered
//! UIs (refused before anything is sent unless the UI kind may call the tool of its own
//! server), app context reaching the model, and partial tool input kept live-only.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{StatusCode, header};
use http_body_util::BodyExt;
use mcplab_apps::{OwnOrigins, build_csp, csp_from_declared};
use mcplab_llm::ProviderSettings;
use mcplab_mcp::sse::SseParser;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::{AppState, Security, router};
use mcplab_store::Store;
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tower::ServiceExt;

const UI_URI: &str = "ui://mcplab-demo/counter.html";

use crate::router_support::{PORT, TOKEN, authed, demo_config, req, state, state_with_llm};

async fn connected(app: &axum::Router, name: &str) {
    let (s, v) = authed(app, "POST", "/api/servers", Some(demo_config(name))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (_, v) = authed(app, "POST", &format!("/api/servers/{name}/connect"), None).await;
    assert_eq!(v["status"]["state"], "connected", "{v}");
}

/// An app tool call through the API.
async fn app_call(app: &axum::Router, server: &str, body: Value) -> (StatusCode, Value) {
    let path = format!("/api/servers/{server}/apps/tools/call");
    authed(app, "POST", &path, Some(body)).await
}

#[tokio::test]
async fn a_ui_resource_is_read_decoded_and_given_its_sandbox_policy() {
    let app = router(state());
    connected(&app, "demo").await;
    let path = "/api/servers/demo/apps/resource";

    let (s, v) = authed(&app, "POST", path, Some(json!({"uri": UI_URI}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["uri"], UI_URI);
    assert_eq!(v["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(v["kind"], "mcpApp");
    assert!(
        v["html"].as_str().unwrap().contains("mcplab-demo counter"),
        "{v}"
    );
    // `_meta.ui.csp` is declared (empty): the declared template with no external origin.
    let csp = v["csp"].as_str().unwrap();
    assert!(csp.contains("connect-src 'self';"), "{csp}");
    assert!(
        csp.contains("frame-src 'none'") && !csp.contains("https:"),
        "{csp}"
    );
    assert_eq!(
        v["declaredCsp"],
        json!({"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []})
    );
    assert_eq!(v["rejected"], json!([]));
    assert_eq!(v["allow"], "");
    assert_eq!(v["prefersBorder"], true);
    assert_eq!(v["uiMeta"]["prefersBorder"], true);
    assert_eq!(v["contentMeta"]["ui"]["csp"], json!({}));
    // The sandbox page rebuilds exactly this policy from the object the browser passes on.
    let own = OwnOrigins::loopback(&[PORT], None);
    let (declared, rejected) = csp_from_declared(&v["declaredCsp"], &own);
    assert!(rejected.is_empty());
    assert_eq!(build_csp(declared.as_ref()), csp);

    // Declared entries naming mcplab itself are dropped, each with the reason shown to the user.
    let declare = json!({"name": "declare_hostile_csp", "arguments": {"csp": {
        "frameDomains": [format!("http://127.0.0.1:{PORT}"), "https://player.example"],
        "resourceDomains": ["http://*.localhost:6275", format!("http://localhost:{PORT}")],
        "connectDomains": ["http://127.0.0.1:7393"],
    }}});
    let (s, v) = authed(&app, "POST", "/api/servers/demo/tools/call", Some(declare)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let hostile = json!({"uri": "ui://mcplab-demo/hostile.html"});
    let (s, v) = authed(&app, "POST", path, Some(hostile)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let rejected: Vec<&str> = v["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(rejected.len(), 3, "{rejected:?}");
    assert!(
        rejected
            .iter()
            .all(|r| r.contains("may not load from, connect to or frame mcplab"))
    );
    assert_eq!(
        v["declaredCsp"],
        json!({"connectDomains": ["http://127.0.0.1:7393"], "resourceDomains": [],
               "frameDomains": ["https://player.example"], "baseUriDomains": []})
    );
    let csp = v["csp"].as_str().unwrap();
    assert!(
        !csp.contains(&PORT.to_string()) && !csp.contains("localhost"),
        "{csp}"
    );
    assert!(csp.ends_with("form-action 'none'"), "{csp}");

    let (s, v) = authed(&app, "POST", path, Some(json!({"uri": "demo://readme"}))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "not_a_ui_resource");
    assert!(v["message"].as_str().unwrap().contains("ui://"), "{v}");

    let missing = json!({"uri": "ui://mcplab-demo/missing.html"});
    let (s, v) = authed(&app, "POST", path, Some(missing)).await;
    assert_eq!(s, StatusCode::BAD_GATEWAY, "{v}");
    assert_eq!(
        v["code"], "server_error",
        "the server answered with a JSON-RPC error"
    );
    assert!(
        v["message"].as_str().unwrap().contains("missing.html"),
        "{v}"
    );

    authed(&app, "POST", "/api/servers", Some(demo_config("idle"))).await;
    let (s, v) = authed(
        &app,
        "POST",
        "/api/servers/idle/apps/resource",
        Some(json!({"uri": UI_URI})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not_connected");
}

#[tokio::test]
async fn apps_call_only_the_tools_of_their_own_server_that_they_may_call() {
    let state = state();
    let app = router(state.clone());
    connected(&app, "demo").await;
    connected(&app, "other").await;

    let (s, v) = app_call(
        &app,
        "demo",
        json!({"name": "app_only_increment", "ui": "mcpApp", "callId": "a1"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["error"].is_null(), "{v}");
    assert_eq!(
        v["result"]["content"][0]["text"], "The counter is now 1.",
        "{v}"
    );
    assert!(
        !state.calls.cancel("demo", "a1"),
        "the call ended: nothing is left to cancel"
    );
    assert!(
        state.calls.list().is_empty(),
        "an app's calls are not listed"
    );
    let (s, v) = app_call(
        &app,
        "demo",
        json!({"name": "app_only_increment", "ui": "mcpUi"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["content"][0]["text"], "The counter is now 2.");
    // Explicitly listed for apps: a widget may call it too.
    let (s, _) = app_call(
        &app,
        "demo",
        json!({"name": "app_only_increment", "ui": "openaiWidget"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);

    // `echo` has default visibility: fine for MCP Apps, not opted in for widgets.
    let echo = json!({"name": "echo", "arguments": {"message": "hi"}, "ui": "mcpApp"});
    let (s, v) = app_call(&app, "demo", echo).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app_call(
        &app,
        "demo",
        json!({"name": "echo", "arguments": {"message": "widget"}, "ui": "openaiWidget"}),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["code"], "tool_not_widget_accessible");
    assert!(v["message"].as_str().unwrap().contains("`echo`"), "{v}");

    // Unknown here, including another server's tool under its model-facing name.
    for name in ["nope", "other__echo"] {
        let (s, v) = app_call(&app, "demo", json!({"name": name, "ui": "mcpApp"})).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
        assert_eq!(v["code"], "unknown_tool");
        let message = v["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("`{name}`")) && message.contains("server `demo`"),
            "{message}"
        );
    }

    // Refusals were decided before anything reached the server.
    let (_, traffic) = authed(&app, "GET", "/api/servers/demo/traffic", None).await;
    let sent: Vec<&str> = traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["text"].as_str())
        .filter(|t| t.contains("\"method\":\"tools/call\""))
        .collect();
    assert_eq!(sent.len(), 4, "{sent:#?}");
    assert!(
        !sent
            .iter()
            .any(|t| t.contains("widget") || t.contains("nope"))
    );

    // Each call goes to the server in the path: `other` has its own counter.
    let (_, v) = app_call(
        &app,
        "other",
        json!({"name": "app_only_increment", "ui": "mcpApp"}),
    )
    .await;
    assert_eq!(v["result"]["content"][0]["text"], "The counter is now 1.");

    // A model-only tool (the demo's `secret_model_only`, visibility ["model"]) is refused to
    // every kind of UI over HTTP, and never reaches the server.
    for ui in ["mcpApp", "mcpUi", "openaiWidget"] {
        let call = json!({"name": "secret_model_only", "arguments": {}, "ui": ui});
        let (s, v) = app_call(&app, "demo", call).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{ui}: {v}");
        let code = if ui == "openaiWidget" {
            "tool_not_widget_accessible"
        } else {
            "tool_not_visible_to_app"
        };
        assert_eq!(v["code"], code, "{ui}: {v}");
        assert!(
            v["message"]
                .as_str()
                .unwrap()
                .contains("`secret_model_only`"),
            "{v}"
        );
    }
    let (_, traffic) = authed(&app, "GET", "/api/servers/demo/traffic", None).await;
    assert!(
        !traffic["frames"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["text"].as_str())
            .any(|t| t.contains("secret_model_only") && t.contains("tools/call")),
        "a refused call reached the server"
    );

    let (s, v) = app_call(&app, "absent", json!({"name": "echo", "ui": "mcpApp"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not_connected");
}

/// Waits until the session has `turns` stored turns and none running.
/// A new chat session with `openai::gpt-4o-mini` and the tools of `servers`: its id, and
/// the whole answer.
async fn new_session(app: &axum::Router, servers: &[&str]) -> (String, Value) {
    let settings = json!({"model": "openai::gpt-4o-mini", "servers": servers});
    let body = json!({ "settings": settings });
    let (s, created) = authed(app, "POST", "/api/sessions", Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["summary"]["id"].as_str().unwrap().to_owned();
    (id, created)
}

async fn wait_for_turns(app: &axum::Router, id: &str, turns: usize) -> Value {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let (_, v) = authed(app, "GET", &format!("/api/sessions/{id}"), None).await;
            if v["runningTurn"].is_null() && v["turns"].as_array().map(Vec::len) == Some(turns) {
                return v;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the turn ends in time")
}

/// The session's events from the start of its ring until one matches `done`.
async fn session_events(app: &axum::Router, id: &str, done: impl Fn(&Value) -> bool) -> Vec<Value> {
    let resp = app
        .clone()
        .oneshot(
            req(
                "GET",
                &format!("/api/sessions/{id}/events?lastEventId=0"),
                None,
            )
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut body = resp.into_body();
    let mut parser = SseParser::new();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let frame = body.frame().await.expect("stream open").unwrap();
            let Ok(chunk) = frame.into_data() else {
                continue;
            };
            for e in parser.feed(&chunk) {
                if e.data.is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(&e.data).unwrap();
                let stop = done(&v);
                seen.push(v);
                if stop {
                    return;
                }
            }
        }
    })
    .await
    .expect("the event arrives");
    seen
}

fn system_text(request_body: &Value) -> String {
    request_body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "system")
        .map(|m| m["content"].to_string())
        .collect()
}

#[tokio::test]
async fn app_context_is_given_to_the_model_until_it_is_removed() {
    let llm = ScriptedLlm::start(vec![Step::reply(["one"]), Step::reply(["two"])]).await;
    let app = router(state_with_llm(&llm));
    let (id, created) = new_session(&app, &[]).await;
    assert_eq!(created["appContext"], json!([]));
    let ctx = format!("/api/sessions/{id}/app-context/call-1");
    let input = json!({
        "server": "demo", "tool": "show_counter_app", "callId": "call-1", "source": "modelContext",
        "content": [{"type": "text", "text": "The counter app shows a count of 42."}],
        "structuredContent": {"count": 42},
    });

    let (s, v) = authed(&app, "PUT", &ctx, Some(input.clone())).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    let (s, _) = authed(
        &app,
        "PUT",
        "/api/sessions/nope/app-context/k",
        Some(input.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let mut bad = input.clone();
    bad["content"] = json!("just text");
    let (s, v) = authed(&app, "PUT", &ctx, Some(bad)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");

    let (_, view) = authed(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    let entries = view["appContext"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{view}");
    assert_eq!(entries[0]["key"], "call-1");
    assert_eq!(entries[0]["source"], "modelContext");
    assert_eq!(entries[0]["structuredContent"], json!({"count": 42}));
    assert!(entries[0]["updatedAtMs"].as_u64().unwrap() > 0);
    let events = session_events(&app, &id, |e| e["kind"] == "appContext").await;
    assert_eq!(
        events.last().unwrap()["entries"][0]["tool"],
        "show_counter_app"
    );

    let turn = |n: u32| json!({"turnId": format!("t{n}"), "message": format!("turn {n}")});
    let (s, _) = authed(
        &app,
        "POST",
        &format!("/api/sessions/{id}/turns"),
        Some(turn(1)),
    )
    .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    wait_for_turns(&app, &id, 1).await;
    let system = system_text(&llm.requests()[0].body);
    assert!(
        system.contains(
            "Context from the app of tool `show_counter_app` on server `demo` \
             (ui/update-model-context), not shown to the user as a message:"
        ),
        "{system}"
    );
    assert!(
        system.contains("The counter app shows a count of 42."),
        "{system}"
    );
    assert!(
        system.contains("structuredContent: {\\\"count\\\":42}"),
        "{system}"
    );

    let (s, _) = authed(&app, "DELETE", &ctx, None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = authed(&app, "DELETE", &ctx, None).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "deleting again is harmless");
    let (_, view) = authed(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(view["appContext"], json!([]));
    let events = session_events(&app, &id, |e| {
        e["kind"] == "appContext" && e["entries"] == json!([])
    })
    .await;
    assert!(events.iter().any(|e| e["kind"] == "turn"));

    let (s, _) = authed(
        &app,
        "POST",
        &format!("/api/sessions/{id}/turns"),
        Some(turn(2)),
    )
    .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    wait_for_turns(&app, &id, 2).await;
    let second = llm.requests()[1].body.to_string();
    assert!(!second.contains("Context from the app"), "{second}");
    assert!(second.contains("turn 2"), "{second}");
}

#[tokio::test]
async fn partial_tool_input_streams_live_but_is_not_stored() {
    let call = ScriptedCall {
        fragments: 5,
        ..ScriptedCall::new("c1", "demo__echo", json!({"message": "in pieces"}))
    };
    let llm = ScriptedLlm::start(vec![Step::call_tools([call]), Step::reply(["done"])]).await;
    let app = router(state_with_llm(&llm));
    connected(&app, "demo").await;
    let (id, _) = new_session(&app, &["demo"]).await;
    let (s, _) = authed(
        &app,
        "POST",
        &format!("/api/sessions/{id}/turns"),
        Some(json!({"turnId": "t1", "message": "echo"})),
    )
    .await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let live = session_events(&app, &id, |e| e["event"]["type"] == "turnFinished").await;
    let partials: Vec<&Value> = live
        .iter()
        .filter(|e| e["event"]["type"] == "toolInputPartial")
        .map(|e| &e["event"])
        .collect();
    assert!(partials.len() >= 3, "{live:#?}");
    assert_eq!(partials[0]["server"], "demo");
    assert_eq!(partials[0]["tool"], "echo");
    assert_eq!(
        partials.last().unwrap()["argumentsText"],
        json!({"message": "in pieces"}).to_string()
    );
    let view = wait_for_turns(&app, &id, 1).await;
    let stored = view["turns"][0]["events"].as_array().unwrap();
    assert!(stored.iter().any(|e| e["type"] == "toolCall"), "{view}");
    assert!(
        !stored.iter().any(|e| e["type"] == "toolInputPartial"),
        "partial input is live-only: {view}"
    );
}

/// What apps gave the model is saved with the session: a new process over the same database
/// shows it and gives it to the model again.
#[tokio::test]
async fn app_context_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcplab.db");
    let fresh = || {
        AppState::new(
            ConnectionManager::new(ManagerOptions::default()),
            Arc::new(Store::open(&path).unwrap()),
            Security::new(TOKEN.into(), PORT, None),
            ProviderSettings::from_vars(&HashMap::new()),
        )
    };
    let id = {
        let app = router(fresh());
        let (id, _) = new_session(&app, &[]).await;
        let input = json!({
            "server": "demo", "tool": "show_openai_widget", "callId": "c9", "source": "widgetState",
            "content": [], "structuredContent": {"widgetState": {"clicks": 3}},
        });
        let (s, _) = authed(
            &app,
            "PUT",
            &format!("/api/sessions/{id}/app-context/c9:widgetState"),
            Some(input),
        )
        .await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        id
    };
    let app = router(fresh());
    let (_, view) = authed(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(
        view["appContext"][0]["structuredContent"]["widgetState"]["clicks"], 3,
        "{view}"
    );
    let (s, _) = authed(
        &app,
        "DELETE",
        &format!("/api/sessions/{id}/app-context/c9:widgetState"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let app = router(fresh());
    let (_, view) = authed(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(view["appContext"], json!([]));
}

/// A polling app costs one `tools/list`, not one per call; when the server says its tools
/// changed, the next app call sees the new list.
#[tokio::test]
async fn app_calls_reuse_the_tool_list_until_the_server_changes_it() {
    let state = state();
    let app = router(state.clone());
    connected(&app, "demo").await;
    let lists = || {
        state
            .manager
            .traffic()
            .snapshot("demo")
            .frames
            .iter()
            .filter(|f| f.text.contains(r#""method":"tools/list""#))
            .count()
    };
    let before = lists();
    for _ in 0..3 {
        let (s, v) = app_call(
            &app,
            "demo",
            json!({"name": "app_only_increment", "ui": "mcpApp"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    assert_eq!(lists(), before + 1, "one tools/list for three app calls");

    let (s, v) = app_call(&app, "demo", json!({"name": "extra_tool", "ui": "mcpApp"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    // The server adds `extra_tool` and sends notifications/tools/list_changed.
    let (s, v) = authed(
        &app,
        "POST",
        "/api/servers/demo/tools/call",
        Some(json!({"name": "toggle_extra_tool", "arguments": {}})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut last = Value::Null;
    for _ in 0..100 {
        let (s, v) = app_call(&app, "demo", json!({"name": "extra_tool", "ui": "mcpApp"})).await;
        if s == StatusCode::OK {
            return;
        }
        last = v;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the new tool never became callable: {last}");
}
