//! The chat API over a real socket: sessions, idempotent turns, the session event stream with
//! replay, persistence of turns, export, cancel, and the provider list (keys never returned).
//! The model is the testkit's scripted LLM server; the tools are the demo server's.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::sse::SseParser;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};

use crate::router_support::{SocketApp, demo_config};

/// The router on a socket with the demo server connected and the scripted LLM as OpenAI.
struct App {
    socket: SocketApp,
    manager: Arc<ConnectionManager>,
}

impl std::ops::Deref for App {
    type Target = SocketApp;
    fn deref(&self) -> &SocketApp {
        &self.socket
    }
}

impl App {
    async fn start(llm: &ScriptedLlm, dir: &std::path::Path) -> App {
        let manager = ConnectionManager::new(ManagerOptions::default());
        let env = HashMap::from([
            ("OPENAI_API_KEY".to_owned(), "sk-secret-key-1234".to_owned()),
            ("OPENAI_BASE_URL".to_owned(), llm.base_url()),
        ]);
        let socket = SocketApp::start(manager.clone(), &env, dir).await;
        let app = App { socket, manager };
        app.call("POST", "/api/servers", Some(demo_config("demo")))
            .await;
        let (_, v) = app.call("POST", "/api/servers/demo/connect", None).await;
        assert_eq!(v["status"]["state"], "connected");
        app
    }

    async fn events(&self, session: &str, last: Option<u64>) -> reqwest::Response {
        let mut req = self.request("GET", &format!("/api/sessions/{session}/events"));
        if let Some(l) = last {
            req = req.header("last-event-id", l.to_string());
        }
        req.send().await.unwrap()
    }

    /// Creates a session from `body` (`settings` or `hostConfig`); returns the whole answer.
    async fn create_session(&self, body: Value) -> Value {
        let (s, created) = self.call("POST", "/api/sessions", Some(body)).await;
        assert_eq!(s, 201, "{created}");
        created
    }

    /// Creates a session with these settings and returns its id.
    async fn session(&self, settings: Value) -> String {
        let created = self.create_session(json!({ "settings": settings })).await;
        created["summary"]["id"].as_str().unwrap().to_owned()
    }

    /// Submits a turn (`{turnId, message, replaces?}`) to a session.
    async fn turn(&self, session: &str, turn: Value) -> (u16, Value) {
        let path = format!("/api/sessions/{session}/turns");
        self.call("POST", &path, Some(turn)).await
    }
}

/// The provider with this id in a `/api/llm/providers` list.
fn provider<'a>(list: &'a Value, id: &str) -> &'a Value {
    let found = list.as_array().unwrap().iter().find(|p| p["id"] == id);
    found.unwrap_or_else(|| panic!("no provider {id} in {list}"))
}

