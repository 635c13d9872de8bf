//! The testkit's self-tests, built as one test binary (`autotests = false` and one `[[test]]`
//! in Cargo.toml): the fixture server and the scripted LLM server, each a module. One file's
//! tests: `cargo nextest run -p mcplab-testkit -E 'binary(it) & test(/^fixture::/)'`.

mod fixture;
mod scripted_llm;
