//! mcplab-evalrun: the eval runner. It reads a suite (mcplab's or MCPJam's format) and gets it
//! ready against the store's servers (`prepare`), then runs its plan (`runner`): each iteration
//! runs the case's user turns through core's session runtime — the same HostConfig and turn
//! loop as the chat, nobody attending — with the run's models (behind a run-wide retry budget
//! for rate limits) and servers (reconnected when they go away), or plays a recorded run back
//! with no API key and no live server (`replay`); the evals crate judges each trace, and every
//! finished iteration is stored at once (`detail`, typed). `drafting` asks a model for cases,
//! `history` reads stored runs back and builds the views the CLI prints and the server answers,
//! `trace_view` one stored iteration as a person reads it, `trend` a suite's
//! pass rate per model over its runs. It neither prints
//! nor serves HTTP: the CLI and the web server consume its events.
//!
//! A run: the suite loads (every error at once, with line numbers), the plan is cases × models
//! × iterations (or one `--shard`), models are checked and servers connected before anything
//! runs, the run row is written, and each iteration runs unattended (approvals skipped,
//! elicitation declined unless the host says otherwise), is judged and stored with its trace,
//! so a crash loses only the iterations in flight. A timeout or a lost server errors its
//! iteration. Then summary, `--baseline` comparison, gates and the CLI's exit code: 0 pass, 1 a
//! gate fails, 2 usage or suite error, 3 incomplete or undecidable, 130 cancelled (finished
//! iterations kept). `--record` keeps model answers and tool results for `--replay RUN`.
//!
//! # Where things are
//!
//! - `crates/mcplab-evalrun`: The eval runner (issue 13), on core + `mcplab-evals`; neither prints
//!   nor serves HTTP. `prepare.rs` (suite or MCPJam file → `Prepared`: servers by config name or
//!   inline `mcpServers`, `host` inline or a HostConfig file beside the suite, `hosts:` resolved to
//!   built-in or the person's own profiles (`Overrides.hosts_dir`: the data directory's `hosts/`,
//!   set by the CLI and `serve`) over that host, overrides of models/repeat/cases), `runner.rs`
//!   (the plan or one shard, models checked and servers connected first — once per host declaration
//!   the run's hosts make, the first on the caller's manager (`first_declaration`), the others on
//!   `ConnectionManager::sibling`s sharing its traffic log —, the run row written, iterations up to
//!   the concurrency, each stored as it finishes, then summary, baseline comparison, gates, run row
//!   completed; cancel keeps what finished), `simulate.rs` (a simulated user writing each turn's message, its tokens apart), `steps.rs` (a case's model-free steps: each tool called directly, kept as a turn's events),
//!   `iteration.rs` + `execute.rs` (one iteration = the
//!   case's user turns through core's `HostTurn` under the suite's HostConfig — or its unit's host
//!   profile —, `Attendance::Unattended` — the chat's turn loop, not a fork — events bounded,
//!   traced, judged), `retry.rs` (run-wide retry budget for rate limits and 5xx, `retry-after`
//!   honoured; each wait pauses the iteration's deadline), `deadline.rs` (the per-iteration
//!   deadline that stands still during those waits: the timeout measures the model and the servers,
//!   not the provider's quota; the waits stay bounded by the retry policy), `servers.rs` (one
//!   `ServerHealth` per declaration; a server that went away is reconnected and the iterations that
//!   used it are errored), `observe.rs` + `replay.rs` (record model answers and tool results;
//!   replay them with an in-process MCP server and a replaying provider: no key, no live server),
//!   `render.rs` (the app checks' hook (`appRendered`, `noConsoleErrors`, `maxRenderMs`): `AppRenderer::render(manager, spec)` renders under the
//!   cell's own host app profile through that host's connections; no renderer = errored with the
//!   reason; the CLI, `serve` and `mcplab mcp` provide the same renderer,
//!   `mcplab_server::headless::LoopbackRenderer`, serving an API + sandbox per client declaration),
//!   `history.rs` (stored runs read back, compare, trace differences), `trace_view.rs` (one stored
//!   iteration as a person reads it: per turn the events, tool calls with arguments and results,
//!   answer, end, tokens, clocks; the checks with reasons, the call differences, the judge, the
//!   error — what the page and `eval show --iteration` show), `trend.rs` (a suite's ended runs
//!   oldest first, per model every case pooled: passes/n with the 95 % Wilson interval, for the
//!   page's chart), `authoring.rs` (case from a chat session, append keeping the file, starter
//!   cases), `commands.rs` (`command:` checks: the iteration on stdin, the verdict on stdout,
//!   in the suite's folder with a server's environment, killed as a group past its timeout,
//!   stdout bounded), `prune.rs` (`eval runs prune`'s
//!   words — keep N per suite, older than `30d` — as the store's rule, for the CLI and the page),
//!   `drafting.rs` (cases a model drafts from the tools, for `eval init --generate` and
//!   anything else).

pub mod authoring;
mod commands;
mod connect;
mod deadline;
mod detail;
pub mod drafting;
mod execute;
mod history;
mod iteration;
mod launch;
pub mod merge;
mod observe;
pub mod prepare;
mod providers;
mod prune;
pub mod render;
mod replay;
mod retry;
mod runner;
mod servers;
mod simulate;
mod steps;
mod trace_view;
pub mod trend;

pub use connect::{ToolCheck, check_only, check_tools};
pub use history::{
    HistoryError, RunHeader, StoredRun, TraceDifference, compare_runs, compare_view, load_run,
    resolve_run_id, run_item, run_view, summary_of, trace_differences,
};
pub use launch::{is_trusted, launch_list, launch_text, remember_trusted};
pub use observe::{RecordedError, RecordedEvent, RecordedStep};
pub use prepare::{Overrides, PrepareError, Prepared, SuiteText, prepare};
pub use prune::{parse_age, prune_rule};
pub use render::AppRenderer;
pub use retry::RetryBudget;
pub use runner::{
    DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, RunEnv, RunError, RunOutcome, RunSink, RunSpec,
    RunStatus, first_declaration, new_run_id, run,
};
pub use trace_view::{iteration_trace, pick_unit};
