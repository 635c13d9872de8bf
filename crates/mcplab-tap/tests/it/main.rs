//! mcplab-tap's integration tests, one binary: `http` runs the HTTP tap in front of the
//! testkit's streamable HTTP server (both eras) and compares what a client gets through it
//! with what it gets directly.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod http;
mod stdio;
