//! mcplab-server's router tests, built as one test binary (`autotests = false` and one
//! `[[test]]` in Cargo.toml): each file is a module, all on the shared harness
//! `router_support` (the real router, an in-memory store, real connection managers). Router
//! tests whose demo MCP server is the mcplab binary (`mcplab demo-server`) stay in that crate's
//! tests, which can name the binary. One file's tests:
//! `cargo nextest run -p mcplab-server -E 'binary(it) & test(/^security_api::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod router_support;

mod api_limits;
mod compare_api;
mod evals_api;
mod oauth_api;
mod security_api;
mod server_order;
