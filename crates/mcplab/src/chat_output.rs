//! Terminal sinks for chat turns: a human printer (answer text streamed to stdout, tool
//! activity and reasoning to stderr) and JSON Lines (`--json`, one `TurnEvent` per line, the
//! same events the browser gets).

use std::io::Write;
use std::sync::Mutex;

use mcplab_core::agent::EventSink;
use mcplab_protocol::chat::{StopReason, TurnEvent};

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
                    StopReason::StepLimit => " — stopped at the step limit (raise --max-steps)",
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
            TurnEvent::TurnStarted { .. } | TurnEvent::TraceStep { .. } => {}
        }
    }
}
