//! Compare groups over a real socket: sessions grouped as one compare (kept in the SQLite file,
//! read back after the server is rebuilt on it), listed with their column, refused when
//! ill-formed, and exported whole as JSON and Markdown with every column. And x-rays on
//! demand: a session's view carries no x-ray bodies, the step route returns the step as stored.
//! The model is the testkit's scripted LLM server.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_testkit::llm::{ScriptedLlm, Step};
use serde_json::{Value, json};

use crate::router_support::SocketApp;

/// The router on a socket, with the scripted LLM as OpenAI.
struct App(SocketApp);

impl std::ops::Deref for App {
    type Target = SocketApp;
    fn deref(&self) -> &SocketApp {
        &self.0
    }
}

impl App {
    async fn start(llm: &ScriptedLlm, dir: &Path) -> App {
        let env = HashMap::from([
            ("OPENAI_API_KEY".to_owned(), "sk-secret-key-1234".to_owned()),
            ("OPENAI_BASE_URL".to_owned(), llm.base_url()),
        ]);
        let manager = ConnectionManager::new(ManagerOptions::default());
        App(SocketApp::start(manager, &env, dir).await)
    }

    async fn session(&self, model: &str) -> String {
        let (s, v) = self
            .call(
                "POST",
                "/api/sessions",
                Some(json!({"title": model, "hostConfig": {"model": model}})),
            )
            .await;
        assert_eq!(s, 201, "{v}");
        v["summary"]["id"].as_str().unwrap().to_owned()
    }

