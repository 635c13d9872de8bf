//! The live side of one session: its replayable event stream, the one running turn (with its
//! cancel token and the turn it replaces, when it is a retry), the turn ids already accepted
//! (so a repeated submit is a no-op), the running turn's record so far, the tool calls
//! waiting for approval, and what apps gave the model (per key, last write wins). Publishing
//! and recording happen under one lock, so a snapshot and the stream position always agree.
//! It holds no store and runs no turns: [`super::SessionHub`] does.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use mcplab_protocol::chat::{AppContextEntry, SessionEvent, StoredTurn, TurnEvent};
use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use crate::agent::{Approvals, EventSink};
use crate::ring::EventRing;

/// Events kept for replay per session.
pub const REPLAY_EVENTS: usize = 5_000;
/// Bytes (of serialized events) kept for replay per session.
pub const REPLAY_BYTES: usize = 4 << 20;

/// The running turn.
struct Running {
    turn_id: String,
    cancel: CancellationToken,
    replaces: Option<String>,
}

pub struct SessionRuntime {
    pub events: EventRing,
    /// Tool calls of this session's turns waiting for the user's approval.
    pub approvals: Arc<Approvals>,
    running: Mutex<Option<Running>>,
    accepted: Mutex<HashSet<String>>,
    live: Mutex<Option<StoredTurn>>,
    /// Changed (and published) only while `live` is held, like turns.
    app_context: Mutex<BTreeMap<String, AppContextEntry>>,
}

/// What a session view shows of the live side, consistent with one stream position.
pub struct RuntimeSnapshot {
    pub live_turn: Option<StoredTurn>,
    /// The stored turn the running one replaces (hidden from views until it is replaced).
    pub replacing: Option<String>,
    pub app_context: Vec<AppContextEntry>,
    pub last_event_id: u64,
}

/// What a submit may do.
#[derive(Debug, Clone)]
pub(super) enum Claim {
    /// The turn may start: it now is the running one.
    Start(CancellationToken),
    /// This turn id was accepted before (or is running): nothing to do.
    Duplicate,
    /// Another turn is running.
    Busy(String),
}

impl SessionRuntime {
    pub(super) fn new(app_context: Vec<AppContextEntry>) -> Self {
        Self {
            events: EventRing::with_limits(REPLAY_EVENTS, REPLAY_BYTES),
            approvals: Arc::new(Approvals::default()),
            running: Mutex::new(None),
            accepted: Mutex::new(HashSet::new()),
            live: Mutex::new(None),
            app_context: Mutex::new(
                app_context
                    .into_iter()
                    .map(|e| (e.key.clone(), e))
                    .collect(),
            ),
        }
    }

    /// The running turn so far, the app context, and the sequence number of the last event
    /// they include.
    pub fn snapshot(&self) -> RuntimeSnapshot {
        let live = self.live.lock();
        RuntimeSnapshot {
            live_turn: live.clone(),
            replacing: self
                .running
                .lock()
                .as_ref()
                .and_then(|r| r.replaces.clone()),
            app_context: self.app_context(),
            last_event_id: self.events.last_seq(),
        }
    }

    /// The app context entries, sorted by key.
    pub fn app_context(&self) -> Vec<AppContextEntry> {
        self.app_context.lock().values().cloned().collect()
    }

    /// Sets (or, with `None`, removes) the entry for `key` and publishes the new set when it
    /// changed. Returns whether it changed.
    pub fn set_app_context(&self, key: &str, entry: Option<AppContextEntry>) -> bool {
        let _live = self.live.lock();
        let entries = {
            let mut map = self.app_context.lock();
            let changed = match entry {
                Some(e) => {
                    map.insert(key.to_owned(), e);
                    true
                }
                None => map.remove(key).is_some(),
            };
            if !changed {
                return false;
            }
            map.values().cloned().collect()
        };
        self.events.publish(&SessionEvent::AppContext { entries });
        true
    }

    /// Makes `turn_id` the running turn unless it was accepted before or another one runs.
    pub(super) fn claim(&self, turn_id: &str, replaces: Option<String>) -> Claim {
        let mut running = self.running.lock();
        if let Some(r) = &*running {
            // A repeated submission of the running turn is accepted; another turn is not.
            return if r.turn_id == turn_id {
                Claim::Duplicate
            } else {
                Claim::Busy(r.turn_id.clone())
            };
        }
        if !self.accepted.lock().insert(turn_id.to_owned()) {
            return Claim::Duplicate;
        }
        let cancel = CancellationToken::new();
        *running = Some(Running {
            turn_id: turn_id.to_owned(),
            cancel: cancel.clone(),
            replaces,
        });
        Claim::Start(cancel)
    }

