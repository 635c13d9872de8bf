//! X-ray bodies on demand: a session's view as the web loads it carries each step's x-ray
//! figures but not the request and response bodies (they are most of a session's bytes), and
//! one step's whole x-ray is read by session, turn and step when its panel opens. The store
//! and the export keep every body; this only shapes what is sent.

use mcplab_protocol::chat::{SessionView, StoredTurn, TurnEvent};
use mcplab_protocol::xray::StepXray;

use super::hub::{SessionError, SessionHub};

/// `view` without x-ray bodies: each exchange's request and response body emptied and marked
/// `bodiesOmitted` (sizes, headers, tokens and cost stay).
pub fn without_xray_bodies(view: &mut SessionView) {
    for turn in view.turns.iter_mut().chain(view.live_turn.iter_mut()) {
        for event in &mut turn.events {
            if let TurnEvent::StepXray { xray, .. } = event {
                for e in &mut xray.exchanges {
                    e.request_body = String::new();
                    e.response_body = String::new();
                    e.bodies_omitted = true;
                }
            }
        }
    }
}

fn find_step(turn: &StoredTurn, step: u32) -> Option<StepXray> {
    turn.events.iter().rev().find_map(|e| match e {
        TurnEvent::StepXray { xray, .. } if xray.step == step => Some(xray.clone()),
        _ => None,
    })
}

impl SessionHub {
    /// Step `step` of turn `turn_id` (stored, or running now) with its bodies, as recorded.
    pub fn step_xray(&self, id: &str, turn_id: &str, step: u32) -> Result<StepXray, SessionError> {
        let view = self.view(id)?;
        view.turns
            .iter()
            .chain(view.live_turn.iter())
            .filter(|t| t.turn_id == turn_id)
            .find_map(|t| find_step(t, step))
            .ok_or_else(|| {
                SessionError::NotFound(format!("{id}: no x-ray of step {step} in turn {turn_id}"))
            })
    }
}
