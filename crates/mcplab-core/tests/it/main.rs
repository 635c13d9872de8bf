//! mcplab-core's integration tests, built as one test binary (`autotests = false` and one
//! `[[test]]` in Cargo.toml): each file is a module, so the dependency tree is linked once
//! rather than once per file. `turn_support` is the shared harness of the agent loop and
//! x-ray tests. One file's tests:
//! `cargo nextest run -p mcplab-core -E 'binary(it) & test(/^agent::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod turn_support;

mod agent;
mod agent_human;
mod host_profiles;
mod oauth;
mod xray;