    /// Runs one turn and waits (bounded) until it is stored.
    async fn turn(&self, id: &str, message: &str) -> Value {
        let body = json!({"turnId": "turn-1", "message": message});
        let (s, v) = self
            .call("POST", &format!("/api/sessions/{id}/turns"), Some(body))
            .await;
        assert_eq!(s, 202, "{v}");
        // The stored turn is read back through the API the page uses; polled, bounded at 20 s.
        tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let (_, view) = self.call("GET", &format!("/api/sessions/{id}"), None).await;
                if view["turns"].as_array().is_some_and(|t| !t.is_empty()) {
                    return view;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await
        .expect("the turn was stored")
    }
}

#[tokio::test]
async fn a_compare_group_round_trips_and_exports_every_column() {
    let llm = ScriptedLlm::start(vec![
        Step::reply(["Answer one."]),
        Step::reply(["Answer two."]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let group = {
        let app = App::start(&llm, dir.path()).await;
        let a = app.session("openai::gpt-4o-mini").await;
        let b = app.session("openai::gpt-4.1-mini").await;
        let plain = app.session("openai::gpt-4o-mini").await;
        app.turn(&a, "hello").await;
        app.turn(&b, "hello").await;

        let (s, v) = app
            .call("POST", "/api/compares", Some(json!({"sessions": [a]})))
            .await;
        assert_eq!(s, 400, "one column is no compare: {v}");
        let (s, v) = app
            .call(
                "POST",
                "/api/compares",
                Some(json!({"sessions": [a, "nope"]})),
            )
            .await;
        assert_eq!(s, 404, "{v}");
        let (s, g) = app
            .call("POST", "/api/compares", Some(json!({"sessions": [b, a]})))
            .await;
        assert_eq!(s, 201, "{g}");
        assert_eq!(g["sessions"], json!([b, a]), "column order as given");
        let (s, v) = app
            .call(
                "POST",
                "/api/compares",
                Some(json!({"sessions": [a, plain]})),
            )
            .await;
        assert_eq!(s, 409, "a session is in one compare only: {v}");
        assert!(
            v["message"].as_str().unwrap().contains("already column 2"),
            "{v}"
        );
        g["id"].as_str().unwrap().to_owned()
    };

    // A new server on the same file: the grouping is stored.
    let app = App::start(&llm, dir.path()).await;
    let (_, list) = app.call("GET", "/api/sessions", None).await;
    let members: Vec<(String, Value)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["title"].as_str().unwrap().to_owned(),
                s["compare"].clone(),
            )
        })
        .collect();
    assert_eq!(
        members.iter().filter(|(_, c)| c.is_null()).count(),
        1,
        "{members:?}"
    );
    assert!(members.contains(&(
        "openai::gpt-4.1-mini".into(),
        json!({"group": group, "column": 1})
    )));
    let (s, g) = app
        .call("GET", &format!("/api/compares/{group}"), None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(g["sessions"].as_array().unwrap().len(), 2);

    let (s, json_export) = app
        .call(
            "GET",
            &format!("/api/compares/{group}/export?format=json"),
            None,
        )
        .await;
    assert_eq!(s, 200);
    let columns = json_export["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 2);
    assert_eq!(
        columns[0]["summary"]["hostConfig"]["model"],
        "openai::gpt-4.1-mini"
    );
    let answers: Vec<String> = columns
        .iter()
        .map(|c| c["turns"][0]["events"].to_string())
        .collect();
    assert!(
        answers[0].contains("Answer two.") && answers[1].contains("Answer one."),
        "{answers:?}"
    );

    let (s, md) = app
        .text(
            "GET",
            &format!("/api/compares/{group}/export?format=markdown"),
            None,
        )
        .await;
    assert_eq!(s, 200);
    let one = md.find("## Column 1: `openai::gpt-4.1-mini`").expect(&md);
    let two = md.find("## Column 2: `openai::gpt-4o-mini`").expect(&md);
    assert!(
        one < two
            && md.contains("### You")
            && md.contains("Answer one.")
            && md.contains("Answer two."),
        "{md}"
    );
    let (s, _) = app
        .call(
            "GET",
            &format!("/api/compares/{group}/export?format=pdf"),
            None,
        )
        .await;
    assert_eq!(s, 400);
    let (s, _) = app.call("GET", "/api/compares/unknown", None).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn a_sessions_view_leaves_xray_bodies_to_the_step_route() {
    let llm = ScriptedLlm::start(vec![Step::reply(["Hi there."])]).await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let id = app.session("openai::gpt-4o-mini").await;
    app.turn(&id, "hello").await;

    let (s, text) = app.text("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(s, 200);
    assert!(
        !text.contains("\\\"messages\\\""),
        "the view carries no request body: {text}"
    );
    let view: Value = serde_json::from_str(&text).unwrap();
    let shown = step_of(&view, 1);
    let exchange = &shown["exchanges"][0];
    assert_eq!(exchange["requestBody"], "");
    assert_eq!(exchange["responseBody"], "");
    assert_eq!(exchange["bodiesOmitted"], true);
    assert!(exchange["requestBytes"].as_u64().unwrap() > 0, "sizes stay");

    let (s, xray) = app
        .call(
            "GET",
            &format!("/api/sessions/{id}/turns/turn-1/xray/1"),
            None,
        )
        .await;
    assert_eq!(s, 200, "{xray}");
    let (_, export) = app
        .call(
            "GET",
            &format!("/api/sessions/{id}/export?format=json"),
            None,
        )
        .await;
    assert_eq!(
        xray,
        step_of(&export, 1),
        "the step as stored, bodies and all"
    );
    assert!(xray["exchanges"][0].get("bodiesOmitted").is_none());
    let sent: Value =
        serde_json::from_str(xray["exchanges"][0]["requestBody"].as_str().unwrap()).unwrap();
    assert_eq!(sent, llm.requests()[0].body, "what the provider received");
    assert!(
        xray["exchanges"][0]["responseBody"]
            .as_str()
            .unwrap()
            .contains("Hi there.")
    );

    for path in ["turn-1/xray/2", "nope/xray/1"] {
        let (s, v) = app
            .call("GET", &format!("/api/sessions/{id}/turns/{path}"), None)
            .await;
        assert_eq!(s, 404, "{path}: {v}");
    }
}

/// Turn 1's x-ray of `step` in a session view.
fn step_of(view: &Value, step: u64) -> Value {
    view["turns"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "stepXray" && e["xray"]["step"] == step)
        .map(|e| e["xray"].clone())
        .expect("a stepXray event")
}

#[tokio::test]
async fn cached_input_tokens_reach_the_step_and_its_cost() {
    let llm = ScriptedLlm::start(vec![Step::reply(["Cached."])]).await;
    llm.report_cached_input(8);
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let id = app.session("openai::gpt-5-mini").await;
    app.turn(&id, "hello").await;
    let (_, xray) = app
        .call(
            "GET",
            &format!("/api/sessions/{id}/turns/turn-1/xray/1"),
            None,
        )
        .await;
    let tokens = &xray["tokens"];
    let reported = llm.requests()[0].usage.unwrap();
    assert_eq!(tokens["cachedInputTokens"], 8, "{tokens}");
    assert_eq!(tokens["inputTokens"], u64::from(reported.input_tokens));
    // gpt-5-mini: $0.25 in, $0.025 cached in, $2.00 out per million.
    let (input, output) = (
        f64::from(reported.input_tokens),
        f64::from(reported.output_tokens),
    );
    let by_hand = ((input - 8.0) * 0.25 + 8.0 * 0.025 + output * 2.0) / 1e6;
    let usd = xray["cost"]["usd"].as_f64().unwrap();
    assert!((usd - by_hand).abs() < 1e-12, "{usd} vs {by_hand}");
}
