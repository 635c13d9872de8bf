//! The wire contract shared by the CLI, the HTTP API and the web UI: server configurations,
//! connection statuses, recorded traffic frames and the domain events the MCP layer emits.
//! Plain serde + schemars types only: no tokio, no axum, no behaviour beyond (de)serialization
//! and small pure helpers. The TypeScript types of the web UI are generated from these.

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
