//! Shared by the agent loop tests (agent.rs, agent_human.rs), the x-ray and the host profile
//! tests: the fixture MCP server in process, the genai provider on the scripted LLM, a turn
//! config, a bounded turn, the turn contract check, and a sink that cancels on a chosen event.

use std::sync::Arc;
use std::time::Duration;

use mcplab_core::agent::{
    DEFAULT_APPROVAL_TIMEOUT, DEFAULT_SYSTEM_PROMPT, EventSink, RecordingSink, TurnConfig,
    TurnOutcome, run_turn,
};
use mcplab_llm::{
    LlmProvider, Message, ModelRef, ProviderConfig, ProviderKind, RetryPolicy, build_provider,
};
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::chat::TurnEvent;
use mcplab_protocol::host::{ElicitationMode, ServerTools};
use mcplab_testkit::llm::ScriptedLlm;
use tokio_util::sync::CancellationToken;

pub const KINDS: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

pub async fn demo() -> Arc<ConnectionManager> {
    demo_with(ManagerOptions::default()).await
}

/// The fixture server in this process over a duplex byte stream, connected as `demo` by a
/// manager with `opts`.
pub async fn demo_with(opts: ManagerOptions) -> Arc<ConnectionManager> {
    let manager = ConnectionManager::new(opts);
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let _ = mcplab_testkit::serve_io(sr, sw).await;
    });
    let (cr, cw) = tokio::io::split(client_io);
    tokio::time::timeout(Duration::from_secs(20), manager.connect_io("demo", cr, cw))
        .await
        .expect("connects in time")
        .unwrap();
    manager
}

pub fn provider(llm: &ScriptedLlm, kind: ProviderKind) -> Arc<dyn LlmProvider> {
    provider_at("scripted", kind, &llm.base_url(), "sk-test")
}

/// The genai provider `id` of `kind` at `base_url` with `api_key`, not proxied.
pub fn provider_at(
    id: &str,
    kind: ProviderKind,
    base_url: &str,
    api_key: &str,
) -> Arc<dyn LlmProvider> {
    let config = ProviderConfig {
        id: id.into(),
        kind,
        base_url: Some(base_url.into()),
        api_key: Some(api_key.into()),
        models: vec![],
    };
    let http = mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap();
    build_provider(&config, &http, RetryPolicy::none()).unwrap()
}

pub fn config(kind: ProviderKind, step_limit: u32) -> TurnConfig {
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
        mcp_apps: true,
    }
}

/// The turn contract, checked on every scenario.
pub fn check_contract(events: &[TurnEvent]) {
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

/// `run_turn` of `prompt` after no history, bounded to 30 s.
pub async fn run_bounded(
    provider: &dyn LlmProvider,
    manager: &ConnectionManager,
    prompt: &str,
    cfg: &TurnConfig,
    sink: &dyn EventSink,
    cancel: &CancellationToken,
) -> TurnOutcome {
    let user = Message::user(prompt);
    tokio::time::timeout(
        Duration::from_secs(30),
        run_turn(provider, manager, &[], user, cfg, sink, cancel),
    )
    .await
    .expect("the turn ends in time")
}

pub async fn turn(
    llm: &ScriptedLlm,
    kind: ProviderKind,
    manager: &ConnectionManager,
    cfg: &TurnConfig,
    prompt: &str,
    cancel: &CancellationToken,
) -> (TurnOutcome, Vec<TurnEvent>) {
    let sink = RecordingSink::default();
    let p = provider(llm, kind);
    let out = run_bounded(p.as_ref(), manager, prompt, cfg, &sink, cancel).await;
    let events = sink.events();
    check_contract(&events);
    (out, events)
}

pub fn text_of(events: &[TurnEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::TextDelta { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Cancels the turn when the first event `trigger` matches arrives (so the cancel happens at
/// that point by construction, not by timing).
pub struct CancelOn {
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

/// [`turn`] with [`config`] (10 steps) and nobody cancelling.
pub async fn plain_turn(
    llm: &ScriptedLlm,
    kind: ProviderKind,
    manager: &ConnectionManager,
    prompt: &str,
) -> (TurnOutcome, Vec<TurnEvent>) {
    turn(
        llm,
        kind,
        manager,
        &config(kind, 10),
        prompt,
        &CancellationToken::new(),
    )
    .await
}

pub async fn turn_cancelled_on(
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
    let cfg = config(kind, 10);
    let out = run_bounded(p.as_ref(), manager, prompt, &cfg, &sink, &cancel).await;
    let events = sink.inner.events();
    check_contract(&events);
    (out, events)
}
