//! Drives the scripted LLM server over real HTTP with reqwest, the way a provider client sees
//! it: OpenAI and Anthropic streams parsed with a plain SSE line parser and reassembled, the
//! complete (non-stream) answers, error shapes and `retry-after`, cut-offs, slow streams and
//! shutdown, the request log and the exhausted script.

use std::time::Duration;

use futures::StreamExt;
use mcplab_testkit::llm::{Api, ScriptedCall, ScriptedLlm, Step, Usage};
use serde_json::{Value, json};

/// Guards against a hang; never a timing assertion.
const GUARD: Duration = Duration::from_secs(20);

/// One SSE event: its `event:` name (if any) and its `data:` text.
#[derive(Debug)]
struct Event {
    name: Option<String>,
    data: String,
}

/// Everything read from an event stream, and whether the body ended with a transport error.
struct Sse {
    events: Vec<Event>,
    aborted: bool,
}

impl Sse {
    fn json(&self) -> Vec<Value> {
        self.events
            .iter()
            .filter(|e| e.data != "[DONE]")
            .map(|e| serde_json::from_str(&e.data).expect("every data line is JSON"))
            .collect()
    }

    fn names(&self) -> Vec<&str> {
        self.events
            .iter()
            .map(|e| e.name.as_deref().unwrap_or(""))
            .collect()
    }
}

