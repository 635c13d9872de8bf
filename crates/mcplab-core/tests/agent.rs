//! Agent loop tests with real parts only: the fixture MCP server in process, the genai-based
//! provider talking HTTP to the testkit's scripted LLM server (OpenAI and Anthropic formats),
//! and a recording sink. Every scenario checks the turn contract: exactly one terminal event,
//! last; exactly one `toolResult` per `toolCall`.

use std::sync::Arc;
use std::time::Duration;

use mcplab_core::agent::{
    Approvals, DEFAULT_APPROVAL_TIMEOUT, DEFAULT_SYSTEM_PROMPT, EventSink, RecordingSink,
    TurnConfig, TurnOutcome, run_turn,
};
use mcplab_core::llm::{
    LlmProvider, Message, ModelRef, ProviderConfig, ProviderKind, RetryPolicy, build_provider,
};
use mcplab_core::mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::chat::{StopReason, TurnEvent};
use mcplab_protocol::host::{ElicitationMode, ServerTools};
use mcplab_protocol::{HumanAnswer, ServerEvent};
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const KINDS: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

async fn demo() -> Arc<ConnectionManager> {
    let manager = ConnectionManager::new(ManagerOptions::default());
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let _ = mcplab_testkit::serve_io(sr, sw).await;
    });
    let (cr, cw) = tokio::io::split(client_io);
    manager.connect_io("demo", cr, cw).await.unwrap();
    manager
}

fn provider(llm: &ScriptedLlm, kind: ProviderKind) -> Arc<dyn LlmProvider> {
    let config = ProviderConfig {
        id: "scripted".into(),
        kind,
        base_url: Some(llm.base_url()),
        api_key: Some("sk-test".into()),
        models: vec![],
    };
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    build_provider(&config, &http, RetryPolicy::none()).unwrap()
}

fn config(kind: ProviderKind, step_limit: u32) -> TurnConfig {
    let model = match kind {
        ProviderKind::Anthropic => "claude-haiku-4-5",
        _ => "gpt-4o-mini",
    };
    TurnConfig {
        turn_id: "t1".into(),
        model: ModelRef::parse(&format!("scripted::{model}")).unwrap(),
        system_prompt: DEFAULT_SYSTEM_PROMPT.into(),
        temperature: None,
        max_tokens: Some(1024),
        step_limit,
        servers: [("demo".to_owned(), ServerTools::default())].into(),
        tool_timeout: Some(Duration::from_secs(20)),
        approvals: None,
        approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
        elicitation: ElicitationMode::Ask,
        context: Vec::new(),
        prices: mcplab_core::agent::shipped_prices(),
        tool_catalog: Default::default(),
        tool_results: Default::default(),
    }
}

/// The turn contract, checked on every scenario.
fn check_contract(events: &[TurnEvent]) {
    let terminals = events.iter().filter(|e| e.is_terminal()).count();
    assert_eq!(terminals, 1, "exactly one terminal event: {events:#?}");
    assert!(
        events.last().unwrap().is_terminal(),
        "the terminal event is last"
    );
    assert!(matches!(events[0], TurnEvent::TurnStarted { .. }));
    let calls: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolCall { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    for id in &calls {
        let results = events
            .iter()
            .filter(|e| matches!(e, TurnEvent::ToolResult { call_id, .. } if call_id == id))
            .count();
        assert_eq!(results, 1, "one result for tool call {id}");
    }
}

async fn turn(
    llm: &ScriptedLlm,
    kind: ProviderKind,
    manager: &ConnectionManager,
    cfg: &TurnConfig,
    prompt: &str,
    cancel: &CancellationToken,
) -> (TurnOutcome, Vec<TurnEvent>) {
    let sink = RecordingSink::default();
    let p = provider(llm, kind);
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        run_turn(
            p.as_ref(),
            manager,
            &[],
            Message::user(prompt),
            cfg,
            &sink,
            cancel,
        ),
    )
    .await
    .expect("the turn ends in time");
    let events = sink.events();
    check_contract(&events);
    (out, events)
}

