//! Running a session's turns: submit is idempotent on the client-chosen turn id (a repeat is a
//! no-op, also after the turn ended), at most one turn runs per session, the turn runs under
//! the session's HostConfig with the conversation so far (the model messages stored with
//! earlier turns), its events go to the session's stream and running record, and it is
//! stored when it ends, however it ends. A retry names the turn it replaces: the model does
//! not see that turn, and the store swaps it for the new one in one transaction.

use std::sync::Arc;

use mcplab_protocol::chat::{SessionEvent, StoredTurn, TurnEvent, TurnRequest};
use tokio::task::JoinHandle;

use super::host_turn::{Attendance, HostTurn};
use super::hub::{DEFAULT_TITLE, SessionError, SessionHub};
use super::runtime::{Claim, SessionSink};
use crate::agent::{EventSink, app_context_message};
use mcplab_llm::Message;
use mcplab_protocol::clock::now_ms;

/// What a submit did.
pub enum Submitted {
    /// The turn runs; await its end with [`TurnTask::finished`].
    Started(TurnTask),
    /// That turn id was accepted before: nothing new runs.
    Duplicate,
}

/// Hears about each chat turn once it ended and was stored, however it ended (the OTLP
/// export). Called on the turn's task: it must not wait.
pub trait TurnObserver: Send + Sync {
    fn turn_ended(&self, turn: &EndedTurn<'_>);
}

/// A chat turn that ended.
pub struct EndedTurn<'a> {
    pub session_id: &'a str,
    /// `provider::model`.
    pub model: &'a str,
    /// Its user message and every event, the terminal one last.
    pub turn: &'a StoredTurn,
    /// Wall time from submit to end.
    pub elapsed: std::time::Duration,
    /// What its tokens cost, when the model has a price.
    pub cost_usd: Option<f64>,
}

/// A running turn.
pub struct TurnTask {
    handle: JoinHandle<TurnEvent>,
}

impl TurnTask {
    /// The turn's terminal event, once it is stored; `None` if its task died.
    pub async fn finished(self) -> Option<TurnEvent> {
        self.handle.await.ok()
    }
}

impl SessionHub {
    /// Starts the turn `req` in session `id` (or accepts a repeated submission of it as a
    /// no-op). `observer` also gets every event of the turn, in order (the CLI's printer).
    pub fn submit(
        self: &Arc<Self>,
        id: &str,
        req: TurnRequest,
        observer: Option<Arc<dyn EventSink>>,
    ) -> Result<Submitted, SessionError> {
        if req.turn_id.trim().is_empty() || req.message.trim().is_empty() {
            return Err(SessionError::Invalid(
                "a turn needs a turnId and a message".into(),
            ));
        }
        let session = self.summary(id)?;
        let runtime = self.runtime(id);
        if self.store.has_turn(id, &req.turn_id)? {
            return Ok(Submitted::Duplicate);
        }
        let host = session.host_config.clone();
        if host.model.is_empty() {
            return Err(SessionError::Model(
                "this session has no model yet: choose one (provider::model)".into(),
            ));
        }
        let (model, provider) = self.provider_for(&host.model)?;
        let replaces = self.replaced_turn(id, req.replaces.as_deref())?;
        let cancel = match runtime.claim(&req.turn_id, replaces.clone()) {
            Claim::Start(cancel) => cancel,
            Claim::Duplicate => return Ok(Submitted::Duplicate),
            Claim::Busy(running) => return Err(SessionError::Busy(running)),
        };
        if session.title == DEFAULT_TITLE {
            let title = title_from(&req.message);
            if !title.is_empty()
                && let Err(error) = self.store.update_session(id, Some(&title), None, now_ms())
            {
                tracing::warn!(%error, session = id, "could not name the session");
            }
        }
        runtime.record(SessionEvent::UserMessage {
            turn_id: req.turn_id.clone(),
            text: req.message.clone(),
            replaces: replaces.clone(),
        });
        let hub = self.clone();
        let id = id.to_owned();
        let started = std::time::Instant::now();
        let handle = tokio::spawn(async move {
            let history = hub.history(&id, replaces.as_deref());
            let turn = HostTurn {
                host: &host,
                turn_id: req.turn_id.clone(),
                model,
                attendance: Attendance::Person(runtime.approvals.clone()),
                context: runtime
                    .app_context()
                    .iter()
                    .filter_map(app_context_message)
                    .collect(),
                prices: Some(hub.prices()),
            };
            let sink = SessionSink {
                runtime: runtime.clone(),
                observer,
            };
            let outcome = turn
                .run(
                    provider.as_ref(),
                    &hub.manager,
                    &history,
                    req.message.clone(),
                    &sink,
                    &cancel,
                )
                .await;
            // Stored before the live record is dropped, so a view never misses the turn.
            let turn = runtime.live_turn().unwrap_or(StoredTurn {
                turn_id: req.turn_id,
                user: req.message,
                events: vec![outcome.terminal.clone()],
            });
            let saved =
                hub.store
                    .save_turn(&id, &turn, &outcome.messages, replaces.as_deref(), now_ms());
            if let Err(e) = saved {
                tracing::error!(session = %id, "could not store a chat turn: {e}");
            }
            if let Some(observer) = hub.turn_observer() {
                observer.turn_ended(&EndedTurn {
                    session_id: &id,
                    model: &host.model,
                    turn: &turn,
                    elapsed: started.elapsed(),
                    cost_usd: hub
                        .prices()
                        .cost(&host.model, &usage_of(&outcome.terminal), 0),
                });
            }
            runtime.finish();
            outcome.terminal
        });
        Ok(Submitted::Started(TurnTask { handle }))
    }