fn parse_block(block: &str) -> Option<Event> {
    let mut name = None;
    let mut data: Vec<&str> = Vec::new();
    for line in block.lines() {
        if let Some(value) = line.strip_prefix("event:") {
            name = Some(value.trim_start().to_string());
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    (!data.is_empty()).then(|| Event {
        name,
        data: data.join("\n"),
    })
}

async fn read_sse(response: reqwest::Response) -> Sse {
    let mut body = response.bytes_stream();
    let mut buffer = String::new();
    let mut events = Vec::new();
    let mut aborted = false;
    loop {
        match tokio::time::timeout(GUARD, body.next())
            .await
            .expect("stream stalled")
        {
            Some(Ok(bytes)) => {
                buffer.push_str(std::str::from_utf8(&bytes).expect("utf-8 stream"));
                while let Some(end) = buffer.find("\n\n") {
                    let block: String = buffer.drain(..end + 2).collect();
                    events.extend(parse_block(&block));
                }
            }
            Some(Err(_)) => {
                aborted = true;
                break;
            }
            None => break,
        }
    }
    assert!(
        buffer.trim().is_empty() || aborted,
        "trailing bytes: {buffer:?}"
    );
    Sse { events, aborted }
}

async fn post(url: String, headers: &[(&str, &str)], body: Value) -> reqwest::Response {
    let mut request = mcplab_net::tls::client().post(url).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    tokio::time::timeout(GUARD, request.send())
        .await
        .expect("no answer")
        .expect("request sent")
}

async fn openai(llm: &ScriptedLlm, body: Value) -> reqwest::Response {
    let url = format!("{}chat/completions", llm.base_url());
    post(url, &[("authorization", "Bearer sk-test")], body).await
}

async fn anthropic(llm: &ScriptedLlm, body: Value) -> reqwest::Response {
    let url = format!("{}messages", llm.base_url());
    let headers = [
        ("x-api-key", "sk-ant-test"),
        ("anthropic-version", "2023-06-01"),
    ];
    post(url, &headers, body).await
}

fn openai_body(stream: bool) -> Value {
    json!({
        "model": "gpt-4o-mini",
        "stream": stream,
        "stream_options": {"include_usage": true},
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
    })
}

fn anthropic_body(stream: bool) -> Value {
    json!({
        "model": "claude-haiku-4-5",
        "stream": stream,
        "max_tokens": 1024,
        "system": "be brief",
        "messages": [{"role": "user", "content": "hi"}],
    })
}

fn weather_calls() -> Vec<ScriptedCall> {
    vec![
        ScriptedCall {
            fragments: 4,
            ..ScriptedCall::new(
                "call_1",
                "get_weather",
                json!({"city": "Zürich", "days": [1, 2]}),
            )
        },
        ScriptedCall {
            fragments: 1,
            ..ScriptedCall::new("call_2", "get_time", json!({}))
        },
    ]
}

/// OpenAI tool-call deltas reassembled per index into `(id, name, arguments)`.
fn openai_calls(chunks: &[Value]) -> Vec<(String, String, String)> {
    let mut calls: Vec<(String, String, String)> = Vec::new();
    for chunk in chunks {
        let Some(deltas) = chunk["choices"][0]["delta"]["tool_calls"].as_array() else {
            continue;
        };
        for delta in deltas {
            let index = delta["index"].as_u64().unwrap() as usize;
            if index == calls.len() {
                assert_eq!(delta["type"], "function", "a call opens with its type");
                let id = delta["id"].as_str().expect("a call opens with its id");
                let name = delta["function"]["name"].as_str().expect("and its name");
                calls.push((id.into(), name.into(), String::new()));
            } else {
                assert!(
                    delta.get("id").is_none(),
                    "only the first delta names the call"
                );
            }
            calls[index].2 += delta["function"]["arguments"].as_str().unwrap();
        }
    }
    calls
}

fn concat(chunks: &[Value], pointer: &str) -> String {
    chunks
        .iter()
        .filter_map(|c| c.pointer(pointer)?.as_str())
        .collect()
}

#[tokio::test]
async fn openai_streams_reasoning_text_and_usage() {
    let llm = ScriptedLlm::start(vec![Step::Reply {
        text: vec!["Hel".into(), "lo".into(), "!".into()],
        reasoning: vec!["think".into(), "ing".into()],
    }])
    .await;
    let response = openai(&llm, openai_body(true)).await;
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("text/event-stream"),
        "{content_type}"
    );

    let sse = read_sse(response).await;
    assert!(!sse.aborted);
    assert_eq!(sse.events.last().unwrap().data, "[DONE]");
    let chunks = sse.json();
    assert!(
        chunks.iter().all(|c| c["model"] == "gpt-4o-mini"),
        "model echoed"
    );
    assert_eq!(chunks[0]["object"], "chat.completion.chunk");
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    assert_eq!(
        concat(&chunks, "/choices/0/delta/reasoning_content"),
        "thinking"
    );
    assert_eq!(concat(&chunks, "/choices/0/delta/content"), "Hello!");

    let (last, finish) = (&chunks[chunks.len() - 1], &chunks[chunks.len() - 2]);
    assert_eq!(finish["choices"][0]["finish_reason"], "stop");
    assert!(finish["usage"].is_null(), "usage comes in its own chunk");
    assert_eq!(last["choices"], json!([]));
    assert_eq!(last["usage"]["completion_tokens"], 5);
    assert_eq!(
        last["usage"]["completion_tokens_details"]["reasoning_tokens"],
        2
    );
    let prompt = last["usage"]["prompt_tokens"].as_u64().unwrap();
    assert_eq!(last["usage"]["total_tokens"], prompt + 5);

    let body_len = serde_json::to_vec(&openai_body(true)).unwrap().len() as u32;
    let recorded = llm.requests();
    assert_eq!(prompt, u64::from(body_len.div_ceil(4)));
    assert_eq!(
        recorded[0].usage,
        Some(Usage {
            input_tokens: body_len.div_ceil(4),
            output_tokens: 5,
            reasoning_tokens: 2,
            cached_input_tokens: 0
        })
    );
    assert_eq!(llm.remaining(), 0);
}

#[tokio::test]
async fn openai_tool_call_fragments_reassemble() {
    let llm = ScriptedLlm::start(vec![Step::CallTools {
        text: vec!["Checking".into()],
        calls: weather_calls(),
    }])
    .await;
    let mut body = openai_body(true);
    body.as_object_mut().unwrap().remove("stream_options");
    let sse = read_sse(openai(&llm, body).await).await;
    let chunks = sse.json();

    assert_eq!(concat(&chunks, "/choices/0/delta/content"), "Checking");
    let calls = openai_calls(&chunks);
    let expected = weather_calls();
    assert_eq!(calls.len(), 2);
    for ((id, name, arguments), call) in calls.iter().zip(&expected) {
        assert_eq!(
            (id.as_str(), name.as_str()),
            (call.id.as_str(), call.name.as_str())
        );
        assert_eq!(
            serde_json::from_str::<Value>(arguments).unwrap(),
            call.arguments
        );
    }
    let fragments = chunks
        .iter()
        .filter(|c| c["choices"][0]["delta"]["tool_calls"][0]["index"] == 0)
        .count();
    assert_eq!(
        fragments,
        1 + 4,
        "opening delta plus four argument fragments"
    );
    assert_eq!(
        chunks.last().unwrap()["choices"][0]["finish_reason"],
        "tool_calls"
    );
    assert!(
        chunks.iter().all(|c| c.get("usage").is_none()),
        "no usage unless stream_options.include_usage asks for it"
    );
    assert_eq!(sse.events.last().unwrap().data, "[DONE]");
}

#[tokio::test]
async fn anthropic_streams_thinking_text_and_tool_use() {
    let llm = ScriptedLlm::start(vec![
        Step::Reply {
            text: vec!["Hel".into(), "lo".into()],
            reasoning: vec!["hm".into()],
        },
        Step::CallTools {
            text: vec!["Checking".into()],
            calls: weather_calls(),
        },
    ])
    .await;

    let reply = read_sse(anthropic(&llm, anthropic_body(true)).await).await;
    assert!(!reply.aborted);
    let names = reply.names();
    assert_eq!(
        names,
        [
            "message_start",
            "content_block_start",
            "ping",
            "content_block_delta",
            "content_block_delta",
            "content_block_stop",
            "content_block_start",
            "content_block_delta",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ]
    );
    let data = reply.json();
    for (name, value) in names.iter().zip(&data) {
        assert_eq!(value["type"], *name, "event name matches its data type");
    }
    assert_eq!(data[0]["message"]["model"], "claude-haiku-4-5");
    let body_len = serde_json::to_vec(&anthropic_body(true)).unwrap().len();
    assert_eq!(
        data[0]["message"]["usage"]["input_tokens"],
        body_len.div_ceil(4)
    );
    assert_eq!(data[1]["content_block"]["type"], "thinking");
    assert_eq!(
        data[3]["delta"],
        json!({"type": "thinking_delta", "thinking": "hm"})
    );
    assert_eq!(data[4]["delta"]["type"], "signature_delta");
    assert_eq!(
        data[6]["content_block"],
        json!({"type": "text", "text": ""})
    );
    assert_eq!(data[6]["index"], 1);
    assert_eq!(concat(&data, "/delta/text"), "Hello");
    assert_eq!(data[10]["delta"]["stop_reason"], "end_turn");
    assert_eq!(data[10]["usage"]["output_tokens"], 3);

    let calls = read_sse(anthropic(&llm, anthropic_body(true)).await).await;
    let data = calls.json();
    let mut blocks: Vec<(Value, String)> = Vec::new();
    for event in &data {
        match event["type"].as_str().unwrap() {
            "content_block_start" => {
                assert_eq!(event["index"], blocks.len());
                blocks.push((event["content_block"].clone(), String::new()));
            }
            "content_block_delta" => {
                let index = event["index"].as_u64().unwrap() as usize;
                let delta = &event["delta"];
                let piece = delta["partial_json"].as_str().or(delta["text"].as_str());
                blocks[index].1 += piece.unwrap();
            }
            _ => {}
        }
    }
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0].1, "Checking");
    for ((block, partial), call) in blocks[1..].iter().zip(weather_calls()) {
        assert_eq!(block["type"], "tool_use");
        assert_eq!(
            (block["id"].as_str(), block["name"].as_str()),
            (Some(&*call.id), Some(&*call.name))
        );
        assert_eq!(
            serde_json::from_str::<Value>(partial).unwrap(),
            call.arguments
        );
    }
    let delta = data.iter().find(|e| e["type"] == "message_delta").unwrap();
    assert_eq!(delta["delta"]["stop_reason"], "tool_use");
    assert_eq!(delta["usage"]["output_tokens"], 1 + 4 + 1);
    assert_eq!(data.last().unwrap()["type"], "message_stop");
}