fn text_of(events: &[TurnEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::TextDelta { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_model_calls_a_fixture_tool_and_answers() {
    for kind in KINDS {
        let manager = demo().await;
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall::new(
                "call_1",
                "demo__add",
                json!({"a": 2, "b": 3}),
            )]),
            Step::reply(["The sum ", "is 5."]),
        ])
        .await;
        let (out, events) = turn(
            &llm,
            kind,
            &manager,
            &config(kind, 10),
            "add 2 and 3",
            &CancellationToken::new(),
        )
        .await;
        assert!(
            matches!(
                out.terminal,
                TurnEvent::TurnFinished {
                    reason: StopReason::Completed,
                    ..
                }
            ),
            "{kind:?}: {events:#?}"
        );
        assert_eq!(text_of(&events), "The sum is 5.");
        let result = events.iter().find_map(|e| match e {
            TurnEvent::ToolResult {
                server,
                tool,
                result,
                is_error,
                ..
            } => Some((server.clone(), tool.clone(), result.clone(), *is_error)),
            _ => None,
        });
        let (server, tool, result, is_error) = result.expect("a tool result");
        assert_eq!(
            (server.as_str(), tool.as_str(), is_error),
            ("demo", "add", false)
        );
        assert_eq!(result.unwrap()["structuredContent"]["sum"], 5.0);
        assert_eq!(
            events
                .iter()
                .filter(|e| matches!(e, TurnEvent::TraceStep { .. }))
                .count(),
            2
        );

        let reqs = llm.requests();
        assert_eq!(reqs.len(), 2);
        let first = reqs[0].body.to_string();
        assert!(
            first.contains(DEFAULT_SYSTEM_PROMPT),
            "{kind:?}: system prompt sent"
        );
        assert!(
            first.contains("Instructions from the MCP server `demo`"),
            "instructions sent"
        );
        assert!(first.contains("demo__add"), "tools offered");
        assert!(
            !first.contains("app_only_increment"),
            "app-only tools never reach the model"
        );
        let second = reqs[1].body.to_string();
        assert!(
            second.contains("2 + 3 = 5"),
            "{kind:?}: the tool result is fed back: {second}"
        );
        // The conversation to keep: user, assistant (tool call), tool results, assistant.
        assert_eq!(out.messages.len(), 4);
        manager.shutdown().await;
    }
}

#[tokio::test]
async fn several_calls_in_one_step_and_unknown_tools() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([
            ScriptedCall::new("c1", "demo__echo", json!({"message": "one"})),
            ScriptedCall::new("c2", "demo__echo", json!({"message": "two"})),
            ScriptedCall::new("c3", "nope__missing", json!({})),
        ]),
        Step::reply(["done"]),
    ])
    .await;
    let (_, events) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 10),
        "go",
        &CancellationToken::new(),
    )
    .await;
    let results: Vec<(String, bool)> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolResult {
                call_id, is_error, ..
            } => Some((call_id.clone(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 3);
    assert!(
        results.contains(&("c3".into(), true)),
        "an unknown tool is an error result"
    );
    let fed_back = llm.requests()[1].body.to_string();
    assert!(fed_back.contains("Echo: one") && fed_back.contains("Echo: two"));
    // The error reaches the model once, marked once (issue 16: it read "Error: Error: …").
    assert_eq!(
        fed_back.matches("not one of the offered tools").count(),
        1,
        "{fed_back}"
    );
    assert!(
        fed_back.contains("Error: the model called `nope__missing`"),
        "{fed_back}"
    );
    assert!(!fed_back.contains("Error: Error:"), "{fed_back}");
}

#[tokio::test]
async fn tool_filters_decide_which_tools_the_model_sees() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "c1",
            "demo__echo",
            json!({"message": "x"}),
        )]),
        Step::reply(["done"]),
    ])
    .await;
    let mut cfg = config(kind, 10);
    cfg.servers.insert(
        "demo".into(),
        ServerTools {
            allow: Some(vec!["add".into(), "echo".into()]),
            deny: vec!["echo".into()],
        },
    );
    let (_, events) = turn(&llm, kind, &manager, &cfg, "go", &CancellationToken::new()).await;
    let offered: Vec<String> = llm.requests()[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(offered, ["demo__add"], "allow, then deny");
    let result = events.iter().find_map(|e| match e {
        TurnEvent::ToolResult { error, .. } => error.clone(),
        _ => None,
    });
    assert!(
        result.unwrap().contains("not one of the offered tools"),
        "a denied tool cannot be called by guessing its name"
    );
}

