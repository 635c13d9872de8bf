//! Host profiles drive the host (issue 18): judged by what the other side received. The
//! scripted LLM's logged requests show the tool list and tool-result content a profile lets
//! the model see; the fixture server's recorded `initialize` (and its own answer to
//! `list_roots`, which reads the capabilities it was given) shows the capabilities each
//! built-in profile declares.

use std::sync::Arc;
use std::time::Duration;

use mcplab_core::agent::RecordingSink;
use mcplab_core::session::profiles::HostProfiles;
use mcplab_core::session::{Attendance, HostTurn};
use mcplab_llm::{ModelRef, ProviderKind};
use mcplab_mcp::modern::declared_capabilities;
use mcplab_mcp::{ConnectionManager, ManagerOptions, RequestOptions};
use mcplab_protocol::chat::TurnEvent;
use mcplab_protocol::host::{ClientDeclaration, HostConfig, StructuredContentMode};
use mcplab_protocol::{Direction, ProtocolChoice};
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::turn_support::{demo_with, provider};

async fn demo(client: ClientDeclaration) -> Arc<ConnectionManager> {
    demo_with(ManagerOptions {
        client,
        ..ManagerOptions::default()
    })
    .await
}

/// One turn under `host` against the demo server: the model calls `add`, then answers.
/// Returns the scripted LLM's logged request bodies and the turn's events.
async fn add_turn(host: &HostConfig, tool_name: &str) -> (Vec<Value>, Vec<TurnEvent>) {
    let manager = demo(host.client.clone()).await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new("c1", tool_name, json!({"a": 2, "b": 3}))]),
        Step::reply(["done"]),
    ])
    .await;
    let mut host = host.clone();
    host.servers.insert("demo".into(), Default::default());
    let turn = HostTurn {
        host: &host,
        turn_id: "t".into(),
        model: ModelRef::parse("scripted::gpt-4o-mini").unwrap(),
        attendance: Attendance::Unattended,
        context: vec![],
        prices: None,
    };
    let sink = RecordingSink::default();
    let p = provider(&llm, ProviderKind::OpenAi);
    tokio::time::timeout(
        Duration::from_secs(30),
        turn.run(
            p.as_ref(),
            &manager,
            &[],
            "add".into(),
            &sink,
            &CancellationToken::new(),
        ),
    )
    .await
    .expect("the turn ends in time");
    manager.shutdown().await;
    let bodies = llm.requests().into_iter().map(|r| r.body).collect();
    (bodies, sink.events())
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_owned))
        .collect()
}

/// The content of the `tool` message the model got back (OpenAI format).
fn tool_message(body: &Value) -> String {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["role"] == "tool")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_model_gets_the_tool_result_content_the_profile_allows() {
    let profiles = HostProfiles::builtin().unwrap();
    // mcplab's rule: the result has text, so structuredContent stays out.
    let mcplab = &profiles.get("mcplab").unwrap().host_config;
    let (bodies, _) = add_turn(mcplab, "demo__add").await;
    assert_eq!(bodies.len(), 2, "{bodies:#?}");
    let fed_back = tool_message(&bodies[1]);
    assert!(fed_back.contains("2 + 3 = 5"), "{fed_back}");
    assert!(!fed_back.contains("\"sum\""), "{fed_back}");
    // ChatGPT reads structuredContent too.
    let chatgpt = &profiles.get("chatgpt").unwrap().host_config;
    assert_eq!(
        chatgpt.tool_results.structured_content,
        StructuredContentMode::Always
    );
    let (bodies, _) = add_turn(chatgpt, "demo__add").await;
    let fed_back = tool_message(&bodies[1]);
    assert!(
        fed_back.contains("2 + 3 = 5") && fed_back.contains("{\"sum\":5"),
        "{fed_back}"
    );
    // A profile that hides structuredContent *and* text leaves the model nothing of either.
    let mut hidden = mcplab.clone();
    hidden.tool_results.structured_content = StructuredContentMode::Never;
    hidden.tool_results.text = false;
    let (bodies, _) = add_turn(&hidden, "demo__add").await;
    let fed_back = tool_message(&bodies[1]);
    assert!(
        !fed_back.contains("sum") && !fed_back.contains("2 + 3"),
        "{fed_back:?}"
    );
}

