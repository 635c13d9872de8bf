//! The MCP connection layer: the only place rmcp is named. Raw wires (stdio, streamable HTTP,
//! legacy SSE) move exact bytes; `frame_transport` records and parses them; `handler` turns
//! server-initiated traffic into domain events; `manager` owns connections and statuses.

mod broker;
mod connection;
mod error;
mod event_gate;
mod exchange_links;
mod frame_transport;
mod handler;
pub mod http;
mod legacy_sse;
pub mod limits;
mod listing;
mod manager;
pub mod modern;
mod peek;
pub mod pending;
mod process_tree;
mod skills;
pub mod sse;
pub mod stdio;
mod task_flow;
pub mod tasks;
#[cfg(feature = "server")]
pub mod tool_server;
pub mod traffic;
pub mod wire;

pub use broker::Broker;
pub use connection::{CACHE_MARKER, Connection, RequestOptions};
pub use error::McpError;
pub use handler::{
    ClientIdentity, PROTOCOL_VERSION, ProgressUpdate, RootEntry, SUPPORTED_PROTOCOL_VERSIONS,
};
pub use limits::{LimitError, Limits};
pub use listing::Listing;
pub use manager::{BuiltinServer, ConnectionManager, DeclaredAs, ManagerOptions};
pub use process_tree::reap_orphans;
pub use traffic::TrafficLog;
