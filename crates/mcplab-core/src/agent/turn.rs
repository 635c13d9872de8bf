//! One chat turn: stream a model step (tool arguments announced as they stream), run the tools
//! it called (concurrently, each on its own server; see `tools`), feed the results back, and
//! repeat until the model stops or the step limit is reached. The contract: exactly one
//! terminal event per turn, exactly one `toolResult` per `toolCall`, and a provider stream that
//! stops early is a failure, never a success.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use mcplab_protocol::chat::{StopReason, TokenUsage, TurnEvent, TurnFailureKind};
use mcplab_protocol::host::{
    ApprovalMode, ElicitationMode, HostConfig, ServerTools, ToolCatalogPolicy, ToolResultPolicy,
};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use mcplab_llm::prices::PriceTable;

use super::approval::Approvals;
use super::catalog::ToolCatalog;
use super::sink::EventSink;
use super::timing::{StepWatch, TurnClock, step_xray};
use super::tools::{PartialInputs, ToolRun};
use mcplab_llm::{
    ChatRequest, FinishReason, LlmError, LlmProvider, Message, ModelRef, Part, Role, StreamEvent,
    Usage, xray::Capture,
};
use mcplab_mcp::{ConnectionManager, Listing, McpError, RequestOptions};

pub use mcplab_protocol::host::{DEFAULT_STEP_LIMIT, DEFAULT_SYSTEM_PROMPT};

/// How one turn runs.
#[derive(Debug, Clone)]
pub struct TurnConfig {
    pub turn_id: String,
    pub model: ModelRef,
    pub system_prompt: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub step_limit: u32,
    /// Servers whose tools (and instructions) the model gets, each with its tool filter.
    pub servers: BTreeMap<String, ServerTools>,
    /// Per tool call; `None` uses the server's request timeout.
    pub tool_timeout: Option<Duration>,
    /// When set, every tool call waits here for the user's approval.
    pub approvals: Option<Arc<Approvals>>,
    /// How long a call waits for approval before it is denied.
    pub approval_timeout: Duration,
    /// How elicitation requests raised during a call are answered (`Ask`: left to a person).
    pub elicitation: ElicitationMode,
    /// Extra system messages after the prompt and server instructions, e.g. app context
    /// (see [`super::app_context_message`]); blank ones are skipped.
    pub context: Vec<String>,
    /// What steps cost (dollars per million tokens by `provider::model`).
    pub prices: Arc<PriceTable>,
    /// The host's tool naming and limit.
    pub tool_catalog: ToolCatalogPolicy,
    /// What of each tool result the model sees.
    pub tool_results: ToolResultPolicy,
    /// Whether the host implements MCP Apps (`client.mcpApps`). One that does not ignores
    /// `_meta.ui`, visibility included: an app-only tool is then offered to the model.
    pub mcp_apps: bool,
}

impl TurnConfig {
    /// The turn `host` describes. `approvals` is where calls wait when the host asks before
    /// each call (ignored otherwise).
    pub fn from_host(
        host: &HostConfig,
        turn_id: String,
        model: ModelRef,
        approvals: Arc<Approvals>,
    ) -> Self {
        Self {
            turn_id,
            model,
            system_prompt: host.system_prompt.clone(),
            temperature: host.temperature,
            max_tokens: host.max_tokens,
            step_limit: host.step_limit,
            servers: host.servers.clone(),
            tool_timeout: None,
            approvals: (host.approval.mode == ApprovalMode::Always).then_some(approvals),
            approval_timeout: Duration::from_secs(host.approval.timeout_secs),
            elicitation: host.elicitation.mode,
            context: Vec::new(),
            prices: shipped_prices(),
            tool_catalog: host.tool_catalog.clone(),
            tool_results: host.tool_results.clone(),
            mcp_apps: host.client.mcp_apps,
        }
    }
}

