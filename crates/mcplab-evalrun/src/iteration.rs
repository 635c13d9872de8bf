//! One iteration: a case on a model, the n-th time. Live, it makes sure the servers are up,
//! runs the case's turns with the model (see `execute`), with a simulated user writing them
//! (`simulate`), or its model-free steps (`steps`), renders the apps of UI tool calls when
//! a check asks for it, asks the judge, prices the tokens (the judge's too, shown apart but in
//! the iteration's cost) and has the evals crate judge the
//! trace; a server that went away meanwhile, or a render that could not happen, makes it
//! errored rather than failed. Replayed, the same turns run against the recording. Either
//! way the result is the record (for statistics) and the detail (trace, verdict, events,
//! requests, recording) the store keeps.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use mcplab_evals::checks::{CommandOutcome, command_input};
use mcplab_evals::run::{IterationRecord, SideUsage, Spent, Unit};
use mcplab_evals::suite::CommandCheck;
use mcplab_evals::trace::{AppRender, Trace};
use mcplab_evals::verdict::{JudgeVerdict, Outcome, ResolvedCase, Verdict, judge_iteration_with};
use mcplab_llm::ModelRef;
use mcplab_llm::prices::PriceTable;
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::host::HostConfig;
use mcplab_store::Store;
use parking_lot::Mutex;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::deadline::Deadline;
use crate::detail::{self, IterationDetail, StoredTurn};
use crate::execute::{TurnRun, Turns};
use crate::observe::ObservedProvider;
use crate::providers::{Providers, judge};
use crate::render::{AppRenderer, app_render, spec_for};
use crate::replay::{
    IterationRecording, RecordedCall, RecordedTiming, ReplayProvider, RunRecording, replay_servers,
};
use crate::servers::ServerHealth;
use crate::simulate::converse;
use crate::steps::Steps;

/// A case as the runner needs it.
pub(crate) struct CaseRun {
    pub resolved: ResolvedCase,
    pub turns: Vec<String>,
    /// Some check renders apps.
    pub render: bool,
    /// The check commands to run on each iteration's trace.
    pub commands: Vec<CommandCheck>,
    /// The case's own system prompt (over its host's).
    pub system_prompt: Option<String>,
    /// Model-free steps (instead of `turns`: no model runs the case).
    pub steps: Vec<mcplab_evals::suite::Step>,
    /// A model playing the user (instead of `turns`).
    pub simulated: Option<mcplab_evals::suite::SimulatedUser>,
}

impl CaseRun {
    /// `host` with what the case changes of it.
    fn host(&self, host: &HostConfig) -> HostConfig {
        let mut host = host.clone();
        if let Some(prompt) = &self.system_prompt {
            host.system_prompt.clone_from(prompt);
        }
        host
    }
}

/// Where iterations get their model and servers.
pub(crate) enum Mode {
    Live {
        providers: Providers,
        /// One per host declaration the run's hosts make (see [`Shared::health_for`]).
        healths: Vec<ServerHealth>,
        record: bool,
    },
    Replay {
        run: RunRecording,
        store: Arc<Store>,
        run_id: String,
    },
}

/// What every iteration of a run shares.
pub(crate) struct Shared {
    pub host: HostConfig,
    /// The suite's `hosts:` (a unit's model column names one as `model @ host`).
    pub hosts: std::collections::BTreeMap<String, HostConfig>,
    pub cases: HashMap<String, CaseRun>,
    pub prices: PriceTable,
    /// Each server's tools (to know which have a UI).
    pub tools: BTreeMap<String, Vec<Value>>,
    pub timeout: Duration,
    pub mode: Mode,
    /// The renderer, or why there is none.
    pub renderer: Result<Arc<dyn AppRenderer>, String>,
    /// Why the run is incomplete (servers that could not be reconnected …).
    pub problems: Mutex<Vec<String>>,
    /// Tells the user something that does not stop the run.
    pub warn: Arc<dyn Fn(String) + Send + Sync>,
    /// Where check commands run: the suite file's folder.
    pub suite_dir: std::path::PathBuf,
}

impl Shared {
    /// The model and HostConfig of a unit's model column.
    fn model_and_host<'a>(&'a self, unit: &'a Unit) -> (&'a str, &'a HostConfig) {
        let (model, host) = mcplab_evals::run::model_and_host(&unit.model);
        let config = host.and_then(|h| self.hosts.get(h)).unwrap_or(&self.host);
        (model, config)
    }

    /// The connections made with `host`'s client declaration (there is one per declaration).
    fn health_for<'a>(healths: &'a [ServerHealth], host: &HostConfig) -> Option<&'a ServerHealth> {
        healths
            .iter()
            .find(|h| h.manager().client() == &host.client)
            .or_else(|| healths.first())
    }

    fn problem(&self, why: &str) {
        let mut p = self.problems.lock();
        if !p.iter().any(|x| x == why) {
            p.push(why.to_owned());
        }
    }
}

