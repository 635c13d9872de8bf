//! `mcplab check`, the referee a server must pass before it ships: it connects once per era
//! the server speaks ([`eras`]), records every frame, and runs rule sets over the recording.
//! The CLI and the web API drive it; it prints and serves nothing — [`render`] turns a
//! [`CheckReport`] into text, JUnit, SARIF or Markdown for them.
//!
//! # The plug-in model
//!
//! A rule set is data plus functions ([`sets::RuleSetDef`]):
//!
//! - `rules`: its [`Rule`]s — id, set, level (MUST → error, SHOULD → warning, otherwise
//!   info), summary, [`rule::Source`] (a spec section that follows the negotiated revision,
//!   or a public page with the date it was read) and fix. `--list-rules` and SARIF read them.
//! - `exercise` (optional): an [`sets::Exercise`] that drives the live connection before
//!   judging — the spec set's probe lists everything; a fuzzer would call tools. Requests it
//!   sends are recorded as traffic; what it observes goes into the [`Recording`] (add a
//!   field there for a new kind of observation).
//! - `judge`: a plain function over one era's [`Recording`] and the [`CheckOptions`] that
//!   adds findings to a [`findings::Findings`] with an [`findings::At`] (frames, JSON path,
//!   excerpt). Judges never send anything.
//! - `conclude` (optional): a function over every era's recording, for findings about the
//!   server as a whole (the baseline's "no longer speaks this era").
//!
//! To add a set (hosts, readiness, fuzzing): add its variant to
//! [`mcplab_protocol::check::RuleSet`], write a module with its `RULES` table (each rule
//! written through the set's one [`rule::RuleTable`]) and a `pub static SET: RuleSetDef`, list it in [`sets::registry`], and, if it is optional, say
//! in [`CheckOptions::selected`] when it runs (today: asked for in `CheckOptions::sets`, or
//! the input it needs is given). Findings, per-era rule lists (JUnit cases), every renderer
//! and `--list-rules` pick it up without further changes. [`Recording::results`] pairs each
//! result with its request; [`security`]'s text gathering and [`schema_refs::compile`]
//! (tool schemas, never fetching a remote `$ref`) are there to reuse.
//!
//! # Modules
//!
//! [`spec`] (every frame against the vendored schema of the negotiated revision, plus the
//! behaviour rules), [`security`] (poisoning, hidden Unicode, shadowing, secrets in URLs,
//! plain-HTTP auth), [`hosts`] (a verdict per host profile; [`apps`] reads and scans the
//! `ui://` resources it and [`readiness`] judge), [`readiness`] (Anthropic's and OpenAI's
//! directory requirements), [`fuzz`] (schema-driven inputs to tools safe to call), [`baseline`] (the versioned surface format and breaking-change
//! classification), [`run`] (one era: exercise, record, judge; the report), [`eras`] (which
//! eras to check, through a caller's [`eras::Connector`]), [`render`], [`redact`] (secrets in
//! the server's URL masked in the report), [`tool_findings`] (the spec and security judges over
//! the tools a live connection listed, grouped by tool: the Tools page's marks; a finding about
//! one tool names it in `Finding::tool`).
//!
//! # Where things are
//!
//! - `crates/mcplab-check/src/`: `mcplab check` and `POST /api/servers/{name}/check` (crate
//!   `mcplab-check`): rule sets as data plus functions over a `Recording` of one era's session
//!   (`sets.rs`: `RuleSetDef` = rules + optional `Exercise` + `judge` + optional `conclude`, the
//!   `registry`; `rule.rs`: id, set, MUST/SHOULD level → severity, spec-section or dated-page
//!   source, fix; each set writes its table through one `RuleTable`); `spec/` (probe, every frame
//!   in both directions against the vendored schema of the negotiated revision, tool/result rules,
//!   behaviour), `security/`, `baseline/` (versioned surface format, breaking vs compatible),
//!   `eras.rs` (each era the server speaks, via the caller's `Connector`), `render/` (text, JUnit,
//!   SARIF 2.1.0, Markdown, `--list-rules`). The `//!` of `lib.rs` says how to add a set. Sends
//!   requests only through a `Connection`; prints nothing.

mod apps;
pub mod baseline;
pub mod eras;
mod findings;
pub mod fresh;
mod fuzz;
mod hosts;
pub mod live;
pub mod options;
mod readiness;
mod recording;
mod redact;
pub mod render;
mod rule;
mod run;
mod schema_refs;
mod security;
pub mod sets;
mod spec;
pub mod tool_findings;
mod visible;

pub use live::render_all;
pub use mcplab_protocol::check::CheckReport;
pub use options::{CheckOptions, Peer};
pub use recording::Recording;
pub use rule::Rule;
pub use run::{EraResult, check_connection, check_failed_connect, report};
