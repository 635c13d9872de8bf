//! The tool calls of a turn: approval (when the host asks first), the call on its server with
//! its progress and the human requests it raises (answered by the host's elicitation policy
//! unless a person should), and what the model sees of the result. Every call that starts
//! emits exactly one `toolResult`. Error text reaches the model once, unprefixed: the provider
//! layer marks it as an error in the provider's own way.

use std::time::Instant;

use mcplab_protocol::chat::{ApprovalDecision, TurnEvent};
use mcplab_protocol::host::{ElicitationMode, StructuredContentMode, ToolResultPolicy};
use mcplab_protocol::{HumanRequestKind, RequestRef, ServerEvent};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::catalog::ToolCatalog;
use super::elicitation::answer_by_policy;
use super::sink::EventSink;
use super::turn::TurnConfig;
use mcplab_llm::Part;
use mcplab_mcp::{ConnectionManager, RequestOptions};

/// The tool-call arguments streamed so far in one model step, per call id, so each distinct
/// text becomes at most one `toolInputPartial` (providers repeat chunks, e.g. a closing one
/// that adds nothing).
#[derive(Default)]
pub(super) struct PartialInputs {
    /// `(call id, name, last arguments text emitted)`.
    seen: Vec<(String, String, String)>,
}

impl PartialInputs {
    pub(super) fn event(
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

/// What every tool call of one turn shares.
pub(super) struct ToolRun<'a> {
    pub manager: &'a ConnectionManager,
    pub catalog: &'a ToolCatalog,
    pub cfg: &'a TurnConfig,
    pub sink: &'a dyn EventSink,
    pub cancel: &'a CancellationToken,
}

impl ToolRun<'_> {
    /// Runs one call the model made; the part that tells the model how it went.
    pub(super) async fn call(&self, call_id: &str, name: &str, arguments: &Value) -> Part {
        let turn_id = self.cfg.turn_id.clone();
        let (server, tool) = match self.catalog.resolve(name) {
            Some(e) => (e.server.clone(), e.tool.clone()),
            None => (String::new(), name.to_owned()),
        };
        let (arguments, denied) = if server.is_empty() {
            (arguments.clone(), None)
        } else {
            self.approve(call_id, name, &server, &tool, arguments).await
        };
        self.sink.emit(TurnEvent::ToolCall {
            turn_id: turn_id.clone(),
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            server: server.clone(),
            tool: tool.clone(),
            arguments: arguments.clone(),
        });
        let started = Instant::now();
        let mut requests = Vec::new();
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
            self.run_on_server(call_id, &server, &tool, &arguments, &mut requests)
                .await
        };
        let duration_ms = started.elapsed().as_millis() as u64;
        let (part, result, error, is_error) = match outcome {
            Ok(result) => {
                let is_error = result["isError"].as_bool() == Some(true);
                (
                    tool_result_part(call_id, &result, is_error, &self.cfg.tool_results),
                    Some(result),
                    None,
                    is_error,
                )
            }
            Err(message) => {
                let part = Part::ToolResult {
                    call_id: call_id.to_owned(),
                    text: message.clone(),
                    images: Vec::new(),
                    is_error: true,
                };
                (part, None, Some(message), true)
            }
        };
        self.sink.emit(TurnEvent::ToolResult {
            turn_id,
            call_id: call_id.to_owned(),
            server,
            tool,
            duration_ms,
            is_error,
            result,
            error,
            requests,
        });
        part
    }

    /// Waits for the user's decision when the host asks before each call: the arguments to
    /// run with, and `Some(reason)` when denied.
    async fn approve(
        &self,
        call_id: &str,
        name: &str,
        server: &str,
        tool: &str,
        arguments: &Value,
    ) -> (Value, Option<Option<String>>) {
        let Some(approvals) = self.cfg.approvals.as_ref() else {
            return (arguments.clone(), None);
        };
        let turn_id = &self.cfg.turn_id;
        let wait = approvals.register(turn_id, call_id, self.cfg.approval_timeout, self.cancel);
        self.sink.emit(TurnEvent::ApprovalRequested {
            turn_id: turn_id.clone(),
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            server: server.to_owned(),
            tool: tool.to_owned(),
            arguments: arguments.clone(),
            timeout_ms: self.cfg.approval_timeout.as_millis() as u64,
        });
        // The wait removes its own entry however it ends.
        let decision = wait.await;
        let (arguments, denied) = match decision {
            ApprovalDecision::Allow {
                arguments: Some(edited),
            } => (edited, None),
            ApprovalDecision::Allow { arguments: None } => (arguments.clone(), None),
            ApprovalDecision::Deny { reason } => (arguments.clone(), Some(reason)),
        };
        self.sink.emit(TurnEvent::ApprovalResolved {
            turn_id: turn_id.clone(),
            call_id: call_id.to_owned(),
            approved: denied.is_none(),
        });
        (arguments, denied)
    }

    /// `tools/call` on the server, with its progress and human requests put into the turn.
    async fn run_on_server(
        &self,
        call_id: &str,
        server: &str,
        tool: &str,
        arguments: &Value,
        requests: &mut Vec<RequestRef>,
    ) -> Result<Value, String> {
        let conn = self.manager.get(server).map_err(|e| e.to_string())?;
        let args = if arguments.is_object() {
            arguments.clone()
        } else {
            json!({})
        };
        // Progress (and a task's status) reaches the turn; a task is waited on as long as it
        // lives, each poll bounded by the tool timeout.
        let (progress_tx, mut progress_rx) = mpsc::unbounded_channel();
        let (sent_tx, mut sent_rx) = mpsc::unbounded_channel();
        let opts = RequestOptions {
            timeout: self.cfg.tool_timeout,
            cancel: Some(self.cancel.clone()),
            progress: Some(progress_tx),
            sent: Some(sent_tx),
            ..Default::default()
        };
        let call = conn.request(
            "tools/call",
            Some(json!({"name": tool, "arguments": args})),
            opts,
        );
        let progress = async {
            while let Some(p) = progress_rx.recv().await {
                self.sink.emit(TurnEvent::ToolProgress {
                    turn_id: self.cfg.turn_id.clone(),
                    call_id: call_id.to_owned(),
                    progress: p.progress,
                    total: p.total,
                    message: p.message,
                });
            }
        };
        let call = async {
            // The request owns the progress sender: when it ends, the progress loop ends too.
            let (result, ()) = tokio::join!(call, progress);
            result
        };
        let result = self.with_human_requests(call_id, server, call).await;
        while let Ok(sent) = sent_rx.try_recv() {
            requests.push(sent);
        }
        result.map_err(|e| e.to_string())
    }

    /// Awaits `call`, meanwhile putting the elicitation and sampling requests its server
    /// raises (and their answers) into the turn, so every consumer of the turn sees them in
    /// place. Elicitations are answered here when the host's policy is not to ask.
    async fn with_human_requests<T>(
        &self,
        call_id: &str,
        server: &str,
        call: impl Future<Output = T>,
    ) -> T {
        use tokio::sync::broadcast::error::RecvError;
        let (manager, sink, turn_id) = (self.manager, self.sink, self.cfg.turn_id.as_str());
        let policy = self.cfg.elicitation;
        let mut events = manager.subscribe();
        let emit = |event: Result<ServerEvent, RecvError>| match event {
            Ok(ServerEvent::HumanRequested { request }) if request.server == server => {
                let id = request.id;
                let automatic = (request.kind == HumanRequestKind::Elicitation
                    && policy != ElicitationMode::Ask)
                    .then(|| answer_by_policy(&request.params, policy));
                sink.emit(TurnEvent::HumanRequested {
                    turn_id: turn_id.to_owned(),
                    call_id: call_id.to_owned(),
                    request,
                });
                if let Some(answer) = automatic {
                    manager.broker().answer(id, answer);
                }
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
}

/// What the model sees of a `CallToolResult` under the host's `policy`: text blocks,
/// descriptions of other blocks, structured content as JSON (by default only when there is no
/// text), images passed along; never `_meta`.
pub(super) fn tool_result_part(
    call_id: &str,
    result: &Value,
    is_error: bool,
    policy: &ToolResultPolicy,
) -> Part {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for block in result["content"].as_array().into_iter().flatten() {
        let s = |k: &str| block[k].as_str().unwrap_or_default().to_owned();
        match block["type"].as_str() {
            Some("text") if policy.text => texts.push(s("text")),
            Some("text") => {}
            Some("image") => {
                if policy.images {
                    images.push((s("mimeType"), s("data")));
                }
                texts.push(format!("[image {}]", s("mimeType")));
            }
            Some("audio") => texts.push(format!("[audio {}]", s("mimeType"))),
            Some("resource_link") => {
                texts.push(format!("[resource link {} {}]", s("uri"), s("name")))
            }
            Some("resource") => {
                let r = &block["resource"];
                let uri = r["uri"].as_str().unwrap_or("");
                match r["text"].as_str() {
                    Some(t) if policy.resources => texts.push(format!("[resource {uri}]\n{t}")),
                    Some(_) => texts.push(format!("[resource {uri}]")),
                    None => texts.push(format!("[binary resource {uri}]")),
                }
            }
            _ => texts.push(block.to_string()),
        }
    }
    if let Some(sc) = result.get("structuredContent") {
        let give = match policy.structured_content {
            StructuredContentMode::WhenNoText => texts.iter().all(|t| t.trim().is_empty()),
            StructuredContentMode::Always => true,
            StructuredContentMode::Never => false,
        };
        if give {
            texts.push(sc.to_string());
        }
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
        let all = mcplab_protocol::host::ServerTools::default();
        let catalog = ToolCatalog::build([("demo", tools.as_slice(), &all)]);
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
        } = tool_result_part("c1", &r, false, &ToolResultPolicy::default())
        else {
            panic!("a tool result part")
        };
        assert_eq!(text, "hello\n[image image/png]\n[resource demo://x]\nbody");
        assert_eq!(images, [("image/png".to_owned(), "AAAA".to_owned())]);
        assert!(!is_error);
        let only_structured = json!({"content": [], "structuredContent": {"sum": 3}});
        let Part::ToolResult { text, .. } =
            tool_result_part("c2", &only_structured, false, &ToolResultPolicy::default())
        else {
            panic!()
        };
        assert_eq!(text, "{\"sum\":3}");
        // A host's policy: structured content always, never, images and resources withheld.
        let both = json!({"content": [
            {"type": "text", "text": "sum is 3"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource", "resource": {"uri": "demo://x", "text": "body"}}
        ], "structuredContent": {"sum": 3}, "_meta": {"secret": 1}});
        let part = |policy: ToolResultPolicy| match tool_result_part("c", &both, false, &policy) {
            Part::ToolResult { text, images, .. } => (text, images.len()),
            _ => panic!(),
        };
        let (text, images) = part(ToolResultPolicy::default());
        assert!(!text.contains("sum\":3") && images == 1, "{text}");
        let always = ToolResultPolicy {
            structured_content: StructuredContentMode::Always,
            ..Default::default()
        };
        assert!(part(always).0.ends_with("{\"sum\":3}"));
        let bare = ToolResultPolicy {
            text: false,
            structured_content: StructuredContentMode::Never,
            images: false,
            resources: false,
        };
        let (text, images) = part(bare);
        assert_eq!(
            (text.as_str(), images),
            ("[image image/png]\n[resource demo://x]", 0)
        );
        assert!(!part(ToolResultPolicy::default()).0.contains("secret"));
    }
}