    /// Publishes `event` and records it into the running turn, atomically.
    pub(super) fn record(&self, event: SessionEvent) {
        let mut live = self.live.lock();
        self.events.publish(&event);
        match event {
            SessionEvent::UserMessage { turn_id, text, .. } => {
                *live = Some(StoredTurn {
                    turn_id,
                    user: text,
                    events: Vec::new(),
                });
            }
            SessionEvent::Turn { event } => {
                if let Some(turn) = live.as_mut() {
                    merge_into(&mut turn.events, event);
                }
            }
            SessionEvent::AppContext { .. } | SessionEvent::Resync => {}
        }
    }

    /// The running turn's record so far.
    pub(super) fn live_turn(&self) -> Option<StoredTurn> {
        self.live.lock().clone()
    }

    /// Ends the running turn (after it was stored).
    pub(super) fn finish(&self) {
        *self.live.lock() = None;
        *self.running.lock() = None;
    }

    pub fn running_turn(&self) -> Option<String> {
        self.running.lock().as_ref().map(|r| r.turn_id.clone())
    }

    /// Cancels `turn_id` if it is the running turn.
    pub fn cancel(&self, turn_id: &str) -> bool {
        match &*self.running.lock() {
            Some(r) if r.turn_id == turn_id => {
                r.cancel.cancel();
                true
            }
            _ => false,
        }
    }

    /// Cancels whatever runs (the session was deleted).
    pub(super) fn cancel_any(&self) {
        if let Some(r) = &*self.running.lock() {
            r.cancel.cancel();
        }
    }
}

/// Appends `event`, merging consecutive text or reasoning deltas and dropping the live-only
/// `toolInputPartial` and `toolProgress` (the `toolCall` and `toolResult` that follow hold
/// what is kept).
fn merge_into(events: &mut Vec<TurnEvent>, event: TurnEvent) {
    match (events.last_mut(), event) {
        (_, TurnEvent::ToolInputPartial { .. } | TurnEvent::ToolProgress { .. }) => {}
        (Some(TurnEvent::TextDelta { text, .. }), TurnEvent::TextDelta { text: more, .. })
        | (
            Some(TurnEvent::ReasoningDelta { text, .. }),
            TurnEvent::ReasoningDelta { text: more, .. },
        ) => text.push_str(&more),
        (_, e) => events.push(e),
    }
}

/// Sends turn events into the session (stream and running-turn record), and to an extra
/// observer (the CLI's printer) when there is one.
pub(super) struct SessionSink {
    pub runtime: Arc<SessionRuntime>,
    pub observer: Option<Arc<dyn EventSink>>,
}

impl EventSink for SessionSink {
    fn emit(&self, event: TurnEvent) {
        if let Some(o) = &self.observer {
            o.emit(event.clone());
        }
        self.runtime.record(SessionEvent::Turn { event });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_only_events_are_not_kept() {
        let mut events = Vec::new();
        for text in ["{", "{\"a\":1}"] {
            merge_into(
                &mut events,
                TurnEvent::ToolInputPartial {
                    turn_id: "t".into(),
                    call_id: "c".into(),
                    name: "demo__echo".into(),
                    server: "demo".into(),
                    tool: "echo".into(),
                    arguments_text: text.into(),
                },
            );
        }
        merge_into(
            &mut events,
            TurnEvent::ToolProgress {
                turn_id: "t".into(),
                call_id: "c".into(),
                progress: 1.0,
                total: Some(3.0),
                message: None,
            },
        );
        for text in ["o", "k"] {
            merge_into(
                &mut events,
                TurnEvent::TextDelta {
                    turn_id: "t".into(),
                    text: text.into(),
                },
            );
        }
        assert_eq!(
            events,
            [TurnEvent::TextDelta {
                turn_id: "t".into(),
                text: "ok".into()
            }]
        );
    }

    #[test]
    fn one_running_turn_and_idempotent_claims() {
        let rt = SessionRuntime::new(Vec::new());
        assert!(matches!(rt.claim("a", None), Claim::Start(_)));
        assert!(matches!(rt.claim("a", None), Claim::Duplicate));
        assert!(matches!(rt.claim("b", None), Claim::Busy(a) if a == "a"));
        rt.finish();
        assert!(
            matches!(rt.claim("a", None), Claim::Duplicate),
            "a ran already"
        );
        assert!(matches!(rt.claim("b", Some("a".into())), Claim::Start(_)));
        assert_eq!(rt.snapshot().replacing.as_deref(), Some("a"));
    }
}