#[tokio::test]
async fn long_tools_report_progress_before_their_result() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "p1",
            "demo__slow_task",
            json!({"steps": 3, "step_ms": 10}),
        )]),
        Step::reply(["done"]),
    ])
    .await;
    let (_, events) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 10),
        "slow",
        &CancellationToken::new(),
    )
    .await;
    let progress: Vec<(f64, Option<f64>)> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolProgress {
                call_id,
                progress,
                total,
                ..
            } if call_id == "p1" => Some((*progress, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(progress.len(), 3, "{events:#?}");
    assert_eq!(progress.last().unwrap().1, Some(3.0));
    let last_progress = events
        .iter()
        .rposition(|e| matches!(e, TurnEvent::ToolProgress { .. }));
    let result = events
        .iter()
        .position(|e| matches!(e, TurnEvent::ToolResult { .. }));
    assert!(last_progress < result);
}

#[tokio::test]
async fn the_step_limit_stops_a_looping_model() {
    let kind = ProviderKind::Anthropic;
    let manager = demo().await;
    let call =
        |id: &str| Step::call_tools([ScriptedCall::new(id, "demo__echo", json!({"message": id}))]);
    let llm = ScriptedLlm::start(vec![call("a"), call("b"), call("c")]).await;
    let (out, events) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 2),
        "loop",
        &CancellationToken::new(),
    )
    .await;
    assert!(
        matches!(
            out.terminal,
            TurnEvent::TurnFinished {
                reason: StopReason::StepLimit,
                ..
            }
        ),
        "{events:#?}"
    );
    assert_eq!(llm.requests().len(), 2, "no third model step");
}

#[tokio::test]
async fn a_truncated_stream_fails_the_turn() {
    for kind in KINDS {
        let manager = demo().await;
        let llm = ScriptedLlm::start(vec![
            Step::reply(["partial ", "answer ", "never ", "ends"]).cut_off(3),
        ])
        .await;
        let (out, _) = turn(
            &llm,
            kind,
            &manager,
            &config(kind, 10),
            "hi",
            &CancellationToken::new(),
        )
        .await;
        assert!(
            matches!(&out.terminal, TurnEvent::TurnFailed { kind: k, .. } if k == "truncated"),
            "{kind:?}: {:?}",
            out.terminal
        );
    }
}

#[tokio::test]
async fn provider_errors_are_typed() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![Step::fail(401, "bad key")]).await;
    let (out, _) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 10),
        "hi",
        &CancellationToken::new(),
    )
    .await;
    assert!(
        matches!(&out.terminal, TurnEvent::TurnFailed { kind: k, .. } if k == "auth"),
        "{:?}",
        out.terminal
    );
}

/// Cancels the turn when the first event `trigger` matches arrives (so the cancel happens at
/// that point by construction, not by timing).
struct CancelOn {
    inner: RecordingSink,
    cancel: CancellationToken,
    trigger: fn(&TurnEvent) -> bool,
}

impl EventSink for CancelOn {
    fn emit(&self, event: TurnEvent) {
        if (self.trigger)(&event) {
            self.cancel.cancel();
        }
        self.inner.emit(event);
    }
}

