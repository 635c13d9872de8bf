//! The agent loop, UI-agnostic: the tool catalog (model-facing names, collisions, MCP Apps
//! visibility, the HostConfig's tool filters), the turn loop that streams a model, runs the
//! tools it calls on the right servers and feeds results back (streaming partial tool input
//! and progress as they come), approvals and the elicitation policy, app context as extra
//! system messages, and the [`EventSink`] every consumer implements. It never prints and never
//! knows about HTTP.

mod approval;
mod catalog;
mod context;
pub mod cost;
mod elicitation;
mod sink;
mod timing;
mod tools;
mod turn;

pub use approval::{Approvals, DEFAULT_APPROVAL_TIMEOUT};
pub use catalog::{CatalogEntry, ToolCatalog, model_tool_name};
pub use context::app_context_message;
pub use elicitation::{answer_by_policy, form as elicitation_form};
pub use sink::{EventSink, RecordingSink};
pub use turn::{
    DEFAULT_STEP_LIMIT, DEFAULT_SYSTEM_PROMPT, TurnConfig, TurnOutcome, run_turn, shipped_prices,
};
