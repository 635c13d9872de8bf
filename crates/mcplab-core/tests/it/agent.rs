//! Agent loop tests with real parts only: the fixture MCP server in process, the genai-based
//! provider talking HTTP to the testkit's scripted LLM server (OpenAI and Anthropic formats),
//! and a recording sink. Every scenario checks the turn contract: exactly one terminal event,
//! last; exactly one `toolResult` per `toolCall`. The turns a person or the host steps into
//! (cancel, elicitation, approval, app context) are in agent_human.rs.

use crate::turn_support::*;
use mcplab_core::agent::DEFAULT_SYSTEM_PROMPT;
use mcplab_llm::ProviderKind;
use mcplab_protocol::chat::{StopReason, TurnEvent, TurnFailureKind};
use mcplab_protocol::host::ServerTools;
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::json;
use tokio_util::sync::CancellationToken;

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
        let (out, events) = plain_turn(&llm, kind, &manager, "add 2 and 3").await;
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
    let (_, events) = plain_turn(&llm, kind, &manager, "go").await;
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
    let (_, events) = plain_turn(&llm, kind, &manager, "slow").await;
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
        let (out, _) = plain_turn(&llm, kind, &manager, "hi").await;
        assert!(
            matches!(&out.terminal, TurnEvent::TurnFailed { kind: k, .. } if *k == TurnFailureKind::Truncated),
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
    let (out, _) = plain_turn(&llm, kind, &manager, "hi").await;
    assert!(
        matches!(&out.terminal, TurnEvent::TurnFailed { kind: k, .. } if *k == TurnFailureKind::Auth),
        "{:?}",
        out.terminal
    );
}
