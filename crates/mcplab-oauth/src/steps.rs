//! The record of one flow: an ordered list of [`OAuthStep`]s, numbered as they are pushed and
//! handed at once to every sink (the debugger's event stream, the CLI printer, a connection's
//! traffic notes). Steps hold only masked values: the code that builds them masks first.

use std::sync::Arc;

use mcplab_protocol::oauth::{OAuthParty, OAuthPhase, OAuthStep, OAuthStepKind};
use parking_lot::Mutex;
use serde_json::Value;

use super::now_ms;

/// Receives each step as it is recorded.
pub trait StepSink: Send + Sync {
    fn step(&self, step: &OAuthStep);
}

impl<F: Fn(&OAuthStep) + Send + Sync> StepSink for F {
    fn step(&self, step: &OAuthStep) {
        self(step)
    }
}

/// The steps of one flow, with the sinks that see them live.
#[derive(Default)]
pub struct StepLog {
    steps: Mutex<Vec<OAuthStep>>,
    sinks: Vec<Arc<dyn StepSink>>,
}

impl StepLog {
    pub fn new() -> Self {
        Self::default()
    }

    /// A log whose steps also go to `sink` as they happen.
    pub fn with_sink(sink: Arc<dyn StepSink>) -> Self {
        Self {
            steps: Mutex::new(Vec::new()),
            sinks: vec![sink],
        }
    }

    /// Numbers and time-stamps `step`, keeps it and hands it to the sinks.
    pub fn push(&self, mut step: OAuthStep) {
        {
            let mut steps = self.steps.lock();
            step.seq = steps.len() as u32 + 1;
            step.at_ms = now_ms();
            steps.push(step.clone());
        }
        for sink in &self.sinks {
            sink.step(&step);
        }
    }

    /// Every step so far, in order.
    pub fn steps(&self) -> Vec<OAuthStep> {
        self.steps.lock().clone()
    }

    /// A client-side step (discovered, chose, warning…) without an HTTP exchange.
    pub(crate) fn note(
        &self,
        kind: OAuthStepKind,
        phase: OAuthPhase,
        title: impl Into<String>,
        detail: Option<String>,
        data: Option<Value>,
    ) {
        let mut step = blank(kind, phase, title);
        step.detail = detail;
        step.data = data;
        self.push(step);
    }

    pub(crate) fn discovered(&self, phase: OAuthPhase, title: impl Into<String>, data: Value) {
        self.note(OAuthStepKind::Discovered, phase, title, None, Some(data));
    }

    pub(crate) fn chose(
        &self,
        phase: OAuthPhase,
        title: impl Into<String>,
        why: impl Into<String>,
    ) {
        self.note(OAuthStepKind::Chose, phase, title, Some(why.into()), None);
    }

    pub(crate) fn warn(&self, phase: OAuthPhase, title: impl Into<String>, fix: impl Into<String>) {
        let mut step = blank(OAuthStepKind::Warning, phase, title);
        step.fix = Some(fix.into());
        self.push(step);
    }

    /// Records the failure that ends the flow (message and fix) and returns the error.
    pub(crate) fn fail(&self, phase: OAuthPhase, error: super::OAuthError) -> super::OAuthError {
        let failure = error.failure();
        let mut step = blank(OAuthStepKind::Failed, phase, failure.message);
        step.fix = failure.fix;
        self.push(step);
        error
    }
}

/// A step with nothing but its kind, phase and title (client → client); [`StepLog::push`]
/// numbers and time-stamps it.
pub fn blank(kind: OAuthStepKind, phase: OAuthPhase, title: impl Into<String>) -> OAuthStep {
    OAuthStep {
        seq: 0,
        at_ms: 0,
        kind,
        phase,
        title: title.into(),
        detail: None,
        from: OAuthParty::Client,
        to: OAuthParty::Client,
        http: None,
        data: None,
        fix: None,
    }
}

/// One line for a step, as the CLI and traffic notes show it.
pub fn summary(step: &OAuthStep) -> String {
    let mut line = step.title.clone();
    if let Some(http) = &step.http {
        match (http.status, &http.error) {
            (Some(status), _) => line.push_str(&format!(" → {status}")),
            (None, Some(err)) => line.push_str(&format!(" → {err}")),
            _ => {}
        }
    }
    if let Some(fix) = &step.fix {
        line.push_str(&format!(" (fix: {fix})"));
    }
    line
}