#[tokio::test]
async fn the_model_gets_the_tool_list_the_profile_allows() {
    let profiles = HostProfiles::builtin().unwrap();
    let mcplab = &profiles.get("mcplab").unwrap().host_config;
    let (bodies, events) = add_turn(mcplab, "demo__add").await;
    let all = tool_names(&bodies[0]);
    assert!(
        all.len() > 3 && all.contains(&"demo__add".to_owned()),
        "{all:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, TurnEvent::ToolsLeftOut { .. }))
    );
    // A tool limit below the demo's count: the first ones only, and the turn says so.
    let mut capped = mcplab.clone();
    capped.tool_catalog.max_tools = Some(2);
    let (bodies, events) = add_turn(&capped, &all[0]).await;
    assert_eq!(tool_names(&bodies[0]), all[..2], "the first two, in order");
    let left_out = events.iter().find_map(|e| match e {
        TurnEvent::ToolsLeftOut {
            limit, left_out, ..
        } => Some((*limit, left_out.clone())),
        _ => None,
    });
    assert_eq!(left_out, Some((2, all[2..].to_vec())));
    // Bare naming: the MCP name as the server wrote it.
    let mut bare = mcplab.clone();
    bare.tool_catalog.naming = mcplab_protocol::host::ToolNaming::Bare;
    let (bodies, events) = add_turn(&bare, "add").await;
    assert!(tool_names(&bodies[0]).contains(&"add".to_owned()));
    assert!(
        events.iter().any(
            |e| matches!(e, TurnEvent::ToolResult { tool, is_error: false, .. } if tool == "add")
        ),
        "the bare name resolves to the server's tool: {events:#?}"
    );
}

/// The capabilities the demo server received: from `initialize`, or from a 2026-07-28
/// request's `_meta` when `auto` spoke the modern era.
fn received_capabilities(manager: &ConnectionManager) -> (Option<String>, Value) {
    let frames = manager.traffic().snapshot("demo").frames;
    for f in frames.iter().filter(|f| f.direction == Direction::Outbound) {
        let Ok(v) = serde_json::from_str::<Value>(&f.text) else {
            continue;
        };
        if v["method"] == "initialize" {
            let version = v["params"]["protocolVersion"].as_str().map(str::to_owned);
            return (version, v["params"]["capabilities"].clone());
        }
        let meta = &v["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
        if !meta.is_null() {
            return (None, meta.clone());
        }
    }
    panic!("no frame carried client capabilities: {frames:#?}");
}

#[tokio::test]
async fn servers_see_the_capabilities_each_profile_declares() {
    let profiles = HostProfiles::builtin().unwrap();
    for p in profiles.list() {
        let client = p.host_config.client.clone();
        let manager = demo(client.clone()).await;
        let (version, caps) = received_capabilities(&manager);
        assert_eq!(caps, declared_capabilities(&client), "{}", p.name);
        if client.protocol != ProtocolChoice::Auto {
            assert_eq!(
                version.as_deref(),
                Some(client.protocol.as_str()),
                "{}",
                p.name
            );
        }
        // The server's own reading of them: `list_roots` refuses when roots are not declared.
        let conn = manager.get("demo").unwrap();
        let answer = tokio::time::timeout(
            Duration::from_secs(20),
            conn.request(
                "tools/call",
                Some(json!({"name": "list_roots", "arguments": {}})),
                RequestOptions::default(),
            ),
        )
        .await
        .expect("answers in time")
        .unwrap();
        let refused = answer
            .to_string()
            .contains("did not declare the roots capability");
        assert_eq!(refused, !client.roots, "{}: {answer}", p.name);
        manager.shutdown().await;
    }
    // Claude, as its source records it, declares none of sampling, roots or elicitation.
    let claude = declared_capabilities(&profiles.get("claude").unwrap().host_config.client);
    for absent in ["sampling", "roots", "elicitation"] {
        assert!(claude.get(absent).is_none(), "{claude}");
    }
}
