//! `mcplab eval`: run suites (`run`), read stored runs (`runs`, `show`, `compare`), combine
//! shard results (`merge`) and write suites (`schema`, `init`, `import`, `add-case`). The
//! clap types of the subcommand live here, so the CLI's own files only name the one variant;
//! the runner is `mcplab-evalrun`, the pure parts are `mcplab-evals`.

mod authoring;
mod history;
mod output;
mod prune;
mod run;
mod trace;
mod trust;

pub(crate) use run::provider_settings;

use std::path::PathBuf;

use clap::{Args, Subcommand};

use mcplab_evals::compare::Correction;
use mcplab_evals::suite::Gates;

use crate::failure::Failure;
use crate::settings::{DataDir, Settings};

#[derive(Subcommand, Debug)]
pub enum EvalCmd {
    /// Run a suite (an mcplab suite file, or an MCPJam suite/tests.json) and judge it.
    #[command(after_help = RUN_HELP)]
    Run(Box<RunArgs>),
    /// Print the suite file's JSON Schema (for editors).
    Schema,
    /// Write a starter suite for the target servers: one case per tool, one negative case.
    Init(Box<InitArgs>),
    /// Convert an MCPJam suite file (v1) or tests.json into an mcplab suite.
    Import(ImportArgs),
    /// Turn a saved chat session into a case (printed, or appended to a suite file).
    AddCase(AddCaseArgs),
    /// List stored runs, newest first.
    Runs(RunsArgs),
    /// Show a stored run: its cells, gates and failing iterations.
    Show(ShowArgs),
    /// Compare two stored runs: Fixed, Regressed, Still failing, New, Removed, with intervals.
    Compare(CompareArgs),
    /// Merge the results of every shard of a run (`run --shard i/n --out DIR`) into one run,
    /// judge it by the gates (against --baseline too) and store it.
    Merge(MergeArgs),
}

const RUN_HELP: &str = "\
Exit codes: 0 every gate holds; 1 a gate fails; 2 usage or suite error (every problem of the \
suite is listed with its line, also a tool the servers do not list, checked before any model \
runs; --check-only does just that check); 3 the run is incomplete or a gate cannot be decided (servers \
unreachable, too many provider errors, too few iterations); 130 interrupted (finished \
iterations are kept). A suite without gates passes when every case × model reaches its pass \
threshold.

--json prints one event per line (runStarted, iterationStarted, iterationFinished, warning, \
runFinished). --out DIR writes run.json (the run record, summary and gates: what `eval merge` \
reads), events.jsonl, junit.xml and report.html. Runs are stored in the data directory: \
`mcplab eval runs`, `mcplab eval show RUN`.

Before anything starts, the run lists the commands it will start and the servers it will \
drive with tool approvals off. On a terminal it asks once per list (remembered in the data \
directory); --yes, or a stdin that is not a terminal (CI), goes ahead.";

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The suite file (YAML or JSON; MCPJam files are converted on the fly).
    pub suite: PathBuf,
    /// Run on this model (provider::model) instead of the suite's; repeatable.
    #[arg(long = "model", short = 'm', value_name = "MODEL")]
    pub models: Vec<String>,
    /// Iterations per case × model (replaces the suite's `repeat`).
    #[arg(long)]
    pub repeat: Option<u32>,
    /// Iterations running at once (default: the suite's, else 4).
    #[arg(long)]
    pub concurrency: Option<u32>,
    /// Run only this case (by id); repeatable.
    #[arg(long = "case", value_name = "ID")]
    pub cases: Vec<String>,
    /// Run the i-th of n deterministic slices of the plan (e.g. 2/4), for CI matrices.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Per-iteration deadline in seconds (replaces the suite's `timeoutSeconds`).
    #[arg(long, value_name = "SECS")]
    pub iteration_timeout: Option<u64>,
    /// Write JUnit XML here (one testcase per case × model).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the self-contained HTML report here.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write everything into this directory (run.json, events.jsonl, junit.xml, report.html).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Keep each iteration's model answers and tool results, so the run can be replayed.
    #[arg(long)]
    pub record: bool,
    /// Play a recorded run back: no API key, no live server.
    #[arg(long, value_name = "RUN", conflicts_with = "record")]
    pub replay: Option<String>,
    /// Compare with this stored run (the `noRegression` gate reads it).
    #[arg(long, value_name = "RUN")]
    pub baseline: Option<String>,
    #[command(flatten)]
    pub gates: GateArgs,
    /// A price table (JSON) over the shipped one and the data directory's prices.json.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Only check the suite: load it, connect its servers and make sure every tool it names
    /// is listed (exit 0, or 2 with each unknown name at its line). No model is called.
    #[arg(long, conflicts_with_all = ["replay", "record", "shard"])]
    pub check_only: bool,
    /// Start the suite's commands and drive its servers without asking (the list is still
    /// printed). Without a terminal on stdin (CI) the run goes ahead anyway.
    #[arg(long, short = 'y')]
    pub yes: bool,
    #[command(flatten)]
    pub otlp: crate::cli::OtlpArg,
    #[command(flatten)]
    pub connect: crate::cli::ConnectArgs,
    #[command(flatten)]
    pub chromium: crate::cli::ChromiumArg,
}

