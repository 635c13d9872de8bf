//! One turn under a HostConfig: the HostConfig becomes the turn loop's configuration and the
//! turn runs with the conversation so far. `SessionHub::submit` runs every chat turn through
//! here, and the eval runner runs every user turn of an iteration through here, so an eval
//! sees exactly what the chat sees. It stores nothing and publishes nothing itself: the
//! caller's sink gets the events and the caller keeps the messages.

use std::sync::Arc;

use mcplab_llm::prices::PriceTable;
use mcplab_protocol::host::{ElicitationMode, HostConfig};
use tokio_util::sync::CancellationToken;

use crate::agent::{Approvals, EventSink, TurnConfig, TurnOutcome, run_turn};
use mcplab_llm::{LlmProvider, Message, ModelRef};
use mcplab_mcp::ConnectionManager;

/// Who answers what the host would ask a person.
#[derive(Clone)]
pub enum Attendance {
    /// A person: tool calls wait in `approvals` when the host asks before each call, and
    /// elicitations under the `ask` policy are left to them.
    Person(Arc<Approvals>),
    /// Nobody (an eval run): a host that asks before each call runs the call as if allowed,
    /// and an `ask` elicitation policy declines, instead of waiting out a timeout.
    Unattended,
}

/// What a turn needs besides the HostConfig.
pub struct HostTurn<'a> {
    pub host: &'a HostConfig,
    pub turn_id: String,
    /// The model to call (usually `host.model`; an eval names one per iteration).
    pub model: ModelRef,
    pub attendance: Attendance,
    /// Extra system messages (app context).
    pub context: Vec<String>,
    /// The price table steps are costed with (`None`: the shipped one).
    pub prices: Option<Arc<PriceTable>>,
}

impl HostTurn<'_> {
    /// The turn loop's configuration for this turn.
    pub fn config(&self) -> TurnConfig {
        let approvals = match &self.attendance {
            Attendance::Person(a) => a.clone(),
            Attendance::Unattended => Arc::new(Approvals::default()),
        };
        let mut cfg = TurnConfig::from_host(
            self.host,
            self.turn_id.clone(),
            self.model.clone(),
            approvals,
        );
        if matches!(self.attendance, Attendance::Unattended) {
            cfg.approvals = None;
            if cfg.elicitation == ElicitationMode::Ask {
                cfg.elicitation = ElicitationMode::Decline;
            }
        }
        cfg.context = self.context.clone();
        if let Some(prices) = &self.prices {
            cfg.prices = prices.clone();
        }
        cfg
    }

    /// Runs the turn: `history` is the conversation so far, `user` the new message.
    pub async fn run(
        &self,
        provider: &dyn LlmProvider,
        manager: &ConnectionManager,
        history: &[Message],
        user: String,
        sink: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> TurnOutcome {
        let cfg = self.config();
        run_turn(
            provider,
            manager,
            history,
            Message::user(user),
            &cfg,
            sink,
            cancel,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::host::ApprovalMode;

    #[test]
    fn unattended_turns_neither_wait_for_approval_nor_ask() {
        let mut host = HostConfig::default();
        host.approval.mode = ApprovalMode::Always;
        host.elicitation.mode = ElicitationMode::Ask;
        let model = ModelRef::parse("openai::m").unwrap();
        let config = |host: &HostConfig, attendance| {
            HostTurn {
                host,
                turn_id: "t".into(),
                model: model.clone(),
                attendance,
                context: vec!["ctx".into()],
                prices: None,
            }
            .config()
        };
        let person = config(&host, Attendance::Person(Arc::new(Approvals::default())));
        assert!(person.approvals.is_some());
        assert_eq!(person.elicitation, ElicitationMode::Ask);
        assert_eq!(person.context, ["ctx"]);
        let nobody = config(&host, Attendance::Unattended);
        assert!(nobody.approvals.is_none());
        assert_eq!(nobody.elicitation, ElicitationMode::Decline);
        host.elicitation.mode = ElicitationMode::AcceptDefaults;
        let nobody = config(&host, Attendance::Unattended);
        assert_eq!(nobody.elicitation, ElicitationMode::AcceptDefaults);
    }
}
