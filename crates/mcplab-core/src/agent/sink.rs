//! Where turn events go. SSE, the terminal printer, `--json` and test recorders implement
//! [`EventSink`]; the loop emits into it and never waits on it.

use mcplab_protocol::chat::TurnEvent;
use parking_lot::Mutex;

pub trait EventSink: Send + Sync {
    fn emit(&self, event: TurnEvent);
}

/// Keeps every event (tests, and the store's transcript).
#[derive(Default)]
pub struct RecordingSink {
    events: Mutex<Vec<TurnEvent>>,
}

impl RecordingSink {
    pub fn events(&self) -> Vec<TurnEvent> {
        self.events.lock().clone()
    }
}

impl EventSink for RecordingSink {
    fn emit(&self, event: TurnEvent) {
        self.events.lock().push(event);
    }
}