/// A finished iteration.
pub(crate) struct Finished {
    pub record: IterationRecord,
    pub verdict: Option<Verdict>,
    pub detail: IterationDetail,
}

/// Runs `unit`; `None` when the run was cancelled before it finished (nothing to keep).
pub(crate) async fn run_unit(
    shared: &Shared,
    unit: &Unit,
    cancel: &CancellationToken,
) -> Option<Finished> {
    if cancel.is_cancelled() {
        return None;
    }
    let Some(case) = shared.cases.get(&unit.case_id) else {
        return Some(errored(
            unit,
            format!("no case `{}` in the suite", unit.case_id),
        ));
    };
    match &shared.mode {
        Mode::Live {
            providers,
            healths,
            record,
        } => {
            let Some(health) = Shared::health_for(healths, shared.model_and_host(unit).1) else {
                return Some(errored(
                    unit,
                    "no servers were connected for the run".into(),
                ));
            };
            live(shared, case, unit, (providers, health, *record), cancel).await
        }
        Mode::Replay { run, store, run_id } => {
            replay(shared, case, unit, (run, store, run_id), cancel).await
        }
    }
}

fn errored(unit: &Unit, reason: String) -> Finished {
    let record = IterationRecord::errored(unit.clone(), reason);
    Finished {
        detail: IterationDetail::of_record(record.clone()),
        record,
        verdict: None,
    }
}

fn tag(unit: &Unit) -> String {
    format!("{}/{}/{}", unit.case_id, unit.model, unit.iteration + 1)
}

async fn live(
    shared: &Shared,
    case: &CaseRun,
    unit: &Unit,
    (providers, health, record): (&Providers, &ServerHealth, bool),
    cancel: &CancellationToken,
) -> Option<Finished> {
    match health.ensure().await {
        Ok(notes) => notes.into_iter().for_each(|n| (shared.warn)(n)),
        Err(why) => {
            shared.problem(&why);
            return Some(errored(unit, why));
        }
    }
    let before = health.snapshot();
    let deadline = Deadline::new(shared.timeout);
    let (label, host) = shared.model_and_host(unit);
    let host = &case.host(host);
    let (mut simulated, mut sim_failed) = (SideUsage::default(), None);
    let (runs, seen) = if case.steps.is_empty() {
        let (model, provider) = match providers.get(label, Some(deadline.clone())) {
            Ok(p) => p,
            Err(e) => return Some(errored(unit, e)),
        };
        let observed = Arc::new(ObservedProvider::new(provider, record));
        let turns = Turns {
            host,
            model: &model,
            tag: tag(unit),
            provider: &observed,
            manager: health.manager(),
            deadline: &deadline,
        };
        let runs = match &case.simulated {
            Some(sim) => {
                let user_model = sim.model.as_deref().unwrap_or(label);
                let talk = (providers, &shared.prices);
                let c = converse(&turns, sim, user_model, talk, cancel).await.ok()?;
                (simulated, sim_failed) = (c.spent, c.failed);
                c.runs
            }
            None => turns.run(&case.turns, cancel).await.ok()?,
        };
        (runs, Some(observed))
    } else {
        let steps = Steps {
            tools: &shared.tools,
            manager: health.manager(),
            tag: tag(unit),
            deadline: &deadline,
        };
        (steps.run(&case.steps, cancel).await.ok()?, None)
    };
    let mut trace = trace_of(&runs);
    let mut unmeasured = None;
    if case.render {
        match render_apps(shared, host, health.manager(), &trace).await {
            Ok(renders) => trace.app_renders = renders,
            Err(why) => unmeasured = Some(why),
        }
    }
    price(shared, case, unit, &mut trace);
    let mut spent = Spent {
        simulated_user: simulated,
        ..Spent::default()
    };
    let judged = match &case.resolved.judge {
        Some(j) => {
            let (verdict, usage) = judge(providers, &shared.prices, j, &trace, cancel).await;
            spent.judge = usage;
            Some(verdict)
        }
        None => None,
    };
    let commands = run_commands(shared, case, unit, &trace).await;
    if cancel.is_cancelled() {
        return None;
    }
    let lost = health.lost_since(&before);
    let seen = seen.map(|o| o.take()).unwrap_or_default();
    let recording = record.then(|| IterationRecording {
        steps: seen.steps,
        calls: calls_of(&trace),
        timings: timings_of(&runs),
    });
    let mut parts = Parts::judge(unit, case, trace, judged, &commands, spent);
    if !lost.is_empty() {
        let why = format!(
            "server {} went away during the iteration (it is reconnected for the next ones)",
            lost.join(", ")
        );
        parts.errored(why);
    } else if let Some(why) = sim_failed.or(unmeasured) {
        parts.errored(why);
    }
    Some(parts.finish(&runs, seen.requests, recording))
}

