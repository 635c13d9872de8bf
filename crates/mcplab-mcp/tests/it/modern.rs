//! Core integration tests of protocol 2026-07-28 against the demo server: in process (the
//! same code as a stdio child) and over real streamable HTTP (rmcp's validating server on
//! loopback). They check what went over the wire in the recorded traffic, not only results.

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{
    CACHE_MARKER, Connection, ConnectionManager, Listing, ManagerOptions, McpError, RequestOptions,
    RootEntry,
};
use mcplab_protocol::{
    Direction, Era, FrameKind, HumanAnswer, HumanRequestKind, ProtocolChoice, ServerConfig,
    ServerEvent, ServerTransport, TaskMode,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::support::{call, demo_in_process, next_event, text_of};

async fn in_process(protocol: ProtocolChoice) -> (Arc<ConnectionManager>, Arc<Connection>) {
    let (manager, conn, _server) = demo_in_process(protocol, ManagerOptions::default()).await;
    (manager, conn)
}

async fn over_http(
    protocol: ProtocolChoice,
) -> (Arc<ConnectionManager>, Arc<Connection>, CancellationToken) {
    let (addr, stop) = mcplab_testkit::spawn_http("127.0.0.1:0".parse().unwrap())
        .await
        .expect("binds");
    let manager = ConnectionManager::new(ManagerOptions::default());
    let config = ServerConfig {
        name: "web".into(),
        transport: ServerTransport::Http {
            url: format!("http://{addr}/mcp"),
            headers: Default::default(),
            oauth: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol,
    };
    let conn = manager.connect(config).await.expect("connects");
    (manager, conn, stop)
}

fn sent(manager: &ConnectionManager, server: &str) -> Vec<Value> {
    manager
        .traffic()
        .snapshot(server)
        .frames
        .iter()
        .filter(|f| f.direction == Direction::Outbound && f.kind == FrameKind::Message)
        .filter_map(|f| serde_json::from_str(&f.text).ok())
        .collect()
}

/// Answers human requests as they come: elicitations with `answer(params)`.
fn answer_humans(
    manager: &Arc<ConnectionManager>,
    answer: impl Fn(&Value) -> HumanAnswer + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    let mut events = manager.subscribe();
    let broker = manager.broker().clone();
    tokio::spawn(async move {
        while let Ok(e) = events.recv().await {
            if let ServerEvent::HumanRequested { request } = e {
                assert_eq!(request.kind, HumanRequestKind::Elicitation);
                broker.answer(request.id, answer(&request.params));
            }
        }
    })
}

#[tokio::test]
async fn auto_discovers_the_modern_era_and_sends_no_handshake() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let era = conn.era();
    assert_eq!(era.era, Era::Modern);
    assert_eq!(era.revision, "2026-07-28");
    assert!(era.how.contains("server/discover answered"), "{}", era.how);
    assert!(era.supported.iter().any(|v| v == "2025-11-25"));
    assert_eq!(era.alternative, Some(ProtocolChoice::V2025_11_25));
    assert_eq!(conn.protocol_version(), Some("2026-07-28"));
    call(&conn, "echo", json!({"message": "hi"})).await.unwrap();
    let frames = sent(&manager, "demo");
    assert_eq!(frames[0]["method"], "server/discover");
    assert!(frames.iter().all(|f| f["method"] != "initialize"));
    for f in &frames {
        let meta = &f["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
            "{f}"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"], "mcplab",
            "{f}"
        );
        assert!(meta["io.modelcontextprotocol/clientCapabilities"]["extensions"].is_object());
    }
}

#[tokio::test]
async fn input_required_rounds_echo_the_request_state_exactly() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let answers = answer_humans(&manager, |params| {
        if params["requestedSchema"]["properties"]
            .get("size")
            .is_some()
        {
            HumanAnswer::Accept {
                content: json!({"size": 3}),
            }
        } else {
            HumanAnswer::Accept {
                content: json!({"confirm": true}),
            }
        }
    });
    let result = call(&conn, "book_table", json!({})).await.unwrap();
    answers.abort();
    assert_eq!(text_of(&result), "Booked a table for 3.");
    // The server's requestState (from the recorded inbound frame) came back unchanged, on a
    // request with a new id; the first request carried none.
    let received: Vec<Value> = manager
        .traffic()
        .snapshot("demo")
        .frames
        .iter()
        .filter(|f| f.direction == Direction::Inbound)
        .filter_map(|f| serde_json::from_str(&f.text).ok())
        .collect();
    let state = received
        .iter()
        .find_map(|f| f["result"]["requestState"].as_str())
        .expect("the server sent a requestState")
        .to_owned();
    let calls: Vec<Value> = sent(&manager, "demo")
        .into_iter()
        .filter(|f| f["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 3);
    assert!(calls[0]["params"].get("requestState").is_none());
    assert!(calls[1]["params"].get("requestState").is_none());
    assert_eq!(calls[2]["params"]["requestState"], state.as_str());
    assert_eq!(
        calls[2]["params"]["inputResponses"]["confirm"]["action"],
        "accept"
    );
    let ids: std::collections::HashSet<String> =
        calls.iter().map(|c| c["id"].to_string()).collect();
    assert_eq!(ids.len(), 3, "every round has its own id");
}

#[tokio::test]
async fn parallel_requests_keep_their_input_to_themselves() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    manager
        .set_roots(vec![RootEntry {
            uri: "file:///work".into(),
            name: Some("work".into()),
        }])
        .await;
    let answers = answer_humans(&manager, |_| HumanAnswer::Accept {
        content: json!({"name": "Ada"}),
    });
    let (form, roots) = tokio::join!(
        call(&conn, "elicit_form", json!({})),
        call(&conn, "list_roots", json!({}))
    );
    answers.abort();
    assert!(text_of(&form.unwrap()).contains("Ada"));
    assert!(text_of(&roots.unwrap()).contains("file:///work"));
    for f in sent(&manager, "demo")
        .iter()
        .filter(|f| f["method"] == "tools/call")
    {
        let responses = &f["params"]["inputResponses"];
        match f["params"]["name"].as_str() {
            Some("elicit_form") => assert!(responses.get("roots").is_none(), "{f}"),
            Some("list_roots") => assert!(responses.get("form").is_none(), "{f}"),
            other => panic!("unexpected call {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_task_is_polled_to_its_result_with_status_history() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let mut events = manager.subscribe();
    let result = call(
        &conn,
        "research",
        json!({"topic": "rust", "steps": 2, "step_ms": 50}),
    )
    .await
    .unwrap();
    assert!(
        text_of(&result).contains("finished after 2 steps"),
        "{result}"
    );
    let ServerEvent::Task { task } = next_event(
        &mut events,
        |e| matches!(e, ServerEvent::Task { task } if task.status == "completed"),
    )
    .await
    else {
        unreachable!()
    };
    assert_eq!(task.tool.as_deref(), Some("research"));
    assert!(task.history.len() >= 2, "{:?}", task.history);
    assert!(
        sent(&manager, "demo")
            .iter()
            .any(|f| f["method"] == "tasks/get")
    );
    // Never: the request does not declare the extension, so the server answers inline.
    let opts = RequestOptions {
        task: TaskMode::Never,
        ..Default::default()
    };
    let params =
        json!({"name": "research", "arguments": {"topic": "x", "steps": 1, "step_ms": 10}});
    let inline = conn
        .request("tools/call", Some(params), opts)
        .await
        .unwrap();
    assert!(inline.get("taskId").is_none() && text_of(&inline).contains("finished"));
}

#[tokio::test]
async fn task_input_goes_through_tasks_update() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let answers = answer_humans(&manager, |_| HumanAnswer::Accept {
        content: json!({"approve": true}),
    });
    let result = call(&conn, "approve_deploy", json!({})).await.unwrap();
    answers.abort();
    assert_eq!(text_of(&result), "Deployed build 42.");
    let update = sent(&manager, "demo")
        .into_iter()
        .find(|f| f["method"] == "tasks/update")
        .expect("tasks/update was sent");
    assert_eq!(
        update["params"]["inputResponses"]["approve"]["content"]["approve"],
        true
    );
}

#[tokio::test]
async fn cancelling_a_task_sends_tasks_cancel() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let mut events = manager.subscribe();
    let cancel = CancellationToken::new();
    let opts = RequestOptions {
        cancel: Some(cancel.clone()),
        ..Default::default()
    };
    let params =
        json!({"name": "research", "arguments": {"topic": "x", "steps": 20, "step_ms": 500}});
    let running = {
        let conn = conn.clone();
        tokio::spawn(async move { conn.request("tools/call", Some(params), opts).await })
    };
    next_event(&mut events, |e| matches!(e, ServerEvent::Task { .. })).await;
    cancel.cancel();
    let outcome = tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(outcome, Err(McpError::Cancelled)), "{outcome:?}");
    assert!(
        sent(&manager, "demo")
            .iter()
            .any(|f| f["method"] == "tasks/cancel")
    );
    let id = conn.tasks()[0].task_id.clone();
    assert_eq!(conn.refresh_task(&id).await.unwrap().status, "cancelled");
}

#[tokio::test]
async fn fresh_lists_come_from_the_cache_until_bypassed() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let first = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    assert_eq!(first["ttlMs"], 60_000);
    assert!(first.get(CACHE_MARKER).is_none());
    let lists = |m: &ConnectionManager| {
        sent(m, "demo")
            .iter()
            .filter(|f| f["method"] == "tools/list")
            .count()
    };
    assert_eq!(lists(&manager), 1);
    let second = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    assert!(second[CACHE_MARKER]["ageMs"].is_u64(), "{second}");
    assert_eq!(lists(&manager), 1, "nothing was sent");
    let bypass = RequestOptions {
        bypass_cache: true,
        ..Default::default()
    };
    conn.list_all(Listing::Tools, bypass).await.unwrap();
    assert_eq!(lists(&manager), 2);
}

