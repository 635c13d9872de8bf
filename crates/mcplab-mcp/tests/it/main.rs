//! mcplab-mcp's integration tests, built as one test binary (`autotests = false` and one
//! `[[test]]` in Cargo.toml): each file is a module, all against the testkit's servers; `support` holds what
//! several use. One
//! file's tests: `cargo nextest run -p mcplab-mcp -E 'binary(it) & test(/^hostile::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod support;

mod fixture_uis;
mod hostile;
mod hostile_modern;
mod in_process;
mod modern;
mod oauth_ssrf;
#[cfg(feature = "server")]
mod tool_server_rounds;
