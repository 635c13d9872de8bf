//! The session runtime shared by the web server, `mcplab chat` and evals: a session's
//! [`HostConfig`](mcplab_protocol::host::HostConfig) (canonical JSON and hash in [`host`]),
//! how one turn runs under it ([`HostTurn`]: every chat turn, and every user turn of an eval
//! iteration), its live side (one running turn, idempotent submit by turn id, a replay ring
//! bounded in bytes, approvals, app context), host profiles ([`profiles`]: named HostConfig
//! presets with the public source of each value), persistence of its turns through the store, the
//! merge of provider settings, title naming and export. It knows nothing of HTTP or
//! terminals: the server serves its streams as SSE, the CLI prints its events.

pub mod compare;
mod compare_group;
mod export;
pub mod host;
mod host_turn;
mod hub;
pub mod profiles;
mod runtime;
mod turns;
mod xray_bodies;

pub use compare_group::{MAX_COLUMNS, MIN_COLUMNS};
pub use export::{Export, to_markdown};
pub use host_turn::{Attendance, HostTurn};
pub use hub::{DEFAULT_TITLE, LlmSettings, SessionError, SessionHub};
pub use runtime::{REPLAY_BYTES, REPLAY_EVENTS, RuntimeSnapshot, SessionRuntime};
pub use turns::{EndedTurn, Submitted, TurnObserver, TurnTask, title_from};
pub use xray_bodies::without_xray_bodies;