/// The price table shipped with mcplab; empty (every cost "no price") if it cannot be read.
pub fn shipped_prices() -> Arc<PriceTable> {
    Arc::new(PriceTable::shipped().unwrap_or_default())
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

fn error_kind(e: &LlmError) -> TurnFailureKind {
    match e {
        LlmError::Auth { .. } => TurnFailureKind::Auth,
        LlmError::RateLimit { .. } => TurnFailureKind::RateLimit,
        LlmError::ContextLength { .. } => TurnFailureKind::ContextLength,
        LlmError::Network { .. } => TurnFailureKind::Network,
        LlmError::Server { .. } => TurnFailureKind::Server,
        LlmError::BadResponse { .. } => TurnFailureKind::BadResponse,
        LlmError::Truncated { .. } => TurnFailureKind::Truncated,
        LlmError::Cancelled => TurnFailureKind::Cancelled,
        LlmError::NotConfigured { .. } => TurnFailureKind::NotConfigured,
    }
}

/// What one model step streamed.
struct Step {
    text: String,
    reasoning: String,
    calls: Vec<(String, String, Value)>,
    reason: FinishReason,
    /// As the provider reported it (`None`s: not reported).
    usage: Usage,
}

/// Runs one turn. `history` is the conversation so far; `user` the new message.
pub async fn run_turn(
    provider: &dyn LlmProvider,
    manager: &ConnectionManager,
    history: &[Message],
    user: Message,
    cfg: &TurnConfig,
    sink: &dyn EventSink,
    cancel: &CancellationToken,
) -> TurnOutcome {
    let mut turn = Turn::start(cfg, sink, user);
    let (catalog, system) = match prepare(manager, cfg, cancel).await {
        Ok(v) => v,
        Err(e) if cancel.is_cancelled() || matches!(e, McpError::Cancelled) => {
            return turn.end(Ending::Cancelled);
        }
        Err(e) => {
            let failure = Ending::Failed(TurnFailureKind::NotConfigured, e.to_string());
            return turn.end(failure);
        }
    };
    if !catalog.left_out().is_empty() {
        sink.emit(TurnEvent::ToolsLeftOut {
            turn_id: cfg.turn_id.clone(),
            limit: cfg.tool_catalog.max_tools.unwrap_or_default(),
            left_out: catalog.left_out().to_vec(),
        });
    }
    let run = ToolRun {
        manager,
        catalog: &catalog,
        cfg,
        sink,
        cancel,
    };
    let steps = Steps {
        provider,
        history,
        system: &system,
        run: &run,
    };
    for step_no in 1..=cfg.step_limit.max(1) {
        if let Some(ending) = turn.step(&steps, step_no).await {
            return turn.end(ending);
        }
    }
    turn.end(Ending::Finished(StopReason::StepLimit))
}

/// What every step of a turn is run with.
struct Steps<'a> {
    provider: &'a dyn LlmProvider,
    history: &'a [Message],
    system: &'a [String],
    run: &'a ToolRun<'a>,
}

/// How a turn ended, before its terminal event is written.
enum Ending {
    Finished(StopReason),
    Cancelled,
    Failed(TurnFailureKind, String),
}

/// A turn under way: its clock, the tokens used and the messages it added so far.
struct Turn<'a> {
    cfg: &'a TurnConfig,
    sink: &'a dyn EventSink,
    clock: TurnClock,
    usage: TokenUsage,
    messages: Vec<Message>,
}

impl<'a> Turn<'a> {
    fn start(cfg: &'a TurnConfig, sink: &'a dyn EventSink, user: Message) -> Self {
        let clock = TurnClock::start();
        sink.emit(TurnEvent::TurnStarted {
            turn_id: cfg.turn_id.clone(),
            model: cfg.model.to_string(),
        });
        Self {
            cfg,
            sink,
            clock,
            usage: TokenUsage::default(),
            messages: vec![user],
        }
    }

    /// Runs model step `step_no` and the tools it called; `Some` when the turn ends with it.
    async fn step(&mut self, steps: &Steps<'_>, step_no: u32) -> Option<Ending> {
        let (cfg, catalog, cancel) = (self.cfg, steps.run.catalog, steps.run.cancel);
        let mut messages = steps.history.to_vec();
        messages.extend(self.messages.iter().cloned());
        let capture = Capture::new();
        let request = ChatRequest {
            model: cfg.model.clone(),
            system: steps.system.to_vec(),
            messages,
            tools: catalog.specs(),
            temperature: cfg.temperature,
            max_tokens: cfg.max_tokens,
            capture: Some(capture.clone()),
        };
        let mut watch = StepWatch::start(&self.clock, step_no, catalog.specs().len());
        let streamed = stream_step(
            steps.provider,
            request,
            catalog,
            cfg,
            self.sink,
            cancel,
            &mut watch,
        )
        .await;
        self.clock.saw_first_token(&watch);
        let step = match streamed {
            Ok(step) => step,
            Err(e) => {
                if let Some(x) = watch.xray(cfg, &Usage::default(), &capture, false) {
                    self.sink.emit(step_xray(&cfg.turn_id, x));
                }
                if matches!(e, LlmError::Cancelled) || cancel.is_cancelled() {
                    return Some(Ending::Cancelled);
                }
                return Some(Ending::Failed(error_kind(&e), e.to_string()));
            }
        };
        self.usage.add(&usage_of(&step.usage));
        self.sink.emit(TurnEvent::TraceStep {
            turn_id: cfg.turn_id.clone(),
            step: step_no,
            model: cfg.model.to_string(),
            finish_reason: format!("{:?}", step.reason),
            usage: usage_of(&step.usage),
        });
        if let Some(x) = watch.xray(cfg, &step.usage, &capture, true) {
            self.sink.emit(step_xray(&cfg.turn_id, x));
        }
        self.messages.push(assistant_message(&step));
        if step.calls.is_empty() {
            return Some(Ending::Finished(if step.reason == FinishReason::Length {
                StopReason::MaxTokens
            } else {
                StopReason::Completed
            }));
        }
        let calls = step.calls.iter();
        let results =
            futures::future::join_all(calls.map(|(id, name, args)| steps.run.call(id, name, args)))
                .await;
        self.messages.push(Message {
            role: Role::Tool,
            parts: results,
        });
        cancel.is_cancelled().then_some(Ending::Cancelled)
    }