async fn turn_cancelled_on(
    llm: &ScriptedLlm,
    kind: ProviderKind,
    manager: &ConnectionManager,
    prompt: &str,
    trigger: fn(&TurnEvent) -> bool,
) -> (TurnOutcome, Vec<TurnEvent>) {
    let cancel = CancellationToken::new();
    let sink = CancelOn {
        inner: RecordingSink::default(),
        cancel: cancel.clone(),
        trigger,
    };
    let p = provider(llm, kind);
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        run_turn(
            p.as_ref(),
            manager,
            &[],
            Message::user(prompt),
            &config(kind, 10),
            &sink,
            &cancel,
        ),
    )
    .await
    .expect("the turn ends in time");
    let events = sink.inner.events();
    check_contract(&events);
    (out, events)
}

#[tokio::test]
async fn cancel_mid_stream() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![Step::reply(["a", "b", "c", "d", "e", "f"]).slow(300)]).await;
    let (out, events) = turn_cancelled_on(&llm, kind, &manager, "hi", |e| {
        matches!(e, TurnEvent::TextDelta { .. })
    })
    .await;
    assert!(
        matches!(out.terminal, TurnEvent::TurnCancelled { .. }),
        "{:?}",
        out.terminal
    );
    let first_text = events
        .iter()
        .position(|e| matches!(e, TurnEvent::TextDelta { .. }));
    assert!(
        first_text.is_some(),
        "text streamed before the cancel: {events:#?}"
    );
    assert_ne!(
        text_of(&events),
        "abcdef",
        "the stream was cut, not finished"
    );
}

#[tokio::test]
async fn cancel_mid_tool_cancels_the_mcp_request() {
    let kind = ProviderKind::Anthropic;
    let manager = demo().await;
    // The demo speaks 2026-07-28 here, where a server logs only for requests naming a level.
    manager
        .get("demo")
        .unwrap()
        .set_log_level(Some("debug".into()));
    let mut server_events = manager.subscribe();
    let llm = ScriptedLlm::start(vec![Step::call_tools([ScriptedCall::new(
        "slow",
        "demo__slow_task",
        json!({"steps": 100, "step_ms": 100}),
    )])])
    .await;
    // Cancelled at the tool's first progress report: the call is running on the server.
    let (out, events) = turn_cancelled_on(&llm, kind, &manager, "slow", |e| {
        matches!(e, TurnEvent::ToolProgress { .. })
    })
    .await;
    assert!(
        matches!(out.terminal, TurnEvent::TurnCancelled { .. }),
        "{events:#?}"
    );
    let result = events
        .iter()
        .find(|e| matches!(e, TurnEvent::ToolResult { .. }))
        .unwrap();
    assert!(matches!(
        result,
        TurnEvent::ToolResult {
            is_error: true,
            error: Some(_),
            ..
        }
    ));
    // The fixture saw notifications/cancelled and said so in its log.
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(ServerEvent::Log { data, .. }) = server_events.recv().await
                && data.to_string().contains("cancelled after")
            {
                return;
            }
        }
    })
    .await
    .expect("the server was told to cancel");
}

#[tokio::test]
async fn the_elicitation_policy_answers_without_a_person() {
    let kind = ProviderKind::OpenAi;
    for (mode, outcome, fed) in [
        (ElicitationMode::Decline, "decline", "decline"),
        (ElicitationMode::AcceptDefaults, "decline", "decline"),
        (ElicitationMode::Cancel, "cancel", "cancel"),
    ] {
        let manager = demo().await;
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall::new("e1", "demo__elicit_form", json!({}))]),
            Step::reply(["ok"]),
        ])
        .await;
        let mut cfg = config(kind, 10);
        cfg.elicitation = mode;
        // Nobody answers here: only the policy can, or the call would wait five minutes.
        let (out, events) = turn(
            &llm,
            kind,
            &manager,
            &cfg,
            "ask me",
            &CancellationToken::new(),
        )
        .await;
        assert!(
            matches!(out.terminal, TurnEvent::TurnFinished { .. }),
            "{mode:?}"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, TurnEvent::HumanResolved { outcome: o, .. } if o == outcome)),
            "{mode:?}: {events:#?}"
        );
        let fed_back = llm.requests()[1].body.to_string().to_lowercase();
        assert!(fed_back.contains(fed), "{mode:?}: {fed_back}");
    }
}

