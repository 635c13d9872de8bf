//! Chat sessions at the HTTP edge. Everything about sessions (turns, idempotency, the event
//! ring, persistence, HostConfig, app context) is `mcplab_core::session`; the routes in
//! `routes/chat.rs` call it and serve a session's ring through [`crate::events::sse`].

pub use mcplab_protocol::clock::now_ms;