    /// Writes the turn's timing and its one terminal event.
    fn end(self, ending: Ending) -> TurnOutcome {
        let (turn_id, usage) = (self.cfg.turn_id.clone(), self.usage);
        let terminal = match ending {
            Ending::Finished(reason) => TurnEvent::TurnFinished {
                turn_id,
                reason,
                usage,
            },
            Ending::Cancelled => TurnEvent::TurnCancelled { turn_id, usage },
            Ending::Failed(kind, message) => TurnEvent::TurnFailed {
                turn_id,
                kind,
                message,
                usage,
            },
        };
        self.sink.emit(self.clock.timing(&self.cfg.turn_id));
        self.sink.emit(terminal.clone());
        TurnOutcome {
            messages: self.messages,
            terminal,
        }
    }
}

/// Streams one model step into the sink; an error (cancellation included) when it did not end
/// with a finish event.
async fn stream_step(
    provider: &dyn LlmProvider,
    request: ChatRequest,
    catalog: &ToolCatalog,
    cfg: &TurnConfig,
    sink: &dyn EventSink,
    cancel: &CancellationToken,
    watch: &mut StepWatch,
) -> Result<Step, LlmError> {
    let turn_id = &cfg.turn_id;
    let mut stream = provider.stream(request, cancel.child_token());
    let (mut text, mut reasoning, mut calls) = (String::new(), String::new(), Vec::new());
    let mut partials = PartialInputs::default();
    while let Some(item) = stream.next().await {
        let item = item?;
        watch.saw(&item);
        match item {
            StreamEvent::TextDelta(t) => {
                text.push_str(&t);
                sink.emit(TurnEvent::TextDelta {
                    turn_id: turn_id.clone(),
                    text: t,
                });
            }
            StreamEvent::ReasoningDelta(t) => {
                reasoning.push_str(&t);
                sink.emit(TurnEvent::ReasoningDelta {
                    turn_id: turn_id.clone(),
                    text: t,
                });
            }
            StreamEvent::ToolCallPartial {
                id,
                name,
                arguments_so_far,
            } => {
                if let Some(event) = partials.event(turn_id, catalog, id, name, arguments_so_far) {
                    sink.emit(event);
                }
            }
            StreamEvent::ToolCall {
                id,
                name,
                arguments,
            } => calls.push((id, name, arguments)),
            StreamEvent::Finish { reason, usage } => {
                return Ok(Step {
                    text,
                    reasoning,
                    calls,
                    reason,
                    usage,
                });
            }
        }
    }
    Err(if cancel.is_cancelled() {
        LlmError::Cancelled
    } else {
        LlmError::Truncated {
            message: "the stream ended without a finish event".into(),
        }
    })
}

fn assistant_message(step: &Step) -> Message {
    let mut parts = Vec::new();
    if !step.reasoning.is_empty() {
        parts.push(Part::Reasoning {
            text: step.reasoning.clone(),
        });
    }
    if !step.text.is_empty() {
        parts.push(Part::Text {
            text: step.text.clone(),
        });
    }
    for (id, name, arguments) in &step.calls {
        parts.push(Part::ToolCall {
            id: id.clone(),
            name: name.clone(),
            arguments: arguments.clone(),
        });
    }
    Message {
        role: Role::Assistant,
        parts,
    }
}

/// Lists the selected servers' tools and gathers the system messages.
async fn prepare(
    manager: &ConnectionManager,
    cfg: &TurnConfig,
    cancel: &CancellationToken,
) -> Result<(ToolCatalog, Vec<String>), McpError> {
    let mut system = vec![cfg.system_prompt.clone()];
    let mut lists = Vec::new();
    for (server, filter) in &cfg.servers {
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
        let tools = conn.list_all(Listing::Tools, opts).await?;
        lists.push((
            server.as_str(),
            tools["tools"].as_array().cloned().unwrap_or_default(),
            filter,
        ));
    }
    let catalog = ToolCatalog::build_with(
        lists.iter().map(|(s, t, f)| (*s, t.as_slice(), *f)),
        &cfg.tool_catalog,
        cfg.mcp_apps,
    );
    system.extend(cfg.context.iter().filter(|c| !c.trim().is_empty()).cloned());
    Ok((catalog, system))
}