#[tokio::test]
async fn elicitation_during_a_chat_tool_call() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let mut server_events = manager.subscribe();
    let broker = manager.broker().clone();
    tokio::spawn(async move {
        loop {
            if let Ok(ServerEvent::HumanRequested { request }) = server_events.recv().await {
                broker.answer(
                    request.id,
                    HumanAnswer::Accept {
                        content: json!({"name": "Katherine", "age": 40}),
                    },
                );
                return;
            }
        }
    });
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new("e1", "demo__elicit_form", json!({}))]),
        Step::reply(["Nice to meet you."]),
    ])
    .await;
    let (out, events) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 10),
        "ask me",
        &CancellationToken::new(),
    )
    .await;
    assert!(
        matches!(out.terminal, TurnEvent::TurnFinished { .. }),
        "{events:#?}"
    );
    let fed_back = llm.requests()[1].body.to_string();
    assert!(fed_back.contains("Katherine"), "{fed_back}");
    let asked = events
        .iter()
        .position(|e| matches!(e, TurnEvent::HumanRequested { call_id, .. } if call_id == "e1"));
    let answered = events
        .iter()
        .position(|e| matches!(e, TurnEvent::HumanResolved { outcome, .. } if outcome == "accept"));
    let result = events
        .iter()
        .position(|e| matches!(e, TurnEvent::ToolResult { .. }));
    assert!(
        asked < answered && answered < result,
        "the elicitation appears in the turn, in order: {events:#?}"
    );
    assert!(asked.is_some());
}

#[tokio::test]
async fn a_disconnected_server_fails_before_calling_the_model() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    manager.disconnect("demo").await;
    let llm = ScriptedLlm::start(vec![]).await;
    let (out, _) = turn(
        &llm,
        kind,
        &manager,
        &config(kind, 10),
        "hi",
        &CancellationToken::new(),
    )
    .await;
    let TurnEvent::TurnFailed { message, .. } = &out.terminal else {
        panic!("{:?}", out.terminal)
    };
    assert!(message.contains("not connected"), "{message}");
    assert!(llm.requests().is_empty());
}