#[tokio::test]
async fn complete_answers_without_stream() {
    let llm = ScriptedLlm::start(vec![
        Step::CallTools {
            text: vec![],
            calls: weather_calls(),
        },
        Step::Reply {
            text: vec!["Hi".into(), " there".into()],
            reasoning: vec!["r".into()],
        },
    ])
    .await;
    let mut body = openai_body(false);
    body.as_object_mut().unwrap().remove("stream");
    let response = openai(&llm, body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["object"], "chat.completion");
    let choice = &answer["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    assert!(choice["message"]["content"].is_null());
    let calls = choice["message"]["tool_calls"].as_array().unwrap();
    assert_eq!(calls[0]["id"], "call_1");
    let arguments = calls[0]["function"]["arguments"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(arguments).unwrap(),
        weather_calls()[0].arguments
    );
    assert_eq!(answer["usage"]["completion_tokens"], 5);

    let answer: Value = anthropic(&llm, anthropic_body(false))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answer["type"], "message");
    assert_eq!(answer["model"], "claude-haiku-4-5");
    assert_eq!(answer["stop_reason"], "end_turn");
    assert_eq!(answer["content"][0]["type"], "thinking");
    assert!(answer["content"][0]["signature"].is_string());
    assert_eq!(
        answer["content"][1],
        json!({"type": "text", "text": "Hi there"})
    );
    assert_eq!(answer["usage"]["output_tokens"], 3);
}

