//! mcplab-evalrun: the eval runner. It reads a suite (mcplab's or MCPJam's format) and gets it
//! ready against the store's servers (`prepare`), then runs its plan (`runner`): each iteration
//! runs the case's user turns through core's session runtime — the same HostConfig and turn
//! loop as the chat, nobody attending — with the run's models (behind a run-wide retry budget
//! for rate limits) and servers (reconnected when they go away), or plays a recorded run back
//! with no API key and no live server (`replay`); the evals crate judges each trace, and every
//! finished iteration is stored at once. `drafting` asks a model for cases, `history` reads stored runs back,
//! `trace_view` one stored iteration as a person reads it, `trend` a suite's
//! pass rate per model over its runs. It neither prints
//! nor serves HTTP: the CLI and the web server consume its events.

pub mod authoring;
mod deadline;
pub mod drafting;
mod execute;
mod history;
mod iteration;
mod observe;
pub mod prepare;
mod providers;
pub mod render;
mod replay;
mod retry;
mod runner;
mod servers;
mod trace_view;
pub mod trend;

pub use history::{
    HistoryError, RunHeader, StoredRun, TraceDifference, compare_runs, load_run, resolve_run_id,
    summary_of, trace_differences,
};
pub use observe::{RecordedError, RecordedEvent, RecordedStep};
pub use prepare::{Overrides, PrepareError, Prepared, SuiteText, prepare};
pub use render::AppRenderer;
pub use retry::RetryBudget;
pub use runner::{
    DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, RunEnv, RunError, RunOutcome, RunSink, RunSpec,
    RunStatus, first_declaration, new_run_id, run,
};
pub use trace_view::{iteration_trace, pick_unit};
