//! A whole run: the plan (cases × models × iterations, or one shard of it), the models checked
//! and the servers connected before anything starts, the run row written, iterations run up
//! to the concurrency limit and each stored the moment it finishes (so memory stays flat and
//! a crash loses only what was in flight), then the statistics, the comparison with a
//! baseline, the gates and the run row completed. Progress goes out as the evals crate's
//! `RunEvent`s. Cancelling stops new iterations, drops the ones in flight and keeps the rest.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use mcplab_core::session::host;
use mcplab_evals::compare::Comparison;
use mcplab_evals::gates::{self, GateReport};
use mcplab_evals::report::{Progress, RunEvent};
use mcplab_evals::run::{self, IterationRecord, RunRecord, Shard, Unit};
use mcplab_evals::shard::shard_units;
use mcplab_evals::stats::{RunSummary, summarize};
use mcplab_evals::suite::{Catalog, Check, Gates};
use mcplab_evals::trace::Trace;
use mcplab_llm::ProviderSettings;
use mcplab_llm::prices::PriceTable;
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::clock::now_ms;
use mcplab_protocol::evals::{RunKind, RunResult};
use mcplab_protocol::host::ClientDeclaration;
use mcplab_store::{EvalIterationRow, EvalRunRow, Store};
use parking_lot::Mutex;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::connect::{check_tools, connect_all, tool_names};
use crate::detail::IterationDetail;
use crate::history::{self, RunHeader};
use crate::iteration::{CaseRun, Finished, Mode, Shared, run_unit};
use crate::prepare::Prepared;
use crate::providers::Providers;
use crate::render::AppRenderer;
use crate::replay::RunRecording;
use crate::retry::RetryBudget;

/// Default iterations at once.
pub const DEFAULT_CONCURRENCY: u32 = 4;
/// Default per-iteration deadline.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// What to run and how.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub prepared: Prepared,
    pub shard: Option<Shard>,
    pub concurrency: Option<u32>,
    pub timeout: Option<Duration>,
    /// Keep each iteration's model answers and tool results for `replay`.
    pub record: bool,
    /// Play this stored run back instead of calling models and servers.
    pub replay: Option<String>,
    /// Compare with this stored run (for `noRegression`).
    pub baseline: Option<String>,
    /// Gates over the suite's.
    pub gates: Gates,
    /// The id to store the run under (a fresh one when `None`).
    pub run_id: Option<String>,
}

impl RunSpec {
    /// `prepared` with the suite's own settings.
    pub fn new(prepared: Prepared) -> Self {
        Self {
            prepared,
            shard: None,
            concurrency: None,
            timeout: None,
            record: false,
            replay: None,
            baseline: None,
            gates: Gates::default(),
            run_id: None,
        }
    }
}

/// What the runner is given by its caller.
pub struct RunEnv {
    pub store: Arc<Store>,
    /// Where live servers are connected (the runner connects and disconnects them).
    pub manager: Arc<ConnectionManager>,
    pub providers: ProviderSettings,
    pub http: reqwest::Client,
    pub prices: PriceTable,
    /// The app renderer, or why there is none.
    pub renderer: Result<Arc<dyn AppRenderer>, String>,
}

/// Where progress goes.
pub trait RunSink: Send + Sync {
    fn event(&self, event: &RunEvent);
    /// A finished iteration with its trace (`None` when it never ran), right before its
    /// `iterationFinished` event: for exporters (OTLP). Most sinks ignore it.
    fn iteration_trace(&self, _record: &IterationRecord, _trace: Option<&Trace>) {}
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    Finished,
    Cancelled,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Finished => "finished",
            RunStatus::Cancelled => "cancelled",
        }
    }
}

/// A run that ended (also when cancelled).
pub struct RunOutcome {
    pub run_id: String,
    pub status: RunStatus,
    pub record: RunRecord,
    pub summary: RunSummary,
    pub comparison: Option<Comparison>,
    pub gates: GateReport,
}

