//! Chat sessions at the edge: each session has a replayable event stream and at most one
//! running turn. A turn is submitted with a client-chosen id (submitting the same id again is
//! a no-op), runs the core agent loop in a task, streams its events to the session's stream,
//! and is stored (events merged, model messages kept) when it ends, however it ends. Apps
//! rendered in the session keep context for the model here too (in memory, per key, last
//! write wins); every turn starts with the current entries as system messages.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use mcplab_core::agent::{
    Approvals, DEFAULT_APPROVAL_TIMEOUT, DEFAULT_STEP_LIMIT, DEFAULT_SYSTEM_PROMPT, EventSink,
    TurnConfig, app_context_message, run_turn,
};
use mcplab_core::llm::{LlmProvider, Message, ModelRef, ProviderSettings};
use mcplab_protocol::chat::{AppContextEntry, SessionEvent, SessionSummary, StoredTurn, TurnEvent};
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::events::EventRing;

/// Events kept per session for replay.
const SESSION_REPLAY: usize = 5_000;

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// Provider settings from the environment (given by the binary) and the HTTP client they share.
pub struct LlmSettings {
    pub env: ProviderSettings,
    pub http: reqwest::Client,
}

impl LlmSettings {
    pub fn new(env: ProviderSettings) -> Self {
        Self {
            env,
            http: reqwest::Client::builder()
                .build()
                .unwrap_or_else(|_| reqwest::Client::new()),
        }
    }
}

/// The live side of one session.
pub struct SessionRuntime {
    pub events: EventRing,
    /// Tool calls of this session's turns waiting for the user's approval.
    pub approvals: Arc<Approvals>,
    running: Mutex<Option<(String, CancellationToken)>>,
    accepted: Mutex<HashSet<String>>,
    /// The running turn so far (events merged); publishing and recording happen under this
    /// lock, so a snapshot and the stream's sequence number always agree.
    live: Mutex<Option<StoredTurn>>,
    /// App context by key; changed (and published) only while `live` is held, like turns.
    app_context: Mutex<BTreeMap<String, AppContextEntry>>,
}

/// What a session view shows of the live side, consistent with one stream position.
pub struct RuntimeSnapshot {
    pub live_turn: Option<StoredTurn>,
    pub app_context: Vec<AppContextEntry>,
    pub last_event_id: u64,
}

impl SessionRuntime {
    fn new() -> Self {
        Self {
            events: EventRing::with_capacity(SESSION_REPLAY),
            approvals: Arc::new(Approvals::default()),
            running: Mutex::new(None),
            accepted: Mutex::new(HashSet::new()),
            live: Mutex::new(None),
            app_context: Mutex::new(BTreeMap::new()),
        }
    }

    /// The running turn so far, the app context, and the sequence number of the last event
    /// they include.
    pub fn snapshot(&self) -> RuntimeSnapshot {
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        RuntimeSnapshot {
            live_turn: live.clone(),
            app_context: self.app_context(),
            last_event_id: self.events.last_seq(),
        }
    }

    /// The app context entries, sorted by key.
    pub fn app_context(&self) -> Vec<AppContextEntry> {
        let map = self.app_context.lock().unwrap_or_else(|p| p.into_inner());
        map.values().cloned().collect()
    }

