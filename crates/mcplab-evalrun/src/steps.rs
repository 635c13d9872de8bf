//! Running a case's model-free steps: each step's tool called directly on its server (the
//! one the step names, else the first that lists the tool) under the iteration's deadline,
//! kept as a turn's events (`mcplab_evals::steps`), so the iteration is judged, stored,
//! recorded, replayed and shown like a model's. No model, no tokens.

use std::collections::BTreeMap;
use std::time::Instant;

use mcplab_evals::steps::{StepCall, step_events};
use mcplab_evals::suite::Step;
use mcplab_evals::trace::TurnTiming;
use mcplab_mcp::{ConnectionManager, RequestOptions};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::deadline::Deadline;
use crate::execute::{Cancelled, TurnRun};

/// What an iteration's steps need.
pub(crate) struct Steps<'a> {
    /// Each server's tools (to find the server of a step that names none).
    pub tools: &'a BTreeMap<String, Vec<Value>>,
    pub manager: &'a ConnectionManager,
    /// Prefix of the turn ids (`<case>/<model>/<n>`).
    pub tag: String,
    pub deadline: &'a Deadline,
}

impl Steps<'_> {
    /// Runs `steps` in order until the deadline passes or `cancel` fires (a failing call
    /// does not stop them: its step fails, the next runs).
    pub(crate) async fn run(
        &self,
        steps: &[Step],
        cancel: &CancellationToken,
    ) -> Result<Vec<TurnRun>, Cancelled> {
        let mut runs = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            let arguments = Value::Object(step.args.clone());
            let server = step.server.clone().or_else(|| self.server_of(&step.call));
            let started = Instant::now();
            let call_cancel = cancel.child_token();
            let (outcome, timed_out) = tokio::select! {
                o = self.call(server.as_deref(), &step.call, &arguments, &call_cancel) => (o, false),
                _ = self.deadline.passed() => {
                    call_cancel.cancel();
                    (Err("the iteration's deadline passed during the call".to_owned()), true)
                }
            };
            if cancel.is_cancelled() {
                return Err(Cancelled);
            }
            let turn_id = format!("{}/{}", self.tag, i + 1);
            let duration_ms = started.elapsed().as_millis() as u64;
            let events = step_events(StepCall {
                turn_id,
                call_id: format!("step-{}", i + 1),
                server: server.unwrap_or_default(),
                tool: step.call.clone(),
                arguments: arguments.clone(),
                outcome,
                duration_ms,
            });
            runs.push(TurnRun {
                user: format!("call {} {arguments}", step.call),
                events,
                timing: TurnTiming {
                    latency_ms: duration_ms,
                    llm_ms: 0,
                },
                timed_out,
            });
            if timed_out {
                break;
            }
        }
        Ok(runs)
    }

    fn server_of(&self, tool: &str) -> Option<String> {
        self.tools
            .iter()
            .find(|(_, list)| list.iter().any(|t| t["name"].as_str() == Some(tool)))
            .map(|(name, _)| name.clone())
    }

    async fn call(
        &self,
        server: Option<&str>,
        tool: &str,
        arguments: &Value,
        cancel: &CancellationToken,
    ) -> Result<Value, String> {
        let server = server.ok_or_else(|| format!("no server of the suite lists tool `{tool}`"))?;
        let conn = self.manager.get(server).map_err(|e| e.to_string())?;
        let opts = RequestOptions {
            cancel: Some(cancel.clone()),
            ..Default::default()
        };
        conn.request(
            "tools/call",
            Some(json!({"name": tool, "arguments": arguments})),
            opts,
        )
        .await
        .map_err(|e| e.to_string())
    }
}