/// Reads session events until one matches `done` (bounded).
async fn read_until(
    resp: &mut reqwest::Response,
    done: impl Fn(&Value) -> bool,
) -> Vec<(u64, Value)> {
    let mut parser = SseParser::new();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let chunk = resp.chunk().await.unwrap().expect("stream open");
            for e in parser.feed(&chunk) {
                if e.data.is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(&e.data).unwrap();
                let id = e.id.as_deref().and_then(|i| i.parse().ok()).unwrap_or(0);
                let stop = done(&v);
                seen.push((id, v));
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

fn is_terminal(v: &Value) -> bool {
    v["kind"] == "turn"
        && matches!(
            v["event"]["type"].as_str(),
            Some("turnFinished" | "turnFailed" | "turnCancelled")
        )
}

#[tokio::test]
async fn a_session_runs_turns_streams_them_and_keeps_them() {
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "c1",
            "demo__add",
            json!({"a": 2, "b": 3}),
        )]),
        Step::reply(["The sum ", "is 5."]),
        Step::reply(["Still 5."]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;

    let id = app
        .session(json!({"model": "openai::gpt-4o-mini", "servers": ["demo"]}))
        .await;

    let mut live = app.events(&id, None).await;
    let turn = json!({"turnId": "turn-1", "message": "add 2 and 3"});
    let (s, _) = app.turn(&id, turn.clone()).await;
    assert_eq!(s, 202);
    let (s, _) = app.turn(&id, turn.clone()).await;
    assert_eq!(s, 202, "submitting the same turn again is harmless");
    let seen = read_until(&mut live, is_terminal).await;
    assert_eq!(seen[0].1["kind"], "userMessage");
    assert!(
        seen.iter()
            .any(|(_, v)| v["event"]["type"] == "toolCall" && v["event"]["server"] == "demo")
    );
    let text: String = seen
        .iter()
        .filter(|(_, v)| v["event"]["type"] == "textDelta")
        .map(|(_, v)| v["event"]["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(text, "The sum is 5.");
    assert_eq!(seen.last().unwrap().1["event"]["type"], "turnFinished");
    assert_eq!(
        llm.requests().len(),
        2,
        "the repeated submit did not run the turn twice"
    );
    let (s, _) = app.turn(&id, turn).await;
    assert_eq!(s, 202, "a finished turn submitted again is still a no-op");
    assert_eq!(llm.requests().len(), 2);

    // Replay from the middle after a reconnect.
    let mid = seen[seen.len() / 2].0;
    let mut again = app.events(&id, Some(mid)).await;
    let replay = read_until(&mut again, is_terminal).await;
    let expected: Vec<u64> = seen.iter().map(|(i, _)| *i).filter(|i| *i > mid).collect();
    assert_eq!(replay.iter().map(|(i, _)| *i).collect::<Vec<_>>(), expected);

    // Stored: merged text, tool events, and the conversation continues from it.
    let (_, view) = app.call("GET", &format!("/api/sessions/{id}"), None).await;
    let events = view["turns"][0]["events"].as_array().unwrap();
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "textDelta" && e["text"] == "The sum is 5."),
        "{view}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "toolResult" && e["isError"] == false)
    );
    assert_eq!(view["runningTurn"], Value::Null);
    let mut live = app.events(&id, None).await;
    app.turn(&id, json!({"turnId": "turn-2", "message": "and again?"}))
        .await;
    read_until(&mut live, is_terminal).await;
    let third = llm.requests()[2].body.to_string();
    assert!(
        third.contains("add 2 and 3") && third.contains("2 + 3 = 5"),
        "history is sent: {third}"
    );

    let resp = app
        .request("GET", &format!("/api/sessions/{id}/export?format=markdown"))
        .send()
        .await
        .unwrap();
    assert!(
        resp.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(".md")
    );
    let md = resp.text().await.unwrap();
    assert!(
        md.contains("add 2 and 3") && md.contains("The sum is 5.") && md.contains("demo/add"),
        "{md}"
    );

    let (_, list) = app.call("GET", "/api/sessions", None).await;
    assert_eq!(
        list[0]["title"], "add 2 and 3",
        "a new session is named after its first message"
    );
    let (s, _) = app
        .call(
            "PATCH",
            &format!("/api/sessions/{id}"),
            Some(json!({"title": "Sums"})),
        )
        .await;
    assert_eq!(s, 200);
    let (_, list) = app.call("GET", "/api/sessions", None).await;
    assert_eq!(list[0]["title"], "Sums");
    let (s, _) = app
        .call("DELETE", &format!("/api/sessions/{id}"), None)
        .await;
    assert_eq!(s, 204);
    let (s, _) = app.call("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(s, 404);
    app.manager.shutdown().await;
}

#[tokio::test]
async fn cancel_busy_and_model_errors() {
    let llm = ScriptedLlm::start(vec![Step::reply(["a", "b", "c", "d", "e", "f"]).slow(300)]).await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let id = app.session(json!({"model": "openai::gpt-4o-mini"})).await;
    let mut live = app.events(&id, None).await;
    app.turn(&id, json!({"turnId": "slow", "message": "hi"}))
        .await;
    let (s, busy) = app
        .turn(&id, json!({"turnId": "other", "message": "hi"}))
        .await;
    assert_eq!(s, 409, "{busy}");
    read_until(&mut live, |v| v["event"]["type"] == "textDelta").await;
    // A page opened mid-turn sees the turn so far and continues exactly after it.
    let (_, view) = app.call("GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(view["runningTurn"], "slow");
    assert_eq!(view["liveTurn"]["user"], "hi");
    let last = view["lastEventId"].as_u64().unwrap();
    assert!(last >= 2, "{view}");
    let mut resumed = app
        .request(
            "GET",
            &format!("/api/sessions/{id}/events?lastEventId={last}"),
        )
        .send()
        .await
        .unwrap();
    let next = read_until(&mut resumed, |_| true).await;
    assert_eq!(next[0].0, last + 1, "no gap, no duplicate");
    let (s, _) = app
        .call(
            "POST",
            &format!("/api/sessions/{id}/turns/slow/cancel"),
            None,
        )
        .await;
    assert_eq!(s, 204);
    let seen = read_until(&mut live, is_terminal).await;
    assert_eq!(seen.last().unwrap().1["event"]["type"], "turnCancelled");

    let bad_id = app.session(json!({"model": "anthropic::claude-x"})).await;
    let (s, err) = app
        .turn(&bad_id, json!({"turnId": "t", "message": "hi"}))
        .await;
    assert_eq!(s, 400);
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("ANTHROPIC_API_KEY"),
        "{err}"
    );
    app.manager.shutdown().await;
}

#[tokio::test]
async fn providers_list_and_keys_stay_on_the_server() {
    let llm = ScriptedLlm::start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let (_, list) = app.call("GET", "/api/llm/providers", None).await;
    assert_eq!(provider(&list, "openai")["usable"], true);
    let anthropic = provider(&list, "anthropic");
    assert_eq!(anthropic["usable"], false);
    assert!(
        anthropic["reason"]
            .as_str()
            .unwrap()
            .contains("ANTHROPIC_API_KEY")
    );
    assert!(
        !list.to_string().contains("sk-secret-key-1234"),
        "keys are never sent back"
    );

    let custom = json!({"kind": "openai_compatible", "baseUrl": llm.base_url(), "apiKey": "sk-custom-9876", "models": ["local-model"]});
    let (s, after) = app
        .call("PUT", "/api/llm/providers/lab", Some(custom))
        .await;
    assert_eq!(s, 200, "{after}");
    let lab = provider(&after, "lab");
    assert_eq!(lab["custom"], true);
    assert_eq!(lab["models"], json!(["local-model"]));
    assert!(!after.to_string().contains("sk-custom-9876"));
    let (s, v) = app
        .call(
            "PUT",
            "/api/llm/providers/bad",
            Some(json!({"kind": "nope"})),
        )
        .await;
    assert_eq!(s, 400);
    // The kinds there are, by their wire names.
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("`nope`") && message.contains("`openai_compatible`"),
        "{v}"
    );
    let (s, _) = app.call("DELETE", "/api/llm/providers/lab", None).await;
    assert_eq!(s, 204);
    app.manager.shutdown().await;
}