/// The iteration's cost: the model's tokens at its price; nothing for model-free steps
/// (whose answers are their results' text).
fn price(shared: &Shared, case: &CaseRun, unit: &Unit, trace: &mut Trace) {
    if case.steps.is_empty() {
        trace.cost_usd = shared.prices.cost(&unit.model, &trace.usage(), 0);
    } else {
        mcplab_evals::steps::settle(trace);
    }
}

/// The verdict and record of a trace, before the detail is written.
struct Parts {
    trace: Trace,
    verdict: Verdict,
    record: IterationRecord,
}

impl Parts {
    fn judge(
        unit: &Unit,
        case: &CaseRun,
        trace: Trace,
        judged: Option<JudgeVerdict>,
        commands: &[CommandOutcome],
        spent: Spent,
    ) -> Parts {
        let verdict = judge_iteration_with(&case.resolved, &trace, judged, commands);
        let mut record = mcplab_evals::run::judged(unit.clone(), &trace, &verdict);
        mcplab_evals::run::charge(&mut record.metrics, spent);
        Parts {
            trace,
            verdict,
            record,
        }
    }

    /// Not a measurement of the model after all.
    fn errored(&mut self, reason: String) {
        let outcome = Outcome::Errored {
            reason: reason.clone(),
        };
        self.record.outcome = outcome.clone();
        self.record.failures.insert(0, format!("error: {reason}"));
        self.verdict.outcome = outcome;
    }

    fn finish(
        self,
        runs: &[TurnRun],
        requests: Vec<Value>,
        recording: Option<IterationRecording>,
    ) -> Finished {
        let turns = runs
            .iter()
            .map(|r| StoredTurn {
                user: r.user.clone(),
                events: r.events.clone(),
                latency_ms: r.timing.latency_ms,
                llm_ms: r.timing.llm_ms,
                timed_out: r.timed_out,
            })
            .collect();
        let detail = IterationDetail {
            record: self.record.clone(),
            turns,
            trace: Some(self.trace),
            verdict: Some(self.verdict.clone()),
            requests,
            recording,
        };
        Finished {
            record: self.record,
            verdict: Some(self.verdict),
            detail,
        }
    }
}

fn trace_of(runs: &[TurnRun]) -> Trace {
    Trace {
        turns: runs.iter().map(TurnRun::trace).collect(),
        cost_usd: None,
        app_renders: Vec::new(),
    }
}

fn calls_of(trace: &Trace) -> Vec<RecordedCall> {
    trace
        .tool_calls()
        .map(|c| RecordedCall {
            call_id: c.call_id.clone(),
            server: c.server.clone(),
            tool: c.tool.clone(),
            arguments: c.arguments.clone(),
            result: c.result.clone(),
            error: c.error.clone(),
            duration_ms: c.duration_ms,
        })
        .collect()
}

fn timings_of(runs: &[TurnRun]) -> Vec<RecordedTiming> {
    runs.iter()
        .map(|r| RecordedTiming {
            latency_ms: r.timing.latency_ms,
            llm_ms: r.timing.llm_ms,
        })
        .collect()
}

/// Renders the app of every tool call with a UI under `host`'s app profile, through `manager`
/// (the connections of that host's declaration); `Err` when there is no renderer.
async fn render_apps(
    shared: &Shared,
    host: &HostConfig,
    manager: &Arc<ConnectionManager>,
    trace: &Trace,
) -> Result<Vec<AppRender>, String> {
    let renderer = shared
        .renderer
        .as_ref()
        .map_err(|why| format!("the app checks could not be measured: {why}"))?;
    let mut renders = Vec::new();
    for call in trace.tool_calls() {
        let has_ui = shared.tools.get(&call.server).is_some_and(|tools| {
            tools.iter().any(|t| {
                t["name"].as_str() == Some(call.tool.as_str()) && mcplab_apps::ui_link(t).is_some()
            })
        });
        if !has_ui {
            continue;
        }
        let spec = spec_for(&host.app_host, &call.server, &call.tool, &call.arguments);
        let render = match renderer.render(manager.clone(), spec).await {
            Ok(report) => app_render(&call.call_id, &call.server, &call.tool, &report),
            Err(e) => AppRender {
                call_id: call.call_id.clone(),
                server: call.server.clone(),
                tool: call.tool.clone(),
                initialized: false,
                ready_ms: None,
                csp_violations: Vec::new(),
                errors: vec![format!("the render failed: {e}")],
                console_errors: Vec::new(),
            },
        };
        renders.push(render);
    }
    Ok(renders)
}

