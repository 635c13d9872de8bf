//! The OpenAI Chat Completions wire encoder: `chat.completion.chunk` SSE frames (`data: {…}`
//! lines ending with `data: [DONE]`, the `stream_options.include_usage` usage chunk), the
//! complete `chat.completion` object, the `{"error":{…}}` error body and request validation.
//! It owns only the wire shapes; it must not decide what to answer.

use serde_json::{Map, Value, json};

use super::plan::{Finish, Piece, Plan};

/// Per-answer envelope fields.
pub(super) struct Envelope {
    pub id: String,
    pub model: String,
    pub created: u64,
    /// The request asked for `stream_options.include_usage`.
    pub include_usage: bool,
}

const FINGERPRINT: &str = "fp_mcplab_scripted";

/// The request's fault, or `None` when it is a valid chat request.
pub(super) fn validate(body: &Value) -> Option<String> {
    if !body.is_object() {
        return Some("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.)".into());
    }
    if !body["model"].is_string() {
        return Some("you must provide a model parameter".into());
    }
    if !body["messages"].is_array() {
        return Some("Missing required parameter: 'messages'.".into());
    }
    None
}

/// The output limit the request asked for.
pub(super) fn max_tokens(body: &Value) -> Option<u64> {
    body["max_completion_tokens"]
        .as_u64()
        .or_else(|| body["max_tokens"].as_u64())
}

pub(super) fn include_usage(body: &Value) -> bool {
    body["stream_options"]["include_usage"].as_bool() == Some(true)
}

/// Every SSE frame of the streamed answer, each ending with its blank line.
pub(super) fn stream_frames(plan: &Plan, envelope: &Envelope) -> Vec<String> {
    let mut frames = vec![chunk(
        envelope,
        json!({"role": "assistant", "content": "", "refusal": null}),
        None,
    )];
    for piece in &plan.pieces {
        let delta = match piece {
            Piece::Reasoning(text) => json!({"reasoning_content": text}),
            Piece::Text(text) => json!({"content": text}),
            Piece::CallStart { index, id, name } => json!({"tool_calls": [{
                "index": index,
                "id": id,
                "type": "function",
                "function": {"name": name, "arguments": ""},
            }]}),
            Piece::CallArgs { index, fragment } => json!({"tool_calls": [{
                "index": index,
                "function": {"arguments": fragment},
            }]}),
        };
        frames.push(chunk(envelope, delta, None));
    }
    frames.push(chunk(envelope, json!({}), Some(finish_reason(plan.finish))));
    if envelope.include_usage {
        let mut last = header(envelope);
        last.insert("choices".into(), json!([]));
        last.insert("usage".into(), usage(plan));
        frames.push(data(&Value::Object(last)));
    }
    frames.push("data: [DONE]\n\n".into());
    frames
}

/// The complete `chat.completion` object.
pub(super) fn response(plan: &Plan, envelope: &Envelope) -> Value {
    let text = plan.text();
    let mut message = Map::new();
    message.insert("role".into(), json!("assistant"));
    message.insert(
        "content".into(),
        if text.is_empty() && !plan.calls().is_empty() {
            Value::Null
        } else {
            json!(text)
        },
    );
    message.insert("refusal".into(), Value::Null);
    let reasoning = plan.reasoning();
    if !reasoning.is_empty() {
        message.insert("reasoning_content".into(), json!(reasoning));
    }
    let calls: Vec<Value> = plan
        .calls()
        .into_iter()
        .map(|(id, name, arguments)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    if !calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    json!({
        "id": envelope.id,
        "object": "chat.completion",
        "created": envelope.created,
        "model": envelope.model,
        "choices": [{
            "index": 0,
            "message": message,
            "logprobs": null,
            "finish_reason": finish_reason(plan.finish),
        }],
        "usage": usage(plan),
        "system_fingerprint": FINGERPRINT,
    })
}

/// The error body OpenAI sends with `status`.
pub(super) fn error(status: u16, message: &str) -> Value {
    let (kind, code) = match status {
        400 => ("invalid_request_error", Value::Null),
        401 => ("invalid_request_error", json!("invalid_api_key")),
        403 => (
            "invalid_request_error",
            json!("unsupported_country_region_territory"),
        ),
        404 => ("invalid_request_error", json!("model_not_found")),
        429 => ("requests", json!("rate_limit_exceeded")),
        _ => ("server_error", Value::Null),
    };
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

fn finish_reason(finish: Finish) -> &'static str {
    match finish {
        Finish::Stop => "stop",
        Finish::ToolCalls => "tool_calls",
        Finish::Length => "length",
    }
}

fn usage(plan: &Plan) -> Value {
    let usage = plan.usage;
    json!({
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.input_tokens + usage.output_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_input_tokens, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": usage.reasoning_tokens,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    })
}

fn header(envelope: &Envelope) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("id".into(), json!(envelope.id));
    object.insert("object".into(), json!("chat.completion.chunk"));
    object.insert("created".into(), json!(envelope.created));
    object.insert("model".into(), json!(envelope.model));
    object.insert("system_fingerprint".into(), json!(FINGERPRINT));
    object
}

fn chunk(envelope: &Envelope, delta: Value, finish: Option<&str>) -> String {
    let mut object = header(envelope);
    object.insert(
        "choices".into(),
        json!([{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]),
    );
    // With include_usage every chunk carries `"usage": null` until the last one.
    if envelope.include_usage {
        object.insert("usage".into(), Value::Null);
    }
    data(&Value::Object(object))
}

fn data(value: &Value) -> String {
    format!("data: {value}\n\n")
}
