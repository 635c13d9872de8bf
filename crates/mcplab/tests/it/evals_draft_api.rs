//! `POST /api/evals/suites/{name}/drafts` through the real router: the scripted model sees the
//! connected demo server's tools, and the cases it drafts are appended to the suite file, which
//! still loads; a bad count, an unknown model or a reply without cases changes nothing.

use axum::http::StatusCode;
use mcplab_server::router;
use mcplab_testkit::llm::{ScriptedLlm, Step};
use serde_json::json;

use crate::router_support::{authed, demo_config, state_with_llm};

const SUITE: &str = "version: 1\nid: s\nmodels: [openai::m]\ncases:\n  - id: a\n    turns: [hi]\n    checks: [answerContains: hi]\n";

#[tokio::test]
async fn a_model_drafts_cases_from_the_connected_tools_into_the_suite() {
    let reply = json!([
        {"id": "add two", "prompt": "What is 2 plus 3?", "server": "demo", "tool": "add",
         "arguments": {"a": 2, "b": 3}},
        {"prompt": "no tool named: skipped"},
        {"id": "echo", "prompt": "Say hello back", "server": "demo", "tool": "echo"}
    ]);
    let llm = ScriptedLlm::start(vec![
        Step::reply([format!("Here they are:\n```json\n{reply}\n```")]),
        Step::reply(["Sorry, I cannot."]),
    ])
    .await;
    let app = router(state_with_llm(&llm));
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.yaml");
    std::fs::write(&suite, SUITE).unwrap();
    let folder = json!({"folder": dir.path()});
    authed(&app, "PUT", "/api/evals/folder", Some(folder)).await;
    let path = "/api/evals/suites/s.yaml/drafts";

    let (s, v) = authed(&app, "POST", path, Some(json!({"model": "openai::m"}))).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "no server connected yet: {v}");
    assert!(v.to_string().contains("connect"), "{v}");
    authed(&app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    authed(&app, "POST", "/api/servers/demo/connect", None).await;
    for bad in [
        json!({"model": "openai::m", "count": 0}),
        json!({"model": "nope"}),
    ] {
        let (s, v) = authed(&app, "POST", path, Some(bad.clone())).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    assert!(llm.requests().is_empty(), "refused before asking the model");

    let body = json!({"model": "openai::m", "count": 3});
    let (s, v) = authed(&app, "POST", path, Some(body.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"name": "s.yaml", "caseIds": ["add-two", "echo"]}));
    let asked = llm.requests()[0].body.to_string();
    assert!(
        asked.contains("Write 3") && asked.contains("\\\"add\\\""),
        "{asked}"
    );
    let text = std::fs::read_to_string(&suite).unwrap();
    let parsed = mcplab_evals::suite::parse_suite(&text).expect("the suite still loads");
    let ids: Vec<&str> = parsed.cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["a", "add-two", "echo"], "{text}");

    let (s, v) = authed(&app, "POST", path, Some(body)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "a reply with no cases: {v}");
    assert!(v.to_string().contains("no JSON array"), "{v}");
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), text, "unchanged");
}
