//! `POST /api/evals/suites/{name}/drafts` through the real router: the scripted model sees the
//! connected demo server's tools, and the cases it drafts are appended to the suite file, which
//! still loads; a bad count, an unknown model or a reply without cases changes nothing; a
//! request its client drops writes nothing; a save made while the model drafts is kept.

use std::time::Duration;

use axum::http::StatusCode;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::router;
use mcplab_testkit::llm::{ScriptedLlm, Step};
use serde_json::json;

use crate::router_support::{SocketApp, authed, demo_config, llm_env, state_with_llm};

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

/// A suite folder holding `s.yaml`, set on `app`, with the demo server connected.
async fn drafting_setup(app: &axum::Router) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.yaml");
    std::fs::write(&suite, SUITE).unwrap();
    authed(
        app,
        "PUT",
        "/api/evals/folder",
        Some(json!({"folder": dir.path()})),
    )
    .await;
    authed(app, "POST", "/api/servers", Some(demo_config("demo"))).await;
    authed(app, "POST", "/api/servers/demo/connect", None).await;
    (dir, suite)
}

/// How long a test waits for the scripted model to see a request or lose its client.
const WAIT: Duration = Duration::from_secs(30);

fn drafted_reply(id: &str) -> Step {
    let reply = json!([{"id": id, "prompt": "Add 2 and 3", "server": "demo", "tool": "add"}]);
    Step::reply([format!("```json\n{reply}\n```")])
}

/// The page's Cancel drops the request: over a real connection the handler goes with it, so
/// the model's answer is not read to its end (the scripted LLM sees its stream abandoned) and
/// the suite is not written, then or later.
#[tokio::test]
async fn a_draft_request_dropped_by_its_client_writes_nothing() {
    // A slow model (time is what the step simulates, not a synchronisation): each event of the
    // answer comes 2 s apart, so the stream is still running when the client drops it; were
    // the handler kept, it would read all of them (about 10 s) and write the case.
    let llm = ScriptedLlm::start(vec![drafted_reply("late").slow(2_000)]).await;
    let dir = tempfile::tempdir().unwrap();
    let manager = ConnectionManager::new(ManagerOptions::default());
    let app = SocketApp::start(manager, &llm_env(&llm), dir.path()).await;
    let suite = dir.path().join("s.yaml");
    std::fs::write(&suite, SUITE).unwrap();
    let folder = json!({"folder": dir.path()});
    for (method, path, body) in [
        ("PUT", "/api/evals/folder", Some(folder)),
        ("POST", "/api/servers", Some(demo_config("demo"))),
        ("POST", "/api/servers/demo/connect", None),
    ] {
        let (s, v) = app.call(method, path, body).await;
        assert!(s < 300, "{method} {path}: {s} {v}");
    }

    let body = json!({"model": "openai::m", "count": 1});
    let request = app
        .request("POST", "/api/evals/suites/s.yaml/drafts")
        .json(&body);
    let pending = tokio::spawn(request.send());
    llm.wait_until("the model is asked", WAIT, |l| l.requests().len() == 1)
        .await;
    pending.abort();
    llm.wait_until("the model's answer is abandoned", WAIT, |l| {
        l.abandoned() == 1
    })
    .await;
    assert_eq!(
        std::fs::read_to_string(&suite).unwrap(),
        SUITE,
        "nothing written"
    );
}

/// A save made while the model drafts (the editor's) is kept: the cases are appended to the
/// file as it is when the answer comes, not as it was when the request came.
#[tokio::test]
async fn a_save_made_while_drafting_is_kept() {
    let llm = ScriptedLlm::start(vec![drafted_reply("drafted")]).await;
    // The model answers only once the file was saved meanwhile.
    llm.hold_answers(true);
    let app = router(state_with_llm(&llm));
    let (_dir, suite) = drafting_setup(&app).await;
    let path = "/api/evals/suites/s.yaml/drafts";
    let body = json!({"model": "openai::m", "count": 1});
    let draft = tokio::spawn({
        let app = app.clone();
        async move { authed(&app, "POST", path, Some(body)).await }
    });
    llm.wait_until("the model is asked", WAIT, |l| l.requests().len() == 1)
        .await;
    let edited = SUITE.replace("turns: [hi]", "turns: [hello]");
    std::fs::write(&suite, &edited).unwrap();
    llm.hold_answers(false);
    let (s, v) = draft.await.unwrap();
    assert_eq!(s, StatusCode::OK, "{v}");
    let text = std::fs::read_to_string(&suite).unwrap();
    assert!(text.starts_with(&edited), "the save is kept: {text}");
    assert!(text.contains("id: drafted"), "{text}");
}
