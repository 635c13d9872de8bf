//! mcplab-otlp: eval iterations and chat turns exported as OpenTelemetry spans over OTLP/HTTP
//! (protobuf), following the GenAI semantic conventions, through the official `opentelemetry`
//! crates on the caller's reqwest client. It never blocks a turn or a run: spans are queued
//! within a byte budget and sent in batches by a task, failures are counted and told once.
//! It reads no environment itself (the OTLP crate honours `OTEL_EXPORTER_OTLP_HEADERS`).
//!
//! # Where things are
//!
//! - `spans.rs`: the mapping, pure — an iteration is `invoke_agent <case>` → `chat <model>` per
//!   turn → `execute_tool <tool>` per call; a chat turn is its `chat <model>` span and its calls.
//! - `exporter.rs`: the queue, the batching task, the timeout and the counters.
//! - `receiver.rs` (feature `test-receiver`): a loopback OTLP/HTTP receiver for tests.

mod exporter;
#[cfg(feature = "test-receiver")]
pub mod receiver;
pub mod spans;

pub use exporter::{ExportReport, Exporter, OtlpError, QUEUE_BYTES, SEND_TIMEOUT, traces_endpoint};
pub use spans::{ChatTurnSpans, IterationSpans, chat_turn_spans, iteration_spans};

impl Exporter {
    /// Queues an eval iteration's spans.
    pub fn iteration(&self, it: &IterationSpans<'_>) {
        self.push(iteration_spans(it));
    }

    /// Queues a chat turn's spans.
    pub fn chat_turn(&self, turn: &ChatTurnSpans<'_>) {
        self.push(chat_turn_spans(turn));
    }
}
