//! Judges recorded traffic: every frame the server sent is validated against the JSON Schema
//! definition its method calls for (results by the method of the request they answer), lines
//! that are not JSON-RPC are reported, list_changed and log notifications are checked against
//! the declared capabilities, and tool definitions and call results go to `tools`. It reads
//! frames only; it sends nothing.

use std::collections::HashMap;

use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use serde_json::Value;

use super::rules::{LIST_CHANGED, NOT_JSON_RPC, SCHEMA, UNDECLARED};
use super::spec::Spec;
use super::tools::{check_call_result, check_tool};
use super::{At, Findings};

/// Violations reported per frame.
const PER_FRAME: usize = 5;

fn result_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "server/discover" => "DiscoverResult",
        "ping" | "resources/subscribe" | "resources/unsubscribe" | "logging/setLevel" => {
            "EmptyResult"
        }
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        _ => return None,
    })
}

fn message_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "notifications/message" => "LoggingMessageNotification",
        "notifications/progress" => "ProgressNotification",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/elicitation/complete" => "ElicitationCompleteNotification",
        "elicitation/create" => "ElicitRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "roots/list" => "ListRootsRequest",
        "ping" => "PingRequest",
        _ => return None,
    })
}

/// What the judging needs to know about the session.
pub(crate) struct Context<'a> {
    pub capabilities: &'a Value,
    /// Whether the frames come from a stdio server (for the wording of noise findings).
    pub stdio: bool,
}

/// Judges every frame of one server, in order.
pub(crate) fn check_frames(
    frames: &[TrafficFrame],
    ctx: &Context,
    spec: &mut Spec,
    f: &mut Findings,
) {
    f.applied(&SCHEMA);
    f.applied(&NOT_JSON_RPC);
    f.applied(&LIST_CHANGED);
    // Outbound requests by id: their method, and the tool name of a tools/call.
    let mut asked: HashMap<String, (String, Option<String>)> = HashMap::new();
    let mut tools: HashMap<String, Value> = HashMap::new();
    for frame in frames {
        match (&frame.kind, frame.direction) {
            (FrameKind::Message, Direction::Outbound) => {
                let Ok(v) = serde_json::from_str::<Value>(&frame.text) else {
                    continue;
                };
                if let (Some(id), Some(method)) =
                    (v.get("id"), v.get("method").and_then(Value::as_str))
                {
                    let tool = v
                        .pointer("/params/name")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    asked.insert(id.to_string(), (method.to_owned(), tool));
                }
            }
            (FrameKind::Unparsable { error }, Direction::Inbound) => {
                let what = if ctx.stdio { "stdout line" } else { "frame" };
                f.add(
                    &NOT_JSON_RPC,
                    format!("a {what} that is not JSON-RPC ({error})"),
                    At::frame(frame),
                );
            }
            (FrameKind::Message, Direction::Inbound) => {
                let Ok(v) = serde_json::from_str::<Value>(&frame.text) else {
                    continue;
                };
                inbound(frame, &v, ctx, &asked, &mut tools, spec, f);
            }
            _ => {}
        }
    }
}

fn inbound(
    frame: &TrafficFrame,
    v: &Value,
    ctx: &Context,
    asked: &HashMap<String, (String, Option<String>)>,
    tools: &mut HashMap<String, Value>,
    spec: &mut Spec,
    f: &mut Findings,
) {
    if let Some(method) = v.get("method").and_then(Value::as_str) {
        if let Some(def) = message_def(method) {
            validate(spec, def, v, "", frame, f);
        }
        declared(method, ctx, frame, f);
        return;
    }
    let Some((method, tool)) = v.get("id").and_then(|id| asked.get(&id.to_string())) else {
        return;
    };
    if v.get("error").is_some() {
        let def = ["JSONRPCErrorResponse", "JSONRPCError"]
            .into_iter()
            .find(|d| spec.has(d));
        if let Some(def) = def {
            validate(spec, def, v, "", frame, f);
        }
        return;
    }
    let Some(result) = v.get("result") else {
        return;
    };
    if let Some(def) = result_def(method) {
        validate(spec, def, result, "/result", frame, f);
    }
    match method.as_str() {
        "tools/list" => {
            let listed = result.get("tools").and_then(Value::as_array);
            for (i, t) in listed.into_iter().flatten().enumerate() {
                check_tool(t, i, frame, f);
                if let Some(name) = t.get("name").and_then(Value::as_str) {
                    tools.insert(name.to_owned(), t.clone());
                }
            }
        }
        "tools/call" => {
            let def = tool.as_ref().and_then(|n| tools.get(n));
            check_call_result(def, result, frame, &spec.revision, f);
        }
        _ => {}
    }
}

fn validate(
    spec: &mut Spec,
    def: &str,
    instance: &Value,
    prefix: &str,
    frame: &TrafficFrame,
    f: &mut Findings,
) {
    for v in spec.violations(def, instance, PER_FRAME) {
        f.add(
            &SCHEMA,
            format!("not a valid {def}: {}", v.message),
            At::frame(frame).path(format!("{prefix}{}", v.path)),
        );
    }
}

/// Notifications that need a declared capability.
fn declared(method: &str, ctx: &Context, frame: &TrafficFrame, f: &mut Findings) {
    let caps = ctx.capabilities;
    if let Some(list) = method
        .strip_prefix("notifications/")
        .and_then(|m| m.strip_suffix("/list_changed"))
    {
        let on = caps
            .get(list)
            .and_then(|c| c.get("listChanged"))
            .and_then(Value::as_bool);
        if on != Some(true) {
            f.add(
                &LIST_CHANGED,
                format!("the server sent {method} but does not declare `{list}.listChanged: true`"),
                At::frame(frame),
            );
        }
    }
    if method == "notifications/message" && caps.get("logging").is_none() {
        f.add(
            &UNDECLARED,
            "the server sends log messages but does not declare the `logging` capability".into(),
            At::frame(frame),
        );
    }
}