    /// Sets (or, with `None`, removes) the entry for `key` and publishes the new set when it
    /// changed. Returns whether it changed.
    pub fn set_app_context(&self, key: &str, entry: Option<AppContextEntry>) -> bool {
        let _live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        let entries = {
            let mut map = self.app_context.lock().unwrap_or_else(|p| p.into_inner());
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

    /// Publishes `event` and records it into the running turn, atomically.
    fn record(&self, event: SessionEvent) {
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        self.events.publish(&event);
        match event {
            SessionEvent::UserMessage { turn_id, text } => {
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

    /// Ends the running turn, returning what was recorded.
    fn finish(&self) -> Option<StoredTurn> {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    pub fn running_turn(&self) -> Option<String> {
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|(t, _)| t.clone())
    }

    /// Cancels `turn_id` if it is the running turn.
    pub fn cancel(&self, turn_id: &str) -> bool {
        match &*self.running.lock().unwrap_or_else(|p| p.into_inner()) {
            Some((t, token)) if t == turn_id => {
                token.cancel();
                true
            }
            _ => false,
        }
    }
}

/// The live side of every open session. With a store, a session's runtime starts with the
/// app context saved for it (what apps gave the model survives a restart).
#[derive(Default)]
pub struct ChatHub {
    sessions: Mutex<HashMap<String, Arc<SessionRuntime>>>,
    store: Option<Arc<mcplab_core::store::Store>>,
}

impl ChatHub {
    pub fn with_store(store: Arc<mcplab_core::store::Store>) -> Self {
        Self {
            sessions: Mutex::default(),
            store: Some(store),
        }
    }

    pub fn runtime(&self, id: &str) -> Arc<SessionRuntime> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(id.to_owned())
            .or_insert_with(|| {
                let rt = SessionRuntime::new();
                let saved = self.store.as_ref().map(|s| s.app_context(id));
                match saved {
                    Some(Ok(entries)) => {
                        let mut map = rt.app_context.lock().unwrap_or_else(|p| p.into_inner());
                        map.extend(entries.into_iter().map(|e| (e.key.clone(), e)));
                    }
                    Some(Err(error)) => {
                        tracing::warn!(%error, session = id, "could not load the session's app context");
                    }
                    None => {}
                }
                Arc::new(rt)
            })
            .clone()
    }

    /// Cancels the running turn and forgets the session (it was deleted).
    pub fn remove(&self, id: &str) {
        let rt = self
            .sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
        if let Some(rt) = rt
            && let Some((_, token)) = &*rt.running.lock().unwrap_or_else(|p| p.into_inner())
        {
            token.cancel();
        }
    }
}

/// Environment settings merged with the providers stored in Settings.
pub fn provider_settings(state: &AppState) -> ProviderSettings {
    let mut settings = state.llm.env.clone();
    if let Ok(list) = state.store.provider_configs() {
        // Invalid stored entries were refused when saved; any left are skipped here.
        let _ = settings.merge_stored(list);
    }
    settings
}

/// The title of a session nobody named yet.
pub const DEFAULT_TITLE: &str = "New chat";

/// The first line of a message, cut to 60 characters at a word boundary.
fn title_from(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if line.chars().count() <= 60 {
        return line.to_owned();
    }
    let cut: String = line.chars().take(60).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

/// Why a turn could not start.
pub enum SubmitError {
    /// Another turn is running.
    Busy(String),
    /// The model cannot be used (bad name, missing key, …).
    Model(String),
}

/// Appends `event`, merging consecutive text or reasoning deltas and dropping the live-only
/// `toolInputPartial` (its `toolCall` follows with the final arguments).
fn merge_into(events: &mut Vec<TurnEvent>, event: TurnEvent) {
    match (events.last_mut(), event) {
        (_, TurnEvent::ToolInputPartial { .. }) => {}
        (Some(TurnEvent::TextDelta { text, .. }), TurnEvent::TextDelta { text: more, .. })
        | (
            Some(TurnEvent::ReasoningDelta { text, .. }),
            TurnEvent::ReasoningDelta { text: more, .. },
        ) => text.push_str(&more),
        (_, e) => events.push(e),
    }
}

/// Sends turn events into the session (stream and running-turn record).
struct SessionSink {
    runtime: Arc<SessionRuntime>,
}

impl EventSink for SessionSink {
    fn emit(&self, event: TurnEvent) {
        self.runtime.record(SessionEvent::Turn { event });
    }
}

/// Starts a turn (or accepts a repeated submission of one as a no-op).
pub fn submit_turn(
    state: &Arc<AppState>,
    session: SessionSummary,
    turn_id: String,
    text: String,
) -> Result<(), SubmitError> {
    let runtime = state.chats.runtime(&session.id);
    {
        let accepted = runtime.accepted.lock().unwrap_or_else(|p| p.into_inner());
        if accepted.contains(&turn_id) {
            return Ok(());
        }
    }
    if state.store.has_turn(&session.id, &turn_id).unwrap_or(false) {
        return Ok(());
    }
    let model =
        ModelRef::parse(&session.settings.model).map_err(|e| SubmitError::Model(e.to_string()))?;
    let provider: Arc<dyn LlmProvider> = provider_settings(state)
        .provider(&model.provider, &state.llm.http)
        .map_err(|e| SubmitError::Model(e.to_string()))?;
    let cancel = CancellationToken::new();
    {
        let mut running = runtime.running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((t, _)) = &*running {
            // A repeated submission of the running turn is accepted; another turn is not.
            return if *t == turn_id {
                Ok(())
            } else {
                Err(SubmitError::Busy(t.clone()))
            };
        }
        *running = Some((turn_id.clone(), cancel.clone()));
        runtime
            .accepted
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(turn_id.clone());
    }
    // A new session is named after its first message.
    if session.title == DEFAULT_TITLE {
        let title = title_from(&text);
        if !title.is_empty() {
            let _ = state
                .store
                .update_session(&session.id, Some(&title), None, now_ms());
        }
    }
    runtime.record(SessionEvent::UserMessage {
        turn_id: turn_id.clone(),
        text: text.clone(),
    });
    let state = state.clone();
    tokio::spawn(async move {
        let history: Vec<Message> = state
            .store
            .turns(&session.id)
            .map(|ts| ts.into_iter().flat_map(|(_, m)| m).collect())
            .unwrap_or_default();
        let s = &session.settings;
        let cfg = TurnConfig {
            turn_id: turn_id.clone(),
            model,
            system_prompt: s
                .system_prompt
                .clone()
                .unwrap_or_else(|| DEFAULT_SYSTEM_PROMPT.into()),
            temperature: s.temperature,
            max_tokens: s.max_tokens,
            step_limit: s.step_limit.unwrap_or(DEFAULT_STEP_LIMIT),
            servers: s.servers.clone(),
            tool_timeout: None,
            approvals: s
                .require_approval
                .unwrap_or(false)
                .then(|| runtime.approvals.clone()),
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            context: runtime
                .app_context()
                .iter()
                .filter_map(app_context_message)
                .collect(),
        };
        let sink = SessionSink {
            runtime: runtime.clone(),
        };
        let outcome = run_turn(
            provider.as_ref(),
            &state.manager,
            &history,
            Message::user(text.clone()),
            &cfg,
            &sink,
            &cancel,
        )
        .await;
        // Stored before the live record is dropped, so a view never misses the turn.
        let turn = runtime.snapshot().live_turn.unwrap_or(StoredTurn {
            turn_id: turn_id.clone(),
            user: text,
            events: Vec::new(),
        });
        if let Err(e) = state
            .store
            .save_turn(&session.id, &turn, &outcome.messages, now_ms())
        {
            tracing::error!(session = %session.id, "could not store a chat turn: {e}");
        }
        runtime.finish();
        *runtime.running.lock().unwrap_or_else(|p| p.into_inner()) = None;
    });
    Ok(())
}

/// A session as Markdown, for export.
pub fn to_markdown(summary: &SessionSummary, turns: &[StoredTurn]) -> String {
    let mut md = format!(
        "# {}\n\nModel: `{}`\n\n",
        summary.title, summary.settings.model
    );
    for t in turns {
        md.push_str(&format!("## You\n\n{}\n\n## Assistant\n\n", t.user));
        for e in &t.events {
            match e {
                TurnEvent::TextDelta { text, .. } => md.push_str(text),
                TurnEvent::ToolCall {
                    server,
                    tool,
                    arguments,
                    ..
                } => {
                    md.push_str(&format!(
                        "\n\n> **Tool call** `{server}/{tool}` `{arguments}`\n"
                    ));
                }
                TurnEvent::ToolResult {
                    is_error,
                    duration_ms,
                    error,
                    ..
                } => {
                    let status = match (is_error, error) {
                        (_, Some(e)) => format!("error: {e}"),
                        (true, None) => "error".into(),
                        (false, None) => "ok".into(),
                    };
                    md.push_str(&format!("> result: {status} ({duration_ms} ms)\n\n"));
                }
                TurnEvent::TurnFailed { kind, message, .. } => {
                    md.push_str(&format!("\n\n**Turn failed ({kind}):** {message}\n"));
                }
                TurnEvent::TurnCancelled { .. } => md.push_str("\n\n*Cancelled.*\n"),
                _ => {}
            }
        }
        md.push_str("\n\n");
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_tool_input_is_live_only() {
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
            TurnEvent::TextDelta {
                turn_id: "t".into(),
                text: "ok".into(),
            },
        );
        assert_eq!(events.len(), 1, "{events:?}");
        assert!(matches!(events[0], TurnEvent::TextDelta { .. }));
    }
}