/// What each of the case's check commands says about `trace` (run one after the other).
async fn run_commands(
    shared: &Shared,
    case: &CaseRun,
    unit: &Unit,
    trace: &Trace,
) -> Vec<CommandOutcome> {
    if case.commands.is_empty() {
        return Vec::new();
    }
    let input = command_input(unit, trace).to_string().into_bytes();
    let mut out = Vec::new();
    for check in &case.commands {
        out.push(crate::commands::run_command(check, &shared.suite_dir, &input).await);
    }
    out
}

/// The stored detail of `unit` in the recorded run.
fn stored(store: &Store, run_id: &str, unit: &Unit) -> Result<IterationDetail, String> {
    detail::load(store, run_id, unit)
        .map(|s| s.detail)
        .map_err(|e| match e {
            crate::history::HistoryError::NotFound(_) => format!(
                "the recorded run {run_id} has no iteration {} of `{}` on {}: replay the same \
                 cases, models and repeat it ran",
                unit.iteration + 1,
                unit.case_id,
                unit.model
            ),
            e => format!("the recorded iteration cannot be read: {e}"),
        })
}

async fn replay(
    shared: &Shared,
    case: &CaseRun,
    unit: &Unit,
    (run, store, run_id): (&RunRecording, &Arc<Store>, &String),
    cancel: &CancellationToken,
) -> Option<Finished> {
    let old = match stored(store, run_id, unit) {
        Ok(s) => s,
        Err(why) => return Some(errored(unit, why)),
    };
    if old.record.outcome.is_error() {
        // An errored iteration recorded no answer to play back: it stays what it was.
        return Some(Finished {
            record: old.record.clone(),
            verdict: old.verdict.clone(),
            detail: old,
        });
    }
    let Some(rec) = old.recording.clone() else {
        return Some(errored(
            unit,
            format!("run {run_id} was not recorded: run the suite with --record to replay it"),
        ));
    };
    let manager = match replay_servers(run, &rec.calls).await {
        Ok(m) => m,
        Err(why) => return Some(errored(unit, why)),
    };
    let (label, host) = shared.model_and_host(unit);
    let deadline = Deadline::new(shared.timeout);
    // A simulated user says again what it said when recorded (its model is not asked).
    let texts = match case.simulated {
        Some(_) => old.turns.iter().map(|t| t.user.clone()).collect(),
        None => case.turns.clone(),
    };
    let (runs, requests) = if case.steps.is_empty() {
        let model = ModelRef::parse(label).ok()?;
        let provider = Arc::new(ReplayProvider::new(&model.provider, rec.steps.clone()));
        let observed = Arc::new(ObservedProvider::new(provider, false));
        let turns = Turns {
            host: &case.host(host),
            model: &model,
            tag: tag(unit),
            provider: &observed,
            manager: &manager,
            deadline: &deadline,
        };
        let runs = turns.run(&texts, cancel).await;
        (runs, observed.take().requests)
    } else {
        let steps = Steps {
            tools: &shared.tools,
            manager: &manager,
            tag: tag(unit),
            deadline: &deadline,
        };
        (steps.run(&case.steps, cancel).await, Vec::new())
    };
    manager.shutdown().await;
    let runs = runs.ok()?;
    let mut trace = trace_of(&runs);
    restore(&mut trace, &rec);
    trace.app_renders = old.trace.map(|t| t.app_renders).unwrap_or_default();
    price(shared, case, unit, &mut trace);
    let judged = old.verdict.and_then(|v| v.judge).map(|j| j.verdict);
    let commands = run_commands(shared, case, unit, &trace).await;
    // The judge is not asked again: its recorded verdict costs nothing now.
    let parts = Parts::judge(unit, case, trace, judged, &commands, Spent::default());
    Some(parts.finish(&runs, requests, Some(rec)))
}

/// Puts the recorded clocks and tool errors back, so checks and gates on them decide as they
/// did when recorded.
fn restore(trace: &mut Trace, rec: &IterationRecording) {
    for (turn, timing) in trace.turns.iter_mut().zip(&rec.timings) {
        turn.latency_ms = timing.latency_ms;
        turn.llm_ms = timing.llm_ms;
        for call in &mut turn.tool_calls {
            if let Some(r) = rec.calls.iter().find(|r| r.call_id == call.call_id) {
                call.duration_ms = r.duration_ms;
                if r.error.is_some() {
                    call.error.clone_from(&r.error);
                    call.is_error = true;
                }
            }
        }
        turn.mcp_ms = turn.tool_calls.iter().map(|c| c.duration_ms).sum();
    }
}
