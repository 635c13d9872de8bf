//! Core integration tests against the fixture server running in this process over a duplex
//! byte stream: the same connection code as a child process, minus the process.

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{
    Connection, ConnectionManager, Listing, ManagerOptions, McpError, RequestOptions, RootEntry,
};
use mcplab_protocol::{
    Direction, FrameKind, HumanAnswer, ProtocolChoice, ServerEvent, ServerStatus,
};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::support::{call, demo_in_process, next_event, text_of};

async fn fixture(opts: ManagerOptions) -> (Arc<ConnectionManager>, Arc<Connection>) {
    // These tests pin the handshake era; `modern.rs` covers 2026-07-28.
    let (manager, conn, _server) = demo_in_process(ProtocolChoice::V2025_11_25, opts).await;
    (manager, conn)
}

#[tokio::test]
async fn handshake_lists_and_records_exact_traffic() {
    let (manager, conn) = fixture(ManagerOptions::default()).await;
    assert_eq!(manager.status("demo"), Some(ServerStatus::Connected));
    assert_eq!(conn.protocol_version(), Some("2025-11-25"));
    assert!(
        conn.initialize_result()["instructions"]
            .as_str()
            .is_some_and(|s| !s.is_empty())
    );
    let tools = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    let kept = conn
        .listed_tools()
        .expect("the tools list is kept for the marks");
    assert!(Arc::ptr_eq(&tools, &kept), "kept as the answer, not a copy");
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for expected in [
        "echo",
        "add",
        "slow_task",
        "elicit_form",
        "show_counter_app",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let echoed = call(&conn, "echo", json!({"message": "hi"})).await.unwrap();
    assert_eq!(text_of(&echoed), "Echo: hi");

    let frames = manager.traffic().snapshot("demo").frames;
    let first = &frames[0];
    assert_eq!(first.direction, Direction::Outbound);
    let init: Value = serde_json::from_str(&first.text).unwrap();
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["params"]["protocolVersion"], "2025-11-25");
    assert!(init["params"]["capabilities"]["extensions"]["io.modelcontextprotocol/ui"].is_object());
    assert!(init["params"]["capabilities"]["elicitation"]["url"].is_object());
    assert!(frames.windows(2).all(|w| w[0].seq < w[1].seq));
    let last_in = frames
        .iter()
        .rev()
        .find(|f| f.direction == Direction::Inbound)
        .unwrap();
    assert!(last_in.text.contains("Echo: hi"), "{}", last_in.text);
    assert_eq!(last_in.kind, FrameKind::Message);
    manager.shutdown().await;
    assert_eq!(manager.status("demo"), Some(ServerStatus::Disconnected));
}

#[tokio::test]
async fn server_errors_and_is_error_results_are_distinct() {
    let (_m, conn) = fixture(ManagerOptions::default()).await;
    let failed = call(&conn, "fail", json!({})).await.unwrap();
    assert_eq!(failed["isError"], true);
    let err = call(&conn, "no_such_tool", json!({})).await.unwrap_err();
    assert!(matches!(err, McpError::Server { .. }), "{err:?}");
    let err = conn
        .request(
            "resources/read",
            Some(json!({"uri": "demo://nope"})),
            RequestOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Server { .. }), "{err:?}");
}

#[tokio::test]
async fn progress_is_delivered_and_resets_the_timeout() {
    let (_m, conn) = fixture(ManagerOptions::default()).await;
    let (tx, mut rx) = mpsc::unbounded_channel();
    // 6 steps of 150 ms under a 400 ms timeout: only progress keeps the request alive.
    let result = conn
        .request(
            "tools/call",
            Some(json!({"name": "slow_task", "arguments": {"steps": 6, "step_ms": 150}})),
            RequestOptions {
                timeout: Some(Duration::from_millis(400)),
                progress: Some(tx),
                ..Default::default()
            },
        )
        .await
        .expect("progress resets the timeout");
    assert!(text_of(&result).contains("Finished all 6 steps"));
    let mut updates = Vec::new();
    while let Ok(u) = rx.try_recv() {
        updates.push(u);
    }
    assert!(updates.len() >= 5, "{updates:?}");
    assert_eq!(updates.last().unwrap().total, Some(6.0));
}

#[tokio::test]
async fn a_silent_request_times_out() {
    let (_m, conn) = fixture(ManagerOptions::default()).await;
    let err = conn
        .request(
            "tools/call",
            Some(json!({"name": "slow_task", "arguments": {"steps": 1, "step_ms": 3000}})),
            RequestOptions {
                timeout: Some(Duration::from_millis(200)),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Timeout { .. }), "{err:?}");
}

