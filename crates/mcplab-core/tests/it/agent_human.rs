//! Agent loop turns that a person or the host steps into, with the same real parts as
//! agent.rs: cancel mid-stream and mid-tool, the elicitation policy and a person answering,
//! approval with edited arguments or a denial, a disconnected server, streamed tool
//! arguments, and an app's context reaching the model.

use std::sync::Arc;
use std::time::Duration;

use crate::turn_support::*;
use mcplab_core::agent::{Approvals, DEFAULT_SYSTEM_PROMPT, RecordingSink, run_turn};
use mcplab_llm::{Message, ProviderKind};
use mcplab_protocol::chat::TurnEvent;
use mcplab_protocol::host::ElicitationMode;
use mcplab_protocol::{HumanAnswer, HumanOutcome, ServerEvent};
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

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
        (ElicitationMode::Decline, HumanOutcome::Decline, "decline"),
        (
            ElicitationMode::AcceptDefaults,
            HumanOutcome::Decline,
            "decline",
        ),
        (ElicitationMode::Cancel, HumanOutcome::Cancel, "cancel"),
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
                .any(|e| matches!(e, TurnEvent::HumanResolved { outcome: o, .. } if *o == outcome)),
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
    let (out, events) = plain_turn(&llm, kind, &manager, "ask me").await;
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
        .position(|e| matches!(e, TurnEvent::HumanResolved { outcome, .. } if *outcome == HumanOutcome::Accept));
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
    let (out, _) = plain_turn(&llm, kind, &manager, "hi").await;
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
                // The recording sink has no notification: it is polled while the turn runs (the
                // turn itself is awaited with a deadline below).
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
        let (_, events) = plain_turn(&llm, kind, &manager, "echo").await;
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
