//! Chat sessions at the HTTP edge. Everything about sessions (turns, idempotency, the event
//! ring, persistence, HostConfig, app context) is `mcplab_core::session`; the routes in
//! `routes/chat.rs` call it and serve a session's ring through [`crate::events::sse`].

/// Milliseconds since the Unix epoch (other routes stamp their records with it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}