impl RunOutcome {
    /// 0 every gate holds, 1 a gate fails, 3 incomplete or undecidable, 130 cancelled.
    pub fn exit_code(&self) -> i32 {
        match self.status {
            RunStatus::Cancelled => 130,
            RunStatus::Finished => self.gates.exit_code,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The request cannot run as given (unknown model, baseline, recording).
    #[error("{0}")]
    Usage(String),
    /// A server could not be reached before the run started.
    #[error("{0}")]
    Servers(String),
    /// The suite names what the servers do not have (every problem, at its line).
    #[error("{0}")]
    Suite(String),
    #[error("{0}")]
    Store(String),
}

/// A fresh run id: 12 hex digits.
pub fn new_run_id() -> String {
    let bytes: [u8; 6] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `spec` to its end (or cancellation).
pub async fn run(
    spec: RunSpec,
    env: RunEnv,
    sink: Arc<dyn RunSink>,
    cancel: CancellationToken,
) -> Result<RunOutcome, RunError> {
    let prepared = spec.prepared.clone();
    if let Some(b) = &spec.baseline {
        history::resolve_run_id(&env.store, b)
            .map_err(|e| RunError::Usage(format!("the baseline: {e}")))?;
    }
    let resolved = run::resolved_cases(&prepared.suite);
    let plan = run::plan(&resolved);
    let units = match spec.shard {
        Some(s) => shard_units(&plan, s),
        None => plan,
    };
    let warn_sink = sink.clone();
    let warn: Arc<dyn Fn(String) + Send + Sync> =
        Arc::new(move |message| warn_sink.event(&RunEvent::Warning { message }));
    let (mode, tools, recording) = match &spec.replay {
        Some(id) => replay_mode(&env.store, id, &prepared)?,
        None => live_mode(&spec, &env, &prepared, &units, warn.clone()).await?,
    };
    let cases: HashMap<String, CaseRun> = resolved
        .into_iter()
        .map(|r| {
            let case = prepared.suite.cases.iter().find(|c| c.id == r.id);
            let turns = case
                .map(|c| c.turns.iter().map(|t| t.user().to_owned()).collect())
                .unwrap_or_default();
            let render = needs_render(&r);
            let commands = r.commands();
            let system_prompt = case.and_then(|c| c.system_prompt.clone());
            let steps = case.map(|c| c.steps.clone()).unwrap_or_default();
            let simulated = case.and_then(|c| c.simulated_user.clone());
            (
                r.id.clone(),
                CaseRun {
                    resolved: r,
                    turns,
                    render,
                    commands,
                    system_prompt,
                    steps,
                    simulated,
                },
            )
        })
        .collect();
    let shared = Arc::new(Shared {
        host: prepared.host.clone(),
        hosts: prepared.hosts.clone(),
        cases,
        prices: env.prices.clone(),
        tools,
        timeout: spec
            .timeout
            .or(prepared
                .suite
                .timeout_seconds
                .map(|s| Duration::from_secs(s.into())))
            .unwrap_or(DEFAULT_TIMEOUT),
        mode,
        renderer: env.renderer.clone(),
        problems: Mutex::default(),
        warn,
        suite_dir: prepared.folder(),
    });
    let run_id = spec.run_id.clone().unwrap_or_else(new_run_id);
    let header = header(&spec, &prepared, &units);
    start_row(&env.store, &run_id, &prepared, &header, recording.as_ref())?;
    sink.event(&RunEvent::RunStarted {
        run_id: run_id.clone(),
        suite_id: prepared.suite.id.clone(),
        suite_hash: run::suite_hash(&prepared.loaded),
        planned: units.len() as u64,
        models: header.models.clone(),
        shard: spec.shard,
    });
    let concurrency = spec
        .concurrency
        .or(prepared.suite.concurrency)
        .unwrap_or(DEFAULT_CONCURRENCY)
        .max(1) as usize;
    let iterations = drive(
        &shared,
        &units,
        concurrency,
        &env.store,
        &run_id,
        &sink,
        &cancel,
    )
    .await;
    if let Mode::Live { healths, .. } = &shared.mode {
        for health in healths {
            for s in &prepared.servers {
                health.manager().disconnect(&s.name).await;
            }
        }
    }
    let status = if cancel.is_cancelled() {
        RunStatus::Cancelled
    } else {
        RunStatus::Finished
    };
    let problems = shared.problems.lock().clone();
    conclude(
        &spec, &env.store, &prepared, run_id, units, iterations, status, &problems, &sink,
    )
}

fn needs_render(case: &mcplab_evals::verdict::ResolvedCase) -> bool {
    case.checks
        .iter()
        .chain(case.turns.iter().flat_map(|(_, c)| c.iter()))
        .any(|c| {
            matches!(
                c,
                Check::AppRendered(_) | Check::NoConsoleErrors(_) | Check::MaxRenderMs(_)
            )
        })
}

type ModeParts = (Mode, BTreeMap<String, Vec<Value>>, Option<RunRecording>);

fn replay_mode(store: &Arc<Store>, id: &str, prepared: &Prepared) -> Result<ModeParts, RunError> {
    let id = history::resolve_run_id(store, id).map_err(|e| RunError::Usage(e.to_string()))?;
    let row = store
        .eval_run(&id)
        .map_err(|e| RunError::Usage(e.to_string()))?;
    if row.suite_id != prepared.suite.id {
        return Err(RunError::Usage(format!(
            "run {id} is of suite `{}`, not `{}`: replay it with its own suite",
            row.suite_id, prepared.suite.id
        )));
    }
    let recording: RunRecording = row
        .recording
        .and_then(|r| serde_json::from_value(r).ok())
        .ok_or_else(|| {
            RunError::Usage(format!(
                "run {id} was not recorded: run the suite with --record first, then --replay that run"
            ))
        })?;
    let tools: BTreeMap<String, Vec<Value>> = recording
        .servers
        .iter()
        .map(|(name, s)| (name.clone(), s.tools.clone()))
        .collect();
    let recorded = Catalog {
        host: None,
        servers: tools
            .iter()
            .map(|(name, list)| (name.clone(), tool_names(list)))
            .collect(),
    };
    check_tools(prepared, &[recorded])?;
    let mode = Mode::Replay {
        run: recording,
        store: store.clone(),
        run_id: id,
    };
    Ok((mode, tools, None))
}

async fn live_mode(
    spec: &RunSpec,
    env: &RunEnv,
    prepared: &Prepared,
    units: &[Unit],
    warn: Arc<dyn Fn(String) + Send + Sync>,
) -> Result<ModeParts, RunError> {
    let budget = RetryBudget::for_run(units.len());
    let notice_warn = warn.clone();
    let notice = Arc::new(move |e: &mcplab_llm::LlmError, wait: Duration, left: u32| {
        notice_warn(format!(
            "{e}; retrying in {:.1} s ({left} retries left for this run)",
            wait.as_secs_f64()
        ))
    });
    let providers = Providers::new(env.providers.clone(), env.http.clone(), budget, notice);
    // Every model and judge must be usable before anything runs.
    let mut models: Vec<&str> = units
        .iter()
        .map(|u| mcplab_evals::run::model_and_host(&u.model).0)
        .filter(|m| *m != mcplab_evals::run::NO_MODEL)
        .collect();
    let judges = prepared.suite.cases.iter().filter_map(|c| c.judge.as_ref());
    models.extend(
        judges
            .chain(prepared.suite.defaults.judge.as_ref())
            .map(|j| j.model.as_str()),
    );
    let users = prepared
        .suite
        .cases
        .iter()
        .filter_map(|c| c.simulated_user.as_ref());
    models.extend(users.filter_map(|u| u.model.as_deref()));
    models.sort_unstable();
    models.dedup();
    for m in models {
        providers.get(m, None).map_err(RunError::Usage)?;
    }
    let connected = connect_all(&env.manager, prepared, units).await?;
    check_tools(prepared, &connected.catalogs)?;
    let mode = Mode::Live {
        providers,
        healths: connected.healths,
        record: spec.record,
    };
    let recording = spec.record.then_some(connected.recording);
    Ok((mode, connected.tools, recording))
}

/// The declaration the run's manager ([`RunEnv::manager`]) should be made with: the first
/// host's (the suite's host when it lists none). The runner connects it for that host's
/// units, and makes a sibling manager for each other declaration.
pub fn first_declaration(prepared: &Prepared) -> ClientDeclaration {
    prepared
        .suite
        .hosts
        .first()
        .and_then(|h| prepared.hosts.get(h))
        .unwrap_or(&prepared.host)
        .client
        .clone()
}

fn header(spec: &RunSpec, prepared: &Prepared, units: &[Unit]) -> RunHeader {
    let mut models: Vec<String> = Vec::new();
    for u in units {
        if !models.contains(&u.model) {
            models.push(u.model.clone());
        }
    }
    RunHeader {
        suite_title: prepared.suite.title.clone(),
        cases: run::case_infos(&prepared.suite),
        planned: units.to_vec(),
        models,
        shard: spec.shard,
        concurrency: spec
            .concurrency
            .or(prepared.suite.concurrency)
            .unwrap_or(DEFAULT_CONCURRENCY),
        record: spec.record,
        replay_of: spec.replay.clone(),
        baseline: spec.baseline.clone(),
        host_config: serde_json::to_value(&prepared.host).unwrap_or(Value::Null),
        suite: serde_json::to_value(&prepared.loaded).unwrap_or(Value::Null),
        notes: prepared.notes.clone(),
        kind: Some(kind(spec, prepared)),
    }
}

/// The run's kind; a subset is counted in cases as they run (a dataset's rows each one).
fn kind(spec: &RunSpec, prepared: &Prepared) -> RunKind {
    let expanded = mcplab_evals::suite::expand(&prepared.loaded).map(|(s, _)| s);
    let (ran, all) = (
        run::resolved_cases(&prepared.suite).len() as u32,
        run::resolved_cases(expanded.as_ref().unwrap_or(&prepared.loaded)).len() as u32,
    );
    match (&spec.replay, spec.shard) {
        (Some(of), _) => RunKind::Replay { of: of.clone() },
        (None, Some(s)) => RunKind::Shard {
            index: s.index,
            count: s.count,
        },
        (None, None) if ran < all => RunKind::Subset {
            cases: ran,
            of: all,
        },
        (None, None) => RunKind::Full,
    }
}

fn start_row(
    store: &Store,
    run_id: &str,
    prepared: &Prepared,
    header: &RunHeader,
    recording: Option<&RunRecording>,
) -> Result<(), RunError> {
    let row = EvalRunRow {
        id: run_id.to_owned(),
        suite_id: prepared.suite.id.clone(),
        suite_hash: run::suite_hash(&prepared.loaded),
        host_hash: host::hash(&prepared.host),
        title: prepared.suite.title.clone(),
        source: prepared.source.clone(),
        status: "running".into(),
        started_ms: now_ms(),
        finished_ms: None,
        header: serde_json::to_value(header).unwrap_or(Value::Null),
        result: None,
        recording: recording.and_then(|r| serde_json::to_value(r).ok()),
    };
    store
        .create_eval_run(&row)
        .map_err(|e| RunError::Store(e.to_string()))
}

/// Runs the units, storing and announcing each as it finishes; the records of those that did.
async fn drive(
    shared: &Arc<Shared>,
    units: &[Unit],
    concurrency: usize,
    store: &Arc<Store>,
    run_id: &str,
    sink: &Arc<dyn RunSink>,
    cancel: &CancellationToken,
) -> Vec<IterationRecord> {
    let mut progress = Progress {
        planned: units.len() as u64,
        ..Progress::default()
    };
    let mut records = Vec::new();
    let mut finished = futures::stream::iter(units.iter().cloned())
        .map(|unit| {
            let (shared, sink, cancel) = (shared.clone(), sink.clone(), cancel.clone());
            async move {
                if cancel.is_cancelled() {
                    return None;
                }
                sink.event(&RunEvent::IterationStarted { unit: unit.clone() });
                run_unit(&shared, &unit, &cancel).await
            }
        })
        .buffer_unordered(concurrency);
    while let Some(done) = finished.next().await {
        let Some(Finished {
            record,
            verdict,
            detail,
        }) = done
        else {
            continue;
        };
        sink.iteration_trace(&record, detail.trace.as_ref());
        if let Err(e) = save(store, run_id, &record, detail).await {
            (shared.warn)(format!("could not store an iteration: {e}"));
        }
        progress.record(&record);
        sink.event(&RunEvent::IterationFinished {
            record: record.clone(),
            verdict: verdict.map(Box::new),
            progress,
        });
        records.push(record);
    }
    records
}

async fn save(
    store: &Arc<Store>,
    run_id: &str,
    record: &IterationRecord,
    detail: IterationDetail,
) -> Result<(), String> {
    let outcome = record.outcome.as_str();
    let row = EvalIterationRow {
        run_id: run_id.to_owned(),
        case_id: record.unit.case_id.clone(),
        model: record.unit.model.clone(),
        iteration: record.unit.iteration,
        outcome: outcome.into(),
        record: serde_json::to_value(record).map_err(|e| e.to_string())?,
        detail: Some(serde_json::to_value(&detail).map_err(|e| e.to_string())?),
        finished_ms: now_ms(),
    };
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.save_eval_iteration(&row))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
}

#[allow(clippy::too_many_arguments)]
fn conclude(
    spec: &RunSpec,
    store: &Store,
    prepared: &Prepared,
    run_id: String,
    units: Vec<Unit>,
    iterations: Vec<IterationRecord>,
    status: RunStatus,
    problems: &[String],
    sink: &Arc<dyn RunSink>,
) -> Result<RunOutcome, RunError> {
    let position: HashMap<&Unit, usize> = units.iter().enumerate().map(|(k, u)| (u, k)).collect();
    let mut iterations = iterations;
    iterations.sort_by_key(|i| position.get(&i.unit).copied().unwrap_or(usize::MAX));
    let record = RunRecord {
        suite_id: prepared.suite.id.clone(),
        suite_hash: run::suite_hash(&prepared.loaded),
        shard: spec.shard,
        cases: run::case_infos(&prepared.suite),
        planned: units,
        iterations,
    };
    let summary = summarize(&record);
    let all_gates = prepared.suite.gates.with_overrides(&spec.gates);
    let comparison = match &spec.baseline {
        Some(id) => {
            let base = history::resolve_run_id(store, id)
                .and_then(|id| history::load_run(store, &id))
                .map_err(|e| RunError::Usage(format!("the baseline: {e}")))?;
            Some(history::compare_runs(&base.record, &record, &all_gates))
        }
        None => None,
    };
    let gates = gates::evaluate(&all_gates, &summary, comparison.as_ref(), problems);
    let result = RunResult {
        summary: summary.clone(),
        gates: gates.clone(),
        comparison: comparison.clone(),
    };
    let result = serde_json::to_value(&result).map_err(|e| RunError::Store(e.to_string()))?;
    store
        .finish_eval_run(&run_id, status.as_str(), now_ms(), &result)
        .map_err(|e| RunError::Store(e.to_string()))?;
    sink.event(&RunEvent::RunFinished {
        run_id: run_id.clone(),
        summary: Box::new(summary.clone()),
        gates: gates.clone(),
    });
    Ok(RunOutcome {
        run_id,
        status,
        record,
        summary,
        comparison,
        gates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prepare::{Overrides, SuiteText, prepare};

    fn prepared(cases: &[&str]) -> Prepared {
        let text = "version: 1\nid: s\nmcpServers: { d: { command: mcplab, args: [demo-server] } }\nmodels: [openai::m]\ncases:\n  - id: add\n    dataset: [{name: a, x: 1}, {name: b, x: 2}, {name: c, x: 3}]\n    turns: [\"{{x}}\"]\n  - id: plain\n    turns: [hi]\n";
        let file = SuiteText {
            text: text.into(),
            path: None,
        };
        let overrides = Overrides {
            cases: cases.iter().map(|c| c.to_string()).collect(),
            ..Overrides::default()
        };
        prepare(&file, &Store::open_in_memory().unwrap(), &overrides).unwrap()
    }

    #[test]
    fn a_run_of_some_dataset_rows_is_a_subset_counted_in_rows() {
        let p = prepared(&["add[a]", "add[b]", "plain"]);
        assert_eq!(
            kind(&RunSpec::new(p.clone()), &p),
            RunKind::Subset { cases: 3, of: 4 }
        );
        let p = prepared(&["add"]);
        assert_eq!(
            kind(&RunSpec::new(p.clone()), &p),
            RunKind::Subset { cases: 3, of: 4 }
        );
        let p = prepared(&[]);
        assert_eq!(kind(&RunSpec::new(p.clone()), &p), RunKind::Full);
    }
}
