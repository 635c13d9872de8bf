//! Terminal sinks for chat turns: a human printer (answer text streamed to stdout, tool
//! activity and reasoning to stderr) and JSON Lines (`--json`, one `TurnEvent` per line, the
//! same events the browser gets).

use std::io::Write;
use std::sync::Mutex;

use mcplab_core::agent::EventSink;
use mcplab_protocol::chat::{ApprovalDecision, StopReason, TurnEvent};

/// Asks on the terminal (stderr prompt, stdin answer) for each tool call that needs approval,
/// then forwards every event to `inner`.
pub struct ApprovingSink {
    pub inner: std::sync::Arc<dyn EventSink>,
    pub approvals: std::sync::Arc<mcplab_core::agent::Approvals>,
}

impl EventSink for ApprovingSink {
    fn emit(&self, event: TurnEvent) {
        if let TurnEvent::ApprovalRequested {
            turn_id,
            call_id,
            server,
            tool,
            arguments,
            ..
        } = &event
        {
            let approvals = self.approvals.clone();
            let (turn_id, call_id) = (turn_id.clone(), call_id.clone());
            let question = format!("allow {server}/{tool} {arguments}? [y/N] ");
            // Blocking stdin read off the runtime; the agent waits on the approval broker.
            tokio::task::spawn_blocking(move || {
                eprint!("{question}");
                let mut line = String::new();
                let _ = std::io::stdin().read_line(&mut line);
                let decision = if matches!(line.trim(), "y" | "Y" | "yes") {
                    ApprovalDecision::Allow { arguments: None }
                } else {
                    ApprovalDecision::Deny { reason: None }
                };
                approvals.decide(&turn_id, &call_id, decision);
            });
        }
        self.inner.emit(event);
    }
}

/// Prints events as JSON Lines on stdout.
pub struct JsonLinesSink;

impl EventSink for JsonLinesSink {
    fn emit(&self, event: TurnEvent) {
        if let Ok(line) = serde_json::to_string(&event) {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }
}

/// Prints a turn for a person.
#[derive(Default)]
pub struct TerminalSink {
    /// Whether the last thing on stdout was answer text without a newline yet.
    mid_line: Mutex<bool>,
}

impl TerminalSink {
    fn end_line(&self) {
        let mut mid = self.mid_line.lock().unwrap_or_else(|p| p.into_inner());
        if *mid {
            println!();
            *mid = false;
        }
    }
}

impl EventSink for TerminalSink {
    fn emit(&self, event: TurnEvent) {
        match event {
            TurnEvent::TextDelta { text, .. } => {
                let mut out = std::io::stdout().lock();
                let _ = write!(out, "{text}");
                let _ = out.flush();
                *self.mid_line.lock().unwrap_or_else(|p| p.into_inner()) = !text.ends_with('\n');
            }
            TurnEvent::ReasoningDelta { text, .. } => {
                eprint!("\x1b[2m{text}\x1b[0m");
            }
            TurnEvent::ToolCall {
                server,
                tool,
                arguments,
                ..
            } => {
                self.end_line();
                eprintln!("→ {server}/{tool} {arguments}");
            }
            TurnEvent::ToolResult {
                server,
                tool,
                duration_ms,
                is_error,
                result,
                error,
                ..
            } => {
                let summary = match (&error, &result) {
                    (Some(e), _) => format!("error: {e}"),
                    (None, Some(r)) => crate::output::tool_result(r)
                        .trim_end()
                        .replace('\n', "\n    "),
                    (None, None) => String::new(),
                };
                let mark = if is_error { "✗" } else { "✓" };
                eprintln!("{mark} {server}/{tool} ({duration_ms} ms)\n    {summary}");
            }
            TurnEvent::TurnFinished { reason, usage, .. } => {
                self.end_line();
                let why = match reason {
                    StopReason::Completed => "",
                    StopReason::StepLimit => {
                        " — stopped at the step limit (raise --max-steps or stepLimit)"
                    }
                    StopReason::MaxTokens => " — the model hit its output token limit",
                };
                eprintln!(
                    "[{} in / {} out tokens{why}]",
                    usage.input_tokens, usage.output_tokens
                );
            }
            TurnEvent::TurnFailed { kind, message, .. } => {
                self.end_line();
                eprintln!("turn failed ({kind}): {message}");
            }
            TurnEvent::TurnCancelled { .. } => {
                self.end_line();
                eprintln!("cancelled");
            }
            TurnEvent::ApprovalResolved {
                approved: false, ..
            } => {
                eprintln!("✗ denied");
            }
            TurnEvent::HumanRequested { request, .. } => {
                self.end_line();
                eprintln!("… {} asks for {:?}", request.server, request.kind);
            }
            // A progress message shows while the call runs (a task's status too).
            TurnEvent::ToolProgress {
                message: Some(message),
                ..
            } => {
                self.end_line();
                eprintln!("  … {message}");
            }
            // Live argument streaming and other progress are for UIs that render them; the
            // call and result lines follow.
            TurnEvent::TurnStarted { .. }
            | TurnEvent::ToolInputPartial { .. }
            | TurnEvent::ToolProgress { .. }
            | TurnEvent::TraceStep { .. }
            | TurnEvent::ApprovalRequested { .. }
            | TurnEvent::ApprovalResolved { .. }
            | TurnEvent::HumanResolved { .. } => {}
        }
    }
}
