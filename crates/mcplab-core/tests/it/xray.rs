//! The x-ray against real parts: a turn of the agent loop with the fixture server in process
//! and the genai provider talking HTTP to the testkit's scripted LLM (OpenAI and Anthropic
//! formats). What the x-ray says was sent must be, byte for byte, what the scripted server
//! received (headers compared after the same masking); its tokens are the server's usage; a
//! provider that cannot be reached or a stream that breaks shows in the exchange.

use std::sync::Arc;
use std::time::Duration;

use mcplab_core::agent::{RecordingSink, TurnConfig, run_turn};
use mcplab_llm::xray::mask_header;
use mcplab_llm::{LlmProvider, Message, ModelRef, ProviderKind};
use mcplab_protocol::chat::{TurnEvent, TurnFailureKind};
use mcplab_protocol::xray::StepXray;
use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::turn_support::{self, demo, provider_at, run_bounded};

const KEY: &str = "sk-xray-0123456789-secret";

fn provider(base_url: &str, kind: ProviderKind) -> Arc<dyn LlmProvider> {
    provider_at("scripted", kind, base_url, KEY)
}

/// The shared turn config with a temperature (so the x-ray shows one) and 4 steps.
fn config(kind: ProviderKind) -> TurnConfig {
    TurnConfig {
        temperature: Some(0.3),
        ..turn_support::config(kind, 4)
    }
}

async fn run(provider: &dyn LlmProvider, kind: ProviderKind) -> Vec<TurnEvent> {
    let manager = demo().await;
    let sink = RecordingSink::default();
    let cancel = CancellationToken::new();
    run_bounded(
        provider,
        &manager,
        "add 2 and 40",
        &config(kind),
        &sink,
        &cancel,
    )
    .await;
    sink.events()
}

fn xrays(events: &[TurnEvent]) -> Vec<StepXray> {
    events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::StepXray { xray, .. } => Some(xray.clone()),
            _ => None,
        })
        .collect()
}

fn masked(headers: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<_> = headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), mask_header(k, v)))
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn the_xray_is_what_the_provider_received_byte_for_byte() {
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall::new(
                "call_1",
                "demo__add",
                json!({"a": 2, "b": 40}),
            )]),
            Step::reply(["The answer ", "is 42."]),
        ])
        .await;
        let events = run(provider(&llm.base_url(), kind).as_ref(), kind).await;
        let received = llm.requests();
        let steps = xrays(&events);
        assert_eq!(steps.len(), 2, "{kind:?}: one x-ray per step");
        for (i, (x, r)) in steps.iter().zip(&received).enumerate() {
            assert_eq!(x.step, i as u32 + 1);
            assert_eq!(x.exchanges.len(), 1, "no retries here");
            let sent = &x.exchanges[0];
            assert_eq!(
                sent.request_body.as_bytes(),
                r.raw_body.as_slice(),
                "{kind:?} step {}: the body as received",
                x.step
            );
            assert_eq!(sent.request_bytes, r.raw_body.len() as u64);
            assert!(!sent.request_truncated);
            let mut shown = sent.request_headers.clone();
            shown.sort();
            assert_eq!(
                shown,
                masked(&r.headers),
                "{kind:?}: the headers as received"
            );
            assert_eq!(sent.url, format!("{}{}", llm.base_url(), &r.path[4..]));
            assert_eq!(sent.status, Some(200));
            let usage = r.usage.expect("answered with content");
            assert_eq!(x.tokens.input_tokens, u64::from(usage.input_tokens));
            assert_eq!(x.tokens.output_tokens, u64::from(usage.output_tokens));
            assert!(!x.tokens.estimated);
            let tools = serde_json::to_string(&r.body["tools"]).unwrap();
            assert_eq!(x.tokens.tool_definition_bytes, tools.len() as u64);
            assert_eq!(x.tokens.request_bytes, r.raw_body.len() as u64);
            let share = x.tokens.tool_definition_tokens as f64 / x.tokens.input_tokens as f64;
            let bytes_share = tools.len() as f64 / r.raw_body.len() as f64;
            assert!(
                (share - bytes_share).abs() < 0.01,
                "{share} vs {bytes_share}"
            );
            assert!(
                x.tokens.tool_count >= 3,
                "the demo server's tools were offered"
            );
            assert!(x.ttft_ms.is_some(), "something streamed");
            assert_eq!(
                x.cost, None,
                "`scripted::` models are not in the price table"
            );
        }
        let last = &steps[1].exchanges[0].response_body;
        assert!(
            last.contains("The answer ") && last.contains("is 42."),
            "{last}"
        );
        let end = match kind {
            ProviderKind::Anthropic => "message_stop",
            _ => "data: [DONE]",
        };
        assert!(
            last.contains(end),
            "the whole stream, end marker included: {last}"
        );
        let text = serde_json::to_string(&steps).unwrap();
        assert!(!text.contains(KEY), "the API key is masked");

        let n = events.len();
        assert!(
            matches!(
                &events[n - 2],
                TurnEvent::TurnTiming {
                    ttft_ms: Some(_),
                    ..
                }
            ),
            "turnTiming comes right before the terminal event: {:?}",
            events[n - 2]
        );
        let after_trace = events.windows(2).all(|w| match &w[1] {
            TurnEvent::StepXray { .. } => matches!(w[0], TurnEvent::TraceStep { .. }),
            _ => true,
        });
        assert!(after_trace, "a finished step's x-ray follows its traceStep");
    }
}