#[tokio::test]
async fn max_tokens_truncates_with_length() {
    let step = || Step::reply(["a", "b", "c"]);
    let llm = ScriptedLlm::start(vec![step(), step()]).await;
    let mut body = openai_body(true);
    body["max_completion_tokens"] = json!(2);
    let chunks = read_sse(openai(&llm, body).await).await.json();
    assert_eq!(concat(&chunks, "/choices/0/delta/content"), "ab");
    let finish = &chunks[chunks.len() - 2];
    assert_eq!(finish["choices"][0]["finish_reason"], "length");

    let mut body = anthropic_body(true);
    body["max_tokens"] = json!(1);
    let data = read_sse(anthropic(&llm, body).await).await.json();
    assert_eq!(concat(&data, "/delta/text"), "a");
    let delta = data.iter().find(|e| e["type"] == "message_delta").unwrap();
    assert_eq!(delta["delta"]["stop_reason"], "max_tokens");
}

#[tokio::test]
async fn errors_use_provider_shapes_and_retry_after() {
    let llm = ScriptedLlm::start(vec![
        Step::Fail {
            status: 429,
            message: "slow down".into(),
            retry_after: Some(7),
        },
        Step::fail(529, "overloaded").slow(10),
        Step::fail(401, "bad key"),
    ])
    .await;

    let response = openai(&llm, openai_body(true)).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "7");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["message"], "slow down");
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    assert!(body["error"]["type"].is_string());

    let response = anthropic(&llm, anthropic_body(true)).await;
    assert_eq!(response.status(), 529);
    assert!(response.headers().get("retry-after").is_none());
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "overloaded"}})
    );

    let body: Value = anthropic(&llm, anthropic_body(true))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["error"]["type"], "authentication_error");
    assert!(llm.requests().iter().all(|r| r.usage.is_none()));
}

