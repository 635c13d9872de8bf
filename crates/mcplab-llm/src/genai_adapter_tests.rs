use futures::StreamExt;
use genai::chat::ChatRole;
use serde_json::json;

use super::*;
use crate::{ModelRef, ToolSpec};

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: ModelRef::parse("openai::gpt-test").unwrap(),
        system: vec!["Be brief.".into(), " ".into(), "Server says hi.".into()],
        messages,
        tools: vec![ToolSpec {
            name: "fixture__echo".into(),
            description: "Echo".into(),
            input_schema: json!({"type": "object"}),
        }],
        temperature: Some(0.2),
        max_tokens: Some(64),
        capture: None,
    }
}

fn tool_round_trip() -> Vec<Message> {
    vec![
        Message::user("hi"),
        Message {
            role: Role::Assistant,
            parts: vec![
                Part::Reasoning {
                    text: "thinking".into(),
                },
                Part::ToolCall {
                    id: "c1".into(),
                    name: "fixture__echo".into(),
                    arguments: json!({"x": 1}),
                },
            ],
        },
        Message {
            role: Role::Tool,
            parts: vec![Part::ToolResult {
                call_id: "c1".into(),
                text: "boom".into(),
                images: vec![("image/png".into(), "iVBOR".into())],
                is_error: true,
            }],
        },
    ]
}

#[test]
fn endpoints_follow_each_sdks_base_url_convention() {
    use ProviderKind::*;
    assert_eq!(
        endpoint_for(OpenAi, "https://api.openai.com/v1"),
        "https://api.openai.com/v1/"
    );
    assert_eq!(
        endpoint_for(Anthropic, "https://api.anthropic.com"),
        "https://api.anthropic.com/v1/"
    );
    assert_eq!(
        endpoint_for(AnthropicCompatible, "http://127.0.0.1:5/v1/"),
        "http://127.0.0.1:5/v1/"
    );
    assert_eq!(
        endpoint_for(Gemini, "https://generativelanguage.googleapis.com"),
        "https://generativelanguage.googleapis.com/v1beta/"
    );
    assert_eq!(endpoint_for(Gemini, "http://h/v1"), "http://h/v1/");
    assert_eq!(
        endpoint_for(Ollama, "http://127.0.0.1:11434"),
        "http://127.0.0.1:11434/"
    );
}

#[test]
fn requests_map_system_tools_and_options() {
    let (req, options) = to_genai(
        ProviderKind::OpenAi,
        &request(vec![Message {
            role: Role::User,
            parts: vec![
                Part::Text {
                    text: "look".into(),
                },
                Part::Image {
                    mime_type: "image/png".into(),
                    data: "iVBOR".into(),
                },
            ],
        }]),
    );
    assert_eq!(req.system.as_deref(), Some("Be brief.\n\nServer says hi."));
    assert_eq!(req.messages.len(), 1);
    assert_eq!(req.messages[0].role, ChatRole::User);
    assert!(req.messages[0].content.contains_binary());
    let tools = req.tools.unwrap();
    assert_eq!(tools[0].name.as_str(), "fixture__echo");
    assert_eq!(tools[0].schema, Some(json!({"type": "object"})));
    assert_eq!(options.temperature, Some(0.2));
    assert_eq!(options.max_tokens, Some(64));
    assert_eq!(options.capture_usage, Some(true));
    assert_eq!(options.capture_tool_calls, Some(true));
}

#[test]
fn openai_tool_results_are_text_and_images_follow_as_a_user_message() {
    let (req, _) = to_genai(ProviderKind::OpenAi, &request(tool_round_trip()));
    let roles: Vec<ChatRole> = req.messages.iter().map(|m| m.role.clone()).collect();
    assert_eq!(
        roles,
        [
            ChatRole::User,
            ChatRole::Assistant,
            ChatRole::Tool,
            ChatRole::User
        ]
    );
    // No reasoning echoed to OpenAI.
    assert!(!req.messages[1].content.contains_reasoning_content());
    let responses = req.messages[2].content.tool_responses();
    assert_eq!(responses[0].call_id, "c1");
    assert_eq!(responses[0].content, "Error: boom");
    assert_eq!(responses[0].fn_name.as_deref(), Some("fixture__echo"));
    assert!(req.messages[3].content.contains_binary());
}

#[test]
fn anthropic_tool_results_keep_is_error_and_images() {
    let (req, _) = to_genai(ProviderKind::Anthropic, &request(tool_round_trip()));
    assert_eq!(req.messages.len(), 3);
    let custom = req.messages[2].content.custom_parts();
    assert_eq!(
        custom[0].data,
        json!({
            "type": "tool_result",
            "tool_use_id": "c1",
            "content": [
                {"type": "text", "text": "boom"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}}
            ],
            "is_error": true
        })
    );
}

#[test]
fn deepseek_gets_its_reasoning_back() {
    let (req, _) = to_genai(ProviderKind::DeepSeek, &request(tool_round_trip()));
    assert!(req.messages[1].content.contains_reasoning_content());
}

