//! The wire contract shared by the CLI, the HTTP API and the web UI: server configurations,
//! connection statuses, recorded traffic frames and the domain events the MCP layer emits.
//! Plain serde + schemars types only: no tokio, no axum, no behaviour beyond (de)serialization
//! and small pure helpers. The TypeScript types of the web UI are generated from these.
//!
//! # Where things are
//!
//! - `crates/mcplab-protocol`: The wire contract: `ServerConfig`/`ServerTransport` (with `protocol:
//!   ProtocolChoice`, default `auto`), `ServerStatus`, `ServerEvent` (incl. `Task`),
//!   `HumanRequest`/`HumanAnswer`, `TrafficFrame` (with the HTTP `headers` of 2026-07-28 frames;
//!   `http`: a `TrafficHttpExchange` on an exchange record, `exchange`: the exchange record a frame
//!   travelled in), the era (`era.rs`: `ProtocolChoice`, `Era`, `EraView`), tasks (`tasks.rs`:
//!   `TaskView` and its status history, `TaskMode`), skills (`skills.rs`: `SkillLoadView`), the API
//!   bodies (`api.rs`), chat turn/session types (`chat.rs`), the x-ray, cost and turn-summary types
//!   (`xray.rs`), the `HostConfig` shape (`host.rs`; the issue-18 sections `client`, `toolCatalog`,
//!   `toolResults` and `appHost.hostCapabilities` — `AppHostCapabilities`: the MCP Apps host
//!   capabilities advertised in `ui/initialize`, `ServerProxy` off/on/listChanged,
//!   `ContentModality` lists — are left out of the written form at their defaults) and host
//!   profiles (`host_profile.rs`: `HostProfile`, `FieldSource` = `{url, read, note}` or
//!   `"unknown"`, `HostFieldDiff`), closed vocabularies as enums so TypeScript gets unions
//!   (`CallErrorKind`, `TurnFailureKind`, `HumanOutcome`; snake_case wire strings; `provider.rs`:
//!   `ProviderKind` with each family's built-in id, key/base-URL variables, endpoint and suggested
//!   models — the LLM layer re-exports it, the settings API and the web use it), and two std-only
//!   helpers every crate shares: `clock::now_ms` (the one wall clock records are stamped with) and
//!   `error_chain::error_chain` (an error and its sources on one line, each cause once). serde +
//!   schemars + ts-rs only (`JsonSchema` only where a schema is read: the HostConfig types, part of
//!   the eval suite's published schema; ts-rs for every API type, and `tests/typescript.rs` fails
//!   when a `TS` type is left out of `types.gen.ts`).
//! - `crates/mcplab-protocol/src/api.rs`: The route table and API bodies; `tests/typescript.rs`
//!   generates `web/src/api/types.gen.ts` and fails when it is stale; `mcplab-server`'s
//!   `routes::tests::every_route_is_in_the_protocol_route_table_and_back` fails when a served route
//!   has no row in the table or a row no route. `ServerTransport::oauth_applies` (in `config.rs`)
//!   is the one rule for whether mcplab runs OAuth for a server (the connection manager and the
//!   API's OAuth routes both use it).

pub mod api;
pub mod chat;
pub mod check;
pub mod clock;
mod config;
mod era;
pub mod error_chain;
mod events;
pub mod host;
pub mod host_conditions;
pub mod host_profile;
pub mod oauth;
pub mod provider;
mod skills;
pub mod tap;
mod tasks;
mod traffic;
pub mod xray;

pub use config::{ServerConfig, ServerTransport};
pub use era::{Era, EraView, ProtocolChoice};
pub use events::{
    HumanAnswer, HumanOutcome, HumanRequest, HumanRequestKind, ServerEvent, ServerStatus,
};
pub use host::HostConfig;
pub use skills::{SkillFileView, SkillLoadView};
pub use tasks::{TaskFlavor, TaskMode, TaskStatusEntry, TaskView};
pub use traffic::{Direction, FrameKind, RequestRef, TrafficFrame, TrafficHttpExchange};
