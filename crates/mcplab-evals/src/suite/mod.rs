//! Suite files: the model (`model`, `case`, `check`, `dataset` and its expansion into
//! cases), loading with every error at once (`load`,
//! on the YAML front end `mcplab_yaml`), the checks a schema cannot make (`validate`)
//! and the published JSON Schema (`schema`).

mod case;
mod check;
mod dataset;
mod from_session;
mod load;
mod model;
mod schema;
mod tool_names;
mod validate;

pub use case::{
    ArgumentMode, Case, DetailedTurn, ExpectedCall, ExtraCalls, Judge, Order, SimulatedUser, Step,
    ToolCallExpectations, ToolCallOptions, ToolOverride, Turn,
};
pub use check::{
    AppRenderedCheck, Check, CommandCheck, DEFAULT_COMMAND_TIMEOUT_SECS, DetailedCommand,
    DetailedNeedle, JsonPathCheck, TextNeedle, ToolJsonPathCheck, ToolResultCheck,
};
pub use dataset::{Dataset, DatasetFile, MAX_ROWS, Problems, expand, parse_rows};
pub use from_session::{case_from_turns, compared_turn_suite};
pub use load::{
    LoadLimits, SuiteError, SuiteErrors, locate_problems, parse_suite, parse_suite_with,
};
pub use model::{Defaults, Gates, HostSpec, On, PassHatKGate, SCHEMA_ID, Suite, SuiteVersion};
pub use schema::suite_schema;
pub use tool_names::{Catalog, ToolRef, tool_refs, unknown_tools};
