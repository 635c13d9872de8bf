//! Tool-call approval: when a turn requires it, each call waits here for the user's decision
//! (allow, possibly with edited arguments, or deny), keyed by turn and call id. The wait ends
//! on a decision, on the timeout (denied) or on cancellation (denied): it always ends.

use std::time::Duration;

use mcplab_protocol::chat::ApprovalDecision;
use tokio_util::sync::CancellationToken;

use mcplab_mcp::pending::{Ended, Pending};

/// Default wait for a decision.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

type Key = (String, String);

#[derive(Default)]
pub struct Approvals {
    pending: Pending<Key, (), ApprovalDecision>,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.pending.len();
        f.debug_struct("Approvals").field("pending", &n).finish()
    }
}

fn key(turn_id: &str, call_id: &str) -> Key {
    (turn_id.to_owned(), call_id.to_owned())
}

impl Approvals {
    /// Delivers a decision; `false` when that call is not waiting.
    pub fn decide(&self, turn_id: &str, call_id: &str, decision: ApprovalDecision) -> bool {
        self.pending
            .answer(&key(turn_id, call_id), decision)
            .is_some()
    }

    /// Whether a call is waiting for a decision.
    pub fn is_pending(&self, turn_id: &str, call_id: &str) -> bool {
        self.pending.contains(&key(turn_id, call_id))
    }

    /// Registers the call; the returned future resolves with the decision.
    pub fn register(
        &self,
        turn_id: &str,
        call_id: &str,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> impl Future<Output = ApprovalDecision> + use<> {
        let waiter = self.pending.add(key(turn_id, call_id), ());
        let cancel = cancel.clone();
        async move {
            let reason = match waiter.wait_or_cancel(timeout, &cancel).await {
                Ended::Answered(decision) => return decision,
                Ended::Withdrawn => "the approval was withdrawn".to_owned(),
                Ended::TimedOut => format!("nobody approved it within {}s", timeout.as_secs()),
                Ended::Cancelled => "the turn was cancelled".to_owned(),
            };
            ApprovalDecision::Deny {
                reason: Some(reason),
            }
        }
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
        assert!(
            !a.is_pending("t", "d"),
            "a timed-out wait leaves nothing behind"
        );

        let wait = a.register("t", "e", Duration::from_secs(5), &cancel);
        cancel.cancel();
        assert!(matches!(wait.await, ApprovalDecision::Deny { .. }));
    }
}
