//! When things happened in a turn, for the comparison and the x-ray: the turn's clock (its
//! duration and its first token), and per step when it started, when its first token came,
//! how long it took and how much it streamed, turned into the step's `stepXray` with what its
//! [`Capture`] recorded. It measures; it never decides how a turn goes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use mcplab_protocol::chat::TurnEvent;
use mcplab_protocol::xray::StepXray;

use super::cost::step_cost;
use super::turn::TurnConfig;
use mcplab_llm::xray::{Capture, step_tokens};
use mcplab_llm::{StreamEvent, Usage};

/// A turn's clock.
pub(super) struct TurnClock {
    started: Instant,
    /// Milliseconds after the start when the first token arrived; `u64::MAX` until then.
    first_token: AtomicU64,
}

impl TurnClock {
    pub(super) fn start() -> Self {
        Self {
            started: Instant::now(),
            first_token: AtomicU64::new(u64::MAX),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Notes the step's first token as the turn's, if it is the first.
    pub(super) fn saw_first_token(&self, step: &StepWatch) {
        if let Some(ttft) = step.ttft_ms() {
            let at = step.started_ms + ttft;
            let _ = self.first_token.fetch_min(at, Ordering::Relaxed);
        }
    }

    /// The `turnTiming` event, sent right before the terminal one.
    pub(super) fn timing(&self, turn_id: &str) -> TurnEvent {
        let first = self.first_token.load(Ordering::Relaxed);
        TurnEvent::TurnTiming {
            turn_id: turn_id.to_owned(),
            duration_ms: self.elapsed_ms(),
            ttft_ms: (first != u64::MAX).then_some(first),
        }
    }
}

/// One step while it streams.
pub(super) struct StepWatch {
    step: u32,
    started: Instant,
    /// Milliseconds after the turn started.
    started_ms: u64,
    first: Option<u64>,
    output_bytes: usize,
    tool_count: usize,
}

impl StepWatch {
    pub(super) fn start(clock: &TurnClock, step: u32, tool_count: usize) -> Self {
        Self {
            step,
            started: Instant::now(),
            started_ms: clock.elapsed_ms(),
            first: None,
            output_bytes: 0,
            tool_count,
        }
    }

    fn ttft_ms(&self) -> Option<u64> {
        self.first
    }

    /// Notes a streamed event: the first token's time, and the bytes the model wrote.
    pub(super) fn saw(&mut self, event: &StreamEvent) {
        let bytes = match event {
            StreamEvent::TextDelta(t) | StreamEvent::ReasoningDelta(t) => t.len(),
            StreamEvent::ToolCall { arguments, .. } => arguments.to_string().len(),
            StreamEvent::ToolCallPartial { .. } => 0,
            StreamEvent::Finish { .. } => return,
        };
        if self.first.is_none() {
            self.first = Some(self.started.elapsed().as_millis() as u64);
        }
        self.output_bytes += bytes;
    }

    /// The step's x-ray: `None` for a step that failed before anything reached the network.
    pub(super) fn xray(
        &self,
        cfg: &TurnConfig,
        usage: &Usage,
        capture: &Capture,
        finished: bool,
    ) -> Option<StepXray> {
        let exchanges = capture.exchanges();
        if exchanges.is_empty() && !finished {
            return None;
        }
        let model = cfg.model.to_string();
        let tokens = step_tokens(usage, &exchanges, self.tool_count, self.output_bytes);
        Some(StepXray {
            step: self.step,
            cost: step_cost(&cfg.prices, &model, &tokens),
            model,
            started_ms: self.started_ms,
            ttft_ms: self.first,
            duration_ms: self.started.elapsed().as_millis() as u64,
            tokens,
            exchanges,
        })
    }
}

pub(super) fn step_xray(turn_id: &str, xray: StepXray) -> TurnEvent {
    TurnEvent::StepXray {
        turn_id: turn_id.to_owned(),
        xray,
    }
}