#[test]
fn tool_arguments_parse_or_fail_typed() {
    assert_eq!(parse_arguments(Value::String(" ".into())), Ok(json!({})));
    assert_eq!(parse_arguments(Value::Null), Ok(json!({})));
    assert_eq!(
        parse_arguments(Value::String(r#"{"a":1}"#.into())),
        Ok(json!({"a": 1}))
    );
    assert_eq!(parse_arguments(json!({"b": 2})), Ok(json!({"b": 2})));
    assert!(parse_arguments(Value::String(r#"{"a":"#.into())).is_err());
}

/// A loopback server answering every POST with `body` as `content_type`, for the protocols
/// the scripted LLM server does not speak.
async fn serve(content_type: &'static str, body: String) -> (String, tokio::task::JoinHandle<()>) {
    use axum::Router;
    use axum::routing::post;
    let app = Router::new().fallback(post(move || {
        let body = body.clone();
        async move { ([("content-type", content_type)], body) }
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (format!("http://{addr}"), task)
}

async fn run(kind: ProviderKind, base_url: String) -> Vec<Result<StreamEvent, LlmError>> {
    let config = ProviderConfig {
        id: "t".into(),
        kind,
        base_url: Some(base_url),
        api_key: Some("k".into()),
        models: vec![],
    };
    let http = mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap();
    let provider = GenaiProvider::new(&config, http).unwrap();
    let mut req = request(vec![Message::user("hi")]);
    req.model = ModelRef::parse("t::m").unwrap();
    provider
        .stream(req, CancellationToken::new())
        .collect()
        .await
}

#[tokio::test]
async fn ollama_stream_without_done_is_truncated() {
    let complete = concat!(
        r#"{"message":{"role":"assistant","content":"Hel"},"done":false}"#,
        "\n",
        r#"{"message":{"role":"assistant","content":"lo"},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":2}"#,
        "\n"
    );
    let (url, task) = serve("application/x-ndjson", complete.into()).await;
    let events = run(ProviderKind::Ollama, url).await;
    task.abort();
    assert_eq!(
        events,
        [
            Ok(StreamEvent::TextDelta("Hel".into())),
            Ok(StreamEvent::TextDelta("lo".into())),
            Ok(StreamEvent::Finish {
                reason: FinishReason::Stop,
                usage: Usage {
                    input_tokens: Some(5),
                    output_tokens: Some(2),
                    reasoning_tokens: None,
                    ..Usage::default()
                }
            })
        ]
    );

    let cut = format!(
        "{}\n",
        r#"{"message":{"role":"assistant","content":"Hel"},"done":false}"#
    );
    let (url, task) = serve("application/x-ndjson", cut).await;
    let events = run(ProviderKind::Ollama, url).await;
    task.abort();
    assert_eq!(events[0], Ok(StreamEvent::TextDelta("Hel".into())));
    assert!(
        matches!(events.last(), Some(Err(LlmError::Truncated { .. }))),
        "{events:?}"
    );
}

#[tokio::test]
async fn gemini_stream_without_finish_reason_is_truncated() {
    let chunk = |text: &str, finish: Option<&str>| {
        let mut candidate = json!({"content": {"role": "model", "parts": [{"text": text}]}});
        if let Some(f) = finish {
            candidate["finishReason"] = json!(f);
        }
        format!("data: {}\r\n\r\n", json!({"candidates": [candidate]}))
    };
    let complete = chunk("Hi", None) + &chunk(" there", Some("STOP"));
    let (url, task) = serve("text/event-stream", complete).await;
    let events = run(ProviderKind::Gemini, url).await;
    task.abort();
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(matches!(
        events[2],
        Ok(StreamEvent::Finish {
            reason: FinishReason::Stop,
            ..
        })
    ));

    let (url, task) = serve("text/event-stream", chunk("Hi", None)).await;
    let events = run(ProviderKind::Gemini, url).await;
    task.abort();
    assert_eq!(events[0], Ok(StreamEvent::TextDelta("Hi".into())));
    assert!(
        matches!(events.last(), Some(Err(LlmError::Truncated { .. }))),
        "{events:?}"
    );
}

#[tokio::test]
async fn openai_and_anthropic_streams_closed_cleanly_before_their_end_marker_are_truncated() {
    let openai = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]
    .iter()
    .map(|v| format!("data: {v}\n\n"))
    .collect::<String>();
    // Everything but `data: [DONE]`, and a clean end of body.
    let (url, task) = serve("text/event-stream", openai.clone()).await;
    let events = run(ProviderKind::OpenAi, format!("{url}/v1")).await;
    task.abort();
    assert_eq!(events[0], Ok(StreamEvent::TextDelta("Hi".into())));
    assert!(
        matches!(events.last(), Some(Err(LlmError::Truncated { .. }))),
        "{events:?}"
    );
    // With the marker the same stream finishes.
    let (url, task) = serve("text/event-stream", openai + "data: [DONE]\n\n").await;
    let events = run(ProviderKind::OpenAi, format!("{url}/v1")).await;
    task.abort();
    assert!(matches!(
        events.last(),
        Some(Ok(StreamEvent::Finish {
            reason: FinishReason::Stop,
            ..
        }))
    ));

    let frame = |event: &str, data: Value| format!("event: {event}\ndata: {data}\n\n");
    let anthropic = [
        frame(
            "message_start",
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 3, "output_tokens": 1}}}),
        ),
        frame(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        frame(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
        ),
        frame(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        frame(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
        ),
    ]
    .concat();
    let (url, task) = serve("text/event-stream", anthropic.clone()).await;
    let events = run(ProviderKind::Anthropic, url.clone()).await;
    task.abort();
    assert_eq!(events[0], Ok(StreamEvent::TextDelta("Hi".into())));
    assert!(
        matches!(events.last(), Some(Err(LlmError::Truncated { .. }))),
        "{events:?}"
    );
    let stop = frame("message_stop", json!({"type": "message_stop"}));
    let (url, task) = serve("text/event-stream", anthropic + &stop).await;
    let events = run(ProviderKind::Anthropic, url).await;
    task.abort();
    assert_eq!(
        events.last(),
        Some(&Ok(StreamEvent::Finish {
            reason: FinishReason::Stop,
            usage: Usage {
                input_tokens: Some(3),
                output_tokens: Some(2),
                reasoning_tokens: None,
                ..Usage::default()
            }
        }))
    );
}
