//! The testkit's self-tests, built as one test binary (`autotests = false` and one `[[test]]`
//! in Cargo.toml): the fixture server and the scripted LLM server, each a module. They need the
//! `test-servers` feature (a workspace run gets it from the other crates' dev-dependencies).
//! One file's tests: `cargo nextest run -p mcplab-testkit --features test-servers
//! -E 'binary(it) & test(/^fixture::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod fixture;
mod scripted_llm;
