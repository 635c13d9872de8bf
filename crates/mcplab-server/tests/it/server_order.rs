//! `PUT /api/server-order`: the user's order of the servers, kept by the store, listed by
//! `GET /api/servers` and told to every subscriber as one `reordered` event; an order that
//! does not name exactly the configured servers is refused and changes nothing.

use std::time::Duration;

use axum::http::StatusCode;
use mcplab_protocol::ServerEvent;
use mcplab_server::router;
use serde_json::{Value, json};

use crate::router_support::{authed, state};

fn config(name: &str) -> Value {
    json!({"name": name, "type": "stdio", "command": "true"})
}

async fn listed(app: &axum::Router) -> Vec<String> {
    let (_, list) = authed(app, "GET", "/api/servers", None).await;
    let list = list.as_array().cloned().unwrap_or_default();
    list.iter()
        .map(|v| v["config"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_order_is_kept_listed_and_told_and_a_stale_one_refused() {
    let state = state();
    let app = router(state.clone());
    for name in ["a", "b", "c"] {
        let (s, v) = authed(
            &app,
            "POST",
            "/api/servers?connect=false",
            Some(config(name)),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let mut events = state.manager.subscribe();
    let order = json!({"names": ["c", "a", "b"]});
    let (s, v) = authed(&app, "PUT", "/api/server-order", Some(order)).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    assert_eq!(listed(&app).await, ["c", "a", "b"]);
    let told = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let ServerEvent::Reordered { servers } = events.recv().await.unwrap() {
                return servers;
            }
        }
    })
    .await
    .expect("a `reordered` event");
    assert_eq!(told, ["c", "a", "b"]);

    // Another tab added `d` since this one read the list: refused, with what to do.
    authed(
        &app,
        "POST",
        "/api/servers?connect=false",
        Some(config("d")),
    )
    .await;
    let stale = json!({"names": ["a", "b", "c"]});
    let (s, v) = authed(&app, "PUT", "/api/server-order", Some(stale)).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "order_mismatch");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("missing: d"), "{message}");
    assert!(message.contains("reload the list"), "{message}");
    assert_eq!(listed(&app).await, ["c", "a", "b", "d"], "nothing changed");

    let (s, _) = authed(&app, "PUT", "/api/server-order", Some(json!({"names": 1}))).await;
    assert!(s.is_client_error(), "a body that is no order: {s}");
}