#[tokio::test]
async fn tool_calls_wait_for_approval() {
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "c1",
            "demo__add",
            json!({"a": 1, "b": 2}),
        )]),
        Step::reply(["ok"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let settings =
        json!({"model": "openai::gpt-4o-mini", "servers": ["demo"], "requireApproval": true});
    let id = app.session(settings).await;
    let mut live = app.events(&id, None).await;
    app.turn(&id, json!({"turnId": "t", "message": "add"}))
        .await;
    let seen = read_until(&mut live, |v| v["event"]["type"] == "approvalRequested").await;
    assert!(
        !seen.iter().any(|(_, v)| v["event"]["type"] == "toolResult"),
        "nothing ran before approval"
    );
    let (s, _) = app
        .call(
            "POST",
            &format!("/api/sessions/{id}/turns/t/approvals/nope"),
            Some(json!({"decision": "allow"})),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .call(
            "POST",
            &format!("/api/sessions/{id}/turns/t/approvals/c1"),
            Some(json!({"decision": "allow", "arguments": {"a": 40, "b": 2}})),
        )
        .await;
    assert_eq!(s, 204);
    let rest = read_until(&mut live, is_terminal).await;
    let result = rest
        .iter()
        .find(|(_, v)| v["event"]["type"] == "toolResult")
        .unwrap();
    assert_eq!(
        result.1["event"]["result"]["structuredContent"]["sum"],
        42.0
    );
    app.manager.shutdown().await;
}

#[tokio::test]
async fn retry_replaces_the_failed_turn_and_sends_the_message_once() {
    let llm = ScriptedLlm::start(vec![
        Step::fail(401, "bad key"),
        Step::reply(["second try"]),
        Step::reply(["third"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let created = app
        .create_session(json!({"hostConfig": {"model": "openai::gpt-4o-mini"}}))
        .await;
    let id = created["summary"]["id"].as_str().unwrap().to_owned();
    let mut live = app.events(&id, None).await;
    let message = "a message to send exactly once";
    app.turn(&id, json!({"turnId": "t1", "message": message}))
        .await;
    let seen = read_until(&mut live, is_terminal).await;
    assert_eq!(seen.last().unwrap().1["event"]["type"], "turnFailed");

    let (s, _) = app
        .turn(
            &id,
            json!({"turnId": "t2", "message": message, "replaces": "t1"}),
        )
        .await;
    assert_eq!(s, 202);
    let seen = read_until(&mut live, is_terminal).await;
    assert_eq!(seen[0].1["kind"], "userMessage");
    assert_eq!(
        seen[0].1["replaces"], "t1",
        "live clients drop the old turn"
    );
    assert_eq!(seen.last().unwrap().1["event"]["type"], "turnFinished");
    let retried = llm.requests()[1].body.to_string();
    assert_eq!(
        retried.matches(message).count(),
        1,
        "the provider gets the message once: {retried}"
    );
    let (_, view) = app.call("GET", &format!("/api/sessions/{id}"), None).await;
    let ids: Vec<&str> = view["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["turnId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t2"], "the retry took the failed turn's place");

    // Only the last turn can be retried.
    app.turn(&id, json!({"turnId": "t3", "message": "next"}))
        .await;
    read_until(&mut live, is_terminal).await;
    let (s, err) = app
        .turn(
            &id,
            json!({"turnId": "t4", "message": message, "replaces": "t2"}),
        )
        .await;
    assert_eq!(s, 409, "{err}");
    assert!(
        err["message"].as_str().unwrap().contains("last turn"),
        "{err}"
    );
    app.manager.shutdown().await;
}

#[tokio::test]
async fn a_session_runs_under_its_host_config() {
    let llm = ScriptedLlm::start(vec![Step::reply(["one"]), Step::reply(["two"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let host = json!({"model": "openai::gpt-4o-mini", "temperature": 0.25,
        "servers": {"demo": {"deny": ["echo"]}}});
    let created = app.create_session(json!({"hostConfig": host})).await;
    let summary = &created["summary"];
    assert_eq!(
        summary["hostConfig"]["stepLimit"], 10,
        "defaults are explicit"
    );
    assert_eq!(summary["settings"]["servers"], json!(["demo"]));
    let first_hash = summary["hostHash"].as_str().unwrap().to_owned();
    assert_eq!(first_hash.len(), 64);
    let id = summary["id"].as_str().unwrap().to_owned();
    let mut live = app.events(&id, None).await;
    app.turn(&id, json!({"turnId": "t1", "message": "hi"}))
        .await;
    read_until(&mut live, is_terminal).await;
    let first = llm.requests()[0].body.clone();
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"demo__add") && !tools.contains(&"demo__echo"),
        "{tools:?}"
    );
    assert_eq!(first["temperature"], 0.25);

    // A changed HostConfig runs the next turn and changes the hash.
    let mut changed = summary["hostConfig"].clone();
    changed["systemPrompt"] = json!("Be brief.");
    changed["servers"] = json!({});
    let (s, patched) = app
        .call(
            "PATCH",
            &format!("/api/sessions/{id}"),
            Some(json!({"hostConfig": changed})),
        )
        .await;
    assert_eq!(s, 200, "{patched}");
    assert_ne!(patched["hostHash"], first_hash.as_str());
    app.turn(&id, json!({"turnId": "t2", "message": "again"}))
        .await;
    read_until(&mut live, is_terminal).await;
    let second = llm.requests()[1].body.to_string();
    assert!(second.contains("Be brief."), "{second}");
    assert!(
        !second.contains("demo__add"),
        "no servers, no tools: {second}"
    );

    let (s, bad) = app
        .call(
            "PATCH",
            &format!("/api/sessions/{id}"),
            Some(json!({"hostConfig": {"stepLimit": 0}})),
        )
        .await;
    assert_eq!(s, 400);
    assert!(
        bad["message"].as_str().unwrap().contains("stepLimit"),
        "{bad}"
    );

    // Files (JSON or YAML) are checked and given their canonical form and hash.
    let yaml =
        "model: openai::gpt-4o-mini\ntemperature: 0.25\nservers:\n  demo:\n    deny: [echo]\n";
    let (s, parsed) = app
        .call(
            "POST",
            "/api/host-config/parse",
            Some(json!({"text": yaml})),
        )
        .await;
    assert_eq!(s, 200, "{parsed}");
    assert_eq!(parsed["hash"], first_hash.as_str(), "same host, same hash");
    let (s, err) = app
        .call(
            "POST",
            "/api/host-config/parse",
            Some(json!({"text": "stepLimt: 3"})),
        )
        .await;
    assert_eq!(s, 400);
    assert!(
        err["message"].as_str().unwrap().contains("stepLimt"),
        "{err}"
    );
    app.manager.shutdown().await;
}

#[tokio::test]
async fn the_settings_otlp_address_exports_each_turn() {
    let receiver = mcplab_otlp::receiver::Receiver::start().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "c1",
            "demo__add",
            json!({"a": 2, "b": 3}),
        )]),
        Step::reply(["5."]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let app = App::start(&llm, dir.path()).await;
    let (s, v) = app
        .call(
            "PUT",
            "/api/settings/otlp",
            Some(json!({"endpoint": "localhost:4318"})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("http://127.0.0.1:4318"),
        "{v}"
    );
    let (s, v) = app
        .call(
            "PUT",
            "/api/settings/otlp",
            Some(json!({"endpoint": receiver.url()})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["endpoint"], format!("{}/v1/traces", receiver.url()));
    assert_eq!(v["fromFlag"], false);

    let (_, created) = app
        .call(
            "POST",
            "/api/sessions",
            Some(json!({"settings": {"model": "openai::gpt-4o-mini", "servers": ["demo"]}})),
        )
        .await;
    let id = created["summary"]["id"].as_str().unwrap().to_owned();
    let mut live = app.events(&id, None).await;
    let turn = json!({"turnId": "t1", "message": "add 2 and 3"});
    app.call("POST", &format!("/api/sessions/{id}/turns"), Some(turn))
        .await;
    read_until(&mut live, is_terminal).await;
    // Sent in the background, within the exporter's batch delay.
    let spans = receiver.wait_for(2, Duration::from_secs(30)).await;
    let chat = spans
        .iter()
        .find(|s| s.name == "chat gpt-4o-mini")
        .unwrap_or_else(|| panic!("{spans:#?}"));
    assert_eq!(chat.attributes["mcplab.chat.session_id"], id);
    let call = spans
        .iter()
        .find(|s| s.name == "execute_tool add")
        .unwrap_or_else(|| panic!("{spans:#?}"));
    assert_eq!(call.parent_span_id, chat.span_id);

    // The page's status line counts what went out. The count is read through the API, which
    // has no event for it: poll it (every 50 ms, a pace, not a wait for time) until a deadline.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, v) = app.call("GET", "/api/settings/otlp", None).await;
        if v["sentSpans"].as_u64() >= Some(2) {
            assert_eq!(v["failedBatches"], 0, "{v}");
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (s, v) = app
        .call("PUT", "/api/settings/otlp", Some(json!({"endpoint": null})))
        .await;
    assert_eq!((s, &v["endpoint"]), (200, &Value::Null), "{v}");
}
