//! One chat turn: stream a model step (tool arguments announced as they stream), run the tools
//! it called (concurrently, each on its own server), feed the results back, and repeat until
//! the model stops or the step limit is reached. The contract: exactly one terminal event per
//! turn, exactly one `toolResult` per `toolCall`, and a provider stream that stops early is a
//! failure, never a success.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use mcplab_protocol::chat::{StopReason, TokenUsage, TurnEvent};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::approval::Approvals;
use super::catalog::ToolCatalog;
use super::sink::EventSink;
use crate::llm::{
    ChatRequest, FinishReason, LlmError, LlmProvider, Message, ModelRef, Part, Role, StreamEvent,
    Usage,
};
use crate::mcp::{ConnectionManager, McpError, RequestOptions};
use mcplab_protocol::chat::ApprovalDecision;

pub const DEFAULT_SYSTEM_PROMPT: &str = "You are a helpful assistant with access to MCP tools.";
pub const DEFAULT_STEP_LIMIT: u32 = 10;

/// How one turn runs.
#[derive(Debug, Clone)]
pub struct TurnConfig {
    pub turn_id: String,
    pub model: ModelRef,
    pub system_prompt: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub step_limit: u32,
    /// Servers whose tools (and instructions) the model gets.
    pub servers: Vec<String>,
    /// Per tool call; `None` uses the server's request timeout.
    pub tool_timeout: Option<Duration>,
    /// When set, every tool call waits here for the user's approval.
    pub approvals: Option<Arc<Approvals>>,
    /// How long a call waits for approval before it is denied.
    pub approval_timeout: Duration,
    /// Extra system messages after the prompt and server instructions, e.g. app context
    /// (see [`super::app_context_message`]); blank ones are skipped.
    pub context: Vec<String>,
}

/// What a turn produced.
#[derive(Debug, Clone)]
pub struct TurnOutcome {
    /// Messages to append to the conversation: the user's, then assistant and tool messages.
    pub messages: Vec<Message>,
    /// The terminal event (also emitted).
    pub terminal: TurnEvent,
}

fn usage_of(u: &Usage) -> TokenUsage {
    TokenUsage {
        input_tokens: u.input_tokens.unwrap_or(0),
        output_tokens: u.output_tokens.unwrap_or(0),
        reasoning_tokens: u.reasoning_tokens.unwrap_or(0),
    }
}

fn error_kind(e: &LlmError) -> &'static str {
    match e {
        LlmError::Auth { .. } => "auth",
        LlmError::RateLimit { .. } => "rate_limit",
        LlmError::ContextLength { .. } => "context_length",
        LlmError::Network { .. } => "network",
        LlmError::Server { .. } => "server",
        LlmError::BadResponse { .. } => "bad_response",
        LlmError::Truncated { .. } => "truncated",
        LlmError::Cancelled => "cancelled",
        LlmError::NotConfigured { .. } => "not_configured",
    }
}