#[tokio::test]
async fn cancel_sends_notifications_cancelled() {
    let (manager, conn) = fixture(ManagerOptions::default()).await;
    let mut events = manager.subscribe();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    // Cancelled once the call is on its way: the traffic log announces its request frame.
    let mut traffic = manager.traffic().subscribe();
    tokio::spawn(async move {
        let sent = async {
            loop {
                match traffic.recv().await {
                    Ok(f)
                        if f.direction == Direction::Outbound
                            && f.text.contains("\"slow_task\"") =>
                    {
                        return;
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => return,
                }
            }
        };
        // Cancelled anyway after 10 s: the asserts below then say what went wrong.
        let _ = tokio::time::timeout(Duration::from_secs(10), sent).await;
        c2.cancel();
    });
    let err = conn
        .request(
            "tools/call",
            Some(json!({"name": "slow_task", "arguments": {"steps": 50, "step_ms": 100}})),
            RequestOptions {
                cancel: Some(cancel),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Cancelled), "{err:?}");
    // The fixture logs when it sees the cancellation.
    let e = next_event(&mut events, |e| {
        matches!(e, ServerEvent::Log { data, .. } if data.to_string().contains("cancelled after"))
    })
    .await;
    assert_eq!(e.server(), "demo");
    let sent = manager.traffic().snapshot("demo").frames;
    assert!(
        sent.iter()
            .any(|f| f.direction == Direction::Outbound
                && f.text.contains("notifications/cancelled"))
    );
    // The connection is still usable.
    assert_eq!(
        text_of(&call(&conn, "echo", json!({"message": "x"})).await.unwrap()),
        "Echo: x"
    );
}

#[tokio::test]
async fn elicitation_waits_for_an_answer() {
    let (manager, conn) = fixture(ManagerOptions::default()).await;
    let mut events = manager.subscribe();
    let broker = manager.broker().clone();
    let answerer = tokio::spawn(async move {
        let ServerEvent::HumanRequested { request } = next_event(&mut events, |e| {
            matches!(e, ServerEvent::HumanRequested { .. })
        })
        .await
        else {
            unreachable!()
        };
        assert_eq!(request.params["requestedSchema"]["required"][0], "name");
        assert!(broker.answer(
            request.id,
            HumanAnswer::Accept {
                content: json!({"name": "Ada", "age": 36, "color": "blue", "subscribe": false})
            }
        ));
    });
    let result = call(&conn, "elicit_form", json!({})).await.unwrap();
    answerer.await.unwrap();
    let text = text_of(&result);
    assert!(text.contains("Ada"), "{text}");
    assert_eq!(result["structuredContent"]["action"], "accept");
}

#[tokio::test]
async fn unanswered_elicitation_is_cancelled_after_the_timeout() {
    let opts = ManagerOptions {
        human_timeout: Duration::from_millis(200),
        ..Default::default()
    };
    let (_m, conn) = fixture(opts).await;
    let result = call(&conn, "elicit_form", json!({})).await.unwrap();
    assert_eq!(result["structuredContent"]["action"], "cancel");
}

#[tokio::test]
async fn sampling_roots_logging_and_list_changed() {
    let (manager, conn) = fixture(ManagerOptions::default()).await;
    let mut events = manager.subscribe();
    let broker = manager.broker().clone();
    let mut ev2 = manager.subscribe();
    tokio::spawn(async move {
        if let ServerEvent::HumanRequested { request } = next_event(&mut ev2, |e| {
            matches!(e, ServerEvent::HumanRequested { .. })
        })
        .await
        {
            broker.answer(
                request.id,
                HumanAnswer::Accept {
                    content: json!({"role": "assistant", "model": "scripted",
                        "content": {"type": "text", "text": "forty-two"}, "stopReason": "endTurn"}),
                },
            );
        }
    });
    let sampled = call(&conn, "sample_llm", json!({"prompt": "meaning?"}))
        .await
        .unwrap();
    assert!(text_of(&sampled).contains("forty-two"), "{sampled}");

    manager
        .set_roots(vec![RootEntry {
            uri: "file:///work/project".into(),
            name: Some("project".into()),
        }])
        .await;
    let roots = call(&conn, "list_roots", json!({})).await.unwrap();
    assert!(text_of(&roots).contains("file:///work/project"), "{roots}");

    call(&conn, "log_all_levels", json!({})).await.unwrap();
    let mut levels = Vec::new();
    while levels.len() < 8 {
        if let ServerEvent::Log { level, .. } =
            next_event(&mut events, |e| matches!(e, ServerEvent::Log { .. })).await
        {
            levels.push(level);
        }
    }
    assert_eq!(
        levels,
        [
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency"
        ]
    );

    call(&conn, "toggle_extra_tool", json!({})).await.unwrap();
    next_event(
        &mut events,
        |e| matches!(e, ServerEvent::ListChanged { list, .. } if list == "tools"),
    )
    .await;

    conn.request(
        "resources/subscribe",
        Some(json!({"uri": "demo://counter"})),
        RequestOptions::default(),
    )
    .await
    .unwrap();
    call(&conn, "bump_counter", json!({})).await.unwrap();
    next_event(
        &mut events,
        |e| matches!(e, ServerEvent::ResourceUpdated { uri, .. } if uri == "demo://counter"),
    )
    .await;
}

#[tokio::test]
async fn completion_and_templates() {
    let (_m, conn) = fixture(ManagerOptions::default()).await;
    let r = conn
        .request(
            "completion/complete",
            Some(json!({"ref": {"type": "ref/prompt", "name": "code_review"},
                "argument": {"name": "language", "value": "ru"}})),
            RequestOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(r["completion"]["values"], json!(["ruby", "rust"]));
    let read = conn
        .request(
            "resources/read",
            Some(json!({"uri": "demo://items/item-7"})),
            RequestOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["uri"], "demo://items/item-7");
}

#[tokio::test]
async fn a_closed_server_is_reported_failed() {
    let (manager, conn, server) =
        demo_in_process(ProtocolChoice::V2025_11_25, ManagerOptions::default()).await;
    let mut events = manager.subscribe();
    server.abort();
    let e = next_event(&mut events, |e| matches!(e, ServerEvent::Status { .. })).await;
    assert!(
        matches!(&e, ServerEvent::Status { status: ServerStatus::Failed { message }, .. } if message.contains("stopped")),
        "{e:?}"
    );
    let err = call(&conn, "echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Transport { .. }), "{err:?}");
    assert!(matches!(
        manager.get("demo"),
        Err(McpError::NotConnected(_))
    ));
}

/// A stdio config naming a built-in server's exact command line runs it in this process, a
/// fresh one on every connect (so reconnect works from the config); any other command line
/// is spawned as usual.
#[tokio::test]
async fn a_builtin_server_runs_in_process_for_its_command_line_only() {
    use mcplab_mcp::BuiltinServer;
    use mcplab_protocol::{ServerConfig, ServerTransport};
    let started = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = started.clone();
    let builtin = BuiltinServer {
        command: "/nonexistent/mcplab".into(),
        args: vec!["demo-server".into()],
        start: Arc::new(move |pipe| {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            tokio::spawn(async move {
                let (r, w) = tokio::io::split(pipe);
                let _ = mcplab_testkit::serve_io(r, w).await;
            });
        }),
    };
    let manager = ConnectionManager::new(ManagerOptions {
        builtins: vec![builtin],
        ..ManagerOptions::default()
    });
    let config = |args: &[&str]| ServerConfig {
        name: "demo".into(),
        transport: ServerTransport::Stdio {
            command: "/nonexistent/mcplab".into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Default::default(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: ProtocolChoice::Auto,
    };
    let conn = manager.connect(config(&["demo-server"])).await.unwrap();
    let echoed = call(&conn, "echo", json!({"message": "hi"})).await.unwrap();
    assert!(text_of(&echoed).contains("hi"), "{echoed}");
    // Its frames are recorded like a child's.
    assert!(!manager.traffic().snapshot("demo").frames.is_empty());
    manager.reconnect("demo").await.unwrap();
    assert_eq!(started.load(std::sync::atomic::Ordering::SeqCst), 2);
    // Another argument: not the built-in one, so the (missing) command is spawned and fails.
    let spawned = manager.connect(config(&["demo-server", "--x"])).await;
    assert!(spawned.is_err());
    assert_eq!(started.load(std::sync::atomic::Ordering::SeqCst), 2);
}

/// A fast server's first progress can arrive before `request` returns from sending: it must
/// reach the caller all the same. Many calls at once, each with progress sent at once
/// (`step_ms: 0`), on two worker threads: every call gets every step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_sent_at_once_is_not_lost() {
    let (_m, conn) = fixture(ManagerOptions::default()).await;
    let calls = (0..40).map(|_| {
        let conn = conn.clone();
        tokio::spawn(async move {
            let (tx, mut rx) = mpsc::unbounded_channel();
            let options = RequestOptions {
                progress: Some(tx),
                ..Default::default()
            };
            let args = json!({"name": "slow_task", "arguments": {"steps": 3, "step_ms": 0}});
            conn.request("tools/call", Some(args), options)
                .await
                .expect("slow_task answers");
            let mut steps = Vec::new();
            while let Ok(u) = rx.try_recv() {
                steps.push(u.progress);
            }
            steps
        })
    });
    for call in futures::future::join_all(calls).await {
        assert_eq!(call.unwrap(), [1.0, 2.0, 3.0]);
    }
}
