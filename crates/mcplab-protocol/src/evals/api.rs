//! Bodies of `/api/evals/*` (the table is in `crate::api`), and what `mcplab eval runs|show
//! --json` print: the same views, built once by `mcplab-evalrun`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::compare::{Comparison, GateReport, TraceDifference};
use super::record::{Outcome, RunHeader, RunKind, RunRecord};
use super::summary::{Interval, RunSummary};
use super::trace::{AppRender, TurnTrace};
use super::verdict::{JudgeOutcome, ScopedCheck, ScopedMatch};
use crate::chat::TurnEvent;

/// `GET`/`PUT /api/evals/folder`: the suites folder (`None` until one is chosen).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EvalFolder {
    pub folder: Option<String>,
}

/// `PUT /api/evals/folder`: an absolute path to an existing directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct EvalFolderInput {
    pub folder: String,
}

/// `GET /api/evals/dirs?path=`: one directory under the person's home, for the folder picker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DirListing {
    /// The home directory (the picker's root), resolved.
    pub home: String,
    /// The directory listed, resolved and absolute.
    pub path: String,
    /// Its parent; `None` at the home (nothing above it is listed).
    pub parent: Option<String>,
    /// The directories directly inside, by name, sorted; dot directories and symlinks left out.
    pub dirs: Vec<String>,
    /// How many suite files (.yaml, .yml, .json) it holds directly.
    pub suites: u32,
    /// It holds more directories than are listed.
    pub truncated: bool,
}

/// One suite file of the folder: its id and title, or why it does not load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SuiteEntry {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `GET /api/evals/suites/{name}`: a suite file's text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SuiteFile {
    pub name: String,
    pub text: String,
}

/// `PUT /api/evals/suites/{name}`: the new text (saved only if it loads).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SuiteInput {
    pub text: String,
}

/// A suite saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SuiteSaved {
    pub name: String,
    pub id: String,
}

/// `POST /api/evals/suites/{name}/cases`: a saved chat session to append as a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CaseInput {
    pub session_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CaseAdded {
    pub name: String,
    pub case_id: String,
}

/// `POST /api/evals/runs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalRunRequest {
    /// A suite file name in the folder.
    pub suite: String,
    /// Models over the suite's (none: the suite's).
    #[serde(default)]
    pub models: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub repeat: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub concurrency: Option<u32>,
    /// The [`LaunchList::hash`] the person agreed to. A run that would start commands or drive
    /// servers is refused (409, with the list) until it matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub confirm: Option<String>,
}

/// What a suite's run will start and drive, shown before anything starts: `mcplab eval run`
/// prints it (and asks on a terminal), the page's Run shows it and asks
/// (`GET /api/evals/suites/{name}/launch`). A suite from someone else's repository is code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LaunchList {
    pub items: Vec<LaunchItem>,
    /// SHA-256 of the items: a confirmation is remembered by it, so a change to what would
    /// start asks again.
    pub hash: String,
}

/// `GET /api/evals/suites/{name}/launch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LaunchCheck {
    pub list: LaunchList,
    /// The person agreed to this very list before (the CLI or the page): no need to ask.
    pub trusted: bool,
}

/// One thing a run starts or drives. Every run drives its servers with tool approvals off:
/// nobody is there to approve, so every tool a model calls runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LaunchItem {
    /// The server's name, or the check's place in the suite for a command check.
    pub name: String,
    pub kind: LaunchKind,
    /// The command line (with its working directory and the names of the variables it sets),
    /// or the URL.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum LaunchKind {
    /// A server the suite defines (`mcpServers`) whose command is started.
    SuiteCommand,
    /// A remote server the suite defines, connected with approvals off.
    SuiteUrl,
    /// A configured server (the Servers page, `mcplab servers add`) driven with approvals off
    /// (started, when it is a command).
    Configured,
    /// A check that runs a command on each iteration's trace.
    CheckCommand,
}