#[tokio::test]
async fn cut_off_ends_without_finish() {
    let llm = ScriptedLlm::start(vec![
        Step::reply(["a", "b", "c"]).cut_off(2),
        Step::reply(["a", "b", "c"]).cut_off(4),
        Step::reply(["never"]).cut_off(0),
    ])
    .await;

    let sse = read_sse(openai(&llm, openai_body(true)).await).await;
    assert!(sse.aborted, "the connection is aborted, not closed cleanly");
    assert_eq!(sse.events.len(), 2);
    assert!(sse.events.iter().all(|e| e.data != "[DONE]"));
    assert!(
        sse.json()
            .iter()
            .all(|c| c["choices"][0]["finish_reason"].is_null())
    );

    let sse = read_sse(anthropic(&llm, anthropic_body(true)).await).await;
    assert!(sse.aborted);
    assert_eq!(
        sse.names(),
        [
            "message_start",
            "content_block_start",
            "ping",
            "content_block_delta"
        ]
    );

    let mut body = openai_body(false);
    body["stream"] = json!(false);
    let response = openai(&llm, body).await;
    assert_eq!(response.status(), 200);
    assert!(
        response.bytes().await.is_err(),
        "a complete answer cut off has no body"
    );
}

#[tokio::test]
async fn slow_stream_stops_when_the_server_is_dropped() {
    let llm = ScriptedLlm::start(vec![Step::reply(["a", "b", "c"]).slow(300_000)]).await;
    let url = format!("{}chat/completions", llm.base_url());
    let request = mcplab_net::tls::client()
        .post(url)
        .json(&openai_body(true))
        .send();
    let response = tokio::time::timeout(GUARD, request).await.unwrap().unwrap();
    assert_eq!(
        response.status(),
        200,
        "the head comes before the first delay"
    );
    drop(llm);
    let sse = read_sse(response).await;
    assert!(sse.events.is_empty(), "nothing was due before the drop");
}

#[tokio::test]
async fn requests_are_recorded_and_malformed_ones_consume_nothing() {
    let llm = ScriptedLlm::start(vec![Step::reply(["ok"])]).await;

    let response = openai(&llm, json!({"messages": []})).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "invalid_request_error");
    let mut body = anthropic_body(true);
    body.as_object_mut().unwrap().remove("max_tokens");
    let body: Value = anthropic(&llm, body).await.json().await.unwrap();
    assert_eq!(body["error"]["message"], "max_tokens: Field required");
    assert_eq!(llm.remaining(), 1);

    read_sse(anthropic(&llm, anthropic_body(true)).await).await;
    let requests = llm.requests();
    assert_eq!(requests.len(), 3);
    let last = &requests[2];
    assert_eq!(last.api, Api::Anthropic);
    assert_eq!(
        (last.method.as_str(), last.path.as_str()),
        ("POST", "/v1/messages")
    );
    assert_eq!(last.header("X-Api-Key"), Some("sk-ant-test"));
    assert_eq!(last.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(last.body["system"], "be brief");
    assert!(last.usage.is_some());
    assert_eq!(requests[0].api, Api::OpenAi);
    assert_eq!(requests[0].header("authorization"), Some("Bearer sk-test"));
}

#[tokio::test]
async fn exhausted_script_fails_loudly() {
    let llm = ScriptedLlm::start(vec![Step::reply(["one"])]).await;
    read_sse(openai(&llm, openai_body(true)).await).await;

    let response = openai(&llm, openai_body(true)).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("script exhausted after 1 requests"),
        "{message}"
    );

    let response = anthropic(&llm, anthropic_body(true)).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "api_error");
    assert_eq!(llm.requests().len(), 3);
}

#[tokio::test]
async fn lists_models_in_the_openai_shape() {
    let llm =
        ScriptedLlm::start_with_models(vec![], ["m-one".to_string(), "m-two".to_string()]).await;
    let request = mcplab_net::tls::client()
        .get(format!("{}models", llm.base_url()))
        .bearer_auth("sk-test")
        .send();
    let body: Value = tokio::time::timeout(GUARD, request)
        .await
        .unwrap()
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["object"], "list");
    let ids: Vec<&str> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["object"], "model");
            m["id"].as_str().unwrap()
        })
        .collect();
    assert_eq!(ids, ["m-one", "m-two"]);
    assert_eq!(
        llm.model_requests()[0].header("authorization"),
        Some("Bearer sk-test")
    );
    assert!(llm.requests().is_empty());
    assert_eq!(llm.base_url(), format!("http://{}/v1/", llm.addr()));
}