#[tokio::test]
async fn an_unreachable_provider_and_a_broken_stream_show_in_the_xray() {
    // A port that was just free: nothing listens there.
    let port = mcplab_testkit::ports::spare_port();
    let events = run(
        provider(
            &format!("http://127.0.0.1:{port}/v1/"),
            ProviderKind::OpenAi,
        )
        .as_ref(),
        ProviderKind::OpenAi,
    )
    .await;
    let failed = events.last().unwrap();
    assert!(
        matches!(failed, TurnEvent::TurnFailed { kind, .. } if *kind == TurnFailureKind::Network),
        "{failed:?}"
    );
    let steps = xrays(&events);
    let sent = &steps[0].exchanges[0];
    assert_eq!(sent.status, None);
    let reason = sent.error.as_deref().unwrap_or_default();
    assert!(reason.contains("127.0.0.1"), "the real reason: {reason}");
    if let TurnEvent::TurnFailed { message, .. } = failed {
        assert!(message.contains(reason), "{message} names {reason}");
    }

    let llm = ScriptedLlm::start(vec![
        Step::reply(["never ", "finished ", "here"]).cut_off(2),
    ])
    .await;
    let events = run(
        provider(&llm.base_url(), ProviderKind::OpenAi).as_ref(),
        ProviderKind::OpenAi,
    )
    .await;
    assert!(
        matches!(events.last(), Some(TurnEvent::TurnFailed { kind, .. }) if *kind == TurnFailureKind::Truncated)
    );
    let sent = &xrays(&events)[0].exchanges[0];
    assert_eq!(sent.status, Some(200));
    assert!(
        sent.response_body.contains("never "),
        "{}",
        sent.response_body
    );
    assert!(
        sent.error
            .as_deref()
            .is_some_and(|e| e.contains("broke off")),
        "{sent:?}"
    );
}

#[tokio::test]
async fn each_step_is_priced_from_the_table_by_the_providers_usage() {
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new(
            "call_1",
            "demo__add",
            json!({"a": 2, "b": 40}),
        )]),
        Step::reply(["42"]),
    ])
    .await;
    // The scripted server plays `openai`, so the model is `openai::gpt-5-mini`: $0.25 in and
    // $2.00 out per million tokens in the shipped table.
    let provider = provider_at("openai", ProviderKind::OpenAi, &llm.base_url(), KEY);
    let manager = demo().await;
    let sink = RecordingSink::default();
    let mut cfg = config(ProviderKind::OpenAi);
    cfg.model = ModelRef::parse("openai::gpt-5-mini").unwrap();
    tokio::time::timeout(
        Duration::from_secs(30),
        run_turn(
            provider.as_ref(),
            &manager,
            &[],
            Message::user("add 2 and 40"),
            &cfg,
            &sink,
            &CancellationToken::new(),
        ),
    )
    .await
    .expect("the turn ends in time");
    let steps = xrays(&sink.events());
    let received = llm.requests();
    assert_eq!(steps.len(), 2);
    for (x, r) in steps.iter().zip(&received) {
        let usage = r.usage.expect("answered with content");
        let by_hand =
            f64::from(usage.input_tokens) * 0.25 / 1e6 + f64::from(usage.output_tokens) * 2.0 / 1e6;
        let cost = x.cost.as_ref().expect("gpt-5-mini has a price");
        assert!(
            (cost.usd - by_hand).abs() < 1e-12,
            "{} vs {by_hand}",
            cost.usd
        );
        assert_eq!(
            cost.source,
            "https://developers.openai.com/api/docs/models/gpt-5-mini"
        );
        assert!(!cost.estimated);
    }
    let total = mcplab_core::agent::cost::total_cost(&steps).unwrap();
    let sum: f64 = steps.iter().map(|x| x.cost.as_ref().unwrap().usd).sum();
    assert!((total - sum).abs() < 1e-15);
}

#[tokio::test]
async fn a_password_in_the_base_url_is_masked_in_the_xray() {
    // Security review N4: `http://user:pass@host/v1` showed the password in the x-ray's URL
    // and `host` header (and so in session exports).
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = ScriptedLlm::start(vec![Step::reply(["ok"])]).await;
        let with_password =
            llm.base_url()
                .replacen("http://", "http://proxyuser:PROXYPASS-secret@", 1);
        let events = run(provider(&with_password, kind).as_ref(), kind).await;
        let received = llm.requests();
        let steps = xrays(&events);
        let sent = &steps[0].exchanges[0];
        let text = serde_json::to_string(&steps).unwrap();
        assert!(
            !text.contains("PROXYPASS"),
            "{kind:?}: {} {:?}",
            sent.url,
            sent.request_headers
        );
        let url = format!("{with_password}{}", &received[0].path[4..]);
        assert_eq!(sent.url, mcplab_net::mask_url_text(&url), "{kind:?}");
        assert!(sent.url.starts_with("http://proxyuser:"), "{}", sent.url);
        let mut shown = sent.request_headers.clone();
        shown.sort();
        assert_eq!(
            shown,
            masked(&received[0].headers),
            "{kind:?}: the headers as received, the host without the user"
        );
    }
}
