//! mcplab-tap's integration tests, one binary: `http` runs the HTTP tap in front of the
//! testkit's streamable HTTP server (both eras) and compares what a client gets through it
//! with what it gets directly.

mod http;
mod stdio;