    /// Cancels `turn_id` of session `id` if it is running.
    pub fn cancel(&self, id: &str, turn_id: &str) -> bool {
        self.runtime(id).cancel(turn_id)
    }

    /// Delivers an approval decision; `false` when that call is not waiting.
    pub fn approve(
        &self,
        id: &str,
        turn_id: &str,
        call_id: &str,
        decision: mcplab_protocol::chat::ApprovalDecision,
    ) -> bool {
        self.runtime(id)
            .approvals
            .decide(turn_id, call_id, decision)
    }

    /// The stored turn a retry replaces: it must be the session's last; a turn that was never
    /// stored (its submit failed) leaves nothing to replace.
    fn replaced_turn(
        &self,
        id: &str,
        replaces: Option<&str>,
    ) -> Result<Option<String>, SessionError> {
        let Some(old) = replaces else {
            return Ok(None);
        };
        let turns = self.store.turns::<Message>(id)?;
        match turns.iter().position(|(t, _)| t.turn_id == old) {
            None => Ok(None),
            Some(i) if i + 1 == turns.len() => Ok(Some(old.to_owned())),
            Some(_) => Err(SessionError::Conflict(format!(
                "turn {old} is not the session's last turn; only the last turn can be retried"
            ))),
        }
    }

    /// The model messages of the stored turns, without the one being replaced.
    fn history(&self, id: &str, replaces: Option<&str>) -> Vec<Message> {
        match self.store.turns(id) {
            Ok(turns) => turns
                .into_iter()
                .filter(|(t, _)| Some(t.turn_id.as_str()) != replaces)
                .flat_map(|(_, m)| m)
                .collect(),
            Err(error) => {
                tracing::error!(%error, session = id, "could not read the conversation");
                Vec::new()
            }
        }
    }
}

/// The tokens a terminal event reports.
fn usage_of(terminal: &TurnEvent) -> mcplab_protocol::chat::TokenUsage {
    match terminal {
        TurnEvent::TurnFinished { usage, .. }
        | TurnEvent::TurnFailed { usage, .. }
        | TurnEvent::TurnCancelled { usage, .. } => usage.clone(),
        _ => Default::default(),
    }
}

/// The first line of a message, cut to 60 characters at a word boundary.
pub fn title_from(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_the_first_line_cut_at_a_word() {
        assert_eq!(title_from("\n  add 2 and 3 \nmore"), "add 2 and 3");
        let long = "word ".repeat(20);
        let t = title_from(&long);
        assert!(t.ends_with('…') && t.chars().count() <= 61, "{t}");
        assert!(!t.contains("wor…"), "cut at a word boundary: {t}");
    }
}
