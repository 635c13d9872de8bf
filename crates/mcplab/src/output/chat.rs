//! Terminal sinks for chat turns: a human printer (answer text streamed to stdout, tool
//! activity and reasoning to stderr) and JSON Lines (`--json`, one `TurnEvent` per line, the
//! same events the browser gets). With `--xray` the human printer also shows each model step's
//! x-ray (the request as the provider received it and the raw response) on stderr. Model text,
//! tool results and server errors are printed with control sequences neutralised ([`safe`]):
//! a server or model must not drive the terminal (security review 3, N2).

use std::io::Write;

use mcplab_core::agent::EventSink;
use mcplab_protocol::chat::{ApprovalDecision, StopReason, TurnEvent};
use mcplab_protocol::xray::StepXray;
use parking_lot::Mutex;

use super::safe;

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
            let question = safe(&format!("allow {server}/{tool} {arguments}? [y/N] ")).into_owned();
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
    /// Print each step's x-ray.
    xray: bool,
    /// The running turn's step costs (`None`: a step without a price).
    costs: Mutex<Vec<Option<f64>>>,
}

impl TerminalSink {
    pub fn new(xray: bool) -> Self {
        Self {
            xray,
            ..Self::default()
        }
    }

    /// The turn's cost so far as shown: dollars, or "no price" when a step had none.
    fn turn_cost(&self) -> String {
        let costs = std::mem::take(&mut *self.costs.lock());
        let total: Option<f64> = costs.iter().try_fold(0.0, |sum, c| c.map(|usd| sum + usd));
        match total {
            _ if costs.is_empty() => "no price".into(),
            Some(usd) => format!("${usd:.6}"),
            None => "no price".into(),
        }
    }

    fn end_line(&self) {
        let mut mid = self.mid_line.lock();
        if *mid {
            // A closed stdout is not an error for a sink (the command sees it on its next line).
            let _ = writeln!(std::io::stdout().lock());
            *mid = false;
        }
    }
}

impl EventSink for TerminalSink {
    fn emit(&self, event: TurnEvent) {
        match event {
            TurnEvent::TextDelta { text, .. } => {
                let mut out = std::io::stdout().lock();
                let _ = write!(out, "{}", safe(&text));
                let _ = out.flush();
                *self.mid_line.lock() = !text.ends_with('\n');
            }
            TurnEvent::ReasoningDelta { text, .. } => {
                eprint!("\x1b[2m{}\x1b[0m", safe(&text));
            }
            TurnEvent::ToolCall {
                server,
                tool,
                arguments,
                ..
            } => {
                self.end_line();
                eprintln!("{}", safe(&format!("→ {server}/{tool} {arguments}")));
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
                let line = format!("{mark} {server}/{tool} ({duration_ms} ms)\n    {summary}");
                eprintln!("{}", safe(&line));
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
                    "[{} in / {} out tokens · {}{why}]",
                    usage.input_tokens,
                    usage.output_tokens,
                    self.turn_cost()
                );
            }
            TurnEvent::StepXray { xray, .. } => {
                self.costs.lock().push(xray.cost.as_ref().map(|c| c.usd));
                if self.xray {
                    self.end_line();
                    eprint!("{}", safe(&xray_text(&xray)));
                }
            }
            TurnEvent::TurnFailed { kind, message, .. } => {
                self.end_line();
                eprintln!("turn failed ({kind}): {}", safe(&message));
            }
            TurnEvent::TurnCancelled { .. } => {
                self.end_line();
                eprintln!("cancelled");
            }
            TurnEvent::ToolsLeftOut {
                limit, left_out, ..
            } => {
                self.end_line();
                eprintln!(
                    "! the host offers at most {limit} tools; left out: {}",
                    safe(&left_out.join(", "))
                );
            }
            TurnEvent::ApprovalResolved {
                approved: false, ..
            } => {
                eprintln!("✗ denied");
            }
            TurnEvent::HumanRequested { request, .. } => {
                self.end_line();
                eprintln!(
                    "{}",
                    safe(&format!("… {} asks for {:?}", request.server, request.kind))
                );
            }
            // A progress message shows while the call runs (a task's status too).
            TurnEvent::ToolProgress {
                message: Some(message),
                ..
            } => {
                self.end_line();
                eprintln!("  … {}", safe(&message));
            }
            // Live argument streaming and other progress are for UIs that render them; the
            // call and result lines follow.
            TurnEvent::TurnStarted { .. }
            | TurnEvent::ToolInputPartial { .. }
            | TurnEvent::ToolProgress { .. }
            | TurnEvent::TraceStep { .. }
            | TurnEvent::TurnTiming { .. }
            | TurnEvent::ApprovalRequested { .. }
            | TurnEvent::ApprovalResolved { .. }
            | TurnEvent::HumanResolved { .. } => {}
        }
    }
}

/// A step's x-ray for the terminal: sizes, tokens and cost, then every exchange with its
/// headers and bodies exactly as captured (masked).
pub fn xray_text(x: &StepXray) -> String {
    let t = &x.tokens;
    let est = if t.estimated { " (estimated)" } else { "" };
    let cost = match &x.cost {
        Some(c) => format!("${:.6} (price {} of {})", c.usd, c.source, c.date),
        None => "no price".into(),
    };
    let ttft = x.ttft_ms.map_or("-".into(), |ms| format!("{ms} ms"));
    let mut out = format!(
        "── x-ray step {} · {} · first token {ttft} · {} ms\n   \
         tokens {} in / {} out{est} · tools: {} definitions, {} B of {} B sent (~{} tokens) · {cost}\n",
        x.step,
        x.model,
        x.duration_ms,
        t.input_tokens,
        t.output_tokens,
        t.tool_count,
        t.tool_definition_bytes,
        t.request_bytes,
        t.tool_definition_tokens,
    );
    for e in &x.exchanges {
        let cut = |yes: bool| if yes { " (truncated)" } else { "" };
        out.push_str(&format!("→ attempt {} {} {}\n", e.attempt, e.method, e.url));
        for (k, v) in &e.request_headers {
            out.push_str(&format!("{k}: {v}\n"));
        }
        out.push_str(&format!(
            "\n{}\n── {} B{}\n",
            e.request_body,
            e.request_bytes,
            cut(e.request_truncated)
        ));
        match e.status {
            Some(status) => out.push_str(&format!("← {status} ({} ms)\n", e.duration_ms)),
            None => out.push_str("← no response\n"),
        }
        for (k, v) in &e.response_headers {
            out.push_str(&format!("{k}: {v}\n"));
        }
        out.push_str(&format!(
            "\n{}\n── {} B{}\n",
            e.response_body.trim_end(),
            e.response_bytes,
            cut(e.response_truncated)
        ));
        if let Some(error) = &e.error {
            out.push_str(&format!("✗ {error}\n"));
        }
    }
    out
}