#[tokio::test]
async fn approval_allows_with_edited_arguments_or_denies() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([
            ScriptedCall::new("ok", "demo__add", json!({"a": 1, "b": 1})),
            ScriptedCall::new("no", "demo__echo", json!({"message": "secret"})),
        ]),
        Step::reply(["done"]),
    ])
    .await;
    let approvals = Arc::new(Approvals::default());
    let mut cfg = config(kind, 10);
    cfg.approvals = Some(approvals.clone());
    let sink = Arc::new(RecordingSink::default());
    let decider = {
        let (approvals, sink) = (approvals.clone(), sink.clone());
        tokio::spawn(async move {
            let mut decided = 0;
            while decided < 2 {
                for e in sink.events() {
                    if let TurnEvent::ApprovalRequested {
                        turn_id, call_id, ..
                    } = e
                        && approvals.is_pending(&turn_id, &call_id)
                    {
                        let decision = if call_id == "ok" {
                            mcplab_protocol::chat::ApprovalDecision::Allow {
                                arguments: Some(json!({"a": 20, "b": 22})),
                            }
                        } else {
                            mcplab_protocol::chat::ApprovalDecision::Deny {
                                reason: Some("not now".into()),
                            }
                        };
                        if approvals.decide(&turn_id, &call_id, decision) {
                            decided += 1;
                        }
                    }
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
    };
    let p = provider(&llm, kind);
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        run_turn(
            p.as_ref(),
            &manager,
            &[],
            Message::user("go"),
            &cfg,
            sink.as_ref(),
            &CancellationToken::new(),
        ),
    )
    .await
    .unwrap();
    decider.await.unwrap();
    let events = sink.events();
    check_contract(&events);
    assert!(
        matches!(out.terminal, TurnEvent::TurnFinished { .. }),
        "{events:#?}"
    );
    let result = |id: &str| {
        events.iter().find_map(|e| match e {
            TurnEvent::ToolResult {
                call_id,
                result,
                error,
                ..
            } if call_id == id => Some((result.clone(), error.clone())),
            _ => None,
        })
    };
    let (ok, _) = result("ok").unwrap();
    assert_eq!(
        ok.unwrap()["structuredContent"]["sum"],
        42.0,
        "the edited arguments ran"
    );
    let (denied, why) = result("no").unwrap();
    assert!(denied.is_none());
    assert!(why.unwrap().contains("denied"));
    let fed_back = llm.requests()[1].body.to_string();
    assert!(
        fed_back.contains("20 + 22 = 42") && fed_back.contains("not now"),
        "{fed_back}"
    );
}

#[tokio::test]
async fn streamed_tool_arguments_become_partial_input_events() {
    for kind in KINDS {
        let manager = demo().await;
        let args = json!({"message": "streamed in pieces"});
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall {
                fragments: 6,
                ..ScriptedCall::new("c1", "demo__echo", args.clone())
            }]),
            Step::reply(["ok"]),
        ])
        .await;
        let (_, events) = turn(
            &llm,
            kind,
            &manager,
            &config(kind, 10),
            "echo",
            &CancellationToken::new(),
        )
        .await;
        let call_at = events
            .iter()
            .position(|e| matches!(e, TurnEvent::ToolCall { .. }))
            .expect("a tool call");
        let partials: Vec<(usize, String)> = events
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                TurnEvent::ToolInputPartial {
                    turn_id,
                    call_id,
                    name,
                    server,
                    tool,
                    arguments_text,
                } => {
                    assert_eq!(
                        (
                            turn_id.as_str(),
                            call_id.as_str(),
                            name.as_str(),
                            server.as_str(),
                            tool.as_str()
                        ),
                        ("t1", "c1", "demo__echo", "demo", "echo"),
                        "{kind:?}"
                    );
                    Some((i, arguments_text.clone()))
                }
                _ => None,
            })
            .collect();
        assert!(
            partials.len() >= 3,
            "{kind:?}: the arguments streamed in pieces: {partials:?}"
        );
        assert!(
            partials.iter().all(|(i, _)| *i < call_at),
            "{kind:?}: partial input precedes the call"
        );
        let texts: Vec<&str> = partials.iter().map(|(_, t)| t.as_str()).collect();
        for pair in texts.windows(2) {
            assert_ne!(pair[0], pair[1], "{kind:?}: one event per distinct text");
            assert!(pair[1].starts_with(pair[0]), "{kind:?}: {pair:?}");
        }
        assert_eq!(texts.last().copied(), Some(args.to_string().as_str()));
        manager.shutdown().await;
    }
}

#[tokio::test]
async fn app_context_reaches_the_model_as_system_text() {
    let kind = ProviderKind::OpenAi;
    let manager = demo().await;
    let llm = ScriptedLlm::start(vec![Step::reply(["noted"])]).await;
    let mut cfg = config(kind, 10);
    cfg.context = vec![
        "Context from the app: the counter is at 7".into(),
        "  ".into(),
    ];
    turn(&llm, kind, &manager, &cfg, "hi", &CancellationToken::new()).await;
    let body = &llm.requests()[0].body;
    let system: Vec<&Value> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "system")
        .collect();
    let text = system
        .iter()
        .map(|m| m["content"].to_string())
        .collect::<String>();
    assert!(text.contains("the counter is at 7"), "{body}");
    assert!(text.contains(DEFAULT_SYSTEM_PROMPT), "{body}");
    manager.shutdown().await;
}