/// The gates a run (or a merge of shards) is judged by, over the suite's.
#[derive(Args, Debug, Clone, Default)]
pub struct GateArgs {
    /// Gate: lowest acceptable pass rate (0–1).
    #[arg(long, value_name = "RATE")]
    pub min_pass_rate: Option<f64>,
    /// Gate: lowest acceptable lower bound of the pass rate's 95% interval (cases as clusters).
    #[arg(long, value_name = "RATE")]
    pub min_pass_rate_lower_bound: Option<f64>,
    /// Gate: most the run may cost, in US dollars (models, judges and simulated users).
    #[arg(long, value_name = "USD")]
    pub max_cost_usd: Option<f64>,
    /// Gate: highest acceptable p95 iteration latency, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub max_p95_latency_ms: Option<u64>,
    /// Gate: fail when a case × model dropped significantly against --baseline (corrected
    /// across cells, at least --min-effect).
    #[arg(long)]
    pub no_regression: bool,
    /// Gate: fail when the whole run's pass rate dropped significantly against --baseline
    /// (the iterations of a case as one cluster).
    #[arg(long)]
    pub no_run_regression: bool,
    /// The correction across cells for --no-regression: holm (default), benjamini-hochberg
    /// or none.
    #[arg(long, value_name = "METHOD")]
    pub regression_correction: Option<String>,
    /// Smallest drop in pass rate that counts as a regression (default 0.1: 10 points).
    #[arg(long, value_name = "RATE")]
    pub min_effect: Option<f64>,
}

impl GateArgs {
    /// The gates these flags set (the rest unset, so the suite's apply).
    pub fn gates(&self) -> Result<Gates, Failure> {
        let correction = match self.regression_correction.as_deref() {
            None => None,
            Some("holm") => Some(Correction::Holm),
            Some("benjamini-hochberg" | "bh") => Some(Correction::BenjaminiHochberg),
            Some("none") => Some(Correction::None),
            Some(other) => {
                return Err(Failure::usage(format!(
                    "--regression-correction {other}: use holm, benjamini-hochberg or none"
                )));
            }
        };
        Ok(Gates {
            min_pass_rate: self.min_pass_rate,
            min_pass_rate_lower_bound: self.min_pass_rate_lower_bound,
            max_cost_usd: self.max_cost_usd,
            max_p95_latency_ms: self.max_p95_latency_ms,
            no_regression: self.no_regression.then_some(true),
            no_run_regression: self.no_run_regression.then_some(true),
            regression_correction: correction,
            min_effect: self.min_effect,
            ..Gates::default()
        })
    }
}

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Where to write the suite (default: print it).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Models to list in the suite (and to draft cases with --generate).
    #[arg(long = "model", short = 'm', value_name = "MODEL")]
    pub models: Vec<String>,
    /// Ask the (first) model to draft this many more cases from the tools' descriptions.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "5")]
    pub generate: Option<u32>,
    /// The suite's id (default: from the server's name).
    #[arg(long)]
    pub id: Option<String>,
    #[command(flatten)]
    pub connect: crate::cli::ConnectArgs,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The MCPJam file (suite file v1 in YAML/JSON, or tests.json).
    pub file: PathBuf,
    /// Where to write the suite (default: print it).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct AddCaseArgs {
    /// The chat session (its id, as the Chat page or `chat --save` shows it).
    #[arg(long, value_name = "ID")]
    pub from_session: String,
    /// Append the case to this suite file (default: print it).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// The case id (default: from the session's title).
    #[arg(long)]
    pub id: Option<String>,
}

#[derive(Args, Debug)]
pub struct RunsArgs {
    /// Only runs of this suite id.
    #[arg(long)]
    pub suite: Option<String>,
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    #[command(subcommand)]
    pub action: Option<RunsAction>,
}

#[derive(Subcommand, Debug)]
pub enum RunsAction {
    /// Delete old runs and give their space back: those beyond the newest N of each suite
    /// (--keep), started before a time ago (--older-than), or both; never a run in progress.
    Prune(prune::PruneArgs),
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The run: its id, a unique prefix, or `last`.
    pub run: String,
    /// Write the HTML report of the run here.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Show this iteration's trace (1-based): each turn's tool calls with arguments and
    /// results, the answer, the checks with their reasons, tokens, timing and any error.
    #[arg(long, value_name = "N")]
    pub iteration: Option<u32>,
    /// With --iteration: the case, when the run has several.
    #[arg(long = "case", value_name = "ID", requires = "iteration")]
    pub case_id: Option<String>,
    /// With --iteration: the model, when the run has several.
    #[arg(long, value_name = "PROVIDER::MODEL", requires = "iteration")]
    pub model: Option<String>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The baseline run.
    pub base: String,
    /// The run compared with it.
    pub run: String,
    /// Iterations each side needs before a change counts (default: 10).
    #[arg(long)]
    pub min_samples: Option<u32>,
    /// Also list, per iteration, where the tool calls or the outcome differ (e.g. a live run
    /// against its recording).
    #[arg(long)]
    pub traces: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The run.json of every shard.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Write the merged run (run.json, junit.xml, report.html, events.jsonl) here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Compare the merged run with this stored run (the regression gates read it).
    #[arg(long, value_name = "RUN")]
    pub baseline: Option<String>,
    #[command(flatten)]
    pub gates: GateArgs,
}

pub async fn run(cmd: EvalCmd, global: &Settings, data: &DataDir) -> Result<(), Failure> {
    match cmd {
        EvalCmd::Run(args) => run::run(*args, global, data).await,
        EvalCmd::Schema => authoring::schema(),
        EvalCmd::Init(args) => authoring::init(*args, global, data).await,
        EvalCmd::Import(args) => authoring::import(args),
        EvalCmd::AddCase(args) => authoring::add_case(args, data),
        EvalCmd::Runs(RunsArgs {
            action: Some(RunsAction::Prune(args)),
            ..
        }) => prune::prune(args, global, data),
        EvalCmd::Runs(args) => history::runs(args, global, data),
        EvalCmd::Show(args) => history::show(args, global, data),
        EvalCmd::Compare(args) => history::compare(args, global, data),
        EvalCmd::Merge(args) => history::merge(args, global, data),
    }
}
