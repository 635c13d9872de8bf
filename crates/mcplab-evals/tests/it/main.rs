//! mcplab-evals' integration tests, built as one test binary (`autotests = false` and one
//! `[[test]]` in Cargo.toml): each file is a module. They read data relative to the crate
//! (`tests/fixtures/`, `suite.schema.json`, `examples/evals/`), not to this directory. One
//! file's tests: `cargo nextest run -p mcplab-evals -E 'binary(it) & test(/^matching::/)'`.

// A test crate has no public surface; its helpers are `pub` for the sibling modules.
#![allow(unreachable_pub)]

mod checks;
mod gates_and_shards;
mod import;
mod json_paths;
mod matching;
mod reports;
mod robustness;
mod statistics;
mod steps;
mod suite_file;
mod tool_names;