/// `POST /api/evals/runs` → 202.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalRunStarted {
    pub run_id: String,
}

/// A stored run as a list shows it (`GET /api/evals/runs`, `mcplab eval runs --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalRunItem {
    pub id: String,
    pub suite_id: String,
    pub suite_hash: String,
    pub title: Option<String>,
    /// `running`, `finished` or `cancelled`.
    pub status: String,
    pub host_hash: String,
    pub started_ms: u64,
    pub finished_ms: Option<u64>,
    /// The whole run's pass rate (`None` before it ended, or with nothing completed).
    pub pass_rate: Option<f64>,
    /// The gates' exit code (`None` before it ended).
    pub exit_code: Option<i32>,
    /// What part of the plan it covers: full, a shard, merged shards, a replay, a subset.
    pub kind: RunKind,
}

/// A stored run whole (`GET /api/evals/runs/{id}`, `mcplab eval show RUN --json`): its row,
/// header, iterations, statistics, and, once ended, its gates and baseline comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalRunView {
    pub run: EvalRunItem,
    pub header: RunHeader,
    pub record: RunRecord,
    pub summary: RunSummary,
    pub gates: Option<GateReport>,
    pub comparison: Option<Comparison>,
}

/// One turn of an iteration as a person reads it: the trace's turn with its stored events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IterationTurn {
    #[serde(flatten)]
    pub trace: TurnTrace,
    /// What the chat's turn view folds (text, tool calls with arguments and results).
    pub events: Vec<TurnEvent>,
    pub timed_out: bool,
}

/// One stored iteration (`GET /api/evals/runs/{id}/iteration`, `mcplab eval show RUN
/// --iteration N --json`): per turn its events and trace, then the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IterationView {
    pub run_id: String,
    pub case_id: String,
    pub model: String,
    pub iteration: u32,
    pub outcome: Outcome,
    pub failures: Vec<String>,
    pub finished_ms: u64,
    pub turns: Vec<IterationTurn>,
    pub checks: Vec<ScopedCheck>,
    pub tool_calls: Vec<ScopedMatch>,
    pub judge: Option<JudgeOutcome>,
    pub cost_usd: Option<f64>,
    pub app_renders: Vec<AppRender>,
}

/// `GET /api/evals/compare?base=A&run=B` (and `mcplab eval compare --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalCompareView {
    pub base: String,
    pub run: String,
    pub comparison: Comparison,
    /// Per iteration, where the two runs differ (`mcplab eval compare --traces`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub traces: Option<Vec<TraceDifference>>,
}

/// One model in one run of a suite's trend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModelPoint {
    pub model: String,
    pub passes: u64,
    pub n: u64,
    pub errors: u64,
    pub pass_rate: Option<f64>,
    pub interval: Option<Interval>,
}

/// One run of `GET /api/evals/trend?suiteId=`: the pass rate per model, every case pooled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrendPoint {
    pub run_id: String,
    pub started_ms: u64,
    pub status: String,
    pub models: Vec<ModelPoint>,
}

/// The stored result of an ended run: its statistics, gates and baseline comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub summary: RunSummary,
    pub gates: GateReport,
    pub comparison: Option<Comparison>,
}

/// `POST /api/evals/prune`: what `mcplab eval runs prune` takes. At least one of `keep` and
/// `olderThan`; runs matching every one given go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalPruneRequest {
    /// Keep the newest N runs of each suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub keep: Option<u32>,
    /// Only runs started longer ago than this: a number with s, m, h, d or w (`30d`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub older_than: Option<String>,
    /// Only list what would go.
    #[serde(default)]
    pub dry_run: bool,
}

/// What pruning did (or, dry, would do).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvalPruneResult {
    /// The runs deleted (or that would be).
    pub deleted: Vec<String>,
    pub dry_run: bool,
    /// The database's size before and after, in bytes (equal on a dry run).
    pub bytes_before: u64,
    pub bytes_after: u64,
}
