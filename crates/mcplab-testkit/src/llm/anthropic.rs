//! The Anthropic Messages wire encoder: `event:`/`data:` SSE pairs (`message_start`, a `ping`,
//! `content_block_start|delta|stop` for `thinking`, `text` and `tool_use` blocks,
//! `message_delta`, `message_stop`), the complete `message` object, the
//! `{"type":"error","error":{…}}` error body and request validation. It owns only the wire
//! shapes; it must not decide what to answer.

use serde_json::{Value, json};

use super::plan::{Finish, Piece, Plan};

/// Per-answer envelope fields.
pub(super) struct Envelope {
    pub id: String,
    pub model: String,
}

/// Scripted thinking is signed with a fixed opaque value, as real thinking blocks always are.
const SIGNATURE: &str = "bWNwbGFiLXNjcmlwdGVkLXNpZ25hdHVyZQ==";

/// The request's fault, or `None` when it is a valid messages request.
pub(super) fn validate(body: &Value) -> Option<String> {
    if !body.is_object() {
        return Some("There was an issue with your request body: expected a JSON object".into());
    }
    for field in ["model", "messages", "max_tokens"] {
        if body.get(field).is_none() {
            return Some(format!("{field}: Field required"));
        }
    }
    if !body["model"].is_string() {
        return Some("model: Input should be a valid string".into());
    }
    if !body["messages"].is_array() {
        return Some("messages: Input should be a valid list".into());
    }
    if !body["max_tokens"].is_u64() {
        return Some("max_tokens: Input should be a valid integer".into());
    }
    None
}

pub(super) fn max_tokens(body: &Value) -> Option<u64> {
    body["max_tokens"].as_u64()
}

/// The kind of content block a piece belongs to.
#[derive(PartialEq)]
enum Block {
    Thinking,
    Text,
    ToolUse(usize),
}

fn block_of(piece: &Piece) -> Block {
    match piece {
        Piece::Reasoning(_) => Block::Thinking,
        Piece::Text(_) => Block::Text,
        Piece::CallStart { index, .. } | Piece::CallArgs { index, .. } => Block::ToolUse(*index),
    }
}

/// Every SSE frame of the streamed answer, each ending with its blank line.
pub(super) fn stream_frames(plan: &Plan, envelope: &Envelope) -> Vec<String> {
    let usage = plan.usage;
    let mut frames = vec![event(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": envelope.id,
            "type": "message",
            "role": "assistant",
            "model": envelope.model,
            "content": [],
            "stop_reason": null,
            "stop_sequence": null,
            "usage": {
                "input_tokens": usage.input_tokens - usage.cached_input_tokens,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": usage.cached_input_tokens,
                "output_tokens": 1,
            },
        }}),
    )];
    let mut open: Option<(usize, Block)> = None;
    let mut next_index = 0;
    for piece in &plan.pieces {
        let block = block_of(piece);
        if open.as_ref().map(|(_, b)| b) != Some(&block) {
            close(&mut frames, open.take());
            let content_block = match piece {
                Piece::Reasoning(_) => json!({"type": "thinking", "thinking": "", "signature": ""}),
                Piece::Text(_) => json!({"type": "text", "text": ""}),
                Piece::CallStart { id, name, .. } => {
                    json!({"type": "tool_use", "id": id, "name": name, "input": {}})
                }
                // A fragment always follows its call's start; never opens a block.
                Piece::CallArgs { .. } => json!({"type": "text", "text": ""}),
            };
            frames.push(event(
                "content_block_start",
                json!({"type": "content_block_start", "index": next_index, "content_block": content_block}),
            ));
            if next_index == 0 {
                frames.push(event("ping", json!({"type": "ping"})));
            }
            open = Some((next_index, block));
            next_index += 1;
        }
        let index = open.as_ref().map_or(0, |(i, _)| *i);
        let delta = match piece {
            Piece::Reasoning(text) => json!({"type": "thinking_delta", "thinking": text}),
            Piece::Text(text) => json!({"type": "text_delta", "text": text}),
            Piece::CallArgs { fragment, .. } => {
                json!({"type": "input_json_delta", "partial_json": fragment})
            }
            Piece::CallStart { .. } => continue,
        };
        frames.push(event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        ));
    }
    close(&mut frames, open);
    frames.push(event(
        "message_delta",
        json!({
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason(plan.finish), "stop_sequence": null},
            "usage": {"output_tokens": usage.output_tokens},
        }),
    ));
    frames.push(event("message_stop", json!({"type": "message_stop"})));
    frames
}

fn close(frames: &mut Vec<String>, open: Option<(usize, Block)>) {
    let Some((index, block)) = open else { return };
    if block == Block::Thinking {
        frames.push(event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index,
                   "delta": {"type": "signature_delta", "signature": SIGNATURE}}),
        ));
    }
    frames.push(event(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": index}),
    ));
}

/// The complete `message` object.
pub(super) fn response(plan: &Plan, envelope: &Envelope) -> Value {
    let mut content = Vec::new();
    let reasoning = plan.reasoning();
    if !reasoning.is_empty() {
        content.push(json!({"type": "thinking", "thinking": reasoning, "signature": SIGNATURE}));
    }
    let text = plan.text();
    if !text.is_empty() {
        content.push(json!({"type": "text", "text": text}));
    }
    for (id, name, arguments) in plan.calls() {
        // Arguments cut short by `max_tokens` do not parse; the API then reports what it has.
        let input: Value = serde_json::from_str(&arguments).unwrap_or_else(|_| json!({}));
        content.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
    }
    let usage = plan.usage;
    json!({
        "id": envelope.id,
        "type": "message",
        "role": "assistant",
        "model": envelope.model,
        "content": content,
        "stop_reason": stop_reason(plan.finish),
        "stop_sequence": null,
        "usage": {
            "input_tokens": usage.input_tokens - usage.cached_input_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": usage.cached_input_tokens,
            "output_tokens": usage.output_tokens,
        },
    })
}

/// The error body Anthropic sends with `status`.
pub(super) fn error(status: u16, message: &str) -> Value {
    let kind = match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        402 => "billing_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        504 => "timeout_error",
        529 => "overloaded_error",
        _ => "api_error",
    };
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

fn stop_reason(finish: Finish) -> &'static str {
    match finish {
        Finish::Stop => "end_turn",
        Finish::ToolCalls => "tool_use",
        Finish::Length => "max_tokens",
    }
}

fn event(name: &str, data: Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}
