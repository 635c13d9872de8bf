//! Running an iteration's user turns, one after the other, through the session runtime's
//! [`HostTurn`] — the HostConfig and turn loop the chat uses — with nobody attending (no
//! approval waits, `ask` elicitation declines), under the iteration's deadline (which stands
//! still while a rate limit is waited out). Each turn's
//! events are collected (deltas joined, live-only events dropped, bounded) with its clocks,
//! and become the evals crate's `TurnTrace`. A turn that does not finish ends the iteration.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcplab_core::agent::EventSink;
use mcplab_core::session::{Attendance, HostTurn};
use mcplab_evals::trace::{TurnEnd, TurnTiming, TurnTrace};
use mcplab_llm::{Message, ModelRef};
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::chat::TurnEvent;
use mcplab_protocol::host::HostConfig;
use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use crate::deadline::Deadline;
use crate::observe::ObservedProvider;

/// How long a turn gets to wind down after its deadline cancelled it.
const WIND_DOWN: Duration = Duration::from_secs(5);
/// Events kept per turn; past this only the terminal event is kept.
const MAX_EVENTS: usize = 20_000;
/// Text kept per turn (answer, reasoning), in bytes.
const MAX_TEXT: usize = 4 << 20;

/// One turn as it ran.
#[derive(Debug, Clone)]
pub(crate) struct TurnRun {
    pub user: String,
    pub events: Vec<TurnEvent>,
    pub timing: TurnTiming,
    pub timed_out: bool,
}

impl TurnRun {
    pub(crate) fn trace(&self) -> TurnTrace {
        let mut t = mcplab_evals::trace::turn_from_events(&self.user, &self.events, self.timing);
        if self.timed_out {
            t.end = TurnEnd::TimedOut;
        }
        t
    }
}

/// The run was cancelled: the iteration did not finish and is not kept.
#[derive(Debug)]
pub(crate) struct Cancelled;

/// What an iteration's turns need.
pub(crate) struct Turns<'a> {
    pub host: &'a HostConfig,
    pub model: &'a ModelRef,
    /// Prefix of the turn ids (`<case>/<model>/<n>`), for logs.
    pub tag: String,
    pub provider: &'a Arc<ObservedProvider>,
    pub manager: &'a ConnectionManager,
    /// The iteration's deadline (paused while the provider's rate limits are waited out).
    pub deadline: &'a Deadline,
}

impl Turns<'_> {
    /// Runs `texts` in order until one does not finish, the deadline passes or `cancel` fires.
    pub(crate) async fn run(
        &self,
        texts: &[String],
        cancel: &CancellationToken,
    ) -> Result<Vec<TurnRun>, Cancelled> {
        let mut history: Vec<Message> = Vec::new();
        let mut runs = Vec::new();
        for text in texts {
            if !self.one(text, &mut runs, &mut history, cancel).await? {
                break;
            }
        }
        Ok(runs)
    }

    /// Runs the next turn of a conversation (`runs` so far, `history` the model's messages),
    /// adding it to `runs`; `false` when the conversation cannot go on (the turn did not
    /// finish or the deadline passed).
    pub(crate) async fn one(
        &self,
        text: &str,
        runs: &mut Vec<TurnRun>,
        history: &mut Vec<Message>,
        cancel: &CancellationToken,
    ) -> Result<bool, Cancelled> {
        let turn = HostTurn {
            host: self.host,
            turn_id: format!("{}/{}", self.tag, runs.len() + 1),
            model: self.model.clone(),
            attendance: Attendance::Unattended,
            context: Vec::new(),
            // Steps by the shipped table; the iteration's cost uses the run's own table.
            prices: None,
        };
        let sink = Collect::default();
        let started = Instant::now();
        let llm_before = self.provider.llm_time();
        let turn_cancel = cancel.child_token();
        let (outcome, timed_out) = {
            let provider: &ObservedProvider = self.provider;
            let fut = turn.run(
                provider,
                self.manager,
                history,
                text.to_owned(),
                &sink,
                &turn_cancel,
            );
            tokio::pin!(fut);
            tokio::select! {
                o = &mut fut => (Some(o), false),
                _ = self.deadline.passed() => {
                    turn_cancel.cancel();
                    (tokio::time::timeout(WIND_DOWN, &mut fut).await.ok(), true)
                }
            }
        };
        if cancel.is_cancelled() {
            return Err(Cancelled);
        }
        let timing = TurnTiming {
            latency_ms: started.elapsed().as_millis() as u64,
            llm_ms: self
                .provider
                .llm_time()
                .saturating_sub(llm_before)
                .as_millis() as u64,
        };
        let finished = matches!(
            outcome.as_ref().map(|o| &o.terminal),
            Some(TurnEvent::TurnFinished { .. })
        );
        runs.push(TurnRun {
            user: text.to_owned(),
            events: sink.take(),
            timing,
            timed_out,
        });
        match outcome {
            Some(o) if finished && !timed_out => {
                history.extend(o.messages);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

/// Collects a turn's events as the store keeps them: text and reasoning deltas joined,
/// partial tool input and progress dropped, bounded in events and text.
#[derive(Default)]
pub(crate) struct Collect {
    state: Mutex<(Vec<TurnEvent>, usize)>,
}

impl Collect {
    pub(crate) fn take(&self) -> Vec<TurnEvent> {
        std::mem::take(&mut self.state.lock().0)
    }
}

impl EventSink for Collect {
    fn emit(&self, event: TurnEvent) {
        let mut guard = self.state.lock();
        let (events, text) = &mut *guard;
        let full = events.len() >= MAX_EVENTS;
        let terminal = matches!(
            event,
            TurnEvent::TurnFinished { .. }
                | TurnEvent::TurnFailed { .. }
                | TurnEvent::TurnCancelled { .. }
        );
        // Not collapsed into a guard: an over-limit delta must be dropped, not fall through
        // to the push arm.
        #[allow(clippy::collapsible_match)]
        match (events.last_mut(), event) {
            (_, TurnEvent::ToolInputPartial { .. } | TurnEvent::ToolProgress { .. }) => {}
            (
                Some(TurnEvent::TextDelta { text: t, .. }),
                TurnEvent::TextDelta { text: more, .. },
            )
            | (
                Some(TurnEvent::ReasoningDelta { text: t, .. }),
                TurnEvent::ReasoningDelta { text: more, .. },
            ) => {
                if *text + more.len() <= MAX_TEXT {
                    *text += more.len();
                    t.push_str(&more);
                }
            }
            (_, e) if terminal || !full => events.push(e),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_join_and_live_only_events_are_dropped() {
        let sink = Collect::default();
        let t = |s: &str| TurnEvent::TextDelta {
            turn_id: "t".into(),
            text: s.into(),
        };
        sink.emit(t("a"));
        sink.emit(TurnEvent::ToolProgress {
            turn_id: "t".into(),
            call_id: "c".into(),
            progress: 1.0,
            total: None,
            message: None,
        });
        sink.emit(t("b"));
        let events = sink.take();
        assert_eq!(events, [t("ab")]);
    }
}
