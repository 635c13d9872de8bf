//! The testkit's self-tests, built as one test binary (`autotests = false` and one `[[test]]`
//! in Cargo.toml): the fixture server and the scripted LLM server, each a module. Run one
//! file's tests with `cargo nextest run -p mcplab-testkit -E 'test(/^fixture::/)'`.

mod fixture;
mod scripted_llm;