#[tokio::test]
async fn a_listen_stream_delivers_changes_and_invalidates_the_cache() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let tools = |v: &Value| v["tools"].as_array().map(Vec::len).unwrap_or(0);
    let before = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    let ack = conn.listen_for_list_changes().await.unwrap();
    assert_eq!(ack["acknowledged"]["toolsListChanged"], true, "{ack}");
    let mut events = manager.subscribe();
    call(&conn, "toggle_extra_tool", json!({})).await.unwrap();
    next_event(
        &mut events,
        |e| matches!(e, ServerEvent::ListChanged { list, .. } if list == "tools"),
    )
    .await;
    let after = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    assert_eq!(tools(&after), tools(&before) + 1);
    assert!(
        after.get(CACHE_MARKER).is_none(),
        "the notification made the cache stale"
    );
    let listen = sent(&manager, "demo")
        .into_iter()
        .find(|f| f["method"] == "subscriptions/listen")
        .unwrap();
    assert_eq!(listen["params"]["notifications"]["toolsListChanged"], true);
}

#[tokio::test]
async fn log_messages_follow_the_level_sent_with_each_request() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let none = call(&conn, "log_all_levels", json!({})).await.unwrap();
    assert!(text_of(&none).contains("Sent no log messages"), "{none}");
    conn.set_log_level(Some("error".into()));
    let mut events = manager.subscribe();
    let some = call(&conn, "log_all_levels", json!({})).await.unwrap();
    assert!(text_of(&some).contains("Sent 4 log message(s)"), "{some}");
    next_event(
        &mut events,
        |e| matches!(e, ServerEvent::Log { level, .. } if level == "emergency"),
    )
    .await;
    let last = sent(&manager, "demo").pop().unwrap();
    assert_eq!(
        last["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "error"
    );
}

