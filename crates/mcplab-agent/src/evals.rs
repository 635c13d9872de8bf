//! The `eval_run` tool: an eval suite (or some of its cases) run like `mcplab eval run` — the
//! suite prepared against the person's servers and providers, every server it names held to
//! the same allow-list as `connect` (a suite's inline `mcpServers` commands included), run on
//! a connection manager of its own, stored as a run. Progress is reported per iteration;
//! cancelling stops the run and keeps what finished. The reply has the pass rates per case and
//! model and, for the first failing iterations, why they failed and their traces.

use std::path::PathBuf;
use std::sync::Arc;

use mcplab_evalrun::{
    AppRenderer, Overrides, RunEnv, RunError, RunOutcome, RunSink, RunSpec, SuiteText,
    first_declaration, iteration_trace, prepare,
};
use mcplab_evals::report::events::RunEvent;
use mcplab_evals::verdict::Outcome;
use mcplab_llm::ProviderSettings;
use mcplab_llm::prices::PriceTable;
use mcplab_mcp::ConnectionManager;
use mcplab_mcp::tool_server::{CallScope, Progress, ToolReply};
use mcplab_store::Store;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::Agent;
use crate::reply::{self, fail, ok};

/// Failing iterations whose traces are returned.
const TRACES: usize = 3;

/// What eval runs need from the data directory, handed in by the binary.
pub struct EvalSetup {
    pub store: Arc<Store>,
    pub providers: ProviderSettings,
    pub prices: PriceTable,
    pub http: reqwest::Client,
    /// The person's own host profiles (the data directory's `hosts/`).
    pub hosts_dir: Option<PathBuf>,
    pub renderer: Result<Arc<dyn AppRenderer>, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvalArgs {
    suite: PathBuf,
    #[serde(default)]
    cases: Vec<String>,
    #[serde(default)]
    models: Vec<String>,
    repeat: Option<u32>,
}

/// Passes each finished iteration on as progress.
struct ProgressSink(mpsc::UnboundedSender<(u64, u64, String)>);

impl RunSink for ProgressSink {
    fn event(&self, event: &RunEvent) {
        if let RunEvent::IterationFinished {
            record, progress, ..
        } = event
        {
            let line = format!(
                "{} × {} #{}: {:?}",
                record.unit.case_id,
                record.unit.model,
                record.unit.iteration + 1,
                record.outcome
            );
            let _ = self.0.send((progress.finished, progress.planned, line));
        }
    }
}

impl Agent {
    pub(crate) async fn eval_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let args: EvalArgs = match reply::args("eval_run", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let setup = match &self.inner.setup.evals {
            Ok(s) => s,
            Err(why) => return fail(format!("evals cannot run here: {why}")),
        };
        let file = match SuiteText::read(&args.suite) {
            Ok(f) => f,
            Err(e) => return fail(e.to_string()),
        };
        if args.repeat == Some(0) {
            return fail("`repeat` is at least 1");
        }
        let overrides = Overrides {
            models: args.models,
            repeat: args.repeat,
            cases: args.cases,
            hosts_dir: setup.hosts_dir.clone(),
        };
        let prepared = match prepare(&file, &setup.store, &overrides) {
            Ok(p) => p,
            Err(e) => return fail(e.to_string()),
        };
        for server in &prepared.servers {
            if let Err(refusal) = self.inner.setup.allow.check(server) {
                return fail(format!("the suite's server `{}`: {refusal}", server.name));
            }
        }
        let mut options = self.inner.setup.manager_options.clone();
        options.listen_for_changes = false;
        options.client = first_declaration(&prepared);
        let manager = ConnectionManager::new(options);
        let env = RunEnv {
            store: setup.store.clone(),
            manager: manager.clone(),
            providers: setup.providers.clone(),
            http: setup.http.clone(),
            prices: setup.prices.clone(),
            renderer: setup.renderer.clone(),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let forward = tokio::spawn(report(rx, scope.progress.clone()));
        let spec = RunSpec::new(prepared);
        let result =
            mcplab_evalrun::run(spec, env, Arc::new(ProgressSink(tx)), scope.cancel.clone()).await;
        manager.shutdown().await;
        crate::calls::drain(forward).await;
        match result {
            Ok(outcome) => outcome_reply(&outcome, &setup.store),
            Err(RunError::Servers(m)) => fail(format!("the suite's servers did not connect: {m}")),
            Err(e) => fail(e.to_string()),
        }
    }
}

async fn report(mut rx: mpsc::UnboundedReceiver<(u64, u64, String)>, progress: Progress) {
    while let Some((done, planned, line)) = rx.recv().await {
        progress
            .report(done as f64, Some(planned as f64), Some(line))
            .await;
    }
}

fn outcome_reply(outcome: &RunOutcome, store: &Store) -> ToolReply {
    let s = &outcome.summary;
    let cells: Vec<Value> = s
        .cells
        .iter()
        .map(|c| {
            json!({ "case": c.case_id, "model": c.model, "passes": c.passes, "n": c.n,
                "errors": c.errors, "passRate": c.pass_rate, "passed": c.passed })
        })
        .collect();
    let not_passed = outcome
        .record
        .iterations
        .iter()
        .filter(|i| !matches!(i.outcome, Outcome::Passed));
    let failing: Vec<Value> = not_passed
        .enumerate()
        .map(|(n, i)| {
            let mut v = json!({ "case": i.unit.case_id, "model": i.unit.model,
                "iteration": i.unit.iteration + 1, "outcome": i.outcome, "why": i.failures });
            if n < TRACES {
                v["trace"] = iteration_trace(store, &outcome.run_id, &i.unit)
                    .unwrap_or_else(|e| json!(format!("trace unavailable: {e}")));
            }
            v
        })
        .collect();
    let verdict = match outcome.exit_code() {
        0 => "pass",
        1 => "fail",
        130 => "cancelled",
        _ => "incomplete",
    };
    let rate = s.pass_rate.map_or("no pass rate".into(), |r| {
        format!("{:.0} % passed", r * 100.0)
    });
    let summary = format!(
        "eval run {}: {verdict}; {}/{} iterations, {rate}, {} failing (details in `failing`)",
        outcome.run_id,
        s.finished,
        s.planned,
        failing.len()
    );
    ok(
        summary,
        json!({ "runId": outcome.run_id, "verdict": verdict, "exitCode": outcome.exit_code(),
            "passRate": s.pass_rate, "planned": s.planned, "finished": s.finished,
            "errors": s.errors, "cells": cells, "failing": failing,
            "gates": outcome.gates.gates, "invalid": outcome.gates.invalid }),
    )
}
