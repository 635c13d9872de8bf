//! The broker for server-initiated requests that need a person: elicitation and sampling.
//! Each waits, keyed by a broker id, until it is answered, cancelled or times out; the wait
//! always ends. A server may have only so many waiting at once (a flood of dialogs is refused,
//! each with an error naming the limit). Who answers (the terminal, the browser, a policy) is
//! not its concern. The waiting itself is a [`Pending`] registry.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::event_hub::EventHub;
use super::pending::{Ended, Pending};
use mcplab_protocol::{HumanAnswer, HumanOutcome, HumanRequest, HumanRequestKind, ServerEvent};
use serde_json::Value;

/// Default wait for an answer (DESIGN.md: elicitation waits 5 minutes).
pub(crate) const DEFAULT_HUMAN_TIMEOUT: Duration = Duration::from_secs(300);

/// How a wait ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrokerError {
    #[error("nobody answered within {0:?}")]
    TimedOut(Duration),
    #[error("the request was withdrawn")]
    Withdrawn,
    #[error(
        "mcplab refused this request: `{server}` already has {limit} elicitation/sampling \
         requests waiting for an answer (the limit; raise it with --limit pending-human=N)"
    )]
    TooMany { server: String, limit: usize },
}

/// Default for how many requests one server may have waiting.
pub(crate) const DEFAULT_PENDING_PER_SERVER: usize = 16;

pub struct Broker {
    next: AtomicU64,
    per_server: usize,
    pending: Pending<u64, HumanRequest, HumanAnswer>,
    events: EventHub,
}

impl Broker {
    pub fn new(events: EventHub) -> Self {
        Self::with_limit(events, DEFAULT_PENDING_PER_SERVER)
    }

    /// A broker that lets each server have at most `per_server` requests waiting.
    pub fn with_limit(events: EventHub, per_server: usize) -> Self {
        Self {
            next: AtomicU64::new(1),
            per_server: per_server.max(1),
            pending: Pending::default(),
            events,
        }
    }

    /// Publishes a request and waits for its answer.
    pub async fn ask(
        &self,
        server: &str,
        kind: HumanRequestKind,
        params: Value,
        timeout: Duration,
    ) -> Result<HumanAnswer, BrokerError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let request = HumanRequest {
            id,
            server: server.to_owned(),
            kind,
            params,
            timeout_ms: timeout.as_millis() as u64,
        };
        let waiter = self.pending.try_add(id, request.clone(), |waiting| {
            if waiting.filter(|r| r.server == server).count() >= self.per_server {
                return Err(BrokerError::TooMany {
                    server: server.to_owned(),
                    limit: self.per_server,
                });
            }
            Ok(())
        })?;
        self.events.send(ServerEvent::HumanRequested { request });
        let (result, label) = match waiter.wait(timeout).await {
            Ended::Answered(answer) => {
                let label = match &answer {
                    HumanAnswer::Accept { .. } => HumanOutcome::Accept,
                    HumanAnswer::Decline { .. } => HumanOutcome::Decline,
                    HumanAnswer::Cancel => HumanOutcome::Cancel,
                };
                (Ok(answer), label)
            }
            Ended::Withdrawn | Ended::Cancelled => {
                (Err(BrokerError::Withdrawn), HumanOutcome::Cancel)
            }
            Ended::TimedOut => (Err(BrokerError::TimedOut(timeout)), HumanOutcome::Timeout),
        };
        self.events.send(ServerEvent::HumanResolved {
            server: server.to_owned(),
            id,
            outcome: label,
        });
        result
    }

    /// Answers a pending request; `false` if it is no longer pending.
    pub fn answer(&self, id: u64, answer: HumanAnswer) -> bool {
        self.pending.answer(&id, answer).is_some()
    }

    /// Requests still waiting, oldest first.
    pub fn pending(&self) -> Vec<HumanRequest> {
        let mut v = self.pending.requests();
        v.sort_by_key(|r| r.id);
        v
    }

    /// Withdraws every pending request of `server` (it disconnected).
    pub fn withdraw_server(&self, server: &str) {
        self.pending.withdraw(|r| r.server == server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// An elicitation from `server` asked of `broker` in a task, waiting up to a minute.
    fn elicit_in_background(
        broker: &Arc<Broker>,
        server: &'static str,
    ) -> tokio::task::JoinHandle<Result<HumanAnswer, BrokerError>> {
        let b = broker.clone();
        tokio::spawn(async move {
            let kind = HumanRequestKind::Elicitation;
            b.ask(server, kind, Value::Null, Duration::from_secs(60))
                .await
        })
    }

    #[tokio::test]
    async fn answer_reaches_the_waiter() {
        let tx = EventHub::default();
        let mut rx = tx.subscribe();
        let broker = Arc::new(Broker::new(tx));
        let wait = elicit_in_background(&broker, "s");
        let ServerEvent::HumanRequested { request } = rx.recv().await.unwrap() else {
            panic!("expected a request event");
        };
        assert_eq!(broker.pending().len(), 1);
        assert!(broker.answer(request.id, HumanAnswer::Cancel));
        assert_eq!(wait.await.unwrap(), Ok(HumanAnswer::Cancel));
        assert!(broker.pending().is_empty());
        assert!(!broker.answer(request.id, HumanAnswer::Cancel));
    }

    #[tokio::test(start_paused = true)]
    async fn unanswered_request_times_out() {
        let tx = EventHub::default();
        let _rx = tx.subscribe();
        let broker = Broker::new(tx);
        let r = broker
            .ask(
                "s",
                HumanRequestKind::Sampling,
                Value::Null,
                Duration::from_secs(1),
            )
            .await;
        assert_eq!(r, Err(BrokerError::TimedOut(Duration::from_secs(1))));
        assert!(broker.pending().is_empty());
    }

    #[tokio::test]
    async fn a_server_may_have_only_so_many_waiting() {
        let tx = EventHub::default();
        let _rx = tx.subscribe();
        let broker = Arc::new(Broker::with_limit(tx, 2));
        let ask = |server: &'static str| elicit_in_background(&broker, server);
        let waiting = [ask("flood"), ask("flood")];
        while broker.pending().len() < 2 {
            tokio::task::yield_now().await;
        }
        let refused = ask("flood").await.unwrap().unwrap_err();
        assert_eq!(
            refused,
            BrokerError::TooMany {
                server: "flood".into(),
                limit: 2
            }
        );
        assert!(refused.to_string().contains("--limit pending-human"));
        let other = ask("calm");
        while broker.pending().len() < 3 {
            tokio::task::yield_now().await;
        }
        broker.withdraw_server("flood");
        broker.withdraw_server("calm");
        for w in waiting {
            assert_eq!(w.await.unwrap(), Err(BrokerError::Withdrawn));
        }
        assert_eq!(other.await.unwrap(), Err(BrokerError::Withdrawn));
    }

    #[tokio::test]
    async fn withdrawing_ends_the_wait() {
        let tx = EventHub::default();
        let mut rx = tx.subscribe();
        let broker = Arc::new(Broker::new(tx));
        let wait = elicit_in_background(&broker, "s");
        let _ = rx.recv().await.unwrap();
        broker.withdraw_server("s");
        assert_eq!(wait.await.unwrap(), Err(BrokerError::Withdrawn));
    }
}