#[tokio::test]
async fn the_managers_log_level_is_asked_for_until_the_user_sets_another() {
    // The inspector's manager asks for `debug`: its Logs page shows a 2026-07-28 server's logs
    // without the user first finding "Set server level".
    let opts = ManagerOptions {
        log_level: Some("debug".into()),
        ..ManagerOptions::default()
    };
    let (manager, conn, _server) = demo_in_process(ProtocolChoice::Auto, opts).await;
    let all = call(&conn, "log_all_levels", json!({})).await.unwrap();
    assert!(text_of(&all).contains("Sent 8 log message(s)"), "{all}");
    let last = sent(&manager, "demo").pop().unwrap();
    assert_eq!(
        last["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "debug"
    );
    conn.set_log_level(Some("error".into()));
    let some = call(&conn, "log_all_levels", json!({})).await.unwrap();
    assert!(text_of(&some).contains("Sent 4 log message(s)"), "{some}");
}

#[tokio::test]
async fn skills_load_reads_and_verifies_every_file() {
    let (manager, conn) = in_process(ProtocolChoice::Auto).await;
    let listed = conn
        .list_all(Listing::Skills, RequestOptions::default())
        .await
        .unwrap();
    assert_eq!(listed["skills"].as_array().unwrap().len(), 2);
    assert!(
        sent(&manager, "demo")
            .iter()
            .all(|f| f["method"] != "resources/read"),
        "listing reads no file"
    );
    let loaded = conn.load_skill("demo-greeting").await.unwrap();
    assert_eq!(loaded.problem, None);
    assert_eq!(loaded.files.len(), 2);
    assert!(loaded.files.iter().all(|f| f.verified));
    assert_eq!(loaded.frontmatter.unwrap()["license"], "MIT");
}

#[tokio::test]
async fn http_requests_carry_the_metadata_headers_recorded_per_frame() {
    let (manager, conn, stop) = over_http(ProtocolChoice::Auto).await;
    assert_eq!(conn.era().era, Era::Modern);
    call(&conn, "echo", json!({"message": "hi"})).await.unwrap();
    let frames = manager.traffic().snapshot("web").frames;
    let call_frame = frames
        .iter()
        .find(|f| f.direction == Direction::Outbound && f.text.contains("\"tools/call\""))
        .unwrap();
    let headers = call_frame.headers.clone().unwrap();
    let get = |k: &str| {
        headers
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("MCP-Protocol-Version"), Some("2026-07-28"));
    assert_eq!(get("Mcp-Method"), Some("tools/call"));
    assert_eq!(get("Mcp-Name"), Some("echo"));
    // rmcp's server validates the headers: every round of a multi-round call passes.
    let answers = answer_humans(&manager, |params| {
        if params["requestedSchema"]["properties"]
            .get("size")
            .is_some()
        {
            HumanAnswer::Accept {
                content: json!({"size": 2}),
            }
        } else {
            HumanAnswer::Accept {
                content: json!({"confirm": true}),
            }
        }
    });
    let booked = call(&conn, "book_table", json!({})).await.unwrap();
    answers.abort();
    assert_eq!(text_of(&booked), "Booked a table for 2.");
    stop.cancel();
}

#[tokio::test]
async fn http_tasks_survive_between_stateless_requests() {
    let (_manager, conn, stop) = over_http(ProtocolChoice::V2026_07_28).await;
    let result = call(
        &conn,
        "research",
        json!({"topic": "http", "steps": 2, "step_ms": 20}),
    )
    .await
    .unwrap();
    assert!(
        text_of(&result).contains("finished after 2 steps"),
        "{result}"
    );
    stop.cancel();
}

#[tokio::test]
async fn a_legacy_pin_speaks_the_handshake_to_a_dual_era_server() {
    let (manager, conn, stop) = over_http(ProtocolChoice::V2025_11_25).await;
    assert_eq!(conn.era().era, Era::Legacy);
    assert_eq!(conn.era().revision, "2025-11-25");
    call(&conn, "echo", json!({"message": "x"})).await.unwrap();
    let frames = sent(&manager, "web");
    assert_eq!(frames[0]["method"], "initialize");
    assert!(frames.iter().all(|f| f["method"] != "server/discover"));
    stop.cancel();
}
