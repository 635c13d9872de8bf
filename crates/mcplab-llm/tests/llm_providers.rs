//! The provider layer over real HTTP: every test runs against the testkit's scripted LLM
//! server speaking the OpenAI Chat Completions and Anthropic Messages streaming formats on
//! loopback, once per protocol.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use mcplab_llm::{
    ChatRequest, FinishReason, LlmError, LlmProvider, Message, ModelRef, Part, ProviderConfig,
    ProviderKind, RetryPolicy, Role, StreamEvent, ToolSpec, build_provider, xray::Capture,
};
use mcplab_testkit::llm::{Api, RecordedRequest, ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const KEY: &str = "sk-scripted-test-key";
const KINDS: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

fn http() -> reqwest::Client {
    mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap()
}

/// Fast retries so tests do not wait.
fn quick_retries(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
    }
}

fn provider(llm: &ScriptedLlm, kind: ProviderKind, retry: RetryPolicy) -> Arc<dyn LlmProvider> {
    let config = ProviderConfig {
        id: "scripted".into(),
        kind,
        base_url: Some(llm.base_url()),
        api_key: Some(KEY.into()),
        models: vec![],
    };
    build_provider(&config, &http(), retry).unwrap()
}

fn model(kind: ProviderKind) -> ModelRef {
    let name = match kind {
        ProviderKind::Anthropic | ProviderKind::AnthropicCompatible => "claude-haiku-4-5",
        _ => "gpt-4o-mini",
    };
    ModelRef::parse(&format!("scripted::{name}")).unwrap()
}

fn request(kind: ProviderKind, messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: model(kind),
        system: vec![
            "You are a test.".into(),
            "Server fixture says hello.".into(),
        ],
        messages,
        tools: vec![ToolSpec {
            name: "fixture__echo".into(),
            description: "Echo the text back".into(),
            input_schema: json!({
                "type": "object",
                "properties": {"text": {"type": "string"}, "n": {"type": "integer"}},
                "required": ["text"]
            }),
        }],
        temperature: Some(0.5),
        max_tokens: Some(1000),
        // Every provider test goes through the x-ray relay: it must change nothing.
        capture: Some(Capture::new()),
    }
}

async fn collect(
    provider: &Arc<dyn LlmProvider>,
    request: ChatRequest,
) -> Vec<Result<StreamEvent, LlmError>> {
    provider
        .stream(request, CancellationToken::new())
        .collect()
        .await
}

fn finishes(events: &[Result<StreamEvent, LlmError>]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Ok(StreamEvent::Finish { .. })))
        .count()
}

fn api(kind: ProviderKind) -> Api {
    match kind {
        ProviderKind::Anthropic | ProviderKind::AnthropicCompatible => Api::Anthropic,
        _ => Api::OpenAi,
    }
}

#[tokio::test]
async fn streams_text_reasoning_and_usage() {
    for kind in KINDS {
        let llm = ScriptedLlm::start(vec![Step::Reply {
            text: vec!["Hel".into(), "lo".into(), "!".into()],
            reasoning: vec!["Think".into(), "ing".into()],
        }])
        .await;
        let p = provider(&llm, kind, RetryPolicy::default());
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;

        let recorded = &llm.requests()[0];
        assert_eq!(recorded.api, api(kind));
        let expected = recorded.usage.expect("answered with usage");
        let (body, last) = events.split_at(events.len() - 1);
        let body: Vec<StreamEvent> = body.iter().map(|e| e.clone().unwrap()).collect();
        assert_eq!(
            body,
            [
                StreamEvent::ReasoningDelta("Think".into()),
                StreamEvent::ReasoningDelta("ing".into()),
                StreamEvent::TextDelta("Hel".into()),
                StreamEvent::TextDelta("lo".into()),
                StreamEvent::TextDelta("!".into()),
            ],
            "{kind:?}"
        );
        let Ok(StreamEvent::Finish { reason, usage }) = &last[0] else {
            panic!("{kind:?}: last event is not Finish: {last:?}");
        };
        assert_eq!(*reason, FinishReason::Stop, "{kind:?}");
        assert_eq!(usage.input_tokens, Some(u64::from(expected.input_tokens)));
        assert_eq!(usage.output_tokens, Some(u64::from(expected.output_tokens)));
        if kind == ProviderKind::OpenAi {
            // genai reads reasoning tokens from OpenAI's completion details only.
            assert_eq!(
                usage.reasoning_tokens,
                Some(u64::from(expected.reasoning_tokens))
            );
        }
    }
}