/// Runs one turn. `history` is the conversation so far; `user` the new message.
#[allow(clippy::too_many_arguments)]
pub async fn run_turn(
    provider: &dyn LlmProvider,
    manager: &ConnectionManager,
    history: &[Message],
    user: Message,
    cfg: &TurnConfig,
    sink: &dyn EventSink,
    cancel: &CancellationToken,
) -> TurnOutcome {
    let turn_id = cfg.turn_id.clone();
    let mut usage = TokenUsage::default();
    let mut new_messages = vec![user];
    sink.emit(TurnEvent::TurnStarted {
        turn_id: turn_id.clone(),
        model: cfg.model.to_string(),
    });
    let finish = |terminal: TurnEvent, messages: Vec<Message>| {
        sink.emit(terminal.clone());
        TurnOutcome { messages, terminal }
    };

    let (catalog, system) = match prepare(manager, cfg, cancel).await {
        Ok(v) => v,
        Err(e) if cancel.is_cancelled() || matches!(e, McpError::Cancelled) => {
            let t = TurnEvent::TurnCancelled { turn_id, usage };
            return finish(t, new_messages);
        }
        Err(e) => {
            let t = TurnEvent::TurnFailed {
                turn_id,
                kind: "not_configured".into(),
                message: e.to_string(),
                usage,
            };
            return finish(t, new_messages);
        }
    };

    for step in 1..=cfg.step_limit.max(1) {
        let mut messages = history.to_vec();
        messages.extend(new_messages.iter().cloned());
        let request = ChatRequest {
            model: cfg.model.clone(),
            system: system.clone(),
            messages,
            tools: catalog.specs(),
            temperature: cfg.temperature,
            max_tokens: cfg.max_tokens,
        };
        let mut stream = provider.stream(request, cancel.child_token());
        let (mut text, mut reasoning, mut calls) = (String::new(), String::new(), Vec::new());
        let mut partials = PartialInputs::default();
        let mut finished: Option<(FinishReason, Usage)> = None;
        let mut failure: Option<LlmError> = None;
        while let Some(item) = stream.next().await {
            match item {
                Ok(StreamEvent::TextDelta(t)) => {
                    text.push_str(&t);
                    sink.emit(TurnEvent::TextDelta {
                        turn_id: turn_id.clone(),
                        text: t,
                    });
                }
                Ok(StreamEvent::ReasoningDelta(t)) => {
                    reasoning.push_str(&t);
                    sink.emit(TurnEvent::ReasoningDelta {
                        turn_id: turn_id.clone(),
                        text: t,
                    });
                }
                Ok(StreamEvent::ToolCallPartial {
                    id,
                    name,
                    arguments_so_far,
                }) => {
                    if let Some(event) =
                        partials.event(&turn_id, &catalog, id, name, arguments_so_far)
                    {
                        sink.emit(event);
                    }
                }
                Ok(StreamEvent::ToolCall {
                    id,
                    name,
                    arguments,
                }) => calls.push((id, name, arguments)),
                Ok(StreamEvent::Finish { reason, usage }) => {
                    finished = Some((reason, usage));
                    break;
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        drop(stream);
        if failure.is_none() && finished.is_none() {
            failure = Some(if cancel.is_cancelled() {
                LlmError::Cancelled
            } else {
                LlmError::Truncated {
                    message: "the stream ended without a finish event".into(),
                }
            });
        }
        if let Some(e) = failure {
            if matches!(e, LlmError::Cancelled) || cancel.is_cancelled() {
                return finish(TurnEvent::TurnCancelled { turn_id, usage }, new_messages);
            }
            let t = TurnEvent::TurnFailed {
                turn_id,
                kind: error_kind(&e).into(),
                message: e.to_string(),
                usage,
            };
            return finish(t, new_messages);
        }
        let (reason, step_usage) = finished.expect("checked above");
        let step_usage = usage_of(&step_usage);
        usage.add(&step_usage);
        sink.emit(TurnEvent::TraceStep {
            turn_id: turn_id.clone(),
            step,
            model: cfg.model.to_string(),
            finish_reason: format!("{reason:?}"),
            usage: step_usage,
        });

        let mut parts = Vec::new();
        if !reasoning.is_empty() {
            parts.push(Part::Reasoning { text: reasoning });
        }
        if !text.is_empty() {
            parts.push(Part::Text { text });
        }
        for (id, name, arguments) in &calls {
            parts.push(Part::ToolCall {
                id: id.clone(),
                name: name.clone(),
                arguments: arguments.clone(),
            });
        }
        new_messages.push(Message {
            role: Role::Assistant,
            parts,
        });

        if calls.is_empty() {
            let reason = if reason == FinishReason::Length {
                StopReason::MaxTokens
            } else {
                StopReason::Completed
            };
            let t = TurnEvent::TurnFinished {
                turn_id,
                reason,
                usage,
            };
            return finish(t, new_messages);
        }

        let results = futures::future::join_all(calls.iter().map(|(id, name, args)| {
            run_tool(manager, &catalog, cfg, sink, cancel, id, name, args)
        }))
        .await;
        new_messages.push(Message {
            role: Role::Tool,
            parts: results,
        });
        if cancel.is_cancelled() {
            return finish(TurnEvent::TurnCancelled { turn_id, usage }, new_messages);
        }
    }
    let t = TurnEvent::TurnFinished {
        turn_id,
        reason: StopReason::StepLimit,
        usage,
    };
    finish(t, new_messages)
}

/// Lists the selected servers' tools and gathers the system messages.
async fn prepare(
    manager: &ConnectionManager,
    cfg: &TurnConfig,
    cancel: &CancellationToken,
) -> Result<(ToolCatalog, Vec<String>), McpError> {
    let mut system = vec![cfg.system_prompt.clone()];
    let mut lists = Vec::new();
    for server in &cfg.servers {
        let conn = manager.get(server)?;
        if let Some(instructions) = conn.initialize_result()["instructions"].as_str()
            && !instructions.trim().is_empty()
        {
            system.push(format!(
                "Instructions from the MCP server `{server}`:\n{instructions}"
            ));
        }
        let opts = RequestOptions {
            cancel: Some(cancel.clone()),
            ..Default::default()
        };
        let tools = conn.list_all("tools/list", "tools", opts).await?;
        lists.push((
            server.clone(),
            tools["tools"].as_array().cloned().unwrap_or_default(),
        ));
    }
    let catalog = ToolCatalog::build(lists.iter().map(|(s, t)| (s.as_str(), t.as_slice())));
    system.extend(cfg.context.iter().filter(|c| !c.trim().is_empty()).cloned());
    Ok((catalog, system))
}

/// The tool-call arguments streamed so far in one model step, per call id, so each distinct
/// text becomes at most one `toolInputPartial` (providers repeat chunks, e.g. a closing one
/// that adds nothing).
#[derive(Default)]
struct PartialInputs {
    /// `(call id, name, last arguments text emitted)`.
    seen: Vec<(String, String, String)>,
}

impl PartialInputs {
    fn event(
        &mut self,
        turn_id: &str,
        catalog: &ToolCatalog,
        id: String,
        name: String,
        arguments_text: String,
    ) -> Option<TurnEvent> {
        let name = match self.seen.iter_mut().find(|p| p.0 == id) {
            Some(p) => {
                if !name.is_empty() {
                    p.1 = name;
                }
                if p.2 == arguments_text {
                    return None;
                }
                p.2.clone_from(&arguments_text);
                p.1.clone()
            }
            None => {
                self.seen
                    .push((id.clone(), name.clone(), arguments_text.clone()));
                name
            }
        };
        let (server, tool) = catalog
            .resolve(&name)
            .map(|e| (e.server.clone(), e.tool.clone()))
            .unwrap_or_default();
        Some(TurnEvent::ToolInputPartial {
            turn_id: turn_id.to_owned(),
            call_id: id,
            name,
            server,
            tool,
            arguments_text,
        })
    }
}

#[allow(clippy::too_many_arguments)]
async fn run_tool(
    manager: &ConnectionManager,
    catalog: &ToolCatalog,
    cfg: &TurnConfig,
    sink: &dyn EventSink,
    cancel: &CancellationToken,
    call_id: &str,
    name: &str,
    arguments: &Value,
) -> Part {
    let turn_id = cfg.turn_id.clone();
    let (server, tool) = match catalog.resolve(name) {
        Some(e) => (e.server.clone(), e.tool.clone()),
        None => (String::new(), name.to_owned()),
    };
    let mut arguments = arguments.clone();
    let mut denied = None;
    if let Some(approvals) = cfg.approvals.as_ref().filter(|_| !server.is_empty()) {
        let wait = approvals.register(&turn_id, call_id, cfg.approval_timeout, cancel);
        sink.emit(TurnEvent::ApprovalRequested {
            turn_id: turn_id.clone(),
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            server: server.clone(),
            tool: tool.clone(),
            arguments: arguments.clone(),
            timeout_ms: cfg.approval_timeout.as_millis() as u64,
        });
        let decision = wait.await;
        approvals.forget(&turn_id, call_id);
        match decision {
            ApprovalDecision::Allow {
                arguments: Some(edited),
            } => arguments = edited,
            ApprovalDecision::Allow { arguments: None } => {}
            ApprovalDecision::Deny { reason } => denied = Some(reason),
        }
        sink.emit(TurnEvent::ApprovalResolved {
            turn_id: turn_id.clone(),
            call_id: call_id.to_owned(),
            approved: denied.is_none(),
        });
    }
    let arguments = &arguments;
    sink.emit(TurnEvent::ToolCall {
        turn_id: turn_id.clone(),
        call_id: call_id.to_owned(),
        name: name.to_owned(),
        server: server.clone(),
        tool: tool.clone(),
        arguments: arguments.clone(),
    });
    let started = Instant::now();
    let outcome = if let Some(reason) = denied {
        Err(match reason {
            Some(r) => format!("the user denied this tool call: {r}"),
            None => "the user denied this tool call".to_owned(),
        })
    } else if server.is_empty() {
        Err(format!(
            "the model called `{name}`, which is not one of the offered tools"
        ))
    } else {
        match manager.get(&server) {
            Err(e) => Err(e.to_string()),
            Ok(conn) => {
                let args = if arguments.is_object() {
                    arguments.clone()
                } else {
                    json!({})
                };
                // Progress (and a task's status) reaches the turn; a task is waited on as
                // long as it lives, each poll bounded by the tool timeout.
                let (progress_tx, progress) = tokio::sync::mpsc::unbounded_channel();
                let opts = RequestOptions {
                    timeout: cfg.tool_timeout,
                    cancel: Some(cancel.clone()),
                    progress: Some(progress_tx),
                    ..Default::default()
                };
                let call = conn.request(
                    "tools/call",
                    Some(json!({"name": tool, "arguments": args})),
                    opts,
                );
                let ids = (turn_id.as_str(), call_id);
                with_human_requests(manager, sink, ids, &server, progress, call)
                    .await
                    .map_err(|e| e.to_string())
            }
        }
    };
    let duration_ms = started.elapsed().as_millis() as u64;
    let (part, result, error, is_error) = match outcome {
        Ok(result) => {
            let is_error = result["isError"].as_bool() == Some(true);
            (
                tool_result_part(call_id, &result, is_error),
                Some(result),
                None,
                is_error,
            )
        }
        Err(message) => {
            let part = Part::ToolResult {
                call_id: call_id.to_owned(),
                text: format!("Error: {message}"),
                images: Vec::new(),
                is_error: true,
            };
            (part, None, Some(message), true)
        }
    };
    sink.emit(TurnEvent::ToolResult {
        turn_id,
        call_id: call_id.to_owned(),
        server,
        tool,
        duration_ms,
        is_error,
        result,
        error,
    });
    part
}

/// Awaits `call`, meanwhile putting the elicitation and sampling requests its server raises
/// (and their answers) into the turn, so every consumer of the turn sees them in place.
async fn with_human_requests<T>(
    manager: &ConnectionManager,
    sink: &dyn EventSink,
    (turn_id, call_id): (&str, &str),
    server: &str,
    mut progress: tokio::sync::mpsc::UnboundedReceiver<crate::mcp::ProgressUpdate>,
    call: impl Future<Output = T>,
) -> T {
    use mcplab_protocol::ServerEvent;
    use tokio::sync::broadcast::error::RecvError;
    let mut events = manager.subscribe();
    let emit = |event: Result<ServerEvent, RecvError>| match event {
        Ok(ServerEvent::HumanRequested { request }) if request.server == server => {
            sink.emit(TurnEvent::HumanRequested {
                turn_id: turn_id.to_owned(),
                call_id: call_id.to_owned(),
                request,
            });
        }
        Ok(ServerEvent::HumanResolved {
            server: s,
            id,
            outcome,
        }) if s == server => {
            sink.emit(TurnEvent::HumanResolved {
                turn_id: turn_id.to_owned(),
                call_id: call_id.to_owned(),
                id,
                outcome,
            });
        }
        _ => {}
    };
    tokio::pin!(call);
    loop {
        tokio::select! {
            // Events first, so a request and its answer are in the turn before the result.
            biased;
            event = events.recv() => {
                if matches!(event, Err(RecvError::Closed)) {
                    return call.await;
                }
                emit(event);
            }
            Some(update) = progress.recv() => {
                sink.emit(TurnEvent::ToolProgress {
                    turn_id: turn_id.to_owned(),
                    call_id: call_id.to_owned(),
                    progress: update.progress,
                    total: update.total,
                    message: update.message,
                });
            }
            result = &mut call => {
                // Whatever arrived while the result was being delivered.
                while let Ok(event) = events.try_recv() {
                    emit(Ok(event));
                }
                return result;
            }
        }
    }
}

/// What the model sees of a `CallToolResult`: text blocks, descriptions of other blocks,
/// structured content as JSON when there is no text, and images passed along.
fn tool_result_part(call_id: &str, result: &Value, is_error: bool) -> Part {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for block in result["content"].as_array().into_iter().flatten() {
        let s = |k: &str| block[k].as_str().unwrap_or_default().to_owned();
        match block["type"].as_str() {
            Some("text") => texts.push(s("text")),
            Some("image") => {
                images.push((s("mimeType"), s("data")));
                texts.push(format!("[image {}]", s("mimeType")));
            }
            Some("audio") => texts.push(format!("[audio {}]", s("mimeType"))),
            Some("resource_link") => {
                texts.push(format!("[resource link {} {}]", s("uri"), s("name")))
            }
            Some("resource") => {
                let r = &block["resource"];
                match r["text"].as_str() {
                    Some(t) => texts.push(format!(
                        "[resource {}]\n{t}",
                        r["uri"].as_str().unwrap_or("")
                    )),
                    None => texts.push(format!(
                        "[binary resource {}]",
                        r["uri"].as_str().unwrap_or("")
                    )),
                }
            }
            _ => texts.push(block.to_string()),
        }
    }
    if let Some(sc) = result.get("structuredContent")
        && texts.iter().all(|t| t.trim().is_empty())
    {
        texts.push(sc.to_string());
    }
    Part::ToolResult {
        call_id: call_id.to_owned(),
        text: texts.join("\n"),
        images,
        is_error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_inputs_are_emitted_once_per_distinct_text() {
        let tools = vec![json!({"name": "echo"})];
        let catalog = ToolCatalog::build([("demo", tools.as_slice())]);
        let mut p = PartialInputs::default();
        let mut ev = |id: &str, name: &str, text: &str| {
            p.event("t", &catalog, id.into(), name.into(), text.into())
        };
        let first = ev("c1", "demo__echo", "").unwrap();
        assert!(matches!(
            first,
            TurnEvent::ToolInputPartial { ref server, ref tool, .. } if server == "demo" && tool == "echo"
        ));
        assert!(ev("c1", "", "").is_none(), "same text again");
        let Some(TurnEvent::ToolInputPartial {
            name,
            arguments_text,
            ..
        }) = ev("c1", "", "{\"te")
        else {
            panic!("a new text is emitted")
        };
        assert_eq!(
            (name.as_str(), arguments_text.as_str()),
            ("demo__echo", "{\"te")
        );
        assert!(ev("c1", "", "{\"te").is_none());
        let Some(TurnEvent::ToolInputPartial { server, tool, .. }) = ev("c2", "nope", "{}") else {
            panic!("another call has its own texts")
        };
        assert_eq!(
            (server.as_str(), tool.as_str()),
            ("", ""),
            "unknown names resolve to nothing"
        );
    }

    #[test]
    fn tool_results_become_text_for_the_model() {
        let r = json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource", "resource": {"uri": "demo://x", "text": "body"}}
        ]});
        let Part::ToolResult {
            text,
            images,
            is_error,
            ..
        } = tool_result_part("c1", &r, false)
        else {
            panic!("a tool result part")
        };
        assert_eq!(text, "hello\n[image image/png]\n[resource demo://x]\nbody");
        assert_eq!(images, [("image/png".to_owned(), "AAAA".to_owned())]);
        assert!(!is_error);
        let only_structured = json!({"content": [], "structuredContent": {"sum": 3}});
        let Part::ToolResult { text, .. } = tool_result_part("c2", &only_structured, false) else {
            panic!()
        };
        assert_eq!(text, "{\"sum\":3}");
    }
}
