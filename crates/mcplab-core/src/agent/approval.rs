//! Tool-call approval: when a turn requires it, each call waits here for the user's decision
//! (allow, possibly with edited arguments, or deny), keyed by turn and call id. The wait ends
//! on a decision, on the timeout (denied) or on cancellation (denied): it always ends.

use std::collections::HashMap;
use std::time::Duration;

use mcplab_protocol::chat::ApprovalDecision;
use parking_lot::Mutex;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// Default wait for a decision.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

type Key = (String, String);

#[derive(Default)]
pub struct Approvals {
    pending: Mutex<HashMap<Key, oneshot::Sender<ApprovalDecision>>>,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.pending.lock().len();
        f.debug_struct("Approvals").field("pending", &n).finish()
    }
}

impl Approvals {
    /// Delivers a decision; `false` when that call is not waiting.
    pub fn decide(&self, turn_id: &str, call_id: &str, decision: ApprovalDecision) -> bool {
        match self
            .pending
            .lock()
            .remove(&(turn_id.to_owned(), call_id.to_owned()))
        {
            Some(tx) => tx.send(decision).is_ok(),
            None => false,
        }
    }

    /// Whether a call is waiting for a decision.
    pub fn is_pending(&self, turn_id: &str, call_id: &str) -> bool {
        self.pending
            .lock()
            .contains_key(&(turn_id.to_owned(), call_id.to_owned()))
    }

    /// Registers the call; the returned future resolves with the decision.
    pub fn register(
        &self,
        turn_id: &str,
        call_id: &str,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> impl Future<Output = ApprovalDecision> + use<> {
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .insert((turn_id.to_owned(), call_id.to_owned()), tx);
        let cancel = cancel.clone();
        async move {
            tokio::select! {
                d = rx => d.unwrap_or(ApprovalDecision::Deny { reason: Some("the approval was withdrawn".into()) }),
                _ = tokio::time::sleep(timeout) => ApprovalDecision::Deny {
                    reason: Some(format!("nobody approved it within {}s", timeout.as_secs())),
                },
                _ = cancel.cancelled() => ApprovalDecision::Deny { reason: Some("the turn was cancelled".into()) },
            }
        }
    }

    /// Forgets a call (after its wait ended).
    pub fn forget(&self, turn_id: &str, call_id: &str) {
        self.pending
            .lock()
            .remove(&(turn_id.to_owned(), call_id.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn decisions_timeouts_and_cancellation() {
        let a = Approvals::default();
        let cancel = CancellationToken::new();
        let wait = a.register("t", "c", Duration::from_secs(5), &cancel);
        assert!(a.is_pending("t", "c"));
        assert!(a.decide("t", "c", ApprovalDecision::Allow { arguments: None }));
        assert_eq!(wait.await, ApprovalDecision::Allow { arguments: None });
        assert!(!a.decide("t", "c", ApprovalDecision::Allow { arguments: None }));

        let wait = a.register("t", "d", Duration::from_millis(20), &cancel);
        assert!(matches!(wait.await, ApprovalDecision::Deny { .. }));
        a.forget("t", "d");

        let wait = a.register("t", "e", Duration::from_secs(5), &cancel);
        cancel.cancel();
        assert!(matches!(wait.await, ApprovalDecision::Deny { .. }));
    }
}