#[tokio::test]
async fn sends_system_prompt_auth_header_and_options() {
    for kind in KINDS {
        let llm = ScriptedLlm::start(vec![Step::reply(["ok"])]).await;
        let p = provider(&llm, kind, RetryPolicy::default());
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(finishes(&events), 1, "{kind:?}: {events:?}");

        let r = &llm.requests()[0];
        let body = &r.body;
        assert_eq!(body["stream"], json!(true));
        assert_eq!(body["temperature"], json!(0.5));
        assert_eq!(body["max_tokens"], json!(1000));
        let system = "You are a test.\n\nServer fixture says hello.";
        match kind {
            ProviderKind::OpenAi => {
                assert_eq!(r.path, "/v1/chat/completions");
                assert_eq!(
                    r.header("authorization"),
                    Some(format!("Bearer {KEY}").as_str())
                );
                assert_eq!(body["model"], json!("gpt-4o-mini"));
                assert_eq!(
                    body["messages"][0],
                    json!({"role": "system", "content": system})
                );
                assert_eq!(
                    body["messages"][1],
                    json!({"role": "user", "content": "hi"})
                );
                assert_eq!(body["tools"][0]["function"]["name"], json!("fixture__echo"));
                assert_eq!(body["stream_options"]["include_usage"], json!(true));
            }
            _ => {
                assert_eq!(r.path, "/v1/messages");
                assert_eq!(r.header("x-api-key"), Some(KEY));
                assert!(r.header("anthropic-version").is_some());
                assert_eq!(body["model"], json!("claude-haiku-4-5"));
                assert_eq!(body["system"], json!(system));
                assert_eq!(
                    body["messages"][0],
                    json!({"role": "user", "content": "hi"})
                );
                assert_eq!(body["tools"][0]["name"], json!("fixture__echo"));
            }
        }
    }
}

/// The arguments of the `ToolCallPartial`s of one call, in order.
fn partials_of(events: &[Result<StreamEvent, LlmError>], call: &str) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Ok(StreamEvent::ToolCallPartial {
                id,
                arguments_so_far,
                ..
            }) if id == call => Some(arguments_so_far.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn tool_calls_reassemble_fragments_and_results_go_back() {
    for kind in KINDS {
        let first_args = json!({"text": "hello there", "n": 3});
        let second_args = json!({"text": "again"});
        let llm = ScriptedLlm::start(vec![
            Step::CallTools {
                text: vec!["Let me check.".into()],
                calls: vec![
                    ScriptedCall {
                        fragments: 5,
                        ..ScriptedCall::new("call_a", "fixture__echo", first_args.clone())
                    },
                    ScriptedCall {
                        fragments: 4,
                        ..ScriptedCall::new("call_b", "fixture__echo", second_args.clone())
                    },
                ],
            },
            Step::reply(["Done."]),
        ])
        .await;
        let p = provider(&llm, kind, RetryPolicy::default());
        let user = Message::user("echo twice");
        let events = collect(&p, request(kind, vec![user.clone()])).await;
        assert!(events.iter().all(Result::is_ok), "{kind:?}: {events:?}");
        assert_eq!(
            events[0],
            Ok(StreamEvent::TextDelta("Let me check.".into()))
        );

        // Partials carry the accumulated arguments: growing prefixes of the final JSON.
        for (id, args) in [("call_a", &first_args), ("call_b", &second_args)] {
            let partials = partials_of(&events, id);
            let full = args.to_string();
            assert!(partials.len() >= 4, "{kind:?} {id}: {partials:?}");
            assert_eq!(partials.last(), Some(&full), "{kind:?} {id}");
            for pair in partials.windows(2) {
                assert!(pair[1].starts_with(&pair[0]), "{kind:?}: {pair:?}");
            }
        }

        let tail: Vec<StreamEvent> = events[events.len() - 3..]
            .iter()
            .map(|e| e.clone().unwrap())
            .collect();
        assert_eq!(
            tail[..2],
            [
                StreamEvent::ToolCall {
                    id: "call_a".into(),
                    name: "fixture__echo".into(),
                    arguments: first_args.clone()
                },
                StreamEvent::ToolCall {
                    id: "call_b".into(),
                    name: "fixture__echo".into(),
                    arguments: second_args.clone()
                },
            ],
            "{kind:?}"
        );
        assert!(matches!(
            tail[2],
            StreamEvent::Finish {
                reason: FinishReason::ToolCalls,
                ..
            }
        ));
        assert_eq!(finishes(&events), 1);

        // Feed the results back.
        let history = vec![
            user,
            Message {
                role: Role::Assistant,
                parts: vec![
                    Part::Text {
                        text: "Let me check.".into(),
                    },
                    Part::ToolCall {
                        id: "call_a".into(),
                        name: "fixture__echo".into(),
                        arguments: first_args.clone(),
                    },
                    Part::ToolCall {
                        id: "call_b".into(),
                        name: "fixture__echo".into(),
                        arguments: second_args.clone(),
                    },
                ],
            },
            Message {
                role: Role::Tool,
                parts: vec![
                    Part::ToolResult {
                        call_id: "call_a".into(),
                        text: "hello there x3".into(),
                        images: vec![],
                        is_error: false,
                    },
                    Part::ToolResult {
                        call_id: "call_b".into(),
                        text: "no such thing".into(),
                        images: vec![],
                        is_error: true,
                    },
                ],
            },
        ];
        let events = collect(&p, request(kind, history)).await;
        assert_eq!(events[0], Ok(StreamEvent::TextDelta("Done.".into())));
        assert_eq!(finishes(&events), 1);
        assert_tool_results_sent(kind, &llm.requests()[1], &first_args);
    }
}

fn assert_tool_results_sent(kind: ProviderKind, r: &RecordedRequest, first_args: &Value) {
    let messages = r.body["messages"].as_array().unwrap();
    match kind {
        ProviderKind::OpenAi => {
            // system, user, assistant, tool, tool
            assert_eq!(messages.len(), 5, "{messages:#?}");
            let assistant = &messages[2];
            assert_eq!(assistant["role"], json!("assistant"));
            assert_eq!(assistant["tool_calls"][0]["id"], json!("call_a"));
            let sent: Value = serde_json::from_str(
                assistant["tool_calls"][0]["function"]["arguments"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(&sent, first_args);
            assert_eq!(
                messages[3],
                json!({"role": "tool", "tool_call_id": "call_a", "content": "hello there x3"})
            );
            assert_eq!(
                messages[4],
                json!({"role": "tool", "tool_call_id": "call_b", "content": "Error: no such thing"})
            );
        }
        _ => {
            // user, assistant, user(tool results)
            assert_eq!(messages.len(), 3, "{messages:#?}");
            let uses = messages[1]["content"].as_array().unwrap();
            assert_eq!(uses[0], json!({"type": "text", "text": "Let me check."}));
            assert_eq!(
                uses[1],
                json!({"type": "tool_use", "id": "call_a", "name": "fixture__echo", "input": first_args})
            );
            assert_eq!(messages[2]["role"], json!("user"));
            assert_eq!(
                messages[2]["content"],
                json!([
                    {"type": "tool_result", "tool_use_id": "call_a", "content": "hello there x3"},
                    {"type": "tool_result", "tool_use_id": "call_b", "content": "no such thing", "is_error": true}
                ])
            );
        }
    }
}

#[tokio::test]
async fn unauthorized_is_auth_and_not_retried() {
    for kind in KINDS {
        let llm = ScriptedLlm::start(vec![
            Step::fail(401, "invalid x-api-key"),
            Step::reply(["x"]),
        ])
        .await;
        let p = provider(&llm, kind, quick_retries(3));
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(
            events,
            [Err(LlmError::Auth {
                message: "invalid x-api-key".into()
            })],
            "{kind:?}"
        );
        assert_eq!(llm.requests().len(), 1, "{kind:?}");
    }
}

#[tokio::test]
async fn rate_limit_carries_retry_after() {
    for kind in KINDS {
        let llm = ScriptedLlm::start(vec![Step::Fail {
            status: 429,
            message: "slow down".into(),
            retry_after: Some(7),
        }])
        .await;
        let p = provider(&llm, kind, RetryPolicy::none());
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(
            events,
            [Err(LlmError::RateLimit {
                retry_after: Some(Duration::from_secs(7)),
                message: "slow down".into()
            })],
            "{kind:?}"
        );
    }
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_wait() {
    for kind in KINDS {
        let llm = ScriptedLlm::start(vec![
            Step::Fail {
                status: 429,
                message: "slow down".into(),
                retry_after: Some(0),
            },
            Step::reply(["after the wait"]),
        ])
        .await;
        let p = provider(&llm, kind, quick_retries(2));
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(
            events[0],
            Ok(StreamEvent::TextDelta("after the wait".into()))
        );
        assert_eq!(llm.requests().len(), 2);
    }
}

#[tokio::test]
async fn server_errors_are_retried_then_reported() {
    for kind in KINDS {
        // Retried when nothing streamed yet, then succeeds.
        let llm =
            ScriptedLlm::start(vec![Step::fail(500, "boom"), Step::reply(["recovered"])]).await;
        let p = provider(&llm, kind, quick_retries(3));
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(events[0], Ok(StreamEvent::TextDelta("recovered".into())));
        assert_eq!(finishes(&events), 1);
        assert_eq!(llm.requests().len(), 2, "{kind:?}");

        // Bounded: after the last attempt the error is reported.
        let llm = ScriptedLlm::start(vec![
            Step::fail(500, "boom"),
            Step::fail(503, "still down"),
            Step::reply(["never"]),
        ])
        .await;
        let p = provider(&llm, kind, quick_retries(2));
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(
            events,
            [Err(LlmError::Server {
                status: 503,
                message: "still down".into()
            })],
            "{kind:?}"
        );
        assert_eq!(llm.requests().len(), 2);
    }
}

#[tokio::test]
async fn a_cut_off_stream_is_truncated_never_finished() {
    for kind in KINDS {
        for after in [0, 2, 4] {
            let llm = ScriptedLlm::start(vec![
                Step::reply(["one ", "two ", "three ", "four"]).cut_off(after),
                Step::reply(["retried"]),
            ])
            .await;
            let p = provider(&llm, kind, quick_retries(3));
            let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
            assert!(
                matches!(events.last(), Some(Err(LlmError::Truncated { .. }))),
                "{kind:?} after {after}: {events:?}"
            );
            assert_eq!(finishes(&events), 0, "{kind:?} after {after}: {events:?}");
            assert!(
                !events
                    .iter()
                    .any(|e| e == &Ok(StreamEvent::TextDelta("retried".into()))),
                "a truncated stream is not retried"
            );
        }
        // A cut in the middle of tool-call arguments yields no ToolCall.
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall {
                fragments: 6,
                ..ScriptedCall::new("c", "fixture__echo", json!({"text": "abcdefgh"}))
            }])
            .cut_off(5),
        ])
        .await;
        let p = provider(&llm, kind, RetryPolicy::none());
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert!(matches!(
            events.last(),
            Some(Err(LlmError::Truncated { .. }))
        ));
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Ok(StreamEvent::ToolCall { .. }))),
            "{kind:?}: {events:?}"
        );
    }
}

#[tokio::test]
async fn cancelling_mid_stream_ends_with_cancelled() {
    for kind in KINDS {
        // Each event would take a minute: only a prompt cancellation ends this test.
        let llm = ScriptedLlm::start(vec![Step::reply(["never", "sent"]).slow(60_000)]).await;
        let p = provider(&llm, kind, RetryPolicy::default());
        let cancel = CancellationToken::new();
        let mut stream = p.stream(request(kind, vec![Message::user("hi")]), cancel.clone());
        let next = tokio::spawn(async move {
            let first = stream.next().await;
            let after = stream.next().await;
            (first, after)
        });
        // Cancel once the server is streaming the answer.
        while llm.requests().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        cancel.cancel();
        let (first, after) = tokio::time::timeout(Duration::from_secs(20), next)
            .await
            .expect("cancellation ends the stream promptly")
            .unwrap();
        assert_eq!(first, Some(Err(LlmError::Cancelled)), "{kind:?}");
        assert_eq!(after, None);
    }
}

#[tokio::test]
async fn compatible_kinds_use_the_given_base_url_without_a_key() {
    for kind in [
        ProviderKind::OpenAiCompatible,
        ProviderKind::AnthropicCompatible,
    ] {
        let llm = ScriptedLlm::start(vec![Step::reply(["local"])]).await;
        let config = ProviderConfig {
            id: "local".into(),
            kind,
            base_url: Some(llm.base_url()),
            api_key: None,
            models: vec![],
        };
        let p = build_provider(&config, &http(), RetryPolicy::none()).unwrap();
        let events = collect(&p, request(kind, vec![Message::user("hi")])).await;
        assert_eq!(events[0], Ok(StreamEvent::TextDelta("local".into())));
        assert_eq!(finishes(&events), 1, "{kind:?}: {events:?}");
        assert_eq!(llm.requests()[0].api, api(kind));
    }
}
